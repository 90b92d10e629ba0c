"""Deprecated (kept for one release): moved to :mod:`omaha.game.hand` (issue 20).

Every name :mod:`omaha.hand` had is omaha.game.hand's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import hand as _moved
from omaha.game.hand import Hand, RakeRule, Street

__all__ = ["Hand", "RakeRule", "Street"]

warnings.warn("omaha.hand is deprecated; import from omaha.game.hand (Hand: omaha.Hand)",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.hand's."""
    return getattr(_moved, name)
