"""Built-in stud bots and a session of them (issue 26): what ``omaha play --variant F7S``
(``F7S/8``, ``FR``, ``F5S``) runs.

Two bots, each a function acting once for the player to act of a
:class:`~omaha.game.stud.StudHand`: ``random`` (fold 15% when facing a bet, bet, raise or
complete 20%, else check or call; the bring-in posts unless it completes) and ``strength``
(plays by how good its own cards are: the best five when it holds five or more, else pairs
and high cards, or for razz its distinct low cards).

>>> result = play_stud_session(StudConfig(variant="FR", ante=1, bring_in=1, small_bet=2),
...                            ["random", "strength"], hands=20, stack=100, seed=1)
>>> result.hands, len(result.nets), sum(result.nets)
(20, 2, 0)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from omaha.config import Variant
from omaha.errors import ConfigError
from omaha.game.stud import StudConfig, StudHand
from omahacore.actions import LegalActions
from omahacore.evaluator import (
    HIGH_STRENGTHS,
    LOW_STRENGTHS,
    RAZZ_STRENGTHS,
    evaluate_best,
    evaluate_best_low,
    evaluate_razz,
)

__all__ = ["STUD_BOTS", "StudChoice", "StudSession", "play_stud_session", "random_stud",
           "strength_choice", "strength_stud", "stud_strength"]

StudBot = Callable[[StudHand, random.Random], None]


def random_stud(hand: StudHand, rng: random.Random) -> None:
    """The random policy (the benchmarks' one): it acts once for the player to act."""
    legal = hand.legal_actions()
    r = rng.random()
    if r < 0.15 and legal.call_amount and legal.can_fold:
        hand.fold()
    elif r < 0.35 and legal.min_raise_to is not None and legal.max_raise_to is not None:
        hand.bet_or_raise(rng.choice((legal.min_raise_to, legal.max_raise_to)))
    else:
        hand.check_or_call()


def stud_strength(cards: Sequence[int], variant: Variant) -> float:
    """How good a player's own ``cards`` are (down and up, with the shared card of a short
    deck, E2), 0..1 (E6): the best five when there are five, else pairs and high cards
    (razz: distinct cards of eight or lower).

    >>> from omaha.cards import parse_cards
    >>> from omaha.config import RAZZ, SEVEN_CARD_STUD
    >>> stud_strength(parse_cards("AhAd7c"), SEVEN_CARD_STUD) > stud_strength(
    ...     parse_cards("Kh9d2c"), SEVEN_CARD_STUD)
    True
    >>> stud_strength(parse_cards("Ah2d3c"), RAZZ), stud_strength(parse_cards("KhQdJc"), RAZZ)
    (1.0, 0.0)
    """
    if len(cards) >= 5:
        if variant.hand_rule == "razz":
            return evaluate_razz(cards) / RAZZ_STRENGTHS
        high = evaluate_best(cards) / HIGH_STRENGTHS
        if variant.hi_lo:
            return max(high, evaluate_best_low(cards) / LOW_STRENGTHS)
        return high
    ranks = [card >> 2 for card in cards]
    if variant.hand_rule == "razz":
        return len({r for r in ranks if r <= 6 or r == 12}) / len(ranks)
    paired = len(ranks) - len(set(ranks))
    return min(1.0, 0.45 * paired + max(ranks) / 24)


StudChoice = Literal["raise", "check_or_call", "fold"]
"""What the strength bot does: raise (bet or complete) to the minimum, check or call (post
the bring-in when it is owed, E3), or fold."""


def strength_choice(cards: Sequence[int], variant: Variant, legal: LegalActions,
                    rng: random.Random) -> tuple[StudChoice, int | None]:
    """The strength bot's rule, stated once for a :class:`StudHand` (:func:`strength_stud`)
    and for a view (the arena's :class:`~omaha.game.bots.StrengthBot`): raise to the
    minimum above 0.75 (:func:`stud_strength` of ``cards`` plus a draw of ``rng`` in
    +/-0.05), check or call above 0.4 or when free or the fold is not allowed (the
    bring-in, E3), else fold. Returns the choice and the total of a raise (None otherwise).

    >>> from omaha.cards import parse_cards
    >>> from omaha.config import SEVEN_CARD_STUD
    >>> legal = LegalActions(seat=0, can_fold=True, can_check=False, call_amount=2,
    ...                      min_raise_to=4, max_raise_to=4)
    >>> strength_choice(parse_cards("AhAdAc"), SEVEN_CARD_STUD, legal, random.Random(1))
    ('raise', 4)
    >>> strength_choice(parse_cards("7h2d4c"), SEVEN_CARD_STUD, legal, random.Random(1))
    ('fold', None)
    """
    value = stud_strength(cards, variant) + rng.uniform(-0.05, 0.05)
    if value > 0.75 and legal.min_raise_to is not None:
        return "raise", legal.min_raise_to
    if value > 0.4 or not legal.call_amount or not legal.can_fold:
        return "check_or_call", None
    return "fold", None


def strength_stud(hand: StudHand, rng: random.Random) -> None:
    """Raise strong cards, call fair ones, fold weak ones facing a bet (checks when free):
    :func:`strength_choice` of the player's own cards."""
    player = hand.to_act
    assert player is not None
    cards = [card for card, _ in hand.cards(player)]
    if hand.community is not None:
        cards.append(hand.community)
    choice, to = strength_choice(cards, hand.config.variant, hand.legal_actions(), rng)
    if choice == "raise":
        assert to is not None
        hand.bet_or_raise(to)
    elif choice == "check_or_call":
        hand.check_or_call()
    else:
        hand.fold()


STUD_BOTS: dict[str, StudBot] = {"random": random_stud, "strength": strength_stud}
"""The built-in stud bots by name."""


@dataclass(frozen=True, slots=True)
class StudSession:
    """A session's result: hands played, each seat's bot and net chips."""

    hands: int
    bots: tuple[str, ...]
    nets: tuple[int, ...]


def play_stud_session(config: StudConfig, bots: Sequence[str], *, hands: int, stack: int,
                      seed: int | None = None,
                      on_hand: Callable[[StudHand], None] | None = None) -> StudSession:
    """Play ``hands`` hands at a table of the named built-in bots (one per seat): every stack
    starts every hand at ``stack``, the dealer position moves one seat each hand, and
    ``seed`` seeds the deal and the bots (None: the OS generator deals). ``on_hand`` is
    given each finished hand (``omaha simulate``: its statistics and PHH)."""
    unknown = [name for name in bots if name not in STUD_BOTS]
    if unknown:
        raise ConfigError("E1", f"unknown stud bot {unknown[0]!r}; built in: "
                          f"{', '.join(STUD_BOTS)}")
    players = len(bots)
    policies = [STUD_BOTS[name] for name in bots]
    rng = random.Random(seed)
    deal = random.Random(seed) if seed is not None else None
    nets = [0] * players
    for number in range(hands):
        hand = StudHand(config, [stack] * players, dealer=number % players, rng=deal)
        while not hand.is_over:
            player = hand.to_act
            assert player is not None
            policies[player](hand, rng)
        for i, final in enumerate(hand.stacks):
            nets[i] += final - stack
        if on_hand is not None:
            on_hand(hand)
    return StudSession(hands, tuple(bots), tuple(nets))
