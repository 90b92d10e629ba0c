"""Per-seat event streams with sequence numbers, so a client can resume where it stopped.

Every event of a table gets the next sequence number of that table (1, 2, ...), hand after
hand; the number of event ``i`` of a hand is ``base + i + 1`` where ``base`` is the number
before the hand's first event. Because a restored hand reproduces its event log exactly
(:meth:`omaha.game.hand.Hand.restore`), the numbers survive a server crash: the server stores
``base`` with the hand and recomputes the rest.

Each seat sees the same numbered stream with others' hole cards and the burns hidden (by
:func:`omaha.game.view.event_for_seat`, the views' own rule, re-exported here), so ``seq`` means
the same thing to every client at the table.

>>> log = EventLog()
>>> log.start_hand(hand=1, base=0)
>>> new = log.extend([{"type": "hole_dealt", "seat": 1, "cards": "AhKh2c3d"},
...                   {"type": "hole_dealt", "seat": 2, "cards": "QsQd5c6c"},
...                   {"type": "folded", "seat": 1}])
>>> [item["seq"] for item in log.since(1, seat=2)]
[2, 3]
>>> log.since(0, seat=2)[0]["event"]
{'type': 'hole_dealt', 'seat': 1, 'cards': None}
>>> log.last_seq
3
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from omaha.game.view import event_for_seat

__all__ = ["EventLog", "HandEvents", "event_for_seat", "numbered"]


def numbered(seq: int, hand: int, event: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """One stream item: ``{"seq", "hand", "event"}`` with the event filtered for ``seat``."""
    return {"seq": seq, "hand": hand, "event": event_for_seat(event, seat)}


@dataclass
class HandEvents:
    """The omniscient events of one hand and the sequence number before its first event."""

    hand: int
    base: int
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def last_seq(self) -> int:
        """The number of this hand's last event (``base`` if it has none yet)."""
        return self.base + len(self.events)


class EventLog:
    """The numbered events of a table's last ``keep`` hands (older ones live in storage)."""

    def __init__(self, keep: int = 3) -> None:
        self._hands: deque[HandEvents] = deque(maxlen=keep)

    @property
    def last_seq(self) -> int:
        """The number of the newest event (0 before any)."""
        return self._hands[-1].last_seq if self._hands else 0

    @property
    def first_seq(self) -> int | None:
        """The number before the oldest event kept, or None when empty."""
        return self._hands[0].base if self._hands else None

    @property
    def current(self) -> HandEvents | None:
        """The newest hand's events."""
        return self._hands[-1] if self._hands else None

    def start_hand(self, *, hand: int, base: int) -> None:
        """Begin a hand whose first event will be number ``base + 1``."""
        self._hands.append(HandEvents(hand, base))

    def add_finished(self, hand: HandEvents) -> None:
        """Put a stored hand back (oldest first), e.g. after a restart."""
        self._hands.append(hand)

    def extend(self, events: Iterable[Mapping[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
        """Append the current hand's new events; returns them with their numbers."""
        current = self._hands[-1]
        out = []
        for event in events:
            current.events.append(dict(event))
            out.append((current.last_seq, current.events[-1]))
        return out

    def since(self, last_seq: int, *, seat: int | None) -> list[dict[str, Any]] | None:
        """The items after ``last_seq`` for ``seat``, or None when they are no longer kept."""
        if last_seq >= self.last_seq:
            return []
        first = self.first_seq
        if first is None or last_seq < first:
            return None
        out = []
        for hand in self._hands:
            start = max(0, last_seq - hand.base)
            for i in range(start, len(hand.events)):
                out.append(numbered(hand.base + i + 1, hand.hand, hand.events[i], seat))
        return out
