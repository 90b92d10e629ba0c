"""The arena under load and under crashes (issue 14). A script, not a timed test.

``python benchmarks/bench_arena.py load`` starts ``omaha serve`` (50 tables of 6 seats,
pot-limit Omaha hi/lo 1/2) and ``omaha bots`` (300 random-policy bots, one asyncio process)
on 127.0.0.1 and reports the total hands per second over the steady part of the run (from 10%
to 90% of the hands) and the server's latency from receiving an action to having written
every resulting update to its sockets (p50, p99; the server measures it, ``--stats``).
Target: p99 <= 20 ms.

``python benchmarks/bench_arena.py soak`` plays a few thousand hands while the server is
killed with SIGKILL at random moments and restarted on the same database, with hostile
clients sending garbage, forged tokens, out-of-turn actions, oversized frames and floods all
along; then it exports every hand, replays the export with ``omaha replay`` and checks that
every table's chips are conserved from hand to hand across every crash. Exit 0 when all
of that holds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src") + os.pathsep
       + os.environ.get("PYTHONPATH", "")}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(db: str, port: int, tables: int, seats: int, stats: str | None = None,
                 *extra: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "omaha", "serve", "--db", db, "--port", str(port),
               "--tables", str(tables), "--seats", str(seats), "--variant", "plo8",
               "--blinds", "1/2", "--buy-in", "200", *extra]
    if stats:
        command += ["--stats", stats]
    with open(db + ".log", "a", encoding="utf-8") as log:   # never a pipe nobody drains
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True,
                                   env=ENV)
    line = process.stdout.readline() if process.stdout else ""
    if "listening" not in line:
        raise SystemExit(f"the server did not start: {line} (see {db}.log)")
    return process


def start_bots(port: int, count: int, hands: int, timeout: float) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "omaha", "bots", f"ws://127.0.0.1:{port}", "--count", str(count),
         "--hands", str(hands), "--policy", "random", "--timeout", str(timeout)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a live process (Linux /proc; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            fields = file.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def read_stats(path: str) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as file:
            data: dict[str, Any] = json.load(file)
            return data
    except (OSError, ValueError):
        return None


def load(args: argparse.Namespace) -> int:
    folder = tempfile.mkdtemp(prefix="arena-load-")
    db, stats = os.path.join(folder, "arena.sqlite"), os.path.join(folder, "stats.json")
    port = free_port()
    server = start_server(db, port, args.tables, args.seats, stats)
    started = time.perf_counter()
    bots = start_bots(port, args.tables * args.seats, args.hands, args.timeout)
    total = args.tables * args.hands
    points: list[tuple[float, int]] = []
    used = {"server": 0.0, "bots": 0.0}
    while bots.poll() is None:
        time.sleep(0.25)
        data = read_stats(stats)
        if data is not None:
            points.append((time.perf_counter(), int(data["hands"])))
        for name, process in (("server", server), ("bots", bots)):
            used[name] = max(used[name], cpu_seconds(process.pid))
    wall = time.perf_counter() - started
    out, err = bots.communicate()
    server.send_signal(signal.SIGTERM)
    server.wait(30)
    final = read_stats(stats) or {}
    low = next((p for p in points if p[1] >= 0.1 * total), None)
    high = next((p for p in points if p[1] >= 0.9 * total), None)
    rate = (high[1] - low[1]) / (high[0] - low[0]) if low and high and high[0] > low[0] else None
    latency = final.get("latency_ms", {})
    print(out.strip() or err.strip())
    cpu = latency.get("cpu", {})
    print("| tables x bots | hands | wall s | hands/s (steady) | actions | p50 ms | p99 ms | "
          "max ms | CPU p50 ms | CPU p99 ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {args.tables} x {args.seats} | {final.get('hands')} | {wall:.1f} | "
          f"{rate if rate is None else round(rate, 1)} | {latency.get('count')} | "
          f"{latency.get('p50')} | {latency.get('p99')} | {latency.get('max')} | "
          f"{cpu.get('p50')} | {cpu.get('p99')} |")
    print(f"load average after the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
          f"CPU seconds used: server {used['server']:.1f}, bots {used['bots']:.1f} "
          f"(of {wall:.1f} s wall)")
    return 0 if bots.returncode == 0 else 1


async def hostile(port: int, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """Garbage, forged tokens, acting unseated, oversized frames and floods, at random."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    rng = random.Random()
    payloads = ["not json", "[1,2,3]", '{"type": "dance"}', '{"type": "act", "action": "fold"}',
                '{"type": "act", "action": "bet_or_raise", "to": true}',
                '{"type": "resume", "token": "forged", "last_seq": 0}',
                '{"type": "act", "action": "call", "seat": 1}', "x" * 10_000]
    while not stop.is_set():
        await asyncio.sleep(rng.uniform(0.05, 0.3))
        try:
            async with connect(f"ws://127.0.0.1:{port}", open_timeout=2) as ws:
                flood = rng.random() < 0.2
                for _ in range(300 if flood else rng.randint(1, 5)):
                    await ws.send(rng.choice(payloads[:-1]) if flood else rng.choice(payloads))
                for _ in range(1000 if flood else 5):   # a flood: read until closed
                    message = json.loads(await asyncio.wait_for(ws.recv(), 1))
                    counts[message.get("code", message["type"])] = \
                        counts.get(message.get("code", message["type"]), 0) + 1
        except (WebSocketException, OSError, asyncio.TimeoutError) as exc:
            name = type(exc).__name__
            counts[name] = counts.get(name, 0) + 1


def soak(args: argparse.Namespace) -> int:
    sys.path.insert(0, os.path.join(ROOT, "src"))
    from omaha.arena.export import check_conservation
    from omaha.arena.storage import SqliteStorage

    folder = tempfile.mkdtemp(prefix="arena-soak-")
    db = os.path.join(folder, "arena.sqlite")
    port = free_port()
    server = start_server(db, port, args.tables, args.seats)
    started = time.perf_counter()
    bots = start_bots(port, args.tables * args.seats, args.hands, args.timeout)
    rng = random.Random(args.seed)
    kills = 0
    counts: dict[str, int] = {}

    async def run() -> None:
        nonlocal server, kills
        stop = asyncio.Event()
        attacker = asyncio.create_task(hostile(port, stop, counts))
        while bots.poll() is None:
            deadline = time.perf_counter() + rng.uniform(args.kill_min, args.kill_max)
            while bots.poll() is None and time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
            if bots.poll() is not None:
                break
            server.send_signal(signal.SIGKILL)          # kill -9, mid-whatever
            server.wait()
            kills += 1
            server = start_server(db, port, args.tables, args.seats)
        stop.set()
        await attacker

    try:
        asyncio.run(run())
    finally:   # never leave a server or bots behind, whatever happened
        if bots.poll() is None:
            bots.kill()
        out, err = bots.communicate()
        server.send_signal(signal.SIGTERM)
        server.wait(30)
    wall = time.perf_counter() - started
    phhs = os.path.join(folder, "hands.phhs")
    exported = subprocess.run([sys.executable, "-m", "omaha", "export", "--db", db, phhs],
                              capture_output=True, text=True, env=ENV, check=False)
    replayed = subprocess.run([sys.executable, "-m", "omaha", "replay", phhs],
                              capture_output=True, text=True, env=ENV, check=False)
    storage = SqliteStorage(db)
    hands = len(list(storage.finished_hands()))
    problems = check_conservation(storage)
    storage.close()
    print(out.strip(), err.strip()[-500:])
    print(exported.stdout.strip(), exported.stderr.strip())
    print(f"soak: {hands} hands at {args.tables} tables in {wall:.0f} s, {kills} kill -9s; "
          f"hostile clients got {dict(sorted(counts.items()))}")
    print(f"replay of the export: exit {replayed.returncode} "
          f"({replayed.stdout.count(': ok')} hands ok)")
    print(f"chips conserved hand to hand across every crash: {not problems} "
          f"{problems[:5] if problems else ''}")
    ok = bots.returncode == 0 and exported.returncode == 0 and replayed.returncode == 0 \
        and not problems and hands >= args.tables * args.hands
    print("soak:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    modes = parser.add_subparsers(dest="mode", required=True)
    one = modes.add_parser("load")
    one.add_argument("--tables", type=int, default=50)
    one.add_argument("--seats", type=int, default=6)
    one.add_argument("--hands", type=int, default=40, help="hands per table")
    one.add_argument("--timeout", type=float, default=900)
    two = modes.add_parser("soak")
    two.add_argument("--tables", type=int, default=8)
    two.add_argument("--seats", type=int, default=6)
    two.add_argument("--hands", type=int, default=300, help="hands per table")
    two.add_argument("--kill-min", type=float, default=1.0, help="seconds between kills")
    two.add_argument("--kill-max", type=float, default=4.0)
    two.add_argument("--seed", type=int)
    two.add_argument("--timeout", type=float, default=1800)
    args = parser.parse_args()
    return load(args) if args.mode == "load" else soak(args)


if __name__ == "__main__":
    sys.exit(main())
