"""Issue 24, decision ids (protocol 2): every request to act carries ``decision``; an ``act``
quoting another id (late or repeated) is refused and changes nothing; one without an id
answers the decision in play. A real server and real clients on 127.0.0.1."""

import asyncio
import json

import pytest

websockets = pytest.importorskip("websockets")
jsonschema = pytest.importorskip("jsonschema")

from omaha.arena import ArenaSettings, load_schema
from omaha.arena.client import run_bots
from omaha.arena.house import Arena
from omaha.arena.messages import MAX_INT, PROTOCOL_VERSION, ProtocolError, parse_client_message
from omaha.arena.server import ArenaServer
from omaha.arena.storage import SqliteStorage

SERVER_MESSAGE = jsonschema.Draft202012Validator(
    {**{k: v for k, v in load_schema().items() if k != "oneOf"}, "$ref": "#/$defs/server_message"})
CLIENT = jsonschema.Draft202012Validator(
    {**{k: v for k, v in load_schema().items() if k != "oneOf"}, "$ref": "#/$defs/client_message"})
FAST_CLOCK = {"base_ms": 300, "countdown_ms": 300, "reconnect_bonus_ms": 300}
HOSTILE = [True, False, "7", "", 1.5, -1, 0, MAX_INT + 1, 2**64, 10**30, 1e308, [], {}, [7]]


def connect(url):
    try:
        from websockets.asyncio.client import connect as ws_connect
    except ImportError:
        ws_connect = websockets.connect
    return ws_connect(url, max_size=2**22)


async def recv(ws):
    message = json.loads(await asyncio.wait_for(ws.recv(), 5))
    SERVER_MESSAGE.validate(message)
    return message


async def until(ws, kind, **fields):
    """Messages until one of type ``kind`` with ``fields``; returns it."""
    while True:
        message = await recv(ws)
        if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
            return message


def state(server):
    """What an accepted act would change: the hand's events and the stored actions."""
    room = server.arena.rooms[1]
    return room.hand.event_count, room.decision, len(server.storage.tables()[0].actions)


async def table_of_two(tmp_path, body):
    """Two raw clients seated at a one-table server with a slow clock, a hand dealt; runs
    ``body(server, by_seat)`` where ``by_seat`` maps each seat to its connection."""
    server = ArenaServer(str(tmp_path / "a.sqlite"), ArenaSettings(tables=1, seats=2), port=0)
    port = await server.start()
    url = f"ws://127.0.0.1:{port}"
    try:
        async with connect(url) as a, connect(url) as b:
            seats = {}
            for ws, name in ((a, "ann"), (b, "bob")):
                await ws.send(json.dumps({"type": "join", "name": name}))
                joined = await until(ws, "joined")
                assert joined["protocol"] == PROTOCOL_VERSION == 4
                seats[joined["seat"]] = ws
            room = server.arena.rooms[1]
            while room.decision is None:
                await asyncio.sleep(0.01)
            for ws in seats.values():   # every seat is told the id, the one to act included
                update = await until(ws, "update", decision=room.decision)
                assert update["view"]["to_act"] == room.hand.to_act
            await body(server, seats)
    finally:
        await server.close()


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


async def act(ws, action, **fields):
    await ws.send(json.dumps({"type": "act", "action": action, **fields}))


def test_a_duplicate_answer_after_the_decision_was_applied_is_refused(tmp_path):
    async def body(server, seats):
        room = server.arena.rooms[1]
        first, mover = room.decision, seats[room.hand.to_act]
        await act(mover, "check_or_call", decision=first)
        update = await until(mover, "update")
        assert update["decision"] == room.decision != first
        before = state(server)
        await act(mover, "check_or_call", decision=first)    # the same answer, sent again
        error = await until(mover, "error")
        assert error["code"] == "stale_decision"
        assert f"decision {first} " in error["message"]
        assert f"expected decision {room.decision}" in error["message"]
        assert state(server) == before
    run(table_of_two(tmp_path, body))


def test_a_late_answer_to_a_previous_decision_is_refused(tmp_path):
    async def body(server, seats):
        room = server.arena.rooms[1]
        first, mover = room.decision, room.hand.to_act
        await act(seats[mover], "check_or_call", decision=first)
        await until(seats[mover], "update")
        other = room.hand.to_act
        assert other != mover
        before = state(server)
        # the other seat answers with the id of the decision that is over (a late answer)
        await act(seats[other], "check_or_call", decision=first)
        error = await until(seats[other], "error")
        assert error["code"] == "stale_decision" and error["rule"] is None
        assert f"expected decision {room.decision} (seat {other} to act)" in error["message"]
        assert state(server) == before
        # the right id is accepted
        await act(seats[other], "check_or_call", decision=room.decision)
        await until(seats[other], "update")
        assert state(server)[0] > before[0]
    run(table_of_two(tmp_path, body))


def test_an_answer_without_an_id_answers_the_decision_in_play(tmp_path):
    async def body(server, seats):
        room = server.arena.rooms[1]
        before = state(server)
        mover = seats[room.hand.to_act]
        await act(mover, "check_or_call")            # a protocol 1 client
        update = await until(mover, "update")
        assert state(server)[0] > before[0] and state(server)[2] == before[2] + 1
        assert update["decision"] == room.decision
    run(table_of_two(tmp_path, body))


def test_wrong_type_and_hostile_ids_get_a_typed_error_and_change_nothing(tmp_path):
    async def body(server, seats):
        room = server.arena.rooms[1]
        mover = seats[room.hand.to_act]
        before = state(server)
        for value in HOSTILE:
            await act(mover, "check_or_call", decision=value)
            error = await until(mover, "error")
            assert error["code"] == "bad_message", (value, error)
            assert "decision" in error["message"], (value, error)
        # well typed but not the decision in play: the largest integer, a future id
        for value in (MAX_INT, float(MAX_INT), room.decision + 1):
            await act(mover, "check_or_call", decision=value)
            error = await until(mover, "error")
            assert error["code"] == "stale_decision", (value, error)
        assert state(server) == before
        # 40.0 reads as 40, as JSON Schema reads numbers: the current id sent as a float
        await act(mover, "check_or_call", decision=float(room.decision))
        await until(mover, "update")
        assert state(server)[0] > before[0]
    run(table_of_two(tmp_path, body))


def test_another_seat_quoting_the_current_id_is_still_out_of_turn(tmp_path):
    async def body(server, seats):
        room = server.arena.rooms[1]
        waiting = next(seat for seat in seats if seat != room.hand.to_act)
        before = state(server)
        await act(seats[waiting], "check_or_call", decision=room.decision)
        error = await until(seats[waiting], "error")
        assert error["code"] == "illegal_action" and error["rule"] == "B1"
        assert state(server) == before
    run(table_of_two(tmp_path, body))


def test_the_built_in_bots_quote_every_decision_id(tmp_path):
    async def main():
        server = ArenaServer(str(tmp_path / "a.sqlite"),
                             ArenaSettings(tables=1, seats=3, clock=FAST_CLOCK), port=0)
        port = await server.start()
        room = server.arena.rooms[1]
        quoted = []
        plain = room.act

        def spy(seat, message):
            quoted.append((message.decision, room.decision))
            return plain(seat, message)
        room.act = spy
        try:
            return await run_bots(f"ws://127.0.0.1:{port}", count=3, hands=5, seed=3,
                                  timeout=40), quoted
        finally:
            await server.close()
    reports, quoted = run(main())
    assert quoted and all(mine is not None for mine, _ in quoted)
    assert sum(mine == now for mine, now in quoted) >= len(quoted) - 3   # a timeout may race
    assert all(not r.errors or all("stale_decision" in e or "D2" in e or "time ran out" in e
                                   for e in r.errors) for r in reports)


def test_a_restarted_arena_asks_the_same_decision_under_the_same_id_and_never_reuses_one(
        tmp_path):
    db = str(tmp_path / "a.sqlite")
    settings = ArenaSettings(tables=1, seats=2)

    def open_arena():
        return Arena.open(SqliteStorage(db), settings, emit=lambda *a: None, now=lambda: 0)

    from omaha.arena.messages import Act
    arena = open_arena()
    arena.join("ann")
    arena.join("bob")
    room = arena.rooms[1]
    seen = []
    for _ in range(6):   # a few decisions over two hands
        if room.decision is None:
            room.start_hand()
        seen.append(room.decision)
        room.act(room.hand.to_act, Act("check_or_call", decision=room.decision))
    if room.decision is None:
        room.start_hand()
    pending = room.decision
    arena.storage.close()
    again = open_arena()
    restored = again.rooms[1]
    assert restored.decision == pending               # the same decision, the same id
    with pytest.raises(ProtocolError, match="stale_decision"):
        restored.act(restored.hand.to_act, Act("check_or_call", decision=seen[-1]))
    restored.act(restored.hand.to_act, Act("check_or_call", decision=pending))
    assert restored.decision is None or restored.decision not in seen + [pending]
    assert len(set(seen)) == len(seen) and seen == sorted(seen)
    again.storage.close()


@pytest.mark.parametrize("value", [*HOSTILE, None, 1, 40, 40.0, MAX_INT])
def test_parser_and_schema_agree_on_decision(value):
    message = {"type": "act", "action": "fold", "decision": value}
    try:
        parsed = parse_client_message(json.dumps(message)).decision == value
    except ProtocolError as exc:
        assert exc.code == "bad_message"
        parsed = False
    assert parsed == CLIENT.is_valid(message), value
