"""Speed of side pots and awarding (RULES.md P1, P2, S2-S4, K1), against PokerKit where it
can be isolated.

Run with ``python -m pytest benchmarks/bench_pots.py --benchmark-columns=min,median,mean``.
Target: awarding a 6-player hi/lo hand with two side pots from Python in under 2 us, with
or without dead money (a big blind ante) in the main pot.

The hand is a pot-limit Omaha hi/lo hand played in PokerKit to the showdown: players 0
(50 chips), 1 (200) and 2, 4 (500) all in, players 3 and 5 fold. That gives a main pot and
two side pots, with a different low winner in the main and the side pots. Our strengths are
the ranks of PokerKit's own hands, so both libraries must pay out the same chips; that is
asserted before anything is timed.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any

import numpy as np
import pytest

from omahacore.pots import build_pots, settle, settle_batch

pokerkit = pytest.importorskip("pokerkit")

HOLES = ["Ah2h9c9d", "KcKdJsTs", "AsQs7h8h", "7c7d2c2d", "Ac3c8s8d", "TdTcTh9h"]
BOARD = ["4s5d6h", "Kh", "6c"]
FOLDERS = {3, 5}


def play_pokerkit_hand() -> tuple[Any, Any]:
    """The hand above; returns (state before the river, state waiting to push chips)."""
    automation = pokerkit.Automation
    state = pokerkit.FixedLimitOmahaHoldemHighLowSplitEightOrBetter.create_state(
        (automation.ANTE_POSTING, automation.BET_COLLECTION,
         automation.BLIND_OR_STRADDLE_POSTING, automation.CARD_BURNING,
         automation.HOLE_CARDS_SHOWING_OR_MUCKING, automation.HAND_KILLING),
        True, 0, (5, 10), 10, 20, (50, 200, 500, 1000, 500, 1000), 6)
    for hole in HOLES:
        state.deal_hole(hole)
    boards = iter(BOARD)
    before_river = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # random burn cards may clash with our fixed board
        while state.actor_index is not None or state.can_deal_board():
            if state.actor_index is None:
                if len(state.board_cards) == 4:
                    before_river = copy.deepcopy(state)
                state.deal_board(next(boards))
            elif state.actor_index in FOLDERS and state.can_fold():
                state.fold()
            elif state.can_complete_bet_or_raise_to():
                state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)
            else:
                state.check_or_call()
    assert before_river is not None and state.can_push_chips()
    return before_river, state


def ranks(hands: list[Any]) -> list[int]:
    """PokerKit hands (None for no hand) to our ints: larger wins, equal ties, 0 = none."""
    distinct = sorted({h for h in hands if h is not None})
    return [0 if h is None else distinct.index(h) + 1 for h in hands]


BEFORE_RIVER, AT_SHOWDOWN = play_pokerkit_hand()
BOARD_TEXT = "".join(BOARD)


def low_hand(hole: str) -> Any:
    try:
        return pokerkit.OmahaEightOrBetterLowHand.from_game(hole, BOARD_TEXT)
    except ValueError:
        return None


HAND: dict[str, Any] = {
    "contributions": [-p for p in AT_SHOWDOWN.payoffs],
    "folded": [i in FOLDERS for i in range(6)],
    "high": ranks([pokerkit.OmahaHoldemHand.from_game(h, BOARD_TEXT) for h in HOLES]),
    "low": ranks([low_hand(h) for h in HOLES]),
}
HAND["high"] = [0 if f else v for f, v in zip(HAND["folded"], HAND["high"])]
ORDER = [2, 3, 4, 5, 0, 1]


def pokerkit_award() -> list[int]:
    """PokerKit's own pot building and chip pushing on a shallow clone of the showdown,
    with its hand evaluation replaced by the hands it already computed."""
    state = copy.copy(AT_SHOWDOWN)
    state.bets = list(AT_SHOWDOWN.bets)
    state.operations = []
    state.chips_pulling_statuses = list(AT_SHOWDOWN.chips_pulling_statuses)
    state._pots, state._sub_pots = None, []
    state.get_up_hands = lambda board, kind: iter(CACHED_HANDS[board, kind])
    state._begin_chips_pushing()
    while state._sub_pots:
        state.push_chips()
    return list(state.bets)


CACHED_HANDS = {(b, k): tuple(AT_SHOWDOWN.get_up_hands(b, k))
                for b in AT_SHOWDOWN.board_indices for k in AT_SHOWDOWN.hand_type_indices}


def test_both_libraries_agree_on_this_hand() -> None:
    s = settle(**HAND)
    assert [(p.amount, p.eligible) for p in s.pots] == \
        [(200, (0, 1, 2, 4)), (450, (1, 2, 4)), (600, (2, 4))]
    assert {p.low_winners for p in s.pots} == {(0,), (4,)}
    assert list(s.payouts) == pokerkit_award()


def fast(benchmark: Any, function: Any, *args: Any, **kwargs: Any) -> Any:
    """Time a sub-microsecond call: many calls per round hide the timer's own cost."""
    return benchmark.pedantic(function, args, kwargs, iterations=2000, rounds=200,
                              warmup_rounds=2)


def test_settle_6max_hilo_two_side_pots(benchmark: Any) -> None:
    c, f, h, lo = HAND["contributions"], HAND["folded"], HAND["high"], HAND["low"]
    result = fast(benchmark, settle, c, f, h, lo, order=ORDER, rake=25)
    assert sum(result.payouts) + result.rake == result.total
    assert benchmark.stats.stats.median < 2e-6


def test_settle_6max_hilo_with_dead_money(benchmark: Any) -> None:
    """The same hand with a big blind ante of 10 as dead money in the main pot."""
    c, f, h, lo = HAND["contributions"], HAND["folded"], HAND["high"], HAND["low"]
    result = fast(benchmark, settle, c, f, h, lo, order=ORDER, rake=25, dead=10)
    assert result.pots[0].amount == 210 and result.total == sum(c) + 10
    assert benchmark.stats.stats.median < 2e-6


def test_settle_and_read_payouts(benchmark: Any) -> None:
    c, f, h, lo = HAND["contributions"], HAND["folded"], HAND["high"], HAND["low"]
    fast(benchmark, lambda: settle(c, f, h, lo, order=ORDER, rake=25).payouts)


def test_settle_and_build_every_award_object(benchmark: Any) -> None:
    c, f, h, lo = HAND["contributions"], HAND["folded"], HAND["high"], HAND["low"]
    fast(benchmark, lambda: settle(c, f, h, lo, order=ORDER, rake=25).pots)


def test_build_pots_6max(benchmark: Any) -> None:
    layers, _ = fast(benchmark, build_pots, HAND["contributions"], HAND["folded"])
    assert len(layers) == 3


@pytest.mark.parametrize("hands", [10_000])
def test_settle_batch_per_hand(benchmark: Any, hands: int) -> None:
    def rows(values: list[Any], dtype: Any) -> Any:
        return np.tile(np.array(values, dtype), (hands, 1))

    args = (rows(HAND["contributions"], np.int64), rows(HAND["folded"], np.bool_),
            rows(HAND["high"], np.int32), rows(HAND["low"], np.int32))
    rake = np.full(hands, 25, np.int64)
    pay, _ = benchmark(settle_batch, *args, order=np.array(ORDER), rake=rake)
    assert pay[0].tolist() == list(settle(**HAND, order=ORDER, rake=25).payouts)
    benchmark.extra_info["ns_per_hand"] = benchmark.stats.stats.min / hands * 1e9


def test_pokerkit_pot_building(benchmark: Any) -> None:
    state = copy.copy(BEFORE_RIVER)
    pots = benchmark(lambda: tuple(type(state).pots.fget(state)))
    assert [p.amount for p in pots] == [200, 450, 600]


def test_pokerkit_award_with_cached_hands(benchmark: Any) -> None:
    assert benchmark(pokerkit_award) == list(settle(**HAND).payouts)


def test_pokerkit_clone_baseline(benchmark: Any) -> None:
    """The cloning part of pokerkit_award alone, to subtract from it."""
    def clone() -> Any:
        state = copy.copy(AT_SHOWDOWN)
        state.bets = list(AT_SHOWDOWN.bets)
        state.operations = []
        state.chips_pulling_statuses = list(AT_SHOWDOWN.chips_pulling_statuses)
        state._pots, state._sub_pots = None, []
        state.get_up_hands = lambda board, kind: iter(CACHED_HANDS[board, kind])
        return state
    benchmark(clone)
