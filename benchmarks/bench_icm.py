"""ICM speed (issue 25): ``python -m pytest benchmarks/bench_icm.py -s
--benchmark-columns=min,median,mean``.

Targets: ``icm.equities`` exact for 10 players and 5 prizes under 0.1 ms and at least 100x a
plain Python recursion timed in the same run; 20 players (every place paid) under 1 s; the
sampled estimate's time and error beside them. ``-s`` shows the side-by-side lines.

The plain recursion is the textbook one: each remaining player in turn takes the next place
with chance their share of the chips left, and the rest recurse for the places below; it is
checked against the compiled answer before anything is timed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from omaha import icm

STACKS_10 = [4200, 3900, 3100, 2800, 2500, 2000, 1700, 1400, 900, 500]
PRIZES_5 = [500, 300, 200, 120, 80]
STACKS_20 = [random.Random(20).randint(500, 20_000) for _ in range(20)]
PRIZES_20 = [max(1, 4000 // (k + 1)) for k in range(20)]


def python_recursion(stacks: list[int], prizes: list[int]) -> list[float]:
    """Plain Python ICM: one call per partial finishing order (n!/(n-m)! of them)."""
    n = len(stacks)
    equity = [0.0] * n
    places = min(len(prizes), n)

    def place(k: int, left: list[int], chance: float) -> None:
        if k == places:
            return
        total = sum(stacks[i] for i in left)
        for i in left:
            p = chance * stacks[i] / total
            equity[i] += p * prizes[k]
            place(k + 1, [j for j in left if j != i], p)

    place(0, list(range(n)), 1.0)
    return equity


def best_of(fn: Callable[[], Any], repeat: int, number: int) -> float:
    """The best mean time of one call over ``repeat`` runs of ``number`` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def test_python_recursion_agrees():
    got = icm.equities(STACKS_10, PRIZES_5)
    want = python_recursion(STACKS_10, PRIZES_5)
    assert all(abs(a - b) < 1e-9 for a, b in zip(got, want))


def test_exact_10_players_5_prizes(benchmark):
    res = benchmark(icm.equities, STACKS_10, PRIZES_5)
    assert abs(sum(res) - sum(PRIZES_5)) < 1e-9


def test_python_recursion_10_players_5_prizes(benchmark):
    res = benchmark.pedantic(python_recursion, (STACKS_10, PRIZES_5), rounds=5, iterations=1)
    assert abs(sum(res) - sum(PRIZES_5)) < 1e-9


def test_exact_against_python_recursion_side_by_side(benchmark):
    compiled = best_of(lambda: icm.equities(STACKS_10, PRIZES_5), repeat=5, number=2000)
    plain = best_of(lambda: python_recursion(STACKS_10, PRIZES_5), repeat=3, number=2)
    ratio = plain / compiled
    benchmark.extra_info.update(compiled_us=compiled * 1e6, python_ms=plain * 1e3,
                                ratio=ratio)
    print(f"\nICM 10 players / 5 prizes: compiled {compiled * 1e6:.1f} us, plain Python "
          f"recursion {plain * 1e3:.1f} ms, ratio {ratio:,.0f}x")
    benchmark.pedantic(icm.equities, (STACKS_10, PRIZES_5), rounds=1, iterations=1)
    assert ratio >= 100


def test_exact_20_players(benchmark):
    res = benchmark.pedantic(icm.equities, (STACKS_20, PRIZES_20), rounds=5, iterations=1)
    assert abs(sum(res) - sum(PRIZES_20)) < 1e-6


@pytest.mark.parametrize("samples", [10_000, 100_000, 1_000_000])
def test_sampled_20_players(benchmark, samples):
    exact = icm.equities(STACKS_20, PRIZES_20)
    est = benchmark.pedantic(icm.equities, (STACKS_20, PRIZES_20),
                             {"samples": samples, "seed": 1}, rounds=3, iterations=1)
    worst = max(abs(e - x) for e, x in zip(est.equities, exact))
    worst_z = max(abs(e - x) / s for e, x, s in zip(est.equities, exact, est.standard_errors))
    largest_se = max(est.standard_errors)
    benchmark.extra_info.update(max_abs_error=worst, max_z=worst_z, max_se=largest_se)
    print(f"\nICM 20 players sampled x{samples:,}: max |error| {worst:.3f} "
          f"(of {sum(PRIZES_20):,} prize money), largest standard error {largest_se:.3f}, "
          f"worst error / SE {worst_z:.2f}")
    assert worst_z < 5


def test_sampled_1000_players(benchmark):
    rng = random.Random(1000)
    stacks = [rng.randint(1_000, 100_000) for _ in range(1000)]
    prizes = [max(1, 100_000 // (k + 1)) for k in range(150)]
    est = benchmark.pedantic(icm.equities, (stacks, prizes), {"samples": 10_000, "seed": 1},
                             rounds=1, iterations=1)
    assert abs(sum(est.equities) - sum(prizes)) < 1e-6 * sum(prizes)
