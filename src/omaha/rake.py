"""Deprecated (kept for one release): moved to :mod:`omaha.game.rake` (issue 20).

Every name :mod:`omaha.rake` had is omaha.game.rake's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import rake as _moved
from omaha.game.rake import (
    SEED_FIXED_LIMIT_CHART,
    SEED_POT_LIMIT_RAKE,
    FixedLimitRakeChart,
    NoRake,
    PercentageRake,
    PlayersBracket,
    RakeError,
    RakeSchedule,
    StakesBand,
    Threshold,
    ThresholdRake,
    rake_from_dict,
    rake_to_dict,
)

__all__ = [
    "SEED_FIXED_LIMIT_CHART", "SEED_POT_LIMIT_RAKE", "FixedLimitRakeChart", "NoRake",
    "PercentageRake", "PlayersBracket", "RakeError", "RakeSchedule", "StakesBand", "Threshold",
    "ThresholdRake", "rake_from_dict", "rake_to_dict",
]

warnings.warn("omaha.rake is deprecated; import from omaha.game.rake",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.rake's."""
    return getattr(_moved, name)
