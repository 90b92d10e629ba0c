"""Replaying whole corpora: every hand of every file gets its own result, and the files go on.

:func:`replay_files` streams ``.phh`` files and ``.phhs`` collections hand by hand (memory
stays flat in a file's size: a collection is split at its ``[name]`` header lines as it is
read) and yields one :class:`HandReport` per hand, in input order, optionally from several
processes (``jobs``). A hand is

* ``matched``: replayed, and its final stacks equal the file's ``finishing_stacks``;
* ``mismatched``: replayed, and they differ;
* ``replayed``: replayed; the file records no ``finishing_stacks`` to compare;
* ``unevaluable``: played legally to a showdown decided by cards the file does not give
  (``????``), so its pots cannot be awarded;
* ``unsupported``: a game the PHH standard names that the package does not play (draw,
  short-deck: :data:`~omaha.phh.variants.NOT_PLAYED`); stud hands (``F7S``, ``F7S/8``,
  ``FR``) replay through :mod:`omaha.phh.stud`;
* ``invalid``: the file or the hand breaks the PHH standard or the rules; ``error`` says where
  (file, hand, field or action) and why.

Each hand first goes through the compiled fast path (:mod:`omahacore.phhfast`: a scanner for
the TOML subset PHH files use, and the replay in C through the same transitions and pot
settlement as the engine); a hand outside that subset, and every hand the fast path does not
finish, goes through the general path (:mod:`tomllib`, :class:`~omaha.phh.HandHistory`,
:func:`~omaha.phh.replay.replay_history`), which words every error. Both give the same
results (a tested invariant).

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "two.phhs").write_text(
...     '[1]\\nvariant = "NT"\\nantes = [0, 0]\\nblinds_or_straddles = [0.5, 1]\\n'
...     'min_bet = 1\\nstarting_stacks = [20, 30.25]\\nactions = ["p2 f"]\\n'
...     'finishing_stacks = [20.5, 29.75]\\n\\n'
...     '[2]\\nvariant = "NT"\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\n'
...     'min_bet = 2\\nstarting_stacks = [20, 30]\\nactions = ["p1 f"]\\n')
>>> for report in replay_files([folder / "two.phhs"]):
...     print(report.hand, report.result, report.finishing_stacks, report.error)
1 matched (Decimal('20.5'), Decimal('29.75')) None
2 invalid None ...two.phhs [2] actions[0] 'p1 f': it is p2's turn, not p1's (B1)
"""

from __future__ import annotations

import json
import math
import os
import re
import warnings
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import IO, TYPE_CHECKING, Any, Literal

from omaha.errors import HistoryError, UnevaluableHandError, UnsupportedVariantError
from omaha.limits import MAX_PHH_BYTES
from omaha.phh.amounts import in_units
from omaha.phh.history import HandHistory, UnknownFieldWarning
from omaha.phh.io import load_toml
from omaha.phh.replay import replay_history
from omaha.phh.stud import StudHistory, is_stud_code, replay_stud_history
from omahacore.phhfast import replay_text as _fast_replay

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = ["RESULTS", "HandReport", "Result", "iter_sections", "replay_files", "replay_section"]

Result = Literal["matched", "mismatched", "replayed", "unevaluable", "unsupported", "invalid"]
RESULTS: tuple[Result, ...] = ("matched", "mismatched", "replayed", "unevaluable",
                               "unsupported", "invalid")
"""Every result a hand can have, best first."""

Amount = int | Decimal | float
"""An amount in the file's own units: int, exact Decimal, or ``math.inf`` (depth unknown)."""

# A .phhs section starts at a header line naming a top-level table: [1], [hand-7], ["a b"].
_HEADER = re.compile(rb'\[[ \t]*(?:([A-Za-z0-9_-]+)|"([^"\\\r\n]*)")[ \t]*\][ \t]*(?:#[^\r\n]*)?\r?\n?')
# The same header as a line of a whole text (the in-memory split of small files).
_HEADER_LINE = re.compile(
    rb'^[ \t]*\[[ \t]*(?:([A-Za-z0-9_-]+)|"([^"\\\r\n]*)")[ \t]*\][ \t]*(?:#[^\r\n]*)?(?:\r?\n|\Z)',
    re.MULTILINE)
_IN_MEMORY = 1 << 20        # files up to this size are read whole and split in memory
_BATCH_HANDS = 256          # hands per task sent to a worker process
_CHUNK = 1 << 20            # a big file is read in blocks of this many bytes


@dataclass(frozen=True, slots=True)
class HandReport:
    """One hand's outcome.

    Attributes:
        file: the file it came from.
        hand: its table name in a ``.phhs`` collection (``"1"``...), None for a ``.phh``.
        result: one of :data:`RESULTS`.
        finishing_stacks: the replayed final stacks in the file's units (``inf`` for a player
            whose depth is unknown), None unless replayed.
        expected_stacks: the file's own ``finishing_stacks``, None when it has none.
        error: why the hand is invalid or unevaluable (file, hand, field or action), else None.
        unreadable: the file could not be read at all (its one ``invalid`` report, ``hand``
            None); not in the JSON, whose ``error`` says so.
    """

    file: str
    hand: str | None
    result: Result
    finishing_stacks: tuple[Amount, ...] | None = None
    expected_stacks: tuple[Amount, ...] | None = None
    error: str | None = None
    unreadable: bool = False

    @property
    def ok(self) -> bool:
        """True when the hand replayed and nothing contradicts it (matched, or nothing to
        compare)."""
        return self.result in ("matched", "replayed")

    def to_json(self) -> str:
        """One JSON object: ``file``, ``hand``, ``ok``, ``result``, ``finishing_stacks``,
        ``expected_stacks``, ``error``. Amounts are exact JSON numbers in the file's units
        (``10287.5``, never a binary float's digits) and ``"inf"`` for an unknown depth.

        >>> HandReport("a.phhs", "3", "matched", (Decimal("29.75"), math.inf), None).to_json()
        '{"file": "a.phhs", "hand": "3", "ok": true, "result": "matched", \
"finishing_stacks": [29.75, "inf"], "expected_stacks": null, "error": null}'
        """
        head = json.dumps({"file": self.file, "hand": self.hand, "ok": self.ok,
                           "result": self.result})
        return (f'{head[:-1]}, "finishing_stacks": {_json_amounts(self.finishing_stacks)}, '
                f'"expected_stacks": {_json_amounts(self.expected_stacks)}, '
                f'"error": {json.dumps(self.error)}}}')


def _json_amounts(amounts: Sequence[Amount] | None) -> str:
    if amounts is None:
        return "null"
    return "[" + ", ".join('"inf"' if isinstance(a, float) else str(a) for a in amounts) + "]"


# --- reading files hand by hand ----------------------------------------------------------


def iter_sections(path: str | os.PathLike[str]) -> Iterator[tuple[str | None, bytes]]:
    """The hands of a file as ``(table name, text)``: one ``(None, text)`` for a ``.phh``,
    one per ``[name]`` table of a ``.phhs``, read as the file is (memory flat in its size).

    A collection is a file whose first line that is not blank or a comment is a table
    header. A section (or a ``.phh``) larger than :data:`~omaha.limits.MAX_PHH_BYTES` is
    yielded cut at that size plus one byte, for the caller to refuse by name.

    Raises:
        OSError: the file cannot be opened or read.
    """
    head = _read_head(path)
    if len(head) <= _IN_MEMORY:   # the whole file (nearly every .phh): split in memory
        yield from _split(head)
        return
    with open(path, "rb") as file:
        collection = _starts_with_header(file)
        file.seek(0)
        if collection:
            yield from _stream(file)
        else:   # one hand: bounded, refused by size later
            yield None, file.read(MAX_PHH_BYTES + 1)


def _starts_with_header(file: IO[bytes]) -> bool:
    """Whether the first line that is not blank or a comment is a table header."""
    line, skipping = b"", False
    for piece in iter(lambda: file.readline(_CHUNK), b""):
        ended = piece.endswith(b"\n")
        if skipping:            # the rest of a long comment line
            skipping = not ended
            continue
        line += piece
        if not ended and len(line) < 1 << 16:
            continue            # a line read in pieces (past 64 KiB it is no header anyway)
        if _meaningful(line):
            return _header(line) is not None
        line, skipping = b"", not ended
    return _header(line) is not None


def _read_head(path: str | os.PathLike[str]) -> bytes:
    """Up to ``_IN_MEMORY + 1`` bytes of the file (os.read: no buffered file object for the
    common small file)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        parts, size = [], 0
        while size <= _IN_MEMORY:
            part = os.read(fd, _IN_MEMORY + 1 - size)
            if not part:
                break
            parts.append(part)
            size += len(part)
        return b"".join(parts)
    finally:
        os.close(fd)


def _meaningful(line: bytes) -> bool:
    """A line that is neither blank nor a comment (the first such decides the file's kind)."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith(b"#")


def _first_line(data: bytes) -> tuple[int, int]:
    """Where the first line that is not blank or a comment starts and ends."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end + 1
        if _meaningful(data[start:end]):
            return start, end
        start = end
    return start, start


def _split(data: bytes) -> Iterator[tuple[str | None, bytes]]:
    start, end = _first_line(data)
    if _header(data[start:end]) is None:
        yield None, data
        return
    marks = [(m.start(), _name(m)) for m in _HEADER_LINE.finditer(data, start)]
    for (at, name), (until, _) in zip(marks, [*marks[1:], (len(data), "")]):
        yield name, data[at:until]


def _stream(file: IO[bytes]) -> Iterator[tuple[str | None, bytes]]:
    """The sections of a collection read block by block (whole lines), each section cut at
    ``MAX_PHH_BYTES + 1`` bytes: memory flat in the file's size."""
    name: str | None = None
    parts: list[bytes] = []
    size = 0
    for block in _line_blocks(file):
        at = 0
        for match in _HEADER_LINE.finditer(block):
            if name is not None:
                size = _append(parts, size, block[at:match.start()])
                yield name, b"".join(parts)
            name, parts, size, at = _name(match), [], 0, match.start()
        if name is not None:
            size = _append(parts, size, block[at:])
    if name is not None:
        yield name, b"".join(parts)


def _append(parts: list[bytes], size: int, piece: bytes) -> int:
    """Add ``piece`` to a section, keeping at most ``MAX_PHH_BYTES + 1`` bytes of it."""
    room = MAX_PHH_BYTES + 1 - size
    if room > 0 and piece:
        parts.append(piece[:room])
        size += min(room, len(piece))
    return size


def _line_blocks(file: IO[bytes]) -> Iterator[bytes]:
    """The file in blocks of about ``_CHUNK`` bytes, each ending at a line end (a line longer
    than ``MAX_PHH_BYTES`` is cut: its section is refused by size anyway)."""
    rest = b""
    while True:
        part = file.read(_CHUNK)
        if not part:
            if rest:
                yield rest
            return
        block = rest + part
        cut = block.rfind(b"\n") + 1
        if cut == 0 and len(block) <= MAX_PHH_BYTES:
            rest = block
            continue
        cut = cut or len(block)
        yield block[:cut]
        rest = block[cut:]


def _header(line: bytes) -> str | None:
    """The table name when ``line`` is a top-level table header, else None."""
    match = _HEADER.fullmatch(line.lstrip(b" \t"))
    return None if match is None else _name(match)


def _name(match: re.Match[bytes]) -> str:
    return (match.group(1) or match.group(2) or b"").decode("utf-8", "replace")


# --- one hand ----------------------------------------------------------------------------


def replay_section(file: str, hand: str | None, text: bytes) -> HandReport:
    """The report of one hand's text (a ``.phh`` file's whole text, or one ``.phhs``
    section including its header line)."""
    if len(text) <= MAX_PHH_BYTES and _utf8(text):
        start = 0 if hand is None else text.find(b"\n") + 1
        if start or hand is None:
            fast = _fast_replay(text, start, -1)
            if fast is not None:
                report = _fast_report(file, hand, fast)
                if report is not None:
                    return report
    return _general_report(file, hand, text)


def _utf8(text: bytes) -> bool:
    if text.isascii():
        return True
    try:
        text.decode("utf-8")
    except UnicodeDecodeError:
        return False   # the general path says where
    return True


def _fast_report(file: str, hand: str | None,
                 fast: tuple[int, tuple[int, ...], int, tuple[int, ...] | None, int]
                 ) -> HandReport | None:
    decimals, finishing, deep, expected, expected_inf = fast
    if not (decimals or deep or expected_inf):   # whole chips, every depth known: as they are
        if expected is None:
            return HandReport(file, hand, "replayed", finishing)
        return HandReport(file, hand, "matched" if finishing == expected else "mismatched",
                          finishing, expected)
    if expected is not None and expected_inf != deep:
        return None   # the general path words it: inf finishes exactly the inf starts
    stacks = _in_units(finishing, deep, decimals)
    if expected is None:
        return HandReport(file, hand, "replayed", stacks)
    same = all(deep >> i & 1 or a == b for i, (a, b) in enumerate(zip(finishing, expected)))
    return HandReport(file, hand, "matched" if same else "mismatched", stacks,
                      _in_units(expected, deep, decimals))


def _in_units(chips: Sequence[int], deep: int, decimals: int) -> tuple[Amount, ...]:
    return tuple(math.inf if deep >> i & 1 else in_units(c, decimals)
                 for i, c in enumerate(chips))


def _general_report(file: str, hand: str | None, text: bytes) -> HandReport:
    try:
        fields = _fields(text, hand)
        if is_stud_code(fields.get("variant")):
            return _stud_report(file, hand, fields)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnknownFieldWarning)   # kept as user fields
            history = HandHistory.from_fields(fields)
        result = replay_history(history)
    except UnevaluableHandError as exc:
        return HandReport(file, hand, "unevaluable", error=str(exc.located(hand=hand, source=file)))
    except UnsupportedVariantError as exc:
        return HandReport(file, hand, "unsupported", error=str(exc.located(hand=hand, source=file)))
    except HistoryError as exc:
        return HandReport(file, hand, "invalid", error=str(exc.located(hand=hand, source=file)))
    stacks = tuple(result.stacks_in_units())
    expected = history.finishing_stacks
    if expected is None:
        return HandReport(file, hand, "replayed", stacks)
    deep = sum(1 << i for i in history.deep_players)
    return HandReport(file, hand, "matched" if result.matches else "mismatched", stacks,
                      _in_units(expected, deep, history.decimals))


def _stud_report(file: str, hand: str | None, fields: dict[str, Any]) -> HandReport:
    """A stud hand's report (:mod:`omaha.phh.stud`; its errors go to the caller)."""
    history = StudHistory.from_fields(fields)
    stacks = replay_stud_history(history).stacks
    expected = history.finishing_stacks
    if expected is None:
        return HandReport(file, hand, "replayed", stacks)
    return HandReport(file, hand, "matched" if tuple(expected) == stacks else "mismatched",
                      stacks, tuple(expected))


def _fields(text: bytes, hand: str | None) -> dict[str, Any]:
    if len(text) > MAX_PHH_BYTES:
        raise HistoryError(f"the {'file' if hand is None else 'hand'} is larger than the "
                           f"limit of {MAX_PHH_BYTES} bytes")
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HistoryError(f"not UTF-8 text (byte {exc.start})") from None
    data = load_toml(decoded)
    if hand is not None:
        tables = [value for value in data.values() if isinstance(value, dict)]
        if len(data) != 1 or len(tables) != 1:
            raise HistoryError("a .phhs section holds one [table] of fields")
        data = tables[0]
    elif not data:
        raise HistoryError("no hand: the text is empty (a .phh file holds one hand)")
    elif "variant" not in data and all(isinstance(v, dict) for v in data.values()):
        raise HistoryError("a collection whose first table header comes after other text")
    return data


# --- many files, many processes ----------------------------------------------------------


def replay_files(paths: Iterable[str | os.PathLike[str]], *, jobs: int = 1) -> Iterator[HandReport]:
    """Every hand of every file, replayed, as reports in input order.

    ``jobs`` processes replay (1: this one; 0: one per core); the files are still read here,
    hand by hand, and at most a few batches per process are in flight, so memory stays flat.
    A file that cannot be read gives one ``invalid`` report with ``hand`` None.
    """
    if type(jobs) is not int or jobs < 0:
        raise ValueError(f"jobs must be a whole number >= 0, got {jobs!r}")
    batches = _batches(paths)
    if jobs == 1:
        for batch in batches:
            yield from _replay_batch(batch)
        return
    from concurrent.futures import ProcessPoolExecutor  # only here: 20 ms of imports

    workers = jobs or os.cpu_count() or 1
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque[Future[list[HandReport]]] = deque()
        for batch in batches:
            pending.append(pool.submit(_replay_batch, batch))
            if len(pending) >= 2 * workers:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


_Batch = list[tuple[str, str | None, bytes | str]]   # (file, hand, text or a read error)


def _batches(paths: Iterable[str | os.PathLike[str]]) -> Iterator[_Batch]:
    batch: _Batch = []
    for path in paths:
        name = os.fspath(path)
        try:
            for hand, text in iter_sections(name):
                batch.append((name, hand, text))
                if len(batch) >= _BATCH_HANDS:
                    yield batch
                    batch = []
        except OSError as exc:
            batch.append((name, None, f"{name}: cannot read the file: {exc.strerror or exc}"))
    if batch:
        yield batch


def _replay_batch(batch: _Batch) -> list[HandReport]:
    return [replay_section(file, hand, text) if isinstance(text, bytes)
            else HandReport(file, hand, "invalid", error=text, unreadable=True)
            for file, hand, text in batch]
