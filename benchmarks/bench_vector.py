"""VectorTables decisions per CPU second (issue 20), side by side in one run with today's code
(``OMAHA_BASELINE_SRC``, see :mod:`baseline`) and PettingZoo's ``texas_holdem_no_limit_v6``.

1,024 tables, each step a uniformly random legal action per table read from the mask (the
same NumPy policy for every candidate), on one core, counted two ways: the whole loop (the
policy's own cost included) and the CPU time inside ``step()`` alone (the environment's
throughput; the policy is the caller's). Games: pot-limit Omaha heads-up, pot-limit Omaha
hi/lo 6-max, pot-limit Omaha 6-max with antes. Rounds alternate between candidates; each
keeps its best round. Target: at least 10x today's decisions per CPU second in each game.

Run ``OMAHA_BASELINE_SRC=../baseline/src python benchmarks/bench_vector.py`` (needs the
``rl`` extra; PettingZoo's classic games for the anchor row).
"""

from __future__ import annotations

import gc
import time
import warnings
from collections.abc import Callable

import numpy as np
import pytest
from baseline import Baseline, baseline_src

Runner = Callable[[float], float]
TABLES = 1024
PETTINGZOO = "PettingZoo texas_holdem_no_limit_v6 env()"
GAMES = {
    "PLO heads-up": ("PO", 2, 0),
    "PLO hi/lo 6-max": ("PO/8", 6, 0),
    "PLO 6-max, ante 1": ("PO", 6, 1),
}


def make_runner(key: str, *, env_only: bool = False) -> Runner:
    """Decisions per CPU second of ``VectorTables`` on game ``key`` (public API only, so the
    baseline runs the same code): the loop with the policy, or (``env_only``) the CPU time
    inside ``step`` alone, the environment's own throughput."""
    from omaha.config import GameConfig
    from omaha.rl import VectorTables
    from omaha.rl.game import make_config

    if key.startswith("env:"):
        return make_runner(key[4:], env_only=True)
    game, players, ante = GAMES[key]
    config = make_config(game)
    if ante:
        config = GameConfig.pot_limit(small_blind=1, big_blind=2, ante=ante,
                                      variant=config.variant)
    vec = VectorTables(TABLES, config=config, players=players)
    rng = np.random.default_rng(0)

    def run(seconds: float) -> float:
        _, mask, _ = vec.reset(seed=0)
        decisions, inside = 0, 0.0
        start = time.process_time()
        while time.process_time() - start < seconds:
            actions = (rng.random(mask.shape) * mask).argmax(1)
            before = time.process_time()
            _, mask, _, _, _ = vec.step(actions)
            inside += time.process_time() - before
            decisions += TABLES
        return decisions / (inside if env_only else time.process_time() - start)

    return run


def pettingzoo_runner() -> Runner | None:
    try:
        from pettingzoo.classic import texas_holdem_no_limit_v6
    except ImportError:
        return None
    from bench_rl import aec_runner

    return aec_runner(lambda: texas_holdem_no_limit_v6.env(num_players=2))


def compare(rounds: int = 3, seconds: float = 1.0) -> dict[str, dict[str, float]]:
    """Best decisions per CPU second, {row: {"new": .., "today": ..}}: per game the loop with
    the policy, and ``env: game`` the CPU time inside ``step`` alone; one PettingZoo row."""
    src = baseline_src()
    base = Baseline(src, "bench_vector") if src else None
    keys = [*GAMES, *(f"env:{key}" for key in GAMES)]
    runners = {key: make_runner(key) for key in keys}
    anchor = pettingzoo_runner()
    best: dict[str, dict[str, float]] = {key: {"new": 0.0, "today": 0.0} for key in keys}
    best[PETTINGZOO] = {"new": 0.0}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(rounds):
                for key, run in runners.items():
                    gc.collect()
                    run(seconds / 5)
                    best[key]["new"] = max(best[key]["new"], run(seconds))
                    if base is not None:
                        base.run(key, seconds / 5)
                        best[key]["today"] = max(best[key]["today"], base.run(key, seconds))
                if anchor is not None:
                    best[PETTINGZOO]["new"] = max(best[PETTINGZOO]["new"], anchor(seconds))
    finally:
        if base is not None:
            base.close()
    return best


def test_target_10x_today() -> None:
    if baseline_src() is None:
        pytest.skip("set OMAHA_BASELINE_SRC to a built checkout of today's code")
    result = compare(rounds=3, seconds=1.0)
    print(result)
    for key in GAMES:
        assert result[f"env:{key}"]["new"] >= 10 * result[f"env:{key}"]["today"], (key, result)


if __name__ == "__main__":
    result = compare()
    pz = result.pop(PETTINGZOO)["new"] or float("nan")
    print(f"{'1,024 tables, decisions per CPU second':44} {'new':>12} {'today':>12} "
          f"{'new/today':>10} {'vs PettingZoo':>14}")
    for key, row in result.items():
        name = f"{key[4:]}, inside step() only" if key.startswith("env:") else key
        ratio = row["new"] / row["today"] if row["today"] else float("nan")
        print(f"{name:44} {row['new']:12,.0f} {row['today']:12,.0f} {ratio:9.1f}x "
              f"{row['new'] / pz:13.0f}x")
    print(f"{PETTINGZOO:44} {pz:12,.0f}")
