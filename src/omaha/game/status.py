"""Where a hand and its players stand: the player status codes and the streets.

The compiled core keeps each player's status as a small int (its ``State.status``); these
are those codes, the names :meth:`~omaha.game.hand.Hand.state` and the views report, and
:class:`Street`, the hand's street as :attr:`~omaha.game.hand.Hand.street` gives it.

>>> Street(1).name, STATE_NAMES[ALL_IN]
('FLOP', 'all_in')
"""

from __future__ import annotations

from enum import IntEnum
from typing import Literal

__all__ = [
    "ACTIVE", "ALL_IN", "FLOP", "FOLDED", "MUCKED", "PREFLOP", "PROTECTED", "RIVER",
    "SHOWDOWN", "STATE_NAMES", "TURN", "PlayerState", "Street",
]

# Player states. PROTECTED is D2's all-in for what is in. MUCKED players stay eligible in the
# splitter: a hand may be mucked only when shown hands beat it in every contested pot, so it
# can still take only uncontested chips.
ACTIVE, FOLDED, ALL_IN, PROTECTED, MUCKED = 0, 1, 2, 3, 4
PlayerState = Literal["active", "folded", "all_in", "protected", "mucked"]
"""A player's state by name, as :meth:`Hand.state` and the views report it."""
STATE_NAMES: tuple[PlayerState, ...] = ("active", "folded", "all_in", "protected", "mucked")
PREFLOP, FLOP, TURN, RIVER, SHOWDOWN = 0, 1, 2, 3, 4


class Street(IntEnum):
    """Where the hand is; SHOWDOWN once the river betting is over and hands are compared."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    SHOWDOWN = 4
