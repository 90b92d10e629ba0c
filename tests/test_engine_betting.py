"""Betting rules B1-B8 through the public Hand API (and BettingRound directly)."""

from __future__ import annotations

import pytest

from engine_helpers import make_hand, to_street
from omaha.config import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, GameConfig
from omaha.errors import IllegalActionError
from omaha.game.hand import Street
from reference_betting import BettingRound

FL = GameConfig.fixed_limit(small_bet=10, big_bet=20)
NL = GameConfig.no_limit(small_blind=50, big_blind=100)
PL = GameConfig.pot_limit(small_blind=50, big_blind=100)


def bounds(hand: object) -> tuple[int | None, int | None]:
    legal = hand.legal_actions()  # type: ignore[attr-defined]
    return legal.min_raise_to, legal.max_raise_to


# --- B1 order -------------------------------------------------------------------------

def test_b1_preflop_starts_left_of_big_blind_and_postflop_left_of_button() -> None:
    hand = make_hand(NL, {1: 1000, 2: 1000, 3: 1000, 4: 1000}, button=1)
    assert (hand.small_blind_seat, hand.big_blind_seat, hand.to_act) == (2, 3, 4)
    to_street(hand, 1)
    assert hand.to_act == 2


def test_b1_big_blind_has_the_option_when_nobody_raised() -> None:
    hand = make_hand(NL, {1: 1000, 2: 1000, 3: 1000}, button=1)
    hand.call(); hand.call()
    assert hand.to_act == 3 and hand.street == Street.PREFLOP
    legal = hand.legal_actions()
    assert legal.can_check and legal.min_raise_to == 200
    hand.check()
    assert hand.street == Street.FLOP


def test_b1_acting_out_of_turn_is_refused() -> None:
    hand = make_hand(NL, {1: 1000, 2: 1000, 3: 1000}, button=1)
    with pytest.raises(IllegalActionError, match="B1: it is seat 1's turn, not seat 2's"):
        hand.call(seat=2)
    hand.call(seat=1)


# --- B2 actions -----------------------------------------------------------------------

def test_b2_check_only_when_nothing_is_owed_and_fold_is_always_allowed() -> None:
    hand = make_hand(NL, {1: 1000, 2: 1000, 3: 1000}, button=1)
    with pytest.raises(IllegalActionError, match="B2"):
        hand.check()
    hand.call(); hand.call()
    with pytest.raises(IllegalActionError, match="B2"):
        hand.call()            # the big blind owes nothing
    assert hand.legal_actions().can_fold
    hand.fold()                # folding when a check is free is allowed (B2)
    assert hand.state(3) == "folded"


# --- B3 fixed limit -------------------------------------------------------------------

def test_b3_fixed_limit_sizes_small_bet_then_big_bet() -> None:
    hand = make_hand(FL, {1: 1000, 2: 1000, 3: 1000}, button=1)
    assert bounds(hand) == (20, 20)              # raise to 20: a call plus one unit
    to_street(hand, 1)
    assert bounds(hand) == (10, 10)              # bet 10 on the flop
    hand.bet_or_raise(10)
    assert bounds(hand) == (20, 20)
    to_street(hand, 2)
    assert bounds(hand) == (20, 20)              # bet 20 on the turn
    hand.bet_or_raise(20)
    assert bounds(hand) == (40, 40)              # raise to 40
    with pytest.raises(IllegalActionError, match="B3: the raise must be to exactly 40, got 30"):
        hand.bet_or_raise(30)


def test_b3_cap_four_bets_preflop_counting_the_big_blind() -> None:
    hand = make_hand(FL, {1: 1000, 2: 1000, 3: 1000, 4: 1000}, button=1)
    hand.bet_or_raise(20)   # 2nd bet (the big blind is the first)
    hand.bet_or_raise(30)   # 3rd
    hand.bet_or_raise(40)   # 4th: the cap
    legal = hand.legal_actions()
    assert legal.seat == 3 and legal.min_raise_to is None and legal.call_amount == 30
    with pytest.raises(IllegalActionError, match="B3: the betting is capped at 4"):
        hand.bet_or_raise(50)


def test_b3_cap_four_bets_after_the_flop() -> None:
    hand = make_hand(FL, {1: 1000, 2: 1000, 3: 1000}, button=1)
    to_street(hand, 1)
    for to in (10, 20, 30, 40):
        hand.bet_or_raise(to)
    assert bounds(hand) == (None, None)
    hand.call(); hand.call()
    assert hand.street == Street.TURN


def test_b3_cap_holds_heads_up_by_default() -> None:
    hand = make_hand(FL, {1: 1000, 2: 1000}, button=1)
    for to in (20, 30, 40):
        hand.bet_or_raise(to)
    assert bounds(hand) == (None, None)


def test_b3_uncapped_heads_up_option() -> None:
    config = GameConfig.fixed_limit(small_bet=10, uncapped_heads_up=True)
    hand = make_hand(config, {1: 1000, 2: 1000}, button=1)
    for to in (20, 30, 40, 50, 60):
        hand.bet_or_raise(to)
    assert bounds(hand) == (70, 70)
    # the option needs exactly two players at the start of the round
    three = make_hand(config, {1: 1000, 2: 1000, 3: 1000}, button=1)
    for to in (20, 30, 40):
        three.bet_or_raise(to)
    assert bounds(three) == (None, None)


# --- B4 no limit ----------------------------------------------------------------------

def test_b4_minimum_raise_is_the_previous_raise_and_maximum_the_stack() -> None:
    hand = make_hand(NL, {1: 5000, 2: 5000, 3: 5000}, button=1)
    assert bounds(hand) == (200, 5000)          # twice the big blind; the whole stack
    with pytest.raises(IllegalActionError, match="B4: minimum raise is to 200, got 199"):
        hand.bet_or_raise(199)
    hand.bet_or_raise(350)                      # a raise of 250
    assert bounds(hand) == (600, 5000)          # the next must add at least 250
    with pytest.raises(IllegalActionError, match="B8"):
        hand.bet_or_raise(5001)


def test_b4_minimum_bet_after_the_flop_is_the_big_blind() -> None:
    hand = make_hand(NL, {1: 5000, 2: 5000, 3: 5000}, button=1)
    to_street(hand, 1)
    assert bounds(hand) == (100, 4900)
    with pytest.raises(IllegalActionError, match="B4: minimum bet is to 100, got 99"):
        hand.bet_or_raise(99)


def test_b4_short_stack_may_raise_all_in_for_less() -> None:
    hand = make_hand(NL, {1: 150, 2: 5000, 3: 5000}, button=1)
    assert bounds(hand) == (150, 150)
    with pytest.raises(IllegalActionError, match="B8: seat 1 can only raise all-in to 150"):
        hand.bet_or_raise(120)
    hand.all_in()
    assert hand.state(1) == "all_in"


# --- B5 pot limit ---------------------------------------------------------------------

def test_b5_pot_limit_seed_example_200_150_150_gives_800() -> None:
    # Blinds 25/50 and a 50 big-blind ante: three callers make 200 collected before the flop.
    config = GameConfig.pot_limit(small_blind=25, big_blind=50, big_blind_ante=50)
    hand = make_hand(config, {1: 5000, 2: 5000, 3: 5000}, button=1)
    to_street(hand, 1)
    assert hand.pot_total == 200 and hand.to_act == 2
    hand.bet_or_raise(150)     # A bets 150
    hand.call()                # B calls 150
    assert bounds(hand) == (300, 800)   # C: call 150 + raise 650 = 200 + 150 + 150 + 150
    with pytest.raises(IllegalActionError, match="B5: maximum raise is to 800 .the pot., got 801"):
        hand.bet_or_raise(801)
    hand.bet_or_raise(800)


def test_b5_preflop_pot_raise_counts_the_call_and_the_blinds() -> None:
    hand = make_hand(PL, {1: 5000, 2: 5000, 3: 5000}, button=1)
    assert bounds(hand) == (200, 350)       # 100 + (50 + 100 + 100)
    hand.call()
    hand.call()                             # SB completes
    assert bounds(hand) == (200, 400)       # BB: 100 + 300


def test_b5_all_in_above_the_pot_is_refused() -> None:
    hand = make_hand(PL, {1: 5000, 2: 5000, 3: 5000}, button=1)
    with pytest.raises(IllegalActionError, match="B5"):
        hand.all_in()


def test_b5_pot_limit_engine_matches_bettinground() -> None:
    rnd = BettingRound(POT_LIMIT, unit=100, cap=None)
    rnd.apply_raise(150, player=0)
    assert rnd.raise_range(0, 10_000, 500, False, True) == (300, 800)
    assert rnd.raise_range(0, 700, 500, False, True) == (300, 700)     # stack caps it (B8)
    assert rnd.raise_range(0, 200, 500, False, True) == (200, 200)     # all-in for less


# --- B6 not raising yourself ----------------------------------------------------------

def test_b6_own_raise_does_not_reopen_when_everybody_calls() -> None:
    hand = make_hand(NL, {1: 5000, 2: 5000, 3: 5000}, button=1)
    to_street(hand, 1)
    hand.bet_or_raise(300)   # seat 2
    hand.call(); hand.call()
    assert hand.street == Street.TURN   # seat 2 never gets to act again


def test_b6_raiser_facing_only_a_short_all_in_may_not_reraise() -> None:
    hand = make_hand(NL, {1: 5000, 2: 5000, 3: 450}, button=1)
    to_street(hand, 1)               # seat 3 has 350 left
    hand.bet_or_raise(300)           # seat 2
    hand.all_in()                    # seat 3: 350, only 50 more
    hand.call()                      # seat 1
    assert hand.to_act == 2
    assert bounds(hand) == (None, None)
    with pytest.raises(IllegalActionError, match="B7: seat 2 already acted"):
        hand.bet_or_raise(1000)


# --- B7 short all-in ------------------------------------------------------------------

def test_b7_no_limit_short_all_in_does_not_reopen() -> None:
    hand = make_hand(NL, {1: 5000, 2: 5000, 3: 250, 4: 5000}, button=1)
    to_street(hand, 1)               # seat 3 has 150 left; order 2, 3, 4, 1
    hand.bet_or_raise(100)           # A (seat 2) bets 100
    hand.all_in()                    # B (seat 3) all-in 150: not a full raise
    assert bounds(hand) == (250, 4900)   # C had not acted: may raise, at least to 150 + 100
    hand.call()                      # C calls 150
    hand.call()                      # seat 1 calls 150
    assert hand.to_act == 2 and bounds(hand) == (None, None)   # A may only call or fold
    assert hand.legal_actions().call_amount == 50


def test_b7_several_short_all_ins_add_up_to_a_full_raise() -> None:
    # Robert's Rules: A bets 100, B all-in 150, C all-in 220: A faces 120 more, a full raise.
    hand = make_hand(NL, {1: 5000, 2: 5000, 3: 250, 4: 320}, button=1)
    to_street(hand, 1)
    hand.bet_or_raise(100)          # A, seat 2
    hand.all_in()                   # seat 3: 150
    hand.all_in()                   # seat 4: 220
    hand.call()                     # seat 1 (had not acted)
    assert hand.to_act == 2
    assert bounds(hand) == (320, 4900)   # reopened; the minimum raise is still 100


def test_b7_fixed_limit_half_unit_all_in_counts_as_a_raise() -> None:
    hand = make_hand(FL, {1: 1000, 2: 1000, 3: 25, 4: 1000}, button=1)
    to_street(hand, 1)              # seat 3 has 15 left; unit 10
    hand.bet_or_raise(10)           # seat 2 bets 10
    hand.all_in()                   # seat 3 all-in 15: half a unit, a full raise
    assert bounds(hand) == (25, 25)  # seat 4 raises a full unit above it
    hand.call(); hand.call()        # seats 4 and 1 call 15
    assert hand.to_act == 2 and bounds(hand) == (25, 25)   # reopened for seat 2


def test_b7_fixed_limit_less_than_half_a_unit_does_not_reopen() -> None:
    hand = make_hand(FL, {1: 1000, 2: 1000, 3: 24, 4: 1000}, button=1)
    to_street(hand, 1)              # seat 3 has 14 left
    hand.bet_or_raise(10)
    hand.all_in()                   # 14: less than half a unit more
    assert bounds(hand) == (20, 20)  # seat 4 may call 14 or complete to 20
    hand.call(); hand.call()
    assert hand.to_act == 2 and bounds(hand) == (None, None)
    assert hand.legal_actions().call_amount == 4


def test_b7_fixed_limit_half_unit_counts_toward_the_cap() -> None:
    hand = make_hand(FL, {1: 1000, 2: 1000, 3: 28, 4: 1000}, button=1)
    to_street(hand, 1)              # seat 3 has 18 left
    hand.bet_or_raise(10)           # 1
    hand.all_in()                   # 18: 8 more, at least half a unit: 2
    hand.bet_or_raise(28)           # 3
    hand.bet_or_raise(38)           # 4: capped
    assert bounds(hand) == (None, None)


def test_b7_fixed_limit_all_in_above_the_raise_is_refused() -> None:
    hand = make_hand(FL, {1: 1000, 2: 1000, 3: 35, 4: 1000}, button=1)
    to_street(hand, 1)              # seat 3 has 25 left: more than a raise to 20
    hand.bet_or_raise(10)
    with pytest.raises(IllegalActionError, match="B3: the raise must be to exactly 20, got 25"):
        hand.all_in()


# --- B8 table stakes ------------------------------------------------------------------

def test_b8_short_call_is_all_in_and_the_unmatched_bet_goes_back() -> None:
    hand = make_hand(NL, {1: 5000, 2: 5000, 3: 300}, button=1)
    hand.bet_or_raise(1000)
    hand.fold()
    assert hand.legal_actions().call_amount == 200      # seat 3 owes 900 but has 200
    hand.call()
    assert hand.is_over and hand.state(3) == "all_in"
    result = hand.result
    assert result is not None and result.returned == {1: 700}
    assert sum(hand.stacks.values()) == 10_300


def test_b8_big_blind_short_post_is_all_in_and_callers_still_owe_a_full_blind() -> None:
    hand = make_hand(NL, {1: 5000, 2: 5000, 3: 60}, button=1)
    assert hand.state(3) == "all_in" and hand.bets[3] == 60
    assert hand.legal_actions().call_amount == 100


def test_b8_raising_when_everyone_else_is_all_in_is_refused() -> None:
    hand = make_hand(NL, {1: 5000, 2: 300}, button=1)
    hand.bet_or_raise(300)          # seat 1 (button, small blind) raises to 300
    hand.all_in()                   # seat 2 all-in 300 (a call)
    assert hand.is_over             # board runs out, showdown, award


def test_b8_a_lone_player_facing_an_all_in_may_only_call_or_fold() -> None:
    hand = make_hand(NL, {1: 5000, 2: 5000, 3: 400}, button=1)
    hand.fold()
    hand.call()                     # SB completes
    hand.all_in()                   # BB all-in 400
    assert hand.to_act == 2
    assert bounds(hand) == (None, None)
    with pytest.raises(IllegalActionError, match="B8: every other player is all-in"):
        hand.bet_or_raise(2000)


def test_bad_amount_types_are_refused() -> None:
    hand = make_hand(NL, {1: 5000, 2: 5000}, button=1)
    for bad in (250.0, "300", True, None):
        with pytest.raises(IllegalActionError, match="B2: a bet is a whole number"):
            hand.bet_or_raise(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("structure", [FIXED_LIMIT, NO_LIMIT, POT_LIMIT])
def test_bettinground_reopen_rule(structure: object) -> None:
    rnd = BettingRound(structure, unit=10, cap=4)  # type: ignore[arg-type]
    rnd.apply_raise(10, player=0)
    rnd.apply_raise(14, player=1)
    assert not rnd.reopened_for(10)
    rnd.apply_raise(15, player=2)
    assert rnd.reopened_for(10) is (structure is FIXED_LIMIT)
    rnd.apply_raise(20, player=3)
    assert rnd.reopened_for(10)
