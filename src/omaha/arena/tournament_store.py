"""A served tournament's database: SQLite, one tournament per file (``omaha serve --tournament``).

What is stored, and when, is what a restart needs to lose nothing (issue 25):

* ``settings`` (the structure, the field size, the clock) once, at the first start;
* each registration (name and the hash of its token) as it is accepted;
* the tournament's snapshot (:meth:`omaha.tournament.Tournament.snapshot`, a round in play
  included) at the draw, at each deal, after each finished hand and at each round's end, in
  the same transaction as what that step produced: the hands dealt (each its own
  :meth:`~omaha.game.hand.Hand.snapshot`, which holds its deck), a finished hand's PHH, and
  the tournament's events;
* every action (and timeout) of a hand in play, as it is applied.

A restart restores the snapshot, then each hand in play from its deal and its actions: it
resumes at its last stored action, so no chip and no place is ever lost. The schema is
versioned (:data:`SCHEMA_VERSION`); a file that holds an arena, or a newer schema, is refused.

>>> store = TournamentStore(":memory:")
>>> store.settings() is None
True
>>> store.save_settings({"players": 2})
>>> store.register("ann", "hash-of-ann's-token")
>>> store.registrations()
[('ann', "hash-of-ann's-token")]
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from omaha.arena.records import StorageError

__all__ = ["SCHEMA_VERSION", "LiveHand", "StoredAction", "TournamentStore"]

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournament_players (
    entry INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS tournament_live (
    tab INTEGER PRIMARY KEY, hand INTEGER NOT NULL, snapshot TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournament_actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, tab INTEGER NOT NULL, hand INTEGER NOT NULL,
    seat INTEGER NOT NULL, action TEXT NOT NULL, amount INTEGER, policy TEXT);
CREATE TABLE IF NOT EXISTS tournament_hands (
    hand INTEGER PRIMARY KEY, tab INTEGER NOT NULL, phh TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournament_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL);
"""


@dataclass(frozen=True, slots=True)
class StoredAction:
    """One action of a hand in play (``timeout`` with the policy the clock applied)."""

    seat: int
    action: str
    amount: int | None = None
    policy: str | None = None


@dataclass(frozen=True, slots=True)
class LiveHand:
    """A hand in play at a restart: its table, number, dealt snapshot and actions so far."""

    table: int
    hand: int
    snapshot: dict[str, Any]
    actions: tuple[StoredAction, ...]


class TournamentStore:
    """One tournament's SQLite file (``path``; ``:memory:`` for tests).

    ``synchronous`` is SQLite's setting (``NORMAL`` survives a killed process in WAL mode;
    ``FULL`` also a power cut). Every method commits before it returns.
    """

    def __init__(self, path: str, *, synchronous: str = "NORMAL") -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise StorageError(f"synchronous must be NORMAL or FULL, got {synchronous!r}")
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous}")
            self._check_foreign()
            self._db.executescript(_SCHEMA)
            version = self._meta("schema")
            if version is None:
                self._set_meta("schema", SCHEMA_VERSION)
            elif version != SCHEMA_VERSION:
                raise StorageError(f"{path}: tournament schema {version}; this version of "
                                   f"omaha reads schema {SCHEMA_VERSION}")
        except BaseException:
            self._db.close()
            raise

    def _check_foreign(self) -> None:
        names = {row[0] for row in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if names and "tournament_meta" not in names:
            raise StorageError(f"{self.path} holds other tables and no tournament (an arena's "
                               "database?); give a new file to --db")

    def close(self) -> None:
        self._db.close()

    # --- meta --------------------------------------------------------------------------

    def _meta(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM tournament_meta WHERE key = ?",
                               (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def _set_meta(self, key: str, value: Any) -> None:
        self._db.execute("INSERT INTO tournament_meta (key, value) VALUES (?, ?) ON CONFLICT "
                         "(key) DO UPDATE SET value = excluded.value", (key, json.dumps(value)))

    def settings(self) -> dict[str, Any] | None:
        """The settings stored at the first start (None for a new file)."""
        value = self._meta("settings")
        return value if isinstance(value, dict) else None

    def save_settings(self, settings: Mapping[str, Any]) -> None:
        self._set_meta("settings", dict(settings))

    # --- registrations -----------------------------------------------------------------

    def register(self, name: str, token_hash: str) -> None:
        """Enter ``name`` (in entry order); a name or token already entered is refused."""
        try:
            self._db.execute("INSERT INTO tournament_players (name, token_hash) VALUES (?, ?)",
                             (name, token_hash))
        except sqlite3.IntegrityError:
            raise StorageError(f"{name!r} or its token is entered already") from None

    def registrations(self) -> list[tuple[str, str]]:
        """(name, token hash) of every entrant, in entry order."""
        return [(row[0], row[1]) for row in self._db.execute(
            "SELECT name, token_hash FROM tournament_players ORDER BY entry")]

    # --- the tournament ----------------------------------------------------------------

    def snapshot(self) -> dict[str, Any] | None:
        """The tournament's last stored snapshot (None before the draw)."""
        value = self._meta("snapshot")
        return value if isinstance(value, dict) else None

    def save(self, snapshot: Mapping[str, Any], *, events: Sequence[Mapping[str, Any]] = (),
             deal: Mapping[int, tuple[int, Mapping[str, Any]]] | None = None,
             finished: tuple[int, int, str] | None = None) -> None:
        """One step, in one transaction: the tournament's ``snapshot`` with its new
        ``events``; ``deal`` (table -> (hand number, hand snapshot)) for the hands just
        dealt; ``finished`` (table, hand number, PHH) for a hand just over, whose deal and
        actions are then dropped."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._set_meta("snapshot", dict(snapshot))
            self._db.executemany("INSERT INTO tournament_events (event) VALUES (?)",
                                 [(json.dumps(dict(e)),) for e in events])
            if deal is not None:
                self._db.executemany(
                    "INSERT INTO tournament_live (tab, hand, snapshot) VALUES (?, ?, ?)",
                    [(t, h, json.dumps(dict(s))) for t, (h, s) in sorted(deal.items())])
            if finished is not None:
                table, hand, phh = finished
                self._db.execute("INSERT INTO tournament_hands (hand, tab, phh) VALUES (?, ?, ?)",
                                 (hand, table, phh))
                self._db.execute("DELETE FROM tournament_live WHERE tab = ?", (table,))
                self._db.execute("DELETE FROM tournament_actions WHERE tab = ?", (table,))
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def append_action(self, table: int, hand: int, action: StoredAction) -> None:
        """One action of the hand in play at ``table``."""
        self._db.execute("INSERT INTO tournament_actions (tab, hand, seat, action, amount, "
                         "policy) VALUES (?, ?, ?, ?, ?, ?)",
                         (table, hand, action.seat, action.action, action.amount,
                          action.policy))

    def live_hands(self) -> list[LiveHand]:
        """The hands in play when the server stopped, each with its actions in order."""
        out = []
        for table, hand, snapshot in self._db.execute(
                "SELECT tab, hand, snapshot FROM tournament_live ORDER BY tab").fetchall():
            actions = tuple(StoredAction(*row) for row in self._db.execute(
                "SELECT seat, action, amount, policy FROM tournament_actions WHERE tab = ? "
                "AND hand = ? ORDER BY id", (table, hand)))
            out.append(LiveHand(table, hand, json.loads(snapshot), actions))
        return out

    def finished_hands(self) -> Iterable[tuple[int, int, str]]:
        """(hand number, table, PHH) of every finished hand, in hand order."""
        yield from self._db.execute("SELECT hand, tab, phh FROM tournament_hands ORDER BY hand")

    def events(self) -> list[dict[str, Any]]:
        """Every tournament event stored, in order."""
        return [json.loads(row[0]) for row in self._db.execute(
            "SELECT event FROM tournament_events ORDER BY id")]

    def is_tournament(self) -> bool:
        """Whether this file holds a tournament's settings (an arena file never does)."""
        return self.settings() is not None
