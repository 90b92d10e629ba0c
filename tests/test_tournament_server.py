"""Issue 25: tournaments served to connected bots (``omaha serve --tournament``).

Real ``omaha serve`` processes on 127.0.0.1, real ``omaha bots`` clients, the real SQLite file:

* a multi-table tournament plays to its end: every entrant placed once (the places, ties
  spread, cover 1..N), the prizes sum to the pool, the lobby and ``omaha export --json``
  agree, and every hand exported replays to its finishing stacks (N1-N8 by the library);
* killed with SIGKILL mid-play and started again on the same file, it resumes the hands in
  play at their last stored action and finishes: no chip and no place lost, hands numbered
  once each, every stored snapshot holding every chip;
* registration: a name entered twice, a full field, entries after the start, ``leave``, an
  ``act`` with no hand, a bad token: each refused with its code, nothing changed;
* what each connection receives never holds another player's hidden cards;
* bad command lines exit 2 with one line.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest


pytest.importorskip("websockets")

from serving import ENV, free_port, launch, stop  # one way to start a server


STRUCTURE = """
name = "test turbo"
starting_stack = 400
seats = 6
variant = "plo"
payouts = { shares = [500, 300, 200] }
[[levels]]
small_blind = 5
big_blind = 10
hands = 3
[[levels]]
small_blind = 10
big_blind = 20
hands = 3
[[levels]]
small_blind = 25
big_blind = 50
hands = 3
[[levels]]
small_blind = 50
big_blind = 100
hands = 3
[[levels]]
small_blind = 100
big_blind = 200
hands = 100
"""


def structure_file(tmp_path: Path) -> str:
    path = tmp_path / "structure.toml"
    path.write_text(STRUCTURE)
    return str(path)


def serve(tmp_path: Path, db: str, *extra: str, port: int | None = None,
          name: str = "serve") -> tuple[subprocess.Popen, int]:
    port = port if port is not None else free_port()
    process, _ = launch(db, port, "--base-ms", "3000", "--countdown-ms", "1000",
                        "--reconnect-bonus-ms", "1000", *extra, log=tmp_path / f"{name}.log",
                        ready="tournament on")
    return process, port


def bots(tmp_path: Path, port: int, count: int) -> subprocess.Popen:
    with open(tmp_path / "bots.out", "w") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "omaha", "bots", f"ws://127.0.0.1:{port}", "--count",
             str(count), "--policy", "strength", "--seed", "25", "--timeout", "150", "--json"],
            stdout=out, stderr=subprocess.STDOUT, text=True, env=ENV)


def bots_report(process: subprocess.Popen, tmp_path: Path) -> dict:
    try:
        process.wait(170)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    text = (tmp_path / "bots.out").read_text()
    assert process.returncode == 0, text[-3000:]
    return json.loads(text.strip().splitlines()[-1])


def bots_play_out(tmp_path: Path, port: int, count: int) -> tuple[dict, dict]:
    """``count`` bots enter and play until told they finished: their report, then the lobby."""
    report = bots_report(bots(tmp_path, port, count), tmp_path)
    return report, lobby(port)


async def answer(ws, message: dict, kind: str) -> dict:
    """Send ``message`` on ``ws`` and return the first message of type ``kind`` back. Every
    connection is also pushed the tournament's ``tournament`` events (an entry, a start, a
    bust), which may arrive first: those are passed over."""
    await ws.send(json.dumps(message))
    while True:
        got = json.loads(await ws.recv())
        if got["type"] == kind:
            return got


async def tables_reply(ws) -> dict:
    """The lobby's ``tables`` reply on ``ws`` (see :func:`answer`)."""
    return await answer(ws, {"type": "tables"}, "tables")


def lobby(port: int) -> dict:
    async def ask() -> dict:
        from websockets.asyncio.client import connect

        async with connect(f"ws://127.0.0.1:{port}") as ws:
            return await tables_reply(ws)
    return asyncio.run(ask())


def exported(tmp_path: Path, db: str) -> dict:
    out = tmp_path / "hands.phhs"
    done = subprocess.run([sys.executable, "-m", "omaha", "export", "--db", db, str(out),
                           "--json"], capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    replay = subprocess.run([sys.executable, "-m", "omaha", "replay", str(out), "--json"],
                            capture_output=True, text=True, env=ENV, timeout=120)
    assert replay.returncode == 0, replay.stdout[-2000:] + replay.stderr
    lines = [json.loads(line) for line in replay.stdout.splitlines()]   # one per hand
    assert len(lines) == result["hands"] > 0
    assert all(line["result"] == "matched" for line in lines), lines
    return result


def check_places(places: list[dict], players: int, prize_pool: int) -> None:
    """N7/N8: every entrant once; the places, ties spread, cover 1..N; the prizes sum."""
    assert len({p["player"] for p in places}) == players
    groups: dict[tuple[int, int], int] = {}
    for p in places:
        groups[(p["place"], p["tied_to"])] = groups.get((p["place"], p["tied_to"]), 0) + 1
    assert all(count == low - high + 1 for (high, low), count in groups.items())   # ties
    covered = sorted(place for high, low in groups for place in range(high, low + 1))
    assert covered == list(range(1, players + 1))
    assert sum(p["prize"] or 0 for p in places) == prize_pool
    assert [p for p in places if p["place"] == 1][0]["prize"] > 0


def stored_snapshots_hold_every_chip(db: str, players: int) -> None:
    with sqlite3.connect(db) as conn:
        snapshot = json.loads(conn.execute(
            "SELECT value FROM tournament_meta WHERE key = 'snapshot'").fetchone()[0])
        hands = [row[0] for row in conn.execute("SELECT hand FROM tournament_hands "
                                                "ORDER BY hand")]
    assert sum(snapshot["stacks"].values()) == players * 400                   # N1
    assert hands == list(range(1, len(hands) + 1))   # every hand dealt was finished, once


def test_a_multi_table_tournament_plays_to_its_end_between_connected_bots(tmp_path):
    db = str(tmp_path / "t.db")
    server, port = serve(tmp_path, db, "--tournament", structure_file(tmp_path),
                         "--players", "14", "--seed", "5")
    try:
        report, final = bots_play_out(tmp_path, port, 14)
    finally:
        stop(server)
    status = final["tournament"]
    assert status["state"] == "over" and status["players_left"] == 0
    check_places(status["places"], 14, status["prize_pool"])
    mine = {r["name"]: r for r in report["reports"]}
    for entry in status["places"]:   # each bot heard its own place
        assert mine[entry["player"]]["place"] == entry["place"]
    result = exported(tmp_path, db)
    assert result["over"] and result["places"] == status["places"]
    stored_snapshots_hold_every_chip(db, 14)


def test_a_tournament_killed_mid_play_resumes_and_loses_no_chip_and_no_place(tmp_path):
    db = str(tmp_path / "t.db")
    server, port = serve(tmp_path, db, "--tournament", structure_file(tmp_path),
                         "--players", "12", "--hand-pause-ms", "40")
    players = bots(tmp_path, port, 12)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:   # some hands finished, some in play
            with sqlite3.connect(db) as conn:
                done = conn.execute("SELECT count(*) FROM tournament_hands").fetchone()[0]
                acting = conn.execute("SELECT count(*) FROM tournament_actions").fetchone()[0]
            if done >= 6 and acting:
                break
            time.sleep(0.02)
        else:
            pytest.fail("no hands were played")
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        server.stdout.close()
        stored_snapshots_hold_every_chip(db, 12)
        # the same command line again (the structure is stored: --tournament may be left out)
        server, port = serve(tmp_path, db, port=port, name="again")
        report = bots_report(players, tmp_path)
        final = lobby(port)
    finally:
        players.kill()
        stop(server)
    status = final["tournament"]
    assert status["state"] == "over"
    check_places(status["places"], 12, status["prize_pool"])
    assert sum(r["reconnects"] for r in report["reports"]) > 0
    exported(tmp_path, db)
    stored_snapshots_hold_every_chip(db, 12)


def test_registration_refusals_change_nothing(tmp_path):
    db = str(tmp_path / "t.db")
    server, port = serve(tmp_path, db, "--tournament", structure_file(tmp_path),
                         "--players", "3", "--seed", "1", "--base-ms", "60000")

    async def scenario() -> dict:
        from websockets.asyncio.client import connect

        url = f"ws://127.0.0.1:{port}"

        async with connect(url) as a, connect(url) as b, connect(url) as c, \
                connect(url) as d:
            ann = await answer(a, {"type": "join", "name": "ann"}, "joined")
            assert ann["table"] is None and ann["tournament"]["state"] == "registering"
            refused = await answer(b, {"type": "join", "name": "ann"}, "error")
            assert refused["code"] == "name_taken"
            refused = await answer(b, {"type": "act", "action": "fold"}, "error")
            assert refused["code"] == "not_joined"
            refused = await answer(b, {"type": "resume", "token": "nobody", "last_seq": 0},
                                   "error")
            assert refused["code"] == "bad_token"
            # the same token again: the same entrant, not a second entry
            again = await answer(d, {"type": "resume", "token": ann["token"], "last_seq": 0},
                                 "resumed")
            assert again["player"] == "ann"
            await answer(b, {"type": "join", "name": "bob"}, "joined")
            refused = await answer(b, {"type": "leave", "token": ann["token"]}, "error")
            assert refused["code"] == "not_allowed"
            await answer(c, {"type": "join", "name": "cat"}, "joined")   # full: it starts
            async with connect(url) as late:
                refused = await answer(late, {"type": "join", "name": "dan"}, "error")
                assert refused["code"] == "registration_closed"
                return await answer(late, {"type": "tables"}, "tables")

    try:
        final = asyncio.run(scenario())
    finally:
        stop(server)
    status = final["tournament"]
    assert status["state"] == "running" and status["entered"] == 3
    seated = sorted(p["name"] for t in final["tables"] for p in t["players"])
    assert seated == ["ann", "bob", "cat"]


def test_no_connection_ever_receives_another_players_hidden_cards(tmp_path):
    """Every frame a player or a spectator receives, checked against the hands as stored:
    a hole card of another player appears only once shown at showdown."""
    db = str(tmp_path / "t.db")
    server, port = serve(tmp_path, db, "--tournament", structure_file(tmp_path),
                         "--players", "4", "--seed", "9", "--hand-pause-ms", "20")

    async def play() -> dict[str, list[dict]]:
        from websockets.asyncio.client import connect

        from omaha.arena.client import decide
        from omaha.config import Variant
        from omaha.game.bots import BOTS
        import random

        seen: dict[str, list[dict]] = {}

        async def player(name: str) -> None:
            rng = random.Random(name)
            frames = seen.setdefault(name, [])
            async with connect(f"ws://127.0.0.1:{port}") as ws:
                await ws.send(json.dumps({"type": "join", "name": name}))
                variant = None
                async for text in ws:
                    message = json.loads(text)
                    frames.append(message)
                    if message["type"] == "joined":
                        variant = Variant.from_dict(message["settings"]["game"]["variant"])
                    if message["type"] == "finished" and (message["over"]
                                                          or message["place"] > 1):
                        return
                    view = message.get("view") if message["type"] == "update" else None
                    if view and view["legal"] and view["to_act"] == view["seat"]:
                        act = decide(BOTS["random"](), view, variant, rng)
                        act["decision"] = message["decision"]
                        await ws.send(json.dumps(act))

        async def spectator() -> None:
            frames = seen.setdefault("spectator", [])
            async with connect(f"ws://127.0.0.1:{port}") as ws:
                while True:   # the draw first: then table 1 exists
                    if (await tables_reply(ws))["tables"]:
                        break
                    await asyncio.sleep(0.01)
                await ws.send(json.dumps({"type": "watch", "table": 1}))
                async for text in ws:
                    message = json.loads(text)
                    frames.append(message)
                    if message["type"] == "tournament" and any(
                            e["type"] == "won" for e in message["events"]):
                        return

        await asyncio.wait_for(asyncio.gather(spectator(), *(player(f"p{i}")
                                                             for i in range(4))), 120)
        return seen

    try:
        seen = asyncio.run(play())
    finally:
        stop(server)
    from jsonschema import Draft202012Validator

    from omaha.arena.messages import load_schema

    validator = Draft202012Validator(load_schema())
    assert len(seen["spectator"]) > 3
    for name, frames in seen.items():
        for message in frames:
            errors = list(validator.iter_errors(message))
            assert not errors, (message, errors[0].message)   # the shipped schema holds
            if message["type"] != "update" or message["view"] is None:
                continue
            view = message["view"]
            for p in view["players"]:
                if p["seat"] != view.get("seat") and p["cards"] and not view["is_over"]:
                    pytest.fail(f"{name} saw seat {p['seat']}'s cards mid-hand: {view}")
            for item in message["events"]:
                event = item["event"]
                if event["type"] == "hole_dealt" and event["seat"] != view.get("seat"):
                    assert event["cards"] is None, (name, event)


@pytest.mark.parametrize("extra, words", [
    (["--tournament", "default"], "--players"),
    (["--tournament", "missing.toml", "--players", "4"], "missing.toml"),
    (["--tournament", "default", "--players", "4", "--db", "postgresql://x@127.0.0.1/x"],
     "SQLite"),
])
def test_bad_tournament_command_lines_exit_2_with_one_line(tmp_path, extra, words):
    args = ["--db", str(tmp_path / "t.db"), *extra] if "--db" not in extra else extra
    done = subprocess.run([sys.executable, "-m", "omaha", "serve", "--port", "0", *args],
                          capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 2, done
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_an_arena_database_is_not_taken_for_a_tournament(tmp_path):
    from omaha.arena.records import StorageError
    from omaha.arena.storage import SqliteStorage
    from omaha.arena.tournament_store import TournamentStore

    path = str(tmp_path / "arena.db")
    SqliteStorage(path).close()
    with pytest.raises(StorageError, match="no tournament"):
        TournamentStore(path)


def test_start_in_starts_with_whoever_entered(tmp_path):
    """``--start-in``: at that time the tournament starts with the entrants it has (at least
    two, and as many as the places paid: three here), short of the field it waited for."""
    db = str(tmp_path / "t.db")
    server, port = serve(tmp_path, db, "--tournament", structure_file(tmp_path),
                         "--players", "9", "--start-in", "1.5", "--seed", "2")
    try:
        report, final = bots_play_out(tmp_path, port, 3)
    finally:
        stop(server)
    status = final["tournament"]
    assert status["state"] == "over" and status["entered"] == 3
    check_places(status["places"], 3, status["prize_pool"])
    places = {p["player"]: p["place"] for p in status["places"]}
    assert {r["name"]: r["place"] for r in report["reports"]} == places


def test_hostile_frames_get_an_error_and_the_tournament_goes_on(tmp_path):
    """The cash server's hostile frames (test_arena_hostile_frames.HOSTILE), each from its
    own connection and from an entrant's: an error (or a close with a reason, never 1011),
    nothing entered, and the tournament then starts and plays."""
    from test_arena_hostile_frames import HOSTILE
    from websockets.exceptions import ConnectionClosed

    db = str(tmp_path / "t.db")
    server, port = serve(tmp_path, db, "--tournament", structure_file(tmp_path),
                         "--players", "3", "--seed", "4", "--base-ms", "200",
                         "--countdown-ms", "0")   # ann, away, is folded at once

    async def scenario() -> dict:
        from websockets.asyncio.client import connect

        url = f"ws://127.0.0.1:{port}"
        async with connect(url) as ann:
            await ann.send(json.dumps({"type": "join", "name": "ann"}))
            joined = json.loads(await ann.recv())
            assert joined["type"] == "joined"
        hello = json.dumps({"type": "resume", "token": joined["token"], "last_seq": 0})
        for text in HOSTILE + ['{"type": "act", "action": "fold", "decision": 3}',
                               '{"type": "watch", "table": 1}']:
            for as_ann in (True, False):
                async with connect(url) as target:
                    if as_ann:   # the entrant's own connection (a frame may close it)
                        await target.send(hello)
                        assert json.loads(await target.recv())["type"] == "resumed"
                    await target.send(text)
                    try:
                        while True:
                            reply = json.loads(await asyncio.wait_for(target.recv(), 5))
                            if reply["type"] != "tournament":
                                break
                        assert reply["type"] == "error", (text[:60], reply)
                    except ConnectionClosed as exc:
                        assert exc.rcvd is not None and exc.rcvd.code != 1011, text[:60]
            assert server.poll() is None, f"the server exited after {text[:60]!r}"
        async with connect(url) as probe:
            status = (await tables_reply(probe))["tournament"]
            assert status["state"] == "registering" and status["entered"] == 1
        return status

    try:
        asyncio.run(asyncio.wait_for(scenario(), 120))
        report, final = bots_play_out(tmp_path, port, 2)   # two more entrants
    finally:
        stop(server)
    check_places(final["tournament"]["places"], 3, final["tournament"]["prize_pool"])
    assert len(report["reports"]) == 2


LATE = STRUCTURE.replace('payouts = { shares = [500, 300, 200] }',
                         'payouts = { shares = [500, 300, 200] }\nlate_entry_levels = 2')


def test_late_entries_join_a_running_tournament_and_are_placed(tmp_path):
    """N2 in the server: the tournament starts full with three; two more bots enter while
    the first two levels run, are seated before the next round, and the five entries are
    placed 1..5 with the prize pool of five buy-ins."""
    (tmp_path / "late.toml").write_text(LATE)
    db = str(tmp_path / "t.db")
    server, port = serve(tmp_path, db, "--tournament", str(tmp_path / "late.toml"),
                         "--players", "3", "--seed", "6", "--hand-pause-ms", "400")
    first = bots(tmp_path, port, 3)
    try:
        deadline = time.monotonic() + 30
        while lobby(port)["tournament"]["state"] != "running":
            assert time.monotonic() < deadline, "the tournament did not start"
            time.sleep(0.05)

        async def late() -> list:
            from omaha.arena.client import BotClient

            clients = [BotClient(f"ws://127.0.0.1:{port}", f"late{i}", policy="strength")
                       for i in range(2)]
            return await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), 150)

        reports = asyncio.run(late())
        bots_report(first, tmp_path)
        final = lobby(port)
    finally:
        first.kill()
        stop(server)
    status = final["tournament"]
    assert status["state"] == "over" and status["entered"] == 5
    check_places(status["places"], 5, status["prize_pool"])
    assert status["prize_pool"] == 5 * 100
    assert all(r.place is not None for r in reports)


def test_a_foreign_page_cannot_open_a_websocket_to_a_tournament(tmp_path):
    """The Origin check of the web client's gate: a handshake from another site's page gets
    HTTP 403; this host's page, and bots (no Origin), connect."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    db = str(tmp_path / "t.db")
    server, port = serve(tmp_path, db, "--tournament", structure_file(tmp_path),
                         "--players", "3")

    async def scenario() -> None:
        url = f"ws://127.0.0.1:{port}"
        with pytest.raises(InvalidStatus) as refused:
            async with connect(url, origin="https://evil.example"):
                pass
        assert refused.value.response.status_code == 403
        for origin in (f"http://127.0.0.1:{port}", None):
            async with connect(url, origin=origin) as ws:
                assert (await tables_reply(ws))["tournament"]["state"] == "registering"

    try:
        asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        stop(server)
