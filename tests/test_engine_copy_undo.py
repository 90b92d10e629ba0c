"""Hand.copy() and Hand.undo() (issue 12): undo by saved state, checked against the public
state before each action, against an independent replay of the same decisions, and on
random hands of every variant, structure and showdown mode (B1-B8, S1, D2, K1)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine_helpers import make_hand, random_action, random_hand
from omaha.config import GameConfig
from omaha.errors import IllegalActionError
from omaha.game.hand import Hand
from omaha.history.snapshot import replay


def public_state(hand: Hand) -> tuple[Any, ...]:
    """Everything a caller can read of a hand (and its snapshot, which holds the deck)."""
    legal = hand.legal_actions() if hand.to_act is not None else None
    assert hand.event_count == len(hand.events)   # the hole cards are one raw entry
    result = hand.result.to_dict() if hand.result is not None else None
    return (hand.events, hand.stacks, hand.bets, hand.contributions, hand.pot_total,
            hand.to_act, hand.street, hand.board, hand.is_over, hand.current_bet(),
            hand.pots(), hand.shown_hands(), [hand.state(s) for s in hand.seats], legal,
            result, hand.view(None).to_dict(), hand.snapshot())


def test_undo_puts_back_every_action_of_random_hands() -> None:
    """At every decision: act, undo, and the hand reads exactly as before; then act again
    and carry on. At the end, undo back to the deal."""
    rng = random.Random(1212)
    for _ in range(150):
        hand = random_hand(rng)
        states = [public_state(hand)]
        while not hand.is_over:
            before = states[-1]
            seed = rng.random()
            random_action(hand, random.Random(seed))
            hand.undo()
            assert public_state(hand) == before
            random_action(hand, random.Random(seed))   # the same decision again
            states.append(public_state(hand))
        assert hand.undo_depth == len(states) - 1
        while states[:-1]:
            states.pop()
            hand.undo()
            assert public_state(hand) == states[-1]
        with pytest.raises(IllegalActionError):
            hand.undo()


def test_a_copy_plays_on_alone_and_matches_a_replay() -> None:
    """A copy taken at any point is independent of its original both ways, and plays the
    same game as a replay of the original's log (the old, slow way to branch)."""
    rng = random.Random(77)
    for _ in range(80):
        hand = random_hand(rng)
        while not hand.is_over:
            if rng.random() < 0.3:
                before = public_state(hand)
                branch = hand.copy()
                assert public_state(branch) == before and branch.undo_depth == 0
                reference = replay(list(hand.events), deck=hand._deck,
                                   manual_showdown=hand._manual)
                seed = rng.random()
                for twin in (branch, reference):
                    pick = random.Random(seed)
                    while not twin.is_over:
                        random_action(twin, pick)
                assert branch.events == reference.events
                assert branch.result == reference.result
                assert public_state(hand) == before
                while branch.undo_depth:
                    branch.undo()
                assert public_state(branch) == before
            random_action(hand, rng)


def test_undo_on_a_copy_leaves_the_original_alone() -> None:
    config = GameConfig.pot_limit(small_blind=1, big_blind=2)
    hand = make_hand(config, {1: 100, 2: 100, 3: 100}, seed=4)
    hand.bet_or_raise(7)
    branch = hand.copy()
    branch.call()
    branch.call()
    hand_before = public_state(hand)
    branch.undo()
    branch.undo()
    assert public_state(hand) == hand_before == public_state(branch)
    with pytest.raises(IllegalActionError, match="no action to undo"):
        branch.undo()          # the copy has no history of its own before the copy
    hand.undo()
    assert hand.to_act == 1 and hand.pot_total == 3


@pytest.mark.parametrize("policy_fold", [False, True])
def test_d2_a_timeout_is_undone_with_its_timed_out_record(policy_fold: bool) -> None:
    from omaha.game.clock import TimeoutPolicy

    config = GameConfig.no_limit(small_blind=1, big_blind=2)
    hand = make_hand(config, {1: 100, 2: 100, 3: 100}, seed=2)
    before = public_state(hand)
    policy = TimeoutPolicy.FOLD if policy_fold else TimeoutPolicy.CHECK_PROTECT_FOLD
    assert hand.timeout(policy=policy) == "fold"
    hand.undo()
    assert public_state(hand) == before


def test_s1_undo_of_show_and_muck_at_a_manual_showdown() -> None:
    rng = random.Random(5)
    seen = 0
    for _ in range(300):
        hand = random_hand(rng)   # manual showdown in about 30%
        while not hand.is_over:
            if hand.legal_actions().can_show:
                before = public_state(hand)
                for act in (hand.show, hand.muck):
                    act()
                    hand.undo()
                    assert public_state(hand) == before
                seen += 1
            random_action(hand, rng)
    assert seen > 20
