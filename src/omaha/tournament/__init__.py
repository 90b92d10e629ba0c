"""Tournaments: sit-and-gos and multi-table tournaments by the rules N1-N8.

The structure (levels and payout tables, N1 and N8) is data, in :mod:`omaha.tournament.structure`;
places and prizes of the eliminated (N7) are :mod:`omaha.tournament.places`; the seating
draw, balancing and breaking tables (N2, N4, N5) :mod:`omaha.tournament.seating`; the dead
button (N3) :mod:`omaha.tournament.button`; and :class:`Tournament`, which plays it all
through the hand engine with hand for hand at the bubble (N6), :mod:`omaha.tournament.engine`.

>>> from omaha.tournament import DEFAULT_STRUCTURE, place_eliminations
>>> DEFAULT_STRUCTURE.prize_table(9)
(601, 299)
>>> place_eliminations({"ann": 40, "bob": 90}, next_place=2)
{'bob': (1, 1), 'ann': (2, 2)}
"""

from __future__ import annotations

from omaha.errors import TournamentError, TournamentTypeError
from omaha.tournament.engine import Tournament, entry_player
from omaha.tournament.places import award, place_eliminations
from omaha.tournament.structure import (
    DEFAULT_STRUCTURE,
    Level,
    Payouts,
    Structure,
    default_payouts,
)

__all__ = [
    "DEFAULT_STRUCTURE",
    "Level",
    "Payouts",
    "Structure",
    "Tournament",
    "TournamentError",
    "TournamentTypeError",
    "award",
    "default_payouts",
    "entry_player",
    "place_eliminations",
]
