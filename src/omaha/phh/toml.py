"""The TOML underneath PHH: reading (floats kept exact as Decimal, depth and size bounded) and
the one emitter every writer uses, including the layout of a hand's ``actions`` array and of a
``.phhs`` table.

>>> format_value(["d dh p1 AcAd", 'say "hi"'])
'["d dh p1 AcAd", "say \\\\"hi\\\\""]'
>>> load_toml(format_assignment("x y", {"a": [1, 2], "b": True}))
{'x y': {'a': [1, 2], 'b': True}}
>>> print(format_actions(["p1 f", "p2 cc"]), end="")
actions = [
  "p1 f",
  "p2 cc",
]
>>> table_header("7")
'[7]\\n'
"""

from __future__ import annotations

import datetime
import math
import re
import sys
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from omaha.errors import HistoryError
from omaha.limits import MAX_PHH_BYTES, MAX_PHH_DEPTH

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "HAND_SEPARATOR",
    "format_actions",
    "format_assignment",
    "format_key",
    "format_value",
    "load_toml",
    "table_header",
]

HAND_SEPARATOR = "\n"
"""Between two hands of a ``.phhs`` collection (each hand's text ends with a line end)."""


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def load_toml(text: str) -> dict[str, Any]:
    """Parse TOML text, floats as Decimal.

    Limits: at most :data:`~omaha.limits.MAX_PHH_BYTES` characters and
    :data:`~omaha.limits.MAX_PHH_DEPTH` levels of nested arrays/tables.

    Raises:
        HistoryError: the text is not valid TOML (the message keeps the parser's line and
            column), or is past a limit.
    """
    if len(text) > MAX_PHH_BYTES:
        raise HistoryError(f"the text is longer than the limit of {MAX_PHH_BYTES} characters")
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise HistoryError(f"bad TOML: {exc}") from None
    except ValueError as exc:   # e.g. an integer of more than 4300 digits
        raise HistoryError(f"bad TOML: {exc}") from None
    except RecursionError:   # the parser recurses once per nested array or inline table
        raise HistoryError(f"arrays or tables nested deeper than {MAX_PHH_DEPTH} levels") from None
    _check_depth(data)
    return data


def _check_depth(data: object) -> None:
    """Refuse nesting deeper than MAX_PHH_DEPTH (iteratively: no recursion to exhaust)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_PHH_DEPTH:
                raise HistoryError(f"arrays or tables nested deeper than {MAX_PHH_DEPTH} levels")
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)


def format_key(key: str) -> str:
    """A TOML key: bare when it can be, quoted otherwise."""
    return key if _BARE_KEY.fullmatch(key) else _format_string(key)


def format_assignment(key: str, value: object) -> str:
    """One ``key = value`` line."""
    return f"{format_key(key)} = {format_value(value)}"


def format_value(value: object) -> str:
    """A TOML value for a Python value read by :func:`load_toml` (or built like one).

    Raises:
        TypeError: the value has no TOML form (e.g. None, a set).
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (Decimal, float)):
        return _format_float(value)
    if isinstance(value, str):
        return _format_string(value)
    if isinstance(value, (datetime.date, datetime.time)):  # datetimes are dates too
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_value(item) for item in value) + "]"
    if isinstance(value, Mapping):
        pairs = (f"{format_key(str(k))} = {format_value(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise TypeError(f"no TOML form for {type(value).__name__} value {value!r}")


def _format_float(value: Decimal | float) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if value.is_nan():
        return "nan"
    if value.is_infinite():
        return "inf" if value > 0 else "-inf"
    text = str(value)
    # A TOML float needs a fraction or an exponent; Decimal("3") would read back as an int.
    return text if any(c in text for c in ".eE") else text + ".0"


def _format_string(text: str) -> str:
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def format_actions(actions: Sequence[str]) -> str:
    """The ``actions`` field: one action per line (``actions = []`` when there is none),
    with the line end."""
    if not actions:
        return "actions = []\n"
    joined = "".join(actions)
    if joined.isprintable() and '"' not in joined and "\\" not in joined:
        # nothing to escape: format_value(text) is the text in quotes
        return 'actions = [\n  "' + '",\n  "'.join(actions) + '",\n]\n'
    return "actions = [\n" + "".join(f"  {format_value(text)},\n" for text in actions) + "]\n"


def table_header(name: str) -> str:
    """A ``.phhs`` table's header line, with the line end: ``[1]``."""
    return f"[{format_key(name)}]\n"
