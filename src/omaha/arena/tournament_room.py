"""A served tournament's state, every change stored before it is announced (issue 25).

:class:`TournamentRoom` is the part of ``omaha serve --tournament`` that holds no socket and
no timer: the entrants, the library's :class:`~omaha.tournament.Tournament`, the hands in
play on their action clocks, and the :class:`~omaha.arena.tournament_store.TournamentStore`
that every step is written to first. The server (:mod:`omaha.arena.tournament_server`) calls
it with the time and the players' messages and sends what it returns; tests drive it
directly, crash it (drop it unsaved) and open it again from the file.

Time is passed in (integer milliseconds, :class:`~omaha.game.clocked.ClockedHand`'s); the
seeded or system generator deals (C2).

>>> import random
>>> from omaha.tournament import Level, Structure
>>> from omaha.arena.tournament_store import TournamentStore
>>> room = TournamentRoom(TournamentStore(":memory:"),
...                       Structure(levels=(Level(5, 10, hands=9),), starting_stack=100,
...                                 seats=6), players=2, seed=1)
>>> _ = room.enter("ann"), room.enter("bob")
>>> room.can_start(0.0), room.start()[0]["type"]
(True, 'seated')
>>> sorted(room.deal_round(now=0))
[1]
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from omaha.arena.messages import Act, ProtocolError
from omaha.arena.records import StorageError
from omaha.arena.room import hash_token
from omaha.arena.stream import numbered
from omaha.arena.tournament_store import StoredAction, TournamentStore
from omaha.errors import OmahaError, TournamentError
from omaha.game.clock import ClockConfig, TimeoutPolicy
from omaha.game.clocked import ClockedHand, TimeRanOut
from omaha.game.hand import Hand
from omaha.limits import as_int
from omaha.phh import dumps, history_from_events, phh_order
from omaha.tournament import Structure, Tournament, entry_player

__all__ = ["SEQ_PER_HAND", "LiveHand", "TournamentRoom"]

SEQ_PER_HAND = 10_000
"""Event numbers of hand ``h`` are ``h * SEQ_PER_HAND + 1, + 2, ...`` (a hand has far
fewer events: B3 caps the raises), so they rise along a player's stream across tables and
restarts; decision ids are formed the same way."""

MAX_START_DELAY = 30 * 86_400.0


@dataclass
class LiveHand:
    """The hand in play at one table: its number, the clocked hand, who was dealt in."""

    table: int
    number: int
    game: ClockedHand
    players: dict[int, str]          # seat -> player dealt in
    announced: int = 0               # hand events already sent

    @property
    def decision(self) -> int | None:
        """The id of the decision in play, or None."""
        hand = self.game.hand
        if hand.is_over or hand.to_act is None:
            return None
        return self.number * SEQ_PER_HAND + hand.event_count

    def items(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The hand's events from index ``start`` as stream items for ``seat``."""
        base = self.number * SEQ_PER_HAND
        hand = self.game.hand
        return [numbered(base + i + 1, self.number, hand.events[i].to_dict(), seat)
                for i in range(start, hand.event_count)]


class TournamentRoom:
    """One tournament over ``store``.

    A new store needs ``structure`` and ``players`` (the entrants that start it); a store
    that holds a tournament resumes it (a ``structure`` given must be the stored one), its
    hands in play replayed to their last stored action. ``start_in`` (seconds from the
    first start) lets it start then with whoever entered, if at least two. ``seed`` seeds
    the draw and the decks (default: the OS's generator); ``clock`` the action clock.
    """

    def __init__(self, store: TournamentStore, structure: Structure | None = None, *,
                 players: int | None = None, clock: ClockConfig | None = None,
                 hand_pause_ms: int = 0, start_in: float | None = None,
                 seed: int | None = None) -> None:
        self.store = store
        stored = store.settings()
        if stored is None:
            if structure is None or players is None:
                raise OmahaError("a new tournament needs a structure and the number of players")
            players = as_int(players, "players", low=2, high=100_000)
            structure.prize_table(players)   # the payouts can pay this field
            if start_in is not None and not 0 < start_in <= MAX_START_DELAY:
                raise OmahaError(f"start_in must be above 0 and at most {MAX_START_DELAY:g} "
                                 f"seconds, got {start_in!r}")
            stored = {"structure": structure.to_dict(), "players": players,
                      "clock": (clock or ClockConfig()).to_dict(),
                      "hand_pause_ms": as_int(hand_pause_ms, "hand_pause_ms", low=0,
                                              high=600_000),
                      "start_at": None if start_in is None else time.time() + start_in}
            store.save_settings(stored)
        elif structure is not None and structure.to_dict() != stored["structure"]:
            raise OmahaError(f"{store.path} holds a tournament of another structure; give a "
                             "new file to --db")
        self.structure = Structure.from_dict(stored["structure"])
        self.players = int(stored["players"])
        self.clock_config = ClockConfig.from_dict(stored["clock"])
        self.hand_pause_ms = int(stored["hand_pause_ms"])
        self.start_at: float | None = stored["start_at"]
        self.entrants = dict(store.registrations())                # name -> token hash
        self._by_token = {h: name for name, h in self.entrants.items()}
        self.rng: random.Random = random.Random(seed) if seed is not None else \
            random.SystemRandom()
        self.live: dict[int, LiveHand] = {}
        self.connected: set[str] = set()
        # N2: players to seat before the next round (late entries and re-entries)
        self.waiting: list[str] = []
        self.tour: Tournament | None = None
        self._sent = 0        # the tournament's events already returned
        snapshot = store.snapshot()
        self._restored: list[tuple[int, int, Hand]] = []
        if snapshot is not None:
            self.tour = Tournament.restore(snapshot)
            if self.tour.late_open:   # entered (stored) but not seated when it stopped
                self.waiting = [n for n in self.entrants if n not in self.tour.entries_of]
            for live in store.live_hands():
                hand = Hand.restore(live.snapshot)
                for action in live.actions:
                    _replay(hand, action, self.clock_config.policy)
                self._restored.append((live.table, live.hand, hand))

    # --- entering ----------------------------------------------------------------------

    def can_start(self, wall_time: float) -> bool:
        """Whether the tournament starts at ``wall_time`` (seconds since the epoch): the
        field is full, or the start time has come with at least two entrants and no fewer
        than the places the payout table pays for that field (N8)."""
        entered = len(self.entrants)
        if self.tour is not None:
            return False
        if entered >= self.players:
            return True
        if self.start_at is None or wall_time < self.start_at or entered < 2:
            return False
        return self.structure.payouts_for(entered).places <= entered

    def player_of(self, token: str) -> str | None:
        """The entrant ``token`` holds, or None."""
        return self._by_token.get(hash_token(token))

    def enter(self, name: str, token: str | None = None) -> tuple[str, str]:
        """Enter ``name`` (committed first); returns it with its token (drawn if None).
        After the start, while late entries are open (N2), the entry is seated before the
        next round. Refused (:class:`ProtocolError`) when entries are closed, over the field
        before the start, or a name taken."""
        late = self.tour is not None
        if self.tour is not None and not self.tour.late_open:
            raise ProtocolError("registration_closed", "the tournament has started; entries "
                                "are closed")
        if not late and len(self.entrants) >= self.players:
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
        self._by_token[hashed] = name
        if late:
            self.waiting.append(name)
        return name, token

    def re_enter(self, player: str) -> None:
        """N2: ``player``, busted while late entries are open, enters again before the next
        round (if the structure allows one more); :class:`ProtocolError` names why not."""
        tour = self.tour
        if tour is None or player in self.waiting:
            raise ProtocolError("not_allowed", f"{player} is entered already")
        entry = tour.entry_of(player)
        if not tour.late_open:
            raise ProtocolError("registration_closed", "late entries are closed")
        if entry in tour.remaining:
            raise ProtocolError("not_allowed", f"{player} is still in")
        if tour.entries_of.get(player, 0) > tour.structure.re_entries:
            raise ProtocolError("not_allowed", f"{player} has used the "
                                f"{tour.structure.re_entries} re-entries allowed")
        self.waiting.append(player)

    def seat_waiting(self) -> list[dict[str, Any]]:
        """Before a round: seat the late entries and re-entries waiting (N2), stored; their
        events. Those left when late entries have closed stay out."""
        tour = self.tour
        assert tour is not None and not tour.round_open
        if not self.waiting:
            return []
        before = tour.snapshot()
        waiting, self.waiting = self.waiting, []
        for player in waiting:
            try:
                tour.enter(player)
            except TournamentError:   # closed meanwhile (or used up): not seated
                continue
        try:
            self.store.save(tour.snapshot(), events=self._unsent())
        except BaseException:
            self.waiting = waiting
            self._rollback(before)
            raise
        return self.take_events()

    # --- the tournament's steps (each stored, then its new events returned) ------------

    def take_events(self) -> list[dict[str, Any]]:
        """The tournament's events not yet taken (stored already), to announce."""
        assert self.tour is not None
        events = self.tour.events[self._sent:]
        self._sent = len(self.tour.events)
        return events

    def _unsent(self) -> list[dict[str, Any]]:
        assert self.tour is not None
        return self.tour.events[self._sent:]

    def start(self) -> list[dict[str, Any]]:
        """The draw (N2) among the entrants; its events."""
        if self.tour is not None:
            raise OmahaError("the tournament has started")
        tour = Tournament(self.structure, list(self.entrants), rng=self.rng)
        self.store.save(tour.snapshot(), events=tour.events)
        self.tour = tour
        return self.take_events()

    def resume_hands(self, now: int) -> list[LiveHand]:
        """After a restart: the hands that were in play, on the clock again (every player
        away until it connects: D3)."""
        tour = self.tour
        assert tour is not None
        out = [self._put(table, number, hand, now) for table, number, hand in self._restored]
        self._restored = []
        return out

    def deal_round(self, now: int) -> dict[int, LiveHand]:
        """The next round (N1-N6): one hand dealt at every table, stored with its deck. A
        break level deals none (the round ends at once)."""
        tour = self.tour
        if tour is None or tour.is_over or tour.round_open:
            raise OmahaError("no round to deal")
        first = tour.hands
        before = tour.snapshot()
        hands = tour.deal_round()
        numbers = {table: first + i + 1 for i, table in enumerate(hands)}
        try:
            self.store.save(tour.snapshot(), events=self._unsent(),
                            deal={t: (numbers[t], h.snapshot()) for t, h in hands.items()})
        except BaseException:
            self._rollback(before)
            raise
        return {t: self._put(t, numbers[t], h, now) for t, h in hands.items()}

    def _rollback(self, snapshot: Mapping[str, Any]) -> None:
        """A step not stored did not happen: the tournament as it was before it."""
        self.tour = Tournament.restore(snapshot)
        self._sent = len(self.tour.events)

    def _put(self, table: int, number: int, hand: Hand, now: int) -> LiveHand:
        tour = self.tour
        assert tour is not None
        players = {seat: player for seat, (player, _) in tour.playing[table].items()}
        away = {seat for seat, entry in players.items()
                if entry_player(entry) not in self.connected}
        live = LiveHand(table, number, ClockedHand(hand, now=now, config=self.clock_config,
                                                   disconnected=away), players)
        self.live[table] = live
        return live

    def act(self, player: str, message: Act, now: int) -> LiveHand:
        """``player`` does ``message.action`` (stored first); the hand it changed. Refused
        with :class:`ProtocolError` (nothing changed; timeouts due before it still apply)."""
        live = self._live_of(player)
        entry = self._entry(player)
        seat = next(s for s, p in live.players.items() if p == entry)
        if message.seat is not None and message.seat != seat:
            raise ProtocolError("not_your_seat", f"{player} plays seat {seat}", rule="B1")
        if message.hand is not None and message.hand != live.number:
            raise ProtocolError("stale_hand", f"hand {message.hand} is over; hand "
                                f"{live.number} is in play")
        fired = self.advance(live, now)
        if any(t.seat == seat for t in fired):
            raise ProtocolError("illegal_action", "time ran out; the action came too late",
                                rule="D2")
        if live.game.hand.is_over:
            raise ProtocolError("no_hand", "the hand is over")
        if message.decision is not None and message.decision != live.decision:
            raise ProtocolError("stale_decision", f"decision {message.decision} is not the "
                                f"one in play ({live.decision}); nothing was changed")
        before = live.game.snapshot()
        try:
            live.game.act(seat, message.action, to=message.to, now=now)
        except OmahaError as exc:
            raise ProtocolError("illegal_action", str(exc), rule=getattr(exc, "rule", None)) \
                from None
        try:
            self.store.append_action(live.table, live.number,
                                     StoredAction(seat, message.action, message.to))
        except BaseException:
            live.game = ClockedHand.restore(before)
            raise
        return live

    def _live_of(self, player: str) -> LiveHand:
        where = self.where(player)
        live = self.live.get(where[0]) if where is not None else None
        if where is None or live is None or live.players.get(where[1]) != self._entry(player):
            raise ProtocolError("no_hand", f"{player} is not in a hand in play")
        return live

    def _entry(self, player: str) -> str:
        """``player``'s latest entry (its name, or ``name#k`` after re-entries)."""
        return self.tour.entry_of(player) if self.tour is not None else player

    def advance(self, live: LiveHand, now: int) -> list[TimeRanOut]:
        """The timeouts due at ``now`` at ``live`` (D2), each stored."""
        fired = live.game.advance(now)
        self.record_timeouts(live, fired)
        return fired

    def record_timeouts(self, live: LiveHand, fired: list[TimeRanOut]) -> None:
        """Store the timeouts the clock applied at ``live`` (D2)."""
        for timeout in fired:
            self.store.append_action(live.table, live.number, StoredAction(
                timeout.seat, "timeout", policy=self.clock_config.policy.value))

    def set_connected(self, player: str, connected: bool, now: int) -> LiveHand | None:
        """D3: ``player`` dropped or came back; the hand in play it changed, if any."""
        if connected:
            self.connected.add(player)
        else:
            self.connected.discard(player)
        where = self.where(player)
        live = self.live.get(where[0]) if where is not None else None
        if where is None or live is None or live.players.get(where[1]) != self._entry(player) \
                or live.game.hand.is_over:
            return None
        seat = where[1]
        if connected == live.game.clock.is_connected(seat):
            return None
        fired = live.game.reconnect(seat, now=now) if connected else \
            live.game.disconnect(seat, now=now)
        self.record_timeouts(live, fired)
        return live

    def finish(self, live: LiveHand) -> list[dict[str, Any]]:
        """``live`` is over: stored with its PHH, the tournament moved on; its events."""
        tour = self.tour
        assert tour is not None and live.game.hand.is_over
        hand = live.game.hand
        assert isinstance(hand, Hand)   # tournaments play flop games
        order = phh_order(hand.seats, hand.button)
        history = history_from_events(hand.events, metadata={
            "table": live.table, "hand": live.number,
            "players": [live.players[s] for s in order]})
        before = tour.snapshot()
        tour.finish_hand(live.table, hand)
        try:
            self.store.save(tour.snapshot(), events=self._unsent(),
                            finished=(live.table, live.number, dumps(history)))
        except BaseException:
            self._rollback(before)
            raise
        del self.live[live.table]
        return self.take_events()

    def end_round(self) -> list[dict[str, Any]]:
        """Every hand of the round is over: eliminations at the bubble, tables broken and
        balanced (N4-N6), stored; its events."""
        tour = self.tour
        assert tour is not None and not self.live
        before = tour.snapshot()
        tour.end_round()
        try:
            self.store.save(tour.snapshot(), events=self._unsent())
        except BaseException:
            self._rollback(before)
            raise
        return self.take_events()

    # --- queries -----------------------------------------------------------------------

    def where(self, player: str) -> tuple[int, int] | None:
        """(table, seat) of a player still in (its latest entry), else None."""
        tour = self.tour
        if tour is None:
            return None
        entry = tour.entry_of(player)
        if entry not in tour.remaining:
            return None
        return tour.seat_of(entry)

    def view(self, live: LiveHand, player: str | None, now: int) -> dict[str, Any]:
        """``player``'s view of ``live`` (a spectator's if not dealt in): own cards only."""
        return live.game.view(self._seat_in(live, player), now=now).to_dict()

    def _seat_in(self, live: LiveHand, player: str | None) -> int | None:
        if player is None:
            return None
        entry = self._entry(player)
        return next((s for s, p in live.players.items() if p == entry), None)

    def update(self, player: str | None, table: int | None, now: int, *,
               start: int = 0, since: int = 0) -> dict[str, Any]:
        """The ``update`` message for ``player`` (None: a spectator of ``table``) of the hand
        at its table: the events from index ``start`` numbered after ``since``, the view,
        the decision."""
        if player is not None:
            where = self.where(player)
            table = where[0] if where is not None else None
        live = self.live.get(table) if table is not None else None
        if live is None:
            message: dict[str, Any] = {"type": "update", "table": table, "hand": 0,
                                       "events": [], "view": None, "decision": None}
            if table is not None:
                message["names"] = self.names(table)
            return message
        seat = self._seat_in(live, player)
        return {"type": "update", "table": live.table, "hand": live.number,
                "events": [i for i in live.items(seat, start) if i["seq"] > since],
                "view": live.game.view(seat, now=now).to_dict(), "decision": live.decision,
                "names": self.names(live.table)}

    def names(self, table: int) -> dict[str, str]:
        """Protocol 4: the name each player seated at ``table`` entered under, by seat."""
        tour = self.tour
        assert tour is not None
        return {str(seat): entry_player(entry)
                for seat, entry in sorted(tour.tables.get(table, {}).items())}

    def finished(self, player: str) -> dict[str, Any] | None:
        """The ``finished`` message of a player whose latest entry is placed (None if it is
        not): its place and, once the tournament is over, its prize."""
        tour = self.tour
        assert tour is not None
        entry = tour.entry_of(player)
        if entry not in tour.places or player in self.waiting:
            return None
        high, low = tour.places[entry]
        return {"type": "finished", "player": player, "entry": entry, "place": high,
                "tied_to": low, "prize": tour.prizes.get(entry) if tour.is_over else None,
                "over": tour.is_over}

    def settings(self) -> dict[str, Any]:
        """What ``joined`` says of the game: the first level's game, the structure, the clock."""
        return {"game": self.structure.game_config(self.structure.levels[0]).to_dict(),
                "tournament": self.structure.to_dict(), "players": self.players,
                "clock": self.clock_config.to_dict()}

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

    def tables(self, owner: str) -> list[dict[str, Any]]:
        """The lobby's tables: players and stacks, the hand in play."""
        tour = self.tour
        if tour is None:
            return []
        out = []
        for number in sorted(tour.tables):
            seats = tour.tables[number]
            live = self.live.get(number)
            out.append({"table": number, "owner": owner, "seats": self.structure.seats,
                        "free_seats": self.structure.seats - len(seats),
                        "players": [{"seat": s, "name": p, "stack": tour.stacks[p]}
                                    for s, p in sorted(seats.items())],
                        "hand": live.number if live is not None else None})
        return out


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
