"""The stud evaluators (E6) against the brute force over every five-card subset: best five of
seven for high, eight-or-better low of any five, and razz (ace-to-five, pairs count against),
single calls and the batch, on many random seven-card (and five/six-card) hands."""

import itertools
import random

import numpy as np
import pytest

import reference_eval as ref
from omaha.analysis.evaluation import (
    RAZZ_STRENGTHS,
    evaluate_best,
    evaluate_best_batch,
    evaluate_best_low,
    evaluate_best_low_batch,
    evaluate_razz,
    evaluate_razz_batch,
    razz_ranks,
)
from omaha.errors import OmahaError


def random_hands(seed: int, n: int, size: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), size) for _ in range(n)]


@pytest.mark.parametrize("size", [5, 6, 7])
def test_e6_batch_matches_brute_force_over_all_subsets(size):
    hands = random_hands(600 + size, 6000 if size == 7 else 2000, size)
    arr = np.array(hands, np.uint8)
    high, low, razz = (evaluate_best_batch(arr), evaluate_best_low_batch(arr),
                       evaluate_razz_batch(arr))
    for i, cards in enumerate(hands):
        assert high[i] == ref.best_of_any(cards), cards
        assert low[i] == ref.best_of_any(cards, low=True), cards
        assert razz[i] == ref.best_razz(cards), cards


def test_e6_single_calls_match_brute_force_and_the_batch():
    hands = random_hands(77, 3000, 7)
    for cards in hands:
        assert evaluate_best(cards) == ref.best_of_any(cards)
        assert evaluate_best_low(cards) == ref.best_of_any(cards, low=True)
        assert evaluate_razz(cards) == ref.best_razz(cards)


def test_e6_razz_order_of_every_five_card_rank_pattern():
    """All 6,175 distinct razz lows: the compiled strengths order them as the reference."""
    seen = {}
    for values in itertools.combinations_with_replacement(range(13), 5):
        if len(set(values)) == 1:
            continue
        counts: dict[int, int] = {}
        cards = []
        for rank in values:   # suits cycle so a rank's copies are distinct cards
            cards.append(4 * rank + counts.get(rank, 0))
            counts[rank] = counts.get(rank, 0) + 1
        seen[tuple(cards)] = evaluate_razz(cards)
        assert seen[tuple(cards)] == ref.razz5(tuple(cards))
    assert sorted(set(seen.values())) == list(range(1, RAZZ_STRENGTHS + 1))


def test_e6_razz_examples_in_the_rules_words():
    # aces low; a straight or flush does not hurt; no pair beats any pair; a lower pair
    # beats a higher pair; the wheel is the best.
    assert evaluate_razz("As2s3s4s5s") == RAZZ_STRENGTHS
    assert evaluate_razz("Ac2d3h4s6c") > evaluate_razz("2c3d4h5s7c")
    assert evaluate_razz("KcQdJhTs9c") > evaluate_razz("AcAd2h3s4c")
    assert evaluate_razz("2c2d3h4s5c") > evaluate_razz("3c3d2h4s5c")
    assert razz_ranks(evaluate_razz("Kc9d8h7s6cAdAh")) == (9, 8, 7, 6, 1)
    assert razz_ranks(evaluate_razz("2c2d3h4c5s")) == (2, 2, 5, 4, 3)


def test_e6_stud_hilo_low_uses_any_five_of_seven():
    # the low may use different cards from the high: 7-6-4-3-A from a hand that also plays
    # a flush for high, and no low with fewer than five distinct ranks of eight or lower.
    assert evaluate_best_low("Ah3h4h6d7cKhQh") == evaluate_best_low("7c6d4h3hAh")
    assert evaluate_best_low("AhAd2c2s3h3dKc") == 0


@pytest.mark.parametrize("bad", [[[0, 1, 2, 3]], [[0, 1, 2, 3, 4, 5, 6, 7]], [[0, 0, 1, 2, 3]],
                                 [[0, 1, 2, 3, 52]]])
def test_batch_refuses_bad_rows(bad):
    for fn in (evaluate_best_batch, evaluate_best_low_batch, evaluate_razz_batch):
        with pytest.raises(OmahaError):
            fn(bad)


def test_single_call_refuses_duplicates_and_counts():
    with pytest.raises(OmahaError):
        evaluate_razz("AcAc2d3h4s")
    with pytest.raises(OmahaError):
        evaluate_razz("Ac2d3h4s")


@pytest.mark.parametrize("size", [6, 7])
def test_e6_razz_of_every_rank_multiset_matches_brute_force(size):
    """Razz reads ranks only, so every multiset of ``size`` ranks (suits cycled) covers every
    hand: the compiled best low (five distinct ranks or more: their five lowest, read
    directly; else every five tried) equals the reference's best of all fives, single and
    batch."""
    hands = []
    for values in itertools.combinations_with_replacement(range(13), size):
        counts: dict[int, int] = {}
        cards = []
        for rank in values:
            cards.append(4 * rank + counts.get(rank, 0))
            counts[rank] = counts.get(rank, 0) + 1
        if max(counts.values()) <= 4:
            hands.append(cards)
    razz = evaluate_razz_batch(np.array(hands, np.uint8))
    for i, cards in enumerate(hands):
        best = ref.best_razz(cards)
        assert razz[i] == best and evaluate_razz(cards) == best, cards
