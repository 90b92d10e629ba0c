"""The state of one hand as plain data, with a cheap copy and an undo record per action.

:class:`HandState` holds the numbers of a hand and nothing else: stacks, bets,
contributions, player states, the street, the board, whose turn it is, the betting round's
facts, the dealt sequence and the event log. The rules (:mod:`omaha.betting`,
:mod:`omaha.showdown`, :mod:`omaha.award`) and :class:`~omaha.hand.Hand` change it; views,
snapshots and PHH export read it.

Undo works by saved state, the way python-chess keeps a move stack: before each action the
hand pushes an :data:`UndoRecord` (see :meth:`HandState._push`) and :meth:`HandState._pop`
puts every field back from it. A record is small because the state changes little per
action: one player's numbers change in place, and every list that changes for several players
at once (a new street's bets, the showdown's order, the final stacks) is replaced by a new
list, never edited, so the record keeps the old list itself.

>>> import random
>>> from omaha.config import GameConfig
>>> from omaha.hand import Hand
>>> hand = Hand(GameConfig.no_limit(small_blind=1, big_blind=2),
...             stacks={1: 100, 2: 100}, button=1, rng=random.Random(3))
>>> branch = hand.copy()          # an independent hand in the same state
>>> branch.fold(); branch.is_over, hand.is_over
(True, False)
>>> branch.undo(); branch.is_over, branch.to_act, branch.events == hand.events
(False, 1, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

if TYPE_CHECKING:
    from omaha.betting import BettingRound, LegalActions
    from omaha.config import GameConfig
    from omaha.showdown import HandResult, ShowdownState
    from omaha.states import RakeRule
    from omahacore.pots import Settlement

__all__ = ["HandState", "UndoRecord"]

NOT_YET: list[int] = []   # the showdown order and shown hands before the showdown: shared,
                            # never edited (the showdown replaces them)

UndoRecord = tuple[Any, ...]
"""What one action changed, to put it back: see :meth:`HandState._push` for the layout."""



class HandState:
    """The slots of a hand: its whole state, in one place.

    Players are indices 0..n-1 in seat order (clockwise). Per player: ``_stacks`` (behind),
    ``_bets`` (this round), ``_contrib`` (this hand), ``_status``, ``_acted`` (this round),
    ``_holes``. ``_dead`` is the big blind ante (table money), ``_pot`` every chip put in,
    ``_live``/``_active`` how many have not folded / can still act, ``_to_act`` the index to
    act (-1: nobody), ``_round`` the betting round's facts, ``_log`` the event log as raw
    tuples ``(EventClass, *fields)``, ``_undo`` one :data:`UndoRecord` per action taken.

    Lists that hold one number per player (``_stacks``, ``_bets``, ``_contrib``,
    ``_status``, ``_acted``) are edited in place only at the index of the player acting;
    any change to several players at once replaces the list (so undo records can keep it).
    ``_board`` is a tuple, replaced as it grows; ``_log`` only grows.
    """

    __slots__ = (
        "_acted", "_active", "_bb", "_bets", "_board", "_button", "_contrib", "_dead",
        "_deck", "_holes", "_legal", "_live", "_log", "_manual", "_n", "_order",
        "_pot", "_rake", "_result", "_round", "_sb", "_settlement",
        "_showdown_state", "_shown", "_stacks", "_status", "_street", "_strengths", "_to_act",
        "_undo", "config", "seats",
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
    _board: tuple[int, ...]
    _deck: bytes
    _street: int
    _to_act: int
    _round: BettingRound
    _legal: tuple[int, LegalActions]   # (log length when computed, what legal_actions said)
    _pot: int
    _live: int
    _active: int
    _log: list[tuple[Any, ...]]
    _undo: list[UndoRecord]
    _rake: RakeRule | None
    _manual: bool
    _order: list[int]
    _shown: list[bool]
    _strengths: tuple[list[int], list[int] | None] | None
    _showdown_state: ShowdownState | None
    _settlement: Settlement | None
    _result: HandResult | None

    def copy(self) -> Self:
        """An independent copy of this hand in its current state, without the undo history
        (its :meth:`~omaha.hand.Hand.undo` can take back only actions made on the copy).

        The lists edited in place are copied once; what never changes after the deal (the
        dealt sequence, the hole cards, the config) and what is replaced rather than edited
        (the betting round, the showdown's progress) is shared.
        """
        other = object.__new__(type(self))
        other.config, other.seats, other._n = self.config, self.seats, self._n
        other._button, other._sb, other._bb = self._button, self._sb, self._bb
        other._deck, other._holes, other._dead = self._deck, self._holes, self._dead
        other._rake, other._manual, other._strengths = self._rake, self._manual, self._strengths
        other._settlement, other._result = self._settlement, self._result
        other._street, other._to_act, other._pot = self._street, self._to_act, self._pot
        other._live, other._active, other._legal = self._live, self._active, self._legal
        # Replaced, never edited (see the class docstring): shared.
        other._round, other._showdown_state = self._round, self._showdown_state
        other._board = self._board
        other._order, other._shown = self._order, self._shown
        other._stacks = self._stacks[:]
        other._bets = self._bets[:]
        other._contrib = self._contrib[:]
        other._status = self._status[:]
        other._acted = self._acted[:]
        other._log = self._log[:]
        other._undo = []
        return other

    def _push(self, i: int) -> None:
        """Record the state before player ``i`` acts (the action is checked legal already).

        The record holds player ``i``'s numbers, the per-player lists themselves (a later
        change to several players replaces them, so these stay as they are now), the board
        (a tuple), the length of the log, the street and counters, the betting round
        (replaced, never edited, by bets and new streets), and at showdown its progress
        (replaced, never edited, by show and muck). The player to act is ``i`` itself.
        """
        street = self._street
        self._undo.append((
            i, self._stacks[i], self._bets[i], self._contrib[i], self._status[i],
            self._acted[i], self._stacks, self._bets, self._acted, self._status,
            self._board, len(self._log), street, self._pot, self._live, self._active,
            self._round, None if street < 4 else (self._order, self._shown,
                                                  self._showdown_state, self._strengths),
        ))

    def _pop(self) -> None:
        """Put the state back as it was before the last action (its record is removed)."""
        (i, stack, bet, contrib, status, acted, self._stacks, self._bets, self._acted,
         self._status, self._board, log, self._street, self._pot, self._live, self._active,
         self._round, showdown) = self._undo.pop()
        self._to_act = i   # every action is the turn's player's
        if showdown is None:
            self._order = self._shown = NOT_YET   # type: ignore[assignment]
            self._showdown_state = self._strengths = None
        else:
            self._order, self._shown, self._showdown_state, self._strengths = showdown
        self._stacks[i] = stack
        self._bets[i] = bet
        self._contrib[i] = contrib
        self._status[i] = status
        self._acted[i] = acted
        del self._log[log:]
        self._settlement = None
        self._result = None
        self._legal = (-1, self._legal[1])
