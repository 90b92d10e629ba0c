"""Issue 24: the arena as several ``omaha serve`` processes over one PostgreSQL database.

Real processes, real bot clients and a real (throwaway) PostgreSQL on 127.0.0.1:

* two processes share six tables; one is killed with SIGKILL mid-play; the other takes its
  tables within twice the lease, the bots (``omaha bots`` given both URLs) finish, and the
  export replays with every chip accounted for;
* three processes, one killed: the survivors absorb its tables;
* fencing: a process paused (SIGSTOP) past its lease while another takes its tables writes
  nothing into them once resumed (SIGCONT), and says it dropped them;
* a process killed and started again on the same database claims tables again once their
  leases are free;
* bad ``--db`` input, and ``omaha export`` on an empty database.

The export checks (:func:`check_export`): ``omaha export`` then ``omaha replay --json``
(every hand replays), each table's hands numbered 1..N once each, each hand starting with
the stacks the previous one finished with plus the ledger entries booked before it, and
:func:`omaha.arena.export.check_conservation` finding nothing.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest


pytest.importorskip("websockets")
pytest.importorskip("psycopg")

from omaha.arena.databases import open_storage
from omaha.arena.export import check_conservation
from serving import ENV, free_port, launch, stop  # one way to start a server
LEASE_MS = 1500
TABLES, SEATS = 6, 6


@dataclass
class Server:
    """One ``omaha serve`` process."""

    process: subprocess.Popen
    port: int
    log: Path
    url: str = ""
    started: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.url = f"ws://127.0.0.1:{self.port}"

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.process.poll() is None:
            self.process.send_signal(sig)

    def stop(self) -> None:
        """SIGTERM (after SIGCONT, should it be paused), then SIGKILL if it lingers."""
        stop(self.process)


def serve(db: str, tmp_path: Path, name: str, *extra: str, port: int | None = None,
          lease_ms: int = LEASE_MS) -> Server:
    """Start ``omaha serve`` on ``db`` and wait for its "listening on" line."""
    port = port if port is not None else free_port()
    log = tmp_path / f"{name}.log"
    process, _ = launch(db, port, "--tables", str(TABLES), "--seats", str(SEATS),
                        "--lease-ms", str(lease_ms), "--base-ms", "1000", "--countdown-ms", "1000",
                        "--reconnect-bonus-ms", "1000", *extra, log=log, ready="listening on")
    return Server(process, port, log)


def bots(urls: list[str], tmp_path: Path, *, hands: int, count: int = TABLES * SEATS,
         timeout: int = 150) -> subprocess.Popen:
    with open(tmp_path / "bots.out", "w") as out:   # the child keeps its own descriptor
        return subprocess.Popen(
            [sys.executable, "-m", "omaha", "bots", *urls, "--count", str(count),
             "--hands", str(hands), "--seed", "24", "--timeout", str(timeout)],
            stdout=out, stderr=subprocess.STDOUT, text=True, env=ENV)


def finish(process: subprocess.Popen, tmp_path: Path, timeout: float = 170) -> str:
    """Wait for the bots; their output. Exit 0 is asserted."""
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    text = (tmp_path / "bots.out").read_text()
    assert process.returncode == 0, text[-3000:]
    assert f"{TABLES * SEATS} bots at {TABLES} tables" in text, text
    return text


class Db:
    """Polls the database the servers share (leases and finished hands)."""

    def __init__(self, url: str) -> None:
        self.storage = open_storage(url)

    def leases(self) -> dict[int, tuple[str, str, int, bool]]:
        """table -> (owner id, url, epoch, live)."""
        return {lease.table: (lease.owner, lease.url, lease.epoch, lease.live)
                for lease in self.storage.leases()}

    def owners(self) -> dict[int, str | None]:
        """table -> the URL of the process holding a live lease on it (None: nobody)."""
        return {t: (url if live else None) for t, (_, url, _, live) in self.leases().items()}

    def hands(self) -> dict[int, int]:
        """table -> finished hands."""
        rows = self.storage._run(   # one cheap query rather than every hand's events
            "SELECT table_id, count(*) FROM hands GROUP BY table_id").fetchall()
        return {int(t): int(n) for t, n in rows}

    def wait(self, what, timeout: float, step: float = 0.05):
        deadline = time.monotonic() + timeout
        while True:
            value = what()
            if value or time.monotonic() > deadline:
                return value
            time.sleep(step)

    def close(self) -> None:
        self.storage.close()


def tables_lobby(url: str) -> list[dict]:
    """The ``tables`` message of the process at ``url`` (its lobby)."""
    from websockets.sync.client import connect

    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "tables"}))
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "tables":
                return message["tables"]


def wait_mid_play(db: Db, tables: list[int], hands: int, bots_process, timeout: float = 90):
    """Until each of ``tables`` has finished ``hands`` hands (hands are running there)."""
    def ready():
        assert bots_process.poll() is None, "the bots ended before the kill"
        done = db.hands()
        return all(done.get(t, 0) >= hands for t in tables)
    assert db.wait(ready, timeout, 0.05), f"no play on {tables}: {db.hands()}"


def wait_owned(db: Db, want: dict[int, set[str]], timeout: float) -> float:
    """Until every table's live owner is one of ``want[table]``; the seconds it took."""
    start = time.monotonic()
    ok = db.wait(lambda: all(owner in want[t] for t, owner in db.owners().items()), timeout,
                 0.02)
    assert ok, f"not taken over after {timeout} s: {db.owners()}"
    return time.monotonic() - start


def check_export(url: str, tmp_path: Path, hands: int) -> dict[int, int]:
    """Export, replay, and account for every chip; table -> finished hands."""
    out = tmp_path / "arena.phhs"
    done = subprocess.run([sys.executable, "-m", "omaha", "export", "--db", url, str(out)],
                          capture_output=True, text=True, env=ENV, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    written = int(done.stdout.split("omaha export: ")[1].split()[0])
    replay = subprocess.run([sys.executable, "-m", "omaha", "replay", "--json", "--no-progress",
                             str(out)], capture_output=True, text=True, env=ENV, timeout=300,
                            check=False)
    assert replay.returncode == 0, replay.stdout[-2000:] + replay.stderr[-2000:]
    results = [json.loads(line) for line in replay.stdout.splitlines() if line.startswith("{")]
    assert len(results) == written
    assert all(r["ok"] and r["error"] is None for r in results), \
        [r for r in results if not r["ok"]][:3]

    storage = open_storage(url)
    try:
        finished = list(storage.finished_hands())
        assert len(finished) == written
        by_table: dict[int, list] = {}
        for hand in finished:
            by_table.setdefault(hand.table, []).append(hand)
        assert sorted(by_table) == list(range(1, TABLES + 1))
        for table, played in by_table.items():
            numbers = [h.hand for h in played]
            # each hand number once, none missing (the bots stop at ``hands``; a table plays
            # on while its players time out, so there may be more)
            assert sorted(numbers) == list(range(1, len(numbers) + 1)), (table, numbers)
            assert len(numbers) >= hands, (table, len(numbers))
            check_stacks_carried(table, sorted(played, key=lambda h: h.hand),
                                 storage.ledger(table))
        assert check_conservation(storage) == []
    finally:
        storage.close()
    return {t: len(p) for t, p in by_table.items()}


def check_stacks_carried(table: int, played: list, ledger: list) -> None:
    """Each hand starts with the stacks the previous one ended with, except for the ledger
    entries (buy-ins, rebuys, cash-outs) booked before it; a seat not dealt in (it sat down
    while the hand was being dealt, or sits out) keeps its chips for the next."""
    stacks: dict[int, int] = {}
    entries = sorted(ledger, key=lambda e: e.before_hand)
    for hand in played:
        while entries and entries[0].before_hand <= hand.hand:
            entry = entries.pop(0)
            if entry.kind == "cash_out":
                assert stacks.pop(entry.seat) == entry.amount, (table, entry)
            else:
                stacks[entry.seat] = stacks.get(entry.seat, 0) + entry.amount
        start, end = hand.events[0], hand.events[-1]
        assert start["type"] == "hand_started" and end["type"] == "hand_ended", (table, hand.hand)
        began = dict(zip(start["seats"], start["stacks"]))
        assert began == {s: c for s, c in stacks.items() if s in began}, \
            (table, hand.hand, began, stacks)
        rake = sum(e.get("rake", 0) for e in hand.events if e["type"] == "pot_awarded")
        assert sum(start["stacks"]) == sum(end["stacks"]) + rake, (table, hand.hand)
        stacks.update(zip(start["seats"], end["stacks"]))


@pytest.fixture
def cleanup():
    """Servers and bots started by a test, stopped whatever happens."""
    started: list = []
    yield started
    for thing in started:
        if isinstance(thing, Server):
            thing.stop()
        elif thing.poll() is None:
            thing.kill()
            thing.wait()


# --- 1. the acceptance test --------------------------------------------------------------

def test_two_processes_one_killed_the_other_takes_its_tables_and_every_chip_is_accounted(
        postgres_url, tmp_path, cleanup):
    db = Db(postgres_url)
    first = serve(postgres_url, tmp_path, "first", "--max-tables", "3")
    cleanup.append(first)
    second = serve(postgres_url, tmp_path, "second")
    cleanup.append(second)
    owners = db.owners()
    assert owners == {1: first.url, 2: first.url, 3: first.url,
                      4: second.url, 5: second.url, 6: second.url}, owners
    hands = 16
    players = bots([first.url, second.url], tmp_path, hands=hands)
    cleanup.append(players)
    wait_mid_play(db, [1, 2, 3], 3, players)
    before = db.leases()
    first.kill()
    killed = time.monotonic()
    first.process.wait()
    wait_owned(db, {t: {second.url} for t in range(1, 7)}, 4 * LEASE_MS / 1000)
    took = time.monotonic() - killed
    print(f"takeover after the kill: {took:.2f} s")
    assert took < 2 * LEASE_MS / 1000, f"takeover took {took:.2f} s"
    lobby = tables_lobby(second.url)   # what the bots are told: every table played there
    assert {e["table"]: e["owner"] for e in lobby} == {t: second.url for t in range(1, 7)}
    assert all(e["players"] == SEATS for e in lobby), lobby
    after = db.leases()
    for table in (1, 2, 3):   # a new lease (epoch) for each table taken over
        assert after[table][2] > before[table][2], (table, before[table], after[table])
        assert after[table][0] == after[4][0] != before[table][0]
    assert db.hands().get(1, 0) < hands, "killed after the play was over"
    summary = finish(players, tmp_path)
    assert "0 stream gaps" in summary, summary
    second.stop()
    db.close()
    played = check_export(postgres_url, tmp_path, hands)
    assert sum(played.values()) >= TABLES * hands


# --- 2. three processes ------------------------------------------------------------------

def test_three_processes_one_killed_the_survivors_absorb_its_tables(postgres_url, tmp_path,
                                                                     cleanup):
    db = Db(postgres_url)
    # started in this order, the first holds tables 1-2, the second 3-5 (it is full) and
    # the third 6 with room for two more: the victim's two tables
    victim = serve(postgres_url, tmp_path, "victim", "--max-tables", "2")
    cleanup.append(victim)
    full = serve(postgres_url, tmp_path, "full", "--max-tables", "3")
    cleanup.append(full)
    spare = serve(postgres_url, tmp_path, "spare", "--max-tables", "3")
    cleanup.append(spare)
    assert db.owners() == {1: victim.url, 2: victim.url, 3: full.url, 4: full.url,
                           5: full.url, 6: spare.url}, db.owners()
    hands = 12
    players = bots([victim.url, full.url, spare.url], tmp_path, hands=hands)
    cleanup.append(players)
    wait_mid_play(db, [1, 2], 3, players)
    victim.kill()
    killed = time.monotonic()
    victim.process.wait()
    wait_owned(db, {1: {spare.url}, 2: {spare.url}, 3: {full.url}, 4: {full.url},
                    5: {full.url}, 6: {spare.url}}, 4 * LEASE_MS / 1000)
    took = time.monotonic() - killed
    print(f"takeover by the survivors: {took:.2f} s")
    assert took < 2 * LEASE_MS / 1000, f"takeover took {took:.2f} s"
    assert min(db.hands().get(t, 0) for t in (1, 2)) < hands, "killed after the play was over"
    summary = finish(players, tmp_path)
    assert "0 stream gaps" in summary, summary
    for server in (full, spare):
        server.stop()
        assert server.process.returncode == 0, server.text()
    db.close()
    check_export(postgres_url, tmp_path, hands)


# --- 3. fencing ----------------------------------------------------------------------------

def _rows(db: Db, tables: tuple[int, ...]) -> dict[str, list]:
    """Everything stored for ``tables``: the rows a stale process could write."""
    run = db.storage._run
    listed = ", ".join(map(str, tables))
    where = f"WHERE table_id IN ({listed})"
    return {
        "hands": run(f"SELECT table_id, hand, seq_base, last_seq FROM hands {where} "
                     "ORDER BY table_id, hand").fetchall(),
        "actions": run(f"SELECT id, table_id, hand, seat, action, amount FROM actions {where} "
                       "ORDER BY id").fetchall(),
        "tables": run(f"SELECT id, seq_base, snapshot FROM tables WHERE id IN ({listed}) "
                      "ORDER BY id").fetchall(),
        "seats": run(f"SELECT table_id, seat, token_hash FROM seats {where} "
                     "ORDER BY table_id, seat").fetchall(),
        "ledger": run(f"SELECT id, table_id, seat, amount, kind, before_hand FROM ledger {where} "
                      "ORDER BY id").fetchall(),
        "cash_outs": run(f"SELECT id FROM cash_outs {where}").fetchall(),
    }


def test_a_paused_process_past_its_lease_writes_nothing_into_the_tables_taken_from_it(
        postgres_url, tmp_path, cleanup):
    lease_ms = 2000   # the check below needs the new owner's leases live for ~1 s
    db = Db(postgres_url)
    stale = serve(postgres_url, tmp_path, "stale", "--max-tables", "3", lease_ms=lease_ms)
    cleanup.append(stale)
    taker = serve(postgres_url, tmp_path, "taker", lease_ms=lease_ms)
    cleanup.append(taker)
    hands = 12
    players = bots([stale.url, taker.url], tmp_path, hands=hands)
    cleanup.append(players)
    wait_mid_play(db, [1, 2, 3], 3, players)
    before = db.leases()
    stale.kill(signal.SIGSTOP)   # paused mid-play, its connections and timers with it
    paused = time.monotonic()
    wait_owned(db, {t: {taker.url} for t in range(1, 7)}, 4 * lease_ms / 1000)
    took = time.monotonic() - paused
    print(f"taken from the paused process after {took:.2f} s")
    assert lease_ms / 1000 * 0.6 < took < 2 * lease_ms / 1000, took
    taken = db.leases()
    for table in (1, 2, 3):
        assert taken[table][2] > before[table][2] and taken[table][0] != before[table][0]
    assert stale.process.poll() is None

    # freeze the new owner too: from here on, any change to tables 1-3 is the stale one's
    taker.kill(signal.SIGSTOP)
    frozen_at = time.monotonic()
    frozen = _rows(db, (1, 2, 3))
    leases = db.leases()
    left = min(lease.left_ms for lease in db.storage.leases()) / 1000
    # while the new owner's leases are live the stale process may claim nothing back, so
    # nothing may change in its old tables; after that it might (legitimately): stop before
    window = min(1.0, left - 0.3)
    assert window >= 0.3, f"the new owner's leases had {left:.2f} s left when frozen"
    stale.kill(signal.SIGCONT)

    def said_so():   # "table N: dropped (...)" or "table N: lease lost to another process"
        text = stale.text()
        return all(f"table {t}: dropped" in text or f"table {t}: lease lost" in text
                   for t in (1, 2, 3))
    db.wait(said_so, window, 0.02)
    time.sleep(max(0.0, window - (time.monotonic() - frozen_at)))
    after = _rows(db, (1, 2, 3))
    still = db.leases()
    taker.kill(signal.SIGCONT)
    assert said_so(), stale.text()
    assert {t: still[t][:3] for t in (1, 2, 3)} == {t: leases[t][:3] for t in (1, 2, 3)}, \
        "the stale process claimed a table again while the new owner's lease was live"
    for kind in frozen:
        assert after[kind] == frozen[kind], f"the stale process wrote {kind}"

    summary = finish(players, tmp_path)
    assert "0 stream gaps" in summary, summary
    assert db.owners() == {t: taker.url for t in range(1, 7)}   # nothing claimed back
    for server in (stale, taker):
        server.stop()
    assert "Traceback" not in stale.text(), stale.text()[-3000:]
    db.close()
    check_export(postgres_url, tmp_path, hands)


# --- 4. a restarted process rejoins -------------------------------------------------------

def test_a_process_restarted_on_the_same_database_claims_tables_again(postgres_url, tmp_path,
                                                                       cleanup):
    db = Db(postgres_url)
    first = serve(postgres_url, tmp_path, "first", "--max-tables", "3")
    cleanup.append(first)
    other = serve(postgres_url, tmp_path, "other", "--max-tables", "3")
    cleanup.append(other)
    hands = 14
    players = bots([first.url, other.url], tmp_path, hands=hands)
    cleanup.append(players)
    wait_mid_play(db, [1, 2, 3], 3, players)
    before = db.leases()
    first.kill()
    first.process.wait()
    killed = time.monotonic()
    mine = {t for t, (_, url, _, _) in before.items() if url == first.url}
    assert mine == {1, 2, 3}
    played = db.hands()
    again = serve(postgres_url, tmp_path, "again", "--max-tables", "3", port=first.port)
    cleanup.append(again)
    # the other process is full: the tables stay free until the restarted one claims them
    wait_owned(db, {1: {again.url}, 2: {again.url}, 3: {again.url}, 4: {other.url},
                    5: {other.url}, 6: {other.url}}, 4 * LEASE_MS / 1000 + 10)
    # the restarted process announces the dead one's URL (same port): wait until the lease
    # rows name the new owner, not the dead one's leases still running
    assert db.wait(lambda: all(db.leases()[t][0] != before[t][0] for t in (1, 2, 3)),
                   4 * LEASE_MS / 1000 + 10, 0.02), db.leases()
    took = time.monotonic() - killed
    print(f"claimed again {took:.2f} s after the kill")
    now = db.leases()
    for table in (1, 2, 3):   # by a new owner (the restarted process), under a new epoch
        assert now[table][0] != before[table][0] and now[table][2] > before[table][2]
    assert min(played.get(t, 0) for t in (1, 2, 3)) < hands, "killed after the play was over"
    summary = finish(players, tmp_path)
    assert "0 stream gaps" in summary, summary
    after = db.hands()
    assert all(after[t] > played.get(t, 0) for t in (1, 2, 3)), (played, after)
    for server in (again, other):
        server.stop()
    db.close()
    check_export(postgres_url, tmp_path, hands)


# --- bad input ------------------------------------------------------------------------------

def _omaha(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "omaha", *args], capture_output=True,
                          text=True, env=ENV, timeout=timeout, check=False)


def test_serve_refuses_an_unreachable_postgresql_in_one_line():
    done = _omaha("serve", "--db", "postgresql://nobody:wrong@/nope?host=/nonexistent",
                  "--port", str(free_port()))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("omaha serve: "), done.stderr
    assert "PostgreSQL" in lines[0] and "Traceback" not in done.stderr


def test_serve_and_export_refuse_a_database_that_is_neither_postgresql_nor_sqlite(tmp_path):
    for args in (("serve", "--db", "mysql://x"), ("export", "--db", "mysql://x",
                                                   str(tmp_path / "out.phhs"))):
        done = _omaha(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert "PostgreSQL" in done.stderr and "SQLite" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "out.phhs").exists()


def test_export_refuses_a_database_without_an_arena_and_changes_nothing(postgres_url,
                                                                        tmp_path, cleanup):
    import psycopg

    def names():
        with psycopg.connect(postgres_url) as conn:
            return sorted(r[0] for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"))

    out = tmp_path / "out.phhs"
    done = _omaha("export", "--db", postgres_url, str(out))   # a fresh, empty database
    assert done.returncode == 2, (done.stdout, done.stderr)
    refused = "omaha export: not an arena database: it holds no omaha arena schema"
    assert done.stderr.splitlines() == [refused], done.stderr
    assert names() == [], "export created tables"
    assert not out.exists()

    with psycopg.connect(postgres_url, autocommit=True) as conn:   # someone else's database
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    for args in (("export", "--db", postgres_url, str(out)),
                 ("serve", "--db", postgres_url, "--port", str(free_port()))):
        done = _omaha(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, \
            done.stderr
        assert names() == ["invoices"], f"{args[0]} changed another application's database"

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("DROP TABLE invoices")
    server = serve(postgres_url, tmp_path, "idle")   # an arena that has dealt no hand yet
    cleanup.append(server)
    server.stop()
    done = _omaha("export", "--db", postgres_url, str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"omaha export: 0 hands written to {out}"
    assert out.read_text() == ""
