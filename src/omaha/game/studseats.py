"""A stud hand dealt at a :class:`~omaha.game.table.Table`: the table's seat numbers over a
:class:`~omaha.game.stud.StudHand`'s player indices (E1-E7).

A :class:`StudHand` numbers its players 0..n-1 from the deck's point of view; a table deals
seats. :class:`SeatedStudHand` is what a table (and so the arena) holds while a stud game
is played: the same queries and actions as a flop :class:`~omaha.game.hand.Hand` where they
mean the same thing (``seats``, ``button``, ``to_act``, ``stacks``, ``legal_actions``,
``fold``/``check``/``call``/``check_or_call``/``bet_or_raise`` with ``seat=``, ``view``),
each a seat number. The rules are the compiled engine's; this only renumbers.

On third street the bring-in is the player to act's ``call`` (``call_amount`` is the bring-in)
and completing is ``bet_or_raise`` to the small bet (E3).

>>> import random
>>> from omaha.game.stud import StudConfig, StudHand
>>> config = StudConfig(variant="F7S", ante=1, bring_in=2, small_bet=4)
>>> hand = SeatedStudHand.deal(config, {2: 100, 5: 100, 7: 100}, button=5, rng=random.Random(1))
>>> hand.seats, hand.button, hand.to_act == hand.seats[hand.stud.bring_in_seat]
((2, 5, 7), 5, True)
>>> hand.view(2)["players"]["5"]["down"], len(hand.view(2)["players"]["2"]["down"])
(None, 2)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from omaha.errors import SnapshotError, TableError
from omaha.game.stud import StudConfig, StudHand
from omaha.history.sealing import Key
from omaha.limits import as_int, safe_repr
from omahacore.actions import LegalActions

__all__ = ["SeatedStudHand"]


class SeatedStudHand:
    """A :class:`StudHand` whose players sit at table seats ``seats`` (ascending; player i
    at ``seats[i]``); the dealer position is the table's button (E8)."""

    __slots__ = ("_index", "seats", "stud")

    def __init__(self, stud: StudHand, seats: tuple[int, ...]) -> None:
        if len(seats) != stud.players or list(seats) != sorted(set(seats)):
            raise TableError("E1", f"a stud hand of {stud.players} players needs as many "
                             f"ascending seats, got {safe_repr(seats)}")
        self.stud = stud
        self.seats = seats
        self._index = {seat: i for i, seat in enumerate(seats)}

    @classmethod
    def deal(cls, config: StudConfig, stacks: Mapping[int, int], *, button: int,
             rng: random.Random | None = None) -> SeatedStudHand:
        """Deal a hand to the seats of ``stacks`` with the dealer position at seat
        ``button`` (one of them)."""
        seats = tuple(sorted(stacks))
        if button not in stacks:
            raise TableError("E1", f"the button {safe_repr(button)} is not a seat dealt in")
        stud = StudHand(config, [stacks[s] for s in seats], dealer=seats.index(button), rng=rng)
        return cls(stud, seats)

    def __repr__(self) -> str:
        """The game, the seats' stacks and who is to act."""
        return (f"<SeatedStudHand {self.config.variant.name} stacks={self.stacks} "
                f"to_act={self.to_act}>")

    # --- queries: the stud hand's, by seat ---------------------------------------------

    @property
    def config(self) -> StudConfig:
        """The stud game played."""
        return self.stud.config

    @property
    def button(self) -> int:
        """The dealer position's seat (E1: it orders the deal and breaks ties)."""
        return self.seats[self.stud.dealer]

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended."""
        return bool(self.stud.is_over)

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None."""
        player = self.stud.to_act
        return None if player is None else self.seats[player]

    @property
    def stacks(self) -> dict[int, int]:
        """Chips behind of each seat dealt in (after the hand: what it ends with)."""
        return dict(zip(self.seats, self.stud.stacks))

    @property
    def bets(self) -> dict[int, int]:
        """Chips each seat has in front of it on this street."""
        return dict(zip(self.seats, self.stud.bets))

    def player(self, seat: int) -> int:
        """The stud hand's player index of ``seat`` (TableError if not dealt in)."""
        index = self._index.get(as_int(seat, "seat", error=TableError, rule="T1"))
        if index is None:
            raise TableError("T1", f"seat {seat} is not dealt into this hand")
        return index

    def legal_actions(self) -> LegalActions:
        """What the seat to act may do (``seat`` a table seat)."""
        legal = self.stud.legal_actions()
        return legal._replace(seat=self.seats[legal.seat])

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` sees (None: a spectator): every seat's up cards and only its own
        down cards (E2); ``players`` keyed by seat number (as text, JSON's keys) and
        ``to_act`` a seat."""
        inner = self.stud.view(None if seat is None else self.player(seat))
        inner["players"] = {str(s): p for s, p in zip(self.seats, inner["players"])}
        inner["to_act"] = self.to_act
        inner["button"] = self.button
        return inner

    # --- actions, by seat (None: the seat to act) --------------------------------------

    def _who(self, seat: int | None) -> int | None:
        return None if seat is None else self.player(seat)

    def fold(self, *, seat: int | None = None) -> None:
        """Fold."""
        self.stud.fold(player=self._who(seat))

    def check(self, *, seat: int | None = None) -> None:
        """Check."""
        self.stud.check(player=self._who(seat))

    def call(self, *, seat: int | None = None) -> None:
        """Call (on third street, facing nothing yet: post the bring-in, E3)."""
        self.stud.call(player=self._who(seat))

    def check_or_call(self, *, seat: int | None = None) -> None:
        """Check when free, else call (or post the bring-in)."""
        self.stud.check_or_call(player=self._who(seat))

    def bet_or_raise(self, to: int, *, seat: int | None = None) -> None:
        """Bet, complete (E3) or raise to ``to`` chips this street."""
        self.stud.bet_or_raise(to, player=self._who(seat))

    # --- snapshot ----------------------------------------------------------------------

    def snapshot(self, *, key: Key = None) -> dict[str, Any]:
        """JSON-compatible data for :meth:`restore`: the seats and the stud hand's own
        snapshot (sealed as :meth:`StudHand.snapshot` seals it)."""
        return {"seats": list(self.seats), "stud": self.stud.snapshot(key=key)}

    @classmethod
    def restore(cls, data: Mapping[str, Any], *, key: Key = None
                ) -> SeatedStudHand:
        """The hand a :meth:`snapshot` describes; SnapshotError for anything else."""
        if not isinstance(data, Mapping) or set(data) != {"seats", "stud"}:
            raise SnapshotError("a seated stud hand is {'seats': [...], 'stud': {...}}")
        seats = data["seats"]
        if type(seats) is not list or any(type(s) is not int for s in seats):
            raise SnapshotError(f"a stud hand's seats are a list of ints, got {safe_repr(seats)}")
        stud = StudHand.restore(data["stud"], key=key)
        try:
            return cls(stud, tuple(seats))
        except TableError as exc:
            raise SnapshotError(str(exc)) from None
