"""Where the arena keeps its state: the :class:`Storage` interface and its SQLite default.

What is stored, and when (each call is one transaction, committed before it returns, and
the server acknowledges nothing before that):

* the server's settings (once);
* per table, the table snapshot (:meth:`omaha.game.table.Table.snapshot`, seats, stacks, button,
  and the hand in play with its dealt cards) and ``seq_base``, the stream number before the
  first event of that hand (:mod:`omaha.arena.stream`);
* every accepted action of the hand in play (including timeouts), appended one by one; a
  table's state is its snapshot plus its actions replayed in order;
* every finished hand: its PHH text and its events (for export and for resuming streams),
  together with the new table snapshot (which clears the actions);
* seats: name, the SHA-256 of the seat's token (never the token), the stream number at
  which the seat was taken; and a ledger of every chip brought to a table (``buy_in``,
  ``rebuy``) or taken away from it (``cash_out``), in order;
* seats asked to be freed at the end of the hand in play (``leaving``), and every cash-out:
  the seat, its name, its token's hash and the chips paid out, written with the ``cash_out``
  ledger row in the transaction that frees the seat. So chips at the tables plus chips
  cashed out equals chips bought in, whatever moment the process dies.

Another database (PostgreSQL, say) only has to implement the same methods with the same
transactions; see ``docs/arena.md``.

>>> store = SqliteStorage(":memory:")
>>> store.create_table(1, {"format": "demo"}, seq_base=0)
>>> store.append_action(1, ActionRecord(hand=1, seat=3, action="call"))
>>> [(t.table, t.seq_base, [a.action for a in t.actions]) for t in store.tables()]
[(1, 0, ['call'])]
>>> store.close()
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from omaha.arena.stream import HandEvents
from omaha.errors import OmahaError
from omaha.history.sealing import dumps_snapshot, loads_snapshot

__all__ = [
    "ActionRecord",
    "CashOut",
    "FinishedHand",
    "LedgerEntry",
    "SeatRecord",
    "SqliteStorage",
    "Storage",
    "StorageError",
    "TableRecord",
]


class StorageError(OmahaError):
    """The database cannot be used (wrong schema version, unreadable rows)."""


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One accepted action of the hand in play: ``action`` is a :class:`~omaha.game.hand.Hand`
    method name, ``to`` the bet-or-raise total, or ``action="timeout"`` with the D2
    ``policy`` value."""

    hand: int
    seat: int
    action: str
    to: int | None = None
    policy: str | None = None


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A taken seat: its player's name, the hash of its token, where its stream began."""

    table: int
    seat: int
    name: str
    token_hash: str
    joined_seq: int


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """Chips brought to ``table`` by ``seat`` (``kind`` ``buy_in`` or ``rebuy``), or taken
    from it (``cash_out``: ``amount`` is what was paid out), before hand ``before_hand``."""

    table: int
    seat: int
    amount: int
    kind: str
    before_hand: int


@dataclass(frozen=True, slots=True)
class CashOut:
    """A seat given up: its player's name, the hash of its (now dead) token, the chips paid
    out, and the hand before which it happened."""

    table: int
    seat: int
    name: str
    token_hash: str
    amount: int
    before_hand: int

    def ledger_entry(self) -> LedgerEntry:
        """The ``cash_out`` row of the chip ledger that goes with it."""
        return LedgerEntry(self.table, self.seat, self.amount, "cash_out", self.before_hand)


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A finished hand: its number, stream base, omniscient events and PHH text."""

    table: int
    hand: int
    seq_base: int
    events: list[dict[str, Any]]
    phh: str


@dataclass(slots=True)
class TableRecord:
    """A table as stored: snapshot, stream base and the actions to replay on top."""

    table: int
    snapshot: dict[str, Any]
    seq_base: int
    actions: list[ActionRecord] = field(default_factory=list)


class Storage(Protocol):
    """The arena's persistence. Every method is one committed transaction."""

    def settings(self) -> dict[str, Any] | None:
        """The settings stored by the first start, or None for a new database."""
        ...

    def save_settings(self, settings: dict[str, Any]) -> None:
        """Store the settings (first start only)."""
        ...

    def tables(self) -> list[TableRecord]:
        """Every table with its actions, by table number."""
        ...

    def create_table(self, table: int, snapshot: dict[str, Any], *, seq_base: int) -> None:
        """A new table."""
        ...

    def save_table(self, table: int, snapshot: dict[str, Any], *, seq_base: int,
                   seat: SeatRecord | None = None, finished: FinishedHand | None = None,
                   ledger: Sequence[LedgerEntry] = (),
                   cash_outs: Sequence[CashOut] = ()) -> None:
        """Replace the table's snapshot (its actions are then part of it and are dropped),
        with a new seat, a finished hand, ledger entries and cash-outs (each frees its seat
        and writes its ``cash_out`` ledger row, after ``ledger``) in the same transaction."""
        ...

    def mark_leaving(self, table: int, seat: int) -> None:
        """``seat`` leaves when the hand in play ends (it is cashed out then)."""
        ...

    def leaving(self) -> list[tuple[int, int]]:
        """Every (table, seat) marked leaving and not yet cashed out."""
        ...

    def cash_out(self, token_hash: str) -> CashOut | None:
        """The cash-out of the seat this token held, or None."""
        ...

    def cash_outs(self, table: int | None = None) -> list[CashOut]:
        """Every cash-out, in order."""
        ...

    def append_action(self, table: int, action: ActionRecord) -> None:
        """Append one accepted action of the hand in play."""
        ...

    def seats(self) -> list[SeatRecord]:
        """Every taken seat."""
        ...

    def ledger(self, table: int | None = None) -> list[LedgerEntry]:
        """Chips brought to the tables, in order."""
        ...

    def finished_hands(self, table: int | None = None, *,
                       after_seq: int | None = None) -> Iterator[FinishedHand]:
        """Finished hands by table and hand number (``after_seq``: only hands with an event
        numbered above it)."""
        ...

    def hand_events(self, table: int, *, after_seq: int, before_seq: int,
                    limit: int) -> Iterator[HandEvents]:
        """The events of at most ``limit`` finished hands of ``table`` with an event numbered
        above ``after_seq`` and a first event numbered at most ``before_seq``, oldest first,
        read in bounded pages (what a resumed or watched stream replays; never the PHH)."""
        ...

    def close(self) -> None:
        """Release the database."""
        ...


SCHEMA_VERSION = 2
HAND_PAGE = 32   # finished hands read per query when a stream is replayed
UPGRADES = {"1": "2"}   # version 2 only adds tables (leaving, cash_outs): CREATE IF NOT EXISTS

_DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY, snapshot TEXT NOT NULL, seq_base INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL, hand INTEGER NOT NULL,
    seat INTEGER NOT NULL, action TEXT NOT NULL, amount INTEGER, policy TEXT);
CREATE INDEX IF NOT EXISTS actions_by_table ON actions (table_id, id);
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE, joined_seq INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS hands (
    table_id INTEGER NOT NULL, hand INTEGER NOT NULL, seq_base INTEGER NOT NULL,
    last_seq INTEGER NOT NULL, events TEXT NOT NULL, phh TEXT NOT NULL,
    PRIMARY KEY (table_id, hand));
CREATE INDEX IF NOT EXISTS hands_by_seq ON hands (table_id, last_seq);
CREATE TABLE IF NOT EXISTS ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL, seat INTEGER NOT NULL,
    amount INTEGER NOT NULL, kind TEXT NOT NULL, before_hand INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS leaving (
    table_id INTEGER NOT NULL, seat INTEGER NOT NULL, PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS cash_outs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL, seat INTEGER NOT NULL,
    name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, amount INTEGER NOT NULL,
    before_hand INTEGER NOT NULL);
"""


_CASH_OUTS = "SELECT table_id, seat, name, token_hash, amount, before_hand FROM cash_outs"


class SqliteStorage:
    """:class:`Storage` in one SQLite file (stdlib :mod:`sqlite3`, WAL journal).

    ``synchronous="NORMAL"`` (the default) makes every commit survive the death of the
    process (``kill -9``); ``"FULL"`` also survives a power cut, at an fsync per commit.
    """

    def __init__(self, path: str, *, synchronous: str = "NORMAL") -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise StorageError(f"synchronous is NORMAL or FULL, got {synchronous!r}")
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.execute("PRAGMA busy_timeout=5000")
        with self._transaction():
            for statement in _DDL.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif UPGRADES.get(row[0]) == str(SCHEMA_VERSION):
                self._db.execute("UPDATE meta SET value=? WHERE key='schema'",
                                 (str(SCHEMA_VERSION),))
            elif row[0] != str(SCHEMA_VERSION):
                raise StorageError(f"database schema {row[0]}, this version reads "
                                   f"{SCHEMA_VERSION}")

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def settings(self) -> dict[str, Any] | None:
        row = self._db.execute("SELECT value FROM meta WHERE key='settings'").fetchone()
        return None if row is None else _load(row[0])

    def save_settings(self, settings: dict[str, Any]) -> None:
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('settings', ?)",
                             (json.dumps(settings),))

    def tables(self) -> list[TableRecord]:
        records = {table: TableRecord(table, _load_snapshot(snapshot), base)
                   for table, snapshot, base in
                   self._db.execute("SELECT id, snapshot, seq_base FROM tables ORDER BY id")}
        for table, hand, seat, action, amount, policy in self._db.execute(
                "SELECT table_id, hand, seat, action, amount, policy FROM actions ORDER BY id"):
            records[table].actions.append(ActionRecord(hand, seat, action, amount, policy))
        return list(records.values())

    def create_table(self, table: int, snapshot: dict[str, Any], *, seq_base: int) -> None:
        with self._transaction():
            self._db.execute("INSERT INTO tables VALUES (?, ?, ?)",
                             (table, dumps_snapshot(snapshot), seq_base))

    def save_table(self, table: int, snapshot: dict[str, Any], *, seq_base: int,
                   seat: SeatRecord | None = None, finished: FinishedHand | None = None,
                   ledger: Sequence[LedgerEntry] = (),
                   cash_outs: Sequence[CashOut] = ()) -> None:
        db = self._db
        with self._transaction():
            db.execute("UPDATE tables SET snapshot=?, seq_base=? WHERE id=?",
                       (dumps_snapshot(snapshot), seq_base, table))
            db.execute("DELETE FROM actions WHERE table_id=?", (table,))
            if seat is not None:
                db.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                           (seat.table, seat.seat, seat.name, seat.token_hash, seat.joined_seq))
            if finished is not None:
                db.execute("INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?)",
                           (finished.table, finished.hand, finished.seq_base,
                            finished.seq_base + len(finished.events),
                            json.dumps(finished.events), finished.phh))
            for entry in [*ledger, *(c.ledger_entry() for c in cash_outs)]:
                db.execute("INSERT INTO ledger (table_id, seat, amount, kind, before_hand) "
                           "VALUES (?, ?, ?, ?, ?)",
                           (entry.table, entry.seat, entry.amount, entry.kind, entry.before_hand))
            for out in cash_outs:
                freed = db.execute("DELETE FROM seats WHERE table_id=? AND seat=? AND "
                                   "token_hash=?", (out.table, out.seat, out.token_hash))
                if freed.rowcount != 1:   # rolls the whole transaction back
                    raise StorageError(f"table {out.table} seat {out.seat}: no such seat to "
                                       "cash out")
                db.execute("DELETE FROM leaving WHERE table_id=? AND seat=?",
                           (out.table, out.seat))
                db.execute("INSERT INTO cash_outs (table_id, seat, name, token_hash, amount, "
                           "before_hand) VALUES (?, ?, ?, ?, ?, ?)",
                           (out.table, out.seat, out.name, out.token_hash, out.amount,
                            out.before_hand))

    def mark_leaving(self, table: int, seat: int) -> None:
        self._db.execute("INSERT OR IGNORE INTO leaving VALUES (?, ?)", (table, seat))

    def leaving(self) -> list[tuple[int, int]]:
        return [(t, s) for t, s in self._db.execute(
            "SELECT table_id, seat FROM leaving ORDER BY table_id, seat")]

    def cash_out(self, token_hash: str) -> CashOut | None:
        row = self._db.execute(_CASH_OUTS + " WHERE token_hash=?", (token_hash,)).fetchone()
        return None if row is None else CashOut(*row)

    def cash_outs(self, table: int | None = None) -> list[CashOut]:
        rows = (self._db.execute(_CASH_OUTS + " ORDER BY id") if table is None else
                self._db.execute(_CASH_OUTS + " WHERE table_id=? ORDER BY id", (table,)))
        return [CashOut(*row) for row in rows]

    def append_action(self, table: int, action: ActionRecord) -> None:
        # one statement in autocommit mode is its own transaction: committed on return
        self._db.execute("INSERT INTO actions (table_id, hand, seat, action, amount, policy) "
                         "VALUES (?, ?, ?, ?, ?, ?)",
                         (table, action.hand, action.seat, action.action, action.to,
                          action.policy))

    def seats(self) -> list[SeatRecord]:
        return [SeatRecord(*row) for row in self._db.execute(
            "SELECT table_id, seat, name, token_hash, joined_seq FROM seats "
            "ORDER BY table_id, seat")]

    def ledger(self, table: int | None = None) -> list[LedgerEntry]:
        query = "SELECT table_id, seat, amount, kind, before_hand FROM ledger"
        rows = (self._db.execute(query + " ORDER BY id") if table is None else
                self._db.execute(query + " WHERE table_id=? ORDER BY id", (table,)))
        return [LedgerEntry(*row) for row in rows]

    def finished_hands(self, table: int | None = None, *,
                       after_seq: int | None = None) -> Iterator[FinishedHand]:
        query = "SELECT table_id, hand, seq_base, events, phh FROM hands"
        where: list[str] = []
        params: list[int] = []
        if table is not None:
            where.append("table_id=?")
            params.append(table)
        if after_seq is not None:
            where.append("last_seq>?")
            params.append(after_seq)
        where.append("(table_id>? OR (table_id=? AND hand>?))")
        query += " WHERE " + " AND ".join(where) + " ORDER BY table_id, hand LIMIT ?"
        key: tuple[int, int] = (-1, -1)
        while True:   # in pages: an export of a large database holds one page at a time
            rows = self._db.execute(query, [*params, key[0], *key, HAND_PAGE]).fetchall()
            for t, hand, base, events, phh in rows:
                yield FinishedHand(t, hand, base, _load(events), phh)
            if len(rows) < HAND_PAGE:
                return
            key = (rows[-1][0], rows[-1][1])

    def hand_events(self, table: int, *, after_seq: int, before_seq: int,
                    limit: int) -> Iterator[HandEvents]:
        left, hand = limit, -1
        while left > 0:
            page = min(HAND_PAGE, left)
            rows = self._db.execute(
                "SELECT hand, seq_base, events FROM hands WHERE table_id=? AND last_seq>? "
                "AND seq_base<? AND hand>? ORDER BY hand LIMIT ?",
                (table, after_seq, before_seq, hand, page)).fetchall()
            for number, base, events in rows:
                yield HandEvents(number, base, _load(events))
            if len(rows) < page:
                return
            left -= len(rows)
            hand = rows[-1][0]

    def close(self) -> None:
        self._db.close()


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise StorageError(f"unreadable row: {exc}") from None


def _load_snapshot(text: str) -> dict[str, Any]:
    """A stored table snapshot, read as snapshot text from outside is (bounded, plain JSON):
    a database is not trusted further than the snapshot's own checks."""
    try:
        data = loads_snapshot(text)
    except OmahaError as exc:
        raise StorageError(f"unreadable snapshot row: {exc}") from None
    if type(data) is not dict:
        raise StorageError(f"unreadable snapshot row: a {type(data).__name__}, not a snapshot")
    return data


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
