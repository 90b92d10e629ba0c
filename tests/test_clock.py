"""The action clock on its own (rules D1-D4): deadlines, countdown, reconnection bonus, snapshots.

The clock is driven with explicit integer milliseconds (D4); nothing here sleeps.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omaha.game.clock import (
    ActionClock,
    ClockConfig,
    ClockError,
    ManualClock,
    MonotonicClock,
    TimeoutAction,
    TimeoutPolicy,
    TimeSource,
)
from omahacore.errors import OmahaError


def test_d1_thirty_seconds_ten_then_a_twenty_second_countdown() -> None:
    clock = ActionClock()
    clock.start(2, now=1_000)
    assert clock.deadline_ms == 31_000
    phases = {t: clock.view(t).phase for t in (1_000, 10_999, 11_000, 30_999, 31_000, 90_000)}
    assert phases == {1_000: "base", 10_999: "base", 11_000: "countdown", 30_999: "countdown",
                      31_000: "expired", 90_000: "expired"}
    assert clock.view(11_000).remaining_ms == 20_000
    assert not clock.expired(30_999)
    assert clock.expired(31_000)


def test_d1_durations_are_configurable() -> None:
    clock = ActionClock(ClockConfig(base_ms=3_000, countdown_ms=2_000, reconnect_bonus_ms=500))
    clock.start(0, now=0)
    assert clock.deadline_ms == 5_000
    assert clock.view(2_999).phase == "base"
    assert clock.view(3_000).phase == "countdown"
    clock.disconnect(0, now=4_000)
    assert clock.reconnect(0, now=4_500) == 500
    assert clock.deadline_ms == 5_500


def test_idle_view() -> None:
    view = ActionClock(disconnected={4, 1}).view(0)
    assert (view.seat, view.deadline_ms, view.remaining_ms, view.phase) == (None, None, None, "idle")
    assert view.disconnected == (1, 4)
    assert json.loads(json.dumps(view.to_dict()))["disconnected"] == [1, 4]


def test_d3_disconnected_clock_keeps_running() -> None:
    clock = ActionClock()
    clock.start(5, now=0)
    clock.disconnect(5, now=1)
    assert clock.deadline_ms == 30_000
    assert clock.expired(30_000)
    assert not clock.is_connected(5)
    assert clock.view(2).disconnected == (5,)


@pytest.mark.parametrize("at", [0, 1, 10_000, 29_999])
def test_d3_reconnect_with_time_left_gives_twenty_seconds(at: int) -> None:
    clock = ActionClock()
    clock.disconnect(5, now=0)
    clock.start(5, now=0)
    assert clock.reconnect(5, now=at) == 20_000
    assert clock.deadline_ms == 50_000
    assert clock.extension_used and clock.view(at).extension_used
    assert clock.is_connected(5)


def test_d3_reconnect_at_or_after_deadline_gives_nothing() -> None:
    clock = ActionClock()
    clock.start(5, now=0)
    clock.disconnect(5, now=100)
    assert clock.reconnect(5, now=30_000) == 0
    assert clock.deadline_ms == 30_000 and not clock.extension_used
    assert clock.expired(30_000)


def test_d3_bonus_once_per_action_and_again_next_action() -> None:
    clock = ActionClock()
    clock.start(5, now=0)
    clock.disconnect(5, now=1_000)
    assert clock.reconnect(5, now=2_000) == 20_000
    clock.disconnect(5, now=3_000)
    assert clock.reconnect(5, now=4_000) == 0
    assert clock.deadline_ms == 50_000
    clock.stop(now=5_000)
    clock.start(5, now=6_000)
    assert not clock.extension_used and clock.deadline_ms == 36_000
    clock.disconnect(5, now=7_000)
    assert clock.reconnect(5, now=8_000) == 20_000
    assert clock.deadline_ms == 56_000


def test_d3_reconnect_off_turn_gives_nothing() -> None:
    clock = ActionClock()
    clock.start(1, now=0)
    clock.disconnect(5, now=0)
    assert clock.reconnect(5, now=1_000) == 0
    assert clock.deadline_ms == 30_000 and not clock.extension_used


def test_d3_countdown_phase_after_a_bonus_follows_remaining_time() -> None:
    clock = ActionClock()
    clock.start(0, now=0)
    clock.disconnect(0, now=20_000)
    clock.reconnect(0, now=25_000)          # 5 s left -> 25 s left
    assert clock.view(25_000).phase == "base"
    assert clock.view(30_000).phase == "countdown"


@pytest.mark.parametrize(("policy", "can_check", "chips_in", "expected"), [
    (TimeoutPolicy.CHECK_PROTECT_FOLD, True, True, TimeoutAction.CHECK),
    (TimeoutPolicy.CHECK_PROTECT_FOLD, True, False, TimeoutAction.CHECK),
    (TimeoutPolicy.CHECK_PROTECT_FOLD, False, True, TimeoutAction.ALL_IN),
    (TimeoutPolicy.CHECK_PROTECT_FOLD, False, False, TimeoutAction.FOLD),
    (TimeoutPolicy.CHECK_FOLD, True, True, TimeoutAction.CHECK),
    (TimeoutPolicy.CHECK_FOLD, False, True, TimeoutAction.FOLD),
    (TimeoutPolicy.CHECK_FOLD, False, False, TimeoutAction.FOLD),
    (TimeoutPolicy.FOLD, True, True, TimeoutAction.FOLD),
    (TimeoutPolicy.FOLD, False, True, TimeoutAction.FOLD),
])
def test_d2_policy_table(policy: TimeoutPolicy, can_check: bool, chips_in: bool,
                         expected: TimeoutAction) -> None:
    assert policy.decide(can_check=can_check, has_chips_in=chips_in) is expected


def test_d2_is_the_default_policy() -> None:
    assert ClockConfig().policy is TimeoutPolicy.CHECK_PROTECT_FOLD


Mutation = Callable[[ActionClock], object]


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda c: c.start(1, now=9), "now must be at least 10"),            # time going back
    (lambda c: c.start(1, now=10.5), "now must be an integer"),
    (lambda c: c.start(True, now=20), "seat must be an integer, got True"),
    (lambda c: c.start(-1, now=20), "seat must be at least 0, got -1"),
    (lambda c: c.disconnect(3, now=5), "now must be at least 10"),
    (lambda c: c.disconnect(2, now=20), "already disconnected"),
    (lambda c: c.reconnect(4, now=20), "not disconnected"),
    (lambda c: c.view(9), "now must be at least 10"),
])
def test_bad_calls_raise_and_leave_the_clock_as_it_was(mutate: Mutation, message: str) -> None:
    clock = ActionClock(disconnected={2})
    clock.start(0, now=0)
    clock.stop(now=10)
    before = clock.to_dict()
    with pytest.raises(ClockError, match=message) as info:
        mutate(clock)
    assert isinstance(info.value, OmahaError)
    assert clock.to_dict() == before


def test_start_twice_and_stop_idle_are_errors() -> None:
    clock = ActionClock()
    with pytest.raises(ClockError, match="nobody is on the clock"):
        clock.stop(now=0)
    clock.start(1, now=0)
    with pytest.raises(ClockError, match="seat 1 is still on the clock"):
        clock.start(2, now=0)
    assert clock.stop(now=0) == 1


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"base_ms": -1}, "base_ms must be at least 0"),
    ({"countdown_ms": 1.5}, "countdown_ms must be an integer"),
    ({"base_ms": 0, "countdown_ms": 0}, "must be positive"),
    ({"policy": "fold"}, "policy must be a TimeoutPolicy"),
])
def test_bad_config(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ClockError, match=message):
        ClockConfig(**kwargs)  # type: ignore[arg-type]


def test_config_from_dict() -> None:
    assert ClockConfig.from_dict({"policy": "check_fold", "base_ms": 1}) == \
        ClockConfig(base_ms=1, policy=TimeoutPolicy.CHECK_FOLD)
    with pytest.raises(ClockError, match="unknown timeout policy 'nap'"):
        ClockConfig.from_dict({"policy": "nap"})
    with pytest.raises(ClockError, match="unknown clock config field"):
        ClockConfig.from_dict({"base": 1})


def test_snapshot_round_trip_and_repr() -> None:
    clock = ActionClock(ClockConfig(policy=TimeoutPolicy.CHECK_FOLD), disconnected={7})
    clock.start(3, now=100)
    clock.disconnect(3, now=200)
    clock.reconnect(3, now=300)
    restored = ActionClock.from_dict(json.loads(json.dumps(clock.to_dict())))
    assert restored == clock
    assert eval(repr(clock), {"ActionClock": ActionClock}) == clock
    # The restored clock carries on exactly like the original.
    assert restored.reconnect(7, now=400) == clock.reconnect(7, now=400) == 0
    assert restored.deadline_ms == clock.deadline_ms == 50_100


@pytest.mark.parametrize(("change", "message"), [
    ({"deadline_ms": 1}, "does not follow"),
    ({"extension_used": 1}, "extension_used must be a bool"),
    ({"last_ms": 50}, "last_ms must be at or after"),
    ({"seat": None}, "idle clock snapshot"),
    ({"seat": -2}, "seat must be"),
])
def test_inconsistent_snapshots_are_refused(change: dict[str, object], message: str) -> None:
    clock = ActionClock()
    clock.start(3, now=100)
    with pytest.raises(ClockError, match=message):
        ActionClock.from_dict({**clock.to_dict(), **change})
    with pytest.raises(ClockError, match="needs exactly the keys"):
        ActionClock.from_dict({"seat": None})


def test_d4_time_sources() -> None:
    manual = ManualClock(5)
    manual.advance(10)
    manual.set(20)
    assert manual.now() == 20
    with pytest.raises(ClockError):
        manual.set(19)
    with pytest.raises(ClockError):
        manual.advance(-1)
    system = MonotonicClock()
    first = system.now()
    assert isinstance(first, int) and system.now() >= first
    assert isinstance(manual, TimeSource) and isinstance(system, TimeSource)


@given(seed=st.integers(0, 2**32 - 1))
def test_random_event_streams_keep_the_clock_consistent(seed: int) -> None:
    """Random starts, stops, disconnects and reconnects against a tiny reference model."""
    rng = random.Random(seed)
    config = ClockConfig(base_ms=rng.randrange(0, 50), countdown_ms=rng.randrange(1, 50),
                         reconnect_bonus_ms=rng.randrange(0, 50))
    clock, now = ActionClock(config), 0
    on_clock: int | None = None
    deadline = 0
    bonus_used = False
    away: set[int] = set()
    for _ in range(60):
        now += rng.randrange(0, 30)
        seat, op = rng.randrange(4), rng.choice(["turn", "disconnect", "reconnect"])
        if op == "turn":
            if on_clock is not None:
                assert clock.stop(now) == on_clock
            clock.start(seat, now)
            on_clock, deadline, bonus_used = seat, now + config.action_ms, False
        elif op == "disconnect" and seat not in away:
            clock.disconnect(seat, now)
            away.add(seat)
        elif op == "reconnect" and seat in away:
            earns = seat == on_clock and not bonus_used and now < deadline
            assert clock.reconnect(seat, now) == (config.reconnect_bonus_ms if earns else 0)
            if earns:
                deadline, bonus_used = deadline + config.reconnect_bonus_ms, True
            away.discard(seat)
        assert (clock.seat, clock.extension_used, clock.disconnected) == \
            (on_clock, bonus_used, frozenset(away))
        if on_clock is not None:
            assert clock.deadline_ms == deadline
            assert clock.expired(now) == (now >= deadline)
        assert ActionClock.from_dict(json.loads(json.dumps(clock.to_dict()))) == clock


@pytest.mark.parametrize("name", ["omaha.game.clock", "omaha.game.clocked"])
def test_docstring_examples_run(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 5 and result.failed == 0
