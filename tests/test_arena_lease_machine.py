"""A Hypothesis state machine over two arena processes sharing one database (issue 24).

Two :class:`Arena` objects on one SQLite file stand for two ``omaha serve`` processes. Rules
seat players, deal, act, and move tables between them (a claim by the other process, as
after a lease ran out), and let a process that lost a table go on acting on it as a paused
process would. Invariants, after every step:

* every chip is accounted for (:func:`~omaha.arena.export.check_conservation`), and hands are
  numbered without a hole or a repeat;
* a table is played by the process whose epoch the database holds: its room's state is the
  state the database restores (snapshot plus actions), so nothing the other did is lost;
* a write by a process that lost the table is refused (:class:`FencedError`) and changes
  nothing in the database.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from omaha.arena.export import check_conservation
from omaha.arena.house import Arena
from omaha.arena.messages import Act
from omaha.arena.records import FencedError
from omaha.arena.room import TableRoom
from omaha.arena.settings import ArenaSettings
from omaha.arena.storage import SqliteStorage
from omaha.game.table import Table

TABLES = 2
SETTINGS = ArenaSettings(tables=TABLES, seats=3, buy_in=40)


def stored_state(storage: SqliteStorage, table: int) -> tuple[int, int, dict[int, int]]:
    """(hands played, events of the hand in play, stacks) as the database restores it."""
    record = storage.table(table)
    assert record is not None
    restored = Table.restore(record.snapshot)
    hand = restored.hand
    for action in record.actions:
        assert hand is not None
        if action.to is not None:
            hand.bet_or_raise(action.to, seat=action.seat)
        else:
            getattr(hand, action.action)(seat=action.seat)
    return restored.hands_played, hand.event_count if hand is not None else 0, restored.stacks


def room_state(room: TableRoom) -> tuple[int, int, dict[int, int]]:
    hand = room.table.hand
    return room.hand_number, hand.event_count if hand is not None else 0, room.table.stacks


def rows(storage: SqliteStorage) -> tuple[object, ...]:
    db = storage._db
    return tuple(tuple(db.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall())
                 for name in ("tables", "actions", "seats", "hands", "ledger", "leaving"))


class TwoProcesses(RuleBasedStateMachine):
    @initialize()
    def start(self) -> None:
        import os
        import tempfile
        self.folder = tempfile.mkdtemp(prefix="omaha-leases-")
        path = os.path.join(self.folder, "arena.sqlite")
        self.arenas = [Arena.open(SqliteStorage(path), SETTINGS, emit=lambda *a: None,
                                  now=lambda: 0, owner=f"p{i}", url=f"ws://p{i}",
                                  max_tables=TABLES if i == 0 else 0, force=False)
                       for i in range(2)]
        self.arenas[1].max_tables = TABLES
        self.rng = random.Random(0)

    def teardown(self) -> None:
        import shutil
        for arena in getattr(self, "arenas", []):
            arena.storage.close()
        if hasattr(self, "folder"):
            shutil.rmtree(self.folder, ignore_errors=True)

    def owner(self, table: int) -> Arena:
        """The process whose epoch the database holds for ``table``."""
        lease = next(x for x in self.arenas[0].storage.leases() if x.table == table)
        return next(a for a in self.arenas if a.owner == lease.owner)

    @rule(table=st.integers(1, TABLES))
    def join(self, table: int) -> None:
        arena = self.owner(table)
        room = arena.rooms.get(table)
        while room is not None and room.free_seat() is not None and len(room.players) < 2:
            arena.join(f"p{len(room.players)}", table=table)   # two players: a game

    @rule(table=st.integers(1, TABLES))
    def deal(self, table: int) -> None:
        room = self.owner(table).rooms.get(table)
        if room is not None:
            room.start_hand()

    @rule(table=st.integers(1, TABLES), seed=st.integers(0, 2**16))
    def act(self, table: int, seed: int) -> None:
        room = self.owner(table).rooms.get(table)
        if room is None or room.game is None or room.hand.to_act is None:
            return
        legal = room.hand.legal_actions()
        choices = [name for name in ("fold", "check", "call") if getattr(legal, f"can_{name}")]
        if legal.can_show:
            choices = ["show"]
        room.act(room.hand.to_act, Act(random.Random(seed).choice(choices)))
        event("an action by the owner")

    @rule(table=st.integers(1, TABLES), taker=st.integers(0, 1))
    def take_over(self, table: int, taker: int) -> None:
        """``taker`` claims the table (its lease ran out at the other, say)."""
        arena, holder = self.arenas[taker], self.owner(table)
        before = room_state(holder.rooms[table]) if table in holder.rooms else None
        room = arena.claim(table, force=True)
        assert room is not None
        # the hand in play resumes where the database has it
        assert room_state(room) == stored_state(arena.storage, table)
        if before is not None:
            assert room_state(room) == before
        for seat in list(room.players):   # the bots resume at the new owner
            room.reconnect(seat)
        if room.game is not None:
            event("a hand in play moved")

    @rule(table=st.integers(1, TABLES), seed=st.integers(0, 2**16))
    def stale_process_acts(self, table: int, seed: int) -> None:
        """The process that lost the table wakes up and tries to play on: refused."""
        holder = self.owner(table)
        for arena in self.arenas:
            room = arena.rooms.get(table)
            if arena is holder or room is None:
                continue
            before = rows(arena.storage)
            with pytest.raises(FencedError):
                if room.game is not None and room.hand.to_act is not None:
                    room.act(room.hand.to_act, Act("fold"))
                else:
                    room.start_hand() if room.can_start() else room._save()
            assert rows(arena.storage) == before
            event("a stale process was fenced " + ("mid-hand" if room.game else "between hands"))
            arena.drop(table)   # what the server does with a fenced table

    @rule(which=st.integers(0, 1))
    def renew(self, which: int) -> None:
        arena = self.arenas[which]
        for room in arena.renew():
            assert self.owner(room.number) is not arena

    @invariant()
    def chips_are_accounted_for(self) -> None:
        if hasattr(self, "arenas"):
            assert check_conservation(self.arenas[0].storage) == []

    @invariant()
    def the_owner_plays_what_the_database_holds(self) -> None:
        for table in range(1, TABLES + 1) if hasattr(self, "arenas") else ():
            room = self.owner(table).rooms.get(table)
            assert room is not None
            assert room_state(room) == stored_state(self.arenas[0].storage, table)


TwoProcesses.TestCase.settings = settings(max_examples=60, stateful_step_count=50,
                                          deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
TestTwoProcesses = TwoProcesses.TestCase
