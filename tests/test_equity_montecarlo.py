"""Monte Carlo against exact answers for a hand against any hand, every variant (C3-C6, S3).

The sampler's "any hand" path (cards dealt from those left, suits counted in register lanes,
heads-up outcomes without loops) must agree with enumerating every opponent hand exactly.
Flush-prone spots: a suited hero, a two-suited flop, most of the deck dead so that the exact
side stays small.
"""

from __future__ import annotations

import itertools
import random

import pytest

import omaha


@pytest.mark.parametrize("variant", list(omaha.VARIANTS), ids=lambda v: v.name)
def test_any_hand_sampling_matches_exact_enumeration(variant):
    nh = variant.hole_cards
    rng = random.Random(nh * 7 + variant.hi_lo)
    board = omaha.parse_cards("Kd7d4h")
    hero = omaha.parse_cards({2: "AdQd", 4: "AdQd2c3c", 5: "AdQd2c3c5h", 6: "AdQd2c3c5h9s"}[nh])
    rest = [c for c in range(52) if c not in board + hero]
    rng.shuffle(rest)
    left = rest[:nh + 8]
    dead = rest[nh + 8:]
    opponents = ",".join(omaha.format_cards(h) for h in itertools.combinations(left, nh))
    exact = omaha.equity([hero, opponents], board=board, dead=dead, variant=variant)
    assert exact.exact
    sampled = omaha.equity([omaha.format_cards(hero), "*" * nh], board=board, dead=dead,
                           variant=variant, samples=100_000, seed=3)
    for name in ("equity", "high", "low", "scoop"):
        e, s = getattr(exact, name)[0], getattr(sampled, name)[0]
        assert abs(e - s) < 4 * max(sampled.std_error[0], 1e-4), name
