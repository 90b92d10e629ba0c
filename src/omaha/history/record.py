"""A hand as a record: its snapshot body, and the replay that rebuilds it from its log.

A hand snapshot is the dealt card sequence plus the event log. Restoring replays the
players' decisions from the log on a fresh hand dealt from the same cards and checks that
the replay reproduces the log event for event, so a restored hand is the same game and
continues identically. The functions here work on any class with the hand's actions (a
:class:`Replayable`); :mod:`omaha.game.hand` and :mod:`omaha.history.snapshot` pass
:class:`~omaha.game.hand.Hand`, so this module sits below the hand and never imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from omaha.cards import parse_cards
from omaha.errors import OmahaError, SnapshotError
from omaha.game.clock import TimeoutAction, TimeoutPolicy
from omaha.game.dealing import (
    board_positions,
    burn_positions,
    cards_needed,
    dealing_place,
    hole_position,
)
from omaha.game.events import (
    BoardDealt,
    CardBurned,
    Event,
    Folded,
    HandStarted,
    HoleDealt,
    Mucked,
    ProtectedAllIn,
    Shown,
    TimedOut,
    event_from_dict,
    replay_decision,
)
from omaha.game.rake import RakeRule
from omaha.history.sealing import HAND, Key, opened, refusal, sealed
from omahacore.cards import format_cards

__all__ = ["Replayable", "deck_from_events", "hand_body", "replay_with", "restore_with"]


class Replayable(Protocol):
    """What replay needs of a hand: its decisions, its turn and its record."""

    _deck: bytes
    _manual: bool

    @property
    def to_act(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def events(self) -> tuple[Event, ...]: ...
    def fold(self, *, seat: int | None = None) -> None: ...
    def check(self, *, seat: int | None = None) -> None: ...
    def call(self, *, seat: int | None = None) -> None: ...
    def bet_or_raise(self, to: int, *, seat: int | None = None) -> None: ...
    def protect_all_in(self, *, seat: int | None = None) -> None: ...
    def timeout(self, *, seat: int | None = None,
                policy: TimeoutPolicy = TimeoutPolicy.CHECK_PROTECT_FOLD) -> TimeoutAction: ...
    def show(self, *, seat: int | None = None) -> None: ...
    def muck(self, *, seat: int | None = None) -> None: ...


H = TypeVar("H", bound=Replayable)
NewHand = Callable[[HandStarted, list[int], RakeRule | None], H]
"""Deals a hand from its start event and whole dealt sequence (manual showdown, so that
the log's show/muck decisions can be replayed)."""


def hand_body(hand: Replayable, *, key: Key = None) -> dict[str, Any]:
    """JSON-compatible sealed data describing ``hand`` exactly (see ``Hand.snapshot``)."""
    return sealed(HAND, {
        "deck": format_cards(list(hand._deck)),
        "manual_showdown": hand._manual,
        "events": [event.to_dict() for event in hand.events],
    }, key)


def restore_with(new_hand: NewHand[H], data: Mapping[str, Any], *,
                 rake: RakeRule | None = None, key: Key = None) -> H:
    """The hand a :func:`hand_body` dict describes, re-derived by replaying it."""
    data = opened(data, HAND, key)
    try:
        if type(data["deck"]) is not str or type(data["events"]) is not list:
            raise SnapshotError("a hand snapshot's deck is text and its events a list")
        deck = parse_cards(data["deck"])
        for item in data["events"]:
            if type(item) is not dict:
                raise SnapshotError(f"an event is a dict, got {item!r}")
        events = [event_from_dict(item) for item in data["events"]]
        manual = data["manual_showdown"]
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise refusal("bad", what=HAND.what, error=exc) from exc
    if type(manual) is not bool:
        raise SnapshotError(f"manual_showdown must be a bool, got {manual!r}")
    if len(set(deck)) != len(deck):
        raise SnapshotError("the deck deals a card twice (C1)")
    return replay_with(new_hand, events, deck=deck, rake=rake, manual_showdown=manual)


def replay_with(new_hand: NewHand[H], events: Sequence[Event], *,
                deck: Sequence[int] | None = None, rake: RakeRule | None = None,
                manual_showdown: bool = False) -> H:
    """Rebuild a hand from its event log by replaying every decision in it (see
    :func:`omaha.history.snapshot.replay`)."""
    if not isinstance(events, (list, tuple)) or not events or not isinstance(events[0],
                                                                             HandStarted):
        raise SnapshotError("an event log is a list starting with a HandStarted event")
    start = events[0]
    seats, stacks = start.seats, start.stacks
    if (type(seats) is not tuple or type(stacks) is not tuple or len(seats) != len(stacks)
            or list(seats) != sorted(set(seats))):
        raise SnapshotError("the hand's seats must rise, with one stack each")
    try:
        cards = list(deck) if deck is not None else deck_from_events(events)
        hand = new_hand(start, cards, rake)
        _replay_decisions(hand, events)
    except SnapshotError:
        raise
    except (OmahaError, TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        raise SnapshotError(f"the event log does not replay: {exc}") from exc
    hand._manual = manual_showdown
    if list(hand.events) != list(events):
        raise SnapshotError("the replayed hand differs from its event log")
    return hand


def _replay_decisions(hand: Replayable, events: Sequence[Event]) -> None:
    """Apply the decisions of ``events`` (dealing, posting and awards follow by themselves)."""
    skip_next = False
    for k, event in enumerate(events[1:], 2):   # events[k] follows event
        if skip_next:
            skip_next = False
            continue
        if replay_decision(hand, event):
            continue
        if isinstance(event, ProtectedAllIn):
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
                player = dealing_place(start.seats.index(event.seat), sb, n)
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
