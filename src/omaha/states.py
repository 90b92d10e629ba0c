"""Deprecated (kept for one release): moved to :mod:`omaha.game.status` (issue 20).

Every name :mod:`omaha.states` had is omaha.game.status's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import status as _moved
from omaha.game.rake import RakeRule
from omaha.game.status import (
    ACTIVE,
    ALL_IN,
    FLOP,
    FOLDED,
    MUCKED,
    PREFLOP,
    PROTECTED,
    RIVER,
    SHOWDOWN,
    STATE_NAMES,
    TURN,
    PlayerState,
    Street,
)

__all__ = [
    "ACTIVE", "ALL_IN", "FLOP", "FOLDED", "MUCKED", "PREFLOP", "PROTECTED", "RIVER", "SHOWDOWN",
    "STATE_NAMES", "TURN", "PlayerState", "RakeRule", "Street",
]

warnings.warn("omaha.states is deprecated; "
              "import from omaha.game.status (RakeRule: omaha.game.rake)",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.status's."""
    return getattr(_moved, name)
