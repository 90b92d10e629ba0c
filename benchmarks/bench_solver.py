"""River solver speed and memory (issue 29): ``python -m pytest benchmarks/bench_solver.py -s``.

Targets (one core): a PLO river with full ranges (178,365 hands a side), bets of half pot and
pot and a pot raise, at most 0.3% of the pot exploitable in at most 10 seconds and under
100 MB, both counted from building the ``Spot`` to the solution; narrowed ranges (a few
thousand hands) under 1 second; PLO hi/lo at most 2x the PLO time. ``-s`` prints each
figure beside its target.

Each spot is solved in a fresh Python process, so its peak memory (the resident set after
the solve less the resident set before the ``Spot`` was built) is its own; the wall time and
the CPU time (all threads together) are counted from building the ``Spot`` to the solution.
Full ranges are solved with float32 and 16-bit storage on one core, and on all cores
(``threads=None``). The full-range spots take minutes on a loaded machine; ``-k narrowed``
runs only the small ones.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

BOARD = "Ah Kd 7c 5s 2h"
NARROW_OOP = "AA**,KK**,A2**:$ds"
NARROW_IP = "KK**,QQ**,34**:$ds"

CHILD = textwrap.dedent("""
    import json, resource, sys, time
    import numpy                       # imported before the baseline: not the solver's memory
    from omaha.solver import Spot, solve
    import omaha.analysis.evaluation
    spec = json.loads(sys.argv[1])
    def rss_mb():
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    before = rss_mb()
    start = time.perf_counter()
    cpu = time.process_time()
    spot = Spot(spec["board"], spec["oop"], spec["ip"], variant=spec["variant"], pot=100,
                stack=300, bets=spec["bets"], raises="pot")
    solution = solve(spot, target=spec["target"], max_iterations=spec["max_iterations"],
                     check_every=spec["check_every"], storage=spec["storage"],
                     threads=spec["threads"])
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "cpu": time.process_time() - cpu,
                      "threads": spec["threads"], "iterations": solution.iterations,
                      "nodes": len(solution.tree),
                      "exploitability_pot": solution.exploitability_pot,
                      "hands": [len(spot.hands(0)), len(spot.hands(1))],
                      "peak_mb": rss_mb() - before}))
""")


def solve_in_child(variant: str, oop: str, ip: str, *, board: str = BOARD,
                   bets: str = "50%,pot", target: str = "0.3%", max_iterations: int = 1000,
                   check_every: int = 10, storage: str = "32bit",
                   threads: int | None = 1) -> dict[str, float]:
    """Build the spot (pot 100, stack 300, ``bets``, pot raises) and solve it in a fresh
    Python process; its figures (time, CPU, iterations, nodes, exploitability, hands, peak
    memory) as a dict."""
    spec = {"board": board, "variant": variant, "oop": oop, "ip": ip, "bets": bets,
            "target": target, "max_iterations": max_iterations, "check_every": check_every,
            "storage": storage, "threads": threads}
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], check=True,
                         capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def report(benchmark, name: str, got: dict[str, float], seconds: float, mb: float) -> None:
    benchmark.extra_info.update(got)
    print(f"\n{name}: {got['hands'][0]:,} vs {got['hands'][1]:,} hands, "
          f"{got['iterations']} iterations to {got['exploitability_pot']:.3%} of the pot in "
          f"{got['seconds']:.2f} s wall, {got['cpu']:.2f} s CPU (target {seconds:g} s), "
          f"peak {got['peak_mb']:.0f} MB (target {mb:g} MB), threads {got['threads'] or 'all'}")


@pytest.mark.parametrize("variant", ["plo", "plo8"])
def test_narrowed_ranges(benchmark, variant):
    got = benchmark.pedantic(solve_in_child, (variant, NARROW_OOP, NARROW_IP), rounds=1,
                             iterations=1)
    report(benchmark, f"{variant} river, narrowed ranges", got, 1, 100)
    assert got["exploitability_pot"] <= 0.003


@pytest.mark.parametrize("storage", ["32bit", "16bit"])
@pytest.mark.parametrize("variant", ["plo", "plo8"])
def test_full_ranges(benchmark, variant, storage):
    got = benchmark.pedantic(solve_in_child, (variant, "****", "****"),
                             {"storage": storage}, rounds=1, iterations=1)
    report(benchmark, f"{variant} river, full ranges, {storage}", got,
           10 if variant == "plo" else 20, 100)
    assert got["hands"] == [178_365, 178_365]
    assert got["exploitability_pot"] <= 0.003


@pytest.mark.parametrize("variant", ["plo", "plo8"])
def test_full_ranges_all_cores(benchmark, variant):
    got = benchmark.pedantic(solve_in_child, (variant, "****", "****"),
                             {"storage": "16bit", "threads": None}, rounds=1, iterations=1)
    report(benchmark, f"{variant} river, full ranges, 16bit, all cores", got,
           10 if variant == "plo" else 20, 100)
    assert got["exploitability_pot"] <= 0.003
