"""A tournament served to connected bots (``omaha serve --tournament STRUCTURE``; issue 25).

The tournament is the library's :class:`~omaha.tournament.Tournament`, held with its hands in
play and its database by :class:`~omaha.arena.tournament_room.TournamentRoom`; this module
only brings the players' messages from the network, the clock's deadlines, and sends what
changed. Every rule (N1-N8: the draw, the dead button, balancing, breaking tables, hand for
hand, places, prizes) is applied by the library; every betting rule by the engine's
:class:`~omaha.game.hand.Hand`.

* **Registration.** ``join`` with a name (and optionally the client's own token) enters the
  tournament; it starts when ``players`` have entered, or at the start time with whoever
  entered (at least two). A ``join`` or ``resume`` with an entered token comes back to that
  player, before or after the start; after the start nobody new enters.
* **Play.** Each round deals one hand at every table at once (the library's
  :meth:`~omaha.tournament.Tournament.deal_round`); each player receives ``update`` messages
  of the hand at its table (its view: its own cards only) and answers with ``act``, on the
  action clock (D1-D4: a player away is checked or folded by the clock, never waited for).
  When every hand of the round is over the round ends: eliminations, tables broken and
  balanced; a moved player simply receives the updates of its new table.
* **Messages** (beside the cash arena's ``joined``, ``resumed``, ``update``, ``watching``,
  ``error``, ``pong``): ``tournament`` (its events as they happen: entered, seated, moved,
  level, eliminated, prize, ...; sent to every connection), ``finished`` (to a player
  eliminated, and at the end to every player with its prize), and the lobby ``tables`` with
  a ``tournament`` entry (state, level, players left, places and prizes). Event numbers are
  the hand's number times :data:`~omaha.arena.tournament_room.SEQ_PER_HAND` plus the event's
  index; decision ids likewise.
* **Crash safety.** Every step is stored before it is sent; a killed server restarted on the
  same ``--db`` resumes each hand in play at its last stored action, with every chip and
  place. A step that cannot be stored stops the server (a restart resumes what was stored).

``websockets`` is imported when the server starts, never when this module is imported.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from omaha.arena.driver import ClockDriver
from omaha.arena.messages import (
    PROTOCOL_VERSION,
    Act,
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
from omaha.arena.service import Connection, WebSocketService, run_until_signalled
from omaha.arena.tournament_room import LiveHand, TournamentRoom
from omaha.arena.tournament_store import TournamentStore
from omaha.arena.web import WebGate
from omaha.errors import OmahaError
from omaha.game.clock import ClockConfig, MonotonicClock
from omaha.game.clocked import TimeRanOut
from omaha.limits import ARENA_OPEN_TIMEOUT as OPEN_TIMEOUT
from omaha.limits import as_int
from omaha.tournament import Structure, entry_player

__all__ = ["TournamentServer", "serve_tournament"]

log = logging.getLogger("omaha.arena.tournament")


class _Conn(Connection):
    """A connection: the player it plays for, or the table it watches."""

    def __init__(self, ws: Any, rate: float, burst: int) -> None:
        super().__init__(ws, rate, burst)
        self.direct = False   # every frame through the writer task, in order
        self.player: str | None = None
        self.table: int | None = None   # watched


class TournamentServer(WebSocketService):
    """Serves one tournament over WebSockets on ``host:port`` (``port`` 0: a free one).

    ``db`` is the tournament's SQLite file; ``structure``, ``players``, ``clock``,
    ``hand_pause_ms``, ``start_in`` and ``seed`` as in
    :class:`~omaha.arena.tournament_room.TournamentRoom`; the connection limits as in
    :class:`~omaha.arena.server.ArenaServer`. A browser's handshake is accepted only from
    a page of this host or of ``allowed_origins`` (:class:`~omaha.arena.web.WebGate`; the
    web client's pages are the cash arena's, not served here); bots send no ``Origin``.
    """

    def __init__(self, db: str, structure: Structure | None = None, *,
                 players: int | None = None, host: str = "127.0.0.1", port: int = 8765,
                 clock: ClockConfig | None = None, hand_pause_ms: int = 0,
                 start_in: float | None = None, seed: int | None = None,
                 max_size: int = 4096, rate: float = 50.0, burst: int = 100,
                 spectators: int = 16, synchronous: str = "NORMAL",
                 open_timeout: float = OPEN_TIMEOUT,
                 allowed_origins: Sequence[str] = ()) -> None:
        super().__init__(host=host, port=port, max_size=max_size, rate=rate, burst=burst,
                         open_timeout=open_timeout,
                         gate=WebGate(pages=False, allowed_origins=allowed_origins))
        self.spectators = as_int(spectators, "spectators", low=0, high=10_000)
        store = TournamentStore(db, synchronous=synchronous)
        try:
            self.room = TournamentRoom(store, structure, players=players, clock=clock,
                                       hand_pause_ms=hand_pause_ms, start_in=start_in,
                                       seed=seed)
        except BaseException:
            store.close()
            raise
        self._time = MonotonicClock()
        self._clients: dict[str, _Conn] = {}        # player -> its connection
        self._watchers: dict[int, set[_Conn]] = {}
        self._everyone: set[_Conn] = set()

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    # --- lifecycle ---------------------------------------------------------------------

    async def start(self) -> int:
        """Listen, resume what was in play; returns the port."""
        await self._listen()
        room, tour = self.room, self.room.tour
        if tour is not None:
            for live in room.resume_hands(self._time.now()):
                self._play(live)
            if not tour.is_over and not room.live:
                self._steps(lambda: self._end_round() if tour.round_open
                            else self._schedule_round())
        elif room.start_at is not None:
            asyncio.get_running_loop().call_later(max(0.0, room.start_at - time.time()),
                                                  self._start_by_time)
        return self.port

    async def close(self) -> None:
        """Stop listening, end the tasks, close the tournament's file."""
        await super().close()
        self.room.store.close()

    def _steps(self, step: Callable[[], object]) -> None:
        """Run a step of the tournament; one that cannot be stored stops the server (a
        restart resumes what was stored)."""
        if self._stop.is_set():
            return
        try:
            step()
        except ProtocolError:
            raise
        except Exception:
            log.exception("tournament: a step could not be stored; stopping")
            self.stop()

    # --- the tournament's steps --------------------------------------------------------

    def _broadcast(self, events: list[dict[str, Any]]) -> None:
        if not events:
            return
        text = json.dumps({"type": "tournament", "events": events}, separators=(",", ":"))
        for client in self._everyone:
            client.push_text(text)
        tour = self.room.tour
        if tour is None:
            return
        told = list(tour.places) if tour.is_over else \
            [e["player"] for e in events if e["type"] == "eliminated"]
        for player in dict.fromkeys(entry_player(entry) for entry in told):
            conn = self._clients.get(player)
            finished = self.room.finished(player)
            if conn is not None and finished is not None:
                conn.push(finished)

    def _start(self) -> None:
        self._broadcast(self.room.start())
        now = self._time.now()
        for name, client in self._clients.items():   # where each player sits
            client.push(self.room.update(name, None, now))
        self._schedule_round()

    def _start_by_time(self) -> None:
        """The start time: start with whoever entered (if they can start; else at the entry
        that makes them enough, see :meth:`_enter`)."""
        if self.room.can_start(time.time()):
            self._steps(self._start)

    def _schedule_round(self, delay_ms: int | None = None) -> None:
        tour = self.room.tour
        if tour is None or tour.is_over:
            return
        delay = (self.room.hand_pause_ms if delay_ms is None else delay_ms) / 1000
        asyncio.get_running_loop().call_later(delay, self._steps, self._deal_round)

    def _deal_round(self) -> None:
        tour = self.room.tour
        if tour is None or tour.is_over or tour.round_open:
            return
        self._broadcast(self.room.seat_waiting())   # late entries and re-entries (N2)
        hands = self.room.deal_round(self._time.now())
        self._broadcast(self.room.take_events())
        if not hands:   # a break (N1): the round ended at once; look again shortly
            self._schedule_round(max(self.room.hand_pause_ms, 1000))
            return
        for live in hands.values():
            self._play(live)

    def _play(self, live: LiveHand) -> None:
        """Put ``live`` on its clock driver and announce it (or finish it: over already)."""
        driver = ClockDriver(functools.partial(self._on_timeouts, live),
                             time_source=self._time)
        old = self._drivers.pop(live.table, None)
        if old is not None:
            old.stop()
        self._drivers[live.table] = driver
        driver.attach(live.game)
        self._tasks.append(asyncio.create_task(driver.run()))
        self._after_change(live)

    def _on_timeouts(self, live: LiveHand, fired: list[TimeRanOut]) -> None:
        def step() -> None:
            self.room.record_timeouts(live, fired)
            self._after_change(live)
        self._steps(step)

    def _after_change(self, live: LiveHand) -> None:
        self._announce(live)
        if live.game.hand.is_over:
            driver = self._drivers.pop(live.table, None)
            if driver is not None:
                driver.stop()
            self._broadcast(self.room.finish(live))
            if not self.room.live:
                self._end_round()
            return
        driver = self._drivers.get(live.table)
        if driver is not None:
            driver.wake()

    def _end_round(self) -> None:
        tour = self.room.tour
        assert tour is not None
        if tour.round_open:
            self._broadcast(self.room.end_round())
        if tour.is_over:
            log.info("tournament over: %s", tour.prizes)
            return
        self._schedule_round()

    def _announce(self, live: LiveHand) -> None:
        """Send the hand's new events to its table's players and spectators."""
        start, live.announced = live.announced, live.game.hand.event_count
        now = self._time.now()
        tour = self.room.tour
        assert tour is not None
        for entry in tour.tables.get(live.table, {}).values():
            player = entry_player(entry)
            client = self._clients.get(player)
            if client is not None:
                client.push(self.room.update(player, None, now, start=start))
        watchers = self._watchers.get(live.table)
        if watchers:
            text = json.dumps(self.room.update(None, live.table, now, start=start),
                              separators=(",", ":"))
            for client in watchers:
                client.push_text(text)

    def lobby(self) -> dict[str, Any]:
        """The ``tables`` message: every table and the tournament's state."""
        return {"type": "tables", "tables": self.room.tables(self.url),
                "tournament": self.room.status()}

    # --- connections -------------------------------------------------------------------

    async def _handle(self, ws: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        client = _Conn(ws, self.rate, self.burst)
        writer = client.writer = asyncio.create_task(self._writer(client))
        self._everyone.add(client)
        try:
            async for frame in ws:
                if client.closing:
                    continue
                if not client.allow():
                    client.closing = True
                    client.push(error_message("rate_limited", "too many messages; closing"))
                    client.outbox.put_nowait(None)
                    await writer
                    await ws.close(1008, "rate limit")
                    break
                self._receive(client, frame)
        except ConnectionClosed:
            pass
        finally:
            self._detach(client)
            if not client.closing:
                writer.cancel()

    def _detach(self, client: _Conn) -> None:
        self._everyone.discard(client)
        if client.table is not None:
            self._watchers.get(client.table, set()).discard(client)
            client.table = None
        player = client.player
        if player is not None and self._clients.get(player) is client:
            del self._clients[player]
            self._connection(player, False)

    def _connection(self, player: str, connected: bool) -> None:
        """D3: the clock of a player who drops (or comes back) during its hand."""
        def step() -> None:
            live = self.room.set_connected(player, connected, self._time.now())
            if live is not None:
                self._after_change(live)
        self._steps(step)

    def _receive(self, client: _Conn, frame: Any) -> None:
        try:
            message = parse_client_message(frame)
            if isinstance(message, Act):
                self._act(client, message)
            elif isinstance(message, (Join, Resume)):
                self._enter(client, message)
            elif isinstance(message, Watch):
                self._watch(client, message)
            elif isinstance(message, Tables):
                client.push(self.lobby())
            elif isinstance(message, Ping):
                client.push({"type": "pong"})
            elif isinstance(message, Leave):
                raise ProtocolError("not_allowed", "a tournament seat is not left: a player "
                                    "away is checked or folded by the clock (D2)")
        except ProtocolError as exc:
            client.push(error_message(exc.code, exc.detail, rule=exc.rule))
        except OmahaError as exc:
            client.push(error_message("refused", str(exc), rule=getattr(exc, "rule", None)))
        except Exception:
            log.exception("a client frame could not be handled")
            client.push(error_message("internal", "the server could not handle this message"))

    def _enter(self, client: _Conn, message: Join | Resume) -> None:
        if client.table is not None:
            raise ProtocolError("already_watching", "this connection watches a table; a "
                                "player needs its own connection")
        room = self.room
        token, entered = message.token, False
        name = room.player_of(token) if token is not None else None
        if isinstance(message, Resume) and name is None:
            raise ProtocolError("bad_token", "no entrant holds this token")
        tour = room.tour
        if isinstance(message, Join) and name is not None and tour is not None \
                and room.where(name) is None and name not in room.waiting:
            room.re_enter(name)   # busted: a join with its own token enters again (N2)
        if client.player is not None and client.player != name:
            raise ProtocolError("already_joined", f"this connection plays for {client.player}")
        if name is None:
            assert isinstance(message, Join)
            name, token = room.enter(message.name, token)
            entered = True
        old = self._clients.get(name)
        if old is not None and old is not client:
            old.player = None
            old.push(error_message("replaced", "another connection resumed this player"))
            asyncio.get_running_loop().create_task(old.ws.close(4001, "replaced"))
        client.player = name
        self._clients[name] = client
        where = room.where(name)
        reply: dict[str, Any] = {
            "type": "joined" if isinstance(message, Join) else "resumed",
            "table": where[0] if where else None, "seat": where[1] if where else None,
            "player": name, "seq": 0, "protocol": PROTOCOL_VERSION,
            "settings": room.settings(), "tournament": room.status()}
        if isinstance(message, Join):
            reply["token"] = token
        else:
            reply["gap"] = False
        client.push(reply)
        if entered:
            self._broadcast_entry(name)
        if tour is not None:
            since = message.last_seq if isinstance(message, Resume) else 0
            client.push(room.update(name, None, self._time.now(), since=since))
            finished = room.finished(name)
            if finished is not None:
                client.push(finished)
            else:
                self._connection(name, True)
        else:
            room.connected.add(name)
            if room.can_start(time.time()):
                self._steps(self._start)

    def _broadcast_entry(self, name: str) -> None:
        text = json.dumps({"type": "tournament", "events": [
            {"type": "entered", "player": name, "entered": len(self.room.entrants),
             "players": self.room.players}]}, separators=(",", ":"))
        for client in self._everyone:
            client.push_text(text)

    def _act(self, client: _Conn, message: Act) -> None:
        player = client.player
        if player is None:
            if client.table is not None:
                raise ProtocolError("spectator", "a spectator cannot act", rule="B1")
            raise ProtocolError("not_joined", "join or resume first")
        outcome: list[LiveHand] = []
        try:
            self._steps(lambda: outcome.append(self.room.act(player, message,
                                                             self._time.now())))
        except ProtocolError:   # refused; timeouts that fell due before it still apply
            for live in list(self.room.live.values()):
                if live.announced < live.game.hand.event_count:
                    self._after_change(live)
            raise
        if outcome:
            self._after_change(outcome[0])

    def _watch(self, client: _Conn, message: Watch) -> None:
        if client.player is not None:
            raise ProtocolError("already_joined", "watch from another connection")
        tour = self.room.tour
        if tour is None or message.table not in tour.tables:
            raise ProtocolError("no_table", f"there is no table {message.table}")
        watchers = self._watchers.setdefault(message.table, set())
        if len(watchers) >= self.spectators:
            raise ProtocolError("too_many_spectators", f"table {message.table} has its "
                                f"{self.spectators} spectators")
        if client.table is not None:
            self._watchers.get(client.table, set()).discard(client)
        watchers.add(client)
        client.table = message.table
        client.push({"type": "watching", "table": message.table, "seq": 0, "gap": False,
                     "settings": self.room.settings(), "protocol": PROTOCOL_VERSION})
        client.push(self.room.update(None, message.table, self._time.now(),
                                     since=message.last_seq or 0))


async def serve_tournament(db: str, structure: Structure | None = None, *,
                           ready: Callable[[int], None] | None = None,
                           **options: Any) -> None:
    """Run a tournament server until SIGINT/SIGTERM; ``ready(port)`` once it listens."""
    await run_until_signalled(TournamentServer(db, structure, **options), ready)
