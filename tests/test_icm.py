"""ICM (issue 25): ``omaha.icm`` against a slow, obviously-correct brute force.

The reference enumerates every finishing order of the players with chips and weighs it by
its Harville probability (each place goes to a player with chance their share of the chips
left); zero stacks take the last places and share their prizes, the reading documented in
``omaha.icm``.
"""

from __future__ import annotations

import itertools
import math
import random
import threading
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omaha import icm
from omaha.errors import IcmError, IcmTypeError, OmahaError
from omahacore import icm as core


def reference(stacks: list[int], prizes: list[int]) -> list[float]:
    n = len(stacks)
    prize = list(prizes[:n]) + [0] * max(0, n - len(prizes))
    live = [i for i in range(n) if stacks[i] > 0]
    zeros = [i for i in range(n) if stacks[i] == 0]
    equity = [0.0] * n
    for order in itertools.permutations(live):
        chance, left = 1.0, sum(stacks[i] for i in live)
        for i in order:
            chance *= stacks[i] / left
            left -= stacks[i]
        for place, i in enumerate(order):
            equity[i] += chance * prize[place]
    for i in zeros:
        equity[i] = sum(prize[len(live):]) / len(zeros)
    return equity


def close(got, want, money) -> bool:
    return all(abs(g - w) <= 1e-9 * max(1.0, money) for g, w in zip(got, want, strict=True))


fields = st.integers(1, 7).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 1000), min_size=n, max_size=n).filter(any),
    st.lists(st.integers(0, 1000), min_size=1, max_size=9)))


# ---------------------------------------------------------------- exact, against the reference

def test_the_worked_example_by_hand():
    got = icm.equities([50, 30, 20], [50, 30, 20])
    want = [Fraction(1075, 28), Fraction(131, 4), Fraction(202, 7)]
    assert all(abs(g - float(w)) < 1e-12 for g, w in zip(got, want))
    assert math.isclose(sum(got), 100)
    assert icm.deal([50, 30, 20], [50, 30, 20]) == (38, 33, 29)


@given(fields)
@settings(max_examples=300)
def test_exact_matches_brute_force(field):
    stacks, prizes = field
    got = icm.equities(stacks, prizes)
    assert isinstance(got, tuple) and all(type(e) is float for e in got)
    assert close(got, reference(stacks, prizes), sum(prizes))


def test_exact_matches_brute_force_seeded():
    rng = random.Random(25)
    for _ in range(400):
        n = rng.randint(1, 7)
        stacks = [rng.choice([0, rng.randint(1, 10), rng.randint(1, 10**6)]) for _ in range(n)]
        if not any(stacks):
            stacks[rng.randrange(n)] = 1
        prizes = [rng.randint(0, 10**6) for _ in range(rng.randint(1, 9))]
        money = sum(prizes[:n])
        got = icm.equities(stacks, prizes)
        assert close(got, reference(stacks, prizes), money)
        assert math.isclose(sum(got), money, rel_tol=1e-12, abs_tol=1e-9)


@given(fields, st.randoms(use_true_random=False))
@settings(max_examples=100)
def test_a_permuted_field_permutes_the_equities(field, rnd):
    stacks, prizes = field
    perm = list(range(len(stacks)))
    rnd.shuffle(perm)
    base = icm.equities(stacks, prizes)
    moved = icm.equities([stacks[i] for i in perm], prizes)
    assert close(moved, [base[i] for i in perm], sum(prizes))


@given(fields)
@settings(max_examples=100)
def test_sums_and_equal_stacks(field):
    stacks, prizes = field
    got = icm.equities(stacks, prizes)
    money = sum(prizes[:len(stacks)])
    assert math.isclose(sum(got), money, rel_tol=1e-12, abs_tol=1e-9)
    for i, j in itertools.combinations(range(len(stacks)), 2):
        if stacks[i] == stacks[j]:
            assert got[i] == got[j]     # exactly, not just close
        if stacks[i] > stacks[j] and list(prizes) == sorted(prizes, reverse=True):
            assert got[i] >= got[j] - 1e-9 * max(1, money)


def test_equal_stacks_split_evenly_to_the_last_bit():
    got = icm.equities([7] * 13, [50, 30, 20, 10, 5])
    assert len(set(got)) == 1 and math.isclose(got[0] * 13, 115)


def test_zero_stacks_share_the_last_places():
    assert icm.equities([10, 0, 0], [50, 30, 20]) == (50.0, 25.0, 25.0)
    assert icm.equities([0, 10, 0], [50, 30]) == (15.0, 50.0, 15.0)
    got = icm.equities([3, 0, 1], [10, 6, 2])
    assert got[1] == 2.0 and close(got, reference([3, 0, 1], [10, 6, 2]), 18)
    # zero stacks do not count towards the exact limit
    assert len(icm.equities([5] * 22 + [0] * 30, [1] * 60)) == 52


def test_more_prizes_than_players_are_ignored():
    assert icm.equities([3, 1], [6, 2, 100, 100]) == icm.equities([3, 1], [6, 2])
    assert icm.equities([1], [9, 5]) == (9.0,)
    assert icm.deal([1, 1], [5, 4, 1000]) == (5, 4)


def test_prizes_need_not_decrease():
    assert close(icm.equities([2, 1, 1], [0, 10]), reference([2, 1, 1], [0, 10]), 10)
    assert icm.equities([4, 6], [0, 0]) == (0.0, 0.0)


def test_twenty_and_twenty_two_players():
    rng = random.Random(20)
    stacks = [rng.randint(1, 10_000) for _ in range(20)]
    prizes = list(range(100, 0, -5))
    got = icm.equities(stacks, prizes)
    assert math.isclose(sum(got), sum(prizes), rel_tol=1e-12)
    est = icm.equities(stacks, prizes, samples=40_000, seed=3)
    assert all(abs(a - b) <= 4.5 * s for a, b, s in zip(est.equities, got, est.standard_errors))
    assert math.isclose(sum(icm.equities([1] * 22, [1] * 22)), 22)


def test_above_the_exact_limit_points_to_samples():
    assert icm.EXACT_MAX_PLAYERS == 22
    with pytest.raises(IcmError, match=r"stacks: 23 players .* samples="):
        icm.equities([1] * 23, [1])
    est = icm.equities([1] * 23, [1], samples=1000, seed=1)
    assert math.isclose(sum(est.equities), 1)


def test_inputs_in_every_accepted_form():
    class Chips:
        def __init__(self, n):
            self.n = n

        def __index__(self):
            return self.n

    want = icm.equities([50, 30, 20], [50, 30, 20])
    assert icm.equities(np.array([50, 30, 20]), np.array([50, 30, 20], dtype=np.uint16)) == want
    assert icm.equities((Chips(50), np.int64(30), 20), iter([50, 30, 20])) == want
    assert icm.deal(np.array([50, 30, 20]), [50, 30, 20]) == (38, 33, 29)


# ---------------------------------------------------------------- sampled

@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1])
def test_sampled_within_four_standard_errors(seed):
    rng = random.Random(seed % 1000)
    for _ in range(6):
        n = rng.randint(2, 7)
        stacks = [rng.randint(1, 500) for _ in range(n)]
        prizes = sorted((rng.randint(1, 100) for _ in range(rng.randint(1, n))), reverse=True)
        exact = reference(stacks, prizes)
        est = icm.equities(stacks, prizes, samples=20_000, seed=seed)
        assert isinstance(est, icm.IcmEstimate) and est.samples == 20_000 and est.seed == seed
        assert est.prize_money == sum(prizes[:n])
        assert math.isclose(sum(est.equities), sum(prizes[:n]), rel_tol=1e-9)
        for e, x, s in zip(est.equities, exact, est.standard_errors, strict=True):
            assert s > 0 and abs(e - x) <= 4 * s


def test_sampling_is_exact_in_integers_for_huge_stacks():
    # 1-chip players beside 2**61-chip ones: a float tree would lose them; integers do not
    stacks, prizes = [2**62 - 1, 1, 1, 2**61], [5, 4, 3, 2]
    exact = icm.equities(stacks, prizes)
    assert close(exact, [14 / 3, 2.5, 2.5, 13 / 3], 14)
    est = icm.equities(stacks, prizes, samples=40_000, seed=2)
    assert all(abs(e - x) <= 4 * s for e, x, s in zip(est.equities, exact,
                                                      est.standard_errors))


def test_standard_errors_shrink_with_samples():
    stacks, prizes = [50, 30, 20, 10, 5], [50, 30, 20]
    small = icm.equities(stacks, prizes, samples=10_000, seed=4)
    large = icm.equities(stacks, prizes, samples=160_000, seed=4)
    for a, b in zip(small.standard_errors, large.standard_errors):
        assert 0.2 < b / a < 0.3     # 1/sqrt(16) = 0.25


def test_same_seed_same_result():
    a = icm.equities([5, 4, 3, 2, 1], [10, 5], samples=5000, seed=99)
    b = icm.equities([5, 4, 3, 2, 1], [10, 5], samples=5000, seed=99)
    c = icm.equities([5, 4, 3, 2, 1], [10, 5], samples=5000, seed=100)
    assert a == b and a.equities != c.equities
    d = icm.equities([5, 4, 3, 2, 1], [10, 5], samples=5000)   # the OS seeds it
    assert icm.equities([5, 4, 3, 2, 1], [10, 5], samples=5000, seed=d.seed) == d


def test_sampled_zero_stacks_are_exact_and_large_fields_run():
    est = icm.equities([10, 0, 5, 0], [8, 4, 2, 2], samples=1000, seed=1)
    assert est.equities[1] == est.equities[3] == 2.0
    assert est.standard_errors[1] == est.standard_errors[3] == 0.0
    rng = random.Random(7)
    stacks = [rng.randint(0, 10**6) for _ in range(5000)]
    prizes = [1000 - i for i in range(700)]
    est = icm.equities(stacks, prizes, samples=200, seed=5)
    assert len(est.equities) == 5000 and math.isclose(sum(est.equities), sum(prizes))


def test_sampling_in_threads_gives_the_serial_answers():
    args = ([9, 7, 5, 3, 1, 1, 2], [40, 20, 10])
    want = [icm.equities(*args, samples=50_000, seed=s) for s in range(4)]
    got: list[object] = [None] * 4

    def run(s: int) -> None:
        got[s] = icm.equities(*args, samples=50_000, seed=s)

    threads = [threading.Thread(target=run, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == want


# ---------------------------------------------------------------- deal

@given(fields)
@settings(max_examples=200)
def test_deal_sums_exactly_and_stays_within_a_chip(field):
    stacks, prizes = field
    shares = icm.deal(stacks, prizes)
    exact = icm.equities(stacks, prizes)
    assert all(type(x) is int and x >= 0 for x in shares)
    assert sum(shares) == sum(prizes[:len(stacks)])
    assert all(abs(x - e) < 1 + 1e-9 for x, e in zip(shares, exact))


def test_deal_breaks_ties_by_fraction_then_index():
    assert icm.deal([5, 5, 5], [10]) == (4, 3, 3)
    assert icm.deal([1, 2, 1], [3, 1]) == icm.deal([1, 2, 1], [3, 1])
    shares = icm.deal([1, 3, 1], [11])   # 2.2, 6.6, 2.2: the 0.6 first, then player 0
    assert shares == (2, 7, 2)
    assert icm.deal([1, 1, 1, 1], [2]) == (1, 1, 0, 0)


# ---------------------------------------------------------------- bad input

class BadIndex:
    def __index__(self):
        raise RuntimeError("no")


BAD = [
    # (stacks, prizes, keywords, field named, wrong type?)
    ([], [1], {}, "stacks", False),
    ([1], [], {}, "prizes", False),
    ([0, 0], [1], {}, "stacks", False),
    ([10, -1], [1], {}, r"stacks\[1\]", False),
    ([2**63], [1], {}, r"stacks\[0\]", False),
    ([-(2**70)], [1], {}, r"stacks\[0\]", False),
    ([2**62, 2**62], [1], {}, "stacks", False),
    ([10, 1.5], [1], {}, r"stacks\[1\]", True),
    ([10, float("nan")], [1], {}, r"stacks\[1\]", True),
    ([10, float("inf")], [1], {}, r"stacks\[1\]", True),
    ([True, 10], [1], {}, r"stacks\[0\]", True),
    ([np.bool_(True), 10], [1], {}, r"stacks\[0\]", True),
    ([10, "5"], [1], {}, r"stacks\[1\]", True),
    ([10, None], [1], {}, r"stacks\[1\]", True),
    ([10, BadIndex()], [1], {}, r"stacks\[1\]", True),
    ("abc", [1], {}, "stacks", True),
    (None, [1], {}, "stacks", True),
    (5, [1], {}, "stacks", True),
    ({1, 2}, [1], {}, "stacks", True),
    (itertools.repeat(1), [1], {}, "stacks", False),
    ([1, 2], [10, -5], {}, r"prizes\[1\]", False),
    ([1, 2], [1.0], {}, r"prizes\[0\]", True),
    ([1, 2], [False], {}, r"prizes\[0\]", True),
    ([1, 2], [2**63], {}, r"prizes\[0\]", False),
    ([1, 2], [2**62, 2**62], {}, "prizes", False),
    ([1, 2], 7, {}, "prizes", True),
    ([1, 2], [1], {"samples": True}, "samples", True),
    ([1, 2], [1], {"samples": 1.5}, "samples", True),
    ([1, 2], [1], {"samples": "9"}, "samples", True),
    ([1, 2], [1], {"samples": 1}, "samples", False),
    ([1, 2], [1], {"samples": 0}, "samples", False),
    ([1, 2], [1], {"samples": -5}, "samples", False),
    ([1, 2], [1], {"samples": 10**12 + 1}, "samples", False),
    ([1, 2], [1], {"samples": 10, "seed": -1}, "seed", False),
    ([1, 2], [1], {"samples": 10, "seed": 2**64}, "seed", False),
    ([1, 2], [1], {"samples": 10, "seed": 1.5}, "seed", True),
    ([1, 2], [1], {"samples": 10, "seed": True}, "seed", True),
    ([1, 2], [1], {"seed": 3}, "seed", False),
    ([1] * 23, [1], {}, "samples=", False),
]


@pytest.mark.parametrize(("stacks", "prizes", "kw", "field", "wrong_type"), BAD)
def test_bad_input_raises_a_typed_error_naming_the_field(stacks, prizes, kw, field,
                                                          wrong_type):
    with pytest.raises(IcmError, match=field) as info:
        icm.equities(stacks, prizes, **kw)
    assert isinstance(info.value, OmahaError) and isinstance(info.value, ValueError)
    assert isinstance(info.value, IcmTypeError) == wrong_type
    assert isinstance(info.value, TypeError) == wrong_type
    if not kw:
        with pytest.raises(IcmError, match=field):
            icm.deal(stacks, prizes)


def test_the_compiled_entry_points_check_their_input_too():
    with pytest.raises(IcmTypeError, match="samples"):
        core.sample([1], [1], None, 1)
    with pytest.raises(IcmTypeError, match="seed"):
        core.sample([1], [1], 10, None)
    with pytest.raises(IcmError, match="all|every"):
        core.exact([0], [1])
