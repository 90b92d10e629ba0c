"""A table of the arena: seats, the hand in play on the clock, persistence and broadcasts.

A :class:`TableRoom` (made by :class:`~omaha.arena.house.Arena`, which owns the tables and the
:class:`~omaha.arena.storage.Storage`) wraps an :class:`~omaha.game.table.Table` and the
:class:`~omaha.game.clocked.ClockedHand` of the hand in play. Every accepted change is
committed first, then announced: the room calls ``emit(seat, message)`` with an ``update``
(the new numbered events and the seat's view) for every seat.

Seats are given up with :meth:`TableRoom.leave` (at once between hands; at the end of the
hand for a player in it, who plays it out) and cashed out in the transaction that frees
them. Spectators (the server counts them in :attr:`TableRoom.spectators`) get the public
stream through ``emit_public``.

Crash rule: the hand in play resumes at its last committed action. On restart the table is
restored from its snapshot, the stored actions are replayed in order, and the player to act
gets a fresh clock (D1) started at the restart, since the outage was the house's fault;
everyone starts disconnected (D3) until they reconnect with their token. The
:mod:`~omaha.arena.house` docstring plays a hand through both.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any, Protocol

from omaha.arena.histories import finished_phh, stored_names
from omaha.arena.messages import Act, ProtocolError
from omaha.arena.records import (
    ActionRecord,
    CashOut,
    FinishedHand,
    LedgerEntry,
    SeatRecord,
    Storage,
    StorageError,
    TableRecord,
)
from omaha.arena.settings import ArenaSettings
from omaha.arena.stream import EventLog, HandEvents, event_for_seat, numbered
from omaha.errors import OmahaError, TableError
from omaha.game.clock import ClockConfig, TimeoutPolicy
from omaha.game.clocked import ClockedHand, ClockedView, TimeRanOut
from omaha.game.studseats import SeatedStudHand
from omaha.game.table import Table, TableHand
from omaha.limits import ARENA_LEASE_MS
from omahacore.cards import format_cards

__all__ = ["Host", "TableElsewhere", "TableRoom", "hash_token"]

Emit = Callable[["TableRoom", int, dict[str, Any]], None]
EmitPublic = Callable[["TableRoom", dict[str, Any]], None]
RESUME_HANDS = 200   # a client further behind than this many hands gets a gap
LEASE_MS = ARENA_LEASE_MS   # how long a table's lease lasts unless renewed (every third)


class Host(Protocol):
    """What a room needs of the arena that owns it (:class:`~omaha.arena.house.Arena`)."""

    @property
    def storage(self) -> Storage: ...
    @property
    def settings(self) -> ArenaSettings: ...
    @property
    def clock_config(self) -> ClockConfig: ...
    @property
    def emit(self) -> Emit: ...
    @property
    def emit_public(self) -> EmitPublic | None: ...
    @property
    def now(self) -> Callable[[], int]: ...

    def forget_token(self, token_hash: str) -> None:
        """The seat of this token was cashed out: the token seats no one any more."""


class TableElsewhere(OmahaError):
    """The request is for a table this process does not play: ``owner`` is the public URL
    of the process that does (None: between owners, retry shortly). Nothing was changed;
    the server answers with a ``redirect``."""

    def __init__(self, table: int, owner: str | None) -> None:
        where = f"is played by {owner}" if owner else "is between owners; retry shortly"
        super().__init__(f"table {table} {where}")
        self.table = table
        self.owner = owner


def hash_token(token: str) -> str:
    """What the database keeps of a token: its SHA-256, so a copy of the file seats no one."""
    return hashlib.sha256(token.encode()).hexdigest()


class TableRoom:
    """One table: seats, the hand in play on the clock, persistence and broadcasts."""

    def __init__(self, arena: Host, number: int, table: Table, seq_base: int) -> None:
        self.arena = arena
        self.number = number
        self.table = table
        self.game: ClockedHand | None = None
        self.log = EventLog()
        self.seq_base = seq_base
        self.players: dict[int, SeatRecord] = {}
        self.connected: set[int] = set()
        self.leaving: set[int] = set()   # seats freed when the hand in play ends
        self.spectators = 0              # connections watching (kept by the server)
        self._numbered = 0     # events of the hand in play already numbered and announced
        self.on_hand_over: Callable[[TableRoom], None] | None = None
        self.on_clock_change: Callable[[TableRoom], None] | None = None

    # --- queries -----------------------------------------------------------------------

    @property
    def hand(self) -> TableHand | None:
        """The hand in play or the last one played (a stud game's: a
        :class:`~omaha.game.studseats.SeatedStudHand`)."""
        return self.table.hand

    @property
    def hand_number(self) -> int:
        """The number of the current (or last) hand, 0 before the first."""
        return self.table.hands_played

    @property
    def decision(self) -> int | None:
        """The id of the decision in play (someone is to act), or None.

        It is the table's sequence number of the last event before the decision: every
        action or timeout adds an event, so no two decisions of a table share an id, and it
        is derived from what is stored (the hand's ``seq_base`` and its replayed events), so
        a restarted server asks the same decision under the same id and never reuses an id
        for another one.
        """
        game = self.game
        if game is None or game.hand.is_over or game.hand.to_act is None:
            return None
        return self.seq_base + game.hand.event_count

    @property
    def in_hand(self) -> bool:
        """Whether a hand is in play."""
        return self.table.in_hand

    def can_start(self) -> bool:
        """Whether a new hand can be dealt now: none in play, two players with chips, and
        at least two players connected (a table whose players all left waits for them)."""
        if self.table.in_hand or len(self.connected) < 2:
            return False
        try:
            self.table.deal_plan()
        except TableError:
            return False
        return True

    def free_seat(self) -> int | None:
        """The lowest free seat, or None."""
        for seat in range(1, self.table.seat_count + 1):
            if seat not in self.players:
                return seat
        return None

    def dealt_in(self, seat: int | None) -> bool:
        """Whether the player now at ``seat`` was dealt into the hand in play (or the last
        one): visibility goes by player, not by seat number. A newcomer on a seat freed
        between hands joined after that hand began (``joined_seq`` past the hand's
        ``seq_base``), so sees it as a spectator does: never what the previous occupant
        held, folded cards included."""
        hand = self.table.hand
        record = self.players.get(seat) if seat is not None else None
        return hand is not None and record is not None and seat in hand.seats \
            and record.joined_seq <= self.seq_base

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """``seat``'s view of the hand with the clock (a spectator's if its player was not
        dealt in, see :meth:`dealt_in`, or None): never a hole card the player may not see."""
        hand = self.table.hand
        if hand is None:
            return None
        if not self.dealt_in(seat):
            seat = None
        now = self.arena.now()
        if isinstance(hand, SeatedStudHand):
            return self._stud_view(hand, seat, now)
        if self.game is not None and self.game.hand is hand:
            if seat is not None and seat in hand.seats:
                return self.game.view(seat, now=now).to_dict()
            return ClockedView(hand.view(None), self.game.clock.view(now)).to_dict()
        from omaha.game.clock import ActionClock
        return ClockedView(hand.view(seat if seat is not None and seat in hand.seats else None),
                           ActionClock(self.arena.clock_config).view(now)).to_dict()

    def _clock(self, hand: TableHand, now: int) -> dict[str, Any]:
        """The clock of ``hand`` (a stopped one when it is not on the clock)."""
        if self.game is not None and self.game.hand is hand:
            return self.game.clock.view(now).to_dict()
        from omaha.game.clock import ActionClock
        return ActionClock(self.arena.clock_config).view(now).to_dict()

    def _stud_view(self, hand: SeatedStudHand, seat: int | None, now: int) -> dict[str, Any]:
        """A stud hand's view for ``seat`` (dealt in, or None: a spectator) with the clock:
        up cards of everyone, down cards of ``seat`` alone (E2)."""
        return {**hand.view(seat if seat in hand.seats else None).to_dict(),
                "clock": self._clock(hand, now)}

    def views(self) -> dict[int, dict[str, Any] | None]:
        """Every seated player's view at once (what :meth:`view` gives each, built faster).

        The public part (a spectator's view and the clock) is built once; each seat then gets
        its own hole cards and, if it is to act, the legal actions. Tests check the result
        equals :meth:`view` for every seat.
        """
        return self._views()[1]

    def _views(self) -> tuple[dict[str, Any] | None, dict[int, dict[str, Any] | None]]:
        """The spectator's view and every seated player's (see :meth:`views`)."""
        hand = self.table.hand
        if hand is None:
            return None, {seat: None for seat in self.players}
        now = self.arena.now()
        if isinstance(hand, SeatedStudHand):
            return self._stud_view(hand, None, now), {
                seat: self._stud_view(hand, seat if self.dealt_in(seat) else None, now)
                for seat in self.players}
        clock = self._clock(hand, now)
        public = hand.view(None).to_dict()
        public["clock"] = clock
        to_act = hand.to_act
        legal = hand.legal_actions().to_dict() if to_act is not None else None
        index = {seat: i for i, seat in enumerate(hand.seats)}
        out: dict[int, dict[str, Any] | None] = {}
        for seat in self.players:
            i = index.get(seat)
            if i is None or not self.dealt_in(seat):
                out[seat] = public
                continue
            mine = dict(public)
            mine["seat"] = seat
            players = list(public["players"])
            if players[i]["cards"] is None:
                players[i] = {**players[i], "cards": format_cards(hand.hole_cards(seat))}
            mine["players"] = players
            mine["legal"] = legal if to_act == seat else None
            out[seat] = mine
        return public, out

    # --- persistence -------------------------------------------------------------------

    def _save(self, *, seat: SeatRecord | None = None, finished: FinishedHand | None = None,
              ledger: tuple[LedgerEntry, ...] = (), cash_outs: tuple[CashOut, ...] = ()) -> None:
        self.arena.storage.save_table(self.number, self.table.snapshot(), seq_base=self.seq_base,
                                      seat=seat, finished=finished, ledger=ledger,
                                      cash_outs=cash_outs)

    def _record(self, seat: int, action: str, to: int | None = None,
                policy: str | None = None) -> None:
        self.arena.storage.append_action(
            self.number, ActionRecord(self.hand_number, seat, action, to, policy))

    # --- announcing --------------------------------------------------------------------

    def announce(self) -> None:
        """Number the hand's new events and send every seat (and the spectators) its update."""
        hand = self.table.hand
        items: list[tuple[int, dict[str, Any]]] = []
        current = self.log.current
        if hand is not None and current is not None and current.hand == self.hand_number \
                and hand.event_count > self._numbered:
            fresh = [event.to_dict() for event in hand.events[self._numbered:]]
            items = self.log.extend(fresh)
            self._numbered = hand.event_count
        public, views = self._views()
        names = self.names()
        for seat in self.players:
            self.arena.emit(self, seat, self.update(seat, items, views[seat], names))
        if self.spectators and self.arena.emit_public is not None:
            self.arena.emit_public(self, self.update(None, items, public, names))

    def names(self) -> dict[str, str]:
        """The name each seated player gave at ``join``, by seat number (a JSON object's
        string keys): what every ``update`` carries, for players and spectators alike."""
        return {str(seat): record.name for seat, record in sorted(self.players.items())}

    def update(self, seat: int | None, items: list[tuple[int, dict[str, Any]]],
               view: dict[str, Any] | None | bool = True,
               names: dict[str, str] | None = None) -> dict[str, Any]:
        """The ``update`` message of ``items`` (numbered omniscient events) for ``seat``
        (``view`` as built by :meth:`views`, or True to build it; ``names`` as
        :meth:`names`, built if None); None: a spectator."""
        joined = self.players[seat].joined_seq if seat is not None and seat in self.players \
            else 0
        return {"type": "update", "table": self.number, "hand": self.hand_number,
                "events": [numbered(seq, self.hand_number, event, seat)
                           for seq, event in items if seq > joined],
                "view": self.view(seat) if view is True else view,
                "decision": self.decision, "names": self.names() if names is None else names}

    def history(self, seat: int | None, before: int | None, limit: int) -> dict[str, Any]:
        """The ``history`` message: up to ``limit`` finished hands numbered below ``before``
        (None: the newest), newest first, as ``seat`` may see them (None: a spectator).

        A seat sees its own hole cards only in the hands its player was dealt into (joined
        before the hand began, as :meth:`dealt_in` rules for the hand in play); everyone
        sees the cards shown at showdown and nobody a burn card (``event_for_seat``). Each
        hand names its players as its stored history does (the names when it was played).
        """
        stored = self.arena.storage.recent_hands(self.number, before_hand=before,
                                                 limit=limit + 1)
        record = self.players.get(seat) if seat is not None else None
        hands = []
        for finished in stored[:limit]:
            viewer = seat if record is not None and record.joined_seq <= finished.seq_base \
                else None
            hands.append({"hand": finished.hand, "seq_base": finished.seq_base,
                          "names": stored_names(finished.phh),   # as _finish wrote them
                          "events": [event_for_seat(e, viewer) for e in finished.events]})
        more = len(stored) > limit and hands
        return {"type": "history", "table": self.number, "hands": hands,
                "before": hands[-1]["hand"] if more else None}

    def resume_items(self, seat: int | None,
                     last_seq: int) -> tuple[list[dict[str, Any]], bool]:
        """The stream items after ``last_seq`` for ``seat`` (None: a spectator) and whether
        some were skipped."""
        start = last_seq if seat is None else max(last_seq, self.players[seat].joined_seq)
        items = self.log.since(start, seat=seat)
        if items is not None:
            return items, False
        current = self.log.current
        assert current is not None
        # read in bounded pages, at most RESUME_HANDS hands (a client further behind gets
        # a gap): never the table's whole history, whatever its age
        stored = list(self.arena.storage.hand_events(
            self.number, after_seq=start, before_seq=current.base, limit=RESUME_HANDS))
        gap = bool(stored) and stored[0].base > start
        if not stored or len(stored) >= RESUME_HANDS:
            gap, start = True, current.base
            stored = []
        out = []
        for finished in stored:
            for i, event in enumerate(finished.events):
                if finished.base + i + 1 > start:
                    out.append(numbered(finished.base + i + 1, finished.hand, event, seat))
        tail = self.log.since(max(start, current.base), seat=seat)
        return out + (tail or []), gap

    # --- seats -------------------------------------------------------------------------

    def join(self, name: str, token: str | None = None) -> tuple[int, str]:
        """Seat a new player with the buy-in; returns (seat, token). Committed first.

        ``token`` is the client's own (see :class:`~omaha.arena.messages.Join`); by default
        one is drawn from :mod:`secrets`.
        """
        seat = self.free_seat()
        if seat is None:
            raise ProtocolError("table_full", f"table {self.number} has no free seat")
        token = token if token is not None else secrets.token_urlsafe(32)
        before = self.table.snapshot()
        self.table.sit(seat, stack=self.arena.settings.buy_in, name=name)
        record = SeatRecord(self.number, seat, name, hash_token(token), self.log.last_seq)
        try:
            self._save(seat=record, ledger=(LedgerEntry(
                self.number, seat, self.arena.settings.buy_in, "buy_in", self.hand_number + 1),))
        except Exception:
            self.table = Table.restore(before)   # not stored: not seated
            raise
        self.players[seat] = record
        self.connected.add(seat)
        return seat, token

    def leave(self, seat: int) -> int | None:
        """``seat`` stands up; returns the chips cashed out, or None if it is in the hand in
        play: then it plays the hand out (its connection may keep acting; if it drops, D3
        and D2 apply as to anyone) and is cashed out when the hand ends. Committed first.

        The cash-out frees the seat, kills its token and writes the chips paid out in the
        same transaction; the seat's connection then gets a ``left`` message (via ``emit``).
        """
        if seat not in self.players:
            raise ProtocolError("bad_token", f"seat {seat} is not taken")
        token_hash = self.players[seat].token_hash
        self._fire_due()   # a hand the clock already ended frees the seat at once
        if seat not in self.players:   # it was leaving, and that hand just ended
            out = self.arena.storage.cash_out(token_hash)
            assert out is not None
            return out.amount
        game = self.game
        if game is not None and not game.hand.is_over and seat in game.hand.seats:
            if seat not in self.leaving:
                self.arena.storage.mark_leaving(self.number, seat)
                self.leaving.add(seat)
            return None
        before = self.table.snapshot()
        out = self._cash_out(seat)
        try:
            self._save(cash_outs=(out,))
        except Exception:
            self.table = Table.restore(before)   # not stored: still seated
            raise
        self._free(out)
        return out.amount

    def _cash_out(self, seat: int) -> CashOut:
        """Take ``seat``'s player off the table (not yet stored)."""
        record = self.players[seat]
        amount = self.table.leave(seat)
        return CashOut(self.number, seat, record.name, record.token_hash, amount,
                       self.hand_number + 1)

    def _free(self, out: CashOut) -> None:
        """After the cash-out is stored: tell the seat, forget it and its token."""
        self.arena.emit(self, out.seat, {"type": "left", "table": self.number, "seat": out.seat,
                                         "amount": out.amount})
        del self.players[out.seat]
        self.connected.discard(out.seat)
        self.leaving.discard(out.seat)
        self.arena.forget_token(out.token_hash)

    def disconnect(self, seat: int) -> None:
        """``seat``'s connection closed: its clock keeps running (D3)."""
        self.connected.discard(seat)
        game = self.game
        if game is not None and seat in game.hand.seats and game.clock.is_connected(seat):
            self._fire_due()
            if game is self.game and not game.hand.is_over:
                game.disconnect(seat, now=self.arena.now())
                self._after_change()

    def reconnect(self, seat: int) -> None:
        """``seat`` is back (D3: 20 s more on a running action, once)."""
        self.connected.add(seat)
        game = self.game
        if game is not None and seat in game.hand.seats and not game.clock.is_connected(seat):
            self._fire_due()
            if game is self.game and not game.hand.is_over:
                game.reconnect(seat, now=self.arena.now())
                self._after_change()

    # --- play --------------------------------------------------------------------------

    def start_hand(self) -> None:
        """Deal the next hand (committed, then announced); nothing if it cannot start."""
        if not self.can_start():
            return
        base = self.log.last_seq
        before = self.table.snapshot()
        hand = self.table.start_hand()
        self.seq_base = base
        try:
            self._save()
        except Exception:
            self.table = Table.restore(before)
            raise
        self.log.start_hand(hand=self.hand_number, base=base)
        self._numbered = 0
        self.game = ClockedHand(hand, now=self.arena.now(), config=self.arena.clock_config,
                                disconnected={s for s in hand.seats if s not in self.connected})
        self._after_change()

    def act(self, seat: int, message: Act) -> None:
        """``seat`` does ``message.action``: committed, then announced; refused otherwise.

        A refusal raises :class:`ProtocolError` and changes nothing (but timeouts that fell
        due before the action still apply, D2).
        """
        if message.seat is not None and message.seat != seat:
            raise ProtocolError("not_your_seat", f"this connection plays seat {seat}, "
                                f"not seat {message.seat}", rule="B1")
        if message.hand is not None and message.hand != self.hand_number:
            raise ProtocolError("stale_hand", f"hand {message.hand} is over; hand "
                                f"{self.hand_number} is in play")
        late = [t for t in self._fire_due() if t.seat == seat]
        if late:   # meant for the decision that expired, even if seat is to act again (D2)
            raise ProtocolError("illegal_action", f"seat {seat}'s time ran out at "
                                f"{late[-1].at_ms} ms ({late[-1].action.value}); the action "
                                "came too late", rule="D2")
        game = self.game
        expected = self.decision
        if message.decision is not None and message.decision != expected:
            # a late or repeated answer: never applied to the decision now in play
            now = "no decision is in play" if game is None or expected is None else \
                f"expected decision {expected} (seat {game.hand.to_act} to act)"
            raise ProtocolError("stale_decision", f"decision {message.decision} is not the "
                                f"one in play: {now}; nothing was changed")
        if game is None or game.hand.is_over:
            raise ProtocolError("no_hand", "no hand is in play")
        if seat not in game.hand.seats:
            raise ProtocolError("not_dealt_in", f"seat {seat} is not dealt into this hand")
        try:
            game.act(seat, message.action, to=message.to, now=self.arena.now())
        except OmahaError as exc:
            raise ProtocolError("illegal_action", str(exc), rule=getattr(exc, "rule", None)) \
                from None
        self._record(seat, message.action, message.to)
        self._after_change()

    def on_timeouts(self, fired: list[TimeRanOut]) -> None:
        """The clock driver fired ``fired``: commit each, then announce."""
        for timeout in fired:
            self._record(timeout.seat, "timeout", policy=self.arena.clock_config.policy.value)
        self._after_change()

    def _fire_due(self) -> list[TimeRanOut]:
        game = self.game
        if game is None or game.hand.is_over:
            return []
        fired = game.advance(self.arena.now())
        if fired:
            self.on_timeouts(fired)
        return fired

    def _after_change(self) -> None:
        game = self.game
        if game is not None and game.hand.is_over:
            self._finish()
        else:
            self.announce()
            if self.on_clock_change is not None:
                self.on_clock_change(self)

    def _finish(self) -> None:
        """The hand is over: store it with the new table state, announce, top up the busted."""
        hand = self.table.hand
        assert hand is not None
        names = {s: p.name or f"seat {s}" for s, p in ((i.seat, i) for i in self.table.players())}
        phh = finished_phh(hand, names, {"table": self.number, "hand": self.hand_number})
        events = [event.to_dict() for event in hand.events]
        finished = FinishedHand(self.number, self.hand_number, self.seq_base, events, phh)
        cash_outs = tuple(self._cash_out(seat) for seat in sorted(self.leaving)
                          if seat in self.players)
        ledger = []
        if self.arena.settings.rebuy:
            for seat, chips in self.table.stacks.items():
                if chips == 0:
                    self.table.rebuy(seat, self.arena.settings.buy_in)
                    ledger.append(LedgerEntry(self.number, seat, self.arena.settings.buy_in,
                                              "rebuy", self.hand_number + 1))
        self._save(finished=finished, ledger=tuple(ledger), cash_outs=cash_outs)
        self.game = None
        self.announce()    # the leavers see the end of their last hand, then ``left``
        for out in cash_outs:
            self._free(out)
        if self.on_clock_change is not None:
            self.on_clock_change(self)
        if self.on_hand_over is not None:
            self.on_hand_over(self)

    # --- restart -----------------------------------------------------------------------

    @classmethod
    def restore(cls, arena: Host, record: TableRecord, seats: list[SeatRecord],
                leaving: frozenset[int] = frozenset()) -> TableRoom:
        """The room a stored record describes, its hand replayed to the last action
        (``leaving``: the seats marked leaving, freed if that hand is over)."""
        try:
            table = Table.restore(record.snapshot)
        except OmahaError as exc:
            raise StorageError(f"table {record.table}: {exc}") from None
        room = cls(arena, record.table, table, record.seq_base)
        for seat in seats:
            room.players[seat.seat] = seat
        room.leaving = {seat for seat in leaving if seat in room.players}
        hand = table.hand
        policy = arena.clock_config.policy
        for action in record.actions:
            if hand is None or action.hand != table.hands_played:
                raise StorageError(f"table {record.table}: action for hand {action.hand} but "
                                   f"hand {table.hands_played} is stored")
            try:
                if action.action == "timeout":
                    hand.timeout(seat=action.seat, policy=TimeoutPolicy(action.policy or
                                                                          policy.value))
                elif action.to is not None:
                    hand.bet_or_raise(action.to, seat=action.seat)
                else:
                    getattr(hand, action.action)(seat=action.seat)
            except (OmahaError, AttributeError, TypeError, ValueError) as exc:
                raise StorageError(f"table {record.table}: stored action {action} does not "
                                   f"replay: {exc}") from None
        for finished in arena.storage.finished_hands(record.table,
                                                     after_seq=max(0, record.seq_base - 1)):
            if finished.hand < table.hands_played:
                room.log.add_finished(HandEvents(finished.hand, finished.seq_base,
                                                 finished.events))
        if hand is not None:
            events = [event.to_dict() for event in hand.events]
            room.log.add_finished(HandEvents(table.hands_played, record.seq_base, events))
            room._numbered = len(events)
            if not hand.is_over:
                room.game = ClockedHand(hand, now=arena.now(), config=arena.clock_config,
                                        disconnected=set(hand.seats))
            else:
                room._sync_finished(hand)
        room.settle_leaving()
        return room

    def settle_leaving(self) -> None:
        """After a restart: free the seats marked leaving that are no longer in a hand."""
        game = self.game
        for seat in sorted(self.leaving):
            if game is None or game.hand.is_over or seat not in game.hand.seats:
                self.leave(seat)

    def _sync_finished(self, hand: TableHand) -> None:
        """A crash after the last action of a hand but before it was stored as finished."""
        stored = any(f.hand == self.hand_number for f in self.arena.storage.finished_hands(
            self.number, after_seq=max(0, self.seq_base - 1)))
        if not stored:
            self._finish()
