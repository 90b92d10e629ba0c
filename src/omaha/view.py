"""Deprecated (kept for one release): moved to :mod:`omaha.game.view` (issue 20).

Every name :mod:`omaha.view` had is omaha.game.view's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import view as _moved
from omaha.game.view import (
    HandLike,
    HandView,
    PlayerView,
    event_for_seat,
    hand_view,
    visible_events,
)

__all__ = ["HandLike", "HandView", "PlayerView", "event_for_seat", "hand_view", "visible_events"]

warnings.warn("omaha.view is deprecated; import from omaha.game.view",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.view's."""
    return getattr(_moved, name)
