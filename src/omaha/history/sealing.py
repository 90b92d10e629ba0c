"""The snapshot codec: the envelope every snapshot travels in, written and checked in one place.

Every snapshot (hand, table, clocked hand) is a JSON-compatible dict in one envelope: a
``format`` naming its kind and version (one :class:`SnapshotFormat` each, in
:data:`SNAPSHOT_FORMATS`), the kind's own fields, and a ``digest`` over its canonical JSON
form (sorted keys, no spaces): ``sha256:...`` by default, so any edit that was not
re-digested is refused, or ``hmac-sha256:...`` when made with a ``key`` (bytes), so that a
snapshot which crossed a trust boundary can only come from the holder of the key.

:func:`sealed` writes the envelope and :func:`opened` checks it (plain bounded JSON data, the
format, exactly the kind's fields, the digest); every refusal is worded by
:data:`REFUSALS`. What the fields mean, and whether they agree with the rules, is for the
hand (:mod:`omaha.history.record`), the table (:mod:`omaha.game.table`) and the clocked hand
(:mod:`omaha.game.clocked`) to check; :mod:`omaha.history.snapshot` is the public face.

>>> DEMO = SnapshotFormat("demo", "demo/1", frozenset({"n"}))
>>> body = sealed(DEMO, {"n": 1}, None)
>>> body["format"], body["digest"][:7]
('demo/1', 'sha256:')
>>> opened(body, DEMO, None)["n"]
1
>>> opened({**body, "n": 2}, DEMO, None)
Traceback (most recent call last):
...
omaha.errors.SnapshotError: the snapshot's digest does not match its content: it was edited, or signed with another key
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from omaha.errors import SnapshotError
from omaha.limits import MAX_SNAPSHOT_DEPTH, MAX_SNAPSHOT_ITEMS

__all__ = [
    "CLOCKED_HAND",
    "HAND",
    "HAND_FORMAT",
    "MAX_SNAPSHOT_BYTES",
    "REFUSALS",
    "SNAPSHOT_FORMATS",
    "TABLE",
    "TABLE_FORMAT",
    "Key",
    "SnapshotFormat",
    "check_digest",
    "check_shape",
    "dumps_snapshot",
    "exact_keys",
    "loads_snapshot",
    "opened",
    "refusal",
    "seal",
    "sealed",
    "unsealed",
]

MAX_SNAPSHOT_BYTES = 16 * 2**20
"""Largest snapshot text :func:`loads_snapshot` reads (16 MiB)."""

Key = bytes | bytearray | str | None
_JSON_LEAVES = (str, int, bool, type(None))


# --- the formats ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SnapshotFormat:
    """One kind of snapshot: ``kind`` names it in refusals (``"hand"``: "a hand snapshot"),
    ``name`` is its ``format`` value, ``fields`` its own fields (besides ``format`` and
    ``digest``), and ``retired`` the older formats of the kind, refused by name (they had no
    digest)."""

    kind: str
    name: str
    fields: frozenset[str]
    retired: tuple[str, ...] = ()

    @property
    def what(self) -> str:
        """``"hand snapshot"``: how refusals name the data."""
        return f"{self.kind} snapshot"


HAND = SnapshotFormat("hand", "omaha-hand/2", frozenset({"deck", "manual_showdown", "events"}),
                      ("omaha-hand/1",))
TABLE = SnapshotFormat("table", "omaha-table/2", frozenset({
    "config", "seat_count", "manual_showdown", "button", "hands", "joined", "synced", "rng",
    "seats", "hand"}), ("omaha-table/1",))
CLOCKED_HAND = SnapshotFormat("clocked hand", "omaha-clocked-hand/2",
                              frozenset({"hand", "clock", "clock_events"}),
                              ("omaha-clocked-hand/1",))
SNAPSHOT_FORMATS = (HAND, TABLE, CLOCKED_HAND)
"""Every snapshot this version writes and restores."""
HAND_FORMAT = HAND.name
TABLE_FORMAT = TABLE.name


# --- refusals ---------------------------------------------------------------------------------

REFUSALS: dict[str, str] = {
    "key": "a snapshot key is non-empty bytes (or str)",
    "not_dict": "a {what} is a dict, got {got}",
    "format": "not a {what} (format {found!r}; this version restores {expected})",
    "retired": "snapshot format {found} is no longer restored (it has no digest); this "
               "version restores {expected}",
    "fields": "{what}: missing fields {missing}, unknown fields {extra}",
    "bad": "bad {what}: {error}",
    "no_digest": "the snapshot has no digest",
    "signed": "the snapshot is signed: restore it with its key",
    "unsigned": "the snapshot is not signed, and a key was given: refused",
    "mismatch": "the snapshot's digest does not match its content: it was edited, or signed "
                "with another key",
    "too_many": "the {what} holds more than {limit} values",
    "too_deep": "the {what} is nested deeper than {limit} levels",
    "text_key": "the {what} has a non-text key {key!r}",
    "non_finite": "the {what} holds a non-finite number {value!r}",
    "not_json_value": "the {what} holds a {type}, which is not JSON data",
    "text_type": "snapshot text must be str or bytes, got {type}",
    "not_utf8": "the snapshot text is not UTF-8 (byte {at})",
    "too_long": "the snapshot text is longer than {limit} characters",
    "not_json_text": "the snapshot text is not JSON: {error}",
    "constant": "the snapshot text holds {name}, which is not a number of chips",
}
"""The wording of every refusal of the codec, by code; :func:`refusal` fills it in."""


def refusal(code: str, **values: object) -> SnapshotError:
    """The :class:`SnapshotError` for ``code`` of :data:`REFUSALS`, its blanks filled in.

    >>> str(refusal("bad", what="table snapshot", error="seats must be a list"))
    'bad table snapshot: seats must be a list'
    """
    return SnapshotError(REFUSALS[code].format(**values))


# --- plain bounded JSON data ------------------------------------------------------------------

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
            raise refusal("too_many", what=what, limit=MAX_SNAPSHOT_ITEMS)
        kind = type(value)
        if kind is dict or kind is list or kind is tuple:
            if depth >= MAX_SNAPSHOT_DEPTH:
                raise refusal("too_deep", what=what, limit=MAX_SNAPSHOT_DEPTH)
            if kind is dict:
                for key in value:  # type: ignore[attr-defined]
                    if type(key) is not str:
                        raise refusal("text_key", what=what, key=key)
                items = value.values()  # type: ignore[attr-defined]
            else:
                items = value
            count += len(items)
            if count > MAX_SNAPSHOT_ITEMS:
                raise refusal("too_many", what=what, limit=MAX_SNAPSHOT_ITEMS)
            stack.extend((item, depth + 1) for item in items)
            count -= len(items)   # each is counted when popped
        elif kind is float:
            if not math.isfinite(value):  # type: ignore[arg-type]
                raise refusal("non_finite", what=what, value=value)
        elif kind not in _JSON_LEAVES:
            raise refusal("not_json_value", what=what, type=kind.__name__)


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
            raise refusal("not_utf8", at=exc.start) from None
    if not isinstance(text, str):
        raise refusal("text_type", type=type(text).__name__)
    if len(text) > MAX_SNAPSHOT_BYTES:
        raise refusal("too_long", limit=MAX_SNAPSHOT_BYTES)
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
                raise refusal("too_deep", what="snapshot text", limit=MAX_SNAPSHOT_DEPTH)
        elif char in "]}":
            depth -= 1
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise refusal("not_json_text", error=exc) from None
    check_shape(data)
    return data


def dumps_snapshot(data: Mapping[str, Any]) -> str:
    """The text a snapshot is stored as (compact JSON); :func:`loads_snapshot` reads it back.

    >>> dumps_snapshot({"format": "demo/1", "n": [1, 2]})
    '{"format":"demo/1","n":[1,2]}'
    """
    return json.dumps(data, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def _no_constant(name: str) -> Any:
    raise refusal("constant", name=name)


# --- the envelope: format, fields, digest -----------------------------------------------------

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
        raise refusal("key")
    return bytes(key)


def _digest(data: Mapping[str, Any], key: bytes | None) -> str:
    canonical = _canonical(data)
    if key is None:
        return "sha256:" + hashlib.sha256(canonical).hexdigest()
    return "hmac-sha256:" + hmac.new(key, canonical, hashlib.sha256).hexdigest()


def seal(body: dict[str, Any], key: Key) -> dict[str, Any]:
    """``body`` with its ``digest`` added (an HMAC-SHA256 signature when ``key`` is given)."""
    body["digest"] = _digest(body, _key_bytes(key))
    return body


def sealed(form: SnapshotFormat, fields: Mapping[str, Any], key: Key) -> dict[str, Any]:
    """The snapshot of ``form`` holding ``fields`` (exactly its fields), digested or signed."""
    exact_keys(fields, form.fields, form.what)
    return seal({"format": form.name, **fields}, key)


def unsealed(data: object, form: SnapshotFormat, key: Key) -> dict[str, Any]:
    """``data`` checked to be a snapshot of ``form``: a valid ``key``, plain bounded JSON
    data, its format and exactly its fields; the digest is left to :func:`check_digest`.

    For a kind whose own checks are cheap and name an inconsistency better than a digest
    mismatch would (the clocked hand: its costly part, the hand, is sealed on its own).
    """
    _key_bytes(key)   # a bad key is refused first
    check_shape(data)
    if type(data) is not dict:
        raise refusal("not_dict", what=form.what, got=type(data).__name__)
    found = data.get("format")
    if found != form.name:
        if found in form.retired:
            raise refusal("retired", found=found, expected=form.name)
        raise refusal("format", what=form.what, found=found, expected=form.name)
    exact_keys(data, form.fields | {"format", "digest"}, form.what)
    return data


def opened(data: object, form: SnapshotFormat, key: Key) -> dict[str, Any]:
    """``data`` checked to be a snapshot of ``form`` sealed with ``key`` (see
    :func:`unsealed`), its digest included: what a restore may then read."""
    checked = unsealed(data, form, key)
    check_digest(checked, key)
    return checked


def check_digest(data: Mapping[str, Any], key: Key) -> None:
    """Refuse ``data`` (shape already checked) unless its ``digest`` matches its content
    (sealed with ``key`` when one is given, see the module docstring)."""
    secret = _key_bytes(key)
    digest = data.get("digest")
    if type(digest) is not str:
        raise refusal("no_digest")
    if secret is None and digest.startswith("hmac-"):
        raise refusal("signed")
    if secret is not None and not digest.startswith("hmac-"):
        raise refusal("unsigned")
    if not digest.isascii() or not hmac.compare_digest(digest, _digest(data, secret)):
        raise refusal("mismatch")


def exact_keys(data: Mapping[str, Any], keys: set[str] | frozenset[str], what: str) -> None:
    """Refuse ``data`` unless its keys are exactly ``keys`` (``what`` names it)."""
    if set(data) != keys:
        missing, extra = sorted(keys - set(data)), sorted(set(data) - keys)
        raise refusal("fields", what=what, missing=missing, extra=extra)
