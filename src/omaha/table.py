"""Deprecated (kept for one release): moved to :mod:`omaha.game.table` (issue 20).

Every name :mod:`omaha.table` had is omaha.game.table's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import table as _moved
from omaha.game.table import PLAYING, POSTING, SITTING_OUT, WAITING, SeatInfo, Table

__all__ = ["PLAYING", "POSTING", "SITTING_OUT", "WAITING", "SeatInfo", "Table"]

warnings.warn("omaha.table is deprecated; import from omaha.game.table (Table: omaha.Table)",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.table's."""
    return getattr(_moved, name)
