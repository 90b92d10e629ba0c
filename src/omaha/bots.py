"""Deprecated (kept for one release): moved to :mod:`omaha.game.bots` (issue 20).

Every name :mod:`omaha.bots` had is omaha.game.bots's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import bots as _moved
from omaha.game.bots import (
    BOTS,
    Z95,
    Bot,
    Decision,
    RandomBot,
    SeatScore,
    SessionResult,
    Situation,
    StrengthBot,
    act,
    play_session,
    situation,
)

__all__ = [
    "BOTS", "Z95", "Bot", "Decision", "RandomBot", "SeatScore", "SessionResult", "Situation",
    "StrengthBot", "act", "play_session", "situation",
]

warnings.warn("omaha.bots is deprecated; import from omaha.game.bots",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.bots's."""
    return getattr(_moved, name)
