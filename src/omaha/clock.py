"""Deprecated (kept for one release): moved to :mod:`omaha.game.clock` (issue 20).

Every name :mod:`omaha.clock` had is omaha.game.clock's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import clock as _moved
from omaha.game.clock import (
    ActionClock,
    ClockConfig,
    ClockError,
    ClockView,
    ManualClock,
    MonotonicClock,
    TimeoutAction,
    TimeoutPolicy,
    TimeSource,
)

__all__ = [
    "ActionClock", "ClockConfig", "ClockError", "ClockView", "ManualClock", "MonotonicClock",
    "TimeSource", "TimeoutAction", "TimeoutPolicy",
]

warnings.warn("omaha.clock is deprecated; import from omaha.game.clock",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.clock's."""
    return getattr(_moved, name)
