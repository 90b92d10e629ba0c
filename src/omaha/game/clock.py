"""The action clock and disconnection policy (rules D1-D4).

Time is an integer count of milliseconds, always passed in (D4): the engine never reads the
wall clock. A server passes ``now`` to every call, or injects a :class:`TimeSource` (such as
:class:`MonotonicClock`, or :class:`ManualClock` in tests) and omits it.

- :class:`ClockConfig`: the durations (D1: 10 s, then a 20 s countdown; D3: 20 s bonus on
  reconnection) and the :class:`TimeoutPolicy` (D2 by default).
- :class:`ActionClock`: who is on the clock, the deadline, whether the reconnection bonus of
  this action was used, and who is disconnected. Pure state, JSON round-trip, no hand logic.

Times are *virtual*: a timeout happens at its deadline, not when the server next polls, so the
next player's turn starts at that deadline and the outcome never depends on polling rate.

>>> clock = ActionClock(ClockConfig())
>>> clock.start(3, now=0)
>>> clock.view(5_000).phase, clock.view(10_000).phase, clock.deadline_ms
('base', 'countdown', 30000)
>>> clock.disconnect(3, now=12_000)
>>> clock.reconnect(3, now=25_000)       # 5 s were left: +20 s, once per action
20000
>>> clock.deadline_ms, clock.expired(49_999), clock.expired(50_000)
(50000, False, True)
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol, runtime_checkable

from omaha.errors import ClockError
from omaha.limits import as_int

__all__ = [
    "ActionClock",
    "ClockConfig",
    "ClockError",
    "ClockView",
    "ManualClock",
    "MonotonicClock",
    "TimeSource",
    "TimeoutAction",
    "TimeoutPolicy",
]


def _ms(value: object, what: str, *, minimum: int | None = None) -> int:
    """``value`` as an exact int of milliseconds (bools and floats refused)."""
    return as_int(value, what, low=minimum, error=ClockError)


# --- time sources (D4) ---------------------------------------------------------------------

@runtime_checkable
class TimeSource(Protocol):
    """Anything with ``now() -> int`` milliseconds, never decreasing."""

    def now(self) -> int:
        """The current time in integer milliseconds."""
        ...


class ManualClock:
    """A time source moved by hand, for tests, replays and simulations.

    >>> t = ManualClock(1_000)
    >>> t.advance(250); t.now()
    1250
    """

    def __init__(self, start_ms: int = 0) -> None:
        self._now = _ms(start_ms, "start_ms")

    def now(self) -> int:
        """The time last set."""
        return self._now

    def set(self, now_ms: int) -> None:
        """Move to ``now_ms`` (never backwards)."""
        self._now = _ms(now_ms, "now_ms", minimum=self._now)

    def advance(self, delta_ms: int) -> None:
        """Move forward by ``delta_ms``."""
        self._now += _ms(delta_ms, "delta_ms", minimum=0)

    def __repr__(self) -> str:
        return f"ManualClock({self._now})"


class MonotonicClock:
    """The operating system's monotonic clock in milliseconds, for servers to inject."""

    def now(self) -> int:
        """``time.monotonic_ns() // 1_000_000``."""
        return time.monotonic_ns() // 1_000_000

    def __repr__(self) -> str:
        return "MonotonicClock()"


# --- policy and config (D1-D3) -------------------------------------------------------------

class TimeoutAction(str, Enum):
    """What a timeout did to the player (D2); ``MUCK`` for a showdown decision left open.

    A ``str`` too, equal to its value, so ``hand.timeout() == "fold"`` reads as it always
    did while the type goes end to end (policy, hand, clock events).

    >>> TimeoutAction.FOLD == "fold", str(TimeoutAction.ALL_IN)
    (True, 'all_in')
    """

    CHECK = "check"
    ALL_IN = "all_in"   # protected: keeps the rest of the stack, plays for pots up to here
    FOLD = "fold"
    MUCK = "muck"       # only hands that cannot win are asked to show or muck (S1)

    def __str__(self) -> str:
        return str(self.value)


class TimeoutPolicy(Enum):
    """How a timeout is resolved.

    ``CHECK_PROTECT_FOLD`` is D2 (the default): check when free; else, with chips already in
    the pot this hand (blinds count), a protected all-in for what is in; else fold.
    ``CHECK_FOLD`` is the common modern room rule, and ``FOLD`` folds even when a check is free.

    >>> TimeoutPolicy.CHECK_PROTECT_FOLD.decide(can_check=False, has_chips_in=True)
    <TimeoutAction.ALL_IN: 'all_in'>
    """

    CHECK_PROTECT_FOLD = "check_protect_fold"
    CHECK_FOLD = "check_fold"
    FOLD = "fold"

    def decide(self, *, can_check: bool, has_chips_in: bool) -> TimeoutAction:
        """The consequence of a timeout for a player in this situation."""
        if self is TimeoutPolicy.FOLD:
            return TimeoutAction.FOLD
        if can_check:
            return TimeoutAction.CHECK
        if self is TimeoutPolicy.CHECK_PROTECT_FOLD and has_chips_in:
            return TimeoutAction.ALL_IN
        return TimeoutAction.FOLD


@dataclass(frozen=True)
class ClockConfig:
    """Durations in integer milliseconds and the timeout policy (D1-D3).

    >>> ClockConfig().action_ms
    30000
    >>> ClockConfig.from_dict(ClockConfig(base_ms=5_000).to_dict()) == ClockConfig(base_ms=5_000)
    True
    """

    base_ms: int = 10_000
    countdown_ms: int = 20_000
    reconnect_bonus_ms: int = 20_000
    policy: TimeoutPolicy = TimeoutPolicy.CHECK_PROTECT_FOLD

    def __post_init__(self) -> None:
        for name in ("base_ms", "countdown_ms", "reconnect_bonus_ms"):   # kept as exact ints
            object.__setattr__(self, name, _ms(getattr(self, name), name, minimum=0))
        if self.base_ms + self.countdown_ms <= 0:
            raise ClockError("base_ms + countdown_ms must be positive: a turn needs some time")
        if not isinstance(self.policy, TimeoutPolicy):
            raise ClockError(f"policy must be a TimeoutPolicy, got {self.policy!r}")

    @property
    def action_ms(self) -> int:
        """The whole time for one action before any bonus: base plus countdown."""
        return self.base_ms + self.countdown_ms

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {"base_ms": self.base_ms, "countdown_ms": self.countdown_ms,
                "reconnect_bonus_ms": self.reconnect_bonus_ms, "policy": self.policy.value}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClockConfig:
        """Inverse of :meth:`to_dict`; missing keys take the defaults."""
        if not isinstance(data, Mapping):
            raise ClockError(f"a clock config must be a mapping, got {data!r}")
        unknown = set(data) - {"base_ms", "countdown_ms", "reconnect_bonus_ms", "policy"}
        if unknown:
            raise ClockError(f"unknown clock config field(s): {', '.join(sorted(map(str, unknown)))}")
        kwargs = {k: v for k, v in data.items() if k != "policy"}
        if "policy" in data:
            try:
                kwargs["policy"] = TimeoutPolicy(data["policy"])
            except ValueError:
                raise ClockError(f"unknown timeout policy {data['policy']!r}") from None
        return cls(**kwargs)


# --- the clock state -----------------------------------------------------------------------

@dataclass(frozen=True)
class ClockView:
    """The public clock state at one moment, as players see it (D1, D3).

    ``phase`` is ``"base"`` while more than ``countdown_ms`` remain, ``"countdown"`` in the
    last ``countdown_ms`` (the visible countdown; a reconnection bonus lifts a player back out
    of it), ``"expired"`` at or after the deadline and ``"idle"`` when nobody is on the clock.
    """

    now_ms: int
    seat: int | None
    started_ms: int | None
    deadline_ms: int | None
    remaining_ms: int | None
    phase: str
    extension_used: bool
    disconnected: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {"now_ms": self.now_ms, "seat": self.seat, "started_ms": self.started_ms,
                "deadline_ms": self.deadline_ms, "remaining_ms": self.remaining_ms,
                "phase": self.phase, "extension_used": self.extension_used,
                "disconnected": list(self.disconnected)}


class ActionClock:
    """One table's action clock: the seat on the clock, its deadline, connections (D1-D4).

    Every method that takes ``now`` refuses a time earlier than one already seen. The clock
    knows nothing of the hand: the caller starts a turn when a player is to act, stops it when
    they act, and resolves an expired turn with the config's policy.
    """

    def __init__(self, config: ClockConfig | None = None, *,
                 disconnected: frozenset[int] | set[int] = frozenset()) -> None:
        self.config = config if config is not None else ClockConfig()
        if not isinstance(self.config, ClockConfig):
            raise ClockError(f"config must be a ClockConfig, got {self.config!r}")
        self._disconnected: set[int] = {self._seat(s) for s in disconnected}
        self.seat: int | None = None
        self.started_ms: int | None = None
        self.deadline_ms: int | None = None
        self.extension_used = False
        self.last_ms: int | None = None

    # -- checks --
    @staticmethod
    def _seat(seat: object) -> int:
        return as_int(seat, "seat", low=0, error=ClockError)

    def _time(self, now: object) -> int:
        """Validate ``now`` (an int not before the last time seen) without recording it."""
        return _ms(now, "now", minimum=self.last_ms)

    def _see(self, now: int) -> None:
        self.last_ms = now

    # -- queries --
    @property
    def running(self) -> bool:
        """Whether somebody is on the clock."""
        return self.seat is not None

    def is_connected(self, seat: int) -> bool:
        """Whether ``seat`` is connected (every seat is, until a disconnect)."""
        return self._seat(seat) not in self._disconnected

    @property
    def disconnected(self) -> frozenset[int]:
        """The seats currently disconnected."""
        return frozenset(self._disconnected)

    def remaining(self, now: int) -> int | None:
        """Milliseconds left to the deadline at ``now`` (0 when past), None when idle."""
        self._time(now)
        if self.deadline_ms is None:
            return None
        return max(0, self.deadline_ms - now)

    def expired(self, now: int) -> bool:
        """Whether the running turn's time is out at ``now`` (a deadline is exclusive)."""
        self._time(now)
        return self.deadline_ms is not None and now >= self.deadline_ms

    def view(self, now: int) -> ClockView:
        """The public clock state at ``now``."""
        remaining = self.remaining(now)
        if remaining is None:
            phase = "idle"
        elif remaining == 0:
            phase = "expired"
        elif remaining <= self.config.countdown_ms:
            phase = "countdown"
        else:
            phase = "base"
        return ClockView(now_ms=now, seat=self.seat, started_ms=self.started_ms,
                         deadline_ms=self.deadline_ms, remaining_ms=remaining, phase=phase,
                         extension_used=self.extension_used,
                         disconnected=tuple(sorted(self._disconnected)))

    def advance_to(self, now: int) -> None:
        """Record that time has reached ``now`` (later calls may not go back before it)."""
        self._see(self._time(now))

    # -- turns --
    def start(self, seat: int, now: int) -> None:
        """Put ``seat`` on the clock from ``now``: deadline ``now + base + countdown`` (D1)."""
        seat = self._seat(seat)
        self._time(now)
        if self.seat is not None:
            raise ClockError(f"seat {self.seat} is still on the clock; stop it first")
        self._see(now)
        self.seat, self.started_ms = seat, now
        self.deadline_ms = now + self.config.action_ms
        self.extension_used = False

    def stop(self, now: int) -> int:
        """End the running turn (the player acted, or it was resolved); returns its seat."""
        self._time(now)
        if self.seat is None:
            raise ClockError("nobody is on the clock")
        self._see(now)
        seat = self.seat
        self.seat = self.started_ms = self.deadline_ms = None
        self.extension_used = False
        return seat

    # -- connections (D3) --
    def disconnect(self, seat: int, now: int) -> None:
        """Mark ``seat`` disconnected; its clock, if running, keeps running (D3)."""
        seat = self._seat(seat)
        self._time(now)
        if seat in self._disconnected:
            raise ClockError(f"seat {seat} is already disconnected")
        self._see(now)
        self._disconnected.add(seat)

    def reconnect(self, seat: int, now: int) -> int:
        """Mark ``seat`` connected; returns the bonus granted in milliseconds (D3).

        A player on the clock with time still left (``now`` before the deadline) gets
        ``reconnect_bonus_ms`` added to the deadline, once per action. Reconnecting at or
        after the deadline, off turn, or a second time in one action grants nothing; the
        caller resolves an expired turn before reconnecting (virtual time: it timed out first).
        """
        seat = self._seat(seat)
        self._time(now)
        if seat not in self._disconnected:
            raise ClockError(f"seat {seat} is not disconnected")
        self._see(now)
        self._disconnected.discard(seat)
        if (seat != self.seat or self.extension_used or self.deadline_ms is None
                or now >= self.deadline_ms):
            return 0
        self.extension_used = True
        self.deadline_ms += self.config.reconnect_bonus_ms
        return self.config.reconnect_bonus_ms

    # -- snapshot --
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot; :meth:`from_dict` restores an equal clock."""
        return {"config": self.config.to_dict(), "seat": self.seat,
                "started_ms": self.started_ms, "deadline_ms": self.deadline_ms,
                "extension_used": self.extension_used, "last_ms": self.last_ms,
                "disconnected": sorted(self._disconnected)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ActionClock:
        """Inverse of :meth:`to_dict`, checking that the snapshot is consistent."""
        keys = {"config", "seat", "started_ms", "deadline_ms", "extension_used", "last_ms",
                "disconnected"}
        if not isinstance(data, Mapping) or set(data) != keys:
            raise ClockError(f"a clock snapshot needs exactly the keys {sorted(keys)}")
        clock = cls(ClockConfig.from_dict(data["config"]),
                    disconnected=frozenset(cls._seat(s) for s in data["disconnected"]))
        if data["last_ms"] is not None:
            clock.last_ms = _ms(data["last_ms"], "last_ms")
        if not isinstance(data["extension_used"], bool):
            raise ClockError(f"extension_used must be a bool, got {data['extension_used']!r}")
        if data["seat"] is None:
            if data["started_ms"] is not None or data["deadline_ms"] is not None \
                    or data["extension_used"]:
                raise ClockError("an idle clock snapshot has a start, deadline or extension")
            return clock
        seat, started = cls._seat(data["seat"]), _ms(data["started_ms"], "started_ms")
        deadline = _ms(data["deadline_ms"], "deadline_ms")
        bonus = clock.config.reconnect_bonus_ms if data["extension_used"] else 0
        if deadline != started + clock.config.action_ms + bonus:
            raise ClockError(f"deadline {deadline} does not follow from start {started}")
        if clock.last_ms is None or clock.last_ms < started:
            raise ClockError("last_ms must be at or after the turn's start")
        clock.seat, clock.started_ms, clock.deadline_ms = seat, started, deadline
        clock.extension_used = data["extension_used"]
        return clock

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ActionClock):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"ActionClock.from_dict({self.to_dict()!r})"
