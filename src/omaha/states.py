"""Player states and streets of a hand, shared by the hand state and the rules.

>>> Street(1).name, STATE_NAMES[ALL_IN]
('FLOP', 'all_in')
"""

from __future__ import annotations

from enum import IntEnum
from typing import Literal, Protocol

__all__ = [
    "ACTIVE", "ALL_IN", "FLOP", "FOLDED", "MUCKED", "PREFLOP", "PROTECTED", "RIVER",
    "SHOWDOWN", "STATE_NAMES", "TURN", "PlayerState", "RakeRule", "Street",
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


class RakeRule(Protocol):
    """The rake hook (K1): asked once, before awarding, how much the house takes."""

    def rake_for(self, pot_total: int, players_dealt: int, saw_flop: bool) -> int:
        """Rake for a pot of ``pot_total`` (uncalled chips excluded)."""
        ...
