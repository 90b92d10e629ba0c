"""Issue 25: a Hypothesis state machine drives a served tournament's state
(:class:`omaha.arena.tournament_room.TournamentRoom`) without a network: rounds dealt, random
legal and illegal actions, time passing (timeouts, D2), players dropping and coming back
(D3), a storage write that fails, and crashes (the room dropped unsaved and opened again from
its SQLite file).

Invariants after every step: chips conserved (N1); the players seated are the players left,
each placed player placed once (N7); a refused action or a failed write changes nothing;
no player's update shows another's hole cards before the showdown; and a crash loses
nothing: the room opened again holds the same tournament and the same hands in play, at
their last stored action.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from omaha.arena.messages import Act, ProtocolError
from omaha.arena.tournament_room import TournamentRoom
from omaha.arena.tournament_store import TournamentStore
from omaha.game.clock import ClockConfig
from omaha.tournament import Level, Payouts, Structure, entry_player

STACK = 200


def structure(seats: int, late: int = 0, again: int = 0) -> Structure:
    return Structure(levels=(Level(5, 10, hands=2), Level(10, 20, hands=2),
                             Level(25, 50, hands=100)),
                     starting_stack=STACK, seats=seats, payouts=Payouts(shares=(700, 300)),
                     late_entry_levels=late, re_entries=again)


def state_of(room: TournamentRoom) -> tuple:
    """What must survive a crash: the tournament and each hand in play (its public view,
    stacks and every event, hidden cards included)."""
    tour = room.tour
    assert tour is not None
    snapshot = tour.snapshot()
    hands = {t: (live.number, live.game.hand.stacks,
                 [e.to_dict() for e in live.game.hand.events])
             for t, live in sorted(room.live.items())}
    return snapshot, hands


class RoomMachine(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 9),
                seats=st.integers(2, 6), late=st.integers(0, 2), again=st.integers(0, 1))
    def open(self, seed, players, seats, late, again):
        self.folder = tempfile.mkdtemp()
        self.path = os.path.join(self.folder, "t.db")
        self.now = 0
        self.players = [f"p{i}" for i in range(players)]
        again = again if late else 0
        self.room = TournamentRoom(TournamentStore(self.path), structure(seats, late, again),
                                   players=players, seed=seed,
                                   clock=ClockConfig(base_ms=1000, countdown_ms=1000,
                                                     reconnect_bonus_ms=500))
        for name in self.players:
            self.room.enter(name)
            self.room.connected.add(name)
        self.room.start()

    def teardown(self):
        self.room.store.close()

    # --- steps -------------------------------------------------------------------------

    def _settle(self):
        """Finish the hands that are over, end the round when none is left."""
        room = self.room
        for live in list(room.live.values()):
            if live.game.hand.is_over:
                room.finish(live)
        if not room.live and room.tour.round_open:
            room.end_round()

    @precondition(lambda self: not self.room.tour.is_over and not self.room.live)
    @rule()
    def deal(self):
        if self.room.tour.round_open:
            self.room.end_round()
        else:
            self.room.seat_waiting()   # late entries and re-entries first (N2)
            self.room.deal_round(self.now)
        self._settle()

    @precondition(lambda self: self.room.tour.late_open)
    @rule()
    def late_entry(self):
        name = f"late{len(self.players)}"
        self.room.enter(name)
        self.room.connected.add(name)
        self.players.append(name)

    @precondition(lambda self: self.room.tour.late_open and bool(self.room.tour.late_out))
    @rule(pick=st.randoms(use_true_random=False))
    def re_entry(self, pick):
        tour = self.room.tour
        busted = [entry_player(p) for group in tour.late_out for p in group]
        player = pick.choice(sorted(busted))
        if tour.entry_of(player) in tour.remaining or player in self.room.waiting:
            return
        if tour.entries_of[player] > tour.structure.re_entries:
            with pytest.raises(ProtocolError, match="re-entries"):
                self.room.re_enter(player)
        else:
            self.room.re_enter(player)

    @precondition(lambda self: bool(self.room.live))
    @rule(pick=st.randoms(use_true_random=False))
    def act(self, pick):
        live = pick.choice(sorted(self.room.live.values(), key=lambda x: x.table))
        hand = live.game.hand
        seat = hand.to_act
        if seat is None:
            return
        legal = hand.legal_actions()
        choices = ["check_or_call"]
        if legal.can_fold:
            choices.append("fold")
        if legal.min_raise_to is not None:
            choices += ["raise", "raise the most"]
        kind = pick.choice(choices)
        to = None
        if kind.startswith("raise"):
            to = legal.max_raise_to if kind == "raise the most" else \
                pick.randint(legal.min_raise_to, legal.max_raise_to)
            kind = "bet_or_raise"
        self.room.act(live.players[seat], Act(kind, to=to, decision=live.decision), self.now)
        self._settle()

    @precondition(lambda self: bool(self.room.live))
    @rule(pick=st.randoms(use_true_random=False))
    def refused_action_changes_nothing(self, pick):
        live = pick.choice(sorted(self.room.live.values(), key=lambda x: x.table))
        hand = live.game.hand
        before = state_of(self.room)
        others = [p for s, p in live.players.items() if s != hand.to_act]
        with pytest.raises(ProtocolError):
            if others and pick.random() < 0.5:   # out of turn (B1)
                self.room.act(pick.choice(others), Act("fold"), self.now)
            else:                                 # a stale decision id
                self.room.act(live.players[hand.to_act], Act("fold", decision=1), self.now)
        assert state_of(self.room) == before

    @rule(ms=st.integers(0, 3000))
    def time_passes(self, ms):
        self.now += ms
        for live in list(self.room.live.values()):
            self.room.advance(live, self.now)
        self._settle()

    @rule(pick=st.randoms(use_true_random=False))
    def drop_or_come_back(self, pick):
        player = pick.choice(self.players)
        self.room.set_connected(player, player not in self.room.connected, self.now)
        self._settle()

    @precondition(lambda self: not self.room.tour.is_over)
    @rule(pick=st.randoms(use_true_random=False))
    def a_failed_write_changes_nothing(self, pick):
        room = self.room
        before = state_of(room)
        real = room.store._db
        room.store._db = _Failing(real)
        try:
            with pytest.raises(sqlite3.OperationalError):
                if room.live:
                    live = pick.choice(sorted(room.live.values(), key=lambda x: x.table))
                    if live.game.hand.to_act is None:
                        raise sqlite3.OperationalError("nothing to act on")
                    room.act(live.players[live.game.hand.to_act], Act("check_or_call"),
                             self.now)
                elif room.tour.round_open:
                    room.end_round()
                else:
                    room.deal_round(self.now)
        finally:
            room.store._db = real
        assert state_of(room) == before

    @rule()
    def crash_and_reopen(self):
        before = state_of(self.room)
        connected = set(self.room.connected)
        entered = [p for p in self.room.waiting if p not in self.room.tour.entries_of]
        self.room.store.close()   # nothing saved on the way out: what was stored is all
        self.room = TournamentRoom(TournamentStore(self.path))
        self.room.connected |= connected
        self.room.resume_hands(self.now)
        assert state_of(self.room) == before
        # late entries were stored with their registration (re-entry requests are not:
        # the player asks again)
        assert self.room.waiting == (entered if self.room.tour.late_open else [])
        self._settle()

    # --- invariants --------------------------------------------------------------------

    @invariant()
    def chips_are_conserved(self):
        tour = self.room.tour
        assert sum(tour.stacks.values()) == STACK * len(tour.entrants)           # N1
        for live in self.room.live.values():   # a hand's chips are the stacks it dealt
            hand = live.game.hand
            dealt = sum(tour.stacks[p] for p in live.players.values())
            assert sum(hand.stacks.values()) + hand.pot_total == dealt

    @invariant()
    def everyone_is_seated_or_placed_once(self):
        tour = self.room.tour
        seated = sorted(p for seats in tour.tables.values() for p in seats.values())
        left = tour.remaining or [p for p, r in tour.places.items() if r == (1, 1)]
        assert seated == sorted(left)
        out = {p for group in tour.late_out for p in group}
        assert set(tour.places) | set(tour.remaining) | out == set(tour.entrants)
        assert {entry_player(e) for e in tour.entrants} <= set(self.players)
        if tour.is_over:
            assert sum(tour.prizes.values()) == tour.prize_pool                   # N8

    @invariant()
    def updates_hide_others_cards(self):
        for player in self.players:
            update = self.room.update(player, None, self.now)
            view = update["view"]
            if view is None or view["is_over"]:
                continue
            for p in view["players"]:
                if p["seat"] != view.get("seat"):
                    assert p["cards"] is None, (player, view)


class _Failing:
    """A connection whose writes fail (a full disk, a lost lock); reads go through."""

    def __init__(self, real):
        self.real = real

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith(("INSERT", "BEGIN", "UPDATE", "DELETE")):
            raise sqlite3.OperationalError("disk I/O error (injected)")
        return self.real.execute(sql, *args)

    def executemany(self, sql, *args):
        raise sqlite3.OperationalError("disk I/O error (injected)")

    @property
    def in_transaction(self):
        return self.real.in_transaction


RoomMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=40,
                                         deadline=None)
TestTournamentRoom = RoomMachine.TestCase


def test_a_room_refuses_to_start_twice_and_entries_after_the_start():
    room = TournamentRoom(TournamentStore(":memory:"), structure(6), players=2, seed=3)
    room.enter("a")
    with pytest.raises(ProtocolError, match="name_taken|entered already"):
        room.enter("a")
    room.enter("b")
    with pytest.raises(ProtocolError, match="full"):
        room.enter("c")
    room.start()
    with pytest.raises(ProtocolError, match="started"):
        room.enter("d")
    assert room.where("a") is not None and room.where("d") is None
