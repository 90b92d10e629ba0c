"""Deprecated: the NumPy engine of :class:`~omaha.rl.VectorTables` is gone (issue 20).

The tables now run on the compiled batched kernel (:mod:`omahacore.vector`), which plays
every game the hand engine plays; this module stays importable for one release and warns.
"""

from __future__ import annotations

import warnings

from omaha.config import GameConfig

__all__ = ["supports"]

warnings.warn("omaha.rl.fast is deprecated: VectorTables runs on the compiled kernel "
              "(omahacore.vector) for every game", DeprecationWarning, stacklevel=2)


def supports(config: GameConfig, stack: int) -> bool:
    """Always true: the compiled kernel plays every game (kept for one release)."""
    return True
