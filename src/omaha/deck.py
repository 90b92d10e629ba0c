"""Shuffling and the dealing layout (C1, C2, T6).

A hand uses ``players * hole_cards + 8`` cards: hole cards one at a time clockwise from the
small blind, then burn + flop (3), burn + turn, burn + river (T6). :func:`shuffled_cards`
draws exactly that many cards off a uniformly shuffled deck with a partial Fisher-Yates
shuffle: the swap positions come from one uniform integer below ``52 * 51 * ...`` (its
mixed-radix digits), drawn from the operating system's cryptographic generator
(:class:`random.SystemRandom`) unless a seeded :class:`random.Random` is injected (C2).
The same seed deals the same cards:

>>> import random
>>> shuffled_cards(10, random.Random(7)) == shuffled_cards(10, random.Random(7))
True
>>> len(set(shuffled_cards(52)))
52
>>> hole_position(round_=1, player=2, players=6), board_positions(players=6, hole_cards=4)
(8, (25, 26, 27, 29, 31))
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Mapping, Sequence

from omaha.errors import CardError
from omahacore.cards import format_card
from omahacore.engine import STREET_CARDS, shuffle_with

__all__ = [
    "STREET_CARDS",
    "board_positions",
    "burn_positions",
    "cards_needed",
    "hole_position",
    "shuffled_cards",
    "stacked_cards",
]

_FULL_DECK = tuple(range(52))
# STREET_CARDS (from the compiled engine, which reads the same table): per street after
# preflop, (burn, first board card, end) as offsets from the end of the hole cards (T6).


def _falling_factorials(size: int) -> list[int]:
    """``out[k] = size * (size - 1) * ... * (size - k + 1)``, the number of k-card sequences."""
    out = [1]
    for k in range(size):
        out.append(out[-1] * (size - k))
    return out


_SEQUENCES = _falling_factorials(52)



def _os_below(limit: int) -> int:
    """A uniform integer in [0, limit) from the OS generator (what SystemRandom does, with
    less overhead): whole random bytes, extra high bits dropped, out-of-range draws redrawn."""
    bits = limit.bit_length()
    size = (bits + 7) // 8
    drop = size * 8 - bits
    while True:
        value = int.from_bytes(os.urandom(size), "little") >> drop
        if value < limit:
            return value


def cards_needed(players: int, hole_cards: int) -> int:
    """Cards one hand uses: the hole cards, 5 board cards and 3 burns (T6)."""
    return players * hole_cards + 8


def hole_position(*, round_: int, player: int, players: int) -> int:
    """Index in the dealt sequence of hole card ``round_`` of ``player`` (0 = small blind)."""
    return round_ * players + player


def burn_positions(*, players: int, hole_cards: int) -> tuple[int, int, int]:
    """Indices of the burns before the flop, the turn and the river (T6)."""
    base = players * hole_cards
    return (base, base + 4, base + 6)


def board_positions(*, players: int, hole_cards: int) -> tuple[int, int, int, int, int]:
    """Indices of the five board cards in the dealt sequence (T6)."""
    base = players * hole_cards
    return (base + 1, base + 2, base + 3, base + 5, base + 7)


def shuffled_cards(count: int, rng: random.Random | None = None,
                   deck: Sequence[int] = _FULL_DECK) -> list[int]:
    """The top ``count`` cards of ``deck`` after an unbiased shuffle (C2).

    ``rng`` is a :class:`random.Random` (seeded for replay) or None for the OS generator.
    """
    size = len(deck)
    if not 0 <= count <= size:
        raise CardError(f"cannot draw {count} cards from {size}")
    if rng is None and deck is _FULL_DECK:   # the common case, compiled (same distribution)
        while (drawn := shuffle_with(os.urandom(2 * count + 16), count)) is None:
            pass
        return list(drawn)
    sequences = _SEQUENCES[count] if size == 52 else _falling_factorials(size)[count]
    digits = rng.randrange(sequences) if rng is not None else _os_below(sequences)
    cards = list(deck)
    for i in range(count):
        digits, k = divmod(digits, size - i)
        j = i + k
        cards[i], cards[j] = cards[j], cards[i]
    del cards[count:]
    return cards


def stacked_cards(*, players: int, hole_cards: int,
                  holes: Mapping[int, Sequence[int]] | None = None,
                  board: Sequence[int] = (), burns: Sequence[int] = (),
                  rng: random.Random | None = None) -> list[int]:
    """A dealt sequence with chosen cards in place and the rest shuffled (for tests and replay).

    ``holes`` maps a player (0 = small blind, clockwise) to their hole cards; ``board`` gives
    up to five board cards in order and ``burns`` up to three burns. Every other position gets
    a card from the rest of the deck, shuffled as :func:`shuffled_cards` does.

    >>> seq = stacked_cards(players=2, hole_cards=2, holes={0: [51, 50]}, board=[0, 1, 2])
    >>> seq[0], seq[2], seq[5:8]
    (51, 50, [0, 1, 2])
    """
    fixed: dict[int, int] = {}
    for player, cards in (holes or {}).items():
        if not 0 <= player < players or len(cards) > hole_cards:
            raise CardError(f"player {player} cannot hold {len(cards)} of {hole_cards} hole cards")
        for round_, card in enumerate(cards):
            fixed[hole_position(round_=round_, player=player, players=players)] = card
    if len(board) > 5 or len(burns) > 3:
        raise CardError(f"at most 5 board cards and 3 burns, got {len(board)} and {len(burns)}")
    for position, card in zip(board_positions(players=players, hole_cards=hole_cards), board):
        fixed[position] = card
    for position, card in zip(burn_positions(players=players, hole_cards=hole_cards), burns):
        fixed[position] = card
    _check_distinct(fixed.values())
    used = set(fixed.values())
    count = cards_needed(players, hole_cards)
    rest = iter(shuffled_cards(count - len(fixed), rng, [c for c in range(52) if c not in used]))
    return [fixed[i] if i in fixed else next(rest) for i in range(count)]


def _check_distinct(cards: Iterable[int]) -> None:
    """Refuse a card outside 0..51 or a card used twice (C1)."""
    seen: set[int] = set()
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
            raise CardError(f"card index must be 0..51, got {card!r}")
        if card in seen:
            raise CardError(f"card {format_card(card)} is used twice (C1)")
        seen.add(card)
