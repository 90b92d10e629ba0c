"""Shuffling (C1, C2): the cards a hand deals, drawn off a uniformly shuffled deck.

:func:`shuffled_cards` draws exactly the cards asked for with a partial Fisher-Yates shuffle:
the swap positions come from one uniform integer below ``52 * 51 * ...`` (its mixed-radix
digits), drawn from the operating system's cryptographic generator
(:class:`random.SystemRandom`) unless a seeded :class:`random.Random` is injected (C2).
The same seed deals the same cards:

>>> import random
>>> shuffled_cards(10, random.Random(7)) == shuffled_cards(10, random.Random(7))
True
>>> len(set(shuffled_cards(52)))
52

Where those cards go (the T6 layout: hole cards, burns, board) is
:mod:`omaha.game.dealing`'s.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

from omaha.errors import CardError
from omahacore.engine import shuffle_with

__all__ = ["shuffled_cards"]

_FULL_DECK = tuple(range(52))


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
