"""The event log of a hand: everything that happened, in order, enough to replay it exactly.

Each event is a small frozen dataclass that round-trips through JSON-compatible dicts
(cards as text). Seats are table seat numbers. The log is the omniscient record (it holds
every hole card and burn); players get views (:mod:`omaha.game.view`), never the log.

>>> ev = BetOrRaised(seat=3, to=800)
>>> ev.to_dict()
{'type': 'bet_or_raised', 'seat': 3, 'to': 800}
>>> event_from_dict(HoleDealt(seat=1, cards=(50, 47)).to_dict())
HoleDealt(seat=1, cards=(Card('Ah'), Card('Ks')))

For PHH export: :class:`HoleDealt` is ``d dh``, :class:`BoardDealt` ``d db``,
:class:`Folded` ``pN f``, :class:`Checked`/:class:`Called` ``pN cc``, :class:`BetOrRaised`
``pN cbr X``, :class:`Shown`/:class:`Mucked` ``pN sm``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, ClassVar, Protocol

from omaha.cards import DECK, Card, parse_cards
from omaha.config import GameConfig
from omaha.errors import SnapshotError
from omahacore import engine
from omahacore.cards import format_card, format_cards, parse_card

__all__ = [
    "Decides",
    "EVENT_OF_CODE",
    "EVENT_TYPES",
    "BetOrRaised",
    "BoardDealt",
    "Called",
    "CardBurned",
    "Checked",
    "Event",
    "Folded",
    "HandEnded",
    "HandStarted",
    "HoleDealt",
    "Mucked",
    "Posted",
    "PotAwarded",
    "ProtectedAllIn",
    "Returned",
    "Shown",
    "TimedOut",
    "event_from_dict",
    "replay_decision",
]


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event; ``kind`` is its ``"type"`` in dicts."""

    kind: ClassVar[str] = "event"

    def values(self) -> tuple[Any, ...]:
        """The field values in order (``type(ev)(*ev.values()) == ev``)."""
        return tuple(getattr(self, f.name) for f in fields(self))

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible dict: ``{"type": kind, field: value, ...}`` with cards as text."""
        out: dict[str, Any] = {"type": self.kind}
        for f in fields(self):
            out[f.name] = _encode(f.name, getattr(self, f.name))
        return out


def _cards(event: Event, *names: str) -> None:
    """Store card fields as :class:`~omaha.cards.Card` objects (equal to their ints)."""
    for name in names:
        value = getattr(event, name)
        object.__setattr__(event, name, DECK[value] if name == "card"
                           else tuple(DECK[c] for c in value))


def _encode(name: str, value: Any) -> Any:
    if name == "cards":
        return format_cards(value)
    if name == "card":
        return format_card(value)
    if name == "config":
        return value.to_dict()
    if isinstance(value, Enum):   # the clock events' TimeoutAction
        return value.value
    if isinstance(value, tuple):
        return [list(v) if isinstance(v, tuple) else v for v in value]
    return value


def _decode(name: str, value: Any) -> Any:
    if name == "cards":
        return tuple(parse_cards(value))
    if name == "card":
        return parse_card(value)
    if name == "config":
        return GameConfig.from_dict(value)
    if isinstance(value, list):
        return tuple(tuple(v) if isinstance(v, list) else v for v in value)
    return value


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand began: the game, the seats dealt in (clockwise), their stacks and positions."""

    kind: ClassVar[str] = "hand_started"
    config: GameConfig
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    button: int
    small_blind: int
    big_blind: int
    live_blinds: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Posted(Event):
    """A forced bet: ``what`` is ``ante``, ``small_blind``, ``big_blind``, ``big_blind_ante``
    or ``live_blind`` (T5); ``amount`` is what was actually posted (less when all-in)."""

    kind: ClassVar[str] = "posted"
    seat: int
    what: str
    amount: int


@dataclass(frozen=True, slots=True)
class HoleDealt(Event):
    """A player's hole cards (dealt one at a time from the small blind, T6)."""

    kind: ClassVar[str] = "hole_dealt"
    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _cards(self, "cards")


@dataclass(frozen=True, slots=True)
class CardBurned(Event):
    """A burn card before the flop, turn or river (T6)."""

    kind: ClassVar[str] = "card_burned"
    card: Card

    def __post_init__(self) -> None:
        _cards(self, "card")


@dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    """Board cards opening ``street`` (1 flop, 2 turn, 3 river)."""

    kind: ClassVar[str] = "board_dealt"
    street: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _cards(self, "cards")


@dataclass(frozen=True, slots=True)
class Folded(Event):
    """The player folded (B2)."""

    kind: ClassVar[str] = "folded"
    seat: int


@dataclass(frozen=True, slots=True)
class Checked(Event):
    """The player checked (B2)."""

    kind: ClassVar[str] = "checked"
    seat: int


@dataclass(frozen=True, slots=True)
class Called(Event):
    """The player called, adding ``amount`` chips (all-in when short, B8)."""

    kind: ClassVar[str] = "called"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class BetOrRaised(Event):
    """The player bet or raised to a total of ``to`` this round."""

    kind: ClassVar[str] = "bet_or_raised"
    seat: int
    to: int


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """The player's clock ran out; the next event is what D2 made of it."""

    kind: ClassVar[str] = "timed_out"
    seat: int


@dataclass(frozen=True, slots=True)
class ProtectedAllIn(Event):
    """The player is all-in for what they put in, keeping the rest of their stack (D2)."""

    kind: ClassVar[str] = "protected_all_in"
    seat: int


@dataclass(frozen=True, slots=True)
class Shown(Event):
    """The player showed their hand at showdown (S1)."""

    kind: ClassVar[str] = "shown"
    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _cards(self, "cards")


@dataclass(frozen=True, slots=True)
class Mucked(Event):
    """The player mucked a hand that could not win (S1)."""

    kind: ClassVar[str] = "mucked"
    seat: int


@dataclass(frozen=True, slots=True)
class Returned(Event):
    """An uncalled bet went back to its owner (P1)."""

    kind: ClassVar[str] = "returned"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """Pot ``pot`` (0 = main) of ``amount`` chips after ``rake``: its eligible seats and the
    ``(seat, chips)`` shares of the high and low halves (P2, S2-S4)."""

    kind: ClassVar[str] = "pot_awarded"
    pot: int
    amount: int
    rake: int
    eligible: tuple[int, ...]
    high: tuple[tuple[int, int], ...]
    low: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over: final stacks in the order of :class:`HandStarted` seats."""

    kind: ClassVar[str] = "hand_ended"
    stacks: tuple[int, ...]


# The event each of the compiled engine's log codes stands for, by the code's name there
# (omahacore.engine.EV_*, the first item of every log entry): the one Python statement of the
# code table. Its codes are read from the engine, never written here.
_EVENT_OF_CODE_NAME: dict[str, type[Event]] = {
    "EV_STARTED": HandStarted, "EV_POSTED": Posted, "EV_HOLES": HoleDealt,
    "EV_BURNED": CardBurned, "EV_BOARD": BoardDealt, "EV_FOLDED": Folded,
    "EV_CHECKED": Checked, "EV_CALLED": Called, "EV_RAISED": BetOrRaised,
    "EV_TIMED_OUT": TimedOut, "EV_PROTECTED": ProtectedAllIn, "EV_SHOWN": Shown,
    "EV_MUCKED": Mucked, "EV_RETURNED": Returned, "EV_POT_AWARDED": PotAwarded,
    "EV_ENDED": HandEnded,
}


def _by_code(event_of_name: Mapping[str, type[Event]]) -> tuple[type[Event], ...]:
    """The events indexed by the engine's code for each (codes run 0, 1, ... so that a log
    entry's code indexes the tuple)."""
    by_code = {getattr(engine, name): cls for name, cls in event_of_name.items()}
    if sorted(by_code) != list(range(len(event_of_name))):
        raise ImportError(f"omahacore.engine's EV_* codes are not 0..{len(event_of_name) - 1}: "
                          f"{sorted(by_code)}")
    return tuple([by_code[code] for code in range(len(by_code))])


EVENT_OF_CODE: tuple[type[Event], ...] = _by_code(_EVENT_OF_CODE_NAME)
"""The event class of each engine log code: ``EVENT_OF_CODE[omahacore.engine.EV_FOLDED]``
is :class:`Folded`.

>>> from omahacore.engine import EV_RAISED
>>> EVENT_OF_CODE[EV_RAISED].__name__
'BetOrRaised'
"""

EVENT_TYPES: dict[str, type[Event]] = {cls.kind: cls for cls in EVENT_OF_CODE}
"""The event class of each ``"type"`` in dicts (:func:`event_from_dict`)."""


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event a :meth:`Event.to_dict` dict describes; :class:`SnapshotError` if malformed."""
    try:
        cls = EVENT_TYPES[data["type"]]
        names = [f.name for f in fields(cls)]
        extra = set(data) - set(names) - {"type"}
        if extra:
            raise SnapshotError(f"unknown fields {sorted(extra)} in {data['type']} event")
        return cls(**{name: _decode(name, data[name]) for name in names if name in data})
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise SnapshotError(f"bad event data {data!r}: {exc}") from exc


class Decides(Protocol):
    """A hand that takes decisions for a given seat: ``Hand`` and ``StudHand`` both do."""

    def fold(self, *, seat: int | None = None) -> object: ...
    def check(self, *, seat: int | None = None) -> object: ...
    def call(self, *, seat: int | None = None) -> object: ...
    def bet_or_raise(self, to: int, *, seat: int | None = None) -> object: ...


def replay_decision(hand: Decides, event: Event) -> bool:
    """Play a logged decision (:class:`Folded`, :class:`Checked`, :class:`Called`,
    :class:`BetOrRaised`) on ``hand`` for the event's seat; False for any other event (the
    caller replays what else its game logs). One statement for every replay, flop or stud.

    >>> from omaha import GameConfig, Hand
    >>> hand = Hand(GameConfig(big_blind=2), stacks={1: 200, 2: 200}, button=1)
    >>> replay_decision(hand, Called(seat=1, amount=1)), hand.to_act
    (True, 2)
    >>> replay_decision(hand, HandEnded(stacks=(200, 200))), hand.to_act
    (False, 2)
    """
    if isinstance(event, Folded):
        hand.fold(seat=event.seat)
    elif isinstance(event, Checked):
        hand.check(seat=event.seat)
    elif isinstance(event, Called):
        hand.call(seat=event.seat)
    elif isinstance(event, BetOrRaised):
        hand.bet_or_raise(event.to, seat=event.seat)
    else:
        return False
    return True
