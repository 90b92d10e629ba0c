"""Which database a ``--db`` names: one parser for ``omaha serve``, ``omaha export`` and the
library.

* a file path, or ``sqlite:///relative/path`` / ``sqlite:////absolute/path``: SQLite (the
  embedded default, one server process per file);
* ``postgresql://...`` or ``postgres://...``: PostgreSQL (the ``[postgres]`` extra), shared
  by several server processes.

>>> describe_db("arena.sqlite"), describe_db("sqlite:///runs/arena.db")
(('sqlite', 'arena.sqlite'), ('sqlite', 'runs/arena.db'))
>>> describe_db("postgresql://omaha@db.internal/arena")[0]
'postgresql'
>>> describe_db("mysql://x")
Traceback (most recent call last):
...
omaha.arena.records.StorageError: --db 'mysql://x' is neither a SQLite file (a path or sqlite:///path) nor a PostgreSQL URL (postgresql://...)
"""

from __future__ import annotations

from omaha.arena.records import Storage, StorageError
from omaha.arena.storage import SqliteStorage
from omaha.limits import safe_repr

__all__ = ["describe_db", "is_postgres", "open_storage"]

_POSTGRES = ("postgresql://", "postgres://")


def describe_db(db: str) -> tuple[str, str]:
    """``("sqlite", path)`` or ``("postgresql", url)``; :class:`StorageError` otherwise."""
    if not isinstance(db, str) or not db or "\x00" in db:
        raise StorageError(f"--db: expected a path or a PostgreSQL URL, got {safe_repr(db)}")
    if db.startswith(_POSTGRES):
        return "postgresql", db
    if db.startswith("sqlite:///"):
        path = db[len("sqlite:///"):]
        if path:
            return "sqlite", path
    elif "://" not in db:
        return "sqlite", db
    raise StorageError(f"--db {safe_repr(db)} is neither a SQLite file (a path or "
                       "sqlite:///path) nor a PostgreSQL URL (postgresql://...)")


def is_postgres(db: str) -> bool:
    """Whether ``db`` names a PostgreSQL database."""
    return describe_db(db)[0] == "postgresql"


def open_storage(db: str, *, synchronous: str = "NORMAL", create: bool = True,
                 stall_ms: int | None = None) -> Storage:
    """The storage ``db`` names (``synchronous``: SQLite's, see
    :class:`~omaha.arena.storage.SqliteStorage`; PostgreSQL commits durably by its own
    settings; ``create=False``: an existing arena only, nothing created or migrated;
    ``stall_ms``: PostgreSQL's limit on an idle transaction, see
    :class:`~omaha.arena.postgres.PostgresStorage`, None for its default; SQLite has one
    process per file, so nothing to limit)."""
    kind, where = describe_db(db)
    if kind == "postgresql":
        from omaha.arena.postgres import STALL_MS, PostgresStorage
        return PostgresStorage(where, create=create,
                               stall_ms=STALL_MS if stall_ms is None else stall_ms)
    return SqliteStorage(where, synchronous=synchronous, create=create)
