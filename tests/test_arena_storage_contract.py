"""The arena's storage contract (issue 24), run against both storages: SQLite and PostgreSQL.

Every test takes ``any_storage_url`` (``tests/postgres_server.py``): a SQLite file, or a fresh
database on a throwaway PostgreSQL server (skipped where none starts, unless
``OMAHA_REQUIRE_POSTGRES=1``). A second storage object opened on the same database stands
for a second server process: its own connection, its own claims.

What is checked, per :class:`omaha.arena.records.Storage`: settings (the first
``init_settings`` wins), ``create_table`` once, tables with their actions in order,
``save_table`` as one transaction (a cash-out of a missing seat rolls everything back),
leaving seats and cash-outs, seats and ledger, finished hands read in pages, hand events,
the newest hands below a number (``recent_hands``),
leases (claim, renew, release, the lobby) and fencing (a storage that lost a table writes
nothing), and the schema (newer versions and foreign databases refused, reopening keeps
everything).
"""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from omaha.arena.records import (
    ActionRecord,
    CashOut,
    FencedError,
    FinishedHand,
    LedgerEntry,
    SeatRecord,
    StorageError,
)
from omaha.arena.storage import SqliteStorage
from omaha.config import OMAHA_HILO, GameConfig
from omaha.game.table import Table

LONG = 60_000   # a lease that outlives any test


def is_postgres(url):
    return url.startswith(("postgresql://", "postgres://"))


def open_url(url):
    """A new storage object (a new connection) on the database ``url`` names."""
    if is_postgres(url):
        from omaha.arena.postgres import PostgresStorage

        return PostgresStorage(url)
    return SqliteStorage(url)


def execute_sql(url, *statements):
    """Run statements on the database behind the storage's back; the last one's rows."""
    if is_postgres(url):
        import psycopg

        with psycopg.connect(url, autocommit=True) as db:
            rows = None
            for statement in statements:
                cursor = db.execute(statement)
                rows = cursor.fetchall() if cursor.description else cursor.rowcount
            return rows
    db = sqlite3.connect(url, isolation_level=None)
    try:
        rows = None
        for statement in statements:
            cursor = db.execute(statement)
            rows = cursor.fetchall() if cursor.description else cursor.rowcount
        return rows
    finally:
        db.close()


def user_tables(url):
    if is_postgres(url):
        rows = execute_sql(url, "SELECT tablename FROM pg_tables "
                                "WHERE schemaname = current_schema()")
    else:
        rows = execute_sql(url, "SELECT name FROM sqlite_master WHERE type='table' "
                                "AND name NOT LIKE 'sqlite_%'")
    return sorted(name for (name,) in rows)


@pytest.fixture
def opener(any_storage_url):
    """Opens storage objects on the test's database (each one another "process"); closes
    them all after the test."""
    opened = []

    def open_one():
        store = open_url(any_storage_url)
        opened.append(store)
        return store

    open_one.url = any_storage_url
    yield open_one
    for store in opened:
        store.close()


@pytest.fixture
def store(opener):
    return opener()


def snapshot(seed=0, stacks=(100, 200)):
    """A real table snapshot (what the arena stores), different for different seeds."""
    table = Table(GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO),
                  seats=6, rng=random.Random(seed))
    for seat, stack in enumerate(stacks, start=1):
        table.sit(seat, stack=stack)
    return table.snapshot()


def events(base, count=3):
    return [{"seq": base + i + 1, "type": "action", "n": i} for i in range(count)]


def finished(table, hand, base, count=3):
    return FinishedHand(table, hand, base, events(base, count), f"hand = {hand}\n")


def claimed(store, *tables, owner="p1", url="ws://p1"):
    for table in tables:
        epoch = store.claim(table, owner, url, LONG)
        assert epoch is not None
    return store


# --- settings --------------------------------------------------------------------------------

def test_settings_start_empty_and_the_first_init_wins(opener):
    first, second = opener(), opener()
    assert first.settings() is None
    assert first.init_settings({"tables": 2, "blinds": [1, 2]}) == {"tables": 2, "blinds": [1, 2]}
    # a second process starting on the same database gets the first one's settings
    assert second.init_settings({"tables": 9}) == {"tables": 2, "blinds": [1, 2]}
    assert second.settings() == {"tables": 2, "blinds": [1, 2]}
    first.save_settings({"tables": 3})   # --reconfigure
    assert second.settings() == {"tables": 3}
    assert first.init_settings({"tables": 9}) == {"tables": 3}


# --- tables and actions ----------------------------------------------------------------------

def test_create_table_once_with_an_unclaimed_lease(store):
    snap = snapshot(1)
    assert store.table(1) is None
    assert store.create_table(1, snap, seq_base=7) is True
    assert store.create_table(1, snapshot(2), seq_base=99) is False   # changes nothing
    record = store.table(1)
    assert (record.table, record.snapshot, record.seq_base, record.actions) == (1, snap, 7, [])
    [lease] = store.leases()
    assert (lease.table, lease.owner, lease.epoch) == (1, "", 0)
    assert not lease.live
    assert store.held() == {}


def test_tables_and_actions_come_back_in_order(opener):
    store, other = opener(), opener()
    assert store.create_table(2, snapshot(2), seq_base=20)
    assert store.create_table(1, snapshot(1), seq_base=10)
    assert store.tables()[0].table == 1
    claimed(store, 1, 2)
    script = [(1, ActionRecord(1, 3, "call")), (2, ActionRecord(4, 1, "fold")),
              (1, ActionRecord(1, 4, "bet_or_raise", to=12)),
              (1, ActionRecord(1, 5, "timeout", policy="check_or_fold")),
              (2, ActionRecord(4, 2, "bet_or_raise", to=2**40))]
    for table, action in script:
        store.append_action(table, action)
    want = {t: [a for n, a in script if n == t] for t in (1, 2)}
    for reader in (store, other):   # the other connection sees the committed rows
        tables = reader.tables()
        assert [t.table for t in tables] == [1, 2]
        assert [t.seq_base for t in tables] == [10, 20]
        assert {t.table: t.actions for t in tables} == want
        assert reader.table(1).actions == want[1]
        assert reader.table(2).snapshot == snapshot(2)
        assert reader.table(3) is None


def test_save_table_replaces_the_snapshot_and_drops_the_actions_in_one_transaction(opener):
    store, other = opener(), opener()
    store.create_table(1, snapshot(1), seq_base=0)
    store.create_table(2, snapshot(2), seq_base=0)
    claimed(store, 1, 2)
    store.append_action(1, ActionRecord(1, 1, "call"))
    store.append_action(2, ActionRecord(1, 1, "fold"))
    seat = SeatRecord(1, 3, "carol", "h-carol", 0)
    hand = finished(1, 1, 0)
    buy_in = LedgerEntry(1, 3, 150, "buy_in", 2)
    store.save_table(1, snapshot(3), seq_base=3, seat=seat, finished=hand, ledger=[buy_in])
    record = other.table(1)
    assert (record.snapshot, record.seq_base, record.actions) == (snapshot(3), 3, [])
    assert other.table(2).actions == [ActionRecord(1, 1, "fold")]   # another table's stay
    assert other.seats() == [seat]
    assert other.seat_of("h-carol") == seat
    assert list(other.finished_hands()) == [hand]
    assert other.ledger() == [buy_in]
    # a save with nothing else only replaces the snapshot
    store.append_action(1, ActionRecord(2, 3, "call"))
    store.save_table(1, snapshot(4), seq_base=6)
    record = other.table(1)
    assert (record.snapshot, record.seq_base, record.actions) == (snapshot(4), 6, [])
    assert other.seats() == [seat] and other.ledger() == [buy_in]


def test_leaving_seats_are_cashed_out_with_their_ledger_row(opener):
    store, other = opener(), opener()
    store.create_table(1, snapshot(1), seq_base=0)
    store.create_table(2, snapshot(2), seq_base=0)
    claimed(store, 1, 2)
    ann, bob = SeatRecord(1, 1, "ann", "h-ann", 0), SeatRecord(1, 2, "bob", "h-bob", 0)
    dan = SeatRecord(2, 1, "dan", "h-dan", 5)
    store.save_table(1, snapshot(1), seq_base=0, seat=ann,
                     ledger=[LedgerEntry(1, 1, 100, "buy_in", 1)])
    store.save_table(1, snapshot(1), seq_base=0, seat=bob,
                     ledger=[LedgerEntry(1, 2, 200, "buy_in", 1)])
    store.save_table(2, snapshot(2), seq_base=0, seat=dan,
                     ledger=[LedgerEntry(2, 1, 300, "buy_in", 1)])
    store.mark_leaving(1, 2)
    store.mark_leaving(1, 2)   # twice is once
    store.mark_leaving(2, 1)
    assert other.leaving() == [(1, 2), (2, 1)]
    assert other.leaving(1) == [(1, 2)]
    assert other.leaving(3) == []
    out = CashOut(1, 2, "bob", "h-bob", 230, 4)
    rebuy = LedgerEntry(1, 1, 50, "rebuy", 4)
    store.save_table(1, snapshot(5), seq_base=9, finished=finished(1, 3, 6), ledger=[rebuy],
                     cash_outs=[out])
    assert other.leaving() == [(2, 1)]
    assert other.seats() == [ann, dan]
    assert other.seats(1) == [ann] and other.seats(2) == [dan] and other.seats(3) == []
    assert other.seat_of("h-bob") is None
    assert other.cash_out("h-bob") == out
    assert other.cash_out("h-ann") is None
    assert other.cash_outs() == [out] and other.cash_outs(1) == [out] and other.cash_outs(2) == []
    # the cash-out's ledger row comes after the save's own ledger entries
    assert other.ledger(1) == [LedgerEntry(1, 1, 100, "buy_in", 1),
                               LedgerEntry(1, 2, 200, "buy_in", 1), rebuy,
                               LedgerEntry(1, 2, 230, "cash_out", 4)]
    assert other.ledger(2) == [LedgerEntry(2, 1, 300, "buy_in", 1)]
    assert [e.table for e in other.ledger()] == [1, 1, 2, 1, 1]   # in the order written
    # chips in = chips at the tables + chips out, per the ledger
    out2 = CashOut(2, 1, "dan", "h-dan", 300, 2)
    store.save_table(2, snapshot(2), seq_base=0, cash_outs=[out2])
    assert other.cash_outs() == [out, out2]
    assert other.leaving() == []
    # the freed seat can be taken again, by a new token
    bob2 = SeatRecord(1, 2, "bob", "h-bob-2", 9)
    store.save_table(1, snapshot(5), seq_base=9, seat=bob2)
    assert other.seat_of("h-bob-2") == bob2 and other.cash_out("h-bob") == out


def test_a_cash_out_of_a_missing_seat_rolls_everything_back(opener):
    store, other = opener(), opener()
    store.create_table(1, snapshot(1), seq_base=0)
    claimed(store, 1)
    ann = SeatRecord(1, 1, "ann", "h-ann", 0)
    store.save_table(1, snapshot(1), seq_base=2, seat=ann,
                     ledger=[LedgerEntry(1, 1, 100, "buy_in", 1)])
    store.mark_leaving(1, 1)
    store.append_action(1, ActionRecord(1, 1, "call"))
    before = (other.table(1), other.seats(), other.ledger(), other.cash_outs(), other.leaving(),
              list(other.finished_hands()))
    with pytest.raises(StorageError) as caught:
        store.save_table(1, snapshot(9), seq_base=50,
                         seat=SeatRecord(1, 4, "eve", "h-eve", 3),
                         finished=finished(1, 1, 2),
                         ledger=[LedgerEntry(1, 4, 80, "buy_in", 2)],
                         cash_outs=[CashOut(1, 1, "ann", "h-ann", 100, 2),   # exists
                                    CashOut(1, 6, "nobody", "h-none", 5, 2)])   # does not
    assert not isinstance(caught.value, FencedError)   # refused for the seat, not the lease
    after = (other.table(1), other.seats(), other.ledger(), other.cash_outs(), other.leaving(),
             list(other.finished_hands()))
    assert after == before
    assert after[0].actions == [ActionRecord(1, 1, "call")]
    # a wrong token for an existing seat is refused the same way
    with pytest.raises(StorageError):
        store.save_table(1, snapshot(9), seq_base=50,
                         cash_outs=[CashOut(1, 1, "ann", "h-not-ann", 100, 2)])
    assert other.seats() == [ann] and other.cash_outs() == []
    # and the storage is still usable afterwards
    store.save_table(1, snapshot(9), seq_base=50, cash_outs=[CashOut(1, 1, "ann", "h-ann", 1, 2)])
    assert other.seats() == [] and other.leaving() == []


def test_seats_of_every_table_and_the_token_index(store):
    for table in (1, 2):
        store.create_table(table, snapshot(table), seq_base=0)
    claimed(store, 1, 2)
    seats = [SeatRecord(2, 5, "e", "h5", 4), SeatRecord(1, 3, "c", "h3", 1),
             SeatRecord(1, 1, "a", "h1", 0)]
    for seat in seats:
        store.save_table(seat.table, snapshot(seat.table), seq_base=0, seat=seat)
    assert store.seats() == sorted(seats, key=lambda s: (s.table, s.seat))
    assert store.seats(1) == [seats[2], seats[1]]
    assert store.seats(2) == [seats[0]]
    assert store.seat_of("h5") == seats[0]
    assert store.seat_of("nope") is None
    # a token takes one seat: a second seat with the same token hash is refused, and the
    # whole save with it (the error's type: see the next test)
    store.append_action(1, ActionRecord(1, 1, "call"))
    with pytest.raises(Exception):   # noqa: B017
        store.save_table(1, snapshot(5), seq_base=9, seat=SeatRecord(1, 6, "x", "h1", 0),
                         ledger=[LedgerEntry(1, 6, 10, "buy_in", 1)])
    assert store.seats(1) == [seats[2], seats[1]] and store.ledger() == []
    assert store.table(1).actions == [ActionRecord(1, 1, "call")]
    assert store.table(1).seq_base == 0
    # and the storage goes on
    store.save_table(1, snapshot(5), seq_base=9, seat=SeatRecord(1, 6, "x", "h6", 0))
    assert store.seat_of("h6") == SeatRecord(1, 6, "x", "h6", 0)


def test_a_taken_seat_or_token_is_a_storage_error(store):
    store.create_table(1, snapshot(1), seq_base=0)
    claimed(store, 1)
    store.save_table(1, snapshot(1), seq_base=0, seat=SeatRecord(1, 1, "a", "h1", 0))
    with pytest.raises(StorageError):
        store.save_table(1, snapshot(1), seq_base=0, seat=SeatRecord(1, 2, "b", "h1", 0))
    with pytest.raises(StorageError):
        store.save_table(1, snapshot(1), seq_base=0, seat=SeatRecord(1, 1, "c", "h3", 0))


# --- finished hands --------------------------------------------------------------------------

@pytest.fixture
def hands(store):
    """Table 1 with 70 finished hands of 3 events each (more than two pages of 32), table 2
    with 5: hand ``h`` of table 1 has events ``3h-2 .. 3h`` (seq_base ``3h-3``)."""
    store.create_table(1, snapshot(1), seq_base=0)
    store.create_table(2, snapshot(2), seq_base=0)
    claimed(store, 1, 2)
    for hand in range(1, 71):
        store.save_table(1, snapshot(1), seq_base=3 * hand, finished=finished(1, hand, 3 * hand - 3))
        if hand <= 5:
            store.save_table(2, snapshot(2), seq_base=2 * hand,
                             finished=finished(2, hand, 2 * hand - 2, count=2))
    return store


def test_finished_hands_are_read_in_order_across_pages(hands):
    every = list(hands.finished_hands())
    assert [(h.table, h.hand) for h in every] == ([(1, n) for n in range(1, 71)] +
                                                  [(2, n) for n in range(1, 6)])
    assert every[40] == finished(1, 41, 120)
    assert [h.hand for h in hands.finished_hands(1)] == list(range(1, 71))
    assert list(hands.finished_hands(2)) == [finished(2, n, 2 * n - 2, 2) for n in range(1, 6)]
    assert list(hands.finished_hands(3)) == []


def test_finished_hands_after_a_sequence_number(hands):
    # hand h's last event is 3h: after 100 are the hands from 34 (last 102) on
    assert [h.hand for h in hands.finished_hands(1, after_seq=100)] == list(range(34, 71))
    assert [h.hand for h in hands.finished_hands(1, after_seq=99)] == list(range(34, 71))
    assert [h.hand for h in hands.finished_hands(1, after_seq=98)] == list(range(33, 71))
    assert list(hands.finished_hands(1, after_seq=210)) == []
    # without a table: every table's hands past that number (table 2's last event is 10)
    got = [(h.table, h.hand) for h in hands.finished_hands(after_seq=6)]
    assert got == [(1, n) for n in range(3, 71)] + [(2, 4), (2, 5)]


def test_hand_events_in_bounded_windows(hands):
    def window(**kw):
        return [(e.hand, e.base, e.events) for e in hands.hand_events(1, **kw)]

    every = window(after_seq=0, before_seq=10**9, limit=1000)
    assert every == [(n, 3 * n - 3, events(3 * n - 3)) for n in range(1, 71)]
    assert window(after_seq=0, before_seq=10**9, limit=40) == every[:40]   # across a page
    assert window(after_seq=0, before_seq=10**9, limit=32) == every[:32]
    assert window(after_seq=0, before_seq=10**9, limit=0) == []
    # after 100: from hand 34; first event at most 150: hand h's first event is 3h-2
    assert [h for h, _, _ in window(after_seq=100, before_seq=150, limit=100)] == \
        list(range(34, 51))
    assert [h for h, _, _ in window(after_seq=100, before_seq=150, limit=5)] == \
        list(range(34, 39))
    assert [e.hand for e in hands.hand_events(2, after_seq=4, before_seq=10**9, limit=9)] == \
        [3, 4, 5]
    assert list(hands.hand_events(3, after_seq=0, before_seq=10**9, limit=9)) == []


def test_recent_hands_newest_first_below_a_hand(hands):
    """The web client's history pages (issue 27): at most ``limit`` hands of one table
    numbered below ``before_hand``, newest first, whole (the PHH too)."""
    newest = hands.recent_hands(1, before_hand=None, limit=10)
    assert [h.hand for h in newest] == list(range(70, 60, -1))
    assert newest[0] == finished(1, 70, 207)
    assert [h.hand for h in hands.recent_hands(1, before_hand=61, limit=3)] == [60, 59, 58]
    assert [h.hand for h in hands.recent_hands(1, before_hand=3, limit=10)] == [2, 1]
    assert hands.recent_hands(1, before_hand=1, limit=10) == []
    assert [h.hand for h in hands.recent_hands(2, before_hand=None, limit=40)] == [5, 4, 3, 2, 1]
    assert hands.recent_hands(3, before_hand=None, limit=5) == []


# --- leases and fencing ----------------------------------------------------------------------

def test_claim_renew_release_and_the_lobby(opener):
    a, b = opener(), opener()
    for table in (1, 2, 3):
        a.create_table(table, snapshot(table), seq_base=0)
    assert a.claim(1, "p1", "ws://p1", LONG) == 1
    assert a.claim(2, "p1", "ws://p1", LONG) == 1
    assert a.held() == {1: 1, 2: 1}
    lobby = {lease.table: lease for lease in b.leases()}
    assert sorted(lobby) == [1, 2, 3]
    assert (lobby[1].owner, lobby[1].url, lobby[1].epoch) == ("p1", "ws://p1", 1)
    assert lobby[1].live and 0 < lobby[1].left_ms <= LONG
    assert not lobby[3].live and lobby[3].owner == "" and lobby[3].epoch == 0
    # another owner's live lease is not taken
    assert b.claim(1, "p2", "ws://p2", LONG) is None
    assert b.held() == {}
    assert b.claim(3, "p2", "ws://p2", LONG) == 1
    # renew extends the owner's leases and says which this storage still holds
    short = a.claim(1, "p1", "ws://p1", 5_000, force=True)
    assert short == 2
    assert {l.table: l.left_ms for l in b.leases()}[1] <= 5_000
    assert a.renew("p1", LONG) == {1: 2, 2: 1}
    assert {l.table: l.left_ms for l in b.leases()}[1] > 5_000
    assert b.renew("p2", LONG) == {3: 1}
    # release: some tables, then all; others may take them at once
    a.release("p1", [2])
    lobby = {lease.table: lease for lease in b.leases()}
    assert lobby[1].live and not lobby[2].live and lobby[3].live
    assert a.held() == {1: 2}
    assert b.claim(2, "p2", "ws://p2", LONG) == 2
    a.release("p1")
    assert not {l.table: l for l in b.leases()}[1].live
    assert b.claim(1, "p2", "ws://p2", LONG) == 3
    assert b.held() == {1: 3, 2: 2, 3: 1}
    assert a.renew("p1", LONG) == {}
    assert [(l.table, l.owner, l.epoch) for l in a.leases()] == [(1, "p2", 3), (2, "p2", 2),
                                                                  (3, "p2", 1)]


def test_renew_does_not_bring_back_a_released_lease(opener):
    a, b = opener(), opener()
    a.create_table(1, snapshot(1), seq_base=0)
    a.create_table(2, snapshot(2), seq_base=0)
    claimed(a, 1, 2)
    a.release("p1", [2])
    assert a.renew("p1", LONG) == {1: 1}
    assert not {l.table: l for l in b.leases()}[2].live   # nobody holds it
    assert b.claim(2, "p2", "ws://p2", LONG) == 2


def test_claim_by_force_takes_a_live_lease(opener):
    a, b = opener(), opener()
    a.create_table(1, snapshot(1), seq_base=0)
    assert a.claim(1, "p1", "ws://p1", LONG) == 1
    assert b.claim(1, "p2", "ws://p2", LONG, force=True) == 2
    assert a.renew("p1", LONG) == {}
    assert 1 not in a.held()
    assert b.held() == {1: 2}
    with pytest.raises(FencedError):
        a.append_action(1, ActionRecord(1, 1, "call"))
    assert b.table(1).actions == []


def test_a_storage_that_lost_its_table_writes_nothing(opener):
    a, b = opener(), opener()
    original = snapshot(1)
    a.create_table(1, original, seq_base=0)
    a.create_table(2, snapshot(2), seq_base=0)
    assert a.claim(1, "p1", "ws://p1", 1) == 1   # a 1 ms lease: paused past it
    assert a.claim(2, "p1", "ws://p1", LONG) == 1
    a.save_table(1, original, seq_base=0, seat=SeatRecord(1, 1, "ann", "h-ann", 0))
    time.sleep(0.05)
    assert b.claim(1, "p2", "ws://p2", LONG) == 2
    rows = (b.table(1), b.seats(), b.ledger(), b.cash_outs(), b.leaving(),
            list(b.finished_hands()))
    with pytest.raises(FencedError) as caught:
        a.save_table(1, snapshot(7), seq_base=3, seat=SeatRecord(1, 2, "bob", "h-bob", 0),
                     finished=finished(1, 1, 0), ledger=[LedgerEntry(1, 2, 50, "buy_in", 1)],
                     cash_outs=[CashOut(1, 1, "ann", "h-ann", 10, 1)])
    assert caught.value.table == 1
    with pytest.raises(FencedError):
        a.append_action(1, ActionRecord(1, 1, "call"))
    with pytest.raises(FencedError):
        a.mark_leaving(1, 1)
    assert (b.table(1), b.seats(), b.ledger(), b.cash_outs(), b.leaving(),
            list(b.finished_hands())) == rows
    assert b.table(1).snapshot == original and b.table(1).actions == []
    # the table it still holds is written as before, and the new holder writes
    a.append_action(2, ActionRecord(1, 1, "fold"))
    assert b.table(2).actions == [ActionRecord(1, 1, "fold")]
    b.append_action(1, ActionRecord(1, 1, "call"))
    b.mark_leaving(1, 1)
    assert a.table(1).actions == [ActionRecord(1, 1, "call")] and a.leaving() == [(1, 1)]
    assert a.renew("p1", LONG) == {2: 1}
    # claiming it back (once b's lease is gone) gives a new epoch, and a may write again
    b.release("p2")
    assert a.claim(1, "p1", "ws://p1", LONG) == 3
    with pytest.raises(FencedError):
        b.append_action(1, ActionRecord(1, 2, "call"))
    a.append_action(1, ActionRecord(1, 2, "check_or_call"))
    assert [x.action for x in b.table(1).actions] == ["call", "check_or_call"]


def test_of_processes_claiming_at_once_one_wins(opener):
    stores = [opener() for _ in range(4)]
    stores[0].create_table(1, snapshot(1), seq_base=0)
    barrier = threading.Barrier(len(stores))

    def claim(i):
        barrier.wait()
        return stores[i].claim(1, f"p{i}", f"ws://p{i}", LONG)

    with ThreadPoolExecutor(len(stores)) as pool:
        epochs = list(pool.map(claim, range(len(stores))))
    assert sorted(epochs, key=lambda e: e is not None) == [None, None, None, 1]
    winner = epochs.index(1)
    assert [(l.owner, l.epoch) for l in stores[0].leases()] == [(f"p{winner}", 1)]
    assert [bool(s.held()) for s in stores] == [i == winner for i in range(len(stores))]


def test_of_processes_starting_at_once_on_a_new_database_the_first_settings_win(opener):
    barrier = threading.Barrier(4)

    def start(i):
        barrier.wait()
        store = opener()   # the schema is made once, whoever comes first
        return store.init_settings({"who": i})

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(start, range(4)))
    assert got[0] in [{"who": i} for i in range(4)]
    assert got == [got[0]] * 4
    assert opener().settings() == got[0]


def test_writes_to_a_table_never_claimed_are_refused(opener):
    a, b = opener(), opener()
    a.create_table(1, snapshot(1), seq_base=0)
    assert b.claim(1, "p2", "ws://p2", LONG) == 1
    for write in (lambda: a.append_action(1, ActionRecord(1, 1, "call")),
                  lambda: a.mark_leaving(1, 1),
                  lambda: a.save_table(1, snapshot(2), seq_base=5)):
        with pytest.raises(FencedError):
            write()
    record = b.table(1)
    assert (record.snapshot, record.seq_base, record.actions) == (snapshot(1), 0, [])
    assert b.leaving() == []


# --- schema ----------------------------------------------------------------------------------

def test_reopening_keeps_everything(opener):
    a = opener()
    a.init_settings({"tables": 1})
    a.create_table(1, snapshot(1), seq_base=0)
    claimed(a, 1)
    seat = SeatRecord(1, 1, "ann", "h-ann", 0)
    a.save_table(1, snapshot(2), seq_base=3, seat=seat, finished=finished(1, 1, 0),
                 ledger=[LedgerEntry(1, 1, 100, "buy_in", 1)])
    a.append_action(1, ActionRecord(2, 1, "call"))
    a.mark_leaving(1, 1)
    a.close()
    b = opener()
    assert b.settings() == {"tables": 1}
    record = b.table(1)
    assert (record.snapshot, record.seq_base, record.actions) == \
        (snapshot(2), 3, [ActionRecord(2, 1, "call")])
    assert b.seats() == [seat] and b.leaving() == [(1, 1)]
    assert list(b.finished_hands()) == [finished(1, 1, 0)]
    assert b.ledger() == [LedgerEntry(1, 1, 100, "buy_in", 1)]
    [lease] = b.leases()
    assert (lease.owner, lease.epoch) == ("p1", 1)
    assert b.create_table(1, snapshot(3), seq_base=0) is False


def test_a_newer_schema_is_refused(opener):
    opener().close()
    assert execute_sql(opener.url, "UPDATE meta SET value = '99' WHERE key = 'schema'") == 1
    with pytest.raises(StorageError) as caught:
        opener()
    assert "99" in str(caught.value) and "3" in str(caught.value)
    # refused, not rewritten
    assert execute_sql(opener.url, "SELECT value FROM meta WHERE key = 'schema'") == [("99",)]


def test_the_current_schema_is_stamped(opener):
    opener().close()
    assert execute_sql(opener.url, "SELECT value FROM meta WHERE key = 'schema'") == [("3",)]


def test_a_database_of_something_else_is_refused(opener):
    execute_sql(opener.url, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)",
                "INSERT INTO customers VALUES (1, 'x')")
    with pytest.raises(StorageError, match="not an arena database"):
        opener()
    # and left as it was
    assert user_tables(opener.url) == ["customers"]
    assert execute_sql(opener.url, "SELECT id, name FROM customers") == [(1, "x")]


def test_open_storage_names_both_databases(any_storage_url, tmp_path):
    from omaha.arena.databases import open_storage

    first = open_storage(any_storage_url)
    try:
        assert type(first).__name__ == ("PostgresStorage" if is_postgres(any_storage_url)
                                        else "SqliteStorage")
        first.init_settings({"kind": "first"})
    finally:
        first.close()
    again = open_storage(any_storage_url if is_postgres(any_storage_url)
                         else "sqlite:///" + any_storage_url)   # sqlite:////absolute/path
    try:
        assert again.settings() == {"kind": "first"}
    finally:
        again.close()


# --- PostgreSQL only -------------------------------------------------------------------------

def test_postgres_a_lost_connection_is_a_storage_error_and_the_next_call_reconnects(
        postgres_url):
    import psycopg

    from omaha.arena.postgres import PostgresStorage

    store = PostgresStorage(postgres_url)
    try:
        store.create_table(1, snapshot(1), seq_base=0)
        assert store.claim(1, "p1", "ws://p1", LONG) == 1
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'omaha-arena' AND datname = current_database()"
            ).fetchall()
        assert killed == [(True,)]
        with pytest.raises(StorageError) as caught:
            store.append_action(1, ActionRecord(1, 1, "call"))
        assert not isinstance(caught.value, FencedError)
        # the next call reconnects, and the lease (still this storage's) still fences writes
        store.append_action(1, ActionRecord(1, 1, "call"))
        assert store.table(1).actions == [ActionRecord(1, 1, "call")]
    finally:
        store.close()


def test_postgres_a_writer_stalled_mid_transaction_does_not_hold_its_table(postgres_url):
    """A process paused inside a write (SIGSTOP, a VM stall) holds its lease row locked.
    The database ends that transaction once it has sat idle ``stall_ms``, so another
    process's claim never waits on it for long and takes the table once the lease has run
    out. Nothing of the paused write lands, and the paused process, once it runs again, is
    told its connection went and then that the table is no longer its own."""
    from omaha.arena.postgres import PostgresStorage

    stalled = PostgresStorage(postgres_url, stall_ms=400)
    taker = PostgresStorage(postgres_url, stall_ms=400)
    pool = ThreadPoolExecutor(1)
    try:
        stalled.create_table(1, snapshot(1), seq_base=0)
        assert stalled.claim(1, "p1", "ws://p1", 100) == 1
        with pytest.raises(StorageError) as caught, stalled._transaction():
            # a save_table paused half way: the lease row read FOR SHARE, a row written
            stalled._run("SELECT epoch FROM leases WHERE table_id=?" + stalled.LOCK, (1,))
            stalled._run("UPDATE tables SET seq_base=? WHERE id=?", (99, 1))
            time.sleep(0.15)   # its lease runs out; its transaction is still open
            deadline = time.monotonic() + 5
            epoch = None
            while epoch is None and time.monotonic() < deadline:
                started = time.monotonic()
                # in a thread, so that a claim stuck on the lock fails the test, not hangs it
                epoch = pool.submit(taker.claim, 1, "p2", "ws://p2", LONG).result(timeout=10)
                assert time.monotonic() - started < 2.0, "a claim hung on the paused writer"
                if epoch is None:
                    time.sleep(0.05)
            assert epoch == 2, "the table was never taken from the paused writer"
            assert taker.table(1).seq_base == 0   # the paused write has not landed
            # resumed, the paused write goes on, and learns its transaction is gone
            stalled._run("UPDATE tables SET seq_base=? WHERE id=?", (98, 1))
        assert not isinstance(caught.value, FencedError)   # the connection went
        assert taker.table(1).seq_base == 0   # and nothing of the write landed
        with pytest.raises(FencedError):   # the next call reconnects, and is fenced out
            stalled.append_action(1, ActionRecord(1, 1, "call"))
        assert taker.table(1).actions == []
        taker.append_action(1, ActionRecord(1, 1, "fold"))
        assert taker.table(1).actions == [ActionRecord(1, 1, "fold")]
    finally:
        pool.shutdown(wait=False)
        stalled.close()
        taker.close()


def test_postgres_a_claim_does_not_wait_on_a_row_another_writer_holds(postgres_url):
    """While a writer holds a lease row (here for longer than the claim is willing to
    wait), a claim gives up after ``CLAIM_WAIT_MS`` and takes nothing, so the claiming
    process is never stopped from playing its own tables; once the row is free the claim
    goes through, and the old writer is fenced out."""
    from omaha.arena.postgres import CLAIM_WAIT_MS, PostgresStorage

    slow = PostgresStorage(postgres_url, stall_ms=3_000)
    taker = PostgresStorage(postgres_url)
    pool = ThreadPoolExecutor(1)
    try:
        slow.create_table(1, snapshot(1), seq_base=0)
        assert slow.claim(1, "p1", "ws://p1", 100) == 1
        with slow._transaction():
            slow._run("SELECT epoch FROM leases WHERE table_id=?" + slow.LOCK, (1,))
            time.sleep(0.15)   # its lease runs out while it holds the row
            started = time.monotonic()
            assert pool.submit(taker.claim, 1, "p2", "ws://p2", LONG).result(timeout=10) is None
            waited = time.monotonic() - started
            assert waited < CLAIM_WAIT_MS / 1000 + 1.5, waited   # not the 3 s stall
        assert taker.claim(1, "p2", "ws://p2", LONG) == 2
        with pytest.raises(FencedError):
            slow.append_action(1, ActionRecord(1, 1, "call"))
    finally:
        pool.shutdown(wait=False)
        slow.close()
        taker.close()


def test_postgres_stall_ms_is_checked():
    from omaha.arena.postgres import PostgresStorage

    for bad in (True, 0, -5, "100", 1.5):
        with pytest.raises((StorageError, TypeError), match="stall_ms"):
            PostgresStorage("postgresql:///nowhere", stall_ms=bad)


def test_postgres_a_server_that_is_not_there_is_a_storage_error(postgres_server):
    from omaha.arena.postgres import PostgresStorage

    gone = postgres_server.replace("host=", "host=/nonexistent/")
    with pytest.raises(StorageError, match="cannot connect"):
        PostgresStorage(gone, connect_timeout=1)


# --- SQLite only -----------------------------------------------------------------------------

_SQLITE_V2 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tables (id INTEGER PRIMARY KEY, snapshot TEXT NOT NULL, seq_base INTEGER NOT NULL);
CREATE TABLE actions (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL,
    hand INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL, amount INTEGER,
    policy TEXT);
CREATE TABLE seats (table_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE, joined_seq INTEGER NOT NULL, PRIMARY KEY (table_id, seat));
CREATE TABLE hands (table_id INTEGER NOT NULL, hand INTEGER NOT NULL, seq_base INTEGER NOT NULL,
    last_seq INTEGER NOT NULL, events TEXT NOT NULL, phh TEXT NOT NULL,
    PRIMARY KEY (table_id, hand));
CREATE TABLE ledger (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL,
    seat INTEGER NOT NULL, amount INTEGER NOT NULL, kind TEXT NOT NULL,
    before_hand INTEGER NOT NULL);
CREATE TABLE leaving (table_id INTEGER NOT NULL, seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat));
CREATE TABLE cash_outs (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL,
    seat INTEGER NOT NULL, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE,
    amount INTEGER NOT NULL, before_hand INTEGER NOT NULL);
INSERT INTO meta VALUES ('schema', '2');
"""


def test_sqlite_a_version_2_file_is_upgraded_with_unclaimed_leases(tmp_path):
    import json

    from omaha.history.sealing import dumps_snapshot

    path = str(tmp_path / "old.db")
    db = sqlite3.connect(path)
    db.executescript(_SQLITE_V2)
    db.execute("INSERT INTO tables VALUES (1, ?, 4)", (dumps_snapshot(snapshot(1)),))
    db.execute("INSERT INTO actions (table_id, hand, seat, action) VALUES (1, 2, 1, 'call')")
    db.execute("INSERT INTO seats VALUES (1, 1, 'ann', 'h-ann', 0)")
    db.execute("INSERT INTO meta VALUES ('settings', ?)", (json.dumps({"tables": 1}),))
    db.commit()
    db.close()
    store = SqliteStorage(path)
    try:
        assert store.settings() == {"tables": 1}
        record = store.table(1)
        assert (record.snapshot, record.seq_base, record.actions) == \
            (snapshot(1), 4, [ActionRecord(2, 1, "call")])
        assert store.seats() == [SeatRecord(1, 1, "ann", "h-ann", 0)]
        [lease] = store.leases()
        assert (lease.table, lease.owner, lease.epoch, lease.live) == (1, "", 0, False)
        assert store.claim(1, "p1", "ws://p1", LONG) == 1
        store.append_action(1, ActionRecord(2, 2, "fold"))
        assert len(store.table(1).actions) == 2
    finally:
        store.close()
    assert execute_sql(path, "SELECT value FROM meta WHERE key = 'schema'") == [("3",)]


def test_announce_names_the_url_in_the_leases_held_and_keeps_their_epochs(opener):
    a, b = opener(), opener()
    for table in (1, 2):
        a.create_table(table, snapshot(table), seq_base=0)
    claimed(a, 1)
    assert b.claim(2, "p2", "ws://p2", LONG) == 1
    a.announce("p1", "ws://p1-bound")
    leases = {lease.table: lease for lease in b.leases()}
    assert (leases[1].url, leases[1].epoch, leases[1].owner) == ("ws://p1-bound", 1, "p1")
    assert (leases[2].url, leases[2].owner) == ("ws://p2", "p2")   # not a's lease
    a.append_action(1, ActionRecord(1, 1, "call"))                 # still a's epoch
