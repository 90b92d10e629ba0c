"""Deprecated (kept for one release): moved to :mod:`omaha.game.award` (issue 20).

Every name :mod:`omaha.award` had is omaha.game.award's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import award as _moved
from omaha.game.award import ShowdownAndAward

__all__ = ["ShowdownAndAward"]

warnings.warn("omaha.award is deprecated; import from omaha.game.award",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.award's."""
    return getattr(_moved, name)
