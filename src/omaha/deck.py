"""Deprecated (kept for one release): moved to :mod:`omaha.game.deck` (issue 20).

Every name :mod:`omaha.deck` had is omaha.game.deck's; importing it warns.
"""

import warnings
from typing import Any

from omaha.game import deck as _moved
from omaha.game.dealing import (
    STREET_CARDS,
    board_positions,
    burn_positions,
    cards_needed,
    hole_position,
    stacked_cards,
)
from omaha.game.deck import shuffled_cards

__all__ = [
    "STREET_CARDS", "board_positions", "burn_positions", "cards_needed", "hole_position",
    "shuffled_cards", "stacked_cards",
]

warnings.warn("omaha.deck is deprecated; import from omaha.game.deck",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.game.deck's."""
    return getattr(_moved, name)
