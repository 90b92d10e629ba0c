"""Snapshot, restore and replay of hands (and tables, see :mod:`omaha.table`).

A hand snapshot is the dealt card sequence plus the event log, as JSON-compatible data.
Restoring replays the players' decisions from the log on a fresh hand dealt from the same
cards and checks that the replay reproduces the log event for event; so a restored hand is
the same game and continues identically, and a tampered snapshot is refused.

>>> import json, random
>>> from omaha.config import GameConfig
>>> from omaha.hand import Hand
>>> hand = Hand(GameConfig.no_limit(small_blind=1, big_blind=2),
...             stacks={1: 50, 2: 80}, button=1, rng=random.Random(4))
>>> hand.bet_or_raise(to=6)
>>> copy = Hand.restore(json.loads(json.dumps(hand.snapshot())))
>>> copy.events == hand.events, copy.to_act
(True, 2)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from omaha.clock import TimeoutPolicy
from omaha.deck import board_positions, burn_positions, cards_needed, hole_position
from omaha.errors import OmahaError, SnapshotError
from omaha.events import (
    BetOrRaised,
    BoardDealt,
    Called,
    CardBurned,
    Checked,
    Event,
    Folded,
    HandStarted,
    HoleDealt,
    Mucked,
    ProtectedAllIn,
    Shown,
    TimedOut,
    event_from_dict,
)
from omahacore.cards import format_cards, parse_cards

if TYPE_CHECKING:
    from omaha.hand import Hand, RakeRule
    from omaha.table import Table

__all__ = [
    "HAND_FORMAT",
    "TABLE_FORMAT",
    "deck_from_events",
    "replay",
    "restore_hand",
    "restore_table",
    "snapshot_hand",
    "snapshot_table",
]

HAND_FORMAT = "omaha-hand/1"


def snapshot_hand(hand: Hand) -> dict[str, Any]:
    """JSON-compatible data describing ``hand`` exactly (see :meth:`Hand.snapshot`)."""
    return {
        "format": HAND_FORMAT,
        "deck": format_cards(hand._deck),
        "manual_showdown": hand._manual,
        "events": [event.to_dict() for event in hand.events],
    }


def restore_hand(data: Mapping[str, Any], *, rake: RakeRule | None = None) -> Hand:
    """The hand a :func:`snapshot_hand` dict describes."""
    try:
        if data.get("format") != HAND_FORMAT:
            raise SnapshotError(f"not a hand snapshot (format {data.get('format')!r})")
        deck = parse_cards(data["deck"])
        events = [event_from_dict(item) for item in data["events"]]
        manual = data["manual_showdown"]
    except SnapshotError:
        raise
    except (KeyError, TypeError, AttributeError, OmahaError) as exc:
        raise SnapshotError(f"bad hand snapshot: {exc}") from exc
    if type(manual) is not bool:
        raise SnapshotError(f"manual_showdown must be a bool, got {manual!r}")
    return replay(events, deck=deck, rake=rake, manual_showdown=manual)


def replay(events: Sequence[Event], *, deck: Sequence[int] | None = None,
           rake: RakeRule | None = None, manual_showdown: bool = False) -> Hand:
    """Rebuild a hand from its event log by replaying every decision in it.

    ``deck`` is the whole dealt sequence; without it the cards are read from the log, and
    cards the log never dealt are filled in arbitrarily (enough to reproduce a finished hand;
    to continue a hand in progress, restore a snapshot). Raises :class:`SnapshotError` when
    the log is malformed or the replay does not reproduce it exactly.
    """
    from omaha.hand import Hand

    if not events or not isinstance(events[0], HandStarted):
        raise SnapshotError("an event log starts with a HandStarted event")
    start = events[0]
    cards = list(deck) if deck is not None else deck_from_events(events)
    try:
        hand = Hand(start.config, stacks=dict(zip(start.seats, start.stacks)),
                    button=start.button, live_blinds=start.live_blinds, deck=cards,
                    rake=rake, manual_showdown=True)
        _replay_decisions(hand, events)
    except OmahaError as exc:
        if isinstance(exc, SnapshotError):
            raise
        raise SnapshotError(f"the event log does not replay: {exc}") from exc
    hand._manual = manual_showdown
    if list(hand.events) != list(events):
        raise SnapshotError("the replayed hand differs from its event log")
    return hand


def _replay_decisions(hand: Hand, events: Sequence[Event]) -> None:
    """Apply the decisions of ``events`` (dealing, posting and awards follow by themselves)."""
    skip_next = False
    for k, event in enumerate(events[1:], 2):   # events[k] follows event
        if skip_next:
            skip_next = False
            continue
        if isinstance(event, Folded):
            hand.fold(seat=event.seat)
        elif isinstance(event, Checked):
            hand.check(seat=event.seat)
        elif isinstance(event, Called):
            hand.call(seat=event.seat)
        elif isinstance(event, BetOrRaised):
            hand.bet_or_raise(event.to, seat=event.seat)
        elif isinstance(event, ProtectedAllIn):
            hand.protect_all_in(seat=event.seat)
        elif isinstance(event, TimedOut):
            # A fold where D2 would check or protect came from the stricter policies.
            folds = k < len(events) and isinstance(events[k], Folded)
            hand.timeout(seat=event.seat, policy=TimeoutPolicy.FOLD if folds
                         else TimeoutPolicy.CHECK_PROTECT_FOLD)
            skip_next = True   # the check, protection or fold the timeout made
        elif isinstance(event, (Shown, Mucked)) and hand.to_act == event.seat and not hand.is_over:
            if isinstance(event, Shown):
                hand.show(seat=event.seat)
            else:
                hand.muck(seat=event.seat)


def deck_from_events(events: Iterable[Event]) -> list[int]:
    """The dealt sequence a log shows (T6 layout); positions it never dealt get unused cards."""
    events = list(events)
    start = events[0]
    if not isinstance(start, HandStarted):
        raise SnapshotError("an event log starts with a HandStarted event")
    n, h = len(start.seats), start.config.variant.hole_cards
    sb = start.seats.index(start.small_blind)
    fixed: dict[int, int] = {}
    burns = iter(burn_positions(players=n, hole_cards=h))
    board = iter(board_positions(players=n, hole_cards=h))
    try:
        for event in events:
            if isinstance(event, HoleDealt):
                player = (start.seats.index(event.seat) - sb) % n
                for round_, card in enumerate(event.cards):
                    fixed[hole_position(round_=round_, player=player, players=n)] = card
            elif isinstance(event, CardBurned):
                fixed[next(burns)] = event.card
            elif isinstance(event, BoardDealt):
                for card in event.cards:
                    fixed[next(board)] = card
    except (ValueError, StopIteration) as exc:
        raise SnapshotError(f"the log deals cards a hand cannot: {exc}") from exc
    unused = iter(sorted(set(range(52)) - set(fixed.values())))
    return [fixed[i] if i in fixed else next(unused) for i in range(cards_needed(n, h))]


TABLE_FORMAT = "omaha-table/1"


def _rng_state(rng: random.Random | None) -> Any:
    """JSON-compatible state of a seeded generator; None for the OS generator."""
    if rng is None or isinstance(rng, random.SystemRandom):
        return None
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from(state: Any) -> random.Random | None:
    if state is None:
        return None
    try:
        rng = random.Random()
        rng.setstate((state[0], tuple(state[1]), state[2]))
        return rng
    except (TypeError, ValueError, IndexError) as exc:
        raise SnapshotError(f"bad generator state: {exc}") from exc


def snapshot_table(table: Table) -> dict[str, Any]:
    """JSON-compatible data describing ``table`` and its current hand exactly."""
    hand = table.hand
    return {
        "format": TABLE_FORMAT,
        "config": table.config.to_dict(),
        "seat_count": table.seat_count,
        "manual_showdown": table.manual_showdown,
        "button": table.button,
        "hands": table._hands,
        "joined": table._joined,
        "synced": table._synced,
        "rng": _rng_state(table.rng),
        "seats": [{"seat": s, "name": p.name, "stack": p.stack, "status": p.status,
                   "joined": p.joined} for s, p in sorted(table._seats.items())],
        "hand": None if hand is None else snapshot_hand(hand),
    }


def restore_table(data: Mapping[str, Any], *, rake: RakeRule | None = None) -> Table:
    """The table a :func:`snapshot_table` dict describes."""
    from omaha.config import GameConfig
    from omaha.table import PLAYING, POSTING, SITTING_OUT, WAITING, Table, _Seat

    try:
        if data.get("format") != TABLE_FORMAT:
            raise SnapshotError(f"not a table snapshot (format {data.get('format')!r})")
        table = Table(GameConfig.from_dict(data["config"]), seats=data["seat_count"],
                      rng=_rng_from(data["rng"]), rake=rake,
                      manual_showdown=data["manual_showdown"])
        for item in data["seats"]:
            seat, stack = item["seat"], item["stack"]
            if item["status"] not in (PLAYING, WAITING, POSTING, SITTING_OUT):
                raise SnapshotError(f"unknown seat status {item['status']!r}")
            if (type(seat) is not int or not 1 <= seat <= table.seat_count
                    or seat in table._seats or type(stack) is not int or stack < 0):
                raise SnapshotError(f"bad seat entry {item!r}")
            table._seats[seat] = _Seat(name=item["name"], stack=stack, status=item["status"],
                                       joined=item["joined"])
        table._button = data["button"]
        table._hands = data["hands"]
        table._joined = data["joined"]
        table._synced = data["synced"]
        if data["hand"] is not None:
            table._hand = restore_hand(data["hand"], rake=rake)
    except SnapshotError:
        raise
    except (KeyError, TypeError, AttributeError, OmahaError) as exc:
        raise SnapshotError(f"bad table snapshot: {exc}") from exc
    return table
