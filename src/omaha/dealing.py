"""Deprecated (kept for one release): moved to :mod:`omaha.game.dealing` (issue 20).

Every name :mod:`omaha.dealing` had is omaha.game.dealing's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import dealing as _moved
from omaha.game.dealing import (
    STREET_CARDS,
    blind_positions,
    board_positions,
    burn_positions,
    cards_needed,
    check_options,
    check_setup,
    dealing_order,
    dealing_place,
    dealt_sequence,
    hole_position,
    live_seats,
    stacked_cards,
)

__all__ = [
    "STREET_CARDS", "blind_positions", "board_positions", "burn_positions", "cards_needed",
    "check_options", "check_setup", "dealing_order", "dealing_place", "dealt_sequence",
    "hole_position", "live_seats", "stacked_cards",
]

warnings.warn("omaha.dealing is deprecated; import from omaha.game.dealing",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.dealing's."""
    return getattr(_moved, name)
