"""Deprecated (kept for one release): moved to :mod:`omaha.game.events` (issue 20).

Every name :mod:`omaha.events` had is omaha.game.events's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import events as _moved
from omaha.game.events import (
    EVENT_OF_CODE,
    EVENT_TYPES,
    BetOrRaised,
    BoardDealt,
    Called,
    CardBurned,
    Checked,
    Event,
    Folded,
    HandEnded,
    HandStarted,
    HoleDealt,
    Mucked,
    Posted,
    PotAwarded,
    ProtectedAllIn,
    Returned,
    Shown,
    TimedOut,
    event_from_dict,
)

__all__ = [
    "EVENT_OF_CODE", "EVENT_TYPES", "BetOrRaised", "BoardDealt", "Called", "CardBurned",
    "Checked", "Event", "Folded", "HandEnded", "HandStarted", "HoleDealt", "Mucked", "Posted",
    "PotAwarded", "ProtectedAllIn", "Returned", "Shown", "TimedOut", "event_from_dict",
]

warnings.warn("omaha.events is deprecated; import from omaha.game.events",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.events's."""
    return getattr(_moved, name)
