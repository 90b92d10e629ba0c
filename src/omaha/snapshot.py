"""Snapshot, restore and replay of hands (and tables, see :mod:`omaha.table`).

A hand snapshot is the dealt card sequence plus the event log, as JSON-compatible data.
Restoring replays the players' decisions from the log on a fresh hand dealt from the same
cards and checks that the replay reproduces the log event for event; so a restored hand is
the same game and continues identically. A table snapshot is checked field by field against
its hand and its own rules.

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
>>> from omaha.hand import Hand
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

import hashlib
import hmac
import json
import math
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
from omaha.limits import MAX_CHIPS, MAX_SNAPSHOT_DEPTH, MAX_SNAPSHOT_ITEMS
from omahacore.cards import format_cards, parse_cards

if TYPE_CHECKING:
    from omaha.hand import Hand, RakeRule
    from omaha.table import Table

__all__ = [
    "HAND_FORMAT",
    "MAX_SNAPSHOT_BYTES",
    "TABLE_FORMAT",
    "check_digest",
    "check_shape",
    "deck_from_events",
    "loads_snapshot",
    "replay",
    "restore_hand",
    "restore_table",
    "seal",
    "snapshot_hand",
    "snapshot_table",
]

HAND_FORMAT = "omaha-hand/2"
TABLE_FORMAT = "omaha-table/2"
_OLD_FORMATS = ("omaha-hand/1", "omaha-table/1", "omaha-clocked-hand/1")
MAX_SNAPSHOT_BYTES = 16 * 2**20
"""Largest snapshot text :func:`loads_snapshot` reads (16 MiB)."""

Key = bytes | bytearray | str | None
_JSON_LEAVES = (str, int, bool, type(None))


# --- integrity: shape, canonical form, digest -------------------------------------------

def check_shape(data: object, what: str = "snapshot") -> None:
    """Refuse data that is not plain JSON data of bounded depth and size (no recursion).

    Containers are exactly ``dict`` (with ``str`` keys), ``list`` or ``tuple``; leaves are
    ``str``, ``int``, ``bool``, ``None`` or a finite ``float`` (subclasses, whose behaviour a
    caller controls, are refused). Depth is at most :data:`MAX_SNAPSHOT_DEPTH`, and there are
    at most :data:`MAX_SNAPSHOT_ITEMS` values.
    """
    stack: list[tuple[object, int]] = [(data, 1)]
    count = 0
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > MAX_SNAPSHOT_ITEMS:
            raise SnapshotError(f"the {what} holds more than {MAX_SNAPSHOT_ITEMS} values")
        kind = type(value)
        if kind is dict or kind is list or kind is tuple:
            if depth >= MAX_SNAPSHOT_DEPTH:
                raise SnapshotError(f"the {what} is nested deeper than {MAX_SNAPSHOT_DEPTH} "
                                    "levels")
            if kind is dict:
                for key in value:  # type: ignore[attr-defined]
                    if type(key) is not str:
                        raise SnapshotError(f"the {what} has a non-text key {key!r}")
                items = value.values()  # type: ignore[attr-defined]
            else:
                items = value
            count += len(items)
            if count > MAX_SNAPSHOT_ITEMS:
                raise SnapshotError(f"the {what} holds more than {MAX_SNAPSHOT_ITEMS} values")
            stack.extend((item, depth + 1) for item in items)
            count -= len(items)   # each is counted when popped
        elif kind is float:
            if not math.isfinite(value):  # type: ignore[arg-type]
                raise SnapshotError(f"the {what} holds a non-finite number {value!r}")
        elif kind not in _JSON_LEAVES:
            raise SnapshotError(f"the {what} holds a {kind.__name__}, which is not JSON data")


def loads_snapshot(text: str | bytes) -> Any:
    """Parse snapshot JSON text from outside, refusing oversize or over-deep text first.

    :func:`json.loads` recurses once per nesting level, so deep text could raise
    :class:`RecursionError`; this scans the brackets first (iteratively).

    >>> loads_snapshot('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> loads_snapshot("[" * 100_000)
    Traceback (most recent call last):
    ...
    omaha.errors.SnapshotError: the snapshot text is nested deeper than 16 levels
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SnapshotError(f"the snapshot text is not UTF-8 (byte {exc.start})") from None
    if not isinstance(text, str):
        raise SnapshotError(f"snapshot text must be str or bytes, got {type(text).__name__}")
    if len(text) > MAX_SNAPSHOT_BYTES:
        raise SnapshotError(f"the snapshot text is longer than {MAX_SNAPSHOT_BYTES} characters")
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth >= MAX_SNAPSHOT_DEPTH:
                raise SnapshotError(f"the snapshot text is nested deeper than "
                                    f"{MAX_SNAPSHOT_DEPTH} levels")
        elif char in "]}":
            depth -= 1
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise SnapshotError(f"the snapshot text is not JSON: {exc}") from None
    check_shape(data)
    return data


def _no_constant(name: str) -> Any:
    raise SnapshotError(f"the snapshot text holds {name}, which is not a number of chips")


def _canonical(data: Mapping[str, Any]) -> bytes:
    """The canonical JSON form of ``data`` without its digest (shape already checked)."""
    body = {k: v for k, v in data.items() if k != "digest"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False).encode("ascii")


def _key_bytes(key: Key) -> bytes | None:
    if key is None:
        return None
    if isinstance(key, str):
        key = key.encode("utf-8")
    if not isinstance(key, (bytes, bytearray)) or not key:
        raise SnapshotError("a snapshot key is non-empty bytes (or str)")
    return bytes(key)


def _digest(data: Mapping[str, Any], key: bytes | None) -> str:
    canonical = _canonical(data)
    if key is None:
        return "sha256:" + hashlib.sha256(canonical).hexdigest()
    return "hmac-sha256:" + hmac.new(key, canonical, hashlib.sha256).hexdigest()


def seal(body: dict[str, Any], key: Key) -> dict[str, Any]:
    """``body`` with its ``digest`` added (an HMAC-SHA256 signature when ``key`` is given)."""
    return _sealed(body, key)


def _sealed(body: dict[str, Any], key: Key) -> dict[str, Any]:
    body["digest"] = _digest(body, _key_bytes(key))
    return body


def _opened(data: object, expected: str, key: Key) -> Mapping[str, Any]:
    """``data`` checked: plain bounded JSON data, the ``expected`` format, a matching digest."""
    _key_bytes(key)   # a bad key is refused first
    check_shape(data)
    if not isinstance(data, dict):
        raise SnapshotError(f"a snapshot is a dict, got {type(data).__name__}")
    found = data.get("format")
    if found != expected:
        if found in _OLD_FORMATS:
            raise SnapshotError(f"snapshot format {found} is no longer restored (it has no "
                                f"digest); this version restores {expected}")
        raise SnapshotError(f"not a {expected} snapshot (format {found!r})")
    check_digest(data, key)
    return data


def check_digest(data: Mapping[str, Any], key: Key) -> None:
    """Refuse ``data`` (shape already checked) unless its ``digest`` matches its content
    (sealed with ``key`` when one is given, see the module docstring)."""
    secret = _key_bytes(key)
    digest = data.get("digest")
    if type(digest) is not str:
        raise SnapshotError("the snapshot has no digest")
    if secret is None and digest.startswith("hmac-"):
        raise SnapshotError("the snapshot is signed: restore it with its key")
    if secret is not None and not digest.startswith("hmac-"):
        raise SnapshotError("the snapshot is not signed, and a key was given: refused")
    if not digest.isascii() or not hmac.compare_digest(digest, _digest(data, secret)):
        raise SnapshotError("the snapshot's digest does not match its content: it was "
                            "edited, or signed with another key")


def _exact_keys(data: Mapping[str, Any], keys: set[str], what: str) -> None:
    if set(data) != keys:
        missing, extra = sorted(keys - set(data)), sorted(set(data) - keys)
        raise SnapshotError(f"{what}: missing fields {missing}, unknown fields {extra}")


# --- hands -------------------------------------------------------------------------------

def snapshot_hand(hand: Hand, *, key: Key = None) -> dict[str, Any]:
    """JSON-compatible data describing ``hand`` exactly (see :meth:`Hand.snapshot`)."""
    return _sealed({
        "format": HAND_FORMAT,
        "deck": format_cards(hand._deck),
        "manual_showdown": hand._manual,
        "events": [event.to_dict() for event in hand.events],
    }, key)


def restore_hand(data: Mapping[str, Any], *, rake: RakeRule | None = None,
                 key: Key = None) -> Hand:
    """The hand a :func:`snapshot_hand` dict describes, re-derived by replaying it."""
    data = _opened(data, HAND_FORMAT, key)
    _exact_keys(data, {"format", "deck", "manual_showdown", "events", "digest"}, "hand snapshot")
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
        raise SnapshotError(f"bad hand snapshot: {exc}") from exc
    if type(manual) is not bool:
        raise SnapshotError(f"manual_showdown must be a bool, got {manual!r}")
    if len(set(deck)) != len(deck):
        raise SnapshotError("the deck deals a card twice (C1)")
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
        hand = Hand(start.config, stacks=dict(zip(seats, stacks)),
                    button=start.button, live_blinds=start.live_blinds, deck=cards,
                    rake=rake, manual_showdown=True)
        _replay_decisions(hand, events)
    except SnapshotError:
        raise
    except (OmahaError, TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
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


def _rng_state(rng: random.Random | None) -> Any:
    """JSON-compatible state of a seeded generator; None for the OS generator."""
    if rng is None or isinstance(rng, random.SystemRandom):
        return None
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from(state: Any) -> random.Random | None:
    if state is None:
        return None
    if (type(state) is not list or len(state) != 3 or type(state[0]) is not int
            or type(state[1]) is not list or len(state[1]) != 625
            or any(type(x) is not int or not 0 <= x < 2**32 for x in state[1])
            or not (state[2] is None or type(state[2]) is float)):
        raise SnapshotError("bad generator state: expected [3, 625 words, None or a float]")
    try:
        rng = random.Random()
        rng.setstate((state[0], tuple(state[1]), state[2]))
        return rng
    except (TypeError, ValueError, IndexError, OverflowError) as exc:
        raise SnapshotError(f"bad generator state: {exc}") from exc


_TABLE_KEYS = {"format", "config", "seat_count", "manual_showdown", "button", "hands", "joined",
               "synced", "rng", "seats", "hand", "digest"}
_SEAT_KEYS = {"seat", "name", "stack", "status", "joined"}


def snapshot_table(table: Table, *, key: Key = None) -> dict[str, Any]:
    """JSON-compatible data describing ``table`` and its current hand exactly."""
    table._sync()   # a finished hand's stacks are the table's: one canonical form
    hand = table.hand
    return _sealed({
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
        "hand": None if hand is None else snapshot_hand(hand, key=key),
    }, key)


def restore_table(data: Mapping[str, Any], *, rake: RakeRule | None = None,
                  key: Key = None) -> Table:
    """The table a :func:`snapshot_table` dict describes, every field checked against the
    others and against its hand (which is restored by replay)."""
    from omaha.config import GameConfig
    from omaha.table import Table

    data = _opened(data, TABLE_FORMAT, key)
    _exact_keys(data, _TABLE_KEYS, "table snapshot")
    try:
        table = Table(GameConfig.from_dict(data["config"]), seats=data["seat_count"],
                      rng=_rng_from(data["rng"]), rake=rake,
                      manual_showdown=data["manual_showdown"])
    except SnapshotError:
        raise
    except (TypeError, ValueError, AttributeError) as exc:
        raise SnapshotError(f"bad table snapshot: {exc}") from exc
    _restore_seats(table, data["seats"])
    hands, joined, synced, button = data["hands"], data["joined"], data["synced"], data["button"]
    if type(hands) is not int or hands < 0 or type(synced) is not bool:
        raise SnapshotError("hands must be a count and synced a bool")
    if type(joined) is not int or joined < max((p.joined for p in table._seats.values()),
                                               default=0):
        raise SnapshotError(f"joined must count every seated player, got {joined!r}")
    if (button is None) != (hands == 0) or (data["hand"] is None) != (hands == 0):
        raise SnapshotError("a table has a button and a hand exactly when it has played")
    if button is not None and (type(button) is not int or not 1 <= button <= table.seat_count):
        raise SnapshotError(f"the button must be a seat from 1 to {table.seat_count}, "
                            f"got {button!r}")
    table._button, table._hands, table._joined, table._synced = button, hands, joined, synced
    if data["hand"] is not None:
        table._hand = restore_hand(data["hand"], rake=rake, key=key)
        _check_table_hand(table)
    elif not synced:
        raise SnapshotError("synced must be true when no hand was played")
    return table


def _restore_seats(table: Table, items: object) -> None:
    from omaha.table import PLAYING, POSTING, SITTING_OUT, WAITING, _Seat

    if type(items) is not list:
        raise SnapshotError("seats must be a list")
    joined: set[int] = set()
    total = 0
    for item in items:
        if type(item) is not dict:
            raise SnapshotError(f"a seat entry is a dict, got {item!r}")
        _exact_keys(item, _SEAT_KEYS, "seat entry")
        seat, stack, name, when = item["seat"], item["stack"], item["name"], item["joined"]
        if item["status"] not in (PLAYING, WAITING, POSTING, SITTING_OUT):
            raise SnapshotError(f"unknown seat status {item['status']!r}")
        if (type(seat) is not int or not 1 <= seat <= table.seat_count or seat in table._seats
                or type(stack) is not int or not 0 <= stack <= MAX_CHIPS
                or not (name is None or type(name) is str)
                or type(when) is not int or when < 1 or when in joined):
            raise SnapshotError(f"bad seat entry {item!r}")
        total += stack
        joined.add(when)
        table._seats[seat] = _Seat(name=name, stack=stack, status=item["status"], joined=when)
    if total > MAX_CHIPS:
        raise SnapshotError(f"the table holds {total} chips, above the limit MAX_CHIPS = 2**63-1")


def _check_table_hand(table: Table) -> None:
    """The restored hand must be one this table dealt, in the state the flags claim."""
    hand = table._hand
    assert hand is not None
    if hand.config != table.config or hand._manual != table.manual_showdown:
        raise SnapshotError("the hand plays another game than its table")
    if hand.button != table._button:
        raise SnapshotError(f"the table's button {table._button} is not its hand's "
                            f"{hand.button}")
    if any(seat > table.seat_count for seat in hand.seats):
        raise SnapshotError("the hand deals in a seat the table does not have")
    if table._synced != hand.is_over:
        raise SnapshotError("synced must be true exactly when the hand is over (the table "
                            "takes a finished hand's stacks back)")
    if hand.is_over:
        return
    start = dict(zip(hand.seats, hand._log[0][3]))
    for seat, chips in start.items():
        player = table._seats.get(seat)
        if player is None:
            raise SnapshotError(f"seat {seat} is in the hand in progress but not at the table")
        if player.stack != chips:   # no chips come or go during the hand (B8)
            raise SnapshotError(f"seat {seat} has {player.stack} chips at the table but "
                                f"started the hand in progress with {chips}")
