"""Invariants of the stud engine over random hands (Hypothesis): chips are neither made nor
lost (B8, P1), every action the legal answer offers is accepted, the player to act can act,
and the deal gives distinct cards with the E2 pattern of up and down cards."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from omahacore.stud import GAME_FIVE, GAME_HIGH, GAME_HILO, GAME_RAZZ, StudCore


@st.composite
def hands(draw: st.DrawFn) -> tuple[StudCore, list[int], int]:
    game = draw(st.sampled_from([GAME_HIGH, GAME_HILO, GAME_RAZZ, GAME_FIVE]))
    n = draw(st.integers(2, 8))
    stacks = draw(st.lists(st.integers(1, 300), min_size=n, max_size=n))
    small = draw(st.integers(2, 20))
    ante = draw(st.integers(0, 5))
    bring_in = draw(st.integers(0 if ante else 1, small))
    deck = bytes(draw(st.permutations(range(52))))
    dealer = draw(st.integers(0, n - 1))
    hand = StudCore(game, stacks, deck, ante=ante, bring_in=bring_in, small_bet=small,
                    big_bet=2 * small, dealer=dealer)
    return hand, stacks, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=400, deadline=None)
@given(hands())
def test_e1_e7_chips_conserved_and_legal_actions_accepted(case):
    hand, stacks, seed = case
    rng = random.Random(seed)
    total = sum(stacks)
    seen: set[int] = set()
    while not hand.is_over:
        assert sum(hand.stacks) + hand.pot == total
        player = hand.to_act
        assert player is not None and not hand.folded[player]
        legal = hand.legal_actions()
        r = rng.random()
        if legal.can_fold and r < 0.2:
            hand.fold()
        elif legal.min_raise_to is not None and r < 0.5:
            hand.bet_or_raise(rng.choice((legal.min_raise_to, legal.max_raise_to)))
        else:
            hand.check_or_call()
    assert sum(hand.stacks) == total
    for i in range(hand.players):
        cards = hand.cards(i)
        for card, _ in cards:
            assert card not in seen
            seen.add(card)
        assert cards[0][1] is False                      # E2: the first card is down
        assert any(up for _, up in cards)                # and at least one is up
    if hand.community is not None:
        assert hand.community not in seen
