"""Player states and streets of a hand, shared by the hand and its showdown.

>>> Street(1).name, STATE_NAMES[ALL_IN]
('FLOP', 'all_in')
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from omaha.betting import BettingRound, LegalActions
    from omaha.config import GameConfig
    from omaha.showdown import HandResult, ShowdownState
    from omahacore.pots import Settlement

__all__ = [
    "ACTIVE", "ALL_IN", "FLOP", "FOLDED", "MUCKED", "PREFLOP", "PROTECTED", "RIVER",
    "SHOWDOWN", "STATE_NAMES", "TURN", "HandState", "RakeRule", "Street",
]

# Player states. PROTECTED is D2's all-in for what is in. MUCKED players stay eligible in the
# splitter: a hand may be mucked only when shown hands beat it in every contested pot, so it
# can still take only uncontested chips.
ACTIVE, FOLDED, ALL_IN, PROTECTED, MUCKED = 0, 1, 2, 3, 4
STATE_NAMES = ("active", "folded", "all_in", "protected", "mucked")
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


class HandState:
    """The slots of a hand: its state, kept in one place for the hand and its showdown.

    Players are indices 0..n-1 in seat order (clockwise). Per player: ``_stacks`` (behind),
    ``_bets`` (this round), ``_contrib`` (this hand), ``_status``, ``_acted`` (this round),
    ``_holes``. ``_dead`` is the big blind ante (table money), ``_pot`` every chip put in,
    ``_live``/``_active`` how many have not folded / can still act, ``_to_act`` the index to
    act (-1: nobody), ``_log`` the event log as raw tuples ``(EventClass, *fields)``,
    ``_mark`` the log's length when the current action began (-1 before any action), so that
    an award that fails can put the hand back as it was (K1).
    """

    __slots__ = (
        "_acted", "_active", "_bb", "_bets", "_board", "_button", "_contrib", "_dead",
        "_deck", "_holes", "_legal", "_live", "_log", "_manual", "_mark", "_n", "_order",
        "_payouts", "_pot", "_rake", "_result", "_round", "_sb", "_settlement",
        "_showdown_state", "_shown", "_stacks", "_status", "_street", "_strengths", "_to_act",
        "config", "seats",
    )

    config: GameConfig
    seats: tuple[int, ...]
    _n: int
    _button: int
    _sb: int
    _bb: int
    _stacks: list[int]
    _bets: list[int]
    _contrib: list[int]
    _dead: int
    _status: list[int]
    _acted: list[bool]
    _holes: list[tuple[int, ...]]
    _board: list[int]
    _deck: list[int]
    _street: int
    _to_act: int
    _round: BettingRound
    _legal: tuple[int, LegalActions]   # (log length when computed, what legal_actions said)
    _pot: int
    _live: int
    _active: int
    _log: list[tuple[Any, ...]]
    _mark: int
    _rake: RakeRule | None
    _manual: bool
    _order: list[int]
    _shown: list[bool]
    _strengths: tuple[list[int], list[int] | None] | None
    _showdown_state: ShowdownState | None
    _settlement: Settlement | None
    _payouts: tuple[list[int], list[int]]
    _result: HandResult | None
