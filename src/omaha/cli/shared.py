"""What the commands share: the exit codes, the one-line error, ``--progress``, the argument
types and the game config (``play``, ``simulate``, ``serve``, ``equity``): one place for
what a count, an amount pair, a table size or a variant name may be.

>>> pair("1/2"), positive("3"), players("6"), port("8765"), positive_real("2.5")
((1, 2), 3, 6, 8765, 2.5)
>>> blinds("1/2"), blinds("0/2"), blinds("2")   # 0: no small blind; BB alone: derived
((1, 2), (0, 2), (None, 2))

Each kind of argument has one type here, used by every command that takes it: a count, a
table size, a port, a rate or a time, a ``ws://`` URL, a file or folder to write, an arena
database. A bad value is refused while the arguments are read: the command exits 2 with one
line naming the argument and the problem (:class:`OneLineParser`), no traceback, nothing run.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NoReturn

from omaha.errors import OmahaError
from omaha.limits import as_int

if TYPE_CHECKING:
    from omaha.phh.export import PhhWriter

__all__ = ["BLINDS_HELP", "EXIT_INVALID", "EXIT_MISMATCH", "EXIT_OK", "VARIANT_HELP",
           "OneLineParser", "add_progress_options", "add_variant", "arena_db", "blinds",
           "existing_arena_db", "fail", "game_config", "non_negative", "one_line", "output_dir",
           "output_file", "overwritten", "pair", "path_name", "phh_output", "players", "port",
           "positive", "positive_real", "refuse", "stud_phh_writer", "ws_url"]

EXIT_OK = 0
"""The command did what it was asked."""
EXIT_MISMATCH = 1
"""``omaha replay``: a hand's final stacks differ from its ``finishing_stacks``."""
EXIT_INVALID = 2
"""Bad input (a usage error, an invalid history), as argparse exits on a usage error."""

VARIANT_HELP = ("a name of omaha.config.VARIANT_NAMES, any case: plo, plo8, flo8, nlo, plo5, "
                "5plo8, nlhe, holdem, omaha, omaha8, hilo, a PHH code (PO, PO/8, FO/8, P5O...) "
                "or a variant's own name")
"""The one help text of ``--variant``: every command takes the same names."""


def _whole(text: str, what: str, *, low: int, high: int | None = None) -> int:
    """``text`` as a whole number from ``low`` to ``high``, range-checked and worded by the
    one validator (:func:`omaha.limits.as_int`), for argparse ``type=``."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    try:
        return as_int(number, what, low=low, high=high)
    except OmahaError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def non_negative(text: str) -> int:
    """A whole number >= 0 (argparse ``type=``)."""
    return _whole(text, "the number", low=0)


def positive(text: str) -> int:
    """A whole number >= 1 (argparse ``type=``)."""
    return _whole(text, "the number", low=1)


def players(text: str) -> int:
    """A table size, 2 to 10 (rule T1)."""
    return _whole(text, "players (rule T1)", low=2, high=10)


def pair(text: str) -> tuple[int, int]:
    """Two positive amounts written ``A/B`` (blinds, or the small and big bet)."""
    low, slash, high = text.partition("/")
    if not slash:
        raise argparse.ArgumentTypeError(f"expected two amounts like 1/2, got {text!r}")
    return positive(low), positive(high)


BLINDS_HELP = ("SB/BB, or BB alone to derive the small blind (half the big blind, rounded "
               "down); SB 0 means no small blind, a single blind that is the big blind")
"""The one help text of ``--blinds`` (``play``, ``simulate``, ``serve``), before its default."""


def blinds(text: str) -> tuple[int | None, int]:
    """The blinds ``SB/BB`` (``SB`` 0: no small blind) or ``BB`` alone (small blind None,
    derived from it, rule T3), for argparse ``type=``."""
    low, slash, high = text.partition("/")
    if not slash:
        if not text.strip().isdigit():
            raise argparse.ArgumentTypeError(
                f"expected two amounts like 1/2 (SB/BB, SB 0 for no small blind) or the big "
                f"blind alone, got {text!r}")
        return None, positive(text)
    return non_negative(low), positive(high)


def add_variant(sub: argparse.ArgumentParser, default: str) -> None:
    """``--variant NAME``, the same names and help for every command (checked when it runs,
    so a wrong name gets the command's one-line error with the accepted names)."""
    sub.add_argument("--variant", default=default, help=f"{VARIANT_HELP} (default {default})")


def game_config(variant: str, *, blinds: tuple[int | None, int] | None,
                stakes: tuple[int, int] | None, ante: int = 0) -> Any:
    """The :class:`~omaha.config.GameConfig` a ``--variant`` name plays (its structure, or its
    usual one) with the stakes given (defaults: big blind 2 in pot and no limit, bets 2/4 in
    fixed limit, where ``blinds`` override the blinds the bets imply). A small blind of None
    is derived from the big blind (T3), 0 is none (a single blind).

    >>> game_config("plo", blinds=None, stakes=None).small_blind
    1
    >>> game_config("flo8", blinds=(0, 2), stakes=None).small_blind
    0
    """
    from omaha.config import FIXED_LIMIT, GameConfig, parse_variant

    structure = parse_variant(variant).usual
    if structure is FIXED_LIMIT:
        small_bet, big_bet = stakes or (2, 4)
        given = {} if blinds is None else dict(zip(("small_blind", "big_blind"), blinds))
        return GameConfig.named(variant, small_bet=small_bet, big_bet=big_bet, ante=ante,
                                **given)
    if stakes is not None:
        raise ValueError(f"--stakes is for fixed limit; {variant} is {structure.value}, "
                         "give --blinds SB/BB")
    small_blind, big_blind = blinds or (None, 2)
    return GameConfig.named(variant, small_blind=small_blind, big_blind=big_blind, ante=ante)


def fail(command: str, error: BaseException | str) -> int:
    """Print ``omaha COMMAND: error: ...`` on stderr; returns :data:`EXIT_INVALID`."""
    print(f"omaha {command}: error: {one_line(str(error))}", file=sys.stderr)
    return EXIT_INVALID


def one_line(text: str) -> str:
    """``text`` as one printable line: whitespace runs are one space, and what UTF-8 cannot
    write (an undecodable byte of an argument, a lone surrogate) is escaped.

    >>> one_line("a\\n  b \\udcff")
    'a b \\\\udcff'
    """
    return " ".join(text.split()).encode("utf-8", "backslashreplace").decode("utf-8")


def add_progress_options(sub: argparse.ArgumentParser) -> None:
    """``--progress``/``--no-progress``: by default a bar only when stderr is a terminal."""
    progress = sub.add_mutually_exclusive_group()
    progress.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="always show the progress bar (default: only when stderr is a terminal)",
    )
    progress.add_argument(
        "--no-progress", dest="progress", action="store_false", help="never show the progress bar"
    )


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage error is one line on stderr, exit 2:
    ``omaha serve: error: argument --port: ... (omaha serve --help)``."""

    def error(self, message: str) -> NoReturn:
        text = one_line(message)
        self.exit(EXIT_INVALID, f"{self.prog}: error: {text} ({self.prog} --help)\n")


def port(text: str) -> int:
    """A TCP port, 1 to 65535, or 0: a free port picked by the system (argparse ``type=``)."""
    return _whole(text, "the port", low=0, high=65535)


def positive_real(text: str) -> float:
    """A finite number above 0 (a rate, a time in seconds): NaN, infinities, 0 and negative
    numbers are refused (``--rate nan`` would switch rate limiting off)."""
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(number) or number <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text!r}")
    return number


def ws_url(text: str) -> str:
    """A WebSocket URL: ``ws://HOST[:PORT][/PATH]`` or ``wss://...``, a port from 1 to 65535.

    >>> ws_url("ws://127.0.0.1:8765")
    'ws://127.0.0.1:8765'
    """
    from urllib.parse import urlsplit

    bad = argparse.ArgumentTypeError(f"expected a ws:// or wss:// URL such as "
                                     f"ws://127.0.0.1:8765, got {text!r}")
    if not text.isprintable() or any(c.isspace() for c in text):
        raise bad
    try:
        parts = urlsplit(text)
        number = parts.port
    except ValueError:
        raise bad from None
    if parts.scheme not in ("ws", "wss") or not parts.hostname or number == 0:
        raise bad
    return text


def _writable_folder(path: str) -> str | None:
    """Why a file cannot be made in folder ``path`` (or in the folders to be made under its
    nearest existing ancestor), or None when it can."""
    folder = os.path.abspath(path)
    while not os.path.lexists(folder):
        folder = os.path.dirname(folder)
    if not os.path.isdir(folder):
        return f"{folder} is not a directory"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"directory {folder} is not writable"
    return None


def path_name(text: str) -> str:
    """A path as a name only (a file to read: whether it exists is the command's question):
    not empty, no NUL character (no system takes one)."""
    if not text or "\x00" in text:
        raise argparse.ArgumentTypeError(f"expected a path, got {text!r}")
    return text


def output_dir(text: str) -> str:
    """A folder to write files in: an existing writable directory, or one that can be made
    (its nearest existing ancestor is a writable directory)."""
    path_name(text)
    problem = _writable_folder(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"cannot write in {text}: {problem}")
    return text


def output_file(text: str) -> str:
    """A file to write: not a directory, in an existing writable directory, writable if it
    exists."""
    path_name(text)
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text} is a directory, not a file")
    parent = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(parent):
        raise argparse.ArgumentTypeError(f"cannot write {text}: no directory {parent}")
    if not os.access(parent, os.W_OK | os.X_OK) or (os.path.exists(text)
                                                   and not os.access(text, os.W_OK)):
        raise argparse.ArgumentTypeError(f"cannot write {text}: not writable")
    return text


def phh_output(text: str) -> str:
    """``--phh`` of ``omaha play``: a ``.phhs`` file to write, or a folder of ``.phh`` files."""
    return output_file(text) if text.endswith(".phhs") else output_dir(text)


def stud_phh_writer(target: str, codes: Iterable[str], *, compatible: bool = False) -> PhhWriter:
    """``--phh``'s writer for the hands of a stud game or a rotation (``play``, ``simulate``),
    given the codes of the games it will hold: each hand is written in its own game's notation
    (:class:`~omaha.phh.export.PhhWriter`). Five-card stud, which PHH does not name, is
    refused before a hand is played (HistoryError naming ``variant``)."""
    from omaha.errors import HistoryError
    from omaha.phh.export import PhhWriter

    if "F5S" in codes:
        raise HistoryError("five-card stud (F5S) has no PHH variant code: --phh is refused",
                           field="variant")
    if target.endswith(".phhs"):   # simulate's shard: its folder is made here
        os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    return PhhWriter(target, compatible=compatible)


_SQLITE = b"SQLite format 3\x00"


def _arena_db(text: str, *, missing_ok: bool) -> str:
    """A PostgreSQL URL as given (checked when connecting), or the SQLite file's path."""
    import sqlite3
    from urllib.parse import quote

    from omaha.arena.databases import describe_db
    from omaha.errors import OmahaError

    try:
        kind, text = describe_db(text)
    except OmahaError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if kind == "postgresql":
        return text
    path_name(text)
    if not os.path.lexists(text):
        if not missing_ok:
            raise argparse.ArgumentTypeError(f"no database {text}")
        return output_file(text)   # created: it must be writable
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text} is a directory, not an arena database")
    try:
        with open(text, "rb") as file:
            header = file.read(len(_SQLITE))
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot read {text}: {exc.strerror}") from None
    if not header:
        if missing_ok:
            return text   # an empty file: SQLite makes it a new database
        raise argparse.ArgumentTypeError(f"{text} is empty, not an arena database")
    if header != _SQLITE:
        raise argparse.ArgumentTypeError(f"{text} is not an arena database (not SQLite)")
    # read as an immutable file first (no -wal/-shm made beside it); a write-ahead log not
    # yet checkpointed may hold the tables, then SQLite reads it (read-only)
    uri = "file:" + quote(os.path.abspath(text)) + "?mode=ro"
    wal = os.path.exists(text + "-wal") and os.path.getsize(text + "-wal") > 0
    try:
        names, schema = _arena_schema(sqlite3.connect(uri + "&immutable=1", uri=True))
        if schema is None and wal:
            names, schema = _arena_schema(sqlite3.connect(uri, uri=True))
    except sqlite3.Error as exc:
        raise argparse.ArgumentTypeError(f"cannot read {text}: {exc}") from None
    if schema is None and not (missing_ok and not names) and "tournament_meta" not in names:
        raise argparse.ArgumentTypeError(f"{text} is not an arena database "
                                         "(an SQLite file without the arena's tables)")
    return text


def _arena_schema(db: Any) -> tuple[set[str], Any]:
    """The tables of SQLite connection ``db`` and the arena's schema version (None: none),
    ``db`` closed."""
    try:
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        schema = (db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                  if "meta" in names else None)
    finally:
        db.close()
    return names, schema


def arena_db(text: str) -> str:
    """``omaha serve --db``: an arena database, or a new one (a missing or empty file, or an
    SQLite file without tables); another SQLite or other file is refused, never changed."""
    return _arena_db(text, missing_ok=True)


def existing_arena_db(text: str) -> str:
    """``omaha export --db``: an existing arena database (never created or changed)."""
    return _arena_db(text, missing_ok=False)


def overwritten(inputs: dict[str, str | None], outputs: dict[str, str | None]) -> str | None:
    """The one-line problem when an output would write over an input or over another output
    (paths resolved: links, ``..`` and a database's ``-wal``/``-shm`` files count), else None.

    >>> overwritten({"--db": "a.sqlite"}, {"OUTPUT": "./a.sqlite"})
    'OUTPUT a.sqlite would write over --db a.sqlite'
    """
    def same(a: str, b: str) -> bool:
        if os.path.realpath(a) == os.path.realpath(b):
            return True
        try:
            return os.path.samefile(a, b)
        except OSError:
            return False

    seen: list[tuple[str, str, str]] = []   # (what, path, the path as the user gave it)
    for name, path in inputs.items():
        if path is not None:
            seen += [(name, path + tail, path) for tail in ("", "-wal", "-shm", "-journal")]
    for name, path in outputs.items():
        if path is None:
            continue
        for other, taken, given in seen:
            if same(path, taken):
                return f"{name} {os.path.normpath(path)} would write over {other} {given}"
        seen.append((name, path, path))
    return None


def refuse(command: str, problem: str) -> NoReturn:
    """Exit 2 with ``omaha COMMAND: error: PROBLEM``: the one line of a bad input."""
    raise SystemExit(fail(command, problem))

