"""Randomized hands: chip conservation, the engine's limits against an independent reference
read from the event log, every legal action accepted and illegal ones refused unchanged."""

from __future__ import annotations

import random

import pytest

from engine_helpers import random_action, random_hand, reference_options
from omaha.errors import IllegalActionError
from omaha.game.hand import Hand


def fingerprint(hand: Hand) -> tuple[object, ...]:
    return (len(hand.events), hand.to_act, tuple(hand.stacks.items()),
            tuple(hand.bets.items()), hand.pot_total, hand.street)


def try_illegal(hand: Hand, rng: random.Random) -> None:
    """Attempt actions the limits forbid; each must raise and change nothing."""
    legal = hand.legal_actions()
    before = fingerprint(hand)
    stack, bet = hand.stacks[legal.seat], hand.bets[legal.seat]
    attempts = []
    if legal.min_raise_to is None:
        attempts.append(lambda: hand.bet_or_raise(hand.current_bet() + 1))
    else:
        assert legal.max_raise_to is not None
        if legal.min_raise_to > hand.current_bet() + 1:
            attempts.append(lambda: hand.bet_or_raise(legal.min_raise_to - 1))  # type: ignore[operator]
        attempts.append(lambda: hand.bet_or_raise(legal.max_raise_to + 1))  # type: ignore[operator]
        if legal.max_raise_to < stack + bet:
            attempts.append(lambda: hand.all_in())
    if not legal.can_check:
        attempts.append(lambda: hand.check())
    else:
        attempts.append(lambda: hand.call())
    other = [s for s in hand.seats if s != legal.seat]
    attempts.append(lambda: hand.fold(seat=rng.choice(other)))
    for attempt in attempts:
        with pytest.raises(IllegalActionError):
            attempt()
        assert fingerprint(hand) == before


def test_random_hands_conserve_chips_and_match_the_reference() -> None:
    rng = random.Random(2024)
    decisions = 0
    for _ in range(1500):
        hand = random_hand(rng)
        start_total = sum(hand.events[0].stacks)  # type: ignore[attr-defined]
        while not hand.is_over:
            assert sum(hand.stacks.values()) + hand.pot_total == start_total
            legal = hand.legal_actions()
            if not legal.can_show:
                expected = reference_options(hand.config, hand.events, legal.seat)
                assert expected == (legal.can_check, legal.call_amount, legal.min_raise_to,
                                    legal.max_raise_to), hand.events
                if rng.random() < 0.3:
                    try_illegal(hand, rng)
                decisions += 1
            random_action(hand, rng)
        result = hand.result
        assert result is not None
        assert sum(hand.stacks.values()) + result.rake == start_total
        assert all(chips >= 0 for chips in hand.stacks.values())
        assert sum(result.payouts.values()) + result.rake == hand.pot_total
    assert decisions > 10_000


def test_every_legal_raise_amount_is_accepted() -> None:
    rng = random.Random(7)
    for _ in range(300):
        hand = random_hand(rng)
        while not hand.is_over:
            legal = hand.legal_actions()
            if legal.min_raise_to is not None and rng.random() < 0.5:
                assert legal.max_raise_to is not None
                for to in {legal.min_raise_to, legal.max_raise_to,
                           rng.randint(legal.min_raise_to, legal.max_raise_to)}:
                    copy = Hand.restore(hand.snapshot())
                    copy.bet_or_raise(to)
                    assert copy.bets[legal.seat] == to
            random_action(hand, rng)


def test_protected_all_ins_and_timeouts_keep_chips() -> None:
    rng = random.Random(11)
    for _ in range(400):
        hand = random_hand(rng)
        start_total = sum(hand.events[0].stacks)  # type: ignore[attr-defined]
        while not hand.is_over:
            if not hand.legal_actions().can_show and rng.random() < 0.15:
                hand.timeout()
            else:
                random_action(hand, rng)
        result = hand.result
        assert result is not None
        assert sum(hand.stacks.values()) + result.rake == start_total
        for seat in hand.seats:   # a protected player never loses more than they put in
            if hand.state(seat) == "protected":
                assert result.net[seat] >= -hand.contributions[seat]
