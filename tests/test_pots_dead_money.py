"""Dead money in the splitter: the big blind ante (RULES.md P1, P2, S4, K1).

Dead money is table money, nobody's contribution: it goes into the main pot, creates no
all-in level, is never an uncalled bet and is raked like any pot chip. Each rule case runs
against the compiled ``omahacore.pots`` and the pure-Python reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import reference_pots
from omahacore import ArrayError, PotError
from omahacore.pots import build_pots, settle, settle_batch

F, L = True, False


@pytest.fixture(params=["compiled", "reference"])
def settle_impl(request: pytest.FixtureRequest) -> Any:
    return settle if request.param == "compiled" else reference_pots.settle


def pot_summary(result: Any) -> list[tuple[int, tuple[int, ...]]]:
    return [(p.amount, p.eligible) for p in result.pots]


# ---------------------------------------------------------------- P1 the main pot

def test_p1_bb_ante_example_is_one_main_pot_contested_by_all(settle_impl: Any) -> None:
    # The big blind (player 2) posts a 10 ante and a 10 blind; the others call 10.
    s = settle_impl([10, 10, 10], [L, L, L], high=[3, 1, 2], dead=10)
    assert pot_summary(s) == [(40, (0, 1, 2))]
    assert s.returned == (0, 0, 0) and s.payouts == (40, 0, 0) and s.total == 40


def test_p1_short_all_in_bb_whose_ante_exceeds_the_smallest_live_stake(settle_impl: Any) -> None:
    # Player 1 (small blind) is all-in for 5; player 2, the big blind, is all-in for a
    # blind of 10 plus an ante of 20; players 0 and 3 play on to 60. The 20 ante is all in
    # the main pot, which the 5-chip small blind contests: a folded "phantom" player
    # putting in the ante would have put only 5 of it in the main pot.
    s = settle_impl([60, 5, 10, 60], [L, L, L, L], high=[1, 9, 5, 2], dead=20)
    assert pot_summary(s) == [(40, (0, 1, 2, 3)), (15, (0, 2, 3)), (100, (0, 3))]
    assert s.payouts == (0, 40, 15, 100) and s.total == 155


def test_p1_dead_money_is_never_an_uncalled_bet(settle_impl: Any) -> None:
    # Everyone folds to the big blind: 5 of its blind comes back, the ante is won.
    s = settle_impl([5, 10, 0], [F, L, F], high=[0, 0, 0], dead=10)
    assert s.returned == (0, 5, 0)
    assert pot_summary(s) == [(20, (1,))] and s.payouts == (0, 25, 0)


def test_p1_dead_money_alone_forms_the_main_pot(settle_impl: Any) -> None:
    s = settle_impl([0, 0, 0], [F, L, L], high=[9, 1, 2], dead=10)
    assert pot_summary(s) == [(10, (1, 2))] and s.payouts == (0, 0, 10)
    s = settle_impl([0, 30, 0], [L, L, L], high=[9, 1, 2], dead=10)   # 30 uncalled
    assert s.returned == (0, 30, 0) and pot_summary(s) == [(10, (0, 1, 2))]
    assert s.payouts == (10, 30, 0)


def test_p1_a_live_player_with_nothing_in_wins_nothing_not_even_dead_money(
        settle_impl: Any) -> None:
    s = settle_impl([0, 20, 20], [L, L, L], high=[99, 1, 2], dead=10)
    assert pot_summary(s) == [(50, (1, 2))]
    assert s.payouts == (0, 0, 50)


def test_p1_dead_money_creates_no_level_above_the_live_stakes(settle_impl: Any) -> None:
    # An ante bigger than every contribution still only grows the main pot.
    s = settle_impl([4, 4], [L, L], high=[2, 1], dead=100)
    assert pot_summary(s) == [(108, (0, 1))] and s.returned == (0, 0)


def test_p1_build_pots_puts_dead_money_in_the_main_pot() -> None:
    layers, returned = build_pots([20, 20, 5, 0], [L, L, L, F], dead=10)
    assert [(p.amount, p.eligible) for p in layers] == [(25, (0, 1, 2)), (30, (0, 1))]
    assert returned == (0, 0, 0, 0)
    assert build_pots([0, 0], [L, L], dead=3)[0][0].amount == 3


# ---------------------------------------------------------------- P2, S3, S4

def test_p2_s3_dead_money_is_split_with_the_main_pot_only(settle_impl: Any) -> None:
    # Main pot 3 * 10 + 11 = 41: high half 21 (the halving chip) to player 0, low half 20
    # to player 1. The side pot of 40 gets none of the dead money: 20 and 20.
    s = settle_impl([10, 30, 30], [L, L, L], high=[9, 1, 5], low=[0, 4, 0], dead=11)
    main, side = s.pots
    assert (main.amount, main.high_shares, main.low_winners, main.low_shares) == \
        (41, (21,), (1,), (20,))
    assert (side.amount, side.eligible, side.high_shares, side.low_shares) == \
        (40, (1, 2), (20,), (20,))
    assert s.payouts == (21, 40, 20)


def test_s4_everyone_folded_with_dead_money_is_an_error(settle_impl: Any) -> None:
    with pytest.raises(PotError, match="folded"):
        settle_impl([0, 0], [F, F], high=[0, 0], dead=5)


def test_s4_the_error_counts_the_dead_money() -> None:
    with pytest.raises(PotError, match=r"the 13 chips in the pots \(5 of them dead money\)"):
        settle([4, 4], [F, F], high=[0, 0], dead=5)


# ---------------------------------------------------------------- K1 rake

def test_k1_dead_money_is_raked_in_proportion(settle_impl: Any) -> None:
    # Pots 30 + 10 dead = 40 and 40: a rake of 5 takes 2 from each, the remainder 1 from
    # the main pot.
    s = settle_impl([10, 30, 30], [L, L, L], high=[5, 4, 3], rake=5, dead=10)
    assert [(p.amount, p.rake) for p in s.pots] == [(40, 3), (40, 2)]
    assert sum(s.payouts) + s.rake == s.total == 80


def test_k1_rake_may_take_up_to_the_dead_money_too(settle_impl: Any) -> None:
    s = settle_impl([10, 10], [L, L], high=[1, 2], rake=30, dead=10)
    assert s.payouts == (0, 0) and s.rake == 30
    with pytest.raises(PotError, match="rake"):
        settle_impl([10, 10], [L, L], high=[1, 2], rake=31, dead=10)


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize(("dead", "message"), [
    (-1, r"dead = -1 is negative"),
    (1.0, "dead must be an int, got float"),
    (True, "dead must be an int, got bool"),
    (None, "dead must be an int, got NoneType"),
    (2**63, "dead = .* does not fit in a signed 64-bit int"),
    (2**62, "the contributions and the dead money add up to more than 2\\*\\*63 - 1"),
])
def test_bad_dead_money_raises_pot_error_naming_it(dead: Any, message: str) -> None:
    for call in (lambda: settle([2**62, 10], [L, L], high=[1, 2], dead=dead),
                 lambda: build_pots([2**62, 10], [L, L], dead=dead)):
        with pytest.raises(PotError, match=message):
            call()


def test_numpy_integer_dead_money_is_read() -> None:
    assert settle([5, 5], [L, L], high=[1, 2], dead=np.int64(3)).total == 13


# ---------------------------------------------------------------- batch

def test_batch_dead_money_matches_settle_row_by_row() -> None:
    contributions = np.array([[60, 5, 10, 60], [10, 10, 10, 0], [0, 0, 0, 0]], np.int64)
    folded = np.array([[L, L, L, L], [L, L, L, F], [F, L, L, F]])
    high = np.array([[1, 9, 5, 2], [3, 1, 2, 0], [0, 4, 4, 0]], np.int32)
    dead = np.array([20, 10, 7], np.int64)
    pay, taken = settle_batch(contributions, folded, high, rake=np.array([1, 2, 3]), dead=dead)
    expected = [list(settle(c.tolist(), f.tolist(), h.tolist(), rake=r, dead=int(d)).payouts)
                for c, f, h, r, d in zip(contributions, folded, high, [1, 2, 3], dead)]
    assert pay.tolist() == expected
    assert (pay.sum(axis=1) + taken).tolist() == (contributions.sum(axis=1) + dead).tolist()


@pytest.mark.parametrize(("dead", "message"), [
    (np.array([1, 2]), "dead must have shape"),
    (np.array([1, 2, 3], np.int32), "dead must have dtype int64"),
    ([1, 2, 3], "dead must be a numpy array"),
    (np.array([0, -2, 0]), r"row 1: dead = -2 is negative"),
])
def test_batch_dead_money_validation(dead: Any, message: str) -> None:
    args = {"contributions": np.full((3, 2), 5, np.int64), "folded": np.zeros((3, 2), bool),
            "high": np.ones((3, 2), np.int32)}
    with pytest.raises(ArrayError, match=message):
        settle_batch(**args, dead=dead)
