"""Equity benchmarks (pytest-benchmark): ``python -m pytest benchmarks/bench_equity.py``.

Side-by-side ratios against poker-equity are in ``benchmarks/compare_equity.py``.
"""

from __future__ import annotations

import pytest

import omaha

HU = ["AsAh2d3c", "KsKhQdJc"]
THREE = ["AsAh2d3c", "KsKhQdJc", "9h8h7s6s"]


def test_exact_heads_up_preflop_hilo(benchmark):
    res = benchmark(omaha.equity, HU, variant=omaha.OMAHA_HILO, exact=True)
    assert res.deals == 1_086_008


def test_exact_three_way_preflop_hilo(benchmark):
    res = benchmark(omaha.equity, THREE, variant=omaha.OMAHA_HILO, exact=True)
    assert res.deals == 658_008


def test_exact_three_way_flop_hilo(benchmark):
    res = benchmark(omaha.equity, THREE, board="Kd7c4h", variant=omaha.OMAHA_HILO)
    assert res.exact


def test_monte_carlo_heads_up_hilo(benchmark):
    res = benchmark(omaha.equity, HU, samples=1_000_000, seed=1, variant=omaha.OMAHA_HILO)
    assert res.deals == 1_000_000


def test_monte_carlo_hand_vs_any_hand(benchmark):
    res = benchmark(omaha.equity, [HU[0], "****"], samples=1_000_000, seed=1,
                    variant=omaha.OMAHA_HILO)
    assert res.deals == 1_000_000


def test_range_vs_range_top10_hilo(benchmark):
    top = omaha.Range("top 10%", variant=omaha.OMAHA_HILO)
    res = benchmark(omaha.equity, [top, top], samples=200_000, seed=1, variant=omaha.OMAHA_HILO)
    assert res.std_error[0] < 0.001


@pytest.mark.parametrize("key", ["omaha_hi_lo"])
def test_poker_equity_exact_heads_up_preflop_hilo(benchmark, key):
    pe = pytest.importorskip("poker_equity")
    res = benchmark.pedantic(pe.exact_from_text, args=(key, HU), rounds=2, iterations=1)
    assert res["samples"] == 1_086_008
