"""The arena's WebSocket server (``omaha serve``; needs the ``[server]`` extra).

One asyncio process: a :class:`~omaha.arena.house.Arena` of tables, one
:class:`~omaha.arena.driver.ClockDriver` per table for the clock (D1-D4), and one writer task
per connection so each client receives its messages in order. Everything a client sends is
checked before it can touch a table: frames above ``max_size`` bytes close the connection
(WebSocket code 1009), malformed or unknown messages and illegal actions get an ``error``
message and change nothing, and a client that sends faster than ``rate`` messages per second
(after a burst of ``burst``) gets ``rate_limited`` and is disconnected (code 1008). A
connection acts only for the seat its token holds. A connection that ``watch``-es a table
is a spectator: it gets the public stream (no hidden card), cannot act, and counts against
the table's ``spectators`` limit and the same rate limit as a player.

Several processes can share one PostgreSQL database (``omaha serve --db postgresql://...``):
each plays the tables whose lease it holds (at most ``max_tables``), renews its leases every
third of ``lease_ms``, takes over tables whose lease ran out, and answers a request for a
table it does not play with a ``redirect`` naming the process that does (its ``url``, as
announced in the lobby, the ``tables`` message). A table it loses (its lease was taken over,
or a write to it failed) is dropped: its connections get a ``redirect`` and are closed (code
4002), and the table resumes, from what was stored, wherever it is claimed next.

``websockets`` is imported when a server starts, never when this module is imported.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from omaha.arena.databases import open_storage
from omaha.arena.driver import ClockDriver
from omaha.arena.house import Arena, check_lease_ms
from omaha.arena.messages import (
    PROTOCOL_VERSION,
    Act,
    History,
    Join,
    Leave,
    Ping,
    ProtocolError,
    Resume,
    Tables,
    Watch,
    error_message,
    parse_client_message,
)
from omaha.arena.records import Storage, StorageError
from omaha.arena.room import LEASE_MS, TableElsewhere, TableRoom
from omaha.arena.service import Connection, WebSocketService, run_until_signalled
from omaha.arena.settings import ArenaSettings
from omaha.arena.storage import SqliteStorage
from omaha.arena.web import WebGate
from omaha.errors import OmahaError
from omaha.limits import ARENA_OPEN_TIMEOUT as OPEN_TIMEOUT

__all__ = ["ArenaServer", "LatencyStats", "run_until_signalled", "serve"]

log = logging.getLogger("omaha.arena")

MOVED = 4002                  # close code of the connections of a table this process lost


class LatencyStats:
    """Server latency: from reading an action to having written every resulting update.

    ``samples`` are wall-clock milliseconds (what a bot waits for, once its frame is read);
    ``cpu`` the process CPU time spent on the same span (the server's own work, without the
    time other processes held the CPU).
    """

    def __init__(self, keep: int = 200_000) -> None:
        self.samples: list[float] = []
        self.cpu: list[float] = []
        self.keep = keep
        self.actions = 0

    def add(self, ms: float, cpu_ms: float | None = None) -> None:
        """Record one action's latency in milliseconds (and its CPU time, if known)."""
        self.actions += 1
        if len(self.samples) < self.keep:
            self.samples.append(ms)
            if cpu_ms is not None:
                self.cpu.append(cpu_ms)

    @staticmethod
    def _percentiles(samples: list[float]) -> dict[str, Any]:
        data = sorted(samples)
        if not data:
            return {"count": 0, "p50": None, "p99": None, "max": None}

        def pick(q: float) -> float:
            return data[min(len(data) - 1, int(q * len(data)))]
        return {"count": len(data), "p50": round(pick(0.50), 3), "p99": round(pick(0.99), 3),
                "max": round(data[-1], 3)}

    def summary(self) -> dict[str, Any]:
        """Count, median, 99th percentile and maximum, in milliseconds (``cpu``: CPU time)."""
        return {**self._percentiles(self.samples), "cpu": self._percentiles(self.cpu)}


class _Pending:
    """Counts the sends one action caused; records the latency when the last is written."""

    __slots__ = ("left", "start", "stats")

    def __init__(self, start: float, stats: LatencyStats) -> None:
        self.start, self.stats, self.left = start, stats, 0

    def sent(self) -> None:
        self.left -= 1
        if self.left == 0:
            self.stats.add((time.perf_counter() - self.start) * 1000)


class _Client(Connection):
    """One connection: its seat once joined (or the table it watches)."""

    def __init__(self, ws: Any, rate: float, burst: int) -> None:
        super().__init__(ws, rate, burst)
        self.room: TableRoom | None = None
        self.seat = 0
        self.watching: TableRoom | None = None


def renewal_delay(lease_ms: int, failures: int) -> float:
    """Seconds until the next lease renewal after ``failures`` failed ones in a row: a third
    of the lease, and again after the first failure (one lost connection, a stall ended by
    the database, must not let the leases lapse); after that doubling, at most the lease.

    >>> [renewal_delay(3000, n) for n in (0, 1, 2, 3, 10_000)]
    [1.0, 1.0, 2.0, 3.0, 3.0]
    """
    doublings = min(max(0, failures - 1), 8)   # past 3 the lease caps it; no huge powers
    return min(lease_ms / 3000 * (1 << doublings), lease_ms / 1000)


class ArenaServer(WebSocketService):
    """Serves an arena over WebSockets on ``host:port`` (``port`` 0: a free one).

    ``db`` is a SQLite file path, a PostgreSQL URL (:func:`~omaha.arena.databases.open_storage`)
    or any :class:`~omaha.arena.records.Storage`. ``url`` is the address this process
    announces (default ``ws://host:port``); ``lease_ms`` and ``max_tables`` as in
    :class:`~omaha.arena.house.Arena`. On SQLite (one process per file) a start claims every
    table at once; on a shared database only tables nobody holds. ``web`` serves the
    browser client on the same port (:mod:`omaha.arena.web`); ``allowed_origins`` are the
    page origins besides this host's own whose WebSockets are accepted.
    """

    def __init__(self, db: str | Storage, settings: ArenaSettings | None = None, *,
                 host: str = "127.0.0.1", port: int = 8765, max_size: int = 4096,
                 rate: float = 50.0, burst: int = 100, stats_path: str | None = None,
                 synchronous: str = "NORMAL", open_timeout: float = OPEN_TIMEOUT,
                 reconfigure: bool | None = None, url: str | None = None,
                 lease_ms: int = LEASE_MS, max_tables: int | None = None,
                 web: bool = True, allowed_origins: Sequence[str] = ()) -> None:
        super().__init__(host=host, port=port, max_size=max_size, rate=rate, burst=burst,
                         open_timeout=open_timeout,
                         gate=WebGate(pages=web, allowed_origins=allowed_origins))
        self.stats = LatencyStats()
        self.decisions = LatencyStats()   # request to act sent -> its answer applied
        self._asked: dict[int, tuple[int, float]] = {}
        self.stats_path = stats_path
        self._clients: dict[tuple[int, int], _Client] = {}
        self._watchers: dict[int, set[_Client]] = {}
        self._pending: _Pending | None = None
        self._closers: set[asyncio.Task[None]] = set()
        lease_ms = check_lease_ms(lease_ms)
        # a paused writer's rows come free in half a lease, before its lease runs out
        self.storage: Storage = (open_storage(db, synchronous=synchronous,
                                              stall_ms=lease_ms // 2)
                                 if isinstance(db, str) else db)
        self.url = url
        self.force = isinstance(self.storage, SqliteStorage)   # one process per file
        try:   # reconfigure: what settings unlike the stored ones do (see Arena.open)
            self.arena = Arena.open(self.storage, settings, emit=self._emit,
                                    emit_public=self._emit_public, reconfigure=reconfigure,
                                    url=url or "", lease_ms=lease_ms, max_tables=max_tables,
                                    force=self.force)
        except BaseException:
            if isinstance(db, str):
                self.storage.close()
            raise

    # --- arena callbacks ---------------------------------------------------------------

    def _emit(self, room: TableRoom, seat: int, message: dict[str, Any]) -> None:
        client = self._clients.get((room.number, seat))
        if client is not None:
            client.push(message, self._pending)
            if message["type"] == "left":   # cashed out: the connection holds no seat now
                del self._clients[(room.number, seat)]
                client.room = None

    def _emit_public(self, room: TableRoom, message: dict[str, Any]) -> None:
        watchers = self._watchers.get(room.number)
        if watchers:
            text = json.dumps(message, separators=(",", ":"))
            for client in watchers:
                client.push_text(text, self._pending)

    def _clock_changed(self, room: TableRoom) -> None:
        self._drivers[room.number].attach(room.game)
        decision = room.decision   # a new request to act has just been sent: note when
        if decision is not None and self._asked.get(room.number, (None, 0.0))[0] != decision:
            self._asked[room.number] = (decision, time.perf_counter())

    def _schedule_start(self, room: TableRoom) -> None:
        delay = self.arena.settings.hand_pause_ms / 1000
        asyncio.get_running_loop().call_later(delay, self._start_hand, room)

    def _start_hand(self, room: TableRoom) -> None:
        if self.arena.rooms.get(room.number) is not room:
            return   # dropped since it was scheduled
        try:
            room.start_hand()
        except Exception:   # storage failure: drop it rather than play on unrecorded
            self._lose(room, "could not start a hand")

    def _on_timeouts(self, room: TableRoom, fired: list[Any]) -> None:
        try:
            room.on_timeouts(fired)
        except Exception:
            self._lose(room, "could not record a timeout")

    # --- tables won and lost -----------------------------------------------------------

    def _adopt(self, room: TableRoom) -> None:
        """Play a room just claimed: its clock driver, and its next hand if it can start."""
        driver = ClockDriver(functools.partial(self._on_timeouts, room),
                             time_source=_ArenaTime(self.arena.now))
        old = self._drivers.pop(room.number, None)
        if old is not None:
            old.stop()
        self._drivers[room.number] = driver
        room.on_clock_change = self._clock_changed
        room.on_hand_over = self._schedule_start
        driver.attach(room.game)
        self._tasks.append(asyncio.create_task(driver.run()))
        if room.can_start():
            self._schedule_start(room)

    def _lose(self, room: TableRoom, why: str) -> None:
        """Stop playing ``room`` here: a write failed (fenced: another process took the
        table; or the database failed) or its lease was not renewed. Its state is what was
        stored; its connections are redirected and closed, and the lease loop claims the
        table again if nobody else does."""
        log.warning("table %s: dropped (%s)", room.number, why)
        self.arena.drop(room.number)
        self._release(room)

    def _release(self, room: TableRoom) -> None:
        driver = self._drivers.pop(room.number, None)
        if driver is not None:
            driver.stop()
        try:
            owner = self.arena.owner_of(room.number)
        except Exception:   # the database is down: nobody known
            owner = None
        if owner == self.arena.url:
            owner = None
        moved = {"type": "redirect", "table": room.number, "owner": owner,
                 "message": f"table {room.number} moved; "
                            + (f"it is played by {owner}" if owner else "retry shortly")}
        clients = [c for (t, _), c in list(self._clients.items()) if t == room.number]
        clients += list(self._watchers.pop(room.number, ()))
        for client in clients:
            if client.room is room:
                self._clients.pop((room.number, client.seat), None)
                client.room = None
            client.watching = None
            self._drop(client, MOVED, "table moved", "", moved)

    async def _keep_leases(self) -> None:
        """Every third of the lease: renew, drop the tables lost, claim free ones."""
        interval = renewal_delay(self.arena.lease_ms, 0)
        delay, failures = interval, 0
        while True:
            await asyncio.sleep(delay)
            delay = interval
            try:
                for room in self.arena.renew():
                    self._release(room)
                    log.warning("table %s: lease lost to another process", room.number)
                if len(self.arena.rooms) < self.arena.max_tables:
                    for room in self.arena.claim_free():
                        log.info("table %s: claimed", room.number)
                        self._adopt(room)
            except Exception as exc:  # noqa: BLE001 - the database is away: retry, backing off
                log.warning("leases not renewed: %s", exc)
                failures += 1
                delay = renewal_delay(self.arena.lease_ms, failures)
                continue
            failures = 0

    # --- lifecycle ---------------------------------------------------------------------

    async def start(self) -> int:
        """Listen; returns the port."""
        await self._listen()
        if self.url is None:   # announce the address bound (port 0: the one drawn)
            self.arena.announce(f"ws://{self.host}:{self.port}")
        for room in self.arena.rooms.values():
            self._adopt(room)
        self._tasks.append(asyncio.create_task(self._keep_leases()))
        if self.stats_path:
            self._tasks.append(asyncio.create_task(self._write_stats()))
        return self.port

    async def close(self) -> None:
        """Stop listening, end the tasks, close the database."""
        await super().close()
        self._write_stats_now()
        try:   # others may take the tables at once, without waiting for the leases to end
            self.storage.release(self.arena.owner)
        except Exception as exc:
            log.warning("leases not released: %s", exc)
        self.storage.close()

    def stats_summary(self) -> dict[str, Any]:
        return {"hands": sum(r.hand_number - (1 if r.in_hand else 0)
                             for r in self.arena.rooms.values()),
                "latency_ms": self.stats.summary(), "actions": self.stats.actions,
                "decision_ms": self.decisions.summary(), "tables": sorted(self.arena.rooms),
                "time": time.time()}

    def _write_stats_now(self) -> None:
        if self.stats_path:
            tmp = self.stats_path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as file:
                json.dump(self.stats_summary(), file)
            os.replace(tmp, self.stats_path)

    async def _write_stats(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            self._write_stats_now()

    # --- connections -------------------------------------------------------------------

    async def _handle(self, ws: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        client = _Client(ws, self.rate, self.burst)
        writer = client.writer = asyncio.create_task(self._writer(client))
        try:
            async for frame in ws:
                started = time.perf_counter()
                if client.closing:
                    continue   # keep reading so the close handshake can complete
                if not client.allow():
                    self._drop(client, 1008, "rate limit", "rate_limited",
                               "too many messages; closing")
                    continue
                self._receive(client, frame, started)
        except ConnectionClosed:
            pass
        finally:
            self._detach(client)
            if not client.closing:
                writer.cancel()

    async def _close_after(self, client: _Client, code: int, reason: str) -> None:
        writer = client.writer
        if writer is not None:
            await writer
        await client.ws.close(code, reason)

    def _detach(self, client: _Client) -> None:
        watched = client.watching
        if watched is not None:
            client.watching = None
            self._watchers.get(watched.number, set()).discard(client)
            watched.spectators = len(self._watchers.get(watched.number, ()))
        room = client.room
        if room is not None and self._clients.get((room.number, client.seat)) is client:
            del self._clients[(room.number, client.seat)]
            try:
                room.disconnect(client.seat)
            except Exception:
                self._lose(room, "could not record a disconnection")

    def _attach(self, client: _Client, room: TableRoom, seat: int) -> None:
        old = self._clients.get((room.number, seat))
        if old is not None and old is not client:
            old.room = None   # the newer connection holds the seat now
            old.push(error_message("replaced", "another connection resumed this seat"))
            asyncio.create_task(old.ws.close(4001, "replaced"))
        client.room, client.seat = room, seat
        self._clients[(room.number, seat)] = client

    def _receive(self, client: _Client, frame: Any, started: float) -> None:
        try:
            message = parse_client_message(frame)
            if isinstance(message, Act):
                self._act(client, message, started)
            elif isinstance(message, Join):
                self._join(client, message)
            elif isinstance(message, Resume):
                self._resume(client, message)
            elif isinstance(message, Leave):
                self._leave(client, message)
            elif isinstance(message, Watch):
                self._watch(client, message)
            elif isinstance(message, Ping):
                client.push({"type": "pong"})
            elif isinstance(message, Tables):
                client.push({"type": "tables", "tables": self.arena.lobby()})
            elif isinstance(message, History):
                self._history(client, message)
        except TableElsewhere as exc:
            client.push({"type": "redirect", "table": exc.table, "owner": exc.owner,
                         "message": str(exc)})
        except ProtocolError as exc:
            client.push(error_message(exc.code, exc.detail, rule=exc.rule))
        except OmahaError as exc:
            client.push(error_message("refused", str(exc), rule=getattr(exc, "rule", None)))
        except Exception:   # a bug met by one frame: that connection goes, the server stays
            log.exception("a client frame could not be handled")
            self._drop(client, 1011, "internal error", "internal",
                       "the server could not handle this message; closing")

    def _drop(self, client: _Client, code: int, reason: str, error: str,
              message: str | dict[str, Any]) -> None:
        """Send ``client`` an error (or the ``message`` given whole), then close its
        connection with ``code`` and ``reason`` (after what is queued for it); its seat, if
        any, is disconnected (D3), not freed."""
        if client.closing:
            return
        client.closing = True
        client.push(message if isinstance(message, dict) else error_message(error, message))
        client.outbox.put_nowait(None)
        self._detach(client)
        closer = asyncio.create_task(self._close_after(client, code, reason))
        self._closers.add(closer)
        closer.add_done_callback(self._closers.discard)

    def _act(self, client: _Client, message: Act, started: float) -> None:
        started_cpu = time.process_time()
        room = client.room
        if room is None:
            if client.watching is not None:
                raise ProtocolError("spectator", "a spectator cannot act; join a seat to play",
                                    rule="B1")
            raise ProtocolError("not_joined", "join or resume a seat first")
        pending = self._pending = _Pending(started, self.stats)
        asked, decision = self._asked.get(room.number), room.decision
        try:
            room.act(client.seat, message)
        except ProtocolError:
            raise
        except StorageError:   # fenced or the database failed: what was stored stands
            self._lose(room, "could not record an action")
            return
        except OmahaError:
            raise
        except Exception:   # the state is unknown: drop it (it resumes from storage)
            log.exception("table %s: action failed", room.number)
            self._lose(room, "an action failed")
            return
        finally:
            self._pending = None
        if pending.left == 0:
            self.stats.add((time.perf_counter() - started) * 1000,
                           (time.process_time() - started_cpu) * 1000)
        if asked is not None and asked[0] == decision:
            self.decisions.add((time.perf_counter() - asked[1]) * 1000)

    def _not_watching(self, client: _Client) -> None:
        if client.watching is not None:
            raise ProtocolError("already_watching", f"this connection watches table "
                                f"{client.watching.number}; a seat needs its own connection")

    def _join(self, client: _Client, message: Join) -> None:
        self._not_watching(client)
        if client.room is not None and not (
                message.token is not None
                and self.arena.holder(message.token) == (client.room.number, client.seat)):
            raise ProtocolError("already_joined", f"this connection plays seat {client.seat}")
        # a join repeated with the own token (any connection) answers the seat it holds:
        # no second seat, no second buy-in
        room, seat, token = self.arena.join(message.name, message.table, message.token)
        self._attach(client, room, seat)
        joined = room.players[seat].joined_seq
        client.push({"type": "joined", "table": room.number, "seat": seat, "token": token,
                     "seq": joined, "settings": self.arena.settings.to_dict(),
                     "protocol": PROTOCOL_VERSION})
        items, _ = room.resume_items(seat, joined)   # a repeated join catches up from the start
        self._catch_up(client, room, seat, items)

    def _catch_up(self, client: _Client, room: TableRoom, seat: int,
                  items: list[dict[str, Any]]) -> None:
        """Send the seat its table as it stands with the ``items`` it missed; the seat is back
        (its clock's reconnect rule), and the hand starts if it now can."""
        client.push({"type": "update", "table": room.number, "hand": room.hand_number,
                     "events": items, "view": room.view(seat),
                     "decision": room.decision, "names": room.names()})
        room.reconnect(seat)
        if room.can_start():
            self._schedule_start(room)

    def _resume(self, client: _Client, message: Resume) -> None:
        self._not_watching(client)
        room, seat = self.arena.seat_of(message.token)
        if client.room is not None and (client.room, client.seat) != (room, seat):
            raise ProtocolError("already_joined", f"this connection plays seat {client.seat}")
        self._attach(client, room, seat)
        items, gap = room.resume_items(seat, message.last_seq)
        client.push({"type": "resumed", "table": room.number, "seat": seat,
                     "seq": room.log.last_seq, "gap": gap,
                     "protocol": PROTOCOL_VERSION})
        self._catch_up(client, room, seat, items)


    def _leave(self, client: _Client, message: Leave) -> None:
        held = (client.room.number, client.seat) if client.room is not None else None
        table, seat, amount = self._guarded(self.arena.leave, message.token)
        if amount is None:
            hand = self.arena.rooms[table].hand_number
            client.push({"type": "leaving", "table": table, "seat": seat, "hand": hand})
        elif held != (table, seat):   # the seat's own connection got ``left`` from the room
            client.push({"type": "left", "table": table, "seat": seat, "amount": amount})

    def _guarded(self, change: Callable[[str], Any], token: str) -> Any:
        """Run a state change; a storage failure drops the table (it resumes from what was
        stored) and the client is told to retry."""
        held = self.arena.holder(token)
        try:
            return change(token)
        except OmahaError as exc:   # refusals pass; a storage failure drops the table
            if not isinstance(exc, StorageError):
                raise
            detail = f"the server could not store it ({exc}); retry"
        except Exception:
            log.exception("a state change failed")
            detail = "the server failed; retry"
        room = self.arena.rooms.get(held[0]) if held is not None else None
        if room is not None:
            self._lose(room, "a state change failed")
        raise ProtocolError("internal", detail) from None

    def _history(self, client: _Client, message: History) -> None:
        room = self._played_here(message.table)
        seat = client.seat if client.room is room else None   # a player sees its own cards
        client.push(room.history(seat, message.before, message.limit))

    def _played_here(self, table: int) -> TableRoom:
        """The room of ``table``; a ``redirect`` (TableElsewhere) or ``no_table`` if none."""
        room = self.arena.rooms.get(table)
        if room is None:
            if 1 <= table <= self.arena.settings.tables:
                raise TableElsewhere(table, self.arena.owner_of(table))
            raise ProtocolError("no_table", f"there is no table {table}")
        return room

    def _watch(self, client: _Client, message: Watch) -> None:
        if client.room is not None:
            raise ProtocolError("already_joined", f"this connection plays seat {client.seat}; "
                                "watch from another connection")
        if client.watching is not None:
            raise ProtocolError("already_watching", f"this connection watches table "
                                f"{client.watching.number}")
        room = self._played_here(message.table)
        watchers = self._watchers.setdefault(room.number, set())
        limit = self.arena.settings.spectators
        if len(watchers) >= limit:
            raise ProtocolError("too_many_spectators", f"table {room.number} has its "
                                f"{limit} spectators")
        current = room.log.current
        start = message.last_seq if message.last_seq is not None else \
            (current.base if current is not None else 0)
        items, gap = room.resume_items(None, start)
        watchers.add(client)
        client.watching = room
        room.spectators = len(watchers)
        client.push({"type": "watching", "table": room.number, "seq": room.log.last_seq,
                     "gap": gap, "settings": self.arena.settings.to_dict(),
                     "protocol": PROTOCOL_VERSION})
        client.push({"type": "update", "table": room.number, "hand": room.hand_number,
                     "events": items, "view": room.view(None),
                     "decision": room.decision, "names": room.names()})


class _ArenaTime:
    """The arena's clock as a :class:`~omaha.game.clock.TimeSource`."""

    def __init__(self, now: Callable[[], int]) -> None:
        self.now = now


async def serve(db: str | Storage, settings: ArenaSettings | None = None, *, host: str = "127.0.0.1",
                port: int = 8765, ready: Callable[[int], None] | None = None,
                **options: Any) -> None:
    """Run a server until SIGINT/SIGTERM; ``ready(port)`` is called once it listens."""
    await run_until_signalled(ArenaServer(db, settings, host=host, port=port, **options),
                              ready)
