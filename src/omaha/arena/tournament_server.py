"""A tournament served to connected bots (``omaha serve --tournament STRUCTURE``; issue 25).

The tournament is the library's :class:`~omaha.tournament.Tournament`: the server only
brings the decisions from the network, the clock and the database. Every rule (N1-N8: the
draw, the dead button, balancing, breaking tables, hand for hand, places, prizes) is applied
by the library; every betting rule by the engine's :class:`~omaha.game.hand.Hand`.

* **Registration.** ``join`` with a name (and optionally the client's own token) enters the
  tournament; the tournament starts when ``players`` have entered, or at the start time with
  whoever entered (at least two). A ``join`` or ``resume`` with an entered token comes back
  to that player, before or after the start; after the start nobody new enters.
* **Play.** Each round deals one hand at every table at once (the library's
  :meth:`~omaha.tournament.Tournament.deal_round`); each player receives ``update`` messages
  of the hand at its table (its view: its own cards only) and answers with ``act``, on the
  action clock (D1-D4: a player away is checked or folded by the clock, never waited for).
  When every hand of the round is over the round ends: eliminations, tables broken and
  balanced; a moved player simply receives the updates of its new table.
* **Messages** (beside the cash arena's ``joined``, ``resumed``, ``update``, ``error``,
  ``pong``): ``tournament`` (its events as they happen: seated, moved, level, eliminated,
  prize, ...; sent to every connection), ``finished`` (to a player eliminated, or the
  winner: place and, at the end, prize), and the lobby ``tables`` with a ``tournament``
  entry (state, level, players left, places and prizes). Event numbers in a tournament are
  the hand's number times :data:`SEQ_PER_HAND` plus the event's index, so they rise along a
  player's stream across tables and restarts; decision ids are formed the same way.
* **Crash safety.** :mod:`omaha.arena.tournament_store` stores every step in one
  transaction; a killed server restarted on the same ``--db`` resumes each hand in play at
  its last stored action (the player to act gets a fresh clock), with every chip and place.

``websockets`` is imported when the server starts, never when this module is imported.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import secrets
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
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
from omaha.arena.records import StorageError
from omaha.arena.room import hash_token
from omaha.arena.server import _Client, _positive, import_websockets
from omaha.arena.stream import numbered
from omaha.arena.tournament_store import StoredAction, TournamentStore
from omaha.errors import OmahaError
from omaha.game.clock import ClockConfig, MonotonicClock, TimeoutPolicy
from omaha.game.clocked import ClockedHand, TimeRanOut
from omaha.game.hand import Hand
from omaha.limits import ARENA_MAX_BURST as MAX_BURST
from omaha.limits import ARENA_MAX_RATE as MAX_RATE
from omaha.limits import ARENA_OPEN_TIMEOUT as OPEN_TIMEOUT
from omaha.limits import as_int
from omaha.tournament import Structure, Tournament

__all__ = ["SEQ_PER_HAND", "TournamentServer", "serve_tournament"]

log = logging.getLogger("omaha.arena.tournament")

SEQ_PER_HAND = 10_000
"""Event numbers of hand ``h`` are ``h * SEQ_PER_HAND + 1, + 2, ...`` (a hand has far
fewer events: B3 caps the raises)."""


class _Conn(_Client):
    """A connection: the player it plays for, or the table it watches."""

    def __init__(self, ws: Any, rate: float, burst: int) -> None:
        super().__init__(ws, rate, burst)
        self.direct = False   # every frame through the writer task, in order
        self.player: str | None = None
        self.table: int | None = None   # watched


@dataclass
class _Live:
    """The hand in play at one table."""

    table: int
    number: int
    game: ClockedHand
    players: dict[int, str]          # seat -> player dealt in
    driver: ClockDriver | None = None
    announced: int = 0               # hand events already sent
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def decision(self) -> int | None:
        hand = self.game.hand
        if hand.is_over or hand.to_act is None:
            return None
        return self.number * SEQ_PER_HAND + hand.event_count


class TournamentServer:
    """Serves one tournament over WebSockets on ``host:port`` (``port`` 0: a free one).

    ``db`` is the tournament's SQLite file. A new file needs ``structure`` and ``players``
    (how many entrants start it); a file that holds a tournament resumes it (a ``structure``
    given must then be the stored one). ``start_in`` (seconds from the first start) starts
    it then with whoever entered, if at least two. ``seed`` seeds the draw and the decks
    (default: the OS's cryptographic generator); ``clock`` the action clock (D1-D4).
    """

    def __init__(self, db: str, structure: Structure | None = None, *,
                 players: int | None = None, host: str = "127.0.0.1", port: int = 8765,
                 clock: ClockConfig | None = None, hand_pause_ms: int = 0,
                 start_in: float | None = None, seed: int | None = None,
                 max_size: int = 4096, rate: float = 50.0, burst: int = 100,
                 spectators: int = 16, synchronous: str = "NORMAL",
                 open_timeout: float = OPEN_TIMEOUT) -> None:
        self.host, self.port = host, port
        self.max_size = as_int(max_size, "max_size", low=1, high=1 << 20)
        self.rate = _positive(rate, "rate", MAX_RATE)
        self.burst = as_int(burst, "burst", low=1, high=MAX_BURST)
        self.open_timeout = open_timeout
        self.spectators = as_int(spectators, "spectators", low=0, high=10_000)
        self.store = TournamentStore(db, synchronous=synchronous)
        try:
            self._configure(structure, players, clock, hand_pause_ms, start_in)
            self._load(seed)
        except BaseException:
            self.store.close()
            raise
        self._time = MonotonicClock()
        self._clients: dict[str, _Conn] = {}        # player -> its connection
        self._watchers: dict[int, set[_Conn]] = {}
        self._everyone: set[_Conn] = set()
        self._live: dict[int, _Live] = {}
        self._tasks: list[asyncio.Task[Any]] = []
        self._server: Any = None
        self._stop = asyncio.Event()
        self._sent_events = 0

    # --- settings and restart ----------------------------------------------------------

    def _configure(self, structure: Structure | None, players: int | None,
                   clock: ClockConfig | None, hand_pause_ms: int,
                   start_in: float | None) -> None:
        stored = self.store.settings()
        if stored is None:
            if structure is None or players is None:
                raise OmahaError("a new tournament needs a structure and the number of players")
            players = as_int(players, "players", low=2, high=100_000)
            structure.prize_table(players)   # the payouts can pay this field
            stored = {"structure": structure.to_dict(), "players": players,
                      "clock": (clock or ClockConfig()).to_dict(),
                      "hand_pause_ms": as_int(hand_pause_ms, "hand_pause_ms", low=0,
                                              high=600_000),
                      "start_at": None if start_in is None else
                      time.time() + _positive(start_in, "start_in", 30 * 86_400)}
            self.store.save_settings(stored)
        elif structure is not None and structure.to_dict() != stored["structure"]:
            raise OmahaError(f"{self.store.path} holds a tournament of another structure; "
                             "give a new file to --db")
        self.structure = Structure.from_dict(stored["structure"])
        self.players = int(stored["players"])
        self.clock_config = ClockConfig.from_dict(stored["clock"])
        self.hand_pause = int(stored["hand_pause_ms"]) / 1000
        self.start_at: float | None = stored["start_at"]

    def _load(self, seed: int | None) -> None:
        self.entrants = dict(self.store.registrations())          # name -> token hash
        self.by_token = {h: name for name, h in self.entrants.items()}
        self.rng: random.Random = random.Random(seed) if seed is not None else \
            random.SystemRandom()
        snapshot = self.store.snapshot()
        self.tour: Tournament | None = None
        self._restored: list[tuple[int, int, Hand]] = []
        if snapshot is not None:
            self.tour = Tournament.restore(snapshot)
            for live in self.store.live_hands():
                hand = Hand.restore(live.snapshot)
                for action in live.actions:
                    _replay(hand, action, self.clock_config.policy)
                self._restored.append((live.table, live.hand, hand))

    # --- lifecycle ---------------------------------------------------------------------

    async def start(self) -> int:
        """Listen, resume what was in play; returns the port."""
        websockets = import_websockets()
        try:
            from websockets.asyncio.server import serve as ws_serve
        except ImportError:   # websockets 12
            ws_serve = websockets.serve
        self._server = await ws_serve(self._handle, self.host, self.port,
                                      max_size=self.max_size, max_queue=16, compression=None,
                                      open_timeout=self.open_timeout)
        self.port = list(self._server.sockets)[0].getsockname()[1]
        tour = self.tour
        if tour is not None:
            for table, number, hand in self._restored:
                self._play(table, number, hand, tour.playing[table])
            self._restored = []
            if not tour.is_over and not self._live:
                if tour.round_open:
                    self._end_round()
                else:
                    self._schedule_round()
        elif self.start_at is not None:
            asyncio.get_running_loop().call_later(max(0.0, self.start_at - time.time()),
                                                  self._start_by_time)
        return self.port

    async def run_until_stopped(self) -> None:
        await self._stop.wait()
        await self.close()

    def stop(self) -> None:
        self._stop.set()

    async def close(self) -> None:
        for live in self._live.values():
            if live.driver is not None:
                live.driver.stop()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        tasks = self._tasks + [live.task for live in self._live.values() if live.task]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.store.close()

    def _fail(self, what: str) -> None:
        """A step could not be stored: stop serving (a restart resumes what was stored)."""
        log.exception("tournament: %s; stopping", what)
        self.stop()

    # --- the tournament's steps --------------------------------------------------------

    def _new_events(self) -> list[dict[str, Any]]:
        assert self.tour is not None
        events = self.tour.events[self._sent_events:]
        self._sent_events = len(self.tour.events)
        return events

    def _broadcast(self, events: list[dict[str, Any]]) -> None:
        if not events:
            return
        text = json.dumps({"type": "tournament", "events": events}, separators=(",", ":"))
        for client in self._everyone:
            client.push_text(text)
        tour = self.tour
        assert tour is not None
        if tour.is_over:   # the prizes are known now: every player hears its own
            told = list(tour.places)
        else:
            told = [e["player"] for e in events if e["type"] == "eliminated"]
        for player in told:
            self._tell_finished(player)

    def _tell_finished(self, player: str) -> None:
        client = self._clients.get(player)
        tour = self.tour
        if client is None or tour is None:
            return
        high, low = tour.places[player]
        client.push({"type": "finished", "player": player, "place": high, "tied_to": low,
                     "prize": tour.prizes.get(player) if tour.is_over else None,
                     "over": tour.is_over})

    def _start(self) -> None:
        names = list(self.entrants)
        self.tour = Tournament(self.structure, names, rng=self.rng)
        try:
            self.store.save(self.tour.snapshot(), events=self.tour.events)
        except Exception:
            self._fail("the draw could not be stored")
            return
        self._broadcast(self._new_events())
        for name in names:   # each player's first update: where it sits
            client = self._clients.get(name)
            if client is not None:
                client.push(self._update_for(name))
        self._schedule_round()

    def _start_by_time(self) -> None:
        if self.tour is None and len(self.entrants) >= 2:
            self._start()

    def _schedule_round(self) -> None:
        tour = self.tour
        if tour is None or tour.is_over:
            return
        asyncio.get_running_loop().call_later(self.hand_pause, self._deal_round)

    def _deal_round(self) -> None:
        tour = self.tour
        if tour is None or tour.is_over or tour.round_open or self._stop.is_set():
            return
        first = tour.hands
        hands = tour.deal_round()
        numbers = {table: first + i + 1 for i, table in enumerate(hands)}
        try:
            self.store.save(tour.snapshot(), events=tour.events[self._sent_events:],
                            deal={t: (numbers[t], h.snapshot()) for t, h in hands.items()})
        except Exception:
            self._fail("a deal could not be stored")
            return
        self._broadcast(self._new_events())
        if not hands:   # a break (N1): the round ended at once
            asyncio.get_running_loop().call_later(max(self.hand_pause, 1.0), self._deal_round)
            return
        for table, hand in hands.items():
            self._play(table, numbers[table], hand, tour.playing[table])

    def _play(self, table: int, number: int, hand: Hand,
              dealt: Mapping[int, tuple[str, int]]) -> None:
        """Put ``hand`` on the clock and announce it (or finish it: over at a restart)."""
        players = {seat: player for seat, (player, _) in dealt.items()}
        away = {seat for seat, player in players.items() if player not in self._clients}
        game = ClockedHand(hand, now=self._time.now(), config=self.clock_config,
                           disconnected=away)
        live = _Live(table, number, game, players)
        driver = live.driver = ClockDriver(functools.partial(self._on_timeouts, live),
                                           time_source=self._time)
        self._live[table] = live
        driver.attach(game)
        live.task = asyncio.create_task(driver.run())
        self._after_change(live)

    def _on_timeouts(self, live: _Live, fired: list[TimeRanOut]) -> None:
        try:
            for timeout in fired:
                self.store.append_action(live.table, live.number, StoredAction(
                    timeout.seat, "timeout", policy=self.clock_config.policy.value))
        except Exception:
            self._fail("a timeout could not be stored")
            return
        self._after_change(live)

    def _after_change(self, live: _Live) -> None:
        self._announce(live)
        if live.game.hand.is_over:
            self._finish(live)
        elif live.driver is not None:
            live.driver.wake()

    def _finish(self, live: _Live) -> None:
        from omaha.phh import dumps, history_from_events, phh_order

        tour = self.tour
        assert tour is not None
        hand = live.game.hand
        if live.driver is not None:
            live.driver.stop()
        del self._live[live.table]
        order = phh_order(hand.seats, hand.button)
        history = history_from_events(hand.events, metadata={
            "table": live.table, "hand": live.number,
            "players": [live.players[s] for s in order]})
        tour.finish_hand(live.table, hand)
        try:
            self.store.save(tour.snapshot(), events=tour.events[self._sent_events:],
                            finished=(live.table, live.number, dumps(history)))
        except Exception:
            self._fail("a finished hand could not be stored")
            return
        self._broadcast(self._new_events())
        if not self._live:
            self._end_round()

    def _end_round(self) -> None:
        tour = self.tour
        assert tour is not None
        if tour.round_open:
            tour.end_round()
            try:
                self.store.save(tour.snapshot(), events=tour.events[self._sent_events:])
            except Exception:
                self._fail("the end of a round could not be stored")
                return
            self._broadcast(self._new_events())
        if tour.is_over:
            log.info("tournament over: %s", tour.prizes)
            return
        self._schedule_round()

    # --- what each connection sees -----------------------------------------------------

    def _where(self, player: str) -> tuple[int, int] | None:
        tour = self.tour
        if tour is None or player in tour.places:
            return None
        return tour.seat_of(player)

    def _update_for(self, player: str | None, table: int | None = None,
                    since: int = 0) -> dict[str, Any]:
        """The ``update`` of the hand at ``player``'s table (or ``table`` for a spectator):
        its events after ``since`` (as numbered), the view, the decision."""
        seat = None
        if player is not None:
            where = self._where(player)
            table, seat = where if where is not None else (None, None)
        live = self._live.get(table) if table is not None else None
        if live is None:
            return {"type": "update", "table": table, "hand": 0, "events": [], "view": None,
                    "decision": None}
        mine = seat if seat is not None and live.players.get(seat) == player else None
        hand = live.game.hand
        base = live.number * SEQ_PER_HAND
        events = [numbered(base + i + 1, live.number, event.to_dict(), mine)
                  for i, event in enumerate(hand.events) if base + i + 1 > since]
        return {"type": "update", "table": live.table, "hand": live.number, "events": events,
                "view": self._view(live, mine), "decision": live.decision}

    def _view(self, live: _Live, seat: int | None) -> dict[str, Any]:
        now = self._time.now()
        return live.game.view(seat, now=now).to_dict()

    def _announce(self, live: _Live) -> None:
        """Send the hand's new events to its table's players and spectators."""
        hand = live.game.hand
        fresh = list(enumerate(hand.events))[live.announced:]
        live.announced = hand.event_count
        base = live.number * SEQ_PER_HAND
        tour = self.tour
        assert tour is not None
        sitting = tour.tables.get(live.table, {})
        decision = live.decision
        for seat, player in sitting.items():
            client = self._clients.get(player)
            if client is None:
                continue
            mine = seat if live.players.get(seat) == player else None
            client.push({"type": "update", "table": live.table, "hand": live.number,
                         "events": [numbered(base + i + 1, live.number, e.to_dict(), mine)
                                    for i, e in fresh],
                         "view": self._view(live, mine), "decision": decision})
        watchers = self._watchers.get(live.table)
        if watchers:
            text = json.dumps({"type": "update", "table": live.table, "hand": live.number,
                               "events": [numbered(base + i + 1, live.number, e.to_dict(),
                                                   None) for i, e in fresh],
                               "view": self._view(live, None), "decision": decision},
                              separators=(",", ":"))
            for client in watchers:
                client.push_text(text)

    def lobby(self) -> dict[str, Any]:
        """The ``tables`` message: every table (players, stacks, the hand in play) and the
        tournament (state, level, players left, places and prizes)."""
        tour = self.tour
        tables = []
        if tour is not None:
            for number in sorted(tour.tables):
                seats = tour.tables[number]
                live = self._live.get(number)
                tables.append({"table": number, "owner": f"ws://{self.host}:{self.port}",
                               "seats": self.structure.seats, "free_seats":
                               self.structure.seats - len(seats),
                               "players": [{"seat": s, "name": p, "stack": tour.stacks[p]}
                                           for s, p in sorted(seats.items())],
                               "hand": live.number if live is not None else None})
        return {"type": "tables", "tables": tables, "tournament": self.status()}

    def status(self) -> dict[str, Any]:
        """The tournament's state for the lobby."""
        tour = self.tour
        out: dict[str, Any] = {"players": self.players, "entered": len(self.entrants),
                               "structure": self.structure.to_dict()}
        if tour is None:
            out.update(state="registering", start_at=self.start_at)
            return out
        index = max(tour.level, 0)
        level = self.structure.levels[min(index, len(self.structure.levels) - 1)]
        out.update(state="over" if tour.is_over else "running", level=index + 1,
                   small_blind=level.small_blind, big_blind=level.big_blind,
                   ante=level.ante, big_blind_ante=level.big_blind_ante,
                   players_left=tour.players_left, hands=tour.hands, round=tour.rounds,
                   hand_for_hand=tour.together, prize_pool=tour.prize_pool,
                   places=[{"player": p, "place": high, "tied_to": low,
                            "prize": tour.prizes.get(p) if tour.is_over else None}
                           for p, (high, low) in sorted(tour.places.items(),
                                                        key=lambda item: item[1])])
        return out

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

    async def _writer(self, client: _Conn) -> None:
        from websockets.exceptions import ConnectionClosed

        while True:
            item = await client.outbox.get()
            if item is None:
                return
            try:
                await client.ws.send(item[0])
            except ConnectionClosed:
                pass

    def _detach(self, client: _Conn) -> None:
        self._everyone.discard(client)
        if client.table is not None:
            self._watchers.get(client.table, set()).discard(client)
            client.table = None
        player = client.player
        if player is not None and self._clients.get(player) is client:
            del self._clients[player]
            self._set_connected(player, False)

    def _set_connected(self, player: str, connected: bool) -> None:
        """D3: the clock of a player who drops (or comes back) at a hand in play."""
        where = self._where(player)
        if where is None:
            return
        live = self._live.get(where[0])
        if live is None or live.players.get(where[1]) != player or live.game.hand.is_over:
            return
        now = self._time.now()
        if connected:
            fired = live.game.reconnect(where[1], now=now)
        else:
            fired = live.game.disconnect(where[1], now=now)
        if fired:
            self._on_timeouts(live, fired)
        elif live.driver is not None:
            live.driver.wake()

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
        token = message.token
        name = self.by_token.get(hash_token(token)) if token is not None else None
        if isinstance(message, Resume) and name is None:
            raise ProtocolError("bad_token", "no entrant holds this token")
        if name is None:
            assert isinstance(message, Join)
            name, token = self._register(message.name, token)
        current = client.player
        if current is not None and current != name:
            raise ProtocolError("already_joined", f"this connection plays for {current}")
        old = self._clients.get(name)
        if old is not None and old is not client:
            old.player = None
            old.push(error_message("replaced", "another connection resumed this player"))
            asyncio.get_running_loop().create_task(old.ws.close(4001, "replaced"))
        client.player = name
        self._clients[name] = client
        where = self._where(name)
        kind = "joined" if isinstance(message, Join) else "resumed"
        reply: dict[str, Any] = {
            "type": kind, "table": where[0] if where else None,
            "seat": where[1] if where else None, "player": name,
            "seq": 0, "protocol": PROTOCOL_VERSION, "settings": self._settings(),
            "tournament": self.status()}
        if kind == "joined":
            reply["token"] = token
        else:
            reply["gap"] = False
        client.push(reply)
        since = message.last_seq if isinstance(message, Resume) else 0
        if self.tour is not None:
            client.push(self._update_for(name, since=since))
            if name in self.tour.places:
                self._tell_finished(name)
            else:
                self._set_connected(name, True)
        elif len(self.entrants) >= self.players:
            self._start()

    def _register(self, name: str, token: str | None) -> tuple[str, str]:
        """Enter ``name`` (committed first); returns it with its token."""
        if self.tour is not None:
            raise ProtocolError("registration_closed", "the tournament has started; entries "
                                "are closed")
        if len(self.entrants) >= self.players:
            raise ProtocolError("tournament_full", f"all {self.players} places are taken")
        if name in self.entrants:
            raise ProtocolError("name_taken", f"{name!r} has entered already; choose another "
                                "name (or resume with its token)")
        token = token if token is not None else secrets.token_urlsafe(32)
        hashed = hash_token(token)
        try:
            self.store.register(name, hashed)
        except StorageError as exc:
            raise ProtocolError("name_taken", str(exc)) from None
        self.entrants[name] = hashed
        self.by_token[hashed] = name
        self._broadcast_entry(name)
        return name, token

    def _broadcast_entry(self, name: str) -> None:
        text = json.dumps({"type": "tournament", "events": [
            {"type": "entered", "player": name, "entered": len(self.entrants),
             "players": self.players}]}, separators=(",", ":"))
        for client in self._everyone:
            client.push_text(text)

    def _settings(self) -> dict[str, Any]:
        level = self.structure.levels[0]
        return {"game": self.structure.game_config(level).to_dict(),
                "tournament": self.structure.to_dict(), "players": self.players,
                "clock": self.clock_config.to_dict()}

    def _act(self, client: _Conn, message: Act) -> None:
        player = client.player
        if player is None:
            if client.table is not None:
                raise ProtocolError("spectator", "a spectator cannot act", rule="B1")
            raise ProtocolError("not_joined", "join or resume first")
        where = self._where(player)
        live = self._live.get(where[0]) if where is not None else None
        if where is None or live is None or live.players.get(where[1]) != player:
            raise ProtocolError("no_hand", f"{player} is not in a hand in play")
        seat = where[1]
        if message.seat is not None and message.seat != seat:
            raise ProtocolError("not_your_seat", f"{player} plays seat {seat}", rule="B1")
        if message.hand is not None and message.hand != live.number:
            raise ProtocolError("stale_hand", f"hand {message.hand} is over; hand "
                                f"{live.number} is in play")
        fired = live.game.advance(self._time.now())
        if fired:
            self._on_timeouts(live, fired)
            if any(t.seat == seat for t in fired):
                raise ProtocolError("illegal_action", "time ran out; the action came too "
                                    "late", rule="D2")
            if live.table not in self._live:
                raise ProtocolError("no_hand", "the hand is over")
        if message.decision is not None and message.decision != live.decision:
            raise ProtocolError("stale_decision", f"decision {message.decision} is not the "
                                f"one in play ({live.decision}); nothing was changed")
        try:
            live.game.act(seat, message.action, to=message.to, now=self._time.now())
        except OmahaError as exc:
            raise ProtocolError("illegal_action", str(exc), rule=getattr(exc, "rule", None)) \
                from None
        try:
            self.store.append_action(live.table, live.number,
                                     StoredAction(seat, message.action, message.to))
        except Exception:
            self._fail("an action could not be stored")
            return
        self._after_change(live)

    def _watch(self, client: _Conn, message: Watch) -> None:
        if client.player is not None:
            raise ProtocolError("already_joined", "watch from another connection")
        tour = self.tour
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
                     "settings": self._settings(), "protocol": PROTOCOL_VERSION})
        client.push(self._update_for(None, message.table, since=message.last_seq or 0))


def _replay(hand: Hand, action: StoredAction, policy: TimeoutPolicy) -> None:
    """One stored action, applied again at a restart."""
    try:
        if action.action == "timeout":
            hand.timeout(seat=action.seat, policy=TimeoutPolicy(action.policy or policy.value))
        elif action.amount is not None:
            hand.bet_or_raise(action.amount, seat=action.seat)
        else:
            getattr(hand, action.action)(seat=action.seat)
    except (OmahaError, AttributeError, TypeError, ValueError) as exc:
        raise StorageError(f"stored action {action} does not replay: {exc}") from None


async def serve_tournament(db: str, structure: Structure | None = None, *,
                           ready: Callable[[int], None] | None = None,
                           **options: Any) -> None:
    """Run a tournament server until SIGINT/SIGTERM; ``ready(port)`` once it listens."""
    server = TournamentServer(db, structure, **options)
    bound = await server.start()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, server.stop)
        except (NotImplementedError, RuntimeError):
            pass
    if ready is not None:
        ready(bound)
    await server.run_until_stopped()
