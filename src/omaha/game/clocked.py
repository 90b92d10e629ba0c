"""A hand on the clock: drives an :class:`~omaha.game.hand.Hand` with an :class:`ActionClock` (D1-D4).

A server owns one :class:`ClockedHand` per hand and passes the time (integer milliseconds,
D4) to every call, or injects a :class:`~omaha.game.clock.TimeSource` and omits it. Every call
first brings the hand up to ``now``: turns whose deadline has passed time out, in order,
each *at its deadline*, and the next player's clock starts at that deadline (virtual time:
the outcome never depends on how often the server polls). Then the call itself applies; a
refused call changes nothing more.

>>> import random
>>> from omaha.config import GameConfig
>>> from omaha.game.hand import Hand
>>> hand = Hand(GameConfig.pot_limit(small_blind=1, big_blind=2),
...             stacks={1: 100, 2: 100, 3: 100}, button=1, rng=random.Random(7))
>>> game = ClockedHand(hand, now=0)
>>> game.clock.seat, game.clock.deadline_ms
(1, 30000)
>>> game.act(1, "call", now=4_000)
[]
>>> game.disconnect(2, now=5_000)
[]
>>> [t.to_dict() for t in game.advance(70_000)]        # seat 2 (small blind, 1 chip in)
[{'type': 'time_ran_out', 'seat': 2, 'at_ms': 34000, 'action': 'all_in'}, \
{'type': 'time_ran_out', 'seat': 3, 'at_ms': 64000, 'action': 'check'}]
>>> hand.state(2), hand.street.name, game.clock.seat, game.clock.started_ms
('protected', 'FLOP', 3, 64000)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal

from omaha.errors import IllegalActionError, SnapshotError
from omaha.game.clock import (
    ActionClock,
    ClockConfig,
    ClockError,
    ClockView,
    TimeoutAction,
    TimeSource,
)
from omaha.game.events import Event
from omaha.game.hand import Hand, RakeRule
from omaha.game.studseats import SeatedStudHand, StudView, restore_hand
from omaha.game.view import HandView, visible_events
from omaha.history.sealing import CLOCKED_HAND, Key, check_digest, refusal, sealed, unsealed
from omaha.limits import as_int, safe_repr

__all__ = [
    "ACTIONS",
    "ACTION_ALIASES",
    "CLOCK_EVENT_TYPES",
    "ActionName",
    "ClockEvent",
    "ClockedHand",
    "ClockedView",
    "Disconnected",
    "Reconnected",
    "TimeRanOut",
    "TurnStarted",
    "clock_event_from_dict",
]

CLOCKED_FORMAT = CLOCKED_HAND.name
ActionName = Literal["fold", "check", "call", "check_or_call", "bet_or_raise", "all_in", "show",
                     "muck", "bet", "raise"]
ACTIONS: tuple[ActionName, ...] = ("fold", "check", "call", "check_or_call", "bet_or_raise",
                                   "all_in", "show", "muck")
"""The :class:`Hand` methods :meth:`ClockedHand.act` calls by name."""
ACTION_ALIASES: dict[str, ActionName] = {"bet": "bet_or_raise", "raise": "bet_or_raise"}
"""Other names :meth:`ClockedHand.act` accepts: ``"bet"`` and ``"raise"`` (the words the bots
and the arena protocol use) both mean ``bet_or_raise``."""


# --- clock events --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ClockEvent(Event):
    """Base of the clock's events: something that happened to ``seat`` at ``at_ms``.

    An :class:`~omaha.game.events.Event`, so ``to_dict``/``values`` are the hand events' own; the
    clock's kinds are read back by :func:`clock_event_from_dict`.
    """

    kind: ClassVar[str] = "clock_event"
    seat: int
    at_ms: int


@dataclass(frozen=True, slots=True)
class TurnStarted(ClockEvent):
    """``seat`` is on the clock from ``at_ms`` until ``deadline_ms`` (D1)."""

    kind: ClassVar[str] = "turn_started"
    deadline_ms: int


@dataclass(frozen=True, slots=True)
class Disconnected(ClockEvent):
    """``seat`` lost its connection; its clock keeps running (D3)."""

    kind: ClassVar[str] = "disconnected"


@dataclass(frozen=True, slots=True)
class Reconnected(ClockEvent):
    """``seat`` is back; ``bonus_ms`` was added to its running action (0 if none, D3)."""

    kind: ClassVar[str] = "reconnected"
    bonus_ms: int


@dataclass(frozen=True, slots=True)
class TimeRanOut(ClockEvent):
    """``seat``'s time ran out at ``at_ms`` (its deadline) and the policy did ``action`` (D2)."""

    kind: ClassVar[str] = "time_ran_out"
    action: TimeoutAction


CLOCK_EVENT_TYPES: dict[str, type[ClockEvent]] = {
    cls.kind: cls for cls in (TurnStarted, Disconnected, Reconnected, TimeRanOut)}


def clock_event_from_dict(data: Mapping[str, Any]) -> ClockEvent:
    """The clock event a :meth:`ClockEvent.to_dict` dict describes; SnapshotError if malformed."""
    try:
        cls = CLOCK_EVENT_TYPES[data["type"]]
        names = [f.name for f in fields(cls)]
        if set(data) != {"type", *names}:
            raise SnapshotError(f"a {cls.kind} event has exactly the fields {names}")
        values = {name: data[name] for name in names}
        if "action" in values:
            values["action"] = TimeoutAction(values["action"])
        for name, value in values.items():
            if name != "action":
                values[name] = as_int(value, f"{cls.kind} field {name}", error=SnapshotError)
        return cls(**values)
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise SnapshotError(f"bad clock event {data!r}: {exc}") from exc


# --- views ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ClockedView:
    """A player's view of the hand plus the public clock state (D1, D3)."""

    hand: HandView | StudView
    clock: ClockView

    def to_dict(self) -> dict[str, Any]:
        """The hand view's dict with a ``"clock"`` entry."""
        return {**self.hand.to_dict(), "clock": self.clock.to_dict()}


# --- the driver ----------------------------------------------------------------------------

class ClockedHand:
    """A :class:`Hand` (or a stud hand at a table's seats,
    :class:`~omaha.game.studseats.SeatedStudHand`) whose player to act is always on an
    :class:`ActionClock` (D1-D4).

    ``now`` is the time the hand starts (the first player's clock starts then);
    ``disconnected`` seats start disconnected (carry them over from the previous hand).
    The timeout policy is ``config.policy`` (D2 by default).
    """

    __slots__ = ("_log", "_source", "clock", "hand")

    def __init__(self, hand: Hand | SeatedStudHand, *, now: int | None = None,
                 config: ClockConfig | None = None,
                 disconnected: frozenset[int] | set[int] = frozenset(),
                 time_source: TimeSource | None = None) -> None:
        if not isinstance(hand, (Hand, SeatedStudHand)):
            raise ClockError(f"hand must be an omaha.game.hand.Hand, got {hand!r}")
        if time_source is not None and not isinstance(time_source, TimeSource):
            raise ClockError(f"time_source needs a now() method, got {time_source!r}")
        self._source = time_source
        start = self._now(now)
        clock = ActionClock(config, disconnected=disconnected)
        for seat in clock.disconnected:
            self._check_seat(hand, seat)
        self.hand = hand
        self.clock = clock
        self._log: list[tuple[int, ClockEvent]] = []   # (hand events before it, event)
        clock.advance_to(start)
        for seat in sorted(clock.disconnected):          # so the log tells the whole story
            self._record(Disconnected(seat=seat, at_ms=start))
        self._next_turn(start)

    # -- time --
    def _now(self, now: int | None) -> int:
        if now is None:
            if self._source is None:
                raise ClockError("pass now= (integer milliseconds) or inject a time_source")
            now = self._source.now()
        # an exact int64 of milliseconds, checked against the clock by each call
        return as_int(now, "now", low=-2**63, high=2**63 - 1, error=ClockError)

    @staticmethod
    def _check_seat(hand: Hand | SeatedStudHand, seat: object) -> int:
        seat = as_int(seat, "seat", error=ClockError)
        if seat not in hand.seats:
            raise ClockError(f"seat {safe_repr(seat)} is not dealt into this hand")
        return seat

    def _record(self, event: ClockEvent) -> None:
        self._log.append((self.hand.event_count, event))

    def _next_turn(self, at: int) -> None:
        """Stop the clock and start it for the next decision, if any, at ``at``."""
        if self.clock.running:
            self.clock.stop(at)
        seat = self.hand.to_act
        if seat is not None:
            self.clock.start(seat, at)
            assert self.clock.deadline_ms is not None
            self._record(TurnStarted(seat=seat, at_ms=at, deadline_ms=self.clock.deadline_ms))

    def _time_out(self, seat: int) -> TimeoutAction:
        """Resolve ``seat``'s expired turn with the policy (D2; muck at showdown, S1). The hand
        logs :class:`~omaha.game.events.TimedOut` and then what the policy made of it."""
        return self.hand.timeout(seat=seat, policy=self.clock.config.policy)

    def advance(self, now: int | None = None) -> list[TimeRanOut]:
        """Fire every timeout due by ``now`` (each at its deadline); returns them in order."""
        now = self._now(now)
        clock, fired = self.clock, []
        while clock.expired(now):
            seat, at = clock.seat, clock.deadline_ms
            assert seat is not None and at is not None
            position = self.hand.event_count   # before the hand's own record of the timeout
            event = TimeRanOut(seat=seat, at_ms=at, action=self._time_out(seat))
            self._log.append((position, event))
            fired.append(event)
            self._next_turn(at)
        clock.advance_to(now)
        return fired

    # -- player input --
    def act(self, seat: int, action: ActionName | str, *, to: int | None = None,
            now: int | None = None) -> list[TimeRanOut]:
        """``seat`` does ``action`` (one of :data:`ACTIONS` or :data:`ACTION_ALIASES`; ``to``
        for ``bet_or_raise``/``bet``/``raise``).

        Timeouts due by ``now`` fire first and are returned. If ``seat``'s own time ran out,
        :class:`IllegalActionError` (rule D2) says so and the timeout stands.
        """
        if type(action) is not str:
            raise IllegalActionError("B2", f"action must be a str, got {type(action).__name__}")
        action = ACTION_ALIASES.get(action, action)
        if action not in ACTIONS:
            raise IllegalActionError(
                "B2", f"unknown action {action!r}; expected one of {ACTIONS + tuple(ACTION_ALIASES)}")
        if (to is None) != (action != "bet_or_raise"):
            raise IllegalActionError("B2", "give to= with bet_or_raise, and only with it")
        self._check_seat(self.hand, seat)
        now = self._now(now)
        fired = self.advance(now)
        late = [t for t in fired if t.seat == seat]
        if late:   # meant for the decision that expired, even if seat is to act again
            raise IllegalActionError("D2", f"seat {seat}'s time ran out at {late[-1].at_ms} ms "
                                     f"({late[-1].action.value}); the action came too late")
        method = getattr(self.hand, action)
        if to is None:
            method(seat=seat)
        else:
            method(to, seat=seat)
        self._next_turn(now)
        return fired

    def disconnect(self, seat: int, now: int | None = None) -> list[TimeRanOut]:
        """``seat`` lost its connection; its clock keeps running (D3). Returns timeouts fired."""
        self._check_seat(self.hand, seat)
        if not self.clock.is_connected(seat):
            raise ClockError(f"seat {seat} is already disconnected")
        now = self._now(now)
        fired = self.advance(now)
        self.clock.disconnect(seat, now)
        self._record(Disconnected(seat=seat, at_ms=now))
        return fired

    def reconnect(self, seat: int, now: int | None = None) -> list[TimeRanOut]:
        """``seat`` is back: with time left on its action, 20 s more, once per action (D3).

        A player whose time ran out before ``now`` was already handled as in D2 (the timeout
        is among those returned) and gets no bonus.
        """
        self._check_seat(self.hand, seat)
        if self.clock.is_connected(seat):
            raise ClockError(f"seat {seat} is not disconnected")
        now = self._now(now)
        fired = self.advance(now)
        bonus = self.clock.reconnect(seat, now)
        self._record(Reconnected(seat=seat, at_ms=now, bonus_ms=bonus))
        return fired

    # -- output --
    def view(self, seat: int | None = None, *, now: int | None = None) -> ClockedView:
        """``seat``'s view with the clock at ``now`` (a query: call :meth:`advance` first)."""
        return ClockedView(hand=self.hand.view(seat), clock=self.clock.view(self._now(now)))

    @property
    def clock_events(self) -> tuple[ClockEvent, ...]:
        """The clock's own log: turns, disconnections, reconnections, timeouts."""
        return tuple(event for _, event in self._log)

    @property
    def events(self) -> tuple[Event | ClockEvent, ...]:
        """The hand's event log with the clock's events interleaved where they happened."""
        return tuple(self._merge(list(self.hand.events), [e for _, e in self._log]))

    def visible_events(self, seat: int | None = None) -> list[dict[str, Any]]:
        """:func:`omaha.game.view.visible_events` with the (public) clock events interleaved."""
        hand = self.hand
        seen = visible_events(hand, seat) if isinstance(hand, Hand) else \
            list(hand.view(seat).events)
        return self._merge(seen, [e.to_dict() for _, e in self._log])

    def _merge(self, hand_items: list[Any], clock_items: list[Any]) -> list[Any]:
        out, done = [], 0
        for (position, _), item in zip(self._log, clock_items):
            out.extend(hand_items[done:position])
            out.append(item)
            done = position
        out.extend(hand_items[done:])
        return out

    def snapshot(self, *, key: Key = None) -> dict[str, Any]:
        """JSON-compatible data (hand snapshot, clock, clock log) for :meth:`restore`; the
        hand's snapshot is digested, or signed with ``key`` (see :mod:`omaha.history.snapshot`)."""
        return sealed(CLOCKED_HAND, {"hand": self.hand.snapshot(key=key),
                                     "clock": self.clock.to_dict(),
                                     "clock_events": [[position, event.to_dict()]
                                                      for position, event in self._log]}, key)

    @classmethod
    def restore(cls, data: Mapping[str, Any], *, rake: RakeRule | None = None,
                time_source: TimeSource | None = None,
                key: Key = None) -> ClockedHand:
        """The clocked hand a :meth:`snapshot` describes (``rake`` as at creation, ``key``
        as at the snapshot)."""
        data = unsealed(data, CLOCKED_HAND, key)   # its digest is checked last, below
        try:
            hand = restore_hand(data["hand"], rake=rake, key=key)
            clock = ActionClock.from_dict(data["clock"])
            log = [(position, clock_event_from_dict(item)) for position, item in data["clock_events"]]
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, SnapshotError):
                raise
            raise refusal("bad", what=CLOCKED_HAND.what, error=exc) from exc
        positions = [as_int(position, "a clock event's position", error=SnapshotError)
                     for position, _ in log]
        if positions != sorted(positions) \
                or (positions and not 0 <= positions[0] <= positions[-1] <= hand.event_count):
            raise SnapshotError("clock event positions must rise within the hand's event log")
        log = list(zip(positions, [event for _, event in log]))
        if clock.seat != hand.to_act:
            raise SnapshotError(f"the clock runs for seat {clock.seat} but seat {hand.to_act} "
                                "is to act")
        check_digest(data, key)   # last, so that the checks above name what is inconsistent
        game = cls.__new__(cls)
        game.hand, game.clock, game._log, game._source = hand, clock, log, time_source
        return game

    def __repr__(self) -> str:
        return (f"<ClockedHand seats={self.hand.seats} to_act={self.hand.to_act} "
                f"deadline_ms={self.clock.deadline_ms}>")
