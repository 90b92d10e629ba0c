"""The arena without the network: the tables one process plays, their leases and seats.

:class:`Arena` owns the tables (:class:`~omaha.arena.room.TableRoom`) and the
:class:`~omaha.arena.storage.Storage`: it claims and renews the tables' leases, seats players
by token, answers the lobby, and hands each table's changes to its room, which commits them
before announcing them. The WebSocket server (:mod:`omaha.arena.server`) is a thin layer
over this.

>>> from omaha.arena.messages import Act
>>> from omaha.arena.settings import ArenaSettings
>>> from omaha.arena.storage import SqliteStorage
>>> sent = []
>>> arena = Arena.open(SqliteStorage(":memory:"), ArenaSettings(tables=1, seats=2),
...                    emit=lambda room, seat, message: sent.append((seat, message)), now=lambda: 0)
>>> (_, seat1, token1), (room, seat2, _) = arena.join("ann"), arena.join("bob")
>>> room.start_hand()                      # the server schedules this; here by hand
>>> room.hand.to_act == seat1, sent[-1][1]["type"], len(token1) > 30
(True, 'update', True)
>>> room.act(seat1, Act("fold"))
>>> room.hand.is_over, room.table.stacks
(True, {1: 199, 2: 201})
>>> arena.leave(token1), sent[-1][1]          # between hands: at once, the stack paid out
((1, 1, 199), {'type': 'left', 'table': 1, 'seat': 1, 'amount': 199})
>>> arena.storage.cash_outs()[0].amount, sorted(room.players)
(199, [2])
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from omaha.arena.messages import ProtocolError
from omaha.arena.records import Lease, Storage, StorageError
from omaha.arena.room import LEASE_MS, Emit, EmitPublic, TableElsewhere, TableRoom, hash_token
from omaha.arena.settings import FIXED_SETTINGS, ArenaSettings, SettingsChanged, settings_changes
from omaha.errors import TableError
from omaha.game.table import Table
from omaha.limits import as_int

__all__ = ["Arena"]


def check_lease_ms(value: object) -> int:
    """``lease_ms`` as an exact int of milliseconds, from 100 to an hour (TableError)."""
    return as_int(value, "lease_ms", low=100, high=3_600_000, error=TableError)


class Arena:
    """The tables one server process plays, over one :class:`Storage`.

    ``emit(room, seat, message)`` receives every message for a seat; ``emit_public(room,
    message)`` every spectator ``update`` of a table watched (:attr:`TableRoom.spectators`);
    ``now`` gives integer milliseconds (default :class:`~omaha.game.clock.MonotonicClock`).

    The process plays the tables whose lease it holds (:attr:`rooms`, at most
    ``max_tables``; all of them by default), as ``owner`` (a unique id) announcing ``url``
    (its public address, for redirects and the lobby); ``lease_ms`` is how long a lease lasts
    unless renewed (:meth:`renew`).
    """

    def __init__(self, storage: Storage, settings: ArenaSettings, emit: Emit,
                 now: Callable[[], int] | None = None,
                 emit_public: EmitPublic | None = None, *, owner: str | None = None,
                 url: str = "", lease_ms: int = LEASE_MS,
                 max_tables: int | None = None) -> None:
        from omaha.game.clock import MonotonicClock
        self.storage = storage
        self.settings = settings
        self.emit = emit
        self.emit_public = emit_public
        self.now = now if now is not None else MonotonicClock().now
        self.clock_config = settings.clock_config()
        self.rooms: dict[int, TableRoom] = {}
        self._tokens: dict[str, tuple[int, int]] = {}
        self.owner = owner if owner is not None else secrets.token_hex(8)
        self.url = url
        self.lease_ms = check_lease_ms(lease_ms)
        self.max_tables = settings.tables if max_tables is None else as_int(
            max_tables, "max_tables", low=0, high=10_000, error=TableError)

    @classmethod
    def open(cls, storage: Storage, settings: ArenaSettings | None = None, *, emit: Emit,
             now: Callable[[], int] | None = None,
             emit_public: EmitPublic | None = None,
             reconfigure: bool | None = None, owner: str | None = None, url: str = "",
             lease_ms: int = LEASE_MS, max_tables: int | None = None,
             force: bool = True) -> Arena:
        """Load the arena from ``storage``, or create it with ``settings``, and claim its
        tables (up to ``max_tables``; ``force``: take them whoever held them, as the one
        process of a SQLite file does at a restart; otherwise only tables nobody holds).

        The settings are stored at the first start. On a later one, ``reconfigure`` says
        what ``settings`` that differ from the stored ones do: None (the default) ignores
        them (the stored settings win); False refuses them (:class:`SettingsChanged`,
        naming every difference); True applies them, which a restart can do for the house
        rules (buy-in, rebuy, hand pause, clock, spectators: they take effect from the
        restart, the hand in play resuming on a fresh clock anyway) and for more tables
        (created empty), but not for the game or the seat count of the tables that exist
        nor for fewer tables (:class:`SettingsChanged` then too).
        """
        stored = storage.settings()
        if stored is None:   # a new database (another process starting with us may win)
            stored = storage.init_settings((settings or ArenaSettings()).to_dict())
        try:
            kept = ArenaSettings.from_dict(stored)
        except (TypeError, ValueError) as exc:   # OmahaError is a ValueError
            raise StorageError(f"the stored settings are unusable: {exc}") from None
        changes = [] if settings is None or reconfigure is None else \
            settings_changes(kept, settings)
        if changes and not reconfigure:
            raise SettingsChanged(
                "the database was set up with other settings (stored -> given): "
                f"{', '.join(changes)}; give the stored ones to resume, or "
                "--reconfigure to apply them", changes)
        if changes:
            assert settings is not None
            fixed = [c for c in changes if c.split(" ")[0].split(".")[0] in FIXED_SETTINGS]
            if settings.tables < kept.tables:
                fixed.insert(0, f"tables {kept.tables} -> {settings.tables}")
            if fixed:
                raise SettingsChanged(
                    "--reconfigure cannot change the game or the seats of the tables "
                    f"that exist, nor remove tables: {', '.join(fixed)}", fixed)
            storage.save_settings(settings.to_dict())
        else:
            settings = kept
        arena = cls(storage, settings, emit, now, emit_public, owner=owner, url=url,
                    lease_ms=lease_ms, max_tables=max_tables)
        empty = Table(settings.game_config(), seats=settings.seats).snapshot()
        for number in range(1, settings.tables + 1):   # no-op for the tables that exist
            storage.create_table(number, empty, seq_base=0)
        arena.claim_free(force=force)
        return arena

    # --- leases ------------------------------------------------------------------------

    def claim(self, number: int, *, force: bool = False) -> TableRoom | None:
        """Take table ``number``'s lease if nobody holds it (or ``force``) and restore it
        from storage, its hand in play resuming at its last stored action; None if another
        process holds it."""
        if self.storage.claim(number, self.owner, self.url, self.lease_ms,
                              force=force) is None:
            return None
        self.drop(number)
        record = self.storage.table(number)
        if record is None:
            raise StorageError(f"table {number} has a lease but no row")
        seats = self.storage.seats(number)
        leaving = frozenset(seat for _, seat in self.storage.leaving(number))
        for seat in seats:
            self._tokens[seat.token_hash] = (seat.table, seat.seat)
        self.rooms[number] = room = TableRoom.restore(self, record, seats, leaving)
        return room

    def claim_free(self, *, force: bool = False) -> list[TableRoom]:
        """Claim tables nobody holds (all with ``force``), lowest first, while this process
        plays fewer than ``max_tables``; returns the rooms claimed."""
        claimed = []
        for lease in self.storage.leases():
            if len(self.rooms) >= self.max_tables:
                break
            if lease.table in self.rooms or lease.table > self.settings.tables:
                continue
            if force or not lease.live or lease.owner == self.owner:   # ours: dropped here
                room = self.claim(lease.table, force=force)
                if room is not None:
                    claimed.append(room)
        return claimed

    def renew(self) -> list[TableRoom]:
        """Renew this process's leases; returns the rooms lost since (another process
        claimed their tables): they are dropped and must not be played on."""
        held = self.storage.renew(self.owner, self.lease_ms)
        lost = [number for number in self.rooms if number not in held]
        return [room for room in map(self.drop, lost) if room is not None]

    def drop(self, number: int) -> TableRoom | None:
        """Stop playing table ``number`` here (its lease was lost, or a write failed): forget
        the room and its players' tokens; the table's state is what storage holds."""
        room = self.rooms.pop(number, None)
        if room is not None:
            for record in room.players.values():
                self._tokens.pop(record.token_hash, None)
        return room

    def owner_of(self, number: int) -> str | None:
        """The public URL of the process playing table ``number`` (None: nobody now)."""
        if number in self.rooms:
            return self.url or None
        for lease in self.storage.leases():
            if lease.table == number:
                return self._owner(lease)
        return None

    def _owner(self, lease: Lease) -> str | None:
        """Who a lease names, as clients are told: this process if it plays the table, the
        lease's URL while it is live, else None (between owners)."""
        if lease.table in self.rooms:
            return self.url or None
        return lease.url if lease.live and lease.url else None

    def announce(self, url: str) -> None:
        """Announce ``url`` from now on (the address bound, known only after the claims):
        the leases held name it."""
        self.url = url
        self.storage.announce(self.owner, url)

    def lobby(self) -> list[dict[str, Any]]:
        """Every table: who plays it (its URL, None between owners), its seats and players,
        the game and buy-in (the ``tables`` message)."""
        taken: dict[int, int] = {}
        for seat in self.storage.seats():
            taken[seat.table] = taken.get(seat.table, 0) + 1
        game = self.settings.game_config().to_dict()
        out = []
        for lease in self.storage.leases():
            if lease.table > self.settings.tables:
                continue
            owner = self._owner(lease)
            players = taken.get(lease.table, 0)
            out.append({"table": lease.table, "owner": owner, "seats": self.settings.seats,
                        "players": players, "seats_free": self.settings.seats - players,
                        "game": game, "buy_in": self.settings.buy_in})
        return out

    # --- seats -------------------------------------------------------------------------

    def join(self, name: str, table: int | None = None,
             token: str | None = None) -> tuple[TableRoom, int, str]:
        """Seat ``name`` at ``table`` or the first table with a free seat.

        A ``token`` that already holds a seat returns that seat (an idempotent join: the
        reply to the first one was lost); see :meth:`seat_of`. A table played by another
        process raises :class:`TableElsewhere`.
        """
        if token is not None and hash_token(token) in self._tokens:
            held, seat = self.seat_of(token)
            return held, seat, token
        if token is not None:
            self._check_not_cashed_out(token)
            self._check_not_elsewhere(token)
        if table is not None:
            room = self.rooms.get(table)
            if room is None:
                if 1 <= table <= self.settings.tables:
                    raise TableElsewhere(table, self.owner_of(table))
                raise ProtocolError("no_table", f"there is no table {table}")
        else:
            free = [r for r in self.rooms.values() if r.free_seat() is not None]
            if not free:
                for entry in self.lobby():
                    if entry["seats_free"] > 0 and entry["table"] not in self.rooms:
                        raise TableElsewhere(entry["table"], entry["owner"])
                raise ProtocolError("table_full", "every seat is taken")
            room = free[0]
        seat, token = room.join(name, token)
        self._tokens[hash_token(token)] = (room.number, seat)
        return room, seat, token

    def holder(self, token: str) -> tuple[int, int] | None:
        """The (table, seat) ``token`` holds here, or None."""
        return self._tokens.get(hash_token(token))

    def seat_of(self, token: str) -> tuple[TableRoom, int]:
        """The room and seat ``token`` holds; ProtocolError if none, TableElsewhere if its
        table is played by another process."""
        found = self._tokens.get(hash_token(token))
        if found is None:
            self._check_not_cashed_out(token)
            self._check_not_elsewhere(token)
            raise ProtocolError("bad_token", "no seat holds this token")
        return self.rooms[found[0]], found[1]

    def _check_not_elsewhere(self, token: str) -> None:
        record = self.storage.seat_of(hash_token(token))
        if record is not None and record.table not in self.rooms:
            raise TableElsewhere(record.table, self.owner_of(record.table))

    def _check_not_cashed_out(self, token: str) -> None:
        out = self.storage.cash_out(hash_token(token))
        if out is not None:
            raise ProtocolError("seat_left", f"this token's seat (table {out.table}, seat "
                                f"{out.seat}) was given up and cashed out with {out.amount} "
                                "chips; join with a new token")

    def leave(self, token: str) -> tuple[int, int, int | None]:
        """The seat ``token`` holds stands up: (table, seat, chips cashed out), the chips
        None while it plays out the hand in play (see :meth:`TableRoom.leave`).

        Sent again after the cash-out (the reply was lost), it answers the same again and
        changes nothing.
        """
        found = self._tokens.get(hash_token(token))
        if found is None:
            out = self.storage.cash_out(hash_token(token))
            if out is None:
                self._check_not_elsewhere(token)
                raise ProtocolError("bad_token", "no seat holds this token")
            return out.table, out.seat, out.amount
        number, seat = found
        return number, seat, self.rooms[number].leave(seat)

    def forget_token(self, token_hash: str) -> None:
        """The seat of this token was cashed out: the token seats no one any more."""
        self._tokens.pop(token_hash, None)
