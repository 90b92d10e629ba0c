"""Issue 24, protocol 3 on the client side: ``omaha bots`` follows ``redirect``, learns every
process's URL from ``tables``, backs off while its table has no owner, and resumes with its
token at the table's new owner.

The arena of several processes is played here by small fake WebSocket servers that send
``redirect`` and ``tables`` and close connections as the protocol says (every message they
send of those kinds is checked against the shipped schema); the single-process runs go
against the real server, to show that nothing changed there."""

import asyncio
import itertools
import json
import subprocess
import sys
import time

import pytest

websockets = pytest.importorskip("websockets")
jsonschema = pytest.importorskip("jsonschema")

from omaha.arena import ArenaSettings, load_schema
from omaha.arena import client as client_module
from omaha.arena.client import BotClient, BotReport, run_bots
from omaha.arena.export import check_conservation
from omaha.arena.server import ArenaServer
from omaha.arena.storage import SqliteStorage
from omaha.config import GameConfig
from serving import ENV, free_port
from test_arena_server import FAST_CLOCK

SERVER_MESSAGE = jsonschema.Draft202012Validator(
    {**{k: v for k, v in load_schema().items() if k != "oneOf"}, "$ref": "#/$defs/server_message"})
GAME = GameConfig(big_blind=2).to_dict()
CHECKED = ("joined", "resumed", "tables", "redirect", "error")


def run(coro, timeout=30):
    return asyncio.run(asyncio.wait_for(coro, timeout))


class Fake:
    """One fake arena process: ``script(fake, ws)`` plays each connection; every message
    received is kept with the time it came in."""

    def __init__(self, script):
        self.script = script
        self.received = []   # (monotonic time, message)
        self.url = None
        self.server = None

    async def start(self, port=0):
        try:
            from websockets.asyncio.server import serve
        except ImportError:   # websockets 12
            serve = websockets.serve
        self.server = await serve(self._handle, "127.0.0.1", port, compression=None)
        self.url = f"ws://127.0.0.1:{next(iter(self.server.sockets)).getsockname()[1]}"
        return self

    async def _handle(self, ws, *_):
        try:
            await self.script(self, ws)
        except websockets.exceptions.ConnectionClosed:
            pass

    async def recv(self, ws):
        message = json.loads(await ws.recv())
        self.received.append((time.monotonic(), message))
        return message

    async def send(self, ws, message):
        if message["type"] in CHECKED:
            SERVER_MESSAGE.validate(message)
        await ws.send(json.dumps(message))

    def kinds(self):
        return [m["type"] for _, m in self.received]

    def of(self, kind):
        return [m for _, m in self.received if m["type"] == kind]

    async def close(self):
        self.server.close()
        await self.server.wait_closed()


def joined(token, *, table=1, seat=2, seq=0, protocol=3):
    return {"type": "joined", "table": table, "seat": seat, "token": token, "seq": seq,
            "settings": {"game": GAME}, "protocol": protocol}


def resumed(*, table=1, seat=2, seq=0):
    return {"type": "resumed", "table": table, "seat": seat, "seq": seq, "gap": False,
            "protocol": 3}


def lobby(*owners):
    """A ``tables`` message: table i+1 played at owners[i] (None: between owners)."""
    return {"type": "tables", "tables": [
        {"table": number, "owner": owner, "seats": 6, "players": 1, "seats_free": 5,
         "game": GAME, "buy_in": 200} for number, owner in enumerate(owners, start=1)]}


def update(hand, first, last, *, over, table=1):
    """Events first..last of ``hand``; a view that is over (the bot stops after hand
    ``hands``) or in which someone else is to act."""
    view = {"is_over": over, "legal": None, "to_act": None, "seat": 2}
    return {"type": "update", "table": table, "hand": hand, "decision": None, "view": view,
            "events": [{"seq": s, "hand": hand, "event": {}} for s in range(first, last + 1)]}


def test_a_join_follows_a_redirect_and_the_bot_learns_every_url_from_tables():
    async def main():
        async def elsewhere(fake, ws):   # plays nothing: sends every join to the owner
            message = await fake.recv(ws)
            assert message["type"] == "join"
            await fake.send(ws, {"type": "redirect", "table": 2, "owner": owner.url,
                                 "message": "table 2 is played at " + owner.url})
            await ws.wait_closed()

        async def owning(fake, ws):
            message = await fake.recv(ws)
            await fake.send(ws, joined(message["token"], table=2))
            assert (await fake.recv(ws)) == {"type": "tables"}   # protocol 3: learn the lobby
            await fake.send(ws, lobby(front.url, fake.url, third, None))
            await fake.send(ws, update(1, 1, 4, over=True, table=2))
            await ws.wait_closed()

        third = f"ws://127.0.0.1:{free_port()}"
        front, owner = await Fake(elsewhere).start(), await Fake(owning).start()
        bot = BotClient(front.url, "ann", hands=1)
        report = await bot.run()
        await front.close()
        await owner.close()
        return bot, report, front, owner, third

    bot, report, front, owner, third = run(main())
    (first,), (second,) = front.of("join"), owner.of("join")
    assert first["token"] == second["token"] == bot.token   # the same join, idempotent
    assert "table" not in second                             # the bot asked for no table
    assert report.redirects == 1 and report.reconnects == 0
    assert (report.table, report.seat, report.last_seq, report.gaps) == (2, 2, 4, 0)
    assert bot.urls == [front.url, owner.url, third]         # every owner, once, in order


def test_when_its_server_dies_the_bot_resumes_at_another_known_url_with_its_token():
    async def main():
        async def dying(fake, ws):
            message = await fake.recv(ws)
            await fake.send(ws, joined(message["token"], seq=0))
            assert (await fake.recv(ws)) == {"type": "tables"}
            await fake.send(ws, lobby(fake.url, other.url))
            await fake.send(ws, update(1, 1, 5, over=False))
            died.set()

        async def taking_over(fake, ws):
            message = await fake.recv(ws)
            if message["type"] != "resume":
                return
            await fake.send(ws, resumed(seq=message["last_seq"]))
            await fake.recv(ws)   # tables
            await fake.send(ws, lobby(fake.url, fake.url))
            await fake.send(ws, update(1, message["last_seq"] + 1, 9, over=True))
            await ws.wait_closed()

        died = asyncio.Event()
        first, other = await Fake(dying).start(), await Fake(taking_over).start()
        bot = BotClient(first.url, "ann", hands=1)
        task = asyncio.create_task(bot.run())
        await died.wait()
        await first.close()   # a dead process: its socket refuses every connection
        report = await task
        await other.close()
        return bot, report, first, other

    bot, report, first, other = run(main())
    (join,), (resume,) = first.of("join"), other.of("resume")
    assert resume == {"type": "resume", "token": join["token"], "last_seq": 5}
    assert join["token"] == bot.token and bot.urls == [first.url, other.url]
    assert report.reconnects >= 1 and report.redirects == 0
    assert report.gaps == 0 and report.last_seq == 9


def test_owner_null_backs_off_and_asks_for_tables_until_the_table_has_an_owner():
    async def main():
        async def losing(fake, ws):
            message = await fake.recv(ws)
            if message["type"] == "join":   # seated, then the table is lost
                await fake.send(ws, joined(message["token"]))
                await fake.recv(ws)   # tables
                await fake.send(ws, lobby(fake.url, later.url))
                await fake.send(ws, update(1, 1, 3, over=False))
                await fake.send(ws, {"type": "redirect", "table": 1, "owner": None,
                                     "message": "table 1 is between owners"})
                await ws.close(4002, "table moved")
                return
            assert message["type"] == "resume"   # the bot came back: still no owner
            await fake.send(ws, {"type": "redirect", "table": 1, "owner": None,
                                 "message": "table 1 is between owners"})
            asked = 0
            while True:
                assert (await fake.recv(ws)) == {"type": "tables"}
                asked += 1
                await fake.send(ws, lobby(None if asked < 3 else later.url, later.url))

        async def later(fake, ws):
            message = await fake.recv(ws)
            await fake.send(ws, resumed(seq=message["last_seq"]))
            await fake.recv(ws)
            await fake.send(ws, lobby(fake.url, fake.url))
            await fake.send(ws, update(1, message["last_seq"] + 1, 7, over=True))
            await ws.wait_closed()

        front = await Fake(losing).start()
        later = await Fake(later).start()
        bot = BotClient([front.url], "ann", hands=1)
        report = await bot.run()
        await front.close()
        await later.close()
        return bot, report, front, later

    bot, report, front, later = run(main())
    assert report.redirects == 2
    assert later.of("resume") == [{"type": "resume", "token": bot.token, "last_seq": 3}]
    asked = [t for t, m in front.received if m == {"type": "tables"}][1:]   # after the loss
    assert len(asked) == 3
    gaps = [b - a for a, b in itertools.pairwise(asked)]
    assert min(gaps) >= 0.09   # 0.1, 0.2, 0.4 ... (0.05 went before the first)
    assert gaps[-1] > gaps[0]
    (came, _), = later.received[:1]
    assert came - asked[-1] < 0.5   # the owner named: there at once, no more back-off
    assert report.gaps == 0 and report.last_seq == 7


def test_a_table_moved_mid_hand_resumes_at_the_named_owner():
    async def main():
        async def moving(fake, ws):
            message = await fake.recv(ws)
            await fake.send(ws, joined(message["token"], protocol=3))
            await fake.recv(ws)
            await fake.send(ws, lobby(fake.url))
            await fake.send(ws, update(1, 1, 6, over=False))
            await fake.send(ws, {"type": "redirect", "table": 1, "owner": new.url,
                                 "message": "table 1 moved"})
            await ws.close(4002, "table moved")

        async def new_owner(fake, ws):
            message = await fake.recv(ws)
            await fake.send(ws, resumed(seq=message["last_seq"]))
            await fake.recv(ws)
            await fake.send(ws, lobby(fake.url))
            await fake.send(ws, update(1, 7, 8, over=True))
            await ws.wait_closed()

        old, new = await Fake(moving).start(), await Fake(new_owner).start()
        bot = BotClient(old.url, "ann", hands=1)
        report = await bot.run()
        await old.close()
        await new.close()
        return bot, report, old, new

    bot, report, old, new = run(main())
    assert new.kinds() == ["resume", "tables"]
    assert new.of("resume")[0] == {"type": "resume", "token": bot.token, "last_seq": 6}
    assert len(old.of("join")) == 1 and not old.of("resume")   # never back to the old one
    assert report.redirects == 1 and report.reconnects == 0 and report.gaps == 0
    assert bot.urls == [old.url, new.url]


def test_a_protocol_2_server_is_never_asked_for_tables():
    async def main():
        async def old_server(fake, ws):
            message = await fake.recv(ws)
            await fake.send(ws, joined(message["token"], protocol=2))
            await fake.send(ws, update(1, 1, 2, over=True))
            await ws.wait_closed()

        fake = await Fake(old_server).start()
        report = await BotClient(fake.url, "ann", hands=1).run()
        await fake.close()
        return report, fake

    report, fake = run(main())
    assert fake.kinds() == ["join"] and report.redirects == 0


def test_back_off_doubles_from_50_ms_to_2_s_and_starts_again_after_an_answer(monkeypatch):
    slept = []

    async def sleep(seconds):
        slept.append(seconds)

    bot = BotClient(["ws://127.0.0.1:1", "ws://127.0.0.1:2"], "ann")
    monkeypatch.setattr(client_module.asyncio, "sleep", sleep)

    async def main():
        for _ in range(8):
            await bot._back_off()
        bot._answered("ws://127.0.0.1:2", 3)
        await bot._back_off()
    asyncio.run(main())
    assert slept == [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0, 0.05]
    assert bot.target == "ws://127.0.0.1:2"


def test_unreachable_urls_are_tried_in_turn():
    bot = BotClient(["ws://a:1", "ws://b:1", "ws://a:1", "ws://c:1"], "ann")
    assert bot.urls == ["ws://a:1", "ws://b:1", "ws://c:1"]
    tried = []
    for _ in range(4):
        url = bot._next_url()
        tried.append(url)
        bot._unreachable(url)
    assert tried == ["ws://a:1", "ws://b:1", "ws://c:1", "ws://a:1"]
    with pytest.raises(ValueError):
        BotClient([], "ann")


def test_single_process_real_server_with_a_dead_url_first_and_a_list(tmp_path):
    """The real (single-process) server: bots given a dead URL before the live one find it,
    and a list with the URL twice plays as one URL; nothing is redirected."""
    async def main():
        server = ArenaServer(str(tmp_path / "a.sqlite"),
                             ArenaSettings(tables=2, seats=3, clock=FAST_CLOCK), port=0)
        port = await server.start()
        live, dead = f"ws://127.0.0.1:{port}", f"ws://127.0.0.1:{free_port()}"
        try:   # six bots fill both tables (three seats each), each run on its own tables
            reports = await run_bots([dead, live], count=6, hands=6, seed=5, timeout=20)
            more = ArenaServer(str(tmp_path / "b.sqlite"),
                               ArenaSettings(tables=1, seats=2, clock=FAST_CLOCK), port=0)
            again = f"ws://127.0.0.1:{await more.start()}"
            try:
                reports += await run_bots([again, again], count=2, hands=6, seed=6, timeout=20)
            finally:
                await more.close()
        finally:
            await server.close()
        return reports

    reports = run(main(), 60)
    assert all(isinstance(r, BotReport) for r in reports)
    assert all(r.redirects == 0 and r.gaps == 0 and r.errors == [] for r in reports), reports
    assert all(r.actions > 0 for r in reports)
    assert sum(r.reconnects for r in reports) == 3   # the bots that tried the dead URL first
    assert sum(r.reconnects for r in reports[6:]) == 0
    for db in ("a.sqlite", "b.sqlite"):
        storage = SqliteStorage(str(tmp_path / db))
        try:
            assert check_conservation(storage) == []
        finally:
            storage.close()


def test_omaha_bots_takes_several_urls(tmp_path):
    async def main():
        server = ArenaServer(str(tmp_path / "a.sqlite"),
                             ArenaSettings(tables=1, seats=3, clock=FAST_CLOCK), port=0)
        port = await server.start()
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "omaha", "bots", f"ws://127.0.0.1:{free_port()}",
                f"ws://127.0.0.1:{port}", "--count", "3", "--hands", "4", "--seed", "2",
                "--timeout", "40", stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
            out, err = await process.communicate()
        finally:
            await server.close()
        return process.returncode, out.decode(), err.decode()

    code, out, err = run(main(), 60)
    assert code == 0, err
    assert "3 bots at 1 tables" in out and "0 redirects, 0 stream gaps" in out
