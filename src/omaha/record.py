"""Deprecated (kept for one release): moved to :mod:`omaha.history.record` (issue 20).

Every name :mod:`omaha.record` had is omaha.history.record's; importing it warns.
"""

import warnings
from typing import Any

from omaha.history import record as _moved
from omaha.history.record import Replayable, deck_from_events, hand_body, replay_with, restore_with

__all__ = ["Replayable", "deck_from_events", "hand_body", "replay_with", "restore_with"]

warnings.warn("omaha.record is deprecated; import from omaha.history.record",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.history.record's."""
    return getattr(_moved, name)
