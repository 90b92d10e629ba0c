"""The arena on PostgreSQL (``pip install "omaha-poker[postgres]"``: psycopg 3).

:class:`PostgresStorage` runs the statements of :class:`~omaha.arena.storage.SqlStorage`
(the same ones SQLite runs) on one PostgreSQL connection in autocommit mode: each method is
one transaction, committed before it returns. Several server processes share one database,
each playing the tables it holds a lease on; the lease row is read ``FOR SHARE`` by every
write of its table, so a claim by another process either waits for the write to commit or
makes it fail (:class:`~omaha.arena.records.FencedError`), never both.

A process paused inside a write (SIGSTOP, a long stall of its machine) would hold that
row, and with it its table, for as long as it stays paused. Two limits stop that: the
database ends any transaction left idle for ``stall_ms`` (the paused write is rolled back,
and the paused process is told its connection went when it runs again), and a claim waits
at most :data:`CLAIM_WAIT_MS` for a row another writer holds before it gives up until the
next round, so the claiming process never stops playing its own tables to wait.

The schema is migrated at start, under an advisory lock so that processes starting together
migrate once; a newer schema, or a database holding other tables and no arena, is refused.
A lost connection raises :class:`~omaha.arena.records.StorageError` for the call that met
it, and the next call reconnects (the server retries with back-off; the table's lease
decides whether it may go on).

``psycopg`` is imported when a storage is opened, never when this module is imported.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from omaha.arena.records import StorageError
from omaha.arena.storage import SqlStorage
from omaha.limits import ARENA_LEASE_MS, as_int

__all__ = ["CLAIM_WAIT_MS", "INSTALL_HINT", "STALL_MS", "PostgresStorage"]

INSTALL_HINT = 'PostgreSQL storage needs the postgres extra: pip install "omaha-poker[postgres]"'
_MIGRATION_LOCK = 0x6F6D616861   # pg_advisory_xact_lock key: "omaha"
STALL_MS = ARENA_LEASE_MS // 2
"""Default ``stall_ms``: a transaction idle this long is ended by the database (a server
passes half its lease, so a paused writer's rows are free before its lease runs out)."""
CLAIM_WAIT_MS = 100
"""How long a claim waits for a lease row another writer holds; past it the claim takes
nothing this time (that writer is paused, or its lease is live and it is committing)."""

_STEPS: tuple[str, ...] = (   # version v + 1 is _STEPS[v]; ";" ends each statement
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE tables (id INTEGER PRIMARY KEY, snapshot TEXT NOT NULL,
        seq_base BIGINT NOT NULL);
    CREATE TABLE actions (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        table_id INTEGER NOT NULL, hand BIGINT NOT NULL, seat INTEGER NOT NULL,
        action TEXT NOT NULL, amount BIGINT, policy TEXT);
    CREATE INDEX actions_by_table ON actions (table_id, id);
    CREATE TABLE seats (table_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE, joined_seq BIGINT NOT NULL,
        PRIMARY KEY (table_id, seat));
    CREATE TABLE hands (table_id INTEGER NOT NULL, hand BIGINT NOT NULL,
        seq_base BIGINT NOT NULL, last_seq BIGINT NOT NULL, events TEXT NOT NULL,
        phh TEXT NOT NULL, PRIMARY KEY (table_id, hand));
    CREATE INDEX hands_by_seq ON hands (table_id, last_seq);
    CREATE TABLE ledger (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        table_id INTEGER NOT NULL, seat INTEGER NOT NULL, amount BIGINT NOT NULL,
        kind TEXT NOT NULL, before_hand BIGINT NOT NULL)
    """,
    """
    CREATE TABLE leaving (table_id INTEGER NOT NULL, seat INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat));
    CREATE TABLE cash_outs (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        table_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE, amount BIGINT NOT NULL, before_hand BIGINT NOT NULL)
    """,
    """
    CREATE TABLE leases (table_id INTEGER PRIMARY KEY, owner TEXT NOT NULL, url TEXT NOT NULL,
        epoch BIGINT NOT NULL, expires_ms BIGINT NOT NULL);
    INSERT INTO leases SELECT id, '', '', 0, 0 FROM tables
    """,
)
_ARENA_TABLES = {"meta", "tables", "actions", "seats", "hands", "ledger", "leaving",
                 "cash_outs", "leases"}


def import_psycopg() -> Any:
    """The ``psycopg`` package, or :class:`ImportError` with the install hint."""
    try:
        import psycopg
    except ImportError:
        raise ImportError(INSTALL_HINT) from None
    return psycopg


class PostgresStorage(SqlStorage):
    """:class:`~omaha.arena.records.Storage` in a PostgreSQL database (``url``: a libpq
    connection string, ``postgresql://user:password@host:port/dbname``).

    ``connect_timeout`` bounds each connection attempt, in seconds; ``create=False`` opens
    an existing arena only and migrates nothing (for readers such as ``omaha export``);
    ``stall_ms`` is how long a transaction of this connection may sit idle before the
    database ends it (see the module's note on paused processes).
    """

    PARAM = "%s"
    NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint"
    LOCK = " FOR SHARE"

    def __init__(self, url: str, *, connect_timeout: float = 5.0, create: bool = True,
                 stall_ms: int = STALL_MS) -> None:
        super().__init__()
        self.stall_ms = as_int(stall_ms, "stall_ms", low=10, high=3_600_000,
                               error=StorageError)
        self._psycopg = import_psycopg()
        self._integrity = (self._psycopg.IntegrityError,)
        self.url = url
        self.connect_timeout = connect_timeout
        self._connection: Any = None
        self._connect()
        try:
            with self._transaction():
                self._run("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
                names = {name for (name,) in self._run(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
                self._migrate(_STEPS, foreign=bool(names - _ARENA_TABLES), create=create)
        except BaseException:
            self.close()
            raise

    def _connect(self) -> None:
        try:
            self._connection = self._psycopg.connect(
                self.url, autocommit=True, connect_timeout=max(1, round(self.connect_timeout)),
                application_name="omaha-arena")
            self._connection.execute(
                "SELECT set_config('idle_in_transaction_session_timeout', %s, false)",
                (f"{self.stall_ms}ms",))
        except self._psycopg.Error as exc:
            raise StorageError(f"cannot connect to PostgreSQL: {_first_line(exc)}") from None

    @property
    def _db(self) -> Any:
        if self._connection is None or self._connection.closed:
            self._connect()   # after a lost connection: one attempt per call
        return self._connection

    def _run(self, query: str, params: Any = ()) -> Any:
        try:
            return self._db.execute(self._sql(query), params)
        except self._psycopg.errors.LockNotAvailable:
            raise _RowBusy("a row this statement needs is held by another writer") from None
        except self._psycopg.Error as exc:
            self._raise_if_lost(exc)
            raise

    def _raise_if_lost(self, exc: BaseException) -> None:
        """If ``exc`` ended the connection (an operational error, or a server that closed it:
        ``idle_in_transaction_session_timeout`` is an InternalError), drop the connection and
        raise :class:`StorageError`; else return, for the caller to re-raise ``exc``."""
        if isinstance(exc, self._psycopg.OperationalError) or self._connection is None \
                or self._connection.closed:
            self._drop_connection()
            raise StorageError(f"PostgreSQL connection lost: {_first_line(exc)}") from None

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        connection = self._db
        if connection.info.transaction_status != self._psycopg.pq.TransactionStatus.IDLE:
            yield   # nested: part of the outer transaction
            return
        try:
            with connection.transaction():
                yield
        except self._psycopg.Error as exc:
            self._raise_if_lost(exc)
            raise

    def _drop_connection(self) -> None:
        try:
            if self._connection is not None:
                self._connection.close()
        finally:
            self._connection = None

    def claim(self, table: int, owner: str, url: str, lease_ms: int, *,
              force: bool = False) -> int | None:
        try:
            with self._transaction():   # the limit lasts this transaction only
                self._run("SELECT set_config('lock_timeout', ?, true)", (f"{CLAIM_WAIT_MS}ms",))
                return super().claim(table, owner, url, lease_ms, force=force)
        except _RowBusy:
            return None   # the next round tries again

    def _schema_version(self) -> int | None:
        row = self._run("SELECT to_regclass('meta')").fetchone()
        return None if row is None or row[0] is None else self._stamped_version()

    def close(self) -> None:
        self._drop_connection()


class _RowBusy(StorageError):
    """A statement gave up waiting for a row another transaction holds (``lock_timeout``)."""


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
