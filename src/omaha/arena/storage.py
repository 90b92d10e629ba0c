"""Where the arena keeps its state: one set of SQL statements, and its SQLite default.

What is stored, and when (each call is one transaction, committed before it returns, and
the server acknowledges nothing before that):

* the server's settings (once);
* per table, the table snapshot (:meth:`omaha.game.table.Table.snapshot`, seats, stacks, button,
  and the hand in play with its dealt cards) and ``seq_base``, the stream number before the
  first event of that hand (:mod:`omaha.arena.stream`), and its lease (who plays it, until
  when, under which epoch: :mod:`omaha.arena.records`);
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

:class:`SqlStorage` holds the statements, written once for both databases (``?`` marks a
parameter; the database's own marker is put in when the class is made); a database adds its
connection, its transactions and its schema migrations. :class:`SqliteStorage` here,
:class:`~omaha.arena.postgres.PostgresStorage` in :mod:`omaha.arena.postgres`.

>>> store = SqliteStorage(":memory:")
>>> store.create_table(1, {"format": "demo"}, seq_base=0)
True
>>> store.claim(1, "me", "ws://127.0.0.1:8765", 3000)   # the epoch this process writes under
1
>>> store.append_action(1, ActionRecord(hand=1, seat=3, action="call"))
>>> [(t.table, t.seq_base, [a.action for a in t.actions]) for t in store.tables()]
[(1, 0, ['call'])]
>>> store.close()
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, ClassVar

from omaha.arena.records import (
    ActionRecord,
    CashOut,
    FencedError,
    FinishedHand,
    Lease,
    LedgerEntry,
    SeatRecord,
    Storage,
    StorageError,
    TableRecord,
)
from omaha.arena.stream import HandEvents
from omaha.errors import OmahaError
from omaha.history.sealing import dumps_snapshot, loads_snapshot

__all__ = [
    "SCHEMA_VERSION",
    "ActionRecord",
    "CashOut",
    "FencedError",
    "FinishedHand",
    "Lease",
    "LedgerEntry",
    "SeatRecord",
    "SqlStorage",
    "SqliteStorage",
    "Storage",
    "StorageError",
    "TableRecord",
]

SCHEMA_VERSION = 3
"""1: tables, actions, seats, hands, ledger; 2: leaving, cash_outs; 3: leases."""
HAND_PAGE = 32   # finished hands read per query when a stream is replayed
MAX_HAND = 2**62   # above every hand number (hand is a BIGINT in PostgreSQL)

_CASH_OUTS = "SELECT table_id, seat, name, token_hash, amount, before_hand FROM cash_outs"
_SEATS = "SELECT table_id, seat, name, token_hash, joined_seq FROM seats"
_LEASES = "SELECT table_id, owner, url, epoch, expires_ms - {now} FROM leases"


class SqlStorage:
    """:class:`~omaha.arena.records.Storage` over a DB-API connection; a subclass gives
    ``_db`` (the connection), ``_transaction()``, ``PARAM`` (the parameter marker),
    ``NOW_MS`` (the database clock in integer milliseconds) and ``LOCK`` (what makes a read
    hold its row until commit, so a concurrent claim waits for the write or the write sees
    the claim)."""

    PARAM: ClassVar[str] = "?"
    NOW_MS: ClassVar[str] = ""
    LOCK: ClassVar[str] = ""

    def __init__(self) -> None:
        self._epochs: dict[int, int] = {}   # the tables this object claimed, their epochs
        self._integrity: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    # --- plumbing ----------------------------------------------------------------------

    def _sql(self, query: str) -> str:
        return query.replace("?", self.PARAM).replace("{now}", self.NOW_MS)

    def _run(self, query: str, params: Sequence[Any] = ()) -> Any:
        return self._db.execute(self._sql(query), params)

    @property
    def _db(self) -> Any:
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _fence(self, table: int) -> None:
        """Inside a write's transaction: the table's epoch must still be the one claimed."""
        mine = self._epochs.get(table)
        if mine is None:
            raise FencedError(table, "this process does not hold the table's lease")
        row = self._run("SELECT epoch FROM leases WHERE table_id=?" + self.LOCK,
                        (table,)).fetchone()
        if row is None or row[0] != mine:
            self._epochs.pop(table, None)
            raise FencedError(table, f"the lease was taken over (epoch {mine} -> "
                              f"{None if row is None else row[0]})")

    # --- settings ----------------------------------------------------------------------

    def settings(self) -> dict[str, Any] | None:
        row = self._run("SELECT value FROM meta WHERE key='settings'").fetchone()
        return None if row is None else _load(row[0])

    def save_settings(self, settings: dict[str, Any]) -> None:
        with self._transaction():
            self._run("DELETE FROM meta WHERE key='settings'")
            self._run("INSERT INTO meta VALUES ('settings', ?)", (json.dumps(settings),))

    def init_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        with self._transaction():
            self._run("INSERT INTO meta VALUES ('settings', ?) ON CONFLICT DO NOTHING",
                      (json.dumps(settings),))
        stored = self.settings()
        assert stored is not None
        return stored

    # --- tables and leases -------------------------------------------------------------

    def tables(self) -> list[TableRecord]:
        records = {table: TableRecord(table, _load_snapshot(snapshot), base)
                   for table, snapshot, base in
                   self._run("SELECT id, snapshot, seq_base FROM tables ORDER BY id")}
        for table, hand, seat, action, amount, policy in self._run(
                "SELECT table_id, hand, seat, action, amount, policy FROM actions ORDER BY id"):
            records[table].actions.append(ActionRecord(hand, seat, action, amount, policy))
        return list(records.values())

    def table(self, table: int) -> TableRecord | None:
        row = self._run("SELECT snapshot, seq_base FROM tables WHERE id=?", (table,)).fetchone()
        if row is None:
            return None
        record = TableRecord(table, _load_snapshot(row[0]), row[1])
        for hand, seat, action, amount, policy in self._run(
                "SELECT hand, seat, action, amount, policy FROM actions WHERE table_id=? "
                "ORDER BY id", (table,)):
            record.actions.append(ActionRecord(hand, seat, action, amount, policy))
        return record

    def create_table(self, table: int, snapshot: dict[str, Any], *, seq_base: int) -> bool:
        with self._transaction():
            made: bool = self._run("INSERT INTO tables VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                   (table, dumps_snapshot(snapshot), seq_base)).rowcount == 1
            if made:
                self._run("INSERT INTO leases VALUES (?, '', '', 0, 0) ON CONFLICT DO NOTHING",
                          (table,))
        return made

    def claim(self, table: int, owner: str, url: str, lease_ms: int, *,
              force: bool = False) -> int | None:
        with self._transaction():
            row = self._run(
                "UPDATE leases SET owner=?, url=?, epoch=epoch+1, expires_ms={now}+? "
                "WHERE table_id=? AND (? OR owner='' OR owner=? OR expires_ms<={now}) "
                "RETURNING epoch", (owner, url, lease_ms, table, force, owner)).fetchone()
        if row is None:
            return None
        self._epochs[table] = row[0]
        return int(row[0])

    def renew(self, owner: str, lease_ms: int) -> dict[int, int]:
        # only the leases this object holds, at their epochs: a released one stays released
        with self._transaction():
            kept = {table: epoch for table, epoch in self._epochs.items()
                    if self._run("UPDATE leases SET expires_ms={now}+? WHERE table_id=? AND "
                                 "owner=? AND epoch=?",
                                 (lease_ms, table, owner, epoch)).rowcount == 1}
        self._epochs = kept
        return dict(kept)

    def announce(self, owner: str, url: str) -> None:
        with self._transaction():
            for table, epoch in self._epochs.items():
                self._run("UPDATE leases SET url=? WHERE table_id=? AND owner=? AND epoch=?",
                          (url, table, owner, epoch))

    def release(self, owner: str, tables: Sequence[int] | None = None) -> None:
        with self._transaction():
            for table in (list(self._epochs) if tables is None else tables):
                self._run("UPDATE leases SET expires_ms=0 WHERE owner=? AND table_id=? "
                          "AND epoch=?", (owner, table, self._epochs.get(table, -1)))
                self._epochs.pop(table, None)

    def leases(self) -> list[Lease]:
        return [Lease(*row) for row in self._run(_LEASES + " ORDER BY table_id")]

    def held(self) -> dict[int, int]:
        return dict(self._epochs)

    # --- writes of a table (fenced) ----------------------------------------------------

    def save_table(self, table: int, snapshot: dict[str, Any], *, seq_base: int,
                   seat: SeatRecord | None = None, finished: FinishedHand | None = None,
                   ledger: Sequence[LedgerEntry] = (),
                   cash_outs: Sequence[CashOut] = ()) -> None:
        run = self._run
        others = {r.table for r in (seat, finished, *ledger, *cash_outs) if r is not None}
        if others - {table}:
            raise StorageError(f"table {table}: records of table {sorted(others - {table})} "
                               "given with it")
        with self._transaction(), self._constraints(table):
            self._fence(table)
            run("UPDATE tables SET snapshot=?, seq_base=? WHERE id=?",
                (dumps_snapshot(snapshot), seq_base, table))
            run("DELETE FROM actions WHERE table_id=?", (table,))
            if seat is not None:
                run("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                    (seat.table, seat.seat, seat.name, seat.token_hash, seat.joined_seq))
            if finished is not None:
                run("INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?)",
                    (finished.table, finished.hand, finished.seq_base,
                     finished.seq_base + len(finished.events),
                     json.dumps(finished.events), finished.phh))
            for entry in [*ledger, *(c.ledger_entry() for c in cash_outs)]:
                run("INSERT INTO ledger (table_id, seat, amount, kind, before_hand) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (entry.table, entry.seat, entry.amount, entry.kind, entry.before_hand))
            for out in cash_outs:
                freed = run("DELETE FROM seats WHERE table_id=? AND seat=? AND token_hash=?",
                            (out.table, out.seat, out.token_hash))
                if freed.rowcount != 1:   # rolls the whole transaction back
                    raise StorageError(f"table {out.table} seat {out.seat}: no such seat to "
                                       "cash out")
                run("DELETE FROM leaving WHERE table_id=? AND seat=?", (out.table, out.seat))
                run("INSERT INTO cash_outs (table_id, seat, name, token_hash, amount, "
                    "before_hand) VALUES (?, ?, ?, ?, ?, ?)",
                    (out.table, out.seat, out.name, out.token_hash, out.amount,
                     out.before_hand))

    def mark_leaving(self, table: int, seat: int) -> None:
        with self._transaction():
            self._fence(table)
            self._run("INSERT INTO leaving VALUES (?, ?) ON CONFLICT DO NOTHING", (table, seat))

    def append_action(self, table: int, action: ActionRecord) -> None:
        # the hottest write: one statement that inserts only under the claimed epoch
        # (its own transaction in autocommit mode; the lock makes a concurrent claim wait)
        epoch = self._epochs.get(table, -1)
        added = self._run(
            "INSERT INTO actions (table_id, hand, seat, action, amount, policy) "
            "SELECT ?, ?, ?, ?, ?, ? FROM leases WHERE table_id=? AND epoch=?" + self.LOCK,
            (table, action.hand, action.seat, action.action, action.to, action.policy,
             table, epoch)).rowcount
        if added != 1:
            self._epochs.pop(table, None)
            raise FencedError(table, "the lease was taken over" if epoch >= 0 else
                              "this process does not hold the table's lease")

    # --- reads -------------------------------------------------------------------------

    def leaving(self, table: int | None = None) -> list[tuple[int, int]]:
        rows = (self._run("SELECT table_id, seat FROM leaving ORDER BY table_id, seat")
                if table is None else
                self._run("SELECT table_id, seat FROM leaving WHERE table_id=? ORDER BY seat",
                          (table,)))
        return [(t, s) for t, s in rows]

    def cash_out(self, token_hash: str) -> CashOut | None:
        row = self._run(_CASH_OUTS + " WHERE token_hash=?", (token_hash,)).fetchone()
        return None if row is None else CashOut(*row)

    def cash_outs(self, table: int | None = None) -> list[CashOut]:
        rows = (self._run(_CASH_OUTS + " ORDER BY id") if table is None else
                self._run(_CASH_OUTS + " WHERE table_id=? ORDER BY id", (table,)))
        return [CashOut(*row) for row in rows]

    def seats(self, table: int | None = None) -> list[SeatRecord]:
        rows = (self._run(_SEATS + " ORDER BY table_id, seat") if table is None else
                self._run(_SEATS + " WHERE table_id=? ORDER BY seat", (table,)))
        return [SeatRecord(*row) for row in rows]

    def seat_of(self, token_hash: str) -> SeatRecord | None:
        row = self._run(_SEATS + " WHERE token_hash=?", (token_hash,)).fetchone()
        return None if row is None else SeatRecord(*row)

    def ledger(self, table: int | None = None) -> list[LedgerEntry]:
        query = "SELECT table_id, seat, amount, kind, before_hand FROM ledger"
        rows = (self._run(query + " ORDER BY id") if table is None else
                self._run(query + " WHERE table_id=? ORDER BY id", (table,)))
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
            rows = self._run(query, [*params, key[0], *key, HAND_PAGE]).fetchall()
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
            rows = self._run(
                "SELECT hand, seq_base, events FROM hands WHERE table_id=? AND last_seq>? "
                "AND seq_base<? AND hand>? ORDER BY hand LIMIT ?",
                (table, after_seq, before_seq, hand, page)).fetchall()
            for number, base, events in rows:
                yield HandEvents(number, base, _load(events))
            if len(rows) < page:
                return
            left -= len(rows)
            hand = rows[-1][0]

    def recent_hands(self, table: int, *, before_hand: int | None,
                     limit: int) -> list[FinishedHand]:
        rows = self._run(
            "SELECT table_id, hand, seq_base, events, phh FROM hands WHERE table_id=? "
            "AND hand<? ORDER BY hand DESC LIMIT ?",
            (table, MAX_HAND if before_hand is None else before_hand, limit)).fetchall()
        return [FinishedHand(t, hand, base, _load(events), phh)
                for t, hand, base, events, phh in rows]

    # --- schema ------------------------------------------------------------------------

    def _migrate(self, steps: Sequence[str], *, foreign: bool, create: bool = True) -> None:
        """Inside a transaction: bring the schema to :data:`SCHEMA_VERSION` by running
        ``steps[v]`` for each version ``v + 1`` not yet applied; refuse a newer schema and a
        database that holds other tables (``foreign``) but no arena. ``create=False`` (a
        reader such as ``omaha export``) changes nothing: no arena there is an error."""
        version = self._schema_version()
        if not create:
            if version is None:
                raise StorageError("not an arena database: it holds no omaha arena schema")
            if version > SCHEMA_VERSION:
                raise StorageError(f"the database's arena schema is version {version}, newer "
                                   f"than this omaha-poker reads ({SCHEMA_VERSION}); upgrade it")
            return
        if version is None:
            if foreign:
                raise StorageError("not an arena database: it holds other tables and no "
                                   "omaha arena schema")
            version = 0
        if version > SCHEMA_VERSION:
            raise StorageError(f"the database's arena schema is version {version}, newer than "
                               f"this omaha-poker reads ({SCHEMA_VERSION}); upgrade it")
        for step in steps[version:]:
            for statement in step.split(";"):
                self._run(statement.strip())
        if version < SCHEMA_VERSION:
            self._run("DELETE FROM meta WHERE key='schema'")
            self._run("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    def _schema_version(self) -> int | None:
        raise NotImplementedError

    @contextmanager
    def _constraints(self, table: int) -> Iterator[None]:
        """A row the schema refuses (a taken seat or token) as a :class:`StorageError`."""
        try:
            yield
        except self._integrity as exc:
            raise StorageError(f"table {table}: refused by the database: "
                               f"{str(exc).splitlines()[0] if str(exc) else exc}") from None

    def _stamped_version(self) -> int | None:
        row = self._run("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            return None
        try:
            return int(row[0])
        except ValueError:
            raise StorageError(f"not an arena database: schema row {row[0]!r}") from None


# Version 1 and 2 statements keep the IF NOT EXISTS of the files they created (a version 1
# file made by an older release is upgraded by the later steps only).
_SQLITE_STEPS: tuple[str, ...] = (   # version v + 1 is _SQLITE_STEPS[v]; ";" ends each
    """
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS tables (id INTEGER PRIMARY KEY, snapshot TEXT NOT NULL,
        seq_base INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS actions (id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id INTEGER NOT NULL, hand INTEGER NOT NULL, seat INTEGER NOT NULL,
        action TEXT NOT NULL, amount INTEGER, policy TEXT);
    CREATE INDEX IF NOT EXISTS actions_by_table ON actions (table_id, id);
    CREATE TABLE IF NOT EXISTS seats (table_id INTEGER NOT NULL, seat INTEGER NOT NULL,
        name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, joined_seq INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat));
    CREATE TABLE IF NOT EXISTS hands (table_id INTEGER NOT NULL, hand INTEGER NOT NULL,
        seq_base INTEGER NOT NULL, last_seq INTEGER NOT NULL, events TEXT NOT NULL,
        phh TEXT NOT NULL, PRIMARY KEY (table_id, hand));
    CREATE INDEX IF NOT EXISTS hands_by_seq ON hands (table_id, last_seq);
    CREATE TABLE IF NOT EXISTS ledger (id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id INTEGER NOT NULL, seat INTEGER NOT NULL, amount INTEGER NOT NULL,
        kind TEXT NOT NULL, before_hand INTEGER NOT NULL)
    """,
    """
    CREATE TABLE IF NOT EXISTS leaving (table_id INTEGER NOT NULL, seat INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat));
    CREATE TABLE IF NOT EXISTS cash_outs (id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE, amount INTEGER NOT NULL, before_hand INTEGER NOT NULL)
    """,
    """
    CREATE TABLE leases (table_id INTEGER PRIMARY KEY, owner TEXT NOT NULL, url TEXT NOT NULL,
        epoch INTEGER NOT NULL, expires_ms INTEGER NOT NULL);
    INSERT INTO leases SELECT id, '', '', 0, 0 FROM tables
    """,
)


class SqliteStorage(SqlStorage):
    """:class:`~omaha.arena.records.Storage` in one SQLite file (stdlib :mod:`sqlite3`, WAL
    journal): the embedded default, for one server process per file.

    ``synchronous="NORMAL"`` (the default) makes every commit survive the death of the
    process (``kill -9``); ``"FULL"`` also survives a power cut, at an fsync per commit.
    ``create=False`` opens an existing arena only, and migrates nothing (for readers).
    """

    NOW_MS = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"

    def __init__(self, path: str, *, synchronous: str = "NORMAL", create: bool = True) -> None:
        super().__init__()
        if synchronous not in ("NORMAL", "FULL"):
            raise StorageError(f"synchronous is NORMAL or FULL, got {synchronous!r}")
        self._connection = sqlite3.connect(path, isolation_level=None,
                                           check_same_thread=False)
        try:
            _wal(self._connection)
            self._connection.execute(f"PRAGMA synchronous={synchronous}")
            self._connection.execute("PRAGMA busy_timeout=5000")
            with self._transaction():
                names = {name for (name,) in self._connection.execute(
                    "SELECT name FROM sqlite_master WHERE type='table'")}
                self._migrate(_SQLITE_STEPS, foreign=bool(names - _SQLITE_NAMES), create=create)
        except BaseException:
            self._connection.close()
            raise

    @property
    def _db(self) -> sqlite3.Connection:
        return self._connection

    def _transaction(self) -> _Transaction:
        return _Transaction(self._connection)

    def _schema_version(self) -> int | None:
        if self._connection.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND "
                                    "name='meta'").fetchone() is None:
            return None
        return self._stamped_version()

    def close(self) -> None:
        self._connection.close()


def _wal(db: sqlite3.Connection) -> None:
    """Switch to the WAL journal. Several processes opening a new file at once contend for
    the switch, which SQLite answers "locked" without waiting: retry for a few seconds."""
    for _ in range(50):
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc):
                raise
            time.sleep(0.1)
    db.execute("PRAGMA journal_mode=WAL")


_SQLITE_NAMES = {"meta", "tables", "actions", "seats", "hands", "ledger", "leaving",
                 "cash_outs", "leases", "sqlite_sequence"}


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
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error); nested uses join the outer one."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._outer = False

    def __enter__(self) -> None:
        self._outer = not self._db.in_transaction
        if self._outer:
            self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        if self._outer:
            self._db.execute("COMMIT" if kind is None else "ROLLBACK")
