"""Side-by-side evaluator throughput in one run, with ratios: the README's performance table.

    python -m pip install ".[bench]"
    python benchmarks/compare.py            # prints a Markdown table

Everything is single-threaded. phevaluator and PokerKit are optional: missing ones are skipped.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from deals import phevaluator_rows, random_deals

import omaha


def best_rate(fn: Callable[[], object], hands: int, repeat: int = 7) -> float:
    """Hands per second of the best of ``repeat`` runs (the least disturbed one)."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return hands / min(times)


def import_ms(repeat: int = 7) -> float:
    code = "import time; t = time.perf_counter(); import omaha; print(time.perf_counter() - t)"
    runs = [float(subprocess.check_output([sys.executable, "-c", code])) for _ in range(repeat)]
    return 1000 * statistics.median(runs)


def main() -> None:
    holes, boards = random_deals(100_000)  # 600,000 hands, a fresh board per 6 players
    n = len(holes)
    rows: dict[str, float] = {}
    tables, table_boards = holes.reshape(-1, 6, 4), boards[::6].copy()
    rows["omaha.evaluate_hilo_batch, tables form: (B, 6, 4) holes, (B, 5) boards"] = best_rate(
        lambda: omaha.evaluate_hilo_batch(tables, table_boards), n)
    rows["omaha.evaluate_hilo_batch, rows form: (N, 4) holes, (N, 5) boards"] = best_rate(
        lambda: omaha.evaluate_hilo_batch(holes, boards), n)
    rows["omaha.evaluate_high_batch (rows form)"] = best_rate(
        lambda: omaha.evaluate_high_batch(holes, boards), n)
    rows["omaha.evaluate_low_batch (rows form)"] = best_rate(
        lambda: omaha.evaluate_low_batch(holes, boards), n)

    hole_lists, board_lists = holes[:200_000].tolist(), boards[:200_000].tolist()

    def omaha_single() -> None:
        evaluate = omaha.evaluate_high
        for hole, board in zip(hole_lists, board_lists):
            evaluate(hole, board)

    rows["omaha.evaluate_high, one call per hand"] = best_rate(omaha_single, len(hole_lists), 3)
    try:
        from phevaluator._pheval import evaluate_omaha_cards
    except ImportError:
        evaluate_omaha_cards = None
    if evaluate_omaha_cards is not None:
        ph_rows = phevaluator_rows(holes[:200_000], boards[:200_000])

        def phevaluator_loop() -> None:
            for row in ph_rows:
                evaluate_omaha_cards(*row)

        rows["phevaluator evaluate_omaha_cards, one call per hand (high only)"] = best_rate(
            phevaluator_loop, len(ph_rows), 3)
    try:
        import pokerkit
    except ImportError:
        pokerkit = None
    if pokerkit is not None:
        pk = [(list(pokerkit.Card.parse(omaha.format_cards(h))),
               list(pokerkit.Card.parse(omaha.format_cards(b))))
              for h, b in zip(hole_lists[:600], board_lists[:600])]

        def pokerkit_high() -> None:
            for hole, board in pk:
                pokerkit.OmahaHoldemHand.from_game(hole, board)

        def pokerkit_low() -> None:
            for hole, board in pk:
                try:
                    pokerkit.OmahaEightOrBetterLowHand.from_game(hole, board)
                except ValueError:
                    pass  # PokerKit raises when there is no low

        rows["PokerKit OmahaHoldemHand (high)"] = best_rate(pokerkit_high, len(pk), 2)
        rows["PokerKit OmahaEightOrBetterLowHand (low)"] = best_rate(pokerkit_low, len(pk), 2)

    anchor_name = "phevaluator evaluate_omaha_cards, one call per hand (high only)"
    anchor = rows.get(anchor_name)
    print(f"Python {sys.version.split()[0]}, omaha-poker {omaha.__version__}, {n:,} random hands\n")
    print("| evaluator | M hands/s | vs phevaluator loop |")
    print("|---|---:|---:|")
    for name, rate in rows.items():
        ratio = f"{rate / anchor:.1f}x" if anchor else "n/a"
        print(f"| {name} | {rate / 1e6:.3f} | {ratio} |")
    print(f"\nimport omaha: {import_ms():.1f} ms (median of 7 fresh interpreters)")


if __name__ == "__main__":
    main()
