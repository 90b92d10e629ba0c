"""Train a tiny policy for a few seconds: REINFORCE with a linear softmax policy in NumPy.

The learner plays heads-up pot-limit Omaha, ``gymnasium.make("omaha/PLO-v0")`` (the
single-agent ``omaha.rl.OmahaGymEnv``), against the built-in strength bot (``opponents=``
takes a bot name, a bot, a callable or a model). Its policy is
``softmax(W @ log(1 + observation) + b)`` over the legal actions, which are
``env.unwrapped.action_masks()`` (a bool array; also ``info["action_mask"]``): a masked
action would be played as a fold, so it is never sampled. After each hand the gradient of
``log pi(action)`` of every decision is scaled by the hand's result in big blinds minus a
running baseline. ``reset(seed=seed)`` once, then unseeded resets: the whole run (cards
and the bot's choices) is reproducible. No dependency beyond NumPy and the ``rl`` extra.

    python examples/train_tiny.py --seconds 10
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium
import numpy as np

import omaha.rl  # noqa: F401  (registers the omaha/... ids with Gymnasium)


@dataclass
class TrainResult:
    """What training produced: the weights and the reward (big blinds) of every hand."""

    weights: np.ndarray
    bias: np.ndarray
    rewards: list[float] = field(default_factory=list)


def features(obs: dict[str, Any]) -> np.ndarray:
    """The observation with chip amounts (up to the table's chips in big blinds, the
    space's upper bound) squashed: log(1 + x)."""
    return np.log1p(obs["observation"].astype(np.float64))


def policy(weights: np.ndarray, bias: np.ndarray, x: np.ndarray,
           mask: np.ndarray) -> np.ndarray:
    """Action probabilities: a softmax of the linear scores over the legal actions."""
    scores = np.where(mask, weights @ x + bias, -np.inf)
    scores -= scores.max()
    p = np.exp(scores)
    return p / p.sum()


def train(*, seconds: float = 5.0, episodes: int | None = None, seed: int = 0,
          opponents: Sequence[Any] | str = "strength", learning_rate: float = 0.01,
          env_id: str = "omaha/PLO-v0") -> TrainResult:
    """REINFORCE for ``seconds`` (or exactly ``episodes`` hands when given)."""
    env = gymnasium.make(env_id, players=2, opponents=opponents)
    rng = np.random.default_rng(seed)
    size = env.observation_space["observation"].shape[0]
    actions = int(env.action_space.n)
    weights = np.zeros((actions, size))
    bias = np.zeros(actions)
    result = TrainResult(weights, bias)
    baseline = 0.0
    obs, _ = env.reset(seed=seed)
    start = time.perf_counter()
    while (len(result.rewards) < episodes if episodes is not None
           else time.perf_counter() - start < seconds):
        trajectory = []
        done = False
        while not done:
            x = features(obs)
            p = policy(weights, bias, x, env.unwrapped.action_masks())
            action = int(rng.choice(actions, p=p))
            trajectory.append((x, p, action))
            obs, reward, done, _, info = env.step(action)
            assert not info["illegal_action"]          # sampled from the mask only
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for x, p, action in trajectory:           # grad log softmax = onehot - p
            grad = -p
            grad[action] += 1.0
            weights += learning_rate * advantage * np.outer(grad, x)
            bias += learning_rate * advantage * grad
        result.rewards.append(float(reward))
        obs, _ = env.reset()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    result = train(seconds=args.seconds, seed=args.seed)
    rewards = np.array(result.rewards)
    fifths = [f"{part.mean():+.2f}" for part in np.array_split(rewards, 5)]
    print(f"{len(rewards)} hands in {args.seconds:g} s against the strength bot; mean big "
          f"blinds per hand, by fifths of the run: {' '.join(fifths)}")
    # for a scored match with a confidence interval see omaha.rl.evaluate (docs/rl.md)


if __name__ == "__main__":
    main()
