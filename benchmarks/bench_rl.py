"""Learning-environment throughput (issue 15), side by side with PettingZoo's classic
``texas_holdem_no_limit_v6`` (RLCard underneath) in one run, on one core.

Every candidate plays the same policy: a uniformly random legal action read from the
action mask. Counted are decisions (steps of a player who is to act; the ``step(None)``
calls that retire finished agents in an AEC loop are made but not counted) per CPU second.
The AEC environments are driven by the standard ``agent_iter``/``last``/``step`` loop of
``env()`` (for PettingZoo's own environment, its wrapped ``env()``, and its unwrapped
``raw_env()`` since ours builds those checks in); ``VectorTables`` steps
1,024 heads-up tables per call, on its compiled kernel and, for comparison, on hand objects
(``benchmarks/bench_vector.py`` compares the kernel with the previous version's engine). Rounds alternate between candidates and each keeps its best round.
Targets: the AEC env at least 5x PettingZoo's, the vectorised env at least 50x.

Run ``python benchmarks/bench_rl.py`` (needs the ``rl`` extra and ``pettingzoo[classic]``).
"""

from __future__ import annotations

import gc
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

Runner = Callable[[float], float]


def aec_runner(make: Callable[[], Any]) -> Runner:
    """Decisions per CPU second of an AEC env under random masked play."""
    env = make()
    picks = np.random.default_rng(0).integers(0, 1 << 30, 1 << 16).tolist()

    def run(seconds: float) -> float:
        env.reset(seed=0)
        decisions = k = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            for _ in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[picks[k & 0xFFFF] % len(legal)]))
                k += 1
                decisions += 1
            env.reset()
        return decisions / (time.process_time() - start)

    return run


def vector_runner(game: str, engine: str = "compiled", tables: int = 1024) -> Runner:
    from omaha.rl import VectorTables

    vec = VectorTables(tables, game=game, players=2, engine=engine)
    rng = np.random.default_rng(0)

    def run(seconds: float) -> float:
        _, mask, _ = vec.reset(seed=0)
        decisions = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            actions = (rng.random(mask.shape) * mask).argmax(1)
            _, mask, _, _, _ = vec.step(actions)
            decisions += tables
        return decisions / (time.process_time() - start)

    return run


def candidates() -> dict[str, Runner]:
    from pettingzoo.classic import texas_holdem_no_limit_v6

    from omaha.rl import env

    return {
        "PettingZoo texas_holdem_no_limit_v6 env()": aec_runner(
            lambda: texas_holdem_no_limit_v6.env(num_players=2)),
        "PettingZoo texas_holdem_no_limit_v6 raw_env()": aec_runner(
            lambda: texas_holdem_no_limit_v6.raw_env(num_players=2)),
        "omaha.rl env(game='nlh') (no-limit Hold'em)": aec_runner(lambda: env(game="nlh")),
        "omaha.rl env(game='NO') (no-limit Omaha)": aec_runner(lambda: env(game="NO")),
        "omaha.rl VectorTables(1024, game='NO') compiled kernel": vector_runner("NO"),
        "omaha.rl VectorTables(1024, game='PO/8') compiled kernel": vector_runner("PO/8"),
        "omaha.rl VectorTables(1024, game='nlh') compiled kernel": vector_runner("nlh"),
        "omaha.rl VectorTables(1024, game='nlh') hand engine": vector_runner("nlh", "hands"),
    }


def compare(rounds: int = 3, seconds: float = 1.5) -> dict[str, float]:
    """Best decisions per CPU second of each candidate over alternating rounds."""
    runners = candidates()
    best = dict.fromkeys(runners, 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(rounds):
            for name, run in runners.items():
                gc.collect()
                run(seconds / 5)                 # warm-up
                best[name] = max(best[name], run(seconds))
    return best


if __name__ == "__main__":
    result = compare()
    anchor = next(iter(result.values()))
    print(f"{'':56} {'decisions/s':>12} {'vs PettingZoo':>14}")
    for name, speed in result.items():
        print(f"{name:56} {speed:12,.0f} {speed / anchor:13.1f}x")
