"""Stub for the compiled discounted-CFR core (issue 29). The public API is :mod:`omaha.solver`."""

from collections.abc import Iterable
from typing import Any, SupportsFloat, SupportsIndex, TypeAlias, final

import numpy as np
import numpy.typing as npt

__all__ = ["CHANCE", "DECISION", "FOLD", "MAX_ACTIONS", "MAX_CARDS", "MAX_HANDS", "MAX_NODES",
           "MAX_THREADS", "SHOWDOWN", "Game", "parallel"]

_Ints: TypeAlias = Iterable[SupportsIndex] | npt.NDArray[np.integer[Any]]
_Weights: TypeAlias = Iterable[SupportsFloat | SupportsIndex] | npt.NDArray[np.floating[Any]]

CHANCE: int
DECISION: int
FOLD: int
SHOWDOWN: int
MAX_ACTIONS: int
MAX_CARDS: int
MAX_HANDS: int
MAX_NODES: int
MAX_CHIPS: int
MAX_THREADS: int
parallel: bool

@final
class Game:
    def __init__(
        self,
        pot: SupportsIndex,
        kinds: _Ints,
        players: _Ints,
        firsts: _Ints,
        counts: _Ints,
        commits0: _Ints,
        commits1: _Ints,
        cards: SupportsIndex,
        hands0: bytes,
        hands1: bytes,
        weights0: _Weights,
        weights1: _Weights,
        highs0: _Ints,
        highs1: _Ints,
        lows0: _Ints | None = None,
        lows1: _Ints | None = None,
        max_bytes: SupportsIndex | None = None,
        bits: SupportsIndex = 32,
        alpha: float = 1.5,
        beta: float = 0.0,
        gamma: float = 3.0,
        threads: SupportsIndex = 1,
        deals: _Ints | None = None,
        boards: _Ints | None = None,
        mirrors: _Ints | None = None,
        sigmas: _Ints | None = None,
        perms0: _Ints | None = None,
        perms1: _Ints | None = None,
        restart: SupportsIndex = 0,
    ) -> None: ...
    def run(self, iterations: SupportsIndex) -> None: ...
    @property
    def iterations(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def hands(self) -> tuple[int, int]: ...
    def values(self) -> tuple[float, float]: ...
    def best_responses(self) -> tuple[float, float]: ...
    def exploitability(self) -> float: ...
    def strategy(self, node: SupportsIndex) -> tuple[float, ...]: ...
    def strategy_into(self, node: SupportsIndex, out: npt.NDArray[np.float32]) -> None: ...
    def release(self) -> None: ...
