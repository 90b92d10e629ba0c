"""The arena's library pieces without the network: streams, schema, messages, storage, rooms."""

import json
import random

import pytest

from omaha.arena import Arena, ArenaSettings, EventLog, SqliteStorage, load_schema
from omaha.arena.messages import Act, ProtocolError, parse_client_message
from omaha.arena.stream import event_for_seat
from omaha.config import OMAHA_HILO, GameConfig
from omaha.game.clocked import ClockedHand
from omaha.game.table import Table

SCHEMA = load_schema()


def validator(name):
    jsonschema = pytest.importorskip("jsonschema")   # only the schema tests need it
    schema = {**SCHEMA, "$ref": f"#/$defs/{name}"}
    schema.pop("oneOf")
    return jsonschema.Draft202012Validator(schema)


def random_hands(count, seed, structure="pot"):
    rng = random.Random(seed)
    maker = {"pot": GameConfig.pot_limit, "no": GameConfig.no_limit}[structure]
    table = Table(maker(small_blind=1, big_blind=2, variant=OMAHA_HILO), seats=6, rng=rng)
    for seat in range(1, 7):
        table.sit(seat, stack=rng.randint(3, 300))
    for _ in range(count):
        for seat, chips in table.stacks.items():
            if chips == 0:
                table.rebuy(seat, 100)
        game = ClockedHand(table.start_hand(), now=0)
        steps = [(game, table)]
        now = 0
        while not game.hand.is_over:
            legal = game.hand.legal_actions()
            now += rng.randint(1, 40_000)   # some turns time out (D2)
            roll = rng.random()
            try:
                if legal.can_raise and roll < 0.3:
                    game.act(legal.seat, "bet_or_raise", to=rng.randint(legal.min_raise_to,
                                                                        legal.max_raise_to), now=now)
                elif roll < 0.45:
                    game.act(legal.seat, "fold", now=now)
                else:
                    game.act(legal.seat, "check_or_call", now=now)
            except ValueError:
                pass   # too late: the timeout stands
            steps.append((game, table))
            yield game, table, now
        yield game, table, now


def test_every_engine_message_validates_against_the_shipped_schema():
    events, views, clocked = validator("event"), validator("hand_view"), validator("clocked_view")
    hand_snapshot, table_snapshot = validator("hand_snapshot"), validator("table_snapshot")
    checked, kinds = 0, set()
    for step, (game, table, now) in enumerate(random_hands(6, seed=3)):
        hand = game.hand
        seat = hand.seats[step % len(hand.seats)]
        views.validate(json.loads(json.dumps(hand.view(seat).to_dict())))
        clocked.validate(json.loads(json.dumps(game.view(seat, now=now).to_dict())))
        if hand.is_over:   # every event once, in every seat's filtered form
            views.validate(json.loads(json.dumps(hand.view(None).to_dict())))
            for event in hand.events:
                data = json.loads(json.dumps(event.to_dict()))
                kinds.add(data["type"])
                events.validate(data)
                for viewer in (None, seat):
                    events.validate(event_for_seat(data, viewer))
            hand_snapshot.validate(json.loads(json.dumps(hand.snapshot())))
            table_snapshot.validate(json.loads(json.dumps(table.snapshot())))
        checked += 1
    assert checked > 15
    assert {"hand_started", "hole_dealt", "board_dealt", "pot_awarded", "hand_ended",
            "timed_out", "bet_or_raised", "folded"} <= kinds


def test_schema_rejects_a_view_leaking_a_wrong_field():
    views = validator("hand_view")
    hand = next(random_hands(1, seed=1))[0].hand
    data = hand.view(1).to_dict()
    data["deck"] = "AhKh"
    assert not views.is_valid(data)


def test_stream_hides_other_hole_cards_and_burns_and_numbers_events_in_order():
    log = EventLog(keep=2)
    game, _table, _ = next(random_hands(1, seed=5))
    hand = game.hand
    log.start_hand(hand=1, base=0)
    log.extend(e.to_dict() for e in hand.events)
    for seat in hand.seats:
        items = log.since(0, seat=seat)
        assert [i["seq"] for i in items] == list(range(1, hand.event_count + 1))
        for item in items:
            event = item["event"]
            if event["type"] == "hole_dealt":
                assert (event["cards"] is not None) == (event["seat"] == seat)
            if event["type"] == "card_burned":
                assert event["card"] is None
    log.start_hand(hand=2, base=log.last_seq)
    log.extend([{"type": "folded", "seat": 1}])
    log.start_hand(hand=3, base=log.last_seq)
    assert log.since(0, seat=1) is None            # hand 1 fell out of the buffer
    assert [i["seq"] for i in log.since(hand.event_count, seat=1)] == [hand.event_count + 1]


@pytest.mark.parametrize("text, code", [
    ("{", "bad_json"), ("[1, 2]", "bad_message"), ('{"type": "dance"}', "unknown_type"),
    ('{"type": 7}', "unknown_type"), ('{"type": "act"}', "bad_message"),
    ('{"type": "act", "action": "call", "to": 5}', "bad_message"),
    ('{"type": "act", "action": "bet_or_raise", "to": true}', "bad_message"),
    ('{"type": "act", "action": "bet_or_raise", "to": 1e400}', "bad_message"),
    ('{"type": "act", "action": "bet_or_raise", "to": 99999999999999999999999}', "bad_message"),
    ('{"type": "act", "action": "fold", "seat": false}', "bad_message"),
    ('{"type": "join", "name": ""}', "bad_message"), ('{"type": "join", "name": "a\\u0000"}',
                                                      "bad_message"),
    ('{"type": "join", "name": "ann", "admin": true}', "bad_message"),
    ('{"type": "resume", "token": "x"}', "bad_message"),
    ('{"type": "resume", "token": "x", "last_seq": -1}', "bad_message"),
    pytest.param("[" * 100_000, "bad_json", id="deeply-nested"),
])
def test_malformed_client_messages_are_refused_with_a_code(text, code):
    with pytest.raises(ProtocolError) as info:
        parse_client_message(text)
    assert info.value.code == code
    assert isinstance(info.value, ValueError)


def test_binary_frames_are_refused():
    with pytest.raises(ProtocolError):
        parse_client_message(b'{"type": "ping"}')


def make_arena(path, **settings):
    sent = []
    clock = [0]
    arena = Arena.open(SqliteStorage(path), ArenaSettings(**settings),
                       emit=lambda room, seat, message: sent.append((room.number, seat, message)),
                       now=lambda: clock[0])
    return arena, sent, clock


def chips(arena):
    total = 0
    for room in arena.rooms.values():
        hand = room.hand
        if hand is not None and not hand.is_over:
            total += sum(hand.stacks.values()) + hand.pot_total
            total += sum(c for s, c in room.table.stacks.items() if s not in hand.seats)
        else:
            total += sum(room.table.stacks.values())
    return total


def brought(arena):
    return sum(entry.amount for entry in arena.storage.ledger())


def test_illegal_actions_change_nothing_and_are_not_stored(tmp_path):
    arena, _sent, _clock = make_arena(str(tmp_path / "a.sqlite"), tables=1, seats=3)
    for name in ("a", "b", "c"):
        arena.join(name)
    room = arena.rooms[1]
    room.start_hand()
    hand = room.hand
    before = (hand.snapshot(), len(arena.storage.tables()[0].actions))
    wrong = next(s for s in hand.seats if s != hand.to_act)
    for seat, message, code in [
        (wrong, Act("call"), "illegal_action"),                          # B1: out of turn
        (hand.to_act, Act("call", seat=wrong), "not_your_seat"),         # for another seat
        (hand.to_act, Act("bet_or_raise", to=10_000), "illegal_action"),   # B5: over the pot
        (hand.to_act, Act("check"), "illegal_action"),                    # a bet is owed
        (hand.to_act, Act("call", hand=99), "stale_hand"),
    ]:
        with pytest.raises(ProtocolError) as info:
            room.act(seat, message)
        assert info.value.code == code
        assert (hand.snapshot(), len(arena.storage.tables()[0].actions)) == before


def test_a_restart_resumes_the_hand_at_its_last_stored_action_and_conserves_chips(tmp_path):
    path = str(tmp_path / "a.sqlite")
    rng = random.Random(11)
    arena, _, _ = make_arena(path, tables=2, seats=4, buy_in=50)
    for i in range(7):
        arena.join(f"p{i}")
    for cycle in range(12):
        for room in arena.rooms.values():
            if room.can_start():
                room.start_hand()
            for _ in range(rng.randint(0, 6)):
                hand = room.hand
                if hand is None or hand.is_over:
                    break
                legal = hand.legal_actions()
                action = Act("check_or_call") if rng.random() < 0.6 else Act("fold")
                if legal.can_raise and rng.random() < 0.3:
                    action = Act("bet_or_raise", to=legal.max_raise_to)
                room.act(legal.seat, action)
        assert chips(arena) == brought(arena)
        expected = {n: (r.hand_number, r.log.last_seq,
                        None if r.hand is None else r.hand.snapshot()) for n, r in
                    arena.rooms.items()}
        # "crash": drop the objects without closing anything, reopen the same file
        arena, _sent, _clock = make_arena(path)
        got = {n: (r.hand_number, r.log.last_seq, None if r.hand is None else r.hand.snapshot())
               for n, r in arena.rooms.items()}
        assert got == expected
        assert chips(arena) == brought(arena)
        for room in arena.rooms.values():   # everyone comes back (D3)
            for seat in room.players:
                room.reconnect(seat)
    hands = list(arena.storage.finished_hands())
    assert len(hands) >= 6
    for table in (1, 2):
        numbers = [h.hand for h in hands if h.table == table]
        assert numbers == list(range(1, len(numbers) + 1))


def test_timeouts_are_stored_and_replayed(tmp_path):
    path = str(tmp_path / "a.sqlite")
    arena, _sent, clock = make_arena(path, tables=1, seats=3,
                                    clock={"base_ms": 100, "countdown_ms": 100})
    for name in ("a", "b", "c"):
        arena.join(name)
    room = arena.rooms[1]
    room.start_hand()
    clock[0] = 250
    fired = room.game.advance(clock[0])
    room.on_timeouts(fired)
    assert fired
    snapshot = room.hand.snapshot()
    arena2, _, _ = make_arena(path)
    assert arena2.rooms[1].hand.snapshot() == snapshot


def test_resume_across_hands_returns_exactly_the_missed_items(tmp_path):
    path = str(tmp_path / "a.sqlite")
    arena, sent, _clock = make_arena(path, tables=1, seats=2)
    (_, s1, t1), (_, _s2, _) = arena.join("a"), arena.join("b")
    room = arena.rooms[1]
    seen = []
    for _ in range(6):
        room.start_hand()
        while not room.hand.is_over:
            room.act(room.hand.to_act, Act("check_or_call"))
    for _, seat, message in sent:
        if seat == s1:
            seen.extend(item["seq"] for item in message["events"])
    assert seen == list(range(1, room.log.last_seq + 1))
    arena2, _, _ = make_arena(path)   # restart: older hands come from the database
    room2, seat = arena2.seat_of(t1)
    items, gap = room2.resume_items(seat, 3)
    assert not gap and [i["seq"] for i in items] == list(range(4, room.log.last_seq + 1))
    for item in items:
        event = item["event"]
        if event["type"] == "hole_dealt" and event["seat"] != seat:
            assert event["cards"] is None
    with pytest.raises(ProtocolError):
        arena2.seat_of("not a token")


def test_conservation_check_finds_a_created_chip(tmp_path):
    from omaha.arena.export import check_conservation

    path = str(tmp_path / "a.sqlite")
    arena, _, _ = make_arena(path, tables=1, seats=2)
    arena.join("a")
    arena.join("b")
    room = arena.rooms[1]
    for _ in range(3):
        room.start_hand()
        while not room.hand.is_over:
            room.act(room.hand.to_act, Act("check_or_call"))
    assert check_conservation(arena.storage) == []
    db = arena.storage._db
    events = json.loads(db.execute("SELECT events FROM hands WHERE hand=2").fetchone()[0])
    events[0]["stacks"][0] += 1          # a chip appears from nowhere
    db.execute("UPDATE hands SET events=? WHERE hand=2", (json.dumps(events),))
    problems = check_conservation(arena.storage)
    assert problems and "hand 2" in problems[0]


def test_import_omaha_and_the_arena_library_does_not_import_websockets():
    import subprocess
    import sys
    code = ("import sys, omaha, omaha.arena, omaha.arena.server, omaha.arena.client, omaha.cli; "
            "omaha.cli.build_parser(); assert 'websockets' not in sys.modules; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.stdout.strip() == "ok", out.stderr


def test_serve_and_bots_without_websockets_exit_2_with_the_install_hint(tmp_path):
    import subprocess
    import sys
    block = ("import sys; sys.modules['websockets'] = None; from omaha.cli import main; "
             "sys.exit(main(sys.argv[1:]))")
    for argv in (["serve", "--db", str(tmp_path / "x.sqlite")], ["bots", "ws://127.0.0.1:1"]):
        out = subprocess.run([sys.executable, "-c", block, *argv], capture_output=True,
                             text=True, check=False)
        assert out.returncode == 2
        assert 'pip install "omaha-poker[server]"' in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1


def test_views_built_at_once_equal_each_seats_own_view(tmp_path):
    """The fast per-seat views are checked against the engine's own view, state by state."""
    rng = random.Random(4)
    arena, _, clock = make_arena(str(tmp_path / "a.sqlite"), tables=1, seats=6,
                                 clock={"base_ms": 1000, "countdown_ms": 1000})
    for i in range(5):
        arena.join(f"p{i}")
    room = arena.rooms[1]
    assert room.views() == {seat: room.view(seat) for seat in room.players}   # before any hand
    checked = 0
    for _ in range(25):
        room.start_hand()
        if len(room.players) < 6 and rng.random() < 0.2:
            arena.join("late")    # seated, not dealt in: a spectator's view
        while room.hand is not None and not room.hand.is_over:
            assert room.views() == {seat: room.view(seat) for seat in room.players}
            checked += 1
            clock[0] += rng.choice((0, 10, 2500))
            room._fire_due()
            if room.hand.is_over:
                break
            legal = room.hand.legal_actions()
            act = Act("fold") if rng.random() < 0.2 else Act("check_or_call")
            if legal.can_raise and rng.random() < 0.3:
                act = Act("bet_or_raise", to=rng.randint(legal.min_raise_to, legal.max_raise_to))
            room.act(legal.seat, act)
        assert room.views() == {seat: room.view(seat) for seat in room.players}
    assert checked > 100


def test_a_late_action_after_the_own_timeout_is_refused_with_d2(tmp_path):
    arena, _, clock = make_arena(str(tmp_path / "a.sqlite"), tables=1, seats=2,
                                 clock={"base_ms": 100, "countdown_ms": 100})
    arena.join("a")
    arena.join("b")
    room = arena.rooms[1]
    room.start_hand()
    seat = room.hand.to_act
    clock[0] = 10_000            # the time ran out long ago; the action arrives now
    with pytest.raises(ProtocolError) as info:
        room.act(seat, Act("call"))
    assert info.value.rule == "D2"
    assert room.hand is not None and room.hand.is_over   # the timeout stood (D2)


def test_a_table_whose_players_all_left_deals_no_new_hand(tmp_path):
    arena, _, _ = make_arena(str(tmp_path / "a.sqlite"), tables=1, seats=2)
    arena.join("a")
    arena.join("b")
    room = arena.rooms[1]
    assert room.can_start()
    room.disconnect(1)
    assert not room.can_start()
    room.reconnect(1)
    assert room.can_start()


def test_export_writes_names_that_need_escaping_and_replays(tmp_path):
    from omaha.arena.export import export_phhs
    from omaha.phh import read_histories, replay_history

    arena, _, _ = make_arena(str(tmp_path / "a.sqlite"), tables=1, seats=3)
    for name in ('quote " and \\ backslash', "ünïcode ♠", "[table-1-hand-1]"):
        arena.join(name)
    room = arena.rooms[1]
    for _ in range(4):
        room.start_hand()
        while not room.hand.is_over:
            room.act(room.hand.to_act, Act("check_or_call"))
    path = tmp_path / "hands.phhs"
    assert export_phhs(arena.storage, path) == 4
    hands = dict(read_histories(path))
    assert sorted(hands) == [f"table-1-hand-{n}" for n in range(1, 5)]
    for history in hands.values():
        assert set(history.metadata["players"]) == {'quote " and \\ backslash', "ünïcode ♠",
                                                    "[table-1-hand-1]"}
        assert replay_history(history).matches


def test_a_join_repeated_with_the_same_client_token_returns_the_same_seat(tmp_path):
    path = str(tmp_path / "a.sqlite")
    arena, _, _ = make_arena(path, tables=1, seats=3)
    token = "k" * 40
    room, seat, got = arena.join("ann", token=token)
    assert got == token
    arena2, _, _ = make_arena(path)     # the reply was lost in a crash; the bot joins again
    room2, seat2, _ = arena2.join("ann", token=token)
    assert (room2.number, seat2) == (room.number, seat)
    assert len(room2.players) == 1 and len(arena2.storage.ledger()) == 1
    with pytest.raises(ProtocolError):
        parse_client_message('{"type": "join", "name": "x", "token": "short"}')
