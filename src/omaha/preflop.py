"""Deprecated (kept for one release): moved to :mod:`omaha.analysis.preflop` (issue 20).

Every name :mod:`omaha.preflop` had is omaha.analysis.preflop's; importing it warns.
"""

import warnings
from typing import Any

from omaha.analysis import preflop as _moved
from omaha.analysis.preflop import (
    CLASSES,
    DATA_FILE,
    HANDS,
    MAGIC,
    class_of,
    classes,
    equities,
    load_table,
    ordering,
    shipped_table,
    top_hands,
)

__all__ = [
    "CLASSES", "DATA_FILE", "HANDS", "MAGIC", "class_of", "classes", "equities", "load_table",
    "ordering", "shipped_table", "top_hands",
]

warnings.warn("omaha.preflop is deprecated; import from omaha.analysis.preflop",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.analysis.preflop's."""
    return getattr(_moved, name)
