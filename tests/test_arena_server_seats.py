"""Leaving seats and watching tables on a real server with real WebSocket clients on
127.0.0.1 (T1 seats, D2/D3 for a leaver's last turns), crashes (kill -9) included."""

import asyncio
import json
import signal

import pytest

websockets = pytest.importorskip("websockets")
jsonschema = pytest.importorskip("jsonschema")

from omaha.arena import Arena, ArenaSettings, SqliteStorage, load_schema
from omaha.arena.client import BotClient
from omaha.arena.export import check_conservation
from omaha.arena.messages import ProtocolError
from omaha.arena.room import hash_token
from omaha.arena.server import ArenaServer
from test_arena_server import (  # the arena's server test helpers, same folder
    FAST_CLOCK,
    SERVER_MESSAGE,
    connect,
    free_port,
    receive,
    run,
    start_server,
)

CLIENT_MESSAGE = jsonschema.Draft202012Validator(
    {**{k: v for k, v in load_schema().items() if k != "oneOf"}, "$ref": "#/$defs/client_message"})


def connect_reader(url):
    """A connection that buffers every frame (it can close while frames keep coming)."""
    try:
        from websockets.asyncio.client import connect as ws_connect
    except ImportError:
        ws_connect = websockets.connect
    return ws_connect(url, max_size=2**22, max_queue=None)


async def send(ws, message):
    CLIENT_MESSAGE.validate(message)       # every message the tests send is valid
    await ws.send(json.dumps(message))


def chips_accounted(db):
    """Reopen the database: chips at the tables + cashed out == bought in, hand by hand."""
    storage = SqliteStorage(db)
    assert check_conservation(storage) == []
    arena = Arena.open(storage, emit=lambda *_: None)
    at_tables = 0
    for room in arena.rooms.values():
        hand = room.hand
        if hand is not None and not hand.is_over:
            at_tables += sum(hand.stacks.values()) + hand.pot_total
            at_tables += sum(c for s, c in room.table.stacks.items() if s not in hand.seats)
        else:
            at_tables += sum(room.table.stacks.values())
    ledger = storage.ledger()
    bought = sum(e.amount for e in ledger if e.kind in ("buy_in", "rebuy"))
    cashed = sum(c.amount for c in storage.cash_outs())
    assert at_tables + cashed == bought
    return arena


def test_leave_during_a_hand_then_between_hands_tokens_die_and_seats_are_taken_again(tmp_path):
    db = str(tmp_path / "a.sqlite")

    async def main():
        clock = {"base_ms": 150, "countdown_ms": 150, "reconnect_bonus_ms": 150}
        server = ArenaServer(db, ArenaSettings(tables=1, seats=3, clock=clock), port=0)
        url = f"ws://127.0.0.1:{await server.start()}"
        room = server.arena.rooms[1]
        async with connect(url) as a, connect(url) as b, connect(url) as watcher:
            await send(watcher, {"type": "watch", "table": 1})
            await receive(watcher, "watching")
            joined = {}
            for ws, name in ((a, "ann"), (b, "bob")):
                await send(ws, {"type": "join", "name": name})
                joined[ws] = (await receive(ws, "joined"))[-1]
            while not room.in_hand:
                await asyncio.sleep(0.01)
            # a spectator cannot act: error, state unchanged
            before = room.hand.snapshot()
            await send(watcher, {"type": "act", "action": "fold"})
            assert (await receive(watcher, "error"))[-1]["code"] == "spectator"
            await send(watcher, {"type": "join", "name": "sneaky"})
            assert (await receive(watcher, "error"))[-1]["code"] == "already_watching"
            assert room.hand.snapshot() == before
            # the player to act leaves during the hand: acknowledged, it plays on (its choice)
            leaver = a if room.hand.to_act == joined[a]["seat"] else b
            stayer = b if leaver is a else a
            seat, token = joined[leaver]["seat"], joined[leaver]["token"]
            await send(leaver, {"type": "leave", "token": token})
            ack = (await receive(leaver, "leaving"))[-1]
            assert ack == {"type": "leaving", "table": 1, "seat": seat, "hand": 1}
            assert server.storage.leaving() == [(1, seat)]
            await send(leaver, {"type": "act", "action": "check_or_call", "hand": 1})
            seen = await receive(leaver, "update")
            assert not any(m["type"] == "error" for m in seen)
            # nobody acts any more: the clock ends the hand (D2), then the seat is cashed out
            seen = await receive(leaver, "left")
            last_update = [m for m in seen if m["type"] == "update"][-1]
            assert last_update["view"]["is_over"]
            left = seen[-1]
            paid = server.storage.cash_outs()
            assert [(c.seat, c.amount) for c in paid] == [(seat, left["amount"])]
            assert left["amount"] == room.hand.stacks[seat]
            # the token is dead; asking again only repeats the answer
            async with connect(url) as again:
                await send(again, {"type": "resume", "token": token, "last_seq": 0})
                error = (await receive(again, "error"))[-1]
                assert error["code"] == "seat_left" and str(left["amount"]) in error["message"]
                await send(again, {"type": "leave", "token": token})
                assert (await receive(again, "left"))[-1] == left
                await send(again, {"type": "act", "action": "fold"})
                assert (await receive(again, "error"))[-1]["code"] == "not_joined"
            # the connection that left holds no seat: it cannot act for the old one
            await send(leaver, {"type": "act", "action": "fold"})
            assert (await receive(leaver, "error"))[-1]["code"] == "not_joined"
            # the other player leaves between hands: at once
            await send(stayer, {"type": "leave", "token": joined[stayer]["token"]})
            left2 = (await receive(stayer, "left"))[-1]
            assert left2["seat"] == joined[stayer]["seat"] and left2["amount"] > 0
            assert left["amount"] + left2["amount"] == 2 * server.arena.settings.buy_in
            assert room.players == {} and not room.in_hand
            # both seats can be taken again, the lowest first
            async with connect(url) as c:
                await send(c, {"type": "join", "name": "cid"})
                assert (await receive(c, "joined"))[-1]["seat"] == min(seat, left2["seat"])
            # the leaving connection may join again as a new player, with a new token
            await send(leaver, {"type": "join", "name": "ann again"})
            rejoined = (await receive(leaver, "joined"))[-1]
            assert rejoined["token"] != token
        await server.close()
    run(main())
    arena = chips_accounted(db)
    with pytest.raises(ProtocolError):
        arena.seat_of("x" * 43)


def test_a_bot_leaves_and_a_newcomer_takes_its_seat_across_two_kill_9(tmp_path):
    db, port = str(tmp_path / "arena.sqlite"), free_port()
    server = start_server(db, port, "--tables", "1")
    url = f"ws://127.0.0.1:{port}"
    try:
        async def main():
            nonlocal server
            bots = [BotClient(url, f"bot{i}", hands=24) for i in range(2)]
            leaver = BotClient(url, "leaver", hands=24, leave_after=5)
            tasks = [asyncio.create_task(b.run()) for b in [*bots, leaver]]
            while leaver.report.last_seq < 30:      # mid-play, by progress
                await asyncio.sleep(0.02)
            server.send_signal(signal.SIGKILL)
            server.wait()
            server = start_server(db, port, "--tables", "1")
            while not leaver.leave_sent:
                await asyncio.sleep(0.01)
            server.send_signal(signal.SIGKILL)      # right after the leave was sent
            server.wait()
            server = start_server(db, port, "--tables", "1")
            report = await asyncio.wait_for(tasks[2], 60)
            late = BotClient(url, "late", hands=24)
            tasks.append(asyncio.create_task(late.run()))
            reports = await asyncio.wait_for(asyncio.gather(*tasks), 90)
            return report, reports, leaver.token
        report, reports, token = asyncio.run(asyncio.wait_for(main(), 120))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)
    assert report.cashed_out is not None
    assert all(r.gaps == 0 for r in reports), [(r.name, r.gaps) for r in reports]
    late = reports[-1]
    assert late.seat == report.seat                  # the freed seat, taken again
    arena = chips_accounted(db)
    out = arena.storage.cash_out(hash_token(token))
    assert out is not None and out.amount == report.cashed_out and out.name == "leaver"
    with pytest.raises(ProtocolError) as info:
        arena.seat_of(token)
    assert info.value.code == "seat_left"


def test_spectators_see_no_hidden_card_cannot_act_resume_and_are_limited(tmp_path):
    db = str(tmp_path / "a.sqlite")

    async def main():
        server = ArenaServer(db, ArenaSettings(tables=1, seats=3, clock=FAST_CLOCK,
                                               spectators=2), port=0, rate=100, burst=100)
        url = f"ws://127.0.0.1:{await server.start()}"
        room = server.arena.rooms[1]
        frames = []
        bots = [BotClient(url, f"bot{i}", hands=10) for i in range(3)]
        async with connect_reader(url) as first:
            await send(first, {"type": "watch", "table": 1})
            frames.append(await first.recv())
            tasks = [asyncio.create_task(b.run()) for b in bots]
            async with connect(url) as second, connect(url) as third:
                await send(second, {"type": "watch", "table": 1})
                await receive(second, "watching")
                await send(third, {"type": "watch", "table": 1})
                assert (await receive(third, "error"))[-1]["code"] == "too_many_spectators"
                await send(third, {"type": "watch", "table": 9})
                assert (await receive(third, "error"))[-1]["code"] == "no_table"
                assert room.spectators == 2
            while room.spectators != 1:             # a closed connection frees its place
                await asyncio.sleep(0.01)
            while room.hand_number < 4:
                frames.append(await asyncio.wait_for(first.recv(), 10))
        last = max(item["seq"] for f in map(json.loads, frames) if f["type"] == "update"
                   for item in f["events"])
        # the stream resumes where it stopped, from a new connection
        async with connect(url) as back:
            await send(back, {"type": "watch", "table": 1, "last_seq": last})
            while True:
                frame = await asyncio.wait_for(back.recv(), 10)
                frames.append(frame)
                message = json.loads(frame)
                if message["type"] == "update" and message["view"] is not None \
                        and message["view"]["is_over"] and message["hand"] >= 7:
                    break
            # a spectator that floods is cut off like anyone (1008)
            for _ in range(400):
                await back.send(json.dumps({"type": "ping"}))
            with pytest.raises(websockets.exceptions.ConnectionClosed) as info:
                while True:
                    await asyncio.wait_for(back.recv(), 5)
            assert info.value.rcvd.code == 1008
        holes = {}
        for finished in server.storage.finished_hands():
            holes[finished.hand] = {e["seat"]: e["cards"] for e in finished.events
                                    if e["type"] == "hole_dealt"}
        if room.hand is not None:
            holes[room.hand_number] = {s: "".join(str(c) for c in room.hand.hole_cards(s))
                                       for s in room.hand.seats}
        reports = await asyncio.wait_for(asyncio.gather(*tasks), 60)
        await server.close()
        return frames, holes, reports, last
    frames, holes, reports, last = run(main())
    assert all(not r.errors for r in reports), [r.errors for r in reports]
    shown = {}
    seqs = []
    kinds = set()
    for text in frames:
        message = json.loads(text)
        SERVER_MESSAGE.validate(message)
        kinds.add(message["type"])
        if message["type"] == "watching":
            assert message["gap"] is False
            continue
        assert message["type"] == "update"
        for item in message["events"]:
            seqs.append(item["seq"])
            event = item["event"]
            if event["type"] == "shown":
                shown.setdefault(item["hand"], {})[event["seat"]] = event["cards"]
            if event["type"] == "hole_dealt":
                assert event["cards"] is None
            if event["type"] == "card_burned":
                assert event["card"] is None
            for seat, cards in holes.get(item["hand"], {}).items():   # no hole card leaks
                if seat not in shown.get(item["hand"], {}):
                    assert cards not in json.dumps(item), (item, seat)
        view = message["view"]
        if view is None:
            continue
        revealed = shown.get(message["hand"], {})
        for player in view["players"]:
            assert player["cards"] == revealed.get(player["seat"]), (view, revealed)
        assert view["legal"] is None
        text_view = json.dumps(view)
        for seat, cards in holes.get(message["hand"], {}).items():
            if seat not in revealed:
                assert cards not in text_view
    assert kinds == {"watching", "update"}
    assert seqs == list(range(1, len(seqs) + 1)) and last in seqs   # resumed without a gap
    assert shown, "no showdown seen: the test checked too little"


def test_omaha_bots_leave_after_cashes_every_bot_out(tmp_path):
    import subprocess
    import sys

    from serving import ENV, stop

    db, port = str(tmp_path / "arena.sqlite"), free_port()
    server = start_server(db, port, "--tables", "1")
    try:
        done = subprocess.run([sys.executable, "-m", "omaha", "bots", f"ws://127.0.0.1:{port}",
                               "--count", "3", "--hands", "50", "--leave-after", "3",
                               "--timeout", "60"], capture_output=True, text=True, env=ENV,
                              check=False, timeout=90)
    finally:
        stop(server)
    assert done.returncode == 0, done.stderr
    storage = SqliteStorage(db)
    paid = storage.cash_outs()
    assert len(paid) == 3 and storage.seats() == []
    assert f"3 left their seats, {sum(c.amount for c in paid)} chips cashed out" in done.stdout
    bought = sum(e.amount for e in storage.ledger() if e.kind in ("buy_in", "rebuy"))
    assert sum(c.amount for c in paid) == bought     # nobody seated: every chip went home
    assert check_conservation(storage) == []
    assert 3 <= len(list(storage.finished_hands())) < 50
