"""A hand on the clock (D1-D4) and raked (K1-K3): every timeout branch, reconnections, views.

Time is scripted in integer milliseconds (D4). Money is in cents, so the seeds' rake charts
apply as written: blinds $1/$2 are 100/200.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from omaha.config import GameConfig
from omaha.errors import IllegalActionError, SnapshotError
from omaha.game.clock import ClockConfig, ClockError, ManualClock, TimeoutAction, TimeoutPolicy
from omaha.game.clocked import (
    ClockedHand,
    Disconnected,
    Reconnected,
    TimeRanOut,
    TurnStarted,
    clock_event_from_dict,
)
from omaha.game.events import Checked, Folded, PotAwarded, ProtectedAllIn, TimedOut
from omaha.game.hand import Hand
from omaha.game.rake import SEED_POT_LIMIT_RAKE, RakeSchedule

PL_1_2 = GameConfig.pot_limit(small_blind=100, big_blind=200)
STACKS = {1: 20_000, 2: 20_000, 3: 20_000}
# Board A-7-2-9-J: seat 3 makes trip aces, seat 1 kings, seat 2 queens; no straight or flush.
HOLES = {3: "AsAh8d8c", 1: "KsKh6d5c", 2: "QsQh3d3h"}
BOARD = "Ac7d2s9hJc"


def new_hand(rake: RakeSchedule | None = None, **options: Any) -> Hand:
    """Three-handed $1/$2 pot limit; button 1, so seat 2 posts 100, seat 3 posts 200."""
    return Hand(PL_1_2, stacks=STACKS, button=1, hole_cards=HOLES, board=BOARD,
                rng=random.Random(3), rake=rake, **options)


def k1_split(rake: int, pots: list[int]) -> list[int]:
    """K1 reference: each pot pays rake * pot // total; the rest comes from the main pot."""
    shares = [rake * pot // sum(pots) for pot in pots]
    shares[0] += rake - sum(shares)
    return shares


def test_d1_first_player_is_on_the_clock_for_thirty_seconds() -> None:
    game = ClockedHand(new_hand(), now=1_000)
    assert (game.clock.seat, game.clock.started_ms, game.clock.deadline_ms) == (1, 1_000, 31_000)
    assert game.clock_events == (TurnStarted(seat=1, at_ms=1_000, deadline_ms=31_000),)
    assert game.advance(30_999) == []
    assert game.hand.to_act == 1


def test_d2_timeout_checks_when_free() -> None:
    game = ClockedHand(new_hand(), now=0)
    game.act(1, "call", now=1_000)
    game.act(2, "call", now=2_000)
    fired = game.advance(32_000)                   # big blind's option, a free check
    assert fired == [TimeRanOut(seat=3, at_ms=32_000, action=TimeoutAction.CHECK)]
    events = game.hand.events
    at = events.index(TimedOut(seat=3))
    assert events[at + 1] == Checked(seat=3)
    assert game.hand.street.name == "FLOP" and game.hand.state(3) == "active"
    assert game.clock.started_ms == 32_000


def test_d2_timeout_folds_a_player_with_no_chips_in() -> None:
    game = ClockedHand(new_hand(), now=0)
    assert game.advance(30_000) == [TimeRanOut(seat=1, at_ms=30_000, action=TimeoutAction.FOLD)]
    assert game.hand.state(1) == "folded"
    assert TimedOut(seat=1) in game.hand.events and Folded(seat=1) in game.hand.events


def test_d2_disconnected_player_protected_all_in_wins_the_main_pot_only() -> None:
    """Seat 3 (big blind, 200 in) drops and times out facing a raise; 1 and 2 play on."""
    game = ClockedHand(new_hand(rake=SEED_POT_LIMIT_RAKE), now=0)
    game.act(1, "bet_or_raise", to=700, now=1_000)
    game.act(2, "call", now=2_000)
    game.disconnect(3, now=2_500)
    assert game.advance(32_000) == [TimeRanOut(seat=3, at_ms=32_000, action=TimeoutAction.ALL_IN)]
    hand = game.hand
    assert hand.state(3) == "protected" and ProtectedAllIn(seat=3) in hand.events
    assert hand.stacks[3] == 20_000 - 200                       # keeps the rest of the stack
    assert hand.pots() == [(600, (1, 2, 3)), (1_000, (1, 2))]  # eligible only up to 200
    # The others play on for the side pot; seat 3 is never on the clock again.
    game.act(2, "check", now=33_000)
    game.act(1, "bet_or_raise", to=1_000, now=34_000)
    game.act(2, "call", now=35_000)
    for now in (36_000, 38_000):              # turn and river checked through
        game.act(2, "check", now=now)
        game.act(1, "check", now=now + 1)
    assert hand.is_over and hand.result is not None
    turns = [e.seat for e in game.clock_events if isinstance(e, TurnStarted)]
    assert turns.count(3) == 1
    # Pots 600 (1, 2, 3) and 3,000 (1, 2); rake K3: 5 * 36 = 180, capped at 100 for 3 dealt in.
    result = hand.result
    assert result.rake == 100
    main_rake, side_rake = k1_split(100, [600, 3_000])
    assert [(p.amount, p.rake) for p in result.pots] == [(600, main_rake), (3_000, side_rake)]
    assert result.payouts == {3: 600 - main_rake, 1: 3_000 - side_rake, 2: 0}
    assert result.stacks[3] == 20_000 - 200 + 600 - main_rake
    assert sum(result.stacks.values()) + result.rake == sum(STACKS.values())
    pot_events = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert sum(e.rake for e in pot_events) == 100


def test_d3_reconnect_in_time_gives_twenty_seconds_once() -> None:
    game = ClockedHand(new_hand(), now=0)
    game.disconnect(1, now=1_000)
    assert game.reconnect(1, now=25_000) == []
    assert game.clock.deadline_ms == 50_000 and game.clock.extension_used
    game.disconnect(1, now=26_000)
    game.reconnect(1, now=27_000)
    assert game.clock.deadline_ms == 50_000                      # once per action
    assert game.act(1, "call", now=49_999) == []               # in the bonus time: accepted
    assert game.clock_events[1:4] == (
        Disconnected(seat=1, at_ms=1_000), Reconnected(seat=1, at_ms=25_000, bonus_ms=20_000),
        Disconnected(seat=1, at_ms=26_000))
    assert game.clock_events[4] == Reconnected(seat=1, at_ms=27_000, bonus_ms=0)
    assert game.clock.seat == 2 and game.clock.deadline_ms == 49_999 + 30_000


def test_d3_reconnect_too_late_is_handled_as_d2() -> None:
    game = ClockedHand(new_hand(), now=0)
    game.disconnect(1, now=1_000)
    fired = game.reconnect(1, now=30_000)                 # the deadline: no time left
    assert fired == [TimeRanOut(seat=1, at_ms=30_000, action=TimeoutAction.FOLD)]
    assert game.clock_events[-1] == Reconnected(seat=1, at_ms=30_000, bonus_ms=0)
    assert game.hand.state(1) == "folded" and game.clock.seat == 2
    assert not game.clock.extension_used and game.clock.deadline_ms == 60_000


def test_d3_reconnect_during_a_later_turn_in_virtual_time() -> None:
    """Seat 1 times out at 30 s; seat 2, away, comes back at 40 s within its own turn."""
    game = ClockedHand(new_hand(), now=0)
    game.disconnect(2, now=0)
    fired = game.reconnect(2, now=40_000)
    assert [t.seat for t in fired] == [1]
    assert (game.clock.seat, game.clock.deadline_ms) == (2, 30_000 + 30_000 + 20_000)


def test_late_action_is_refused_and_the_timeout_stands() -> None:
    game = ClockedHand(new_hand(), now=0)
    with pytest.raises(IllegalActionError, match=r"D2: seat 1's time ran out at 30000 ms \(fold\)"):
        game.act(1, "bet_or_raise", to=700, now=30_000)
    assert game.hand.state(1) == "folded" and game.hand.to_act == 2


def test_late_action_is_refused_even_when_the_seat_is_to_act_again() -> None:
    """Seat 1 checks the river by timeout and is then asked to show or muck (S1)."""
    game = ClockedHand(new_hand(manual_showdown=True), now=0)
    for seat in (1, 2, 3):
        game.act(seat, "check_or_call", now=0)
    for seat in (2, 3, 1, 2, 3, 1, 2, 3):
        game.act(seat, "check", now=0)
    with pytest.raises(IllegalActionError, match=r"D2: seat 1's time ran out at 30000 ms \(check\)"):
        game.act(1, "check", now=30_000)
    assert game.hand.street.name == "SHOWDOWN" and game.hand.to_act == 1
    assert game.clock.started_ms == 30_000


def test_several_timeouts_fire_at_their_own_deadlines() -> None:
    game = ClockedHand(new_hand(), now=0)
    fired = game.advance(10**6)
    # Seat 1 folds (nothing in), seat 2 is protected (100 in); seat 3 is then alone to act.
    assert fired == [TimeRanOut(seat=1, at_ms=30_000, action=TimeoutAction.FOLD),
                     TimeRanOut(seat=2, at_ms=60_000, action=TimeoutAction.ALL_IN)]
    hand = game.hand
    assert hand.is_over and hand.result is not None and not game.clock.running
    # Seat 3's unmatched 100 goes back (P1); the 200 main pot goes to its trip aces.
    assert hand.result.returned == {3: 100}
    assert hand.result.payouts == {1: 0, 2: 0, 3: 300}
    assert sum(hand.result.stacks.values()) == sum(STACKS.values())


@pytest.mark.parametrize(("policy", "expected"), [
    (TimeoutPolicy.CHECK_FOLD, TimeoutAction.FOLD),
    (TimeoutPolicy.FOLD, TimeoutAction.FOLD),
    (TimeoutPolicy.CHECK_PROTECT_FOLD, TimeoutAction.ALL_IN),
])
def test_d2_policy_is_configurable_for_a_player_with_chips_in(
        policy: TimeoutPolicy, expected: TimeoutAction) -> None:
    game = ClockedHand(new_hand(), now=0, config=ClockConfig(policy=policy))
    game.act(1, "bet_or_raise", to=700, now=0)
    assert game.advance(30_000)[0].action is expected
    assert game.hand.state(2) == {"fold": "folded", "all_in": "protected"}[expected.value]


def test_fold_policy_folds_even_when_a_check_is_free() -> None:
    game = ClockedHand(new_hand(), now=0, config=ClockConfig(policy=TimeoutPolicy.FOLD))
    game.act(1, "call", now=0)
    game.act(2, "call", now=0)
    assert game.advance(30_000) == [TimeRanOut(seat=3, at_ms=30_000, action=TimeoutAction.FOLD)]
    assert game.hand.state(3) == "folded"


@pytest.mark.parametrize("policy", list(TimeoutPolicy))
def test_d2_every_policy_is_recorded_in_the_hand_log_and_restores(policy: TimeoutPolicy) -> None:
    # Seat 3 (big blind) may check for free: D2 and CHECK_FOLD check, FOLD folds. Either
    # way the hand's own log holds TimedOut and then its consequence, and replays.
    game = ClockedHand(new_hand(), now=0, config=ClockConfig(policy=policy))
    game.act(1, "call", now=0)
    game.act(2, "call", now=0)
    fired = game.advance(30_000)
    expected = Folded if policy is TimeoutPolicy.FOLD else Checked
    assert fired == [TimeRanOut(seat=3, at_ms=30_000, action=TimeoutAction(
        "fold" if expected is Folded else "check"))]
    events = game.hand.events
    at = events.index(TimedOut(seat=3))
    assert events[at + 1] == expected(seat=3) and game.hand.event_count == len(events)
    copy = ClockedHand.restore(json.loads(json.dumps(game.snapshot())))
    assert copy.snapshot() == game.snapshot() and copy.hand.events == events


def test_showdown_timeout_logs_timed_out_then_the_muck() -> None:
    game = ClockedHand(new_hand(manual_showdown=True), now=0,
                       config=ClockConfig(policy=TimeoutPolicy.FOLD))
    for seat, action in ((1, "call"), (2, "call"), (3, "check")):
        game.act(seat, action, now=0)
    for _street in range(3):
        for seat in (2, 3, 1):
            game.act(seat, "check", now=0)
    assert game.advance(30_000)[0].action is TimeoutAction.MUCK
    kinds = [type(e).__name__ for e in game.hand.events]
    assert kinds[kinds.index("TimedOut") + 1] == "Mucked"


def test_configured_durations_drive_the_hand() -> None:
    config = ClockConfig(base_ms=1_000, countdown_ms=2_000, reconnect_bonus_ms=500)
    game = ClockedHand(new_hand(), now=0, config=config)
    assert game.view(now=999).clock.phase == "base"
    assert game.view(now=1_000).clock.phase == "countdown"
    assert game.advance(3_000)[0].at_ms == 3_000


def test_showdown_decision_times_out_as_a_muck() -> None:
    game = ClockedHand(new_hand(manual_showdown=True), now=0)
    game.act(1, "call", now=0)
    game.act(2, "call", now=0)
    game.act(3, "check", now=0)
    for _street in range(3):
        for seat in (2, 3, 1):
            game.act(seat, "check", now=0)
    hand = game.hand
    # Seat 2 shows first (S1), seat 3's aces can win and are shown; seat 1's kings cannot.
    assert (hand.street.name, hand.to_act, game.clock.seat) == ("SHOWDOWN", 1, 1)
    assert game.advance(30_000) == [TimeRanOut(seat=1, at_ms=30_000, action=TimeoutAction.MUCK)]
    assert hand.state(1) == "mucked" and hand.is_over and not game.clock.running
    assert hand.result is not None and 1 not in hand.result.shown


def test_views_show_the_clock_and_hide_other_cards() -> None:
    game = ClockedHand(new_hand(), now=0)
    game.disconnect(1, now=5_000)
    game.reconnect(1, now=12_000)
    data = json.loads(json.dumps(game.view(2, now=12_000).to_dict()))
    assert data["clock"] == {"now_ms": 12_000, "seat": 1, "started_ms": 0, "deadline_ms": 50_000,
                             "remaining_ms": 38_000, "phase": "base", "extension_used": True,
                             "disconnected": []}
    cards = {p["seat"]: p["cards"] for p in data["players"]}
    assert cards[1] is None and cards[3] is None and cards[2] is not None


def test_event_log_interleaves_clock_events_and_timeout_consequences() -> None:
    game = ClockedHand(new_hand(), now=0)
    game.disconnect(1, now=100)
    game.advance(30_000)
    kinds = [e["type"] for e in game.visible_events(2)]
    at = kinds.index("time_ran_out")
    assert kinds[at - 2:at + 4] == ["turn_started", "disconnected", "time_ran_out", "timed_out",
                                    "folded", "turn_started"]
    assert kinds.count("hole_dealt") == 3
    hidden = [e for e in game.visible_events(2) if e["type"] == "hole_dealt" and e["seat"] != 2]
    assert all(e["cards"] is None for e in hidden)
    assert [type(e).__name__ for e in game.events][at:at + 3] == ["TimeRanOut", "TimedOut", "Folded"]


def test_snapshot_restore_continues_identically() -> None:
    game = ClockedHand(new_hand(rake=SEED_POT_LIMIT_RAKE), now=0)
    game.act(1, "bet_or_raise", to=700, now=1_000)
    game.disconnect(2, now=2_000)
    data = json.loads(json.dumps(game.snapshot()))
    copy = ClockedHand.restore(data, rake=SEED_POT_LIMIT_RAKE)
    assert copy.snapshot() == game.snapshot()
    for g in (game, copy):
        g.reconnect(2, now=20_000)
        g.advance(10**6)
    assert copy.snapshot() == game.snapshot() and copy.hand.is_over
    assert copy.hand.result is not None and game.hand.result is not None
    assert copy.hand.result.to_dict() == game.hand.result.to_dict()


def test_bad_snapshots_are_refused() -> None:
    game = ClockedHand(new_hand(), now=0)
    good = game.snapshot()
    with pytest.raises(SnapshotError, match="not a clocked hand snapshot"):
        ClockedHand.restore({**good, "format": "x"})
    with pytest.raises(SnapshotError, match="positions must rise"):
        ClockedHand.restore({**good, "clock_events": [[99, good["clock_events"][0][1]]]})
    wrong_seat = {**good["clock"], "seat": 2}
    with pytest.raises(SnapshotError, match="clock runs for seat 2 but seat 1"):
        ClockedHand.restore({**good, "clock": wrong_seat})
    with pytest.raises(SnapshotError, match="bad clock event"):
        clock_event_from_dict({"type": "nap", "seat": 1, "at_ms": 0})
    with pytest.raises(SnapshotError, match="must be an integer"):
        clock_event_from_dict({"type": "disconnected", "seat": 1, "at_ms": 0.5})


def test_d4_injected_time_source() -> None:
    time = ManualClock(500)
    game = ClockedHand(new_hand(), time_source=time)
    assert game.clock.deadline_ms == 30_500
    time.advance(10_000)
    game.act(1, "call")
    assert game.clock.started_ms == 10_500
    time.set(40_500)
    assert game.advance() == [TimeRanOut(seat=2, at_ms=40_500, action=TimeoutAction.ALL_IN)]
    with pytest.raises(ClockError, match="pass now="):
        ClockedHand(new_hand())


def test_bad_calls_change_nothing() -> None:
    game = ClockedHand(new_hand(), now=1_000)
    before = game.snapshot()
    with pytest.raises(IllegalActionError, match="unknown action 'dance'"):
        game.act(1, "dance", now=2_000)
    with pytest.raises(IllegalActionError, match="give to= with bet_or_raise"):
        game.act(1, "call", to=5, now=2_000)
    with pytest.raises(ClockError, match="seat 7 is not dealt"):
        game.disconnect(7, now=2_000)
    with pytest.raises(ClockError, match="now must be at least 1000"):
        game.advance(999)
    with pytest.raises(ClockError, match="not disconnected"):
        game.reconnect(1, now=2_000)
    with pytest.raises(IllegalActionError, match="B1"):
        game.act(2, "call", now=1_000)
    assert game.snapshot() == before
