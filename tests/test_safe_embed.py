"""Issue 10 (engine half): every defect a hostile caller or a busy server found, pinned.

Each test fails on the engine before the fix: amounts past int64 (item 3), errors outside
the typed hierarchy (item 6), forged or broken snapshots (item 4), PHH and CLI input
(item 5) and the rules D2, T3 (a single blind) and S2 (odd-chip order) (item 7).
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import omaha
from engine_helpers import make_hand, random_action, random_hand
from omaha.config import HOLDEM, GameConfig
from omaha.errors import (
    IllegalActionError,
    LimitError,
    OmahaError,
    RakeError,
    SnapshotError,
    TableError,
)
from omaha.game.clocked import ClockedHand
from omaha.game.hand import Hand
from omaha.game.rake import PercentageRake
from omaha.game.table import Table
from omaha.history.snapshot import loads_snapshot
from omaha.limits import MAX_CHIPS
from omaha.phh import HandHistory, HistoryError, loads, read_histories
from omaha.phh.replay import replay_history

DATA = Path(__file__).parent / "data"
SRC = Path(omaha.__file__).resolve().parent.parent  # the copy the tests import (site-packages in CI)
PL = GameConfig.pot_limit(small_blind=1, big_blind=2)
NL = GameConfig.no_limit(small_blind=1, big_blind=2)


def roundtrip(data: Any) -> Any:
    return json.loads(json.dumps(data))


def redigest(data: dict[str, Any]) -> dict[str, Any]:
    """Re-seal an edited snapshot the way a forger who read the format would."""
    body = {k: v for k, v in data.items() if k != "digest"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return {**body, "digest": "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()}


def frozen(obj: Hand | Table | ClockedHand) -> str:
    return json.dumps(obj.snapshot(), sort_keys=True)


# ----------------------------------------------------------------- item 3: int64


def test_item3_stacks_at_the_int64_limit_finish_and_past_it_are_refused() -> None:
    hand = Hand(NL, stacks={1: 2**62, 2: MAX_CHIPS - 2**62}, button=1, rng=random.Random(1))
    while not hand.is_over:
        hand.all_in() if hand.legal_actions().max_raise_to else hand.check_or_call()
    assert sum(hand.stacks.values()) == MAX_CHIPS          # the hand finished, nothing lost
    with pytest.raises(LimitError, match="MAX_CHIPS"):
        Hand(PL, stacks={1: 2**62, 2: 2**62}, button=1)
    with pytest.raises(LimitError, match="MAX_CHIPS"):
        Hand(PL, stacks={1: MAX_CHIPS, 2: 1}, button=1)


def test_item3_table_total_checked_on_sit_and_rebuy_and_nothing_changes() -> None:
    table = Table(NL, seats=3, rng=random.Random(2))
    table.sit(1, stack=2**62)
    table.sit(2, stack=2**62 - 2)
    before = frozen(table)
    with pytest.raises(LimitError, match="MAX_CHIPS"):
        table.sit(3, stack=2)
    with pytest.raises(LimitError, match="MAX_CHIPS"):
        table.rebuy(2, 2)
    assert frozen(table) == before
    table.rebuy(2, 1)                                       # exactly at the limit
    hand = table.start_hand()
    while not hand.is_over:
        hand.all_in() if hand.legal_actions().max_raise_to else hand.check_or_call()
    assert sum(table.stacks.values()) == MAX_CHIPS


@pytest.mark.parametrize("field", ["small_blind", "big_blind", "ante", "big_blind_ante"])
def test_item3_forced_bets_past_the_limit_are_refused(field: str) -> None:
    options = {"small_blind": 1, "big_blind": 2, field: MAX_CHIPS + 1}
    if field == "small_blind":
        options["big_blind"] = MAX_CHIPS + 1
    with pytest.raises(LimitError, match="MAX_CHIPS"):
        GameConfig.no_limit(**options)
    with pytest.raises(LimitError, match="MAX_CHIPS"):
        GameConfig.fixed_limit(small_bet=MAX_CHIPS + 1)


def test_item3_ints_too_long_to_print_are_refused_with_typed_errors() -> None:
    """An int of 5,000 digits cannot even be turned into text (Python refuses): the error
    message must not try, or a ValueError escapes instead of the typed error."""
    huge = 10**5000
    hand = make_hand(PL, {1: 100, 2: 100})
    calls = [lambda: Hand(PL, stacks={1: huge, 2: 5}, button=1),
             lambda: Hand(PL, stacks={1: 5, 2: 5}, button=huge),
             lambda: GameConfig.pot_limit(small_blind=1, big_blind=huge),
             lambda: Table(PL).sit(1, stack=huge), lambda: Table(PL).sit(huge, stack=5),
             lambda: hand.bet_or_raise(huge), lambda: hand.fold(seat=huge),
             lambda: hand.hole_cards(-huge), lambda: PercentageRake(per_unit=huge, unit=1),
             lambda: ClockedHand(hand, now=-huge),
             lambda: loads(PO2.replace("[100, 100]", f"[{'9' * 5000}, 100]"))]
    for call in calls:
        with pytest.raises(OmahaError):
            call()


def test_item3_rake_caps_past_the_limit_are_refused() -> None:
    with pytest.raises(RakeError, match="MAX_CHIPS"):
        PercentageRake(per_unit=5, unit=100, caps=((2, MAX_CHIPS + 1),))


def test_item3_restored_and_phh_amounts_past_the_limit_are_refused() -> None:
    hand = make_hand(PL, {1: 100, 2: 100})
    data = roundtrip(hand.snapshot())
    data["events"][0]["stacks"] = [MAX_CHIPS, 100]
    with pytest.raises(SnapshotError, match="MAX_CHIPS"):
        Hand.restore(redigest(data))
    fields = {"variant": "PO", "antes": [0, 0], "blinds_or_straddles": [1, 2], "min_bet": 2}
    with pytest.raises(HistoryError, match="MAX_CHIPS"):
        HandHistory(**fields, starting_stacks=[2**62, 2**62])
    with pytest.raises(HistoryError, match="MAX_CHIPS"):
        HandHistory(**fields, starting_stacks=[100, 100], actions=[f"p2 cbr {2**63}"])
    with pytest.raises(HistoryError, match="MAX_CHIPS"):   # not built as a huge int first
        loads('variant = "PO"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
              "starting_stacks = [1e999999999, 100]\nactions = []\n")


# ----------------------------------------------------------------- item 6: typed errors


def test_item6_constructor_arguments_are_named() -> None:
    with pytest.raises(TableError, match="stacks"):
        Hand(PL, stacks=[200, 200], button=1)              # type: ignore[arg-type]
    with pytest.raises(TableError, match="rng"):
        Hand(PL, stacks={1: 200, 2: 200}, button=1, rng=42)  # type: ignore[arg-type]
    for button in (True, 1.0, "x", 99, None):
        with pytest.raises(TableError, match="button"):
            Hand(PL, stacks={1: 200, 2: 200}, button=button)  # type: ignore[arg-type]
    with pytest.raises(TableError, match="stacks"):
        Hand(PL, stacks={True: 200, 2: 200}, button=2)
    with pytest.raises(TableError, match="stacks"):
        Hand(PL, stacks={1: True, 2: 200}, button=2)
    with pytest.raises(TableError, match="manual_showdown"):
        Hand(PL, stacks={1: 200, 2: 200}, button=1, manual_showdown=1)  # type: ignore[arg-type]
    with pytest.raises(TableError, match="live_blinds"):
        Hand(PL, stacks={1: 9, 2: 9, 3: 9, 4: 9}, button=1, live_blinds=[True])
    with pytest.raises(TableError, match="rng"):
        Table(PL, rng=42)                                   # type: ignore[arg-type]


def test_item6_hole_card_errors_name_the_seat_not_player_0() -> None:
    for bad in ("AsAsKd2c", "AsKd2c3c4c", "Zz", 3.5):
        with pytest.raises(OmahaError, match=r"hole_cards\[7\]"):
            Hand(PL, stacks={3: 200, 7: 200}, button=3, hole_cards={7: bad})  # type: ignore[dict-item]
    with pytest.raises(OmahaError, match="board"):
        Hand(PL, stacks={3: 200, 7: 200}, button=3, board="AsKsQsJsTs9s")
    with pytest.raises(OmahaError, match="deck"):
        Hand(PL, stacks={1: 200, 2: 200}, button=1, deck=[0] * 16)


ACTIONS = ["fold", "check", "call", "check_or_call", "all_in", "protect_all_in", "timeout",
           "show", "muck"]


@pytest.mark.parametrize("method", ACTIONS + ["bet_or_raise"])
@pytest.mark.parametrize("seat", [True, 1.0, "1", 1 + 0j])
def test_item6_seat_must_be_an_int_on_every_action_and_nothing_changes(method: str,
                                                                       seat: object) -> None:
    hand = make_hand(PL, {1: 200, 2: 200, 3: 200})
    assert hand.to_act == 1                                 # seat 1 == True == 1.0
    before = frozen(hand)
    args = (6,) if method == "bet_or_raise" else ()
    with pytest.raises(OmahaError, match="seat"):
        getattr(hand, method)(*args, seat=seat)
    assert frozen(hand) == before
    for query in ("hole_cards", "view", "state"):
        with pytest.raises(OmahaError, match="seat"):
            getattr(hand, query)(seat)


def test_item6_a_bool_seat_never_sees_seat_1s_cards() -> None:
    from omaha.game.view import visible_events

    hand = make_hand(PL, {1: 200, 2: 200})
    for seat in (True, 1.0):
        with pytest.raises(OmahaError, match="seat"):
            visible_events(hand, seat)                      # type: ignore[arg-type]
        with pytest.raises(OmahaError, match="seat"):
            ClockedHand(hand, now=0).visible_events(seat)   # type: ignore[arg-type]


def test_item6_bool_is_never_a_table_seat_or_amount() -> None:
    table = Table(PL, seats=3)
    table.sit(1, stack=50)
    before = frozen(table)
    for call in (lambda: table.leave(True), lambda: table.sit_out(True),  # type: ignore[arg-type]
                 lambda: table.rebuy(True, 5), lambda: table.rebuy(1, True),  # type: ignore[arg-type]
                 lambda: table.sit(True, stack=5), lambda: table.sit(2, stack=True)):  # type: ignore[arg-type]
        with pytest.raises(TableError):
            call()
    assert frozen(table) == before
    hand = make_hand(PL, {1: 200, 2: 200})
    with pytest.raises(IllegalActionError):
        hand.bet_or_raise(True)                             # type: ignore[arg-type]


# ----------------------------------------------------------------- item 4: snapshots


def _table_mid_hand() -> Table:
    table = Table(PL, seats=4, rng=random.Random(3))
    for seat in (1, 2, 4):
        table.sit(seat, stack=100)
    hand = table.start_hand()
    hand.check_or_call()
    return table


def test_item4_any_unsealed_edit_is_refused_even_a_consistent_one() -> None:
    hand = make_hand(PL, {1: 100, 2: 100})
    data = roundtrip(hand.snapshot())
    data["events"][0]["stacks"] = [150, 100]                # consistent: the replay agrees
    with pytest.raises(SnapshotError, match="digest"):
        Hand.restore(data)
    assert Hand.restore(redigest(data)).stacks[1] == 149    # only a re-seal gets it in ...
    with pytest.raises(SnapshotError, match="not signed"):  # ... and a key keeps it out
        Hand.restore(redigest(data), key=b"k")


def test_item4_keys_sign_snapshots() -> None:
    for obj, cls in ((make_hand(PL, {1: 100, 2: 100}), Hand), (_table_mid_hand(), Table)):
        signed = roundtrip(obj.snapshot(key=b"secret"))
        assert signed["digest"].startswith("hmac-sha256:")
        assert frozen(cls.restore(signed, key=b"secret")) == frozen(obj)
        for key, words in ((b"other", "digest"), (None, "signed")):
            with pytest.raises(SnapshotError, match=words):
                cls.restore(signed, key=key)
        with pytest.raises(SnapshotError, match="not signed"):
            cls.restore(roundtrip(obj.snapshot()), key=b"secret")


def test_item4_clocked_snapshots_are_sealed_too() -> None:
    game = ClockedHand(make_hand(PL, {1: 100, 2: 100}), now=0)
    data = roundtrip(game.snapshot())
    data["clock_events"][0][1]["at_ms"] = 5                   # a log edit, not re-digested
    with pytest.raises(SnapshotError, match="digest"):
        ClockedHand.restore(data)
    with pytest.raises(SnapshotError, match="omaha-clocked-hand/1"):
        ClockedHand.restore({**roundtrip(game.snapshot()), "format": "omaha-clocked-hand/1"})
    signed = roundtrip(game.snapshot(key=b"k"))
    assert frozen(ClockedHand.restore(signed, key=b"k")) == frozen(game)
    with pytest.raises(SnapshotError):
        ClockedHand.restore(signed, key=b"other")


def test_item4_old_formats_are_refused_by_name() -> None:
    data = roundtrip(make_hand(PL, {1: 100, 2: 100}).snapshot())
    with pytest.raises(SnapshotError, match="omaha-hand/1"):
        Hand.restore({**data, "format": "omaha-hand/1"})
    table = roundtrip(_table_mid_hand().snapshot())
    with pytest.raises(SnapshotError, match="omaha-table/1"):
        Table.restore({**table, "format": "omaha-table/1"})


def test_item4_table_forgeries_are_refused_even_when_resealed() -> None:
    good = roundtrip(_table_mid_hand().snapshot())
    Table.restore(redigest(good))                            # the re-seal itself is fine
    forgeries = []
    flipped = roundtrip(good)
    flipped["synced"] = True                                 # the hand's result would be lost
    forgeries.append(flipped)
    for button in ("x", 99, True, 3, None):
        bad = roundtrip(good)
        bad["button"] = button
        forgeries.append(bad)
    missing = roundtrip(good)
    missing["seats"] = [s for s in missing["seats"] if s["seat"] != 2]
    forgeries.append(missing)
    richer = roundtrip(good)
    richer["seats"][0]["stack"] += 10                        # the table and its hand disagree
    forgeries.append(richer)
    other = roundtrip(good)
    other["config"]["big_blind"] = 4
    forgeries.append(other)
    for field, value in (("hands", -1), ("joined", 0), ("synced", 1), ("rng", [3, [1], None]),
                         ("seat_count", 2), ("hand", None), ("extra", 1)):
        bad = roundtrip(good)
        bad[field] = value
        forgeries.append(bad)
    for bad in forgeries:
        with pytest.raises(SnapshotError):
            Table.restore(redigest(bad))


def test_item4_hand_forgeries_are_refused_even_when_resealed() -> None:
    hand = make_hand(GameConfig.no_limit(small_blind=1, big_blind=2), {1: 50, 2: 50, 3: 50})
    hand.bet_or_raise(6)
    data = roundtrip(hand.snapshot())
    edits = [("events", -1, "to", 3), ("events", 3, "cards", "AhAdAcAs"),
             ("events", 1, "amount", 2), ("events", 0, "seats", [1, 1, 3]),
             ("events", 0, "button", True), ("events", 4, "seat", True)]
    for field, index, key, value in edits:
        bad = roundtrip(data)
        bad[field][index][key] = value
        with pytest.raises(SnapshotError):
            Hand.restore(redigest(bad))
    for bad in ({**data, "deck": data["deck"][:-2] + data["deck"][:2]},
                {**data, "manual_showdown": 1}, {**data, "events": []}):
        with pytest.raises(SnapshotError):
            Hand.restore(redigest(bad))


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("where", ["events", "deck", "top"])
def test_item4_depth_bombs_are_snapshot_errors_not_recursion_errors(where: str) -> None:
    data = roundtrip(make_hand(PL, {1: 100, 2: 100}).snapshot())
    bomb = _nested(100_000)
    target = bomb if where == "top" else {**data, where: bomb}
    for restore in (Hand.restore, Table.restore, ClockedHand.restore):
        with pytest.raises(SnapshotError, match="deeper"):
            restore(target)
    with pytest.raises(SnapshotError, match="deeper"):
        loads_snapshot("[" * 100_000 + "]" * 100_000)
    wide = {**data, "events": [0] * 300_000}
    with pytest.raises(SnapshotError, match="more than"):
        Hand.restore(wide)


def test_item4_non_json_values_are_refused() -> None:
    data = roundtrip(make_hand(PL, {1: 100, 2: 100}).snapshot())

    class Sneaky(int):
        pass

    for value in (float("nan"), Sneaky(1), b"x", {1: 2}, object()):
        bad = roundtrip(data)
        bad["events"][0]["button"] = value
        with pytest.raises(SnapshotError):
            Hand.restore(bad)
    with pytest.raises(SnapshotError):
        Hand.restore("not a dict")                          # type: ignore[arg-type]
    with pytest.raises(SnapshotError):
        loads_snapshot('{"a": NaN}')


def test_item4_restored_games_continue_identically() -> None:
    rng = random.Random(8)
    for _ in range(40):
        hand = random_hand(rng)
        for _ in range(rng.randrange(6)):
            if not hand.is_over:
                random_action(hand, rng)
        copy = Hand.restore(loads_snapshot(json.dumps(hand.snapshot())))
        seed = rng.random()
        for game in (hand, copy):
            choices = random.Random(seed)
            while not game.is_over:
                random_action(game, choices)
        assert frozen(copy) == frozen(hand)


# ----------------------------------------------------------------- item 5: PHH and CLI


def _cli(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "h.phh"
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "omaha", "replay", str(path)],
                          check=False, capture_output=True, text=True,
                          env={"PYTHONPATH": str(SRC)},
                          timeout=120)


@pytest.mark.parametrize("text", ["x = " + "[" * 100_000 + "]" * 100_000,
                                  "x = " + "{a = " * 5_000 + "1" + "}" * 5_000, "", "\n# c\n"],
                         ids=["deep-arrays", "deep-tables", "empty", "comment-only"])
def test_item5_replay_of_bombs_and_empty_files_exits_2_with_one_line(tmp_path: Path,
                                                                      text: str) -> None:
    done = _cli(tmp_path, text)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


PO2 = 'variant = "PO"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n' \
      'starting_stacks = [100, 100]\nactions = []\n'


@pytest.mark.parametrize("extra, field", [
    ("seat_count = 0", "seat_count"), ("seat_count = 11", "seat_count"),
    ("seat_count = 1", "seat_count"),
    ("seats = [1, 1]", "seats"), (f"seats = [{10**30}, 2]", "seats"),
    ("seats = [0, 2]", "seats"), ("seat_count = 3\nseats = [1, 4]", "seats"),
    ("day = 99", "day"), ("day = 0", "day"), ("month = 13", "month"), ("year = 0", "year"),
    ("year = 2023\nmonth = 2\nday = 30", "day"), ("level = -1", "level"),
    ("time_limit = -1", "time_limit"), ("time_limit = nan", "time_limit"),
    ("hand = 99999999999999999999", "hand"), ("_rake = 9223372036854775808", "_rake"),
])
def test_item5_every_phh_field_is_ranged(extra: str, field: str) -> None:
    with pytest.raises(HistoryError) as info:
        replay_history(loads(PO2 + extra + "\n"))
    assert info.value.field is not None and info.value.field.startswith(field)


def test_item5_player_numbers_and_counts_are_bounded() -> None:
    with pytest.raises(HistoryError):
        loads(PO2.replace("actions = []", f'actions = ["p{10**30} f"]'))
    with pytest.raises(HistoryError, match="at most 10"):
        HandHistory(variant="PO", antes=[0] * 11, blinds_or_straddles=[1, 2] + [0] * 9,
                    min_bet=2, starting_stacks=[5] * 11)


# ----------------------------------------------------------------- item 7: rules


def test_d2_protection_is_refused_when_a_check_is_free() -> None:
    hand = make_hand(PL, {1: 100, 2: 100, 3: 100})
    hand.call(); hand.call()
    assert hand.to_act == 3 and hand.legal_actions().can_check       # the big blind's option
    before = frozen(hand)
    with pytest.raises(IllegalActionError, match="D2"):
        hand.protect_all_in()
    assert frozen(hand) == before
    hand.check()
    with pytest.raises(IllegalActionError, match="D2"):
        hand.protect_all_in()                                        # flop, nobody bet
    assert hand.timeout() == "check"


def test_t3_a_single_blind_is_the_big_blind_three_handed_and_heads_up() -> None:
    single = GameConfig.no_limit(small_blind=0, big_blind=100)
    hand = Hand(single, stacks={1: 1000, 2: 1000, 3: 1000}, button=3, rng=random.Random(1))
    assert hand.big_blind_seat == 1 and hand.contributions == {1: 100, 2: 0, 3: 0}
    assert hand.to_act == 2                                  # left of the lone blind
    hand.call(); hand.call()
    assert hand.to_act == 1 and hand.legal_actions().can_check   # the blind's option
    hand.check()
    assert hand.street.name == "FLOP" and hand.to_act == 1    # left of the button
    heads_up = Hand(single, stacks={1: 1000, 2: 1000}, button=1, rng=random.Random(1))
    assert heads_up.big_blind_seat == 1 and heads_up.contributions == {1: 100, 2: 0}
    assert heads_up.to_act == 2
    heads_up.call()
    assert heads_up.to_act == 1
    heads_up.check()
    assert heads_up.to_act == 2                               # first after the flop


def test_t3_single_blind_table_plays_hands_and_the_blind_moves() -> None:
    table = Table(GameConfig.no_limit(small_blind=0, big_blind=10), seats=4,
                  rng=random.Random(5))
    for seat in (1, 2, 4):
        table.sit(seat, stack=500)
    posters = []
    for _ in range(6):
        hand = table.start_hand()
        posters.append(hand.big_blind_seat)
        while not hand.is_over:
            hand.fold() if hand.legal_actions().call_amount else hand.check_or_call()
    assert posters == [2, 4, 1, 2, 4, 1] and sum(table.stacks.values()) == 1500


def test_t3_the_wsop_single_blind_hand_replays_with_its_finishing_stacks() -> None:
    [(_, history)] = read_histories(DATA / "wsop_single_blind.phh")
    assert list(history.blinds_or_straddles) == [250000, 0, 0, 0, 0, 0]
    result = replay_history(history)
    assert result.complete and result.matches
    assert result.finishing_stacks == tuple(history.finishing_stacks or ())


@pytest.mark.parametrize("players", [2, 3, 5])
def test_t3_single_blind_hands_export_to_phh_and_replay(players: int) -> None:
    from omaha.phh.export import history_from_events

    config = GameConfig.no_limit(small_blind=0, big_blind=10, ante=2, big_blind_ante=5)
    rng = random.Random(players)
    for _ in range(10):
        hand = Hand(config, stacks={s: rng.randrange(5, 300) for s in range(1, players + 1)},
                    button=rng.randrange(1, players + 1), rng=random.Random(rng.random()))
        while not hand.is_over:
            random_action(hand, rng)
        history = history_from_events(hand.events)
        assert history.blinds_or_straddles[0] == 10 and not any(history.blinds_or_straddles[1:])
        result = replay_history(history)
        assert result.complete and result.matches


def pokerkit_single_blind(code: str, players: int, seed: int, blind: int = 100,
                          antes: Any = 0) -> str:
    """A random hand with one blind ``[blind, 0, ...]`` played by PokerKit, as PHH text."""
    pk: Any = pytest.importorskip("pokerkit")
    from collections import deque

    auto = pk.Automation
    automations = (auto.ANTE_POSTING, auto.BET_COLLECTION, auto.BLIND_OR_STRADDLE_POSTING,
                   auto.CARD_BURNING, auto.HOLE_CARDS_SHOWING_OR_MUCKING, auto.HAND_KILLING,
                   auto.CHIPS_PUSHING, auto.CHIPS_PULLING, auto.RUNOUT_COUNT_SELECTION)
    rng = random.Random(seed)
    blinds = [blind] + [0] * (players - 1)
    kind = pk.NoLimitTexasHoldem if code == "NT" else pk.PotLimitOmahaHoldem
    game = kind(automations, False, antes, blinds, blind)
    state = game([rng.randrange(blind // 2, blind * 40) for _ in range(players)], players)
    deck = list(pk.Deck.STANDARD)
    rng.shuffle(deck)
    state.deck_cards = deque(deck)
    while state.status:
        if state.can_deal_hole():
            state.deal_hole(2 if code == "NT" else 4)
        elif state.can_deal_board():
            state.deal_board(3 if not state.board_cards else 1)
        elif state.checking_or_calling_amount and rng.random() < 0.25:
            state.fold()
        elif state.can_complete_bet_or_raise_to() and rng.random() < 0.4:
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            state.complete_bet_or_raise_to(rng.choice((low, high, rng.randint(low, high))))
        else:
            state.check_or_call()
    history = pk.HandHistory.from_game_state(game, state, finishing_stacks=list(state.stacks))
    return str(history.dumps()) + "\n"


@pytest.mark.parametrize("code", ["NT", "PO"])
@pytest.mark.parametrize("players", [2, 3, 6])
def test_t3_single_blind_hands_match_pokerkit(code: str, players: int) -> None:
    """Also with antes: uniform, or a big-blind ante paid by the lone blind (index 0)."""
    for seed in range(6):
        antes = [0, 10, [30] + [0] * (players - 1)][seed % 3]
        text = pokerkit_single_blind(code, players, 100 * players + seed, antes=antes)
        result = replay_history(loads(text))
        assert result.complete and result.matches, text


@pytest.mark.parametrize("players", range(2, 11))
def test_s2_odd_chips_go_clockwise_from_the_left_of_the_button(players: int) -> None:
    """Every button position, every remainder: a tied pot of 2n + r (r dead chips from a
    big-blind ante) pays 2 to each and one odd chip to each of the first r seats left of the
    button, clockwise (S2)."""
    for button in range(1, players + 1):
        for odd in {1, players // 2, players - 1}:
            config = GameConfig.pot_limit(small_blind=1, big_blind=2, big_blind_ante=odd,
                                          variant=HOLDEM)
            hand = Hand(config, stacks={s: 100 for s in range(1, players + 1)}, button=button,
                        board="AsKsQsJsTs", rng=random.Random(button))   # the board plays
            while not hand.is_over:
                hand.check_or_call()
            bb = hand.big_blind_seat
            clockwise = [(button + k - 1) % players + 1 for k in range(1, players + 1)]
            expected = {seat: 100 - 2 + 2 + (1 if k < odd else 0) - (odd if seat == bb else 0)
                        for k, seat in enumerate(clockwise)}
            assert hand.stacks == expected, (players, button, odd)


def test_s2_odd_chip_order_holds_with_gaps_between_seats() -> None:
    config = GameConfig.pot_limit(small_blind=1, big_blind=2, big_blind_ante=2, variant=HOLDEM)
    hand = Hand(config, stacks={2: 50, 5: 50, 9: 50}, button=5, board="AsKsQsJsTs",
                rng=random.Random(0))
    while not hand.is_over:
        hand.check_or_call()
    assert hand.big_blind_seat == 2
    assert hand.stacks == {9: 51, 2: 51 - 2, 5: 50}        # 9 then 2 get the odd chips
