"""Branching for tree search (issue 12): ``hand.copy()`` + one action + ``hand.undo()``
against ``copy.deepcopy`` of a PokerKit ``State`` at the same point.

Both games are 6-max pot-limit Omaha hi/lo, blinds 1/2, stacks 200 (the engine benchmark's
game, :mod:`bench_engine`), taken to the same spots: preflop with the first player to act,
and the flop after a raise and calls. Rounds alternate between the engines and the best round
of each counts. Target: at least 100x.

Run ``python benchmarks/bench_copy_undo.py`` for the table, or
``python -m pytest benchmarks/bench_copy_undo.py`` for the target.
"""

from __future__ import annotations

import copy
import gc
import time
import warnings
from collections.abc import Callable
from typing import Any

from bench_engine import CONFIG, STACKS, new_pokerkit_state

from omaha import Hand


def omaha_spots() -> list[Hand]:
    """The spots: preflop first to act, and the flop after a raise to 6 and five calls."""
    preflop = Hand(CONFIG, stacks=STACKS, button=1)
    flop = Hand(CONFIG, stacks=STACKS, button=1)
    flop.bet_or_raise(6)
    while flop.street == 0:
        flop.check_or_call()
    return [preflop, flop]


def pokerkit_spots() -> list[Any]:
    import pokerkit as pk

    preflop, flop = new_pokerkit_state(pk), new_pokerkit_state(pk)
    flop.complete_bet_or_raise_to(6)
    while flop.street_index == 0:
        flop.check_or_call()
    return [preflop, flop]


def per_call(run: Callable[[], Any], seconds: float) -> float:
    """Best time per call in seconds over batches for about ``seconds`` of CPU time."""
    gc.collect()
    best = float("inf")
    batch = 1
    start = time.process_time()
    while time.process_time() - start < seconds:
        t0 = time.perf_counter()
        for _ in range(batch):
            run()
        spent = (time.perf_counter() - t0) / batch
        best = min(best, spent)
        batch = min(batch * 2, 2000)
    return best


def compare(rounds: int = 5, seconds: float = 0.4) -> dict[str, float]:
    """Interleaved rounds, best of each, over both spots: microseconds and the ratio."""
    ours, theirs = omaha_spots(), pokerkit_spots()

    def branch(hand: Hand) -> Callable[[], None]:
        def run() -> None:
            child = hand.copy()
            child.check_or_call()
            child.undo()
        return run

    out: dict[str, float] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, hand, state in zip(("preflop", "flop"), ours, theirs):
            best_ours = best_theirs = float("inf")
            for _ in range(rounds):
                best_ours = min(best_ours, per_call(branch(hand), seconds))
                best_theirs = min(best_theirs, per_call(lambda s=state: copy.deepcopy(s),
                                                        seconds))
            out[f"{name}_omaha_us"] = best_ours * 1e6
            out[f"{name}_pokerkit_deepcopy_us"] = best_theirs * 1e6
            out[f"{name}_ratio"] = best_theirs / best_ours
    return out


def test_target_100x_pokerkit_deepcopy() -> None:
    import pytest

    pytest.importorskip("pokerkit")
    result = compare(rounds=3)
    print(result)
    assert result["preflop_ratio"] >= 100 and result["flop_ratio"] >= 100, result


if __name__ == "__main__":
    result = compare()
    for spot in ("preflop", "flop"):
        print(f"{spot:8} omaha copy+action+undo {result[f'{spot}_omaha_us']:8.2f} us   "
              f"PokerKit deepcopy {result[f'{spot}_pokerkit_deepcopy_us']:9.1f} us   "
              f"ratio {result[f'{spot}_ratio']:6.0f}x")
