"""Reading and writing ``.phh`` files (one hand) and ``.phhs`` collections, and their TOML.

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
>>> loads_all(dumps_all([hh, hh])) == [hh, hh]
True

The file functions take a path (``str`` or :class:`os.PathLike`) or an open file, text or
binary; the size limit (:data:`~omaha.limits.MAX_PHH_BYTES`) holds for both:

>>> import io
>>> buffer = io.BytesIO()
>>> dump_all([hh, hh], buffer)
>>> _ = buffer.seek(0)
>>> load_all(buffer) == [hh, hh]
True

The TOML underneath is :mod:`omaha.phh.toml` (its names stay importable from here): reading
uses :mod:`tomllib` (``tomli`` before Python 3.11) with floats kept exact as
:class:`~decimal.Decimal`, so money is never a binary float; writing is one small emitter for
the value types PHH fields and user-defined fields can hold.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Any, TypeVar, cast

from omaha.errors import HistoryError
from omaha.limits import MAX_PHH_BYTES
from omaha.phh.export import pokerkit_compatible
from omaha.phh.history import HandHistory
from omaha.phh.toml import (
    HAND_SEPARATOR,
    format_actions,
    format_assignment,
    format_key,
    format_value,
    load_toml,
    table_header,
)

__all__ = [
    "dump",
    "dump_all",
    "dumps",
    "dumps_all",
    "format_assignment",
    "format_key",
    "format_value",
    "load",
    "load_all",
    "load_toml",
    "loads",
    "loads_all",
    "read_histories",
]

PathLike = str | os.PathLike[str]
Source = PathLike | IO[str] | IO[bytes]
"""A path, or a file open for reading (text or binary)."""
Target = PathLike | IO[str] | IO[bytes]
"""A path, or a file open for writing (text or binary; text goes out as UTF-8)."""
Read = TypeVar("Read")


def loads(text: str) -> HandHistory:
    """Read one hand from ``.phh`` text.

    Raises:
        HistoryError: bad TOML, a collection instead of one hand, or a malformed field or action.
    """
    data = load_toml(text)
    if "variant" not in data and data and all(isinstance(v, dict) for v in data.values()):
        raise HistoryError("this is a .phhs collection of hands; read it with loads_all")
    return HandHistory.from_fields(data)


def loads_all(text: str) -> list[HandHistory]:
    """Read every hand of ``.phhs`` text, in file order; ``.phh`` text gives ``[hand]``.

    The table names (``[1]``, ``[2]``...) are in :func:`read_histories`.

    Raises:
        HistoryError: as :func:`loads`; the error names the hand's table.
    """
    return [hand for _, hand in _hands(load_toml(text))]


def dumps(history: HandHistory, *, compatible: bool = False) -> str:
    """Write one hand as ``.phh`` text: required fields first, one action per line.

    ``compatible=True`` writes a standard variant code PokerKit reads in place of an
    extension code (:func:`~omaha.phh.export.pokerkit_compatible`), or raises HistoryError
    where none is faithful.
    """
    if compatible:
        history = pokerkit_compatible(history)
    return "".join(format_actions(value) if name == "actions"
                   else format_assignment(name, value) + "\n"
                   for name, value in history.fields())


def dumps_all(
    histories: Iterable[HandHistory] | Mapping[str, HandHistory], *, compatible: bool = False
) -> str:
    """Write hands as ``.phhs`` text; a mapping keeps its table names, otherwise 1, 2, ...

    ``compatible`` is as for :func:`dumps`.
    """
    items = (
        histories.items()
        if isinstance(histories, Mapping)
        else ((str(i), h) for i, h in enumerate(histories, 1))
    )
    return HAND_SEPARATOR.join(
        table_header(name) + dumps(history, compatible=compatible) for name, history in items
    )


def load(source: Source) -> HandHistory:
    """Read one hand from a ``.phh`` file: a path or an open file; errors name the file."""
    return _read(source, loads)


def load_all(source: Source) -> list[HandHistory]:
    """Read every hand of a ``.phhs`` (or ``.phh``) file, a path or an open file, as a list.

    Errors name the file and the hand.
    """
    return _read(source, loads_all)


def read_histories(source: Source) -> list[tuple[str | None, HandHistory]]:
    """Every hand in a file of either kind: ``(table name, hand)``, the name None for a ``.phh``."""
    return _read(source, lambda text: _hands(load_toml(text)))


def dump(history: HandHistory, target: Target, *, compatible: bool = False) -> None:
    """Write one hand as ``.phh`` to a path or an open file (UTF-8); ``compatible`` as
    for :func:`dumps`."""
    _write_text(dumps(history, compatible=compatible), target)


def dump_all(
    histories: Iterable[HandHistory] | Mapping[str, HandHistory],
    target: Target,
    *,
    compatible: bool = False,
) -> None:
    """Write hands as ``.phhs`` to a path or an open file (UTF-8); ``compatible`` as for
    :func:`dumps`."""
    _write_text(dumps_all(histories, compatible=compatible), target)


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


def _read(source: Source, parse: Callable[[str], Read]) -> Read:
    """``parse`` of the file's text; its errors also name the file."""
    try:
        return parse(_read_text(source))
    except HistoryError as exc:
        raise exc.located(source=_name(source)) from None


def _name(source: Source) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else f"<{type(source).__name__}>"


def _read_text(source: Source) -> str:
    raw: object
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as file:
            raw = file.read(MAX_PHH_BYTES + 1)
    elif callable(getattr(source, "read", None)):
        try:
            raw = source.read(MAX_PHH_BYTES + 1)
        except (OSError, ValueError) as exc:  # closed, or opened for writing only
            raise HistoryError(f"cannot read the file: {exc}") from None
    else:
        raise TypeError(f"expected a path or an open file, got {type(source).__name__}")
    if isinstance(raw, str):  # a text file: the limit is on its UTF-8 size
        if len(raw) > MAX_PHH_BYTES or len(raw.encode("utf-8", "surrogatepass")) > MAX_PHH_BYTES:
            raise HistoryError(f"the file is larger than the limit of {MAX_PHH_BYTES} bytes")
        return raw
    if not isinstance(raw, (bytes, bytearray)):
        raise TypeError(f"the file's read() returned {type(raw).__name__}, not str or bytes")
    if len(raw) > MAX_PHH_BYTES:
        raise HistoryError(f"the file is larger than the limit of {MAX_PHH_BYTES} bytes")
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HistoryError(f"not UTF-8 text (byte {exc.start})") from None


def _write_text(text: str, target: Target) -> None:
    if isinstance(target, (str, os.PathLike)):
        with open(target, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
        return
    if not callable(getattr(target, "write", None)):
        raise TypeError(f"expected a path or an open file, got {type(target).__name__}")
    if isinstance(target, io.TextIOBase) or "b" not in str(getattr(target, "mode", "b")):
        cast("IO[str]", target).write(text)
    else:
        cast("IO[bytes]", target).write(text.encode("utf-8"))
