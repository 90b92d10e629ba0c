"""Whole tournaments between the built-in bots, start to finish (issue 25).

For each field size (default 1,000 and 10,000 players, 9-handed, the default structure,
strength bots, seeded), on one core: the wall time, the hands dealt and hands per second, and
the share of the time spent outside hands (seating, balancing, breaking, places: everything
but dealing and playing the hands themselves, measured by timing ``_deal`` and
``play_hand``).

Run ``python benchmarks/bench_tournament.py [PLAYERS ...]``; targets: 1,000 players under
10 s, 10,000 under 60 s.
"""

from __future__ import annotations

import random
import sys
import time

from omaha.game.bots import BOTS
from omaha.tournament import DEFAULT_STRUCTURE, Tournament


class Timed(Tournament):
    """A tournament that adds up the time spent inside hands."""

    in_hands = 0.0

    def _deal(self, table, index, level):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return super()._deal(table, index, level)
        finally:
            self.in_hands += time.perf_counter() - start

    def play_hand(self, table, hand):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            super().play_hand(table, hand)
        finally:
            self.in_hands += time.perf_counter() - start


def run(players: int, seed: int = 1) -> dict[str, float]:
    start = time.perf_counter()
    tour = Timed(DEFAULT_STRUCTURE, [f"p{i}" for i in range(players)], rng=random.Random(seed),
                 bots=BOTS["strength"]())
    tour.run()
    wall = time.perf_counter() - start
    assert sum(tour.prizes.values()) == tour.prize_pool and len(tour.places) == players
    return {"players": players, "wall_s": wall, "hands": tour.hands,
            "hands_per_s": tour.hands / wall, "outside_hands": 1 - tour.in_hands / wall,
            "rounds": tour.rounds}


def main(sizes: list[int]) -> None:
    print("| players | wall time | hands | hands/s | time outside hands | rounds |")
    print("|---:|---:|---:|---:|---:|---:|")
    for players in sizes:
        r = run(players)
        print(f"| {players:,} | {r['wall_s']:.2f} s | {r['hands']:,} | {r['hands_per_s']:,.0f} "
              f"| {100 * r['outside_hands']:.1f}% | {r['rounds']:,} |", flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1_000, 10_000])
