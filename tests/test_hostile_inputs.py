"""Hostile objects into every public engine entry point (issue 10, items 3 and 6).

Bools, NaN, bytes, huge and negative ints, int subclasses that lie, objects whose
``__index__`` returns themselves, ragged nests: each call either succeeds or raises an
``OmahaError`` (or a ``TypeError`` for a wrong type), and an object it was called on is left
exactly as it was. Never a crash, a ``RecursionError``, an ``AttributeError``...
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omaha.config import GameConfig, Variant
from omaha.errors import OmahaError
from omaha.game.clock import ClockConfig
from omaha.game.clocked import ClockedHand
from omaha.game.hand import Hand
from omaha.game.rake import PercentageRake
from omaha.game.table import Table
from omaha.history.snapshot import loads_snapshot, replay
from omaha.phh import HandHistory


class SelfIndex:
    def __index__(self) -> Any:
        return self


class Shrinking(list):  # type: ignore[type-arg]
    """A list whose items' ``__index__`` empties it while it is read."""

    def __init__(self) -> None:
        super().__init__()

        class Clearer:
            def __index__(inner) -> int:
                self.clear()
                return 1

        self.extend([Clearer(), Clearer(), 5, 6])


class Liar(int):
    def __eq__(self, other: object) -> bool:
        return True

    def __lt__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


HOSTILE = st.one_of(
    st.booleans(), st.none(), st.floats(allow_nan=True), st.just(math.inf),
    st.binary(max_size=4), st.text(max_size=4), st.integers(-(2**80), 2**80),
    st.sampled_from([2**63, 2**63 - 1, -1, 0, 1, 10**30, 10**5000, -(10**5000)]),
    st.builds(SelfIndex), st.builds(Shrinking), st.builds(Liar, st.integers(-3, 300)),
    st.recursive(st.integers(0, 60), lambda inner: st.lists(inner, max_size=3), max_leaves=5),
    st.dictionaries(st.integers(-2, 12), st.integers(-5, 500), max_size=3),
)

PL = GameConfig.pot_limit(small_blind=1, big_blind=2)


def _hand() -> Hand:
    return Hand(PL, stacks={1: 100, 2: 100, 3: 100}, button=1, rng=random.Random(1))


def _table() -> Table:
    table = Table(PL, seats=4, rng=random.Random(2))
    table.sit(1, stack=100)
    table.sit(2, stack=100)
    return table


# (name, call): each call gets the hostile value and may use a fresh object.
CALLS: list[tuple[str, Callable[[Any], Any]]] = [
    *[(f"GameConfig.{field}", lambda h, f=field: GameConfig(**{  # type: ignore[misc]
        "small_blind": 1, "big_blind": 2, f: h}))
      for field in ("variant", "structure", "small_blind", "big_blind", "ante",
                    "big_blind_ante", "max_raises", "uncapped_heads_up", "blind_unit")],
    ("GameConfig.fixed_limit", lambda h: GameConfig.fixed_limit(small_bet=h)),
    ("Variant.hole_cards", lambda h: Variant(name="x", hole_cards=h)),
    ("Variant.hi_lo", lambda h: Variant(name="x", hi_lo=h)),
    ("Hand.stacks value", lambda h: Hand(PL, stacks={1: h, 2: 100}, button=2)),
    ("Hand.stacks key", lambda h: Hand(PL, stacks={h: 100, 2: 100}, button=2)),
    ("Hand.stacks", lambda h: Hand(PL, stacks=h, button=1)),
    ("Hand.button", lambda h: Hand(PL, stacks={1: 100, 2: 100}, button=h)),
    ("Hand.rng", lambda h: Hand(PL, stacks={1: 100, 2: 100}, button=1, rng=h)),
    ("Hand.rake", lambda h: Hand(PL, stacks={1: 100, 2: 100}, button=1, rake=h)),
    ("Hand.manual_showdown", lambda h: Hand(PL, stacks={1: 9, 2: 9}, button=1,
                                            manual_showdown=h)),
    ("Hand.live_blinds", lambda h: Hand(PL, stacks={1: 9, 2: 9, 3: 9, 4: 9}, button=1,
                                        live_blinds=h)),
    ("Hand.live_blinds item", lambda h: Hand(PL, stacks={1: 9, 2: 9, 3: 9, 4: 9}, button=1,
                                             live_blinds=[h])),
    ("Hand.hole_cards", lambda h: Hand(PL, stacks={1: 9, 2: 9}, button=1, hole_cards=h)),
    ("Hand.hole_cards cards", lambda h: Hand(PL, stacks={1: 9, 2: 9}, button=1,
                                             hole_cards={1: h})),
    ("Hand.hole_cards card", lambda h: Hand(PL, stacks={1: 9, 2: 9}, button=1,
                                            hole_cards={2: [h, 0]})),
    ("Hand.board", lambda h: Hand(PL, stacks={1: 9, 2: 9}, button=1, board=h)),
    ("Hand.board card", lambda h: Hand(PL, stacks={1: 9, 2: 9}, button=1, board=[0, h])),
    ("Hand.deck", lambda h: Hand(PL, stacks={1: 9, 2: 9}, button=1, deck=h)),
    ("Hand.deck card", lambda h: Hand(PL, stacks={1: 9, 2: 9}, button=1,
                                      deck=[h, *range(1, 16)])),
    ("Table.seats", lambda h: Table(PL, seats=h)),
    ("Table.rng", lambda h: Table(PL, rng=h)),
    ("Table.manual_showdown", lambda h: Table(PL, manual_showdown=h)),
    ("PercentageRake.per_unit", lambda h: PercentageRake(per_unit=h, unit=100)),
    ("PercentageRake.caps", lambda h: PercentageRake(per_unit=5, unit=100, caps=h)),
    ("PercentageRake.minimum", lambda h: PercentageRake(per_unit=5, unit=100, minimum=h)),
    ("ClockConfig.base_ms", lambda h: ClockConfig(base_ms=h)),
    ("ClockedHand.now", lambda h: ClockedHand(_hand(), now=h)),
    ("HandHistory.starting_stacks", lambda h: HandHistory(
        variant="PO", antes=[0, 0], blinds_or_straddles=[1, 2], min_bet=2,
        starting_stacks=[h, 100])),
    ("HandHistory.min_bet", lambda h: HandHistory(
        variant="PO", antes=[0, 0], blinds_or_straddles=[1, 2], min_bet=h,
        starting_stacks=[100, 100])),
    ("HandHistory.actions", lambda h: HandHistory(
        variant="PO", antes=[0, 0], blinds_or_straddles=[1, 2], min_bet=2,
        starting_stacks=[100, 100], actions=[h])),
    ("HandHistory.metadata", lambda h: HandHistory(
        variant="PO", antes=[0, 0], blinds_or_straddles=[1, 2], min_bet=2,
        starting_stacks=[100, 100], metadata={"seats": h})),
    ("HandHistory.variant", lambda h: HandHistory(
        variant=h, antes=[0, 0], blinds_or_straddles=[1, 2], min_bet=2,
        starting_stacks=[100, 100])),
    ("Hand.restore", lambda h: Hand.restore(h)),
    ("Table.restore", lambda h: Table.restore(h)),
    ("ClockedHand.restore", lambda h: ClockedHand.restore(h)),
    ("Hand.restore key", lambda h: Hand.restore(_hand().snapshot(), key=h)),
    ("loads_snapshot", lambda h: loads_snapshot(h)),
    ("replay", lambda h: replay(h)),
]

# Methods on live objects: the object must be unchanged after a refusal.
HAND_METHODS: list[tuple[str, Callable[[Hand, Any], Any]]] = [
    ("fold", lambda o, h: o.fold(seat=h)),
    ("check", lambda o, h: o.check(seat=h)),
    ("call", lambda o, h: o.call(seat=h)),
    ("check_or_call", lambda o, h: o.check_or_call(seat=h)),
    ("bet_or_raise", lambda o, h: o.bet_or_raise(h)),
    ("bet_or_raise seat", lambda o, h: o.bet_or_raise(6, seat=h)),
    ("all_in", lambda o, h: o.all_in(seat=h)),
    ("protect_all_in", lambda o, h: o.protect_all_in(seat=h)),
    ("timeout", lambda o, h: o.timeout(seat=h)),
    ("timeout policy", lambda o, h: o.timeout(policy=h)),
    ("show", lambda o, h: o.show(seat=h)),
    ("muck", lambda o, h: o.muck(seat=h)),
    ("hole_cards", lambda o, h: o.hole_cards(h)),
    ("view", lambda o, h: o.view(h)),
    ("state", lambda o, h: o.state(h)),
    ("snapshot key", lambda o, h: o.snapshot(key=h)),
]
TABLE_METHODS: list[tuple[str, Callable[[Table, Any], Any]]] = [
    ("sit seat", lambda o, h: o.sit(h, stack=50)),
    ("sit stack", lambda o, h: o.sit(3, stack=h)),
    ("sit name", lambda o, h: o.sit(3, stack=50, name=h)),
    ("sit post_big_blind", lambda o, h: o.sit(3, stack=50, post_big_blind=h)),
    ("rebuy seat", lambda o, h: o.rebuy(h, 5)),
    ("rebuy amount", lambda o, h: o.rebuy(1, h)),
    ("leave", lambda o, h: o.leave(h)),
    ("sit_out", lambda o, h: o.sit_out(h)),
    ("sit_in", lambda o, h: o.sit_in(h)),
    ("start_hand hole_cards", lambda o, h: o.start_hand(hole_cards=h)),
    ("start_hand board", lambda o, h: o.start_hand(board=h)),
]

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))


def _allowed(call: Callable[[], Any]) -> None:
    try:
        call()
    except (OmahaError, TypeError):
        pass


@SETTINGS
@given(st.sampled_from(CALLS), HOSTILE)
def test_constructors_and_readers_refuse_hostile_values_with_typed_errors(
        target: tuple[str, Callable[[Any], Any]], hostile: Any) -> None:
    _allowed(lambda: target[1](hostile))


@SETTINGS
@given(st.sampled_from(HAND_METHODS), HOSTILE, st.integers(0, 6))
def test_hand_methods_refuse_hostile_values_and_change_nothing(
        target: tuple[str, Callable[[Hand, Any], Any]], hostile: Any, moves: int) -> None:
    hand = _hand()
    for _ in range(moves):
        if not hand.is_over:
            hand.check_or_call()
    before = json.dumps(hand.snapshot())
    try:
        target[1](hand, hostile)
    except (OmahaError, TypeError):
        assert json.dumps(hand.snapshot()) == before
    assert sum(hand.stacks.values()) + (0 if hand.is_over else hand.pot_total) == 300


@SETTINGS
@given(st.sampled_from(TABLE_METHODS), HOSTILE)
def test_table_methods_refuse_hostile_values_and_change_nothing(
        target: tuple[str, Callable[[Table, Any], Any]], hostile: Any) -> None:
    table = _table()
    before = json.dumps(table.snapshot())
    try:
        target[1](table, hostile)
    except (OmahaError, TypeError):
        assert json.dumps(table.snapshot()) == before
