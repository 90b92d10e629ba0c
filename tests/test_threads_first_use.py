"""Many threads on first use of every compiled module, in fresh interpreters (issue 10, item 2).

On the old main the evaluator built its tables lazily, with the GIL released, on first use:
threads arriving together rebuilt them under each other and read half-built tables, and a
fair share of fresh processes got wrong answers. The tables are now built when the module is
imported, so every answer of every thread of every fresh process must match the answers
computed here, single-threaded, in the test process.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap

import numpy as np

from omahacore import batch, evaluator, pots

THREADS = 16
PROCESSES = 5
SECONDS = 0.25   # each thread keeps evaluating this long after the common start

HAMMER = """
import json, sys, threading, time
import numpy as np          # not under test: imported before the threads start
hands, contributions, strengths, answers = json.loads(sys.stdin.read())
barrier = threading.Barrier({threads})
wrong, done = [0] * {threads}, [0] * {threads}

def work(i):
    barrier.wait()          # every thread imports and calls at the same moment
    from omahacore import batch, evaluator, pots
    stop = time.perf_counter() + {seconds}
    k = 0
    while k < len(hands) or time.perf_counter() < stop:
        j = k % len(hands)
        hole, board = hands[j]
        kind = (i + k) % 4
        if kind == 0:
            got = list(evaluator.evaluate_hilo(hole, board))
        elif kind == 1:
            high, low = batch.evaluate_hilo_batch(np.array([hole], np.uint8),
                                                  np.array([board], np.uint8))
            got = [int(high[0]), int(low[0])]
        elif kind == 2:
            got = [evaluator.evaluate_best(hole[:2] + board),
                   evaluator.evaluate_best_low(hole[:2] + board)]
        else:
            got = list(pots.settle(contributions[j], [False] * len(contributions[j]),
                                   high=strengths[j]).payouts)
        wrong[i] += got != answers[j][kind]
        done[i] += 1
        k += 1

threads = [threading.Thread(target=work, args=(i,)) for i in range({threads})]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps([sum(wrong), sum(done)]))
"""


def workload(seed: int) -> list:
    rng = random.Random(seed)
    hands, contributions, strengths, answers = [], [], [], []
    for _ in range(60):
        deck = rng.sample(range(52), 9)
        hole, board = deck[:4], deck[4:]
        n = rng.randint(2, 9)
        paid = [rng.choice([0, 5, 10, 50, 100]) + 1 for _ in range(n)]
        high = [rng.randint(1, 7462) for _ in range(n)]
        hilo = list(evaluator.evaluate_hilo(hole, board))
        answers.append([hilo, hilo, [evaluator.evaluate_best(hole[:2] + board),
                                     evaluator.evaluate_best_low(hole[:2] + board)],
                        list(pots.settle(paid, [False] * n, high=high).payouts)])
        hands.append((hole, board))
        contributions.append(paid)
        strengths.append(high)
    return [hands, contributions, strengths, answers]


def test_issue10_item2_threads_on_first_use_agree_with_one_thread() -> None:
    code = textwrap.dedent(HAMMER.format(threads=THREADS, seconds=SECONDS))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for process in range(PROCESSES):
        out = subprocess.run([sys.executable, "-c", code], input=json.dumps(workload(process)),
                             capture_output=True, text=True, env=env, timeout=120, check=False)
        assert out.returncode == 0, out.stderr
        wrong, done = json.loads(out.stdout)
        assert done >= THREADS * 60
        assert wrong == 0, f"process {process}: {wrong} of {done} answers wrong"


def test_batch_agrees_with_single_calls_in_this_process() -> None:
    """The batch module reads the evaluator's tables directly: same numbers as single calls."""
    rng = np.random.default_rng(5)
    deals = np.argsort(rng.random((400, 52)), axis=1)[:, :9].astype(np.uint8)
    high, low = batch.evaluate_hilo_batch(deals[:, :4], deals[:, 4:])
    for row in range(0, 400, 7):
        assert (high[row], low[row]) == evaluator.evaluate_hilo(deals[row, :4].tolist(),
                                                                deals[row, 4:].tolist())


def test_free_threaded_python_keeps_the_gil_off() -> None:
    """On a free-threaded build, importing the package must not turn the GIL back on (every
    compiled module declares itself freethreading_compatible)."""
    import sysconfig

    import pytest

    if not sysconfig.get_config_var("Py_GIL_DISABLED"):
        pytest.skip("not a free-threaded Python")
    code = ("import sys, omaha, omahacore.batch, omahacore.pots; "
            "print(sys._is_gil_enabled())")
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True,
                         text=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)),
                         check=False)
    assert out.returncode == 0 and out.stdout.strip() == "False", out.stderr
