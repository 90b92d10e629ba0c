"""Equity side by side in one run, with ratios: the README's equity rows.

    python -m pip install ".[bench]"
    python benchmarks/compare_equity.py [--quick]     # prints a Markdown table

One thread everywhere. Rounds interleave the candidates of a row and keep each one's best,
so the machine's drift affects both sides alike. poker-equity and PokerKit are optional.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import omaha

HU = ["AsAh2d3c", "KsKhQdJc"]
THREE = ["AsAh2d3c", "KsKhQdJc", "9h8h7s6s"]


def best_time(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Best seconds per call of each candidate. A round times enough calls of each (about
    20 ms' worth, calibrated once) that microsecond calls are not lost in the timer's own
    cost; rounds interleave the candidates."""
    best = {name: float("inf") for name in fns}
    number = {}
    for name, fn in fns.items():
        start = time.perf_counter()
        fn()
        number[name] = max(1, min(10_000, int(0.02 / max(time.perf_counter() - start, 1e-7))))
    for _ in range(repeat):
        for name, fn in fns.items():
            calls = range(number[name])
            start = time.perf_counter()
            for _ in calls:
                fn()
            best[name] = min(best[name], (time.perf_counter() - start) / number[name])
    return best


def row(label: str, ours: float, theirs: float | None, unit: str) -> str:
    ratio = f"{theirs / ours:,.0f}x" if theirs else "n/a"
    other = _ms(theirs) if theirs else "not installed"
    return f"| {label} | {_ms(ours)} | {other} | {ratio} | {unit} |"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms" if seconds >= 0.001 else f"{seconds * 1e6:,.1f} us"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    args = parser.parse_args()
    repeat = 2 if args.quick else 5
    try:
        import poker_equity as pe
    except ImportError:
        pe = None
    lines = ["| spot (one thread) | omaha | poker-equity | ratio | work |", "|---|---:|---:|---:|---|"]

    def exact_pair(label: str, hands: list[str], board: str, key: str, variant: omaha.Variant,
                   unit: str) -> None:
        fns: dict[str, Callable[[], object]] = {
            "ours": lambda: omaha.equity(hands, board=board or None, variant=variant, exact=True)}
        if pe is not None:
            fns["pe"] = lambda: pe.exact_from_text(key, hands, board=board)
        t = best_time(fns, repeat)
        lines.append(row(label, t["ours"], t.get("pe"), unit))

    exact_pair("exact heads-up preflop hi/lo", HU, "", "omaha_hi_lo", omaha.OMAHA_HILO,
               "1,086,008 boards")
    exact_pair("exact 3-way preflop hi/lo", THREE, "", "omaha_hi_lo", omaha.OMAHA_HILO,
               "658,008 boards")
    exact_pair("exact heads-up preflop high", HU, "", "omaha", omaha.OMAHA_HIGH,
               "1,086,008 boards")
    exact_pair("exact 3-way flop hi/lo", THREE, "Kd7c4h", "omaha_hi_lo", omaha.OMAHA_HILO,
               "666 boards")
    exact_pair("exact 3-way turn hi/lo", THREE, "Kd7c4h2c", "omaha_hi_lo", omaha.OMAHA_HILO,
               "36 boards")
    exact_pair("exact heads-up preflop Hold'em", ["AsKh", "QdQc"], "", "holdem",
               omaha.HOLDEM, "1,712,304 boards")

    def sampled(label: str, hands: list[str], n_ours: int, n_pe: int) -> None:
        fns: dict[str, Callable[[], object]] = {
            "ours": lambda: omaha.equity(hands, samples=n_ours, seed=1, variant=omaha.OMAHA_HILO)}
        if pe is not None:
            fns["pe"] = lambda: pe.chunk_from_text("omaha_hi_lo", hands, samples=n_pe, seed=1,
                                                   threads=1)
        t = best_time(fns, repeat)
        ours = t["ours"] / n_ours
        theirs = t["pe"] / n_pe if "pe" in t else None
        lines.append(f"| {label} | {1 / ours / 1e6:,.1f} M deals/s | "
                     + (f"{1 / theirs / 1e6:,.2f} M deals/s | {theirs / ours:,.0f}x |"
                        if theirs else "not installed | n/a |") + " Monte Carlo |")

    sampled("Monte Carlo heads-up hi/lo, two hands", HU, 2_000_000, 200_000)
    sampled("Monte Carlo hi/lo, a hand vs any hand (****)", [HU[0], "****"], 2_000_000, 200_000)

    # range vs range: top 10% vs top 10% to a standard error of 0.001
    top = omaha.Range("top 10%", variant=omaha.OMAHA_HILO)
    start = time.perf_counter()
    res = omaha.equity([top, top], samples=200_000, seed=1, variant=omaha.OMAHA_HILO)
    first = time.perf_counter() - start
    t = best_time({"ours": lambda: omaha.equity([top, top], samples=200_000, seed=1,
                                                variant=omaha.OMAHA_HILO)}, repeat)
    lines.append(f"| range vs range: top 10% vs top 10% hi/lo, 200,000 deals, standard error "
                 f"{res.std_error[0]:.4f} | {t['ours'] * 1000:,.0f} ms (first call "
                 f"{first * 1000:,.0f} ms) | | | {len(top):,} hands each |")

    try:
        from pokerkit import (
            Card,
            Deck,
            OmahaEightOrBetterLowHand,
            OmahaHoldemHand,
            calculate_equities,
        )
    except ImportError:
        pass
    else:
        n = 2_000
        ranges = [[tuple(Card.parse(h))] for h in HU]
        start = time.perf_counter()
        calculate_equities(ranges, (), 4, 5, Deck.STANDARD,
                           (OmahaHoldemHand, OmahaEightOrBetterLowHand), sample_count=n)
        pk = (time.perf_counter() - start) / n
        lines.append(f"| PokerKit `calculate_equities` heads-up hi/lo | | "
                     f"{1 / pk:,.0f} deals/s | | Monte Carlo |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
