"""Scaling of the Ray simulation (issue 15): the same job on 1, 2, ... local CPUs.

The job: ``HANDS`` hands of 6-max pot-limit Omaha hi/lo between the built-in bots, seeded,
in chunks of ``CHUNK`` hands (so the merged result is identical on any number of CPUs, and
this script checks it). Each CPU count gets a fresh local Ray session; its workers are
started by a warm-up before the clock starts, so the times are the job's steady-state cost.
CPU counts alternate over rounds and each keeps its best time. Efficiency on k CPUs = time on 1 CPU / (k x time on k CPUs). The serial run in this process
(no Ray) is the baseline for Ray's own overhead.

Run ``python benchmarks/bench_scale.py [HANDS] [CPUS...]`` (needs the ``ray`` extra).
"""

from __future__ import annotations

import os
import sys
import time

from omaha.config import OMAHA_HILO, GameConfig
from omaha.distributed import run_play, run_play_on_ray

CONFIG = GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO)
BOTS = ["strength", "random"] * 3
CHUNK = 2_000


def on_ray(hands: int, cpus: int) -> tuple[float, object, float]:
    """(seconds for the job, its result, Ray's cost per task in seconds)."""
    import ray

    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    try:
        run_play_on_ray(CONFIG, BOTS, hands=20 * cpus, seed=0, chunk_hands=20)   # warm-up
        start = time.perf_counter()
        result = run_play_on_ray(CONFIG, BOTS, hands=hands, seed=1, chunk_hands=CHUNK)
        seconds = time.perf_counter() - start
        # per-task cost: 400 one-hand tasks against the same 400 hands in one task
        start = time.perf_counter()
        run_play_on_ray(CONFIG, BOTS, hands=400, seed=2, chunk_hands=400)
        one_task = time.perf_counter() - start
        start = time.perf_counter()
        run_play_on_ray(CONFIG, BOTS, hands=400, seed=2, chunk_hands=1)
        many = time.perf_counter() - start
        return seconds, result, max(0.0, many * cpus - one_task) / 400
    finally:
        ray.shutdown()


def main(hands: int, cpu_counts: list[int], rounds: int = 2) -> None:
    """Alternate the CPU counts ``rounds`` times and keep each count's best time."""
    start = time.perf_counter()
    serial = run_play(CONFIG, BOTS, hands=hands, seed=1, chunk_hands=CHUNK)
    serial_time = time.perf_counter() - start
    print(f"{hands} hands, {hands // CHUNK} chunks; machine: {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} at start")
    best: dict[int, float] = {}
    overhead: list[float] = []
    for _ in range(rounds):
        for cpus in cpu_counts:
            seconds, result, per_task = on_ray(hands, cpus)
            assert result == serial, "the merged result must not depend on the CPU count"
            best[cpus] = min(best.get(cpus, float("inf")), seconds)
            overhead.append(per_task)
    print(f"{'':18} {'seconds':>8} {'hands/s':>9} {'efficiency':>11}")
    print(f"{'serial, no Ray':18} {serial_time:8.2f} {hands / serial_time:9,.0f}")
    one = best.get(1)
    for cpus, seconds in sorted(best.items()):
        efficiency = f"{one / (cpus * seconds):.0%}" if one else ""
        print(f"{f'Ray, {cpus} CPU':18} {seconds:8.2f} {hands / seconds:9,.0f} {efficiency:>11}")
    print(f"Ray's cost per task (one-hand tasks vs one task of the same hands): "
          f"{1000 * min(overhead):.1f} ms; load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40_000
    main(count, [int(c) for c in sys.argv[2:]] or [1, 2])
