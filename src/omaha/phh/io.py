"""Reading and writing ``.phh`` files (one hand) and ``.phhs`` collections.

A ``.phhs`` collection is TOML whose top-level tables are hands, named ``[1]``, ``[2]``...
as PokerKit writes them. Readers tell the two apart by content: a top level with a
``variant`` field is one hand.

>>> hh = loads('variant = "PO"\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\n'
...            'min_bet = 2\\nstarting_stacks = [100, 100]\\nactions = ["p2 f"]\\n')
>>> print(dumps(hh))
variant = "PO"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = [
  "p2 f",
]
<BLANKLINE>
>>> list(loads_all(dumps_all([hh, hh])))
['1', '2']
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from omaha.limits import MAX_PHH_BYTES
from omaha.phh.errors import HistoryError
from omaha.phh.history import HandHistory
from omaha.phh.tomlio import format_assignment, format_key, format_value, load_toml

__all__ = [
    "dump",
    "dump_all",
    "dumps",
    "dumps_all",
    "load",
    "load_all",
    "loads",
    "loads_all",
    "read_histories",
]

PathLike = str | os.PathLike[str]


def loads(text: str) -> HandHistory:
    """Read one hand from ``.phh`` text.

    Raises:
        HistoryError: bad TOML, a collection instead of one hand, or a malformed field or action.
    """
    data = load_toml(text)
    if "variant" not in data and data and all(isinstance(v, dict) for v in data.values()):
        raise HistoryError("this is a .phhs collection of hands; read it with loads_all")
    return HandHistory.from_fields(data)


def loads_all(text: str) -> dict[str, HandHistory]:
    """Read every hand of ``.phhs`` text, keyed by table name; ``.phh`` text gives ``{"1": hand}``.

    Raises:
        HistoryError: as :func:`loads`; the error names the hand's table.
    """
    return {name or "1": hand for name, hand in _hands(load_toml(text))}


def dumps(history: HandHistory) -> str:
    """Write one hand as ``.phh`` text: required fields first, one action per line."""
    lines = []
    for name, value in history.fields():
        if name == "actions":
            lines.append(_format_actions(value))
        else:
            lines.append(format_assignment(name, value))
    return "\n".join(lines) + "\n"


def dumps_all(histories: Iterable[HandHistory] | Mapping[str, HandHistory]) -> str:
    """Write hands as ``.phhs`` text; a mapping keeps its table names, otherwise 1, 2, ..."""
    items = (
        histories.items()
        if isinstance(histories, Mapping)
        else ((str(i), h) for i, h in enumerate(histories, 1))
    )
    return "\n".join(f"[{format_key(name)}]\n{dumps(history)}" for name, history in items)


def load(path: PathLike) -> HandHistory:
    """Read one hand from a ``.phh`` file; errors name the file."""
    try:
        return loads(_read_text(path))
    except HistoryError as exc:
        raise exc.located(source=os.fspath(path)) from None


def load_all(path: PathLike) -> dict[str, HandHistory]:
    """Read every hand of a ``.phhs`` (or ``.phh``) file; errors name the file and hand."""
    try:
        return loads_all(_read_text(path))
    except HistoryError as exc:
        raise exc.located(source=os.fspath(path)) from None


def read_histories(path: PathLike) -> list[tuple[str | None, HandHistory]]:
    """Every hand in a file of either kind: ``(table name, hand)``, the name None for a ``.phh``."""
    try:
        return _hands(load_toml(_read_text(path)))
    except HistoryError as exc:
        raise exc.located(source=os.fspath(path)) from None


def dump(history: HandHistory, path: PathLike) -> None:
    """Write one hand to a ``.phh`` file (UTF-8)."""
    with open(path, "w", encoding="utf-8", newline="\n") as file:
        file.write(dumps(history))


def dump_all(histories: Iterable[HandHistory] | Mapping[str, HandHistory], path: PathLike) -> None:
    """Write hands to a ``.phhs`` file (UTF-8)."""
    with open(path, "w", encoding="utf-8", newline="\n") as file:
        file.write(dumps_all(histories))


def _hands(data: dict[str, Any]) -> list[tuple[str | None, HandHistory]]:
    if not data:
        raise HistoryError("no hand: the text is empty (a .phh file holds one hand)")
    if "variant" in data:
        return [(None, HandHistory.from_fields(data))]
    hands: list[tuple[str | None, HandHistory]] = []
    for name, table in data.items():
        if not isinstance(table, dict):
            raise HistoryError(
                f"top-level field {name!r} outside any hand: a .phhs file holds only [tables]"
            )
        try:
            hands.append((name, HandHistory.from_fields(table)))
        except HistoryError as exc:
            raise exc.located(hand=name) from None
    return hands


def _format_actions(actions: Any) -> str:
    if not actions:
        return "actions = []"
    body = "".join(f"  {format_value(text)},\n" for text in actions)
    return f"actions = [\n{body}]"


def _read_text(path: PathLike) -> str:
    with open(path, "rb") as file:
        raw = file.read(MAX_PHH_BYTES + 1)
    if len(raw) > MAX_PHH_BYTES:
        raise HistoryError(f"the file is larger than the limit of {MAX_PHH_BYTES} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HistoryError(f"not UTF-8 text (byte {exc.start})") from None
