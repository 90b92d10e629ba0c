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


def best_rates(candidates: dict[str, tuple[Callable[[], object], int]],
               repeat: int = 7) -> dict[str, float]:
    """Hands per second of each candidate, best of ``repeat`` rounds.

    Rounds interleave the candidates, so a machine that speeds up or slows down during the
    run (shared virtual machines do) affects all of them alike and the ratios hold.
    """
    best = {name: float("inf") for name in candidates}
    for fn, _ in candidates.values():
        fn()  # warm up: tables, caches, branch predictors
    for _ in range(repeat):
        for name, (fn, _) in candidates.items():
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: hands / best[name] for name, (_, hands) in candidates.items()}


def import_ms(repeat: int = 7) -> float:
    code = "import time; t = time.perf_counter(); import omaha; print(time.perf_counter() - t)"
    runs = [float(subprocess.check_output([sys.executable, "-c", code])) for _ in range(repeat)]
    return 1000 * statistics.median(runs)


def main() -> None:
    holes, boards = random_deals(100_000)  # 600,000 hands, a fresh board per 6 players
    n = len(holes)
    tables, table_boards = holes.reshape(-1, 6, 4), boards[::6].copy()
    hole_lists, board_lists = holes[:100_000].tolist(), boards[:100_000].tolist()

    def omaha_single() -> None:
        evaluate = omaha.evaluate_high
        for hole, board in zip(hole_lists, board_lists):
            evaluate(hole, board)

    candidates: dict[str, tuple[Callable[[], object], int]] = {
        "omaha.evaluate_hilo_batch, tables form: (B, 6, 4) holes, (B, 5) boards":
            (lambda: omaha.evaluate_hilo_batch(tables, table_boards), n),
        "omaha.evaluate_hilo_batch, rows form: (N, 4) holes, (N, 5) boards":
            (lambda: omaha.evaluate_hilo_batch(holes, boards), n),
        "omaha.evaluate_high_batch (rows form)":
            (lambda: omaha.evaluate_high_batch(holes, boards), n),
        "omaha.evaluate_low_batch (rows form)":
            (lambda: omaha.evaluate_low_batch(holes, boards), n),
        "omaha.evaluate_high, one call per hand": (omaha_single, len(hole_lists)),
    }
    try:
        from phevaluator._pheval import evaluate_omaha_cards
    except ImportError:
        evaluate_omaha_cards = None
    if evaluate_omaha_cards is not None:
        ph_rows = phevaluator_rows(holes[:100_000], boards[:100_000])

        def phevaluator_loop() -> None:
            for row in ph_rows:
                evaluate_omaha_cards(*row)

        candidates["phevaluator evaluate_omaha_cards, one call per hand (high only)"] = (
            phevaluator_loop, len(ph_rows))
    rows = best_rates(candidates)
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

        rows.update(best_rates({
            "PokerKit OmahaHoldemHand (high)": (pokerkit_high, len(pk)),
            "PokerKit OmahaEightOrBetterLowHand (low)": (pokerkit_low, len(pk)),
        }, 2))

    anchor_name = "phevaluator evaluate_omaha_cards, one call per hand (high only)"
    anchor = rows.get(anchor_name)
    print(f"Python {sys.version.split()[0]}, omaha-poker {omaha.__version__}, {n:,} random hands\n")
    print("| evaluator | M hands/s | vs phevaluator loop |")
    print("|---|---:|---:|")
    for name, rate in rows.items():
        ratio = (f"{rate / anchor:.1f}x" if rate > anchor / 10 else f"1/{anchor / rate:,.0f}") if anchor else "n/a"
        print(f"| {name} | {rate / 1e6:.4g} | {ratio} |")
    print(f"\nimport omaha: {import_ms():.1f} ms (median of 7 fresh interpreters)")


if __name__ == "__main__":
    main()
