"""Table leases in the library (issue 24): two :class:`Arena` objects over one database
stand for two server processes; each plays the tables it holds, the other gets a
:class:`TableElsewhere` (the server's ``redirect``), a table whose lease runs out is taken
over with its hand in play resumed from storage, and the process that lost it is fenced.
The same runs on SQLite (two connections to one file) and on PostgreSQL."""

from __future__ import annotations

import time

import pytest

from omaha.arena.databases import open_storage
from omaha.arena.house import Arena
from omaha.arena.messages import Act
from omaha.arena.records import FencedError
from omaha.arena.room import TableElsewhere
from omaha.arena.settings import ArenaSettings

SETTINGS = ArenaSettings(tables=4, seats=2)
LEASE_MS = 1500


def open_arena(url, name, *, lease_ms=60_000, max_tables=None, force=False):
    return Arena.open(open_storage(url), SETTINGS, emit=lambda *a: None, now=lambda: 0,
                      owner=name, url=f"ws://{name}", lease_ms=lease_ms,
                      max_tables=max_tables, force=force)


@pytest.fixture
def pair(any_storage_url):
    # long enough that a loaded machine cannot let a lease run out between two steps of a
    # test, short enough that waiting it out is cheap
    a = open_arena(any_storage_url, "a", lease_ms=LEASE_MS, max_tables=2)
    b = open_arena(any_storage_url, "b", lease_ms=LEASE_MS, max_tables=4)
    yield a, b
    a.storage.close()
    b.storage.close()


def test_each_process_plays_the_tables_it_holds_and_redirects_to_the_others(pair):
    a, b = pair
    assert sorted(a.rooms) == [1, 2] and sorted(b.rooms) == [3, 4]
    with pytest.raises(TableElsewhere) as moved:
        a.join("ann", table=3)
    assert (moved.value.table, moved.value.owner) == (3, "ws://b")
    assert [(t["table"], t["owner"]) for t in a.lobby()] == \
        [(1, "ws://a"), (2, "ws://a"), (3, "ws://b"), (4, "ws://b")]
    _, _, token = b.join("bob", table=4)
    with pytest.raises(TableElsewhere) as held:   # a resume at the wrong process
        a.seat_of(token)
    assert (held.value.table, held.value.owner) == (4, "ws://b")
    assert next(t for t in b.lobby() if t["table"] == 4)["seats_free"] == 1
    for _ in range(4):   # a's tables full: a join without a table goes where seats are
        a.join("p")
    with pytest.raises(TableElsewhere) as free:
        a.join("late")
    assert free.value.owner == "ws://b"


def test_a_table_whose_lease_ran_out_resumes_elsewhere_and_its_old_owner_is_fenced(pair):
    a, b = pair
    (room, first, _), (_, second, _) = a.join("ann", table=1), a.join("bob", table=1)
    room.start_hand()
    room.act(room.hand.to_act, Act("call"))
    events = room.hand.event_count
    stored = len(a.storage.table(1).actions)
    time.sleep(LEASE_MS / 1000 + 0.1)               # a is "paused" past its lease
    taken = {r.number for r in b.claim_free()}
    assert taken == {1, 2}
    resumed = b.rooms[1]
    assert resumed.hand.event_count == events       # the hand in play, at its last action
    assert resumed.hand.to_act == room.hand.to_act
    with pytest.raises(FencedError):                # a wakes up: nothing it does is stored
        room.act(room.hand.to_act, Act("check"))
    assert len(b.storage.table(1).actions) == stored
    assert [r.number for r in a.renew()] == [1, 2] and a.rooms == {}
    resumed.act(resumed.hand.to_act, Act("check"))  # the new owner plays on
    assert len(b.storage.table(1).actions) == stored + 1
    assert {first, second} == set(resumed.players)


def test_a_released_table_is_taken_at_once_and_renewing_keeps_the_rest(pair):
    a, b = pair
    b.storage.release(b.owner, [3])
    assert a.claim_free() == []                     # a is at its max_tables
    a.max_tables = 3
    assert [r.number for r in a.claim_free()] == [3]
    assert [r.number for r in b.renew()] == [3]     # released here: dropped at renewal
    assert sorted(b.rooms) == [4] and sorted(b.storage.held()) == [4]
    time.sleep(0.2)
    assert b.renew() == [] and sorted(b.rooms) == [4]   # renewed in time: kept


def test_a_live_lease_is_not_taken_without_force(pair):
    a, b = pair
    assert b.claim(1) is None and 1 in a.rooms
    assert b.claim(1, force=True) is not None       # SQLite's restart: one process, at once
    assert [r.number for r in a.renew()] == [1]


@pytest.mark.parametrize("lease_ms", [100, 1500, 3000, 3_600_000])
def test_one_failed_renewal_does_not_let_the_leases_lapse(lease_ms):
    """The server renews every third of the lease. After a failed renewal (one lost
    connection) it tries again at the same cadence, so the two good renewals around the
    failure are two thirds of a lease apart, inside the lease; only repeated failures back
    off, doubling, never past the lease."""
    from omaha.arena.server import renewal_delay

    lease = lease_ms / 1000
    interval = renewal_delay(lease_ms, 0)
    assert interval == pytest.approx(lease / 3)
    assert interval + renewal_delay(lease_ms, 1) < lease
    delays = [renewal_delay(lease_ms, n) for n in (*range(1, 12), 5000, 10**9)]
    assert delays == sorted(delays) and delays[1] == pytest.approx(2 * interval)
    assert max(delays) == pytest.approx(lease)
