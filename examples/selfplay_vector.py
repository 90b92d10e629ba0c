"""Self-play REINFORCE on many tables at once: one linear softmax policy plays every seat.

``omaha.rl.VectorTables`` steps all tables per call, so sampling, bookkeeping and the
gradient are NumPy operations over the batch: each decision is recorded with its table,
hand number and player; when a hand ends, every decision of it is credited with that
player's result in big blinds (minus a running baseline).

    python examples/selfplay_vector.py --seconds 10 --tables 512
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

from omaha.rl import VectorTables


@dataclass
class SelfPlayResult:
    """The policy's weights and how much play the run saw."""

    weights: np.ndarray
    decisions: int
    hands: int


def selfplay(*, seconds: float = 5.0, steps: int | None = None, tables: int = 256,
             game: str = "PO", players: int = 2, learning_rate: float = 1e-4,
             seed: int = 0) -> SelfPlayResult:
    """Train for ``seconds`` (or exactly ``steps`` calls when given)."""
    vec = VectorTables(tables, game=game, players=players)
    rng = np.random.default_rng(seed)
    obs, mask, actor = vec.reset(seed=seed)
    weights = np.zeros((mask.shape[1], obs.shape[1] + 1))        # last column: bias
    hand_number = np.zeros(tables, np.int64)
    pending: list[tuple[np.ndarray, ...]] = []   # (key, player, features, grad of log pi)
    finished: dict[int, np.ndarray] = {}         # key -> rewards of that hand
    baseline, decisions, hands, calls = 0.0, 0, 0, 0
    start = time.perf_counter()
    while steps is None and time.perf_counter() - start < seconds or calls < (steps or 0):
        x = np.hstack([np.log1p(obs), np.ones((tables, 1))])
        scores = np.where(mask == 1, x @ weights.T, -np.inf)
        p = np.exp(scores - scores.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        actions = (p.cumsum(1) > rng.random((tables, 1))).argmax(1)    # sample each row
        grad = -p
        grad[np.arange(tables), actions] += 1.0
        keys = np.arange(tables) * 1_000_000 + hand_number
        pending.append((keys, actor.copy(), x, grad))
        obs, mask, actor, rewards, done = vec.step(actions)
        for t in np.flatnonzero(done):
            finished[int(keys[t])] = rewards[t].copy()
        hand_number += done
        decisions += tables
        hands += int(done.sum())
        calls += 1
        if len(pending) >= 16 and finished:      # credit every decision of finished hands
            keys_all = np.concatenate([k for k, *_ in pending])
            players_all = np.concatenate([a for _, a, *_ in pending])
            x_all = np.concatenate([f for _, _, f, _ in pending])
            g_all = np.concatenate([g for *_, g in pending])
            done_keys = np.array(sorted(finished), np.int64)
            done_rewards = np.array([finished[k] for k in done_keys.tolist()])
            where = np.searchsorted(done_keys, keys_all).clip(0, len(done_keys) - 1)
            ended = done_keys[where] == keys_all
            result = np.where(ended, done_rewards[where, players_all], 0.0)
            advantage = (result - baseline) * ended
            if ended.any():
                baseline += 0.01 * (result[ended].mean() - baseline)
            weights += learning_rate * (g_all * advantage[:, None]).T @ x_all
            keep = ~ended
            pending = [(keys_all[keep], players_all[keep], x_all[keep], g_all[keep])]
            finished.clear()
    return SelfPlayResult(weights, decisions, hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--tables", type=int, default=256)
    args = parser.parse_args()
    result = selfplay(seconds=args.seconds, tables=args.tables)
    print(f"{result.decisions:,} decisions and {result.hands:,} hands in {args.seconds:g} s "
          f"({result.decisions / args.seconds:,.0f} decisions/s, learning included)")


if __name__ == "__main__":
    main()
