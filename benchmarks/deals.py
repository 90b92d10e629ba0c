"""Random Omaha deals for the benchmarks: a fresh board for every 6 players, as at a table."""

from __future__ import annotations

import numpy as np

PLAYERS = 6


def random_deals(n_boards: int, seed: int = 2026) -> tuple[np.ndarray, np.ndarray]:
    """``(holes (N, 4), boards (N, 5))`` uint8 with N = 6 * n_boards, no card repeated per table."""
    rng = np.random.default_rng(seed)
    tables = np.argsort(rng.random((n_boards, 52)), axis=1)[:, : 4 * PLAYERS + 5].astype(np.uint8)
    holes = tables[:, : 4 * PLAYERS].reshape(n_boards * PLAYERS, 4).copy()
    boards = np.repeat(tables[:, 4 * PLAYERS :], PLAYERS, axis=0)
    return holes, boards


def phevaluator_rows(holes: np.ndarray, boards: np.ndarray) -> list[tuple[int, ...]]:
    """phevaluator's argument order: five community cards, then four hole cards."""
    return [tuple(b) + tuple(h) for h, b in zip(holes.tolist(), boards.tolist())]
