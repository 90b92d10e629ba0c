"""pytest-benchmark timings of the evaluator beside phevaluator and PokerKit (issue 2).

Run: ``python -m pip install ".[bench]" && python -m pytest benchmarks``. The side-by-side
table with ratios for the README comes from ``python benchmarks/compare.py``.
"""

import pytest
from deals import phevaluator_rows, random_deals

import omaha

HOLES, BOARDS = random_deals(10_000)  # 60,000 hands
N = len(HOLES)


@pytest.mark.benchmark(group="omaha batch, 60k hands")
def test_omaha_hilo_batch(benchmark):
    high, low = benchmark(omaha.evaluate_hilo_batch, HOLES, BOARDS)
    assert len(high) == len(low) == N


@pytest.mark.benchmark(group="omaha batch, 60k hands")
def test_omaha_hilo_batch_tables_form(benchmark):
    tables, boards = HOLES.reshape(-1, 6, 4), BOARDS[::6].copy()
    high, low = benchmark(omaha.evaluate_hilo_batch, tables, boards)
    assert high.shape == low.shape == (N // 6, 6)


@pytest.mark.benchmark(group="omaha batch, 60k hands")
def test_omaha_high_batch(benchmark):
    assert len(benchmark(omaha.evaluate_high_batch, HOLES, BOARDS)) == N


@pytest.mark.benchmark(group="omaha batch, 60k hands")
def test_phevaluator_loop_high(benchmark):
    pheval = pytest.importorskip("phevaluator._pheval")
    rows = phevaluator_rows(HOLES, BOARDS)
    evaluate = pheval.evaluate_omaha_cards

    def loop():
        for row in rows:
            evaluate(*row)

    benchmark(loop)


@pytest.mark.benchmark(group="single call")
def test_omaha_single_evaluate_high(benchmark):
    hole, board = HOLES[0].tolist(), BOARDS[0].tolist()
    assert benchmark(omaha.evaluate_high, hole, board) >= 1


@pytest.mark.benchmark(group="single call")
def test_phevaluator_single_call(benchmark):
    pheval = pytest.importorskip("phevaluator._pheval")
    row = phevaluator_rows(HOLES[:1], BOARDS[:1])[0]
    benchmark(pheval.evaluate_omaha_cards, *row)


@pytest.mark.benchmark(group="single call")
def test_pokerkit_single_high_and_low(benchmark):
    pokerkit = pytest.importorskip("pokerkit")
    hole = list(pokerkit.Card.parse(omaha.format_cards(HOLES[0].tolist())))
    board = list(pokerkit.Card.parse(omaha.format_cards(BOARDS[0].tolist())))

    def both():
        pokerkit.OmahaHoldemHand.from_game(hole, board)
        pokerkit.OmahaEightOrBetterLowHand.from_game(hole, board)

    benchmark(both)


# ---- the targets, measured side by side in one run (best of several rounds) ----

def test_target_batch_hilo_at_least_20x_phevaluator_loop():
    """Issue 2: random deals with a fresh board per 6 players, high + low, single thread."""
    pheval = pytest.importorskip("phevaluator._pheval")
    from compare import best_rates

    holes, boards = random_deals(50_000)
    tables, table_boards = holes.reshape(-1, 6, 4), boards[::6].copy()
    rows = phevaluator_rows(holes, boards)
    evaluate = pheval.evaluate_omaha_cards

    def loop():
        for row in rows:
            evaluate(*row)

    rates = best_rates({
        "tables": (lambda: omaha.evaluate_hilo_batch(tables, table_boards), len(holes)),
        "rows": (lambda: omaha.evaluate_hilo_batch(holes, boards), len(holes)),
        "phevaluator": (loop, len(rows)),
    })
    by_table, by_row, theirs = rates["tables"], rates["rows"], rates["phevaluator"]
    print(f"\nhilo batch {by_table / 1e6:.1f} M/s (tables form), {by_row / 1e6:.1f} M/s (rows "
          f"form); phevaluator loop {theirs / 1e6:.2f} M/s; ratios {by_table / theirs:.1f}x, "
          f"{by_row / theirs:.1f}x")
    assert by_table >= 20 * theirs


def test_target_single_call_no_slower_than_phevaluator():
    pheval = pytest.importorskip("phevaluator._pheval")
    from compare import best_rates

    holes, boards = random_deals(20_000)
    pairs = list(zip(holes.tolist(), boards.tolist()))
    rows = phevaluator_rows(holes, boards)
    evaluate, ours_fn = pheval.evaluate_omaha_cards, omaha.evaluate_high

    def theirs_loop():
        for row in rows:
            evaluate(*row)

    def ours_loop():
        for hole, board in pairs:
            ours_fn(hole, board)

    rates = best_rates({"ours": (ours_loop, len(pairs)), "theirs": (theirs_loop, len(rows))})
    ours, theirs = rates["ours"], rates["theirs"]
    print(f"\nsingle calls: omaha {ours / 1e6:.2f} M/s, phevaluator {theirs / 1e6:.2f} M/s")
    assert ours >= theirs


def test_target_import_under_100_ms():
    from compare import import_ms

    ms = import_ms()
    print(f"\nimport omaha: {ms:.1f} ms")
    assert ms < 100
