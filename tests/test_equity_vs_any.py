"""A known hand against any hand (``****``), heads-up: the pair-mask sampler counts exactly
what the general sampler counts (C3-C6, S3).

The compiled sampler takes the pair-mask path when one call deals at least ``VS_ANY_MIN``
deals, the general path below that. Chunk ``j`` deals the same cards whichever call runs it,
so one call over two chunks (pair masks) and two calls over one chunk each (general) must give
identical counts: every field, on random spots of every game, both seats, known boards, dead
cards, suited known hands (whose flushes send a deal to the full evaluation).
"""

from __future__ import annotations

import itertools
import random

import pytest

import omaha
from omaha.cards import DECK
from omahacore import equity as kernel

GAMES = [(4, False, True), (4, False, False), (5, False, True), (6, False, False),
         (2, True, False), (2, True, True)]        # (hole cards, Hold'em, hi/lo)


def _counts(entries, nh, board, dead, holdem, hilo, seed, chunks):
    """Counts and deals summed over one kernel call per ``(begin, end)`` chunk range."""
    total, deals = None, 0
    for begin, end in chunks:
        counts, done, rejected = kernel.sample_counts(
            entries, nh, board, dead, holdem, hilo, seed, 2 * kernel.CHUNK, begin, end)
        assert rejected == 0
        total = list(counts) if total is None else [a + b for a, b in zip(total, counts)]
        deals += done
    return total, deals


def test_two_chunks_take_the_pair_masks_and_one_chunk_does_not():
    assert kernel.CHUNK < kernel.VS_ANY_MIN <= 2 * kernel.CHUNK


@pytest.mark.parametrize("seed", range(3))
def test_pair_mask_path_counts_what_the_general_path_counts(seed):
    rng = random.Random(seed)
    for nh, holdem, hilo in GAMES:
        for _ in range(3):
            nb = rng.choice((0, 3, 4, 5))
            cards = rng.sample(range(52), nh + nb + rng.randint(0, 3))
            if rng.random() < 0.5:      # a suited known hand: its flushes take the full path
                suited = [c for c in range(52) if c % 4 == cards[0] % 4 and c not in cards]
                cards[1] = suited[0]
            known = bytes(cards[:nh])
            board, dead = bytes(cards[nh:nh + nb]), bytes(cards[nh + nb:])
            entries = [known, b""] if rng.random() < 0.5 else [b"", known]
            args = (entries, nh, board, dead, holdem, hilo, rng.getrandbits(64))
            masks = _counts(*args, [(0, 2)])
            general = _counts(*args, [(0, 1), (1, 2)])
            assert masks == general, (nh, holdem, hilo, list(known), list(board), list(dead))
            assert masks[1] == 2 * kernel.CHUNK


def test_hand_vs_any_preflop_within_standard_errors_of_every_opponent_hand_enumerated():
    """Preflop against ``****`` (the pair-mask path), the known hand's equity agrees with
    exact enumeration over every opponent hand; dead cards leave 14 cards live."""
    hero = omaha.parse_cards("AsKs2d3c")
    rng = random.Random(5)
    rest = [c for c in range(52) if c not in hero]
    rng.shuffle(rest)
    dead, live = [DECK[c] for c in rest[:34]], rest[34:]
    sampled = omaha.equity([hero, "****"], dead=dead, variant=omaha.OMAHA_HILO,
                           samples=200_000, seed=6)
    opponents = ",".join(omaha.format_cards(h) for h in itertools.combinations(live, 4))
    exact = omaha.equity([hero, opponents], dead=dead, variant=omaha.OMAHA_HILO, exact=True)
    assert exact.exact and exact.deals == 1001 * 252
    assert abs(exact.equity[0] - sampled.equity[0]) < 4 * sampled.std_error[0]
