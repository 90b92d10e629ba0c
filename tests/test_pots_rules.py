"""Named cases for every pot rule (RULES.md P1, P2, S2, S3, S4, K1).

Each case runs against the compiled ``omahacore.pots.settle`` and the pure-Python
reference, so the reference is itself pinned to hand-worked answers.
"""

from __future__ import annotations

from typing import Any

import pytest

import reference_pots
from omahacore import PotError
from omahacore.pots import build_pots, settle

F, L = True, False  # folded / live, to keep the tables readable


@pytest.fixture(params=["compiled", "reference"])
def settle_impl(request: pytest.FixtureRequest) -> Any:
    return settle if request.param == "compiled" else reference_pots.settle


def pot_summary(result: Any) -> list[tuple[int, tuple[int, ...]]]:
    return [(p.amount, p.eligible) for p in result.pots]


# ---------------------------------------------------------------- P1 building pots

def test_p1_main_pot_and_side_pots_cut_at_all_in_levels(settle_impl: Any) -> None:
    s = settle_impl([50, 120, 300, 300], [L, L, L, L], high=[1, 2, 3, 4])
    assert pot_summary(s) == [(200, (0, 1, 2, 3)), (210, (1, 2, 3)), (360, (2, 3))]
    assert s.payouts == (0, 0, 0, 770)


def test_p1_uncalled_bet_returned_before_the_pots_and_not_raked(settle_impl: Any) -> None:
    s = settle_impl([100, 40, 40], [L, L, F], high=[1, 9, 0], rake=6)
    assert s.returned == (60, 0, 0)
    assert pot_summary(s) == [(120, (0, 1))]
    assert s.payouts == (60, 114, 0) and s.rake == 6


def test_p1_uncalled_bet_of_last_raiser_when_everyone_folds(settle_impl: Any) -> None:
    # small blind 5 folds, big blind 10 wins: 5 of the 10 was never called
    s = settle_impl([5, 10, 0, 0], [F, L, F, F], high=[0, 0, 0, 0])
    assert s.returned == (0, 5, 0, 0)
    assert s.payouts == (0, 15, 0, 0)


def test_p1_equal_top_contributions_return_nothing(settle_impl: Any) -> None:
    s = settle_impl([80, 80, 30], [L, L, L], high=[1, 2, 3])
    assert s.returned == (0, 0, 0)
    assert pot_summary(s) == [(90, (0, 1, 2)), (100, (0, 1))]


def test_p1_folded_chips_stay_in_the_pots_they_reached(settle_impl: Any) -> None:
    # player 1 folded after putting in 70: 30 in the main pot, 40 in the first side pot
    s = settle_impl([30, 70, 100, 200, 200], [L, F, L, L, L], high=[9, 9, 1, 2, 3])
    assert pot_summary(s) == [(150, (0, 2, 3, 4)), (250, (2, 3, 4)), (200, (3, 4))]
    assert s.payouts == (150, 0, 0, 0, 450)


def test_p1_folded_players_are_never_eligible(settle_impl: Any) -> None:
    s = settle_impl([100, 100, 100], [F, L, L], high=[99, 1, 2])
    assert pot_summary(s) == [(300, (1, 2))]
    assert s.payouts == (0, 0, 300)


def test_p1_dead_chips_above_the_top_live_level_go_to_the_top_pot(settle_impl: Any) -> None:
    # odd input: two folded players put in more than any live player
    s = settle_impl([10, 50, 200, 200], [L, L, F, F], high=[2, 1, 0, 0])
    assert pot_summary(s) == [(40, (0, 1)), (420, (1,))]
    assert s.payouts == (40, 420, 0, 0)


def test_p1_live_players_who_put_in_nothing_win_nothing(settle_impl: Any) -> None:
    s = settle_impl([0, 20, 20], [L, L, L], high=[99, 1, 2])
    assert pot_summary(s) == [(40, (1, 2))]
    assert s.payouts == (0, 0, 40)


def test_p1_build_pots_mid_hand_matches_settle() -> None:
    contributions, folded = [20, 60, 100, 140], [F, L, L, L]
    layers, returned = build_pots(contributions, folded)
    assert [(p.amount, p.eligible) for p in layers] == [(200, (1, 2, 3)), (80, (2, 3))]
    assert returned == (0, 0, 0, 40)
    s = settle(contributions, folded, high=[0, 1, 2, 3])
    assert [(p.amount, p.eligible) for p in s.pots] == [(p.amount, p.eligible) for p in layers]


def test_p1_build_pots_before_any_chips_is_empty() -> None:
    assert build_pots([0, 0, 0], [L, L, L]) == ((), (0, 0, 0))


# ---------------------------------------------------------------- P2 each pot on its own

def test_p2_side_pot_winner_who_loses_the_main_pot(settle_impl: Any) -> None:
    s = settle_impl([50, 200, 200], [L, L, L], high=[9, 5, 1])
    assert [p.high_winners for p in s.pots] == [(0,), (1,)]
    assert s.payouts == (150, 300, 0)


# ---------------------------------------------------------------- S2 high-only splits

def test_s2_tied_best_hands_split_equally(settle_impl: Any) -> None:
    s = settle_impl([40, 40, 40], [L, L, L], high=[7, 3, 7])
    pot = s.pots[0]
    assert (pot.high_winners, pot.high_shares) == ((0, 2), (60, 60))


def test_s2_odd_chip_goes_to_first_winner_left_of_button(settle_impl: Any) -> None:
    # pot 101 split by players 0 and 2; seat 2 is first left of the button
    s = settle_impl([34, 33, 34], [L, F, L], high=[5, 0, 5], order=[2, 1, 0])
    assert s.pots[0].high_shares == (50, 51)
    s = settle_impl([34, 33, 34], [L, F, L], high=[5, 0, 5], order=[1, 0, 2])
    assert s.pots[0].high_shares == (51, 50)


def test_s2_three_way_tie_with_two_odd_chips(settle_impl: Any) -> None:
    # 200 three ways: 66 each and two odd chips, one each to the first two in seat order
    s = settle_impl([50, 50, 50, 50], [L, L, L, F], high=[4, 4, 4, 0], order=[3, 1, 2, 0])
    pot = s.pots[0]
    assert pot.high_winners == (0, 1, 2)
    assert pot.high_shares == (66, 67, 67)


def test_s2_each_pot_gives_its_own_odd_chips(settle_impl: Any) -> None:
    # main 101 and side 45, players 0 and 1 tie in both: each pot hands out its own odd chip
    s = settle_impl([45, 45, 25, 30, 1], [L, L, L, F, F], high=[8, 8, 2, 0, 0],
                    order=[1, 0, 2, 3, 4])
    main, side = s.pots
    assert (main.amount, side.amount) == (101, 45)
    assert main.high_shares == (50, 51) and side.high_shares == (22, 23)


# ---------------------------------------------------------------- S3 hi/lo splits

def test_s3_halving_odd_chip_goes_to_the_high_half(settle_impl: Any) -> None:
    s = settle_impl([33, 33, 33, 2], [L, L, L, F], high=[9, 1, 1, 0], low=[0, 3, 2, 0])
    (pot,) = s.pots
    assert (pot.high_shares, pot.low_shares) == ((51,), (50,))


def test_s3_two_players_tying_both_halves_of_66_get_33_each(settle_impl: Any) -> None:
    for order in ([0, 1], [1, 0]):
        s = settle_impl([33, 33], [L, L], high=[6, 6], low=[2, 2], order=order)
        assert s.payouts == (33, 33)


def test_s3_three_way_tie_both_halves_is_as_even_as_possible(settle_impl: Any) -> None:
    # 100 -> halves 50/50 -> 16 r2 each; odd chips go 0,1 (high) then 2,0 (low)
    s = settle_impl([25, 25, 25, 25], [L, L, L, F], high=[3, 3, 3, 0], low=[4, 4, 4, 0])
    pot = s.pots[0]
    assert pot.high_shares == (17, 17, 16) and pot.low_shares == (17, 16, 17)
    assert s.payouts == (34, 33, 33, 0)


def test_s3_quartering_one_high_two_tied_lows(settle_impl: Any) -> None:
    s = settle_impl([40, 40, 40], [L, L, L], high=[9, 2, 1], low=[0, 5, 5])
    assert s.payouts == (60, 30, 30)


def test_s3_quartered_by_a_tie_on_the_low(settle_impl: Any) -> None:
    # player 0 has the high and ties the low with player 1: 3/4 and 1/4
    s = settle_impl([40, 40, 40], [L, L, F], high=[9, 2, 0], low=[5, 5, 0])
    assert s.payouts == (90, 30, 0)


def test_s3_scoop_one_player_wins_both_halves(settle_impl: Any) -> None:
    s = settle_impl([30, 30, 30], [L, L, L], high=[9, 2, 1], low=[7, 5, 0])
    pot = s.pots[0]
    assert pot.high_winners == pot.low_winners == (0,)
    assert s.payouts == (90, 0, 0)


def test_s3_no_qualifying_low_the_best_high_takes_all(settle_impl: Any) -> None:
    s = settle_impl([31, 31, 31], [L, L, L], high=[9, 2, 1], low=[0, 0, 0])
    assert s.payouts == (93, 0, 0) and s.pots[0].low_winners == ()


def test_s3_low_in_the_main_pot_only(settle_impl: Any) -> None:
    # only player 0 (all-in for 20) has a low: it halves the main pot, not the side pot
    s = settle_impl([20, 100, 100], [L, L, L], high=[1, 9, 5], low=[3, 0, 0])
    main, side = s.pots
    assert (main.high_winners, main.low_winners) == ((1,), (0,))
    assert (side.high_winners, side.low_winners, side.high_shares) == ((1,), (), (160,))
    assert s.payouts == (30, 190, 0)


def test_s3_folded_players_low_does_not_count(settle_impl: Any) -> None:
    s = settle_impl([30, 30, 30], [F, L, L], high=[0, 2, 1], low=[8, 0, 0])
    assert s.payouts == (0, 90, 0)


# ---------------------------------------------------------------- S4 uncontested

def test_s4_everyone_folds_to_one_player(settle_impl: Any) -> None:
    s = settle_impl([10, 30, 60], [F, F, L], high=[99, 99, 0], low=[8, 8, 0])
    assert s.payouts == (0, 0, 100) and s.returned == (0, 0, 30)


def test_s4_single_eligible_pot_ignores_strengths(settle_impl: Any) -> None:
    s = settle_impl([10, 50, 50], [L, L, F], high=[5, 1, 0], low=[4, 0, 0])
    main, side = s.pots
    assert side.eligible == (1,) and side.high_shares == (80,) and side.low_winners == ()
    assert main.high_winners == main.low_winners == (0,)
    assert s.payouts == (30, 80, 0)


def test_s4_everyone_folded_with_chips_in_the_pot_is_an_error(settle_impl: Any) -> None:
    with pytest.raises(PotError, match="folded"):
        settle_impl([10, 10], [F, F], high=[0, 0])


def test_s4_everyone_folded_with_nothing_to_award_is_fine(settle_impl: Any) -> None:
    s = settle_impl([10, 0], [F, F], high=[0, 0])
    assert s.pots == () and s.payouts == (10, 0)


# ---------------------------------------------------------------- K1 rake

def test_k1_rake_proportional_rounded_down_remainder_from_main(settle_impl: Any) -> None:
    # pots 30 and 40, rake 3: floor(3*30/70)=1, floor(3*40/70)=1, remainder 1 to the main pot
    s = settle_impl([10, 30, 30], [L, L, L], high=[5, 4, 4], rake=3)
    assert [p.rake for p in s.pots] == [2, 1]
    assert s.payouts == (28, 20, 19) and s.rake == 3


def test_k1_remainder_goes_to_the_main_pot(settle_impl: Any) -> None:
    # pots 4, 30, 20 and rake 42: floor(168/54)=3, floor(1260/54)=23, floor(840/54)=15,
    # the remaining 1 from the main pot
    s = settle_impl([1, 11, 21, 21], [L, L, L, L], high=[1, 2, 3, 4], rake=42)
    assert [(p.amount, p.rake) for p in s.pots] == [(4, 4), (30, 23), (20, 15)]
    assert s.payouts == (0, 0, 0, 12)


def test_k1_tiny_main_pot_passes_the_remainder_on(settle_impl: Any) -> None:
    # pots 4, 3, 2 and rake 8: floor(32/9)=3, floor(24/9)=2, floor(16/9)=1, remainder 2:
    # the main pot has room for 1, the next pot takes the other
    s = settle_impl([1, 2, 3, 3], [L, L, L, L], high=[1, 2, 3, 4], rake=8)
    assert [(p.amount, p.rake) for p in s.pots] == [(4, 4), (3, 3), (2, 1)]
    assert s.payouts == (0, 0, 0, 1)


def test_k1_rake_is_taken_before_the_split(settle_impl: Any) -> None:
    s = settle_impl([50, 50], [L, L], high=[3, 3], low=[1, 1], rake=5)
    pot = s.pots[0]
    assert (pot.high_shares, pot.low_shares) == ((24, 24), (24, 23))
    assert s.payouts == (48, 47)


def test_k1_rake_above_the_pots_is_an_error(settle_impl: Any) -> None:
    with pytest.raises(PotError, match="rake"):
        settle_impl([100, 40], [L, L], high=[1, 2], rake=81)


def test_k1_exact_on_huge_amounts(settle_impl: Any) -> None:
    big = 2**61 + 12345
    s = settle_impl([big, big + 7, big + 7, 3], [L, L, L, F], high=[1, 2, 2, 0],
                    rake=2**62 - 1)
    amounts = [p.amount for p in s.pots]
    assert amounts == [3 * big + 3, 14]
    side_rake = (2**62 - 1) * 14 // sum(amounts)
    assert [p.rake for p in s.pots] == [2**62 - 1 - side_rake, side_rake]
    assert sum(s.payouts) + s.rake == s.total


@pytest.mark.parametrize(("x", "y"), [(2, 2), (3, 4), (5, 2), (7, 6), (1023, 10), (2**30, 2**30)])
def test_k1_exact_when_pot_rake_divides_evenly_at_int64_scale(settle_impl: Any, x: int,
                                                              y: int) -> None:
    # total in pots T = g*h, rake R = g*x and side pot h*y: R * side / T = x*y exactly,
    # with R * side far beyond 64 bits
    g, h = 2**31 + 11, 2**31 + 7
    total, rake, side = g * h, g * x, h * y
    main = total - side
    all_in = main // 3 - 1
    dead = main - 3 * all_in  # a folded player's chips, below the all-in level
    assert 0 <= dead <= all_in
    s = settle_impl([all_in, all_in + side // 2, all_in + side // 2, dead], [L, L, L, F],
                    high=[3, 2, 1, 0], rake=rake)
    assert [p.amount for p in s.pots] == [main, side]
    assert s.pots[1].rake == x * y and s.pots[0].rake == rake - x * y
