"""A real arena server and real WebSocket clients on 127.0.0.1, hostile ones included."""

import asyncio
import json
import signal
import subprocess
import sys
import time

import pytest

websockets = pytest.importorskip("websockets")
jsonschema = pytest.importorskip("jsonschema")

from omaha.arena import ArenaSettings, load_schema
from omaha.arena.client import BotClient, run_bots
from omaha.arena.export import check_conservation
from omaha.arena.server import ArenaServer
from omaha.arena.storage import SqliteStorage
from omaha.phh import loads_all, replay_history
from serving import ENV, free_port, launch, stop  # one way to start a server

SERVER_MESSAGE = jsonschema.Draft202012Validator(
    {**{k: v for k, v in load_schema().items() if k != "oneOf"}, "$ref": "#/$defs/server_message"})
FAST_CLOCK = {"base_ms": 300, "countdown_ms": 300, "reconnect_bonus_ms": 300}


def connect(url):
    try:
        from websockets.asyncio.client import connect as ws_connect
    except ImportError:
        ws_connect = websockets.connect
    return ws_connect(url, max_size=2**22)


async def receive(ws, kind, *, timeout=5.0):
    """Messages until one of type ``kind`` (returned last); each checked against the schema."""
    seen = []
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        SERVER_MESSAGE.validate(message)
        seen.append(message)
        if message["type"] == kind:
            return seen


def no_foreign_hole_cards(messages, seat):
    """Before showdown a client sees only its own hole cards."""
    for message in messages:
        if message["type"] != "update":
            continue
        for item in message["events"]:
            event = item["event"]
            if event["type"] == "hole_dealt" and event["seat"] != seat:
                assert event["cards"] is None
            if event["type"] == "card_burned":
                assert event["card"] is None
        view = message["view"]
        if view is not None and not view["is_over"] and view["street"] != "showdown":
            for player in view["players"]:
                if player["seat"] != seat:
                    assert player["cards"] is None


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


def test_bots_play_hands_and_every_hand_replays(tmp_path):
    async def main():
        server = ArenaServer(str(tmp_path / "a.sqlite"),
                             ArenaSettings(tables=2, seats=3, clock=FAST_CLOCK), port=0)
        port = await server.start()
        reports = await run_bots(f"ws://127.0.0.1:{port}", count=6, hands=8, seed=1, timeout=40)
        await server.close()
        return reports
    reports = run(main())
    assert {r.table for r in reports} == {1, 2}
    assert all(r.gaps == 0 and not r.errors for r in reports)
    storage = SqliteStorage(str(tmp_path / "a.sqlite"))
    hands = list(storage.finished_hands())
    assert {h.table for h in hands} == {1, 2} and len(hands) >= 16
    for hand in hands:
        history = loads_all(f"[h]\n{hand.phh}")[0]
        assert history.metadata["table"] == hand.table and history.metadata["hand"] == hand.hand
        assert len(history.metadata["players"]) == history.players
        assert replay_history(history).matches


def test_hostile_clients_get_errors_and_the_table_goes_on(tmp_path):
    async def main():
        server = ArenaServer(str(tmp_path / "a.sqlite"),
                             ArenaSettings(tables=1, seats=3, clock=FAST_CLOCK),
                             port=0, max_size=1024, rate=20, burst=30)
        port = await server.start()
        url = f"ws://127.0.0.1:{port}"
        async with connect(url) as a, connect(url) as b:
            await a.send(json.dumps({"type": "join", "name": "alice"}))
            joined_a = (await receive(a, "joined"))[-1]
            await b.send(json.dumps({"type": "join", "name": "bob"}))
            joined_b = (await receive(b, "joined"))[-1]
            seen_a = await receive(a, "update")
            # wait for the first hand to be dealt
            while True:
                seen_a += await receive(a, "update")
                view = seen_a[-1]["view"]
                if view is not None and not view["is_over"]:
                    break
            room = server.arena.rooms[1]
            before = room.hand.snapshot()
            to_act = view["to_act"]
            waiting, actor = (b, a) if to_act == joined_a["seat"] else (a, b)
            other_seat = joined_a["seat"] if actor is a else joined_b["seat"]   # the actor's
            hostile = [
                ("not json", "bad_json"),
                (json.dumps({"type": "dance"}), "unknown_type"),
                (json.dumps({"type": "act", "action": "call", "to": True}), "bad_message"),
                (json.dumps({"type": "act", "action": "call"}), None),        # out of turn
                (json.dumps({"type": "act", "action": "fold", "seat": other_seat}),
                 "not_your_seat"),
                (json.dumps({"type": "join", "name": "again"}), "already_joined"),
                (json.dumps({"type": "resume", "token": "forged", "last_seq": 0}), "bad_token"),
            ]
            for text, code in hostile:
                await waiting.send(text)
                error = (await receive(waiting, "error"))[-1]
                assert code is None or error["code"] == code, error
            assert room.hand.snapshot() == before       # nothing changed
            # a stranger who never joined cannot act
            async with connect(url) as stranger:
                await stranger.send(json.dumps({"type": "act", "action": "fold"}))
                assert (await receive(stranger, "error"))[-1]["code"] == "not_joined"
            # an oversized frame closes that connection (1009), nothing else
            async with connect(url) as big:
                await big.send(json.dumps({"type": "join", "name": "x" * 2000}))
                with pytest.raises(websockets.exceptions.ConnectionClosed) as info:
                    await asyncio.wait_for(big.recv(), 5)
                assert info.value.rcvd is not None and info.value.rcvd.code == 1009
            # a flood gets rate_limited, then the connection is closed (1008)
            async with connect(url) as flood:
                codes = []
                for _ in range(60):
                    await flood.send(json.dumps({"type": "ping"}))
                with pytest.raises(websockets.exceptions.ConnectionClosed) as info:
                    while True:
                        message = json.loads(await asyncio.wait_for(flood.recv(), 5))
                        codes.append(message.get("code"))
                assert "rate_limited" in codes and info.value.rcvd.code == 1008
            assert room.hand.snapshot() == before
            # the table goes on: the player to act acts and everyone sees it
            await actor.send(json.dumps({"type": "act", "action": "fold"}))
            seen_actor = await receive(actor, "update")
            assert seen_actor[-1]["view"]["is_over"] or room.hand_number > view.get("hand", 0)
            seen_a += seen_actor if actor is a else []
            no_foreign_hole_cards(seen_a, joined_a["seat"])
        await server.close()
    run(main())


def test_a_bot_that_drops_resumes_its_stream_without_gaps(tmp_path):
    async def main():
        server = ArenaServer(str(tmp_path / "a.sqlite"),
                             ArenaSettings(tables=1, seats=2, clock=FAST_CLOCK), port=0)
        port = await server.start()
        url = f"ws://127.0.0.1:{port}"
        steady = BotClient(url, "steady", hands=60)
        flaky = BotClient(url, "flaky", hands=60)
        tasks = [asyncio.create_task(steady.run()), asyncio.create_task(flaky.run())]
        for _ in range(3):   # cut the flaky bot's connection a few times
            await asyncio.sleep(0.1)
            client = server._clients.get((1, flaky.report.seat))
            if client is not None:
                await client.ws.close(1001, "test drop")
        reports = await asyncio.wait_for(asyncio.gather(*tasks), 40)
        await server.close()
        return reports
    steady, flaky = run(main())
    assert flaky.reconnects >= 1
    assert steady.gaps == 0 and flaky.gaps == 0
    assert steady.last_seq == flaky.last_seq > 0


def serve_process(db: str, port: int, *options: str) -> subprocess.Popen[str]:
    """``omaha serve --db DB --port PORT OPTIONS`` started and listening (its log in
    ``DB.log``); an AssertionError with the log if it does not start."""
    return launch(db, port, *options, log=db + ".log")[0]


def start_server(db, port, *extra):
    return serve_process(db, port, "--tables", "2", "--seats", "3", "--base-ms", "400",
                         "--countdown-ms", "400", *extra)


def test_server_killed_with_sigkill_restarts_on_the_same_db_and_loses_nothing(tmp_path):
    db, port = str(tmp_path / "arena.sqlite"), free_port()
    server = start_server(db, port)
    try:
        async def main():
            bots = [BotClient(f"ws://127.0.0.1:{port}", f"bot{i}", hands=40) for i in range(6)]
            tasks = [asyncio.create_task(b.run()) for b in bots]
            nonlocal server
            for target in (60, 200):
                while min(b.report.last_seq for b in bots) < target:   # mid-play, by progress
                    await asyncio.sleep(0.02)
                server.send_signal(signal.SIGKILL)     # kill -9 mid-play
                server.wait()
                server = start_server(db, port)
            reports = await asyncio.wait_for(asyncio.gather(*tasks), 100)
            return reports
        reports = asyncio.run(asyncio.wait_for(main(), 120))   # generous: CI machines are busy
    finally:
        stop(server)
    assert sum(r.reconnects for r in reports) >= 6
    assert all(r.gaps == 0 for r in reports), [(r.name, r.gaps) for r in reports]
    out = tmp_path / "hands.phhs"
    done = subprocess.run([sys.executable, "-m", "omaha", "export", "--db", db, str(out)],
                          capture_output=True, text=True, env=ENV, check=False)
    assert done.returncode == 0, done.stderr
    replayed = subprocess.run([sys.executable, "-m", "omaha", "replay", str(out)],
                              capture_output=True, text=True, env=ENV, check=False)
    assert replayed.returncode == 0, replayed.stdout[-2000:] + replayed.stderr
    check_chips_conserved(SqliteStorage(db))


def check_chips_conserved(storage):
    """Every hand starts each seat where the previous one left it (or at a buy-in/rebuy)."""
    assert list(storage.finished_hands())
    assert check_conservation(storage) == []


def test_the_clock_runs_in_real_time_and_a_silent_player_times_out(tmp_path):
    """D1/D2 enforced by the server's clock driver: nobody acts, the hand still ends."""
    async def main():
        server = ArenaServer(str(tmp_path / "a.sqlite"),
                             ArenaSettings(tables=1, seats=2,
                                           clock={"base_ms": 100, "countdown_ms": 100}),
                             port=0)
        port = await server.start()
        url = f"ws://127.0.0.1:{port}"
        async with connect(url) as a, connect(url) as b:
            await a.send(json.dumps({"type": "join", "name": "silent-a"}))
            await b.send(json.dumps({"type": "join", "name": "silent-b"}))
            started = time.monotonic()
            seen = []
            while True:
                seen += await receive(a, "update")
                view = seen[-1]["view"]
                if view is not None and view["is_over"]:
                    break
            elapsed = time.monotonic() - started
        await server.close()
        return seen, elapsed
    seen, elapsed = run(main())
    kinds = [item["event"]["type"] for m in seen if m["type"] == "update" for item in m["events"]]
    assert "timed_out" in kinds and kinds[-1] == "hand_ended"
    assert 0.15 < elapsed < 10
