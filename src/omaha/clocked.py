"""Deprecated (kept for one release): moved to :mod:`omaha.game.clocked` (issue 20).

Every name :mod:`omaha.clocked` had is omaha.game.clocked's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import clocked as _moved
from omaha.game.clocked import (
    ACTION_ALIASES,
    ACTIONS,
    CLOCK_EVENT_TYPES,
    ActionName,
    ClockedHand,
    ClockedView,
    ClockEvent,
    Disconnected,
    Reconnected,
    TimeRanOut,
    TurnStarted,
    clock_event_from_dict,
)

__all__ = [
    "ACTIONS", "ACTION_ALIASES", "CLOCK_EVENT_TYPES", "ActionName", "ClockEvent", "ClockedHand",
    "ClockedView", "Disconnected", "Reconnected", "TimeRanOut", "TurnStarted",
    "clock_event_from_dict",
]

warnings.warn("omaha.clocked is deprecated; import from omaha.game.clocked",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.clocked's."""
    return getattr(_moved, name)
