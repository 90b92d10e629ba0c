"""Exhaustive checks of the five-card evaluator (rules C4, C5)."""

import itertools

import numpy as np
import pytest

import omaha
import reference_eval as ref
from omahacore.evaluator import high_key, low_ranks

# Standard counts of the 2,598,960 five-card hands by category (C4), worst first.
CATEGORY_HANDS = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]
CATEGORY_CLASSES = [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]


@pytest.fixture(scope="module")
def all_fives() -> np.ndarray:
    return np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)


def test_c4_all_2598960_hands_category_counts_and_7462_values(all_fives):
    strengths = omaha.evaluate_five_batch(all_fives)
    assert len(strengths) == 2_598_960
    values, counts = np.unique(strengths, return_counts=True)
    assert len(values) == 7462
    assert values.min() == 1 and values.max() == 7462
    hands = [0] * 9
    classes = [0] * 9
    for v, c in zip(values.tolist(), counts.tolist()):
        cat = high_key(v)[0]
        hands[cat] += c
        classes[cat] += 1
    assert hands == CATEGORY_HANDS
    assert classes == CATEGORY_CLASSES


def test_c4_every_strength_class_matches_reference():
    """One representative of each of the 7,462 classes gets exactly the reference strength."""
    checked = 0
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if len(set(ranks)) == 1:
            continue
        # Give repeated ranks different suits, and make sure five distinct ranks are not suited.
        used = SuitDealer()
        cards = [4 * r + used.next(r) for r in ranks]
        if len(set(ranks)) == 5:
            cards[0] = 4 * ranks[0] + 1  # offsuit
            suited = [4 * r for r in ranks]
            assert omaha.evaluate_five(suited) == ref.high5(tuple(suited))
            checked += 1
        assert omaha.evaluate_five(cards) == ref.high5(tuple(cards))
        checked += 1
    assert checked == 7462


class SuitDealer:
    def __init__(self):
        self.n = {}

    def next(self, r):
        self.n[r] = self.n.get(r, -1) + 1
        return self.n[r]


def test_c4_high_key_round_trip_is_sorted():
    keys = [high_key(s) for s in range(1, 7463)]
    assert [ref.HIGH_ORDER[s - 1] for s in range(1, 7463)] == [
        (cat, tuple(ranks)) for cat, ranks in keys
    ]


def test_c5_56_distinct_lows_over_every_low_five():
    low_cards = [c for c in range(52) if c // 4 <= 6 or c // 4 == 12]
    assert len(low_cards) == 32
    seen = set()
    for five in itertools.combinations(low_cards, 5):
        v = omaha.evaluate_five_low(five)
        assert v == ref.low5(five)
        seen.add(v)
    seen.discard(0)
    assert seen == set(range(1, 57))


def test_c5_low_ranks_are_best_first():
    assert low_ranks(56) == (5, 4, 3, 2, 1)
    assert low_ranks(1) == (8, 7, 6, 5, 4)
    for s in range(1, 57):
        assert ref.LOW_STRENGTH[low_ranks(s)] == s
