"""Turn solver speed and memory (issue 29): ``python -m pytest benchmarks/bench_solver_turn.py -s``.

A PLO turn spot deals all 48 rivers at a chance node and solves every river's tree with the
turn's. Figures (``-s`` prints each):

- narrowed ranges (a few hundred to a few thousand hands a side), pot-size bets and raises
  with all-in, 16-bit storage: the time and the exploitability reached, counted from
  building the ``Spot`` to the solution in a fresh process, and its peak memory;
- full ranges (194,580 hands a side): the solver arrays' size with 16-bit storage, as the
  core's memory check computes it before allocating anything (the issue's target: within
  2 GiB), on the rainbow board and, with suit isomorphism, a two-tone and a monotone one.
  The full-range turn solve itself is not run here: it takes a long time on one core.
"""

from __future__ import annotations

import pytest
from bench_solver import solve_in_child as solve_river_child  # one child for both

TURN = "Ah Kd 7c 5s"
TWO_TONE = "Ah Kh 7c 5c"      # diamonds and spades swap: 13 rivers mirror others
MONOTONE = "Ah Kh 7h 5h"      # clubs, diamonds and spades permute: 26 rivers mirror others
NARROW_OOP = "AA**:$ds,KK**:$ds"
NARROW_IP = "KK**:$ds,QQ**:$ds,JJ**:$ds"


def solve_in_child(variant: str) -> dict[str, float]:
    """The narrowed turn spot (pot-size bets and raises, 16-bit) solved to 0.5% of the pot
    in a fresh process, by the river benchmark's child (same folder)."""
    return solve_river_child(variant, NARROW_OOP, NARROW_IP, board=TURN, bets="pot",
                             target="0.5%", max_iterations=300, storage="16bit")


@pytest.mark.parametrize("variant", ["plo", "plo8"])
def test_narrowed_turn(benchmark, variant):
    got = benchmark.pedantic(solve_in_child, (variant,), rounds=1, iterations=1)
    benchmark.extra_info.update(got)
    print(f"\n{variant} turn, narrowed ranges: {got['hands'][0]:,} vs {got['hands'][1]:,} "
          f"hands, {got['nodes']:,} nodes (48 rivers), {got['iterations']} iterations to "
          f"{got['exploitability_pot']:.3%} of the pot in {got['seconds']:.1f} s wall, "
          f"{got['cpu']:.1f} s CPU, peak {got['peak_mb']:.0f} MB, 16-bit storage")
    assert got["exploitability_pot"] <= 0.005


@pytest.mark.parametrize(("variant", "board"), [("plo", TURN), ("plo8", TURN),
                                                 ("plo", TWO_TONE), ("plo", MONOTONE)])
def test_full_range_turn_memory_need(benchmark, variant, board):
    """What the core would allocate for full ranges (regrets and sums in 16 bits, one row
    of strengths and orders per river solved, the scratch rows, the hand permutations of
    suit isomorphism): asked of the memory check, which refuses before allocating. On the
    rainbow board no suit permutation keeps the board, so all 48 rivers are solved; on the
    two-tone board 35 and on the monotone board 22 (the others mirror them)."""
    from omaha.errors import SolverError
    from omaha.solver import Spot, solve
    from omaha.solver.isomorphism import river_mirrors

    spot = Spot(board, "****", "****", variant=variant, pot=100, stack=300, bets="pot",
                raises="pot")
    solved = len(spot.rivers) - len(river_mirrors(spot))

    def need() -> int:
        try:
            solve(spot, max_bytes=1, storage="16bit")
        except SolverError as exc:
            return int(str(exc).split("needs ")[1].split(" bytes")[0].replace(",", ""))
        raise AssertionError("a one-byte limit was not refused")

    size = benchmark.pedantic(need, rounds=1, iterations=1)
    benchmark.extra_info.update(bytes=size, rivers_solved=solved)
    print(f"\n{variant} turn {board}, full ranges ({len(spot.hands(0)):,} hands a side), pot "
          f"bets and raises with all-in: {solved} of 48 rivers solved, {size / 2**30:.2f} GiB "
          "of solver arrays in 16 bits (target 2 GiB)")
    assert size <= 2 * 2**30


def full_range_turn(variant: str = "plo", threads: int | None = 1) -> dict[str, float]:
    """The issue's turn target itself: the full-range turn (all 48 rivers; pot-size bets and
    raises with all-in, 16-bit) solved to 0.5% of the pot in a fresh process, counted from
    building the ``Spot``; its time, CPU, iterations, exploitability and peak memory. It takes
    minutes, so it runs only from the command line (``python benchmarks/bench_solver_turn.py
    --threads 1``), not under pytest."""
    return solve_river_child(variant, "****", "****", board=TURN, bets="pot", target="0.5%",
                             max_iterations=300, storage="16bit", threads=threads)


def main() -> None:
    import argparse
    import json

    parser = argparse.ArgumentParser(description=full_range_turn.__doc__)
    parser.add_argument("--variant", default="plo", choices=["plo", "plo8"])
    parser.add_argument("--threads", type=int, default=1, help="0: all cores")
    args = parser.parse_args()
    got = full_range_turn(args.variant, args.threads or None)
    print(json.dumps(got))
    print(f"{args.variant} turn {TURN}, full ranges ({got['hands'][0]:,} hands a side): "
          f"{got['iterations']} iterations to {got['exploitability_pot']:.3%} of the pot in "
          f"{got['seconds']:.0f} s wall, {got['cpu']:.0f} s CPU, peak {got['peak_mb']:.0f} MB "
          f"({got['peak_mb'] / 1024:.2f} GiB; target 0.5% within 2 GiB), threads "
          f"{args.threads or 'all'}")


if __name__ == "__main__":
    main()
