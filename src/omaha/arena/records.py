"""What the arena stores, and the :class:`Storage` interface every database implements.

The records (:class:`ActionRecord`, :class:`SeatRecord`, :class:`LedgerEntry`,
:class:`CashOut`, :class:`FinishedHand`, :class:`TableRecord`, :class:`Lease`) and the
interface live here; the SQL behind them is in :mod:`omaha.arena.storage` (SQLite, the
default) and :mod:`omaha.arena.postgres` (PostgreSQL, the ``[postgres]`` extra), which share
one set of statements.

**Leases and fencing.** A table is played by the one process that holds its lease
(:meth:`Storage.claim`). Every claim increments the table's *epoch*; the storage object
remembers the epoch it claimed, and every write to a table (:meth:`Storage.save_table`,
:meth:`Storage.append_action`, :meth:`Storage.mark_leaving`) checks, in its own
transaction, that the table's epoch is still that one, so a process that lost a table (it
was paused past its lease and another process took the table over) has every later write
refused with :class:`FencedError` and writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from omaha.arena.stream import HandEvents
from omaha.errors import OmahaError

__all__ = [
    "ActionRecord",
    "CashOut",
    "FencedError",
    "FinishedHand",
    "Lease",
    "LedgerEntry",
    "SeatRecord",
    "Storage",
    "StorageError",
    "TableRecord",
]


class StorageError(OmahaError):
    """The database cannot be used (wrong schema version, unreadable rows, lost connection)."""


class FencedError(StorageError):
    """A write to a table whose lease this process no longer holds: another process claimed
    it (a newer epoch), so the write was refused and nothing was written."""

    def __init__(self, table: int, detail: str) -> None:
        super().__init__(f"table {table}: {detail}; nothing was written")
        self.table = table


@dataclass(frozen=True, slots=True)
class Lease:
    """Who plays ``table``: the owner's id and public URL, the lease's epoch, and the
    milliseconds left on it (0 or less: expired; ``owner`` empty: never claimed)."""

    table: int
    owner: str
    url: str
    epoch: int
    left_ms: int

    @property
    def live(self) -> bool:
        """Whether someone holds the table now."""
        return bool(self.owner) and self.left_ms > 0


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
        """Replace the stored settings (``--reconfigure``)."""
        ...

    def init_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Store ``settings`` unless some are stored already; returns the stored ones (of
        several processes starting on a new database at once, the first wins)."""
        ...

    def tables(self) -> list[TableRecord]:
        """Every table with its actions, by table number."""
        ...

    def table(self, table: int) -> TableRecord | None:
        """One table with its actions, or None."""
        ...

    def create_table(self, table: int, snapshot: dict[str, Any], *, seq_base: int) -> bool:
        """A new table (and its unclaimed lease); False, changing nothing, if it exists."""
        ...

    def claim(self, table: int, owner: str, url: str, lease_ms: int, *,
              force: bool = False) -> int | None:
        """Take ``table``'s lease for ``lease_ms`` if nobody holds it (never claimed,
        expired, or ``force``): returns the new epoch, which this storage's writes to the
        table carry from then on; None if another owner holds a live lease."""
        ...

    def renew(self, owner: str, lease_ms: int) -> dict[int, int]:
        """Extend every lease ``owner`` holds by ``lease_ms`` from now; returns the tables
        this storage still holds ({table: epoch}); a table claimed since by another owner
        is no longer among them (and its writes are refused)."""
        ...

    def announce(self, owner: str, url: str) -> None:
        """Name ``url`` in the leases this storage holds (the epochs stay as they are)."""
        ...

    def release(self, owner: str, tables: Sequence[int] | None = None) -> None:
        """Give up ``owner``'s leases (all, or ``tables``) so others take them at once."""
        ...

    def leases(self) -> list[Lease]:
        """Every table's lease, by table number (the lobby)."""
        ...

    def held(self) -> dict[int, int]:
        """The tables this storage object holds, with the epoch its writes carry."""
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

    def leaving(self, table: int | None = None) -> list[tuple[int, int]]:
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

    def seats(self, table: int | None = None) -> list[SeatRecord]:
        """Every taken seat (of ``table``)."""
        ...

    def seat_of(self, token_hash: str) -> SeatRecord | None:
        """The seat this token's hash holds, at any table, or None."""
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

    def recent_hands(self, table: int, *, before_hand: int | None,
                     limit: int) -> list[FinishedHand]:
        """At most ``limit`` finished hands of ``table`` numbered below ``before_hand`` (None:
        any), newest first: one bounded page of the table's history (the ``history``
        request)."""
        ...

    def close(self) -> None:
        """Release the database."""
        ...
