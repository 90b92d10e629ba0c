"""Writing a hand the engine played as a PHH history.

:func:`history_from_events` turns the engine's event log (:attr:`omaha.hand.Hand.events`)
into a :class:`~omaha.phh.HandHistory`: players in PHH order (p1 left of the button, the
button last), the forced bets as PHH arrays, every card dealt (``d dh`` in player order,
``d db`` per street), every action (``f``, ``cc``, ``cbr`` to a total) and the showdown
(``sm`` with the cards, or alone for a muck), the table seats in ``seats`` and the final
stacks in ``finishing_stacks``. Replaying the result gives the same final stacks.

What the standard cannot say is written in documented extensions (see
:mod:`omaha.phh.stakes` and :mod:`omaha.phh.replay`): live blinds, the fixed-limit cap
options, the rake (``_rake``), and a D2 protected all-in as the no-op
``"# pN protected all-in (D2)"``. A timed-out action carries the commentary
``timed out (D2)``.

>>> import random
>>> from omaha.config import GameConfig
>>> from omaha.hand import Hand
>>> hand = Hand(GameConfig.pot_limit(small_blind=1, big_blind=2), stacks={1: 50, 4: 80, 6: 60},
...             button=4, rng=random.Random(1))
>>> hand.fold(); hand.fold()
>>> hh = history_from_events(hand.events)
>>> hh.metadata["seats"], hh.starting_stacks, hh.actions[-2:], hh.finishing_stacks
((6, 1, 4), (60, 50, 80), ('p3 f', 'p1 f'), (59, 51, 80))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from omaha.events import (
    BetOrRaised,
    BoardDealt,
    Called,
    Checked,
    Event,
    Folded,
    HandEnded,
    HandStarted,
    HoleDealt,
    Mucked,
    PotAwarded,
    ProtectedAllIn,
    Shown,
    TimedOut,
)
from omaha.phh.actions import (
    Action,
    BetOrRaiseTo,
    CheckOrCall,
    DealBoard,
    DealHole,
    Fold,
    NoOp,
    ShowOrMuck,
    format_action,
)
from omaha.phh.errors import HistoryError
from omaha.phh.history import HandHistory
from omaha.phh.seats import phh_order
from omaha.phh.stakes import forced_bet_fields

__all__ = ["history_from_events"]


def history_from_events(
    events: Iterable[Event],
    *,
    metadata: Mapping[str, Any] | None = None,
    user_fields: Mapping[str, Any] | None = None,
) -> HandHistory:
    """The PHH history of one engine hand, from its event log.

    Args:
        events: the hand's events, starting with :class:`~omaha.events.HandStarted`.
        metadata: optional PHH fields to add (``players``, ``hand``, ``table``,
            ``seat_count``...); ``seats`` defaults to the table seats.
        user_fields: ``_name`` fields to add.

    Raises:
        HistoryError: the log does not start with HandStarted, or the game has no PHH code.
    """
    events = list(events)
    if not events or not isinstance(events[0], HandStarted):
        raise HistoryError("an engine event log starts with HandStarted")
    start = events[0]
    order = phh_order(start.seats, start.button)
    player = {seat: index for index, seat in enumerate(order)}
    stacks = dict(zip(start.seats, start.stacks))
    fields = forced_bet_fields(start.config, len(order), [player[s] for s in start.live_blinds])
    extra = dict(fields.pop("user_fields"))
    actions: list[str] = []
    holes: dict[int, tuple[int, ...]] = {}
    note: str | None = None
    rake = 0
    finishing: tuple[int, ...] | None = None
    for event in events[1:]:
        action: Action | None = None
        if isinstance(event, HoleDealt):
            holes[player[event.seat]] = tuple(event.cards)
            if len(holes) == len(order):  # all dealt: write them in player order
                actions.extend(format_action(DealHole(p, holes[p])) for p in sorted(holes))
        elif isinstance(event, BoardDealt):
            action = DealBoard(tuple(event.cards))
        elif isinstance(event, Folded):
            action = Fold(player[event.seat])
        elif isinstance(event, (Checked, Called)):
            action = CheckOrCall(player[event.seat])
        elif isinstance(event, BetOrRaised):
            action = BetOrRaiseTo(player[event.seat], event.to)
        elif isinstance(event, Shown):
            action = ShowOrMuck(player[event.seat], tuple(event.cards))
        elif isinstance(event, Mucked):
            action = ShowOrMuck(player[event.seat])
        elif isinstance(event, ProtectedAllIn):
            action = NoOp(f"p{player[event.seat] + 1} protected all-in (D2)")
        elif isinstance(event, TimedOut):
            note = "timed out (D2)"
        elif isinstance(event, PotAwarded):
            rake += event.rake
        elif isinstance(event, HandEnded):
            ended = dict(zip(start.seats, event.stacks))
            finishing = tuple(ended[s] for s in order)
        if action is not None:
            if note is not None and not isinstance(action, NoOp):  # the timeout's consequence
                action, note = replace(action, commentary=note), None
            actions.append(format_action(action))
    if rake:
        extra["_rake"] = rake
    extra.update(user_fields or {})
    return HandHistory(
        **fields,
        starting_stacks=[stacks[s] for s in order],
        actions=actions,
        finishing_stacks=finishing,
        metadata={"seats": list(order), **(metadata or {})},
        user_fields=extra,
    )
