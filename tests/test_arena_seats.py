"""Leaving a seat and watching a table, without the network (T1 seats, B8 chips between
hands, D2/D3 for a leaver's remaining turns): every cash-out stored with the seat it frees."""

import json
import random

import pytest

from omaha.arena import Arena, ArenaSettings, SqliteStorage, load_schema
from omaha.arena.export import check_conservation
from omaha.arena.messages import Act, Leave, ProtocolError, Watch, parse_client_message
from omaha.arena.room import hash_token
from test_arena_library import chips as at_tables  # chips on the tables and in the pots


def make_arena(path, **settings):
    sent = []
    public = []
    clock = [0]
    arena = Arena.open(SqliteStorage(path), ArenaSettings(**settings) if settings else None,
                       emit=lambda room, seat, message: sent.append((room.number, seat, message)),
                       now=lambda: clock[0],
                       emit_public=lambda room, message: public.append((room.number, message)))
    return arena, sent, public, clock


def assert_chips_accounted(arena):
    """Chips at the tables + cashed out == bought in, and the ledger replays hand by hand."""
    ledger = arena.storage.ledger()
    bought = sum(e.amount for e in ledger if e.kind in ("buy_in", "rebuy"))
    cashed = sum(c.amount for c in arena.storage.cash_outs())
    assert cashed == sum(e.amount for e in ledger if e.kind == "cash_out")
    assert at_tables(arena) + cashed == bought
    assert check_conservation(arena.storage) == []


def play_out(room):
    while room.hand is not None and not room.hand.is_over:
        room.act(room.hand.to_act, Act("check_or_call"))


def test_t1_leave_between_hands_cashes_out_at_once_and_the_seat_is_taken_again(tmp_path):
    path = str(tmp_path / "a.sqlite")
    arena, sent, _, _ = make_arena(path, tables=1, seats=3, buy_in=100)
    (room, s1, _), (_, s2, t2), (_, s3, _) = (arena.join(n) for n in ("a", "b", "c"))
    room.start_hand()
    room.act(room.hand.to_act, Act("bet_or_raise", to=6))
    play_out(room)
    stack = room.table.stacks[s2]
    assert stack != 100
    assert arena.leave(t2) == (1, s2, stack)
    assert sent[-1][1:] == (s2, {"type": "left", "table": 1, "seat": s2, "amount": stack})
    assert s2 not in room.players and s2 not in room.table.stacks
    assert_chips_accounted(arena)
    for attempt in (lambda: arena.seat_of(t2), lambda: arena.join("again", token=t2)):
        with pytest.raises(ProtocolError) as info:        # the token is dead
            attempt()
        assert info.value.code == "seat_left" and str(stack) in info.value.detail
    assert arena.leave(t2) == (1, s2, stack)               # a repeated leave changes nothing
    assert len(arena.storage.cash_outs()) == 1
    _, seat, t4 = arena.join("d")                          # the freed seat is taken again
    assert seat == s2 and room.players[seat].name == "d"
    # "crash": reopen the same file without closing it
    arena, sent, _, _ = make_arena(path)
    room = arena.rooms[1]
    assert sorted(room.players) == sorted([s1, s2, s3]) and room.players[s2].name == "d"
    assert arena.seat_of(t4) == (room, s2)
    with pytest.raises(ProtocolError):
        arena.seat_of(t2)
    assert_chips_accounted(arena)
    for seat in room.players:
        room.reconnect(seat)
    room.start_hand()
    play_out(room)
    assert_chips_accounted(arena)
    assert room.hand.seats == tuple(sorted(room.players))  # the newcomer was dealt in


def test_d2_leave_during_a_hand_plays_it_out_and_cashes_out_when_it_ends(tmp_path):
    path = str(tmp_path / "a.sqlite")
    arena, sent, _, clock = make_arena(path, tables=1, seats=3, buy_in=100,
                                       clock={"base_ms": 100, "countdown_ms": 100})
    tokens = {}
    for name in ("a", "b", "c"):
        _, seat, token = arena.join(name)
        tokens[seat] = token
    room = arena.rooms[1]
    room.start_hand()
    leaver = room.hand.to_act
    assert arena.leave(tokens[leaver]) == (1, leaver, None)      # pending: still in the hand
    assert arena.leave(tokens[leaver]) == (1, leaver, None)      # asked twice: same answer
    assert arena.storage.leaving() == [(1, leaver)] and not arena.storage.cash_outs()
    room.act(leaver, Act("call"))                                # it keeps acting
    assert arena.seat_of(tokens[leaver]) == (room, leaver)       # and may resume until the end
    # "crash" mid-hand after the leave was acknowledged: it is still leaving after the restart
    arena, sent, _, clock = make_arena(path)
    room = arena.rooms[1]
    assert room.leaving == {leaver} and room.in_hand
    for seat in room.players:
        if seat != leaver:
            room.reconnect(seat)                                 # the leaver stays away (D3)
    hand_number = room.hand_number
    while not room.hand.is_over:
        seat = room.hand.to_act
        if seat == leaver:                                       # its turn times out (D2)
            clock[0] += 10_000
            room._fire_due()
        else:
            room.act(seat, Act("check_or_call"))
    final = room.hand.stacks[leaver]
    out = arena.storage.cash_outs()
    assert [(c.seat, c.amount, c.before_hand) for c in out] == [(leaver, final, hand_number + 1)]
    assert out[0].token_hash == hash_token(tokens[leaver]) and out[0].name
    assert leaver not in room.players and not arena.storage.leaving()
    kinds = [m["type"] for _, s, m in sent if s == leaver]
    assert kinds[-2:] == ["update", "left"] and sent[-1][2]["amount"] == final
    last_update = [m for _, s, m in sent if s == leaver and m["type"] == "update"][-1]
    assert last_update["view"]["is_over"]                        # it saw its hand end first
    with pytest.raises(ProtocolError) as info:
        arena.seat_of(tokens[leaver])
    assert info.value.code == "seat_left"
    assert_chips_accounted(arena)
    arena2, _, _, _ = make_arena(path)                           # and across a restart
    assert leaver not in arena2.rooms[1].players
    assert_chips_accounted(arena2)


def test_a_leaver_not_dealt_in_leaves_at_once_and_a_busted_leaver_gets_no_rebuy(tmp_path):
    from omaha.config import GameConfig
    game = GameConfig.no_limit(small_blind=1, big_blind=2).to_dict()
    arena, _, _, _ = make_arena(str(tmp_path / "a.sqlite"), tables=1, seats=3, buy_in=40,
                                game=game)
    arena.join("a")
    arena.join("b")
    room = arena.rooms[1]
    room.start_hand()
    _, late, token = arena.join("late")          # seated during the hand, not dealt in (T5)
    assert late not in room.hand.seats
    assert arena.leave(token) == (1, late, 40)
    # the player to act leaves, then goes all in: busted or not, it is paid its final
    # stack and is never topped up (a rebuy is for players staying, B8)
    seat = room.hand.to_act
    assert room.leave(seat) is None
    room.act(seat, Act("all_in"))
    room.act(room.hand.to_act, Act("call"))
    play_out(room)
    out = [c for c in arena.storage.cash_outs() if c.seat == seat]
    assert len(out) == 1 and out[0].amount == room.hand.stacks[seat]
    rebuys = [e for e in arena.storage.ledger() if e.kind == "rebuy" and e.seat == seat]
    assert not rebuys
    assert_chips_accounted(arena)


def test_random_joins_leaves_actions_and_crashes_keep_every_chip_accounted(tmp_path):
    """Chips at the tables + cashed out == bought in, after every step and every restart."""
    path = str(tmp_path / "a.sqlite")
    rng = random.Random(7)
    arena, _, _, clock = make_arena(path, tables=2, seats=3, buy_in=60,
                                    clock={"base_ms": 100, "countdown_ms": 100})
    tokens: list[str] = []
    names = iter(f"p{i}" for i in range(1000))
    pending = 0
    for _ in range(400):
        roll = rng.random()
        if roll < 0.12:
            try:
                tokens.append(arena.join(next(names))[2])
            except ProtocolError as exc:
                assert exc.code == "table_full"
        elif roll < 0.22 and tokens:
            token = rng.choice(tokens)
            if arena.leave(token)[2] is None:   # never refused: a seat, or a repeat
                pending += 1
        elif roll < 0.27:
            arena, _, _, clock = make_arena(path)          # crash: reopen without closing
            for room in arena.rooms.values():
                for seat in room.players:
                    room.reconnect(seat)
        elif roll < 0.32:
            clock[0] += 1000                                # someone's time runs out (D2)
            for room in arena.rooms.values():
                room._fire_due()
        else:
            for room in arena.rooms.values():
                if room.can_start():
                    room.start_hand()
                hand = room.hand
                if hand is not None and not hand.is_over:
                    legal = hand.legal_actions()
                    act = Act("fold") if rng.random() < 0.2 else Act("check_or_call")
                    if legal.can_raise and rng.random() < 0.3:
                        act = Act("bet_or_raise", to=rng.randint(legal.min_raise_to,
                                                                 legal.max_raise_to))
                    room.act(legal.seat, act)
        assert_chips_accounted(arena)
    cash_outs = arena.storage.cash_outs()
    hands = list(arena.storage.finished_hands())
    assert len(cash_outs) >= 10 and len(hands) >= 20 and pending >= 3
    assert any(c.before_hand > 1 for c in cash_outs)
    for token in tokens:                                    # every token: a seat or dead
        try:
            room, seat = arena.seat_of(token)
            assert room.players[seat].token_hash == hash_token(token)
        except ProtocolError as exc:
            assert exc.code == "seat_left"
    dead = {c.token_hash for c in cash_outs}
    assert all((hash_token(t) in dead) != (hash_token(t) in arena._tokens) for t in tokens)


def test_a_version_1_database_is_upgraded_in_place(tmp_path):
    import sqlite3
    path = str(tmp_path / "old.sqlite")
    arena, _, _, _ = make_arena(path, tables=1, seats=2)
    arena.join("a")
    arena.storage.close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE cash_outs")
    db.execute("DROP TABLE leaving")
    db.execute("DROP TABLE leases")
    db.execute("UPDATE meta SET value='1' WHERE key='schema'")
    db.commit()
    db.close()
    arena, _, _, _ = make_arena(path)
    assert len(arena.rooms[1].players) == 1 and arena.storage.cash_outs() == []
    row = arena.storage._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    assert row == ("3",)                          # versions 2 and 3 applied (issue 24)
    assert [lease.table for lease in arena.storage.leases()] == [1]


def test_spectator_updates_carry_the_public_view_only_while_someone_watches(tmp_path):
    arena, _, public, _ = make_arena(str(tmp_path / "a.sqlite"), tables=1, seats=2)
    arena.join("a")
    arena.join("b")
    room = arena.rooms[1]
    room.start_hand()
    assert public == []                      # nobody watches: nothing is built
    room.spectators = 1
    room.act(room.hand.to_act, Act("check_or_call"))
    (number, message), = public
    assert number == 1 and message["view"] == room.view(None)
    for player in message["view"]["players"]:
        assert player["cards"] is None
    items, gap = room.resume_items(None, 0)
    assert not gap and [i["seq"] for i in items] == list(range(1, room.log.last_seq + 1))
    for item in items:
        if item["event"]["type"] == "hole_dealt":
            assert item["event"]["cards"] is None


@pytest.mark.parametrize("text, expected", [
    ('{"type": "leave", "token": "abc"}', Leave("abc")),
    ('{"type": "watch", "table": 3}', Watch(3)),
    ('{"type": "watch", "table": 1, "last_seq": 17}', Watch(1, 17)),
])
def test_leave_and_watch_parse_and_validate_against_the_schema(text, expected):
    jsonschema = pytest.importorskip("jsonschema")
    assert parse_client_message(text) == expected
    schema = {**load_schema(), "$ref": "#/$defs/client_message"}
    schema.pop("oneOf")
    jsonschema.Draft202012Validator(schema).validate(json.loads(text))


@pytest.mark.parametrize("text", [
    '{"type": "leave"}', '{"type": "leave", "token": 5}', '{"type": "leave", "token": ""}',
    '{"type": "leave", "token": "abc", "seat": 1}', '{"type": "watch"}',
    '{"type": "watch", "table": 0}', '{"type": "watch", "table": true}',
    '{"type": "watch", "table": 1, "last_seq": -1}', '{"type": "watch", "table": 1, "x": 1}',
])
def test_malformed_leave_and_watch_are_refused_by_parser_and_schema(text):
    jsonschema = pytest.importorskip("jsonschema")
    with pytest.raises(ProtocolError) as info:
        parse_client_message(text)
    assert info.value.code == "bad_message"
    schema = {**load_schema(), "$ref": "#/$defs/client_message"}
    schema.pop("oneOf")
    assert not jsonschema.Draft202012Validator(schema).is_valid(json.loads(text))


def test_spectator_limit_setting_is_checked():
    with pytest.raises(ValueError):
        ArenaSettings(spectators=-1)
    with pytest.raises(ValueError):
        ArenaSettings(spectators=True)
