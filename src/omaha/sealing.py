"""Integrity of snapshots: plain bounded JSON data, a canonical form and its digest.

Every snapshot (hand, table, clocked hand) carries a format version and a ``digest`` over
its canonical JSON form (sorted keys, no spaces): ``sha256:...`` by default, so any edit that
was not re-digested is refused, or ``hmac-sha256:...`` when made with a ``key`` (bytes), so
that a snapshot which crossed a trust boundary can only come from the holder of the key.
This module knows nothing of hands or tables; :mod:`omaha.snapshot` is the public face.

>>> body = seal({"format": "demo/1", "n": 1}, None)
>>> body["digest"][:7]
'sha256:'
>>> check_digest(body, None)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from collections.abc import Mapping
from typing import Any

from omaha.errors import SnapshotError
from omaha.limits import MAX_SNAPSHOT_DEPTH, MAX_SNAPSHOT_ITEMS

__all__ = [
    "HAND_FORMAT",
    "MAX_SNAPSHOT_BYTES",
    "TABLE_FORMAT",
    "Key",
    "check_digest",
    "check_shape",
    "exact_keys",
    "loads_snapshot",
    "opened",
    "seal",
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
    body["digest"] = _digest(body, _key_bytes(key))
    return body


def opened(data: object, expected: str, key: Key) -> Mapping[str, Any]:
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


def exact_keys(data: Mapping[str, Any], keys: set[str], what: str) -> None:
    if set(data) != keys:
        missing, extra = sorted(keys - set(data)), sorted(set(data) - keys)
        raise SnapshotError(f"{what}: missing fields {missing}, unknown fields {extra}")
