"""Deprecated (kept for one release): moved to :mod:`omaha.cli.shared` (issue 20).

Every name :mod:`omaha.cli_args` had is omaha.cli.shared's; importing it warns.
"""

import warnings
from typing import Any

from omaha.cli import shared as _moved
from omaha.cli.shared import (
    VARIANT_HELP,
    add_variant,
    game_config,
    non_negative,
    pair,
    players,
    positive,
)

__all__ = [
    "VARIANT_HELP", "add_variant", "game_config", "non_negative", "pair", "players", "positive",
]

warnings.warn("omaha.cli_args is deprecated; import from omaha.cli.shared",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.cli.shared's."""
    return getattr(_moved, name)
