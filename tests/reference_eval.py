"""A slow, obviously-correct Omaha evaluator in pure Python, for cross-checking the compiled one.

It shares no code or tables with ``omahacore``: hands are ranked by explicit tuples following
rule C4 (high) and C5 (low), and the dense strengths are derived here by sorting every
distinct tuple, so an error in the compiled tables cannot hide in both.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS, TWO_PAIR, PAIR, HIGH_CARD = (
    8, 7, 6, 5, 4, 3, 2, 1, 0)


def rank(card: int) -> int:
    return card // 4


def suit(card: int) -> int:
    return card % 4


def straight_top(distinct_ranks_desc: tuple[int, ...]) -> int | None:
    """Top rank of a straight made by five distinct ranks (ace low only in the wheel)."""
    r = distinct_ranks_desc
    if len(r) != 5:
        return None
    if r[0] - r[4] == 4:
        return r[0]
    if r == (12, 3, 2, 1, 0):
        return 3
    return None


@cache
def high_tuple_of(ranks_desc: tuple[int, ...], flush: bool) -> tuple[int, tuple[int, ...]]:
    """(category, tie-break ranks) of five cards given their ranks and whether all share a suit."""
    counts = Counter(ranks_desc)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [c for _, c in groups]
    ordered = tuple(r for r, _ in groups)
    top = straight_top(ranks_desc) if len(counts) == 5 else None
    if top is not None and flush:
        return (STRAIGHT_FLUSH, (top,))
    if shape == [4, 1]:
        return (QUADS, ordered)
    if shape == [3, 2]:
        return (FULL_HOUSE, ordered)
    if flush:
        return (FLUSH, ranks_desc)
    if top is not None:
        return (STRAIGHT, (top,))
    if shape == [3, 1, 1]:
        return (TRIPS, ordered)
    if shape == [2, 2, 1]:
        return (TWO_PAIR, ordered)
    if shape == [2, 1, 1, 1]:
        return (PAIR, ordered)
    return (HIGH_CARD, ranks_desc)


def high_tuple(five: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    ranks_desc = tuple(sorted((rank(c) for c in five), reverse=True))
    return high_tuple_of(ranks_desc, len({suit(c) for c in five}) == 1)


def _all_high_tuples() -> list[tuple[int, tuple[int, ...]]]:
    seen = set()
    for ranks in itertools.combinations_with_replacement(range(12, -1, -1), 5):
        if len(set(ranks)) == 1:
            continue  # five of a kind does not exist in one deck
        seen.add(high_tuple_of(tuple(sorted(ranks, reverse=True)), False))
        if len(set(ranks)) == 5:
            seen.add(high_tuple_of(tuple(sorted(ranks, reverse=True)), True))
    return sorted(seen)


HIGH_ORDER = _all_high_tuples()
HIGH_STRENGTH = {t: i + 1 for i, t in enumerate(HIGH_ORDER)}  # 1 = worst


def high5(five: tuple[int, ...]) -> int:
    return HIGH_STRENGTH[high_tuple(five)]


# Lows (C5): five different values 1..8 (ace = 1); compare the highest first, lower is better.
LOW_ORDER = sorted((tuple(sorted(s, reverse=True)) for s in itertools.combinations(range(1, 9), 5)),
                   reverse=True)
LOW_STRENGTH = {t: i + 1 for i, t in enumerate(LOW_ORDER)}  # worst (8-7-6-5-4) = 1, wheel = 56


def low_value(card: int) -> int:
    return 1 if rank(card) == 12 else rank(card) + 2


def low5(five: tuple[int, ...]) -> int:
    values = sorted((low_value(c) for c in five), reverse=True)
    if len(set(values)) != 5 or values[0] > 8:
        return 0
    return LOW_STRENGTH[tuple(values)]


def omaha_combos(hole, board):
    """Every legal Omaha five: exactly 2 hole cards and exactly 3 board cards (C3)."""
    for two in itertools.combinations(hole, 2):
        for three in itertools.combinations(board, 3):
            yield two + three


def omaha_high(hole, board) -> int:
    return max(high5(f) for f in omaha_combos(tuple(hole), tuple(board)))


def omaha_low(hole, board) -> int:
    return max(low5(f) for f in omaha_combos(tuple(hole), tuple(board)))


def best_of_any(cards, low: bool = False) -> int:
    score = low5 if low else high5
    return max(score(f) for f in itertools.combinations(tuple(cards), 5))


# Razz (E6): ace-to-five lows of five cards, aces low, straights and flushes ignored, pairs
# against. A hand reads as (its pair pattern, its values grouped by count, highest first);
# the smaller tuple is the better low. Dense strengths: 1 = worst, 6175 = 5-4-3-2-A.
def razz_tuple_of(values: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    counts = Counter(values)
    groups = sorted(counts.items(), key=lambda vc: (vc[1], vc[0]), reverse=True)
    return tuple(c for _, c in groups), tuple(v for v, _ in groups)


RAZZ_ORDER = sorted(
    {razz_tuple_of(v) for v in itertools.combinations_with_replacement(range(1, 14), 5)
     if len(set(v)) > 1},
    reverse=True)
RAZZ_STRENGTH = {t: i + 1 for i, t in enumerate(RAZZ_ORDER)}


def razz5(five: tuple[int, ...]) -> int:
    return RAZZ_STRENGTH[razz_tuple_of(tuple(low_value(c) for c in five))]


def best_razz(cards) -> int:
    """The best razz low over all 21 (or fewer) five-card subsets."""
    return max(razz5(f) for f in itertools.combinations(tuple(cards), 5))
