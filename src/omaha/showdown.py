"""Deprecated (kept for one release): moved to :mod:`omaha.game.showdown` (issue 20).

Every name :mod:`omaha.showdown` had is omaha.game.showdown's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import showdown as _moved
from omaha.game.showdown import (
    RINGS,
    HandResult,
    ShowdownState,
    pot_awarded,
    showdown_order,
    strengths,
    uncalled,
)

__all__ = [
    "RINGS", "HandResult", "ShowdownState", "pot_awarded", "showdown_order", "strengths",
    "uncalled",
]

warnings.warn("omaha.showdown is deprecated; import from omaha.game.showdown",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.showdown's."""
    return getattr(_moved, name)
