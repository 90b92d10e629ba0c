"""The batch evaluator releases the GIL while it works (issue 2), and is thread-safe."""

import threading
import time

import numpy as np

import omaha


def deals(n_boards: int, seed: int):
    rng = np.random.default_rng(seed)
    tables = np.argsort(rng.random((n_boards, 52)), axis=1)[:, :29].astype(np.uint8)
    return tables[:, :24].reshape(n_boards, 6, 4).copy(), tables[:, 24:].copy()


def test_batch_lets_other_python_threads_run():
    holes, boards = deals(300_000, 1)  # 1.8 M hands: tens of milliseconds of C work per call
    omaha.evaluate_hilo_batch(holes[:1], boards[:1])
    done = threading.Event()
    calls = []

    def work():
        for _ in range(3):
            start = time.perf_counter()
            omaha.evaluate_hilo_batch(holes, boards)
            calls.append((start, time.perf_counter()))
        done.set()

    ticks = []
    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():  # this thread keeps running Python while the batch works
        ticks.append(time.perf_counter())
    worker.join()
    # A call that held the GIL would leave no tick strictly inside its span; count ticks in
    # the middle half of each call, so thread switches at its edges do not count (robust to a
    # loaded machine: no timing ratio is asserted).
    inside = [sum(1 for t in ticks if a + (b - a) / 4 < t < b - (b - a) / 4) for a, b in calls]
    assert max(inside) > 0, (inside, calls)


def test_threads_get_the_same_answers():
    holes, boards = deals(20_000, 2)
    expected = omaha.evaluate_hilo_batch(holes, boards)
    results = [None] * 4

    def work(i):
        results[i] = omaha.evaluate_hilo_batch(holes, boards)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for high, low in results:
        assert np.array_equal(high, expected[0]) and np.array_equal(low, expected[1])
