"""The arena's JSON messages: parsing what clients send, building what the server sends.

Every message is one JSON object per WebSocket text frame with a ``"type"``. Clients send
``join``, ``resume``, ``act``, ``leave``, ``watch`` and ``ping``; the server answers
``joined``, ``resumed``, ``update`` (numbered events and the seat's view), ``leaving`` and
``left`` (a seat given up), ``watching`` (a spectator's stream begins), ``error`` and
``pong``. The JSON Schema of
every message, and of the engine's events, views and snapshots inside them, ships with the
package (:func:`load_schema`).

>>> parse_client_message('{"type": "act", "action": "bet_or_raise", "to": 12, "hand": 3}')
Act(action='bet_or_raise', to=12, hand=3, seat=None)
>>> parse_client_message('{"type": "watch", "table": 2}')
Watch(table=2, last_seq=None)
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
from omaha.limits import as_int

__all__ = [
    "ACTIONS",
    "MAX_NAME",
    "Act",
    "ClientMessage",
    "Join",
    "Leave",
    "Ping",
    "ProtocolError",
    "Resume",
    "Watch",
    "error_message",
    "load_schema",
    "parse_client_message",
]

ACTIONS = ("fold", "check", "call", "check_or_call", "bet_or_raise", "all_in", "show", "muck")
"""The actions a client may send (the :class:`~omaha.game.hand.Hand` methods of those names)."""

MAX_NAME = 32
MAX_INT = 2**53 - 1
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,128}")   # every integer a JSON client may send fits a double exactly


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
    """Do ``action`` for the connection's own seat; ``hand`` guards against stale decisions."""

    action: str
    to: int | None = None
    hand: int | None = None
    seat: int | None = None


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
class Ping:
    """Ask for a ``pong`` (a keep-alive)."""


ClientMessage = Join | Resume | Act | Leave | Watch | Ping

_FIELDS = {"join": {"name", "table", "token"}, "resume": {"token", "last_seq"},
           "act": {"action", "to", "hand", "seat"}, "leave": {"token"},
           "watch": {"table", "last_seq"}, "ping": set()}


def _int(data: dict[str, Any], name: str, *, minimum: int, required: bool = False) -> int | None:
    value = data.get(name)
    if value is None:
        if required:
            raise ProtocolError("bad_message", f"{name} is required")
        return None
    try:
        return as_int(value, name, low=minimum, high=MAX_INT)
    except OmahaError as exc:   # the one validator's words, as the protocol's error
        raise ProtocolError("bad_message", str(exc)[:200]) from None


def parse_client_message(text: str | bytes) -> ClientMessage:
    """The message in one text frame; :class:`ProtocolError` names what is wrong."""
    if isinstance(text, bytes):
        raise ProtocolError("bad_message", "send JSON in text frames, not binary")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the frame is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}"[:200])
    extra = set(data) - _FIELDS[kind] - {"type"}
    if extra:
        raise ProtocolError("bad_message", f"unknown fields in {kind}: {sorted(extra)}"[:200])
    if kind == "join":
        name = data.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME or not name.isprintable():
            raise ProtocolError("bad_message", f"name must be 1 to {MAX_NAME} printable "
                                "characters")
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or not _TOKEN.fullmatch(token)):
            raise ProtocolError("bad_message", "token must be 32 to 128 characters of "
                                "A-Z a-z 0-9 _ -")
        return Join(name=name, table=_int(data, "table", minimum=1), token=token)
    if kind in ("resume", "leave"):
        token = data.get("token")
        if not isinstance(token, str) or not 1 <= len(token) <= 128:
            raise ProtocolError("bad_message", "token must be a string of 1 to 128 characters")
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
            raise ProtocolError("bad_message", f"unknown action {action!r}; expected one of "
                                f"{', '.join(ACTIONS)}"[:300])
        to = _int(data, "to", minimum=1)
        if (to is None) != (action != "bet_or_raise"):
            raise ProtocolError("bad_message", "give to with bet_or_raise, and only with it")
        return Act(action=action, to=to, hand=_int(data, "hand", minimum=1),
                   seat=_int(data, "seat", minimum=1))
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
