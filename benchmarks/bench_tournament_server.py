"""A tournament served to connected bots, start to finish (issue 25).

Starts ``omaha serve --tournament`` (the shipped default structure, 9-handed, a throwaway
SQLite file) and ``omaha bots --policy strength`` for the whole field, on 127.0.0.1, and
reports the wall time from the first entry to the last place, the hands played and hands
per second (every action a WebSocket round trip, every step a committed transaction).

Run ``python benchmarks/bench_tournament_server.py [PLAYERS ...]`` (default 18 and 90).
"""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(players: int) -> dict[str, float]:
    folder = tempfile.mkdtemp()
    db, port = os.path.join(folder, "t.db"), free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "omaha", "serve", "--db", db, "--port", str(port),
         "--tournament", "default", "--players", str(players), "--seed", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None and "tournament on" in server.stdout.readline()
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "omaha", "bots", f"ws://127.0.0.1:{port}",
                        "--count", str(players), "--policy", "strength", "--seed", "1",
                        "--json"], check=True, capture_output=True, timeout=3600)
        wall = time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(30)
    with sqlite3.connect(db) as conn:
        hands = conn.execute("SELECT count(*) FROM tournament_hands").fetchone()[0]
    return {"players": players, "wall_s": wall, "hands": hands, "hands_per_s": hands / wall}


def main(sizes: list[int]) -> None:
    print("| players | wall time | hands | hands/s |")
    print("|---:|---:|---:|---:|")
    for players in sizes:
        r = run(players)
        print(f"| {players} | {r['wall_s']:.1f} s | {r['hands']} | {r['hands_per_s']:.0f} |",
              flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [18, 90])
