"""Stub for the compiled ICM kernels (issue 25): exact Malmuth-Harville equities and a
sampled estimate. The public API is :mod:`omaha.icm`."""

from collections.abc import Iterable
from typing import Any, SupportsIndex, TypeAlias

import numpy as np
import numpy.typing as npt

__all__ = ["EXACT_MAX_PLAYERS", "MAX_ITEMS", "MAX_SAMPLES", "exact", "sample"]

# One entry per player (stacks) or per place (prizes): lists, tuples, iterables, NumPy arrays.
_IntsLike: TypeAlias = Iterable[SupportsIndex] | npt.NDArray[np.integer[Any]]

EXACT_MAX_PLAYERS: int
MAX_ITEMS: int
MAX_SAMPLES: int

def exact(stacks: _IntsLike, prizes: _IntsLike) -> tuple[tuple[float, ...], int]: ...
def sample(
    stacks: _IntsLike, prizes: _IntsLike, samples: SupportsIndex, seed: SupportsIndex
) -> tuple[tuple[float, ...], tuple[float, ...], int]: ...
