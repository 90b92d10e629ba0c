"""Solving a spot: discounted CFR in the compiled core until the exploitability reaches the
target or the iterations run out.

>>> from omaha.solver import Spot
>>> spot = Spot("Ah Kd 7c 5s 2h", "AA**:$ds", "KK**:$ds,QQ**:$ds", pot=100, stack=200,
...             bets="pot", raises="")
>>> solution = solve(spot, target="0.5%", max_iterations=500)
>>> solution.exploitability_pot <= 0.005, round(sum(solution.ev), 6)
(True, 100.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from omaha.errors import SolverError, SolverTypeError
from omaha.limits import safe_repr
from omaha.solver.solution import DECISION, Solution
from omaha.solver.spot import Spot
from omaha.solver.tree import build_tree

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["DEFAULT_MAX_BYTES", "Progress", "solve", "target_chips"]

Progress = Callable[[int, float], object]
"""Called as ``progress(iterations, exploitability in chips)`` after each check; an
exception it raises stops the solve and reaches the caller."""

DEFAULT_MAX_BYTES = 4 * 2**30
"""The solver arrays a spot may need before :func:`solve` refuses it (4 GiB)."""


def target_chips(target: float | str, pot: int) -> float:
    """The target exploitability in chips: a number of chips, or a share of the pot as text.

    >>> target_chips("0.3%", 200), target_chips(1.5, 200)
    (0.6, 1.5)
    """
    if isinstance(target, str):
        text = target.strip()
        try:
            value = float(text[:-1]) / 100 * pot if text.endswith("%") else float(text)
        except ValueError:
            raise SolverError(f"target: {target!r} is not chips or a share of the pot like "
                              "'0.3%'") from None
    elif isinstance(target, (int, float)) and not isinstance(target, bool):
        value = float(target)
    else:
        raise SolverTypeError(f"target must be chips or text like '0.3%', got "
                              f"{safe_repr(target)}")
    if not math.isfinite(value) or value < 0:
        raise SolverError(f"target must be finite and >= 0, got {safe_repr(target)}")
    return value


def solve(spot: Spot, *, target: float | str = "0.3%", max_iterations: int = 1000,
          check_every: int = 10, progress: Progress | None = None,
          max_bytes: int = DEFAULT_MAX_BYTES) -> Solution:
    """Solve ``spot`` (see the module): stop once the exploitability, computed every
    ``check_every`` iterations by an exact best response, is at most ``target`` (chips, or
    text such as ``"0.3%"`` of the pot), or after ``max_iterations``."""
    import numpy as np

    from omaha.analysis.evaluation import evaluate_high_batch, evaluate_hilo_batch
    from omahacore.solver import Game

    if not isinstance(spot, Spot):
        raise SolverTypeError(f"spot must be a Spot, got {type(spot).__name__}")
    goal = target_chips(target, spot.pot)
    for name, value, low in (("max_iterations", max_iterations, 0),
                             ("check_every", check_every, 1)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SolverTypeError(f"{name} must be an int, got {safe_repr(value)}")
        if not low <= value <= 10**9:
            raise SolverError(f"{name} must be from {low} to 1,000,000,000, got {value}")
    if progress is not None and not callable(progress):
        raise SolverTypeError(f"progress must be callable, got {safe_repr(progress)}")
    tree = build_tree(pot=spot.pot, stack=spot.stack, bets=spot.bets, raises=spot.raises,
                      max_raises=spot.max_raises)
    board = np.array([int(c) for c in spot.board], dtype=np.uint8)
    strengths: list[tuple[npt.NDArray[np.int32], npt.NDArray[np.int32] | None]] = []
    for p in (0, 1):
        if spot.variant.hi_lo:
            highs, lows = evaluate_hilo_batch(spot.cards(p), board)
            strengths.append((highs, lows))
        else:
            strengths.append((evaluate_high_batch(spot.cards(p), board), None))
    game = Game(spot.pot, tree.kinds, tree.players, tree.firsts, tree.counts,
                tree.commits[0], tree.commits[1], 4, spot.cards(0).tobytes(),
                spot.cards(1).tobytes(), spot.weights(0), spot.weights(1),
                strengths[0][0], strengths[1][0], strengths[0][1], strengths[1][1],
                max_bytes=max_bytes)
    gap = math.inf
    while game.iterations < max_iterations:
        game.run(min(check_every, max_iterations - game.iterations))
        gap = game.exploitability()
        if progress is not None:
            progress(game.iterations, gap)
        if gap <= goal:
            break
    if gap == math.inf:
        gap = game.exploitability()
    ev = game.values()
    game.release()              # the regrets and scratch rows go before the copies are made
    strategies: dict[int, npt.NDArray[np.float32]] = {}
    for n in range(len(tree)):
        if tree.kinds[n] == DECISION:
            table = np.empty((tree.counts[n], len(spot.cards(tree.players[n]))), np.float32)
            game.strategy_into(n, table.reshape(-1))
            strategies[n] = table
    return Solution(spot, tree, strategies, ev, gap, game.iterations)
