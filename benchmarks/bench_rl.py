"""Learning-environment throughput (issue 15), side by side with PettingZoo's classic
``texas_holdem_no_limit_v6`` (RLCard underneath) in one run, on one core.

Every candidate plays the same policy: a uniformly random legal action read from the
action mask. Counted are decisions (steps of a player who is to act; the ``step(None)``
calls that retire finished agents in an AEC loop are made but not counted) per CPU second.
The AEC environments are driven by the standard ``agent_iter``/``last``/``step`` loop of
``env()`` (for PettingZoo's own environment, its wrapped ``env()``, and its unwrapped
``raw_env()`` since ours builds those checks in); ``VectorTables`` steps
1,024 heads-up tables per call, on its compiled kernel and, for comparison, on hand objects
(``benchmarks/bench_vector.py`` compares the kernel with the previous version's engine).

The Gymnasium ``VectorEnv`` (:class:`omaha.rl.gym_vector.OmahaVectorEnv`, issue 23) runs
1,024 heads-up no-limit Hold'em tables in self-play (every seat's decision is an agent step,
as every agent's is in PettingZoo's loop), the random legal action of each table drawn in
NumPy from ``info["action_mask"]``; it is counted two ways: decisions per CPU second of the
whole loop (the NumPy policy included), and of the CPU time inside ``step()`` alone (the
environment's own throughput). With next-step autoreset (the default) the step after a hand
ends only deals the next hand: those steps are made but not counted (no decision; the
"table steps" row counts them, as Gymnasium's steps per second do). It runs
with its defaults (next-step autoreset, ``copy=True``) and with same-step autoreset and
``copy=False`` (the fastest configuration); ``vs random opponents`` counts the learner's
decisions only (the opponents' are made inside ``step()``).

Rounds alternate between candidates and each keeps its best round. Targets: the AEC env at
least 10x PettingZoo's (issue 23), the Gymnasium vector env at least 1,000x.

Run ``python benchmarks/bench_rl.py [WORD ...] [--rounds R --seconds S]`` (needs the ``rl``
extra and ``pettingzoo[classic]``; words keep only the candidates whose names hold one, e.g.
``Gymnasium``, with PettingZoo's ``env()`` as the anchor; on a busy machine more, shorter
rounds find each candidate's quiet moments).
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


def gym_vector_runner(*, self_play: bool = True, same_step: bool = False, copy: bool = True,
                      env_only: bool = False, tables: int = 1024,
                      every_step: bool = False) -> Runner:
    """Decisions per CPU second of :class:`~omaha.rl.gym_vector.OmahaVectorEnv` on heads-up
    NLHE, a random legal action per table from ``info["action_mask"]``; ``env_only``: the
    CPU time inside ``step()`` alone; ``every_step``: table steps (Gymnasium's steps per
    second, the next-step autoreset steps counted too) instead of decisions."""
    from gymnasium.vector import AutoresetMode

    from omaha.rl.gym_vector import OmahaVectorEnv

    mode = AutoresetMode.SAME_STEP if same_step else AutoresetMode.NEXT_STEP
    envs = OmahaVectorEnv(num_envs=tables, game="NLHE", self_play=self_play, copy=copy,
                          autoreset_mode=mode)
    rng = np.random.default_rng(0)
    clock = time.process_time

    def run(seconds: float) -> float:
        _, info = envs.reset(seed=0)
        mask = info["action_mask"]
        terminated = np.zeros(tables, np.bool_)
        decisions, inside = 0, 0.0
        start = clock()
        while clock() - start < seconds:
            actions = (rng.random(mask.shape) * mask).argmax(1)
            if not same_step and not every_step:   # a table that just ended only deals
                decisions += tables - int(np.count_nonzero(terminated))
            else:
                decisions += tables
            before = clock()
            _, _, terminated, _, info = envs.step(actions)
            inside += clock() - before
            mask = info["action_mask"]
        return decisions / (inside if env_only else clock() - start)

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
        "Gymnasium VectorEnv, 1,024 HU NLHE tables (self-play, defaults)": gym_vector_runner(),
        "  the same, inside step() only": gym_vector_runner(env_only=True),
        "  the same, table steps (autoreset steps counted)": gym_vector_runner(
            every_step=True),
        "Gymnasium VectorEnv, 1,024 HU NLHE, same-step, copy=False": gym_vector_runner(
            same_step=True, copy=False),
        "  the same, inside step() only ": gym_vector_runner(same_step=True, copy=False,
                                                             env_only=True),
        "Gymnasium VectorEnv, 1,024 HU NLHE, vs random opponents": gym_vector_runner(
            self_play=False),
    }


def compare(rounds: int = 3, seconds: float = 1.5,
            only: list[str] | None = None) -> dict[str, float]:
    """Best decisions per CPU second of each candidate over alternating rounds (``only``:
    the candidates whose names hold one of these words, and the PettingZoo anchor)."""
    runners = candidates()
    if only:
        runners = {name: run for i, (name, run) in enumerate(runners.items())
                   if i == 0 or any(word in name for word in only)}
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
    import argparse

    parser = argparse.ArgumentParser(description="decisions per CPU second, vs PettingZoo")
    parser.add_argument("only", nargs="*", help="keep the candidates whose names hold one")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.5, help="per candidate and round")
    args = parser.parse_args()
    result = compare(args.rounds, args.seconds, only=args.only)
    anchor = next(iter(result.values()))
    print(f"{'':66} {'decisions/s':>12} {'vs PettingZoo':>14}")
    for name, speed in result.items():
        print(f"{name:66} {speed:12,.0f} {speed / anchor:13.1f}x")
