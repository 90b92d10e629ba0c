"""Writing every hand as PHH (issue 22): a session with ``--phh`` against the same without.

The README's main job, ``omaha play --variant plo8 --players 6 --hands 20000 --seed 1 --phh
hands.phhs``, in-process: 6-max pot-limit Omaha hi/lo, blinds 1/2, stacks 200, the bots
strength and random round the table, each finished hand written to a ``.phhs`` file by
:class:`omaha.phh.export.PhhWriter` (what ``omaha play --phh`` runs). The same session is
also timed with the old writer (a checked ``HandHistory`` per hand, then ``dumps_all``) for
comparison. Target: a session that writes every hand takes at most 1.3x the CPU time of the
same session without writing (it was 2.8x with the old writer).

Run ``python benchmarks/bench_phh_write.py`` for the table, or
``python -m pytest benchmarks/bench_phh_write.py`` for pytest-benchmark timings and the target.
"""

from __future__ import annotations

import gc
import os
import random
import tempfile
import time
from collections.abc import Callable
from typing import Any

import pytest

from omaha.config import OMAHA_HILO, GameConfig
from omaha.game.bots import BOTS, play_session
from omaha.phh import dumps_all
from omaha.phh.export import PhhWriter, history_from_events

CONFIG = GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO)
PLAYERS, STACK = 6, 200
KINDS = ("strength", "random")
TARGET = 1.3


class OldWriter:
    """The writer ``omaha play --phh`` had before issue 22: a history per hand, dumps_all."""

    def __init__(self, path: str) -> None:
        self.file = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        self.count = 0

    def write(self, hand: Any) -> None:
        self.count += 1
        history = history_from_events(hand.events, metadata={"hand": self.count})
        self.file.write(("\n" if self.count > 1 else "") + dumps_all({str(self.count): history}))

    def close(self) -> None:
        self.file.close()


WRITERS: dict[str, Callable[[str], Any] | None] = {
    "none": None, "phh": PhhWriter, "old": OldWriter,
}


def session(hands: int, seed: int, writer: str, folder: str) -> float:
    """CPU seconds of one session of ``hands`` hands, writing them with ``writer``."""
    bots = [BOTS[KINDS[i % len(KINDS)]]() for i in range(PLAYERS)]
    make = WRITERS[writer]
    gc.collect()
    start = time.process_time()
    out = None if make is None else make(os.path.join(folder, f"{writer}.phhs"))
    try:
        play_session(CONFIG, bots, hands=hands, stack=STACK, rng=random.Random(seed),
                     on_hand=None if out is None else out.write)
    finally:
        if out is not None:
            out.close()
    return time.process_time() - start


def compare(rounds: int = 3, hands: int = 5000, writers: tuple[str, ...] = ("none", "phh", "old"),
            ) -> dict[str, float]:
    """Alternating rounds of the same session (same seed) with each writer, best round of each
    (CPU seconds), and each writer's ratio to the session without writing."""
    best = dict.fromkeys(writers, float("inf"))
    with tempfile.TemporaryDirectory() as folder:
        for name in writers:   # warm-up
            session(hands // 10, 99, name, folder)
        for _ in range(rounds):
            for name in writers:
                best[name] = min(best[name], session(hands, 1, name, folder))
        size = os.path.getsize(os.path.join(folder, "phh.phhs")) if "phh" in writers else 0
    result = {f"{name}_s": seconds for name, seconds in best.items()}
    result.update({f"{name}_ratio": best[name] / best["none"] for name in writers})
    result["phhs_bytes"] = size
    return result


@pytest.mark.benchmark(group="phh write: a 500-hand 6-max PLO hi/lo session")
def test_session_without_phh(benchmark: Any, tmp_path: Any) -> None:
    benchmark.pedantic(session, args=(500, 1, "none", str(tmp_path)), rounds=5, iterations=1)


@pytest.mark.benchmark(group="phh write: a 500-hand 6-max PLO hi/lo session")
def test_session_with_phh(benchmark: Any, tmp_path: Any) -> None:
    benchmark.pedantic(session, args=(500, 1, "phh", str(tmp_path)), rounds=5, iterations=1)


@pytest.mark.benchmark(group="phh write: a 500-hand 6-max PLO hi/lo session")
def test_session_with_the_old_writer(benchmark: Any, tmp_path: Any) -> None:
    benchmark.pedantic(session, args=(500, 1, "old", str(tmp_path)), rounds=3, iterations=1)


def test_target_phh_at_most_1_3x() -> None:
    result = compare(rounds=3, hands=3000, writers=("none", "phh"))
    print(result)
    assert result["phh_ratio"] <= TARGET, result


if __name__ == "__main__":
    result = compare(rounds=3, hands=5000)
    print(f"without --phh  {result['none_s']:7.2f} s CPU (5000 hands, best of 3)")
    for name, label in (("phh", "--phh (PhhWriter)"), ("old", "--phh (old writer)")):
        print(f"{label:<19} {result[name + '_s']:7.2f} s CPU  {result[name + '_ratio']:.2f}x")
    print(f"target         {TARGET:.2f}x; the .phhs is {result['phhs_bytes'] / 1e6:.1f} MB")
