"""The arena's JSON messages: parsing what clients send, building what the server sends.

Every message is one JSON object per WebSocket text frame with a ``"type"``. Clients send
``join``, ``resume``, ``act``, ``leave``, ``watch``, ``tables``, ``history`` and ``ping``;
the server answers ``joined``, ``resumed``, ``update`` (numbered events, the seat's view and
the players' names), ``leaving`` and ``left`` (a seat given up), ``watching`` (a spectator's
stream begins), ``tables`` (the lobby: every table and the process that plays it),
``history`` (a page of finished hands as the connection may see them), ``redirect`` (that
table is played by another process), ``error`` and ``pong``. The JSON Schema of
every message, and of the engine's events, views and snapshots inside them, ships with the
package (:func:`load_schema`).

Protocol version :data:`PROTOCOL_VERSION` (3): every ``update`` carries ``decision``, the id
of the decision in play, and an ``act`` may quote it (a stale one gets ``stale_decision``);
``tables`` asks for the lobby, and a server of several processes answers a ``join``,
``resume`` or ``watch`` for a table another process plays with ``redirect``. Version 4 adds
``names`` to every ``update`` and the ``history`` request.

>>> parse_client_message('{"type": "act", "action": "bet_or_raise", "to": 12, "decision": 40}')
Act(action='bet_or_raise', to=12, hand=None, seat=None, decision=40)
>>> parse_client_message('{"type": "watch", "table": 2}')
Watch(table=2, last_seq=None)
>>> parse_client_message('{"type": "tables"}')
Tables()
>>> parse_client_message('{"type": "history", "table": 1, "before": 40}')
History(table=1, before=40, limit=10)
>>> parse_client_message('{"type": "act", "action": "raise"}')
Traceback (most recent call last):
...
omaha.arena.messages.ProtocolError: bad_message: unknown action 'raise'; expected one of ...
>>> error_message("not_your_turn", "it is seat 3's turn", rule="B1")
{'type': 'error', 'code': 'not_your_turn', 'message': "it is seat 3's turn", 'rule': 'B1'}
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from omaha.errors import OmahaError
from omaha.limits import as_int, safe_repr

__all__ = [
    "ACTIONS",
    "MAX_NAME",
    "PROTOCOL_VERSION",
    "Act",
    "ClientMessage",
    "Join",
    "HISTORY_PAGE",
    "History",
    "Leave",
    "Ping",
    "ProtocolError",
    "Resume",
    "Tables",
    "Watch",
    "error_message",
    "load_schema",
    "parse_client_message",
]

ACTIONS = ("fold", "check", "call", "check_or_call", "bet_or_raise", "all_in", "show", "muck")
"""The actions a client may send (the :class:`~omaha.game.hand.Hand` methods of those names)."""

PROTOCOL_VERSION = 4
"""The arena protocol's version, sent in ``joined``, ``resumed`` and ``watching``. Version 2
added decision ids (``update.decision``, ``act.decision``, the ``stale_decision`` error);
version 1 clients, which send no ``decision``, play on unchanged. Version 3 added the lobby
(``tables``, asked for by the client) and ``redirect`` (a table another process plays, sent
only by a server of several processes); a single process never sends ``redirect``, so
version 1 and 2 clients play on unchanged. Version 4 added ``names`` (seat to player name)
in every ``update`` and the ``history`` request; a client that ignores unknown fields plays on
unchanged."""

HISTORY_PAGE = 20
"""The most finished hands one ``history`` answer holds (the ``limit`` a client may ask)."""

MAX_NAME = 32
MAX_TOKEN = 128
MAX_INT = 2**53 - 1   # every integer a JSON client may send fits a double exactly
TOKEN_FORBIDDEN = "[^A-Za-z0-9_-]"
"""What a token a client draws for ``join`` may not hold: 32 to 128 URL-safe characters (the
server draws 43 such)."""
TOKEN_ANY_FORBIDDEN = "[^!-~]"
"""What a ``resume`` or ``leave`` token may not hold: 1 to 128 printable ASCII characters
(one no seat holds gets ``bad_token``)."""
NAME_FORBIDDEN = ("[\\u0000-\\u001f\\u007f-\\u00a0\\u00ad\\u061c\\u1680\\u180e"
                  "\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u3000\\ud800-\\udfff"
                  "\\ufeff\\ufff9-\\ufffb]")
"""What a player's name may not hold anywhere: control, format, separator (but the plain
space) and surrogate code points. The JSON Schema's ``join`` says ``not: {pattern: ...}``
with this very pattern, so parser and schema cannot disagree (a test runs both)."""
_TOKEN_FORBIDDEN = re.compile(TOKEN_FORBIDDEN)
_TOKEN_ANY_FORBIDDEN = re.compile(TOKEN_ANY_FORBIDDEN)
_NAME_FORBIDDEN = re.compile(NAME_FORBIDDEN)


class ProtocolError(OmahaError):
    """A client message the server refuses; ``code`` is the error message's ``code``."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.detail = message
        self.rule = rule


@dataclass(frozen=True, slots=True)
class Join:
    """Take a free seat (at ``table``, or the first table with one) under ``name``.

    ``token`` (optional, 32 to 128 URL-safe characters a client draws from a CSPRNG) makes
    the join idempotent: sent again after a lost reply, it returns the seat it already
    took instead of taking another. Without it the server draws the token.
    """

    name: str
    table: int | None = None
    token: str | None = None


@dataclass(frozen=True, slots=True)
class Resume:
    """Come back to the seat ``token`` holds and receive the events after ``last_seq``."""

    token: str
    last_seq: int


@dataclass(frozen=True, slots=True)
class Act:
    """Do ``action`` for the connection's own seat.

    ``decision`` (optional) is the id of the decision answered, as the ``update`` that asked
    for it said: an answer quoting another id (late, or sent twice) is refused and changes
    nothing; without it the action answers the current decision. ``hand`` guards against a
    decision of an earlier hand.
    """

    action: str
    to: int | None = None
    hand: int | None = None
    seat: int | None = None
    decision: int | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    """Give up the seat ``token`` holds and cash out its chips (at once between hands, at
    the end of the hand for a player in it); the token then seats no one."""

    token: str


@dataclass(frozen=True, slots=True)
class Watch:
    """Watch ``table`` as a spectator: its public stream after ``last_seq`` (None: from the
    start of the hand in play or the last one)."""

    table: int
    last_seq: int | None = None


@dataclass(frozen=True, slots=True)
class Tables:
    """Ask for the lobby: a ``tables`` message listing every table, the URL of the process
    that plays it (None between owners), its seats and settings. Allowed on any connection,
    before or after ``join``, ``resume`` or ``watch``."""


@dataclass(frozen=True, slots=True)
class History:
    """Ask for up to ``limit`` (1 to :data:`HISTORY_PAGE`) finished hands of ``table``
    numbered below ``before`` (None: the newest), newest first, as this connection may see
    them: a spectator only the cards shown at showdown, a player also its own hole cards in
    the hands it was dealt into. Allowed on any connection."""

    table: int
    before: int | None = None
    limit: int = 10


@dataclass(frozen=True, slots=True)
class Ping:
    """Ask for a ``pong`` (a keep-alive)."""


ClientMessage = Join | Resume | Act | Leave | Watch | Tables | History | Ping

_FIELDS = {"join": {"name", "table", "token"}, "resume": {"token", "last_seq"},
           "act": {"action", "to", "hand", "seat", "decision"}, "leave": {"token"},
           "watch": {"table", "last_seq"}, "tables": set(),
           "history": {"table", "before", "limit"}, "ping": set()}


def _int(data: dict[str, Any], name: str, *, minimum: int, required: bool = False) -> int | None:
    """An integer field, as JSON Schema reads one: a number with no fraction (``3`` or
    ``3.0``; never ``true``), from ``minimum`` to :data:`MAX_INT`; null or absent is None."""
    value = data.get(name)
    if value is None:
        if required:
            raise ProtocolError("bad_message", f"{name} is required")
        return None
    if type(value) is float and value.is_integer() and abs(value) <= MAX_INT:
        value = int(value)   # exact: every integer up to MAX_INT is a double
    try:
        return as_int(value, name, low=minimum, high=MAX_INT)
    except OmahaError as exc:   # the one validator's words, as the protocol's error
        raise ProtocolError("bad_message", str(exc)[:200]) from None


def _text(data: dict[str, Any], name: str, *, low: int, high: int, forbidden: re.Pattern[str],
          what: str, required: bool = True) -> str | None:
    """A text field, the one check every string a client sends goes through before it is
    hashed, stored or compared: a ``str`` of ``low`` to ``high`` code points with no code
    point ``forbidden`` matches, so never a lone surrogate (no text that cannot be encoded
    reaches a hash or the database). ``what`` words the rule for the error."""
    value = data.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not low <= len(value) <= high \
            or forbidden.search(value) is not None:
        raise ProtocolError("bad_message", f"{name} must be {what}")
    return value


_NAME_RULE = f"1 to {MAX_NAME} characters, none of them a control, format or separator " \
             "character but the space"
_TOKEN_RULE = "32 to 128 characters of A-Z a-z 0-9 _ -"
_TOKEN_ANY_RULE = f"1 to {MAX_TOKEN} printable ASCII characters"


def parse_client_message(text: str | bytes) -> ClientMessage:
    """The message in one text frame; :class:`ProtocolError` names what is wrong.

    This is the one validation entry of the arena: every field of every client message is
    checked here (text by :func:`_text`, numbers by :func:`_int`) and agrees with the
    shipped JSON Schema's ``client_message`` (tests run both on the same messages).
    """
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "send JSON in text frames, not binary")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the frame is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError("unknown_type", f"unknown message type {safe_repr(kind)}"[:200])
    extra = set(data) - _FIELDS[kind] - {"type"}
    if extra:
        raise ProtocolError("bad_message", f"unknown fields in {kind}: "
                            f"{safe_repr(sorted(extra))}"[:200])
    if kind == "join":
        name = _text(data, "name", low=1, high=MAX_NAME, forbidden=_NAME_FORBIDDEN,
                     what=_NAME_RULE)
        assert name is not None
        token = _text(data, "token", low=32, high=128, forbidden=_TOKEN_FORBIDDEN,
                      what=_TOKEN_RULE, required=False)
        return Join(name=name, table=_int(data, "table", minimum=1), token=token)
    if kind in ("resume", "leave"):
        token = _text(data, "token", low=1, high=MAX_TOKEN, forbidden=_TOKEN_ANY_FORBIDDEN,
                      what=_TOKEN_ANY_RULE)
        assert token is not None
        if kind == "leave":
            return Leave(token=token)
        last = _int(data, "last_seq", minimum=0, required=True)
        assert last is not None
        return Resume(token=token, last_seq=last)
    if kind == "watch":
        table = _int(data, "table", minimum=1, required=True)
        assert table is not None
        return Watch(table=table, last_seq=_int(data, "last_seq", minimum=0))
    if kind == "act":
        action = data.get("action")
        if not isinstance(action, str) or action not in ACTIONS:
            raise ProtocolError("bad_message", f"unknown action {safe_repr(action)}; expected "
                                f"one of {', '.join(ACTIONS)}"[:300])
        to = _int(data, "to", minimum=1)
        if (to is None) != (action != "bet_or_raise"):
            raise ProtocolError("bad_message", "give to with bet_or_raise, and only with it")
        return Act(action=action, to=to, hand=_int(data, "hand", minimum=1),
                   seat=_int(data, "seat", minimum=1),
                   decision=_int(data, "decision", minimum=1))
    if kind == "tables":
        return Tables()
    if kind == "history":
        table = _int(data, "table", minimum=1, required=True)
        assert table is not None
        limit = _int(data, "limit", minimum=1)
        if limit is not None and limit > HISTORY_PAGE:
            raise ProtocolError("bad_message", f"limit must be at most {HISTORY_PAGE}")
        return History(table=table, before=_int(data, "before", minimum=1),
                       limit=10 if limit is None else limit)
    return Ping()


def error_message(code: str, message: str, *, rule: str | None = None) -> dict[str, Any]:
    """The ``error`` message the server sends (the state is unchanged)."""
    return {"type": "error", "code": code, "message": message, "rule": rule}


@lru_cache(maxsize=1)
def load_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the arena's messages and the engine's JSON forms.

    ``$defs`` holds ``client_message``, ``server_message``, ``event``, ``hand_view``,
    ``clocked_view``, ``hand_snapshot`` and ``table_snapshot``; the root accepts any
    client or server message.
    """
    text = resources.files("omaha.arena").joinpath("schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
