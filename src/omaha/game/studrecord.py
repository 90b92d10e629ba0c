"""A stud hand as a record: its events, its snapshot and the replay that restores it.

The compiled engine logs the antes and the actions; the cards each street dealt follow from
the deck. :func:`stud_events` replays that log on a fresh :class:`~omahacore.stud.StudCore`
dealt from the same deck and reads, after every step, the cards it dealt: so the events say
what the engine did, never a restatement of the dealing rules (E2).

A snapshot (:func:`stud_body`) is the deck (all 52 cards in the order they come off) and the
event log, sealed by :mod:`omaha.history.sealing` (format ``omaha-stud-hand/1``, a digest or
an HMAC signature). :func:`restore_stud` never trusts it: the envelope and every field are
checked, the decisions are replayed on a new hand dealt from the deck, and the replayed log
must equal the stored one, else :class:`~omaha.errors.SnapshotError` naming the fault. This
module sits below :mod:`omaha.game.stud`, which passes it the hand's class.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from omaha.cards import DECK, parse_cards
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
    replay_decision,
)
from omaha.game.studconfig import StudConfig, game_code
from omaha.game.studevents import StudDealt, StudStarted, stud_event_from_dict
from omaha.history.sealing import Key, SnapshotFormat, opened, refusal, sealed
from omahacore.cards import format_cards
from omahacore.stud import StudCore

__all__ = ["STUD_HAND", "Recorded", "StudRecorder", "restore_stud", "stud_body", "stud_events"]

STUD_HAND = SnapshotFormat("stud hand", "omaha-stud-hand/1", frozenset({"deck", "events"}))
"""The stud hand snapshot's format: the deck and the event log."""


class Recorded(Protocol):
    """What the record needs of a stud hand: how it began, its deck and its log."""

    config: StudConfig

    @property
    def start(self) -> StudStarted: ...
    @property
    def deck(self) -> bytes: ...
    @property
    def events(self) -> tuple[Event, ...]: ...
    @property
    def log(self) -> list[tuple[str, int, int]]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def stacks(self) -> list[int]: ...
    @property
    def folded(self) -> list[bool]: ...
    @property
    def strengths(self) -> tuple[tuple[int, ...], tuple[int, ...] | None] | None: ...
    def cards(self, i: int) -> list[tuple[int, bool]]: ...
    def fold(self, *, seat: int | None = None) -> object: ...
    def check(self, *, seat: int | None = None) -> object: ...
    def call(self, *, seat: int | None = None) -> object: ...
    def post_bring_in(self, *, seat: int | None = None) -> object: ...
    def bet_or_raise(self, to: int, *, seat: int | None = None) -> object: ...


H = TypeVar("H", bound=Recorded)


def _core(start: StudStarted, deck: bytes) -> StudCore:
    config = start.config
    return StudCore(game_code(config.variant), start.stacks, deck, ante=config.ante,
                    bring_in=config.bring_in, small_bet=config.small_bet,
                    big_bet=config.big_bet, dealer=start.dealer, max_raises=config.max_raises)


def _apply(core: StudCore | Recorded, kind: str, player: int, amount: int) -> Event:
    """Play one logged action on ``core``; the event it is."""
    if kind == "fold":
        core.fold(seat=player)
        return Folded(player)
    if kind == "check":
        core.check(seat=player)
        return Checked(player)
    if kind == "bring_in":
        core.post_bring_in(seat=player)
        return Posted(player, "bring_in", amount)
    if kind == "call":
        core.call(seat=player)
        return Called(player, amount)
    if kind == "raise":
        core.bet_or_raise(amount, seat=player)
        return BetOrRaised(player, amount)
    raise SnapshotError(f"unknown log entry {kind!r}")   # pragma: no cover - engine's own kinds


class _Deals:
    """The cards a core has dealt, turned into events as they appear."""

    def __init__(self, core: StudCore, config: StudConfig) -> None:
        self.core = core
        self.seen = [0] * core.players
        self.first = 2 if config.variant.hole_cards == 5 else 3   # cards of the first street
        self.community = False

    def new(self) -> list[Event]:
        core, n = self.core, self.core.players
        order = [(core.dealer + 1 + k) % n for k in range(n)]   # from the dealer's left (E2)
        fresh = {i: core.cards(i)[self.seen[i]:] for i in order}
        out: list[Event] = []
        streets = sorted({self._street(self.seen[i] + k) for i in order
                          for k in range(len(fresh[i]))})
        for street in streets:
            for i in order:
                mine = [card for k, card in enumerate(fresh[i], self.seen[i])
                        if self._street(k) == street]
                if mine:
                    out.append(StudDealt(i, street, tuple([DECK[c] for c, up in mine if not up]),
                                         tuple([DECK[c] for c, up in mine if up])))
        for i in order:
            self.seen[i] += len(fresh[i])
        if core.community is not None and not self.community:
            self.community = True
            # the shared card stands for the last card, seventh street's (E2)
            out.append(BoardDealt(self._street(6), (DECK[core.community],)))
        return out

    def _street(self, k: int) -> int:
        return max(0, k - self.first + 1)


class StudRecorder:
    """A hand's events, kept up to date: a fresh core dealt from the hand's deck follows the
    hand's log, each new entry once (a hand's log only grows), so asking for the events after
    every action costs each action once, not the whole log each time."""

    def __init__(self, start: StudStarted, deck: bytes) -> None:
        self.core = core = _core(start, deck)
        self.out: list[Event] = [start]
        self.out.extend([Posted(player, "ante", amount) for _, player, amount in core.log])
        self.done = len(self.out) - 1   # the hand's log entries followed (the antes so far)
        self.deals = deals = _Deals(core, start.config)
        dealt = deals.new()
        if core.is_over:   # all in on the antes: shown once the first street is dealt
            first = [ev for ev in dealt if isinstance(ev, StudDealt) and ev.street == 0]
            self.out.extend(first)
            self.out.extend(_shown(core, [deals.first] * core.players))
            dealt = dealt[len(first):]
        self.out.extend(dealt)

    def events(self, hand: Recorded) -> tuple[Event, ...]:
        """``hand``'s events: its log's new entries followed, then its end if it is over."""
        core, out = self.core, self.out
        log = hand.log
        for kind, player, amount in log[self.done:]:
            held = [len(core.cards(i)) for i in range(core.players)]
            out.append(_apply(core, kind, player, amount))
            dealt = self.deals.new()
            if core.is_over:   # the betting is over for good
                out.extend(_shown(core, held))
            out.extend(dealt)
        self.done = len(log)
        if hand.is_over:
            return (*out, HandEnded(tuple(hand.stacks)))
        return tuple(out)


def stud_events(hand: Recorded) -> tuple[Event, ...]:
    """The event log of ``hand`` (see :mod:`omaha.game.studevents`), by replaying its log."""
    return StudRecorder(hand.start, hand.deck).events(hand)


def _shown(core: StudCore, held: Sequence[int]) -> list[Event]:
    """At a showdown, the hands still in shown (E6) from the dealer's left, with the cards
    they hold when the betting ends: before an all-in's run-out is dealt, as PHH has it."""
    if core.strengths is None:
        return []
    n = core.players
    order = [(core.dealer + 1 + k) % n for k in range(n)]
    return [Shown(i, tuple([DECK[c] for c, _ in core.cards(i)[:held[i]]]))
            for i in order if not core.folded[i]]


def stud_body(hand: Recorded, *, key: Key = None) -> dict[str, Any]:
    """JSON-compatible sealed data describing ``hand`` exactly (``StudHand.snapshot``)."""
    return sealed(STUD_HAND, {"deck": format_cards(list(hand.deck)),
                              "events": [event.to_dict() for event in hand.events]}, key)


NewStudHand = Callable[[StudStarted, bytes], H]
"""Deals a stud hand from its start event and its whole deck."""


def restore_stud(new_hand: NewStudHand[H], data: Mapping[str, Any], *, key: Key = None) -> H:
    """The hand a :func:`stud_body` dict describes, re-derived by replaying it."""
    data = opened(data, STUD_HAND, key)
    try:
        if type(data["deck"]) is not str:
            raise SnapshotError("a stud hand snapshot's deck is text (52 cards)")
        if type(data["events"]) is not list or not data["events"]:
            raise SnapshotError("a stud hand snapshot's events are a non-empty list")
        try:
            deck = parse_cards(data["deck"])
        except OmahaError as exc:
            raise SnapshotError(f"a stud hand snapshot's deck: {exc}") from exc
        events = [stud_event_from_dict(item) for item in data["events"]]
    except SnapshotError:
        raise
    except (OmahaError, KeyError, TypeError, ValueError) as exc:
        raise refusal("bad", what=STUD_HAND.what, error=exc) from exc
    if len(deck) != 52 or len(set(deck)) != 52:
        raise SnapshotError(f"a stud hand snapshot's deck holds the 52 cards once each, got "
                            f"{len(deck)} cards ({len(set(deck))} distinct) (C1)")
    return replay_stud(new_hand, events, bytes(deck))


def replay_stud(new_hand: NewStudHand[H], events: Sequence[Event], deck: bytes) -> H:
    """A new hand dealt from ``deck`` with the decisions of ``events`` replayed; refused
    unless its own log is ``events`` exactly."""
    start = events[0] if events else None
    if not isinstance(start, StudStarted):
        raise SnapshotError("a stud event log starts with a stud_started event")
    try:
        hand = new_hand(start, deck)
        for event in events[1:]:
            if isinstance(event, Posted) and event.what == "bring_in":
                hand.post_bring_in(seat=event.seat)
            else:
                replay_decision(hand, event)   # dealing and awards follow by themselves
    except SnapshotError:
        raise
    except (OmahaError, TypeError, ValueError) as exc:
        raise SnapshotError(f"the stud event log does not replay: {exc}") from exc
    if list(hand.events) != list(events):
        raise SnapshotError("the replayed stud hand differs from its event log")
    return hand
