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
>>> mine = hand.view(2).to_dict()
>>> [(p["seat"], p["down"], len(p["up"])) for p in mine["players"]][:2]  # own down cards only
[(2, 'Qd6s', 2), (5, None, 2)]
>>> [e["type"] for e in hand.view(5).events][:3], hand.events[4].seat  # dealt left of 5
(['stud_hand_started', 'posted', 'posted'], 7)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from omaha.cards import DECK, Card
from omaha.errors import SnapshotError, TableError
from omaha.game.clock import TimeoutAction, TimeoutPolicy
from omaha.game.events import Event
from omaha.game.hand import Hand, RakeRule
from omaha.game.view import event_for_seat
from omaha.game.stud import StudConfig, StudHand
from omaha.history.sealing import Key
from omaha.limits import as_int, safe_repr
from omahacore.actions import LegalActions
from omahacore.cards import format_cards

__all__ = ["STREET_NAMES", "SeatedStudHand", "StudHandStarted", "StudView", "restore_hand"]


@dataclass(frozen=True, slots=True)
class StudHandStarted(Event):
    """A stud hand began at a table: the game, the seats dealt in (ascending), their stacks
    and the button's seat (the dealer position, E1). It stands first in a
    :class:`SeatedStudHand`'s log where the stud hand's own :class:`StudStarted
    <omaha.game.studevents.StudStarted>` numbers players instead of seats."""

    kind: ClassVar[str] = "stud_hand_started"
    config: StudConfig
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    button: int

STREET_NAMES = ("third", "fourth", "fifth", "sixth", "seventh")
"""The betting streets by number (five-card stud: second to fifth, named as the 3rd..6th card
of seven-card stud would be, so ``street`` 0 is always the first betting round)."""


@dataclass(frozen=True, slots=True)
class StudView:
    """A stud hand as one seat sees it (``seat`` None: a spectator): ``players`` in seat order,
    each with its ``up`` cards and, for the viewer alone, its ``down`` cards (E2); ``legal``
    only when the viewer is to act; ``events`` the log with others' down cards hidden."""

    seat: int | None
    variant: str
    street: int
    board: tuple[int, ...]
    button: int
    to_act: int | None
    pot_total: int
    players: tuple[dict[str, Any], ...]
    legal: LegalActions | None
    is_over: bool
    events: tuple[dict[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form, ready to send to the viewer (without the events, which the
        arena streams on their own)."""
        return {"seat": self.seat, "variant": self.variant,
                "street": STREET_NAMES[min(self.street, len(STREET_NAMES) - 1)],
                "board": format_cards(self.board), "button": self.button,
                "to_act": self.to_act, "pot_total": self.pot_total,
                "players": [dict(p) for p in self.players],
                "legal": None if self.legal is None else self.legal.to_dict(),
                "is_over": self.is_over}


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

    @property
    def street(self) -> int:
        """The betting street, 0 the first (E2)."""
        return int(self.stud.street)

    @property
    def pot_total(self) -> int:
        """Chips in the pot, the bets of this street included."""
        return int(self.stud.pot)

    @property
    def board(self) -> tuple[Card, ...]:
        """The shared last card when the deck ran short (E2), else nothing."""
        community = self.stud.community
        return () if community is None else (DECK[community],)

    @property
    def events(self) -> tuple[Event, ...]:
        """The stud hand's event log (:mod:`omaha.game.studevents`) with every ``seat`` a
        table seat, and :class:`StudHandStarted` (the seats and the button) first in place of
        the stud hand's own start."""
        seats = self.seats
        start, *rest = self.stud.events
        return (StudHandStarted(self.config, seats, tuple(self.stud.start.stacks), self.button),
                *(replace(event, seat=seats[event.seat])  # type: ignore[attr-defined,call-arg]
                  if any(f.name == "seat" for f in fields(event)) else event
                  for event in rest))

    @property
    def event_count(self) -> int:
        """``len(hand.events)``."""
        return len(self.stud.events)

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """Every card of ``seat``, down and up, as dealt (server side)."""
        return tuple([DECK[card] for card, _ in self.stud.cards(self.player(seat))])

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

    def view(self, seat: int | None = None) -> StudView:
        """What ``seat`` sees (None: a spectator): every seat's up cards and only its own
        down cards (E2, as :meth:`StudHand.view` rules), all by seat number."""
        inner = self.stud.view(None if seat is None else self.player(seat))
        players = tuple(
            {"seat": s, "stack": p["stack"], "bet": p["bet"],
             "state": "folded" if p["folded"] else "active", "up": "".join(p["up"]),
             "down": None if p["down"] is None else "".join(p["down"])}
            for s, p in zip(self.seats, inner["players"]))
        to_act = self.to_act
        legal = self.legal_actions() if to_act is not None and to_act == seat else None
        events = tuple(event_for_seat(event.to_dict(), seat) for event in self.events)
        return StudView(seat=seat, variant=self.config.variant.name, street=self.street,
                        board=self.board, button=self.button, to_act=to_act,
                        pot_total=self.pot_total, players=players, legal=legal,
                        is_over=self.is_over, events=events)

    # --- actions, by seat (None: the seat to act) --------------------------------------

    def _who(self, seat: int | None) -> int | None:
        return None if seat is None else self.player(seat)

    def fold(self, *, seat: int | None = None) -> None:
        """Fold."""
        self.stud.fold(seat=self._who(seat))

    def check(self, *, seat: int | None = None) -> None:
        """Check."""
        self.stud.check(seat=self._who(seat))

    def call(self, *, seat: int | None = None) -> None:
        """Call (on third street, facing nothing yet: post the bring-in, E3)."""
        self.stud.call(seat=self._who(seat))

    def check_or_call(self, *, seat: int | None = None) -> None:
        """Check when free, else call (or post the bring-in)."""
        self.stud.check_or_call(seat=self._who(seat))

    def bet_or_raise(self, to: int, *, seat: int | None = None) -> None:
        """Bet, complete (E3) or raise to ``to`` chips this street."""
        self.stud.bet_or_raise(to, seat=self._who(seat))

    def timeout(self, *, seat: int | None = None,
                policy: TimeoutPolicy = TimeoutPolicy.CHECK_PROTECT_FOLD) -> TimeoutAction:
        """The player to act ran out of time (D2): ``policy`` decides between checking and
        folding (stud protects no all-in: only the ante is in); the forced bring-in, which
        may not fold (E3), is posted and counts as the check."""
        if not isinstance(policy, TimeoutPolicy):
            raise TableError("D2", f"policy must be a TimeoutPolicy, got {safe_repr(policy)}")
        if seat is not None and seat != self.to_act:
            raise TableError("D2", f"seat {safe_repr(seat)} is not to act")
        legal = self.stud.legal_actions()
        action = policy.decide(can_check=legal.can_check, has_chips_in=False)
        if action is TimeoutAction.CHECK or not legal.can_fold:
            self.stud.check_or_call()
            return TimeoutAction.CHECK
        self.stud.fold()
        return TimeoutAction.FOLD

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


def restore_hand(data: Mapping[str, Any], *, rake: RakeRule | None = None,
                 key: Key = None) -> Hand | SeatedStudHand:
    """The hand a table's (or a clocked hand's) snapshot holds: a stud hand's (``seats`` and
    ``stud``, :meth:`SeatedStudHand.restore`) or a flop :class:`Hand`'s (``rake`` as at
    creation)."""
    if isinstance(data, Mapping) and "stud" in data:
        return SeatedStudHand.restore(data, key=key)
    return Hand.restore(data, rake=rake, key=key)
