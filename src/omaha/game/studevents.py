"""The event log of a stud hand (E1-E7): the flop games' events, and two of stud's own.

A stud hand's log uses :mod:`omaha.game.events`' classes wherever they fit: the antes and the
bring-in are :class:`~omaha.game.events.Posted` (``what`` ``"ante"`` or ``"bring_in"``), then
:class:`~omaha.game.events.Folded`, :class:`~omaha.game.events.Checked`,
:class:`~omaha.game.events.Called`, :class:`~omaha.game.events.BetOrRaised` (a completion is a
bet to the small bet, E3), the shared card of a short deck (E2) is
:class:`~omaha.game.events.BoardDealt`, the hands at a showdown
:class:`~omaha.game.events.Shown` and the end :class:`~omaha.game.events.HandEnded`. Stud adds
:class:`StudStarted` (the game, the stacks and the dealer) and :class:`StudDealt` (one
player's cards of one street, down and up). Seats are the hand's player indices 0..n-1.

>>> from omaha.game.studconfig import StudConfig
>>> ev = StudDealt(seat=1, street=0, down=(50, 47), up=(0,))
>>> ev.to_dict()
{'type': 'stud_dealt', 'seat': 1, 'street': 0, 'down': 'AhKs', 'up': '2c'}
>>> stud_event_from_dict(ev.to_dict()) == ev
True
>>> start = StudStarted(StudConfig(variant="FR", small_bet=4, ante=1), (50, 60), dealer=1)
>>> stud_event_from_dict(start.to_dict()) == start
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from omaha.cards import DECK, Card, parse_cards
from omaha.errors import OmahaError, SnapshotError
from omaha.game.events import (
    BetOrRaised,
    BoardDealt,
    Called,
    Checked,
    Event,
    Folded,
    HandEnded,
    Posted,
    Shown,
    event_from_dict,
)
from omaha.game.studconfig import StudConfig
from omahacore.cards import format_cards

__all__ = ["STUD_EVENT_TYPES", "StudDealt", "StudStarted", "stud_event_from_dict"]


@dataclass(frozen=True, slots=True)
class StudStarted(Event):
    """A stud hand began: the game, the players' stacks (player 0 first) and the dealer
    position (the deal and the antes start on its left, E1)."""

    kind: ClassVar[str] = "stud_started"
    config: StudConfig
    stacks: tuple[int, ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class StudDealt(Event):
    """Player ``seat``'s cards of betting street ``street`` (0 the first, E2): ``down`` seen
    by that player alone, ``up`` by everyone, in the order dealt (down cards first)."""

    kind: ClassVar[str] = "stud_dealt"
    seat: int
    street: int
    down: tuple[Card, ...]
    up: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "down", tuple([DECK[c] for c in self.down]))
        object.__setattr__(self, "up", tuple([DECK[c] for c in self.up]))

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible dict, cards as text."""
        return {"type": self.kind, "seat": self.seat, "street": self.street,
                "down": format_cards(self.down), "up": format_cards(self.up)}


STUD_EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls for cls in (StudStarted, StudDealt, Posted, Folded, Checked, Called,
                              BetOrRaised, BoardDealt, Shown, HandEnded)}
"""The event class of each ``"type"`` a stud log holds (:func:`stud_event_from_dict`)."""


def stud_event_from_dict(data: Mapping[str, Any]) -> Event:
    """The stud event a ``to_dict`` dict describes; :class:`SnapshotError` naming the fault
    for anything else (another type, a missing or unknown field, a bad value)."""
    if not isinstance(data, Mapping):
        raise SnapshotError(f"an event is a dict, got {type(data).__name__}")
    kind = data.get("type")
    cls = STUD_EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise SnapshotError(f"event type {kind!r} is not a stud event "
                            f"({', '.join(sorted(STUD_EVENT_TYPES))})")
    if cls not in (StudStarted, StudDealt):
        return event_from_dict(data)
    names = {f.name for f in fields(cls)}
    if set(data) != names | {"type"}:
        raise SnapshotError(f"a {kind} event has the fields {sorted(names)}, got "
                            f"{sorted(set(data) - {'type'})}")
    try:
        if cls is StudDealt:
            for name in ("seat", "street"):
                if type(data[name]) is not int:
                    raise SnapshotError(f"{kind} {name} must be an int, got {data[name]!r}")
            return StudDealt(data["seat"], data["street"], tuple(parse_cards(data["down"])),
                             tuple(parse_cards(data["up"])))
        stacks, dealer = data["stacks"], data["dealer"]
        if type(stacks) is not list or any(type(s) is not int for s in stacks):
            raise SnapshotError(f"stud_started stacks must be a list of ints, got {stacks!r}")
        if type(dealer) is not int:
            raise SnapshotError(f"stud_started dealer must be an int, got {dealer!r}")
        return StudStarted(StudConfig.from_dict(data["config"]), tuple(stacks), dealer)
    except SnapshotError:
        raise
    except (OmahaError, TypeError, ValueError) as exc:
        raise SnapshotError(f"bad {kind} event: {exc}") from exc
