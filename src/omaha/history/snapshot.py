"""Snapshot, restore and replay of hands and tables: the public face of three modules.

A hand snapshot is the dealt card sequence plus the event log, as JSON-compatible data
(:mod:`omaha.history.record`). Restoring replays the players' decisions from the log on a fresh hand
dealt from the same cards and checks that the replay reproduces the log event for event; so
a restored hand is the same game and continues identically. A table snapshot
(:mod:`omaha.game.table`) is checked field by field against its hand and its own rules. Every
snapshot travels in one envelope, written and checked by the codec :mod:`omaha.history.sealing`
(format, fields, digest or signature, and the wording of every refusal); its public names
are re-exported here.

Every snapshot carries a format version and a ``digest`` over its canonical JSON form
(sorted keys, no spaces): ``sha256:...`` by default, so any edit that was not re-digested is
refused, or ``hmac-sha256:...`` when made with a ``key`` (bytes), so that a snapshot which
crossed a trust boundary can only come from the holder of the key. Restore refuses, with
:class:`~omaha.errors.SnapshotError`: another format (the old ``omaha-hand/1`` and
``omaha-table/1`` included), a digest that does not match, an unsigned snapshot when a key
is given (and a signed one when none is), data nested deeper than
:data:`~omaha.limits.MAX_SNAPSHOT_DEPTH` or holding more than
:data:`~omaha.limits.MAX_SNAPSHOT_ITEMS` values (checked without recursion), any value that
is not plain JSON data, and any state the rules could not have produced.

>>> import json, random
>>> from omaha.config import GameConfig
>>> from omaha.game.hand import Hand
>>> hand = Hand(GameConfig.no_limit(small_blind=1, big_blind=2),
...             stacks={1: 50, 2: 80}, button=1, rng=random.Random(4))
>>> hand.bet_or_raise(to=6)
>>> copy = Hand.restore(json.loads(json.dumps(hand.snapshot())))
>>> copy.events == hand.events, copy.to_act
(True, 2)
>>> signed = hand.snapshot(key=b"server secret")
>>> signed["digest"][:12], Hand.restore(signed, key=b"server secret").to_act
('hmac-sha256:', 2)
>>> Hand.restore(signed, key=b"guess")
Traceback (most recent call last):
...
omaha.errors.SnapshotError: the snapshot's digest does not match its content: it was edited, or signed with another key

Text from outside should be read with :func:`loads_snapshot`, which checks the size and the
nesting depth before :func:`json.loads` (whose parser recurses) sees it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from omaha.game.events import Event
from omaha.game.hand import Hand
from omaha.game.rake import RakeRule
from omaha.game.table import restore_table, snapshot_table
from omaha.history.record import deck_from_events, hand_body, replay_with, restore_with
from omaha.history.sealing import (
    HAND_FORMAT,
    MAX_SNAPSHOT_BYTES,
    SNAPSHOT_FORMATS,
    TABLE_FORMAT,
    Key,
    SnapshotFormat,
    check_digest,
    check_shape,
    dumps_snapshot,
    loads_snapshot,
    seal,
)

__all__ = [
    "HAND_FORMAT",
    "MAX_SNAPSHOT_BYTES",
    "SNAPSHOT_FORMATS",
    "TABLE_FORMAT",
    "SnapshotFormat",
    "check_digest",
    "check_shape",
    "deck_from_events",
    "dumps_snapshot",
    "loads_snapshot",
    "replay",
    "restore_hand",
    "restore_table",
    "seal",
    "snapshot_hand",
    "snapshot_table",
]


def snapshot_hand(hand: Hand, *, key: Key = None) -> dict[str, Any]:
    """JSON-compatible data describing ``hand`` exactly (see :meth:`Hand.snapshot`)."""
    return hand_body(hand, key=key)


def restore_hand(data: Mapping[str, Any], *, rake: RakeRule | None = None,
                 key: Key = None) -> Hand:
    """The hand a :func:`snapshot_hand` dict describes, re-derived by replaying it."""
    return restore_with(Hand._dealt_for_replay, data, rake=rake, key=key)


def replay(events: Sequence[Event], *, deck: Sequence[int] | None = None,
           rake: RakeRule | None = None, manual_showdown: bool = False) -> Hand:
    """Rebuild a hand from its event log by replaying every decision in it.

    ``deck`` is the whole dealt sequence; without it the cards are read from the log, and
    cards the log never dealt are filled in arbitrarily (enough to reproduce a finished hand;
    to continue a hand in progress, restore a snapshot). Raises :class:`SnapshotError` when
    the log is malformed or the replay does not reproduce it exactly.
    """
    return replay_with(Hand._dealt_for_replay, events, deck=deck, rake=rake,
                       manual_showdown=manual_showdown)
