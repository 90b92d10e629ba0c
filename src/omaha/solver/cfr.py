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
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from omaha.errors import SolverError, SolverTypeError
from omaha.limits import safe_repr
from omaha.solver.isomorphism import Mirror, river_mirrors
from omaha.solver.solution import DECISION, Solution, compact
from omaha.solver.spot import Spot
from omaha.solver.tree import Tree, build_tree, holders

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["DEFAULT_MAX_BYTES", "RESTART", "STORAGES", "Progress", "next_check", "solve",
           "target_chips"]

Progress = Callable[[int, float], object]
"""Called as ``progress(iterations, exploitability in chips)`` after each check; an
exception it raises stops the solve and reaches the caller."""

DEFAULT_MAX_BYTES = 4 * 2**30
"""The solver arrays a spot may need before :func:`solve` refuses it (4 GiB)."""


RESTART = 4
"""The strategy sums restart at 4, 16, 64, ... iterations (as postflop-solver's do): the
average forgets the poor early strategies, and a river reaches 0.3% in fewer iterations."""

STORAGES = {"32bit": 32, "16bit": 16}
"""The storage of regrets and strategy sums: float32, or 16 bits with one scale per node."""


def next_check(checks: list[tuple[int, float]], goal: float, first: int) -> int:
    """How many iterations to run before the next exploitability check, given the earlier
    ``(iterations, exploitability)`` checks: ``first`` before any; then the iterations at
    which the exploitability, falling as a power of the iterations fitted to the last two
    checks (the first check alone: as 1/t), reaches ``goal``; at most half as many as run so
    far (the average restarts at 16, 64, ... iterations, see :data:`RESTART`, and the fall
    is uneven around a restart; as many with no goal left to aim at), at least
    ``first // 5`` and 1.

    >>> next_check([], 0.3, 10), next_check([(10, 6.0)], 0.3, 10)
    (10, 5)
    >>> next_check([(10, 6.0), (20, 2.0)], 0.3, 10), next_check([(10, 6.0), (20, 0.35)], 0.3, 10)
    (10, 2)
    """
    if not checks:
        return first
    t, gap = checks[-1]
    power = 1.0
    if len(checks) >= 2:
        t0, gap0 = checks[-2]
        fall = gap0 / gap if gap > 0 else 0.0
        if 0 < fall < math.inf and t > t0:
            power = min(max(math.log(fall) / math.log(t / t0), 0.5), 3.0)
    least = max(1, first // 5)
    if gap <= goal or goal <= 0:
        return max(least, t)
    grow = math.log(gap / goal) / power         # log of the iterations' wanted growth
    more = t if grow >= 1.0 else math.ceil(t * math.expm1(grow))   # e > 2: past doubling
    return max(least, min(more, math.ceil(t / 2)))


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
          max_bytes: int = DEFAULT_MAX_BYTES, storage: str = "32bit",
          threads: int | None = 1) -> Solution:
    """Solve ``spot`` (see the module): stop once the exploitability, computed by an exact
    best response, is at most ``target`` (chips, or text such as ``"0.3%"`` of the pot), or
    after ``max_iterations``.

    The first check comes after ``check_every`` iterations; each later one where the
    exploitability's fall so far says the target will be reached (see :func:`next_check`), so
    few best responses are spent. ``storage="16bit"`` keeps regrets and strategy sums in 16
    bits with one scale per node array: about half the memory for the same iterations.
    ``threads`` (``None``: one per CPU) split each node's and each leaf's hands among
    threads that run without the GIL; the values agree with one thread's to float rounding
    (the showdown sums are added up in another order). Without OpenMP in the build
    (``omahacore.solver.parallel``) they run one after another."""
    import numpy as np

    from omahacore.solver import MAX_THREADS, Game

    if not isinstance(spot, Spot):
        raise SolverTypeError(f"spot must be a Spot, got {type(spot).__name__}")
    goal = target_chips(target, spot.pot)
    for name, value, low in (("max_iterations", max_iterations, 0),
                             ("check_every", check_every, 1)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SolverTypeError(f"{name} must be an int, got {safe_repr(value)}")
        if not low <= value <= 10**9:
            raise SolverError(f"{name} must be from {low} to 1,000,000,000, got {value}")
    if threads is None:
        threads = min(os.cpu_count() or 1, MAX_THREADS)
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise SolverTypeError(f"threads must be an int or None, got {safe_repr(threads)}")
    if not 1 <= threads <= MAX_THREADS:
        raise SolverError(f"threads must be from 1 to {MAX_THREADS}, got {threads}")
    if not isinstance(storage, str):
        raise SolverTypeError(f"storage must be text such as '16bit', got {safe_repr(storage)}")
    if storage not in STORAGES:
        raise SolverError(f"storage must be one of {', '.join(STORAGES)}, got "
                          f"{safe_repr(storage)}")
    if progress is not None and not callable(progress):
        raise SolverTypeError(f"progress must be callable, got {safe_repr(progress)}")
    mirrors = river_mirrors(spot)
    tree = build_tree(pot=spot.pot, stack=spot.stack, bets=spot.bets, raises=spot.raises,
                      max_raises=spot.max_raises, rivers=spot.rivers,
                      mirrors={card: m.canon for card, m in mirrors.items()})
    # The core gets each range in order of high strength (on the first board: the river, or
    # a turn's first river card; stable), so its showdown sweeps read the hands, their reach
    # and their values in sequence rather than scattered; the strategies are put back in the
    # spot's order at the end.
    orders: list[npt.NDArray[np.int32]] = []
    sides: list[tuple[bytes, npt.NDArray[np.float64], npt.NDArray[np.int32],
                      npt.NDArray[np.int32] | None]] = []
    for p in (0, 1):
        cards = spot.cards(p)
        highs, lows = _strengths(spot, p, tree.rows)
        rows = len(highs) // len(cards)
        order = np.argsort(highs[:len(cards)], kind="stable").astype(np.int32)
        orders.append(order)
        sides.append((cards[order].tobytes(), spot.weights(p)[order],
                      highs.reshape(rows, -1)[:, order].reshape(-1),
                      None if lows is None else lows.reshape(rows, -1)[:, order].reshape(-1)))
    sigmas, perms = _mirrored(tree, mirrors, orders)
    game = Game(spot.pot, tree.kinds, tree.players, tree.firsts, tree.counts,
                tree.commits[0], tree.commits[1], 4, sides[0][0], sides[1][0], sides[0][1],
                sides[1][1], sides[0][2], sides[1][2], sides[0][3], sides[1][3],
                max_bytes=max_bytes, bits=STORAGES[storage], threads=threads,
                deals=tree.deals, boards=tree.boards, mirrors=tree.mirrors, sigmas=sigmas,
                perms0=perms[0], perms1=perms[1], restart=RESTART)
    del sides                   # the core holds its own copies
    gap = math.inf
    checks: list[tuple[int, float]] = []
    while game.iterations < max_iterations:
        step = next_check(checks, goal, check_every)
        game.run(min(step, max_iterations - game.iterations))
        gap = game.exploitability()
        checks.append((game.iterations, gap))
        if progress is not None:
            progress(game.iterations, gap)
        if gap <= goal:
            break
    if gap == math.inf:
        gap = game.exploitability()
    ev = game.values()
    game.release()              # the regrets and scratch rows go before the copies are made
    strategies: dict[int, npt.NDArray[np.float32] | npt.NDArray[np.uint16]] = {}
    for n in range(len(tree)):
        if tree.kinds[n] == DECISION and tree.twins[n] == n:
            order = orders[tree.players[n]]
            table = np.empty((tree.counts[n], len(order)), np.float32)
            game.strategy_into(n, table.reshape(-1))
            spot_order = np.empty_like(table)
            spot_order[:, order] = table
            del table
            held = holders(spot, tree, n)
            if held is not None:    # hands holding the river card never reach this node
                spot_order[:, held] = np.nan
            # 16-bit storage: the probabilities in 16 bits too (no finer than the sums)
            strategies[n] = compact(spot_order) if storage == "16bit" else spot_order
    iterations = game.iterations
    del game                    # the strategy sums go before the solution is handed back
    return Solution(spot, tree, strategies, ev, gap, iterations, mirrors)


def _mirrored(tree: Tree, mirrors: dict[int, Mirror], orders: list[npt.NDArray[np.int32]]
              ) -> tuple[list[int], tuple[npt.NDArray[np.int32] | None,
                                          npt.NDArray[np.int32] | None]]:
    """The core's suit-isomorphism arguments besides ``tree.mirrors``: each mirroring
    child's row of permutations, and per player the rows (one per suit permutation, shared by
    the rivers it maps alike; hands in the core's order)."""
    import numpy as np

    rows: dict[int, int] = {}           # id of a shared permutation -> its row
    sigmas = [-1] * len(tree)
    perms: tuple[list[npt.NDArray[np.int32]], list[npt.NDArray[np.int32]]] = ([], [])
    core_index = []                     # per player: spot index -> core index (once)
    for order in orders:
        at = np.empty_like(order)
        at[order] = np.arange(len(order), dtype=order.dtype)
        core_index.append(at)
    for node, twin in enumerate(tree.mirrors):
        if twin < 0:
            continue
        mirror = mirrors[tree.deals[node]]
        key = id(mirror.perms[0])
        if key not in rows:
            rows[key] = len(rows)
            for p in (0, 1):
                perms[p].append(core_index[p][mirror.perms[p][orders[p]]].astype(np.int32))
        sigmas[node] = rows[key]
    if not rows:
        return sigmas, (None, None)
    return sigmas, (np.concatenate(perms[0]), np.concatenate(perms[1]))


def _strengths(spot: Spot, p: int, rows: list[int]) -> tuple[npt.NDArray[np.int32],
                                                             npt.NDArray[np.int32] | None]:
    """Player ``p``'s high (and for hi/lo, low) strengths, one row of hands per board: the
    river's, or on a turn spot each river card's in ``rows`` (0 for hands holding that card:
    they never reach its showdowns), flattened row by row."""
    import numpy as np

    from omaha.analysis.evaluation import evaluate_high_batch, evaluate_hilo_batch

    cards = spot.cards(p)
    turn = [int(c) for c in spot.board]
    boards = [turn] if not spot.rivers else [turn + [r] for r in rows]
    highs = np.zeros((len(boards), len(cards)), dtype=np.int32)
    lows = np.zeros((len(boards), len(cards)), dtype=np.int32) if spot.variant.hi_lo else None
    for row, board in enumerate(boards):
        keep = ~np.isin(cards, board).any(axis=1)
        if not keep.any():
            continue
        five = np.array(board, dtype=np.uint8)
        if lows is not None:
            highs[row, keep], lows[row, keep] = evaluate_hilo_batch(cards[keep], five)
        else:
            highs[row, keep] = evaluate_high_batch(cards[keep], five)
    return highs.reshape(-1), None if lows is None else lows.reshape(-1)
