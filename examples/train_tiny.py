"""Train a tiny policy for a few seconds: REINFORCE with a linear softmax policy in NumPy.

The learner plays heads-up pot-limit Omaha (``omaha.rl.OmahaGymEnv``) against the built-in
bots; its policy is ``softmax(W @ log(1 + observation) + b)`` over the legal actions (illegal ones
get probability 0 through the action mask). After each hand the gradient of
``log pi(action)`` of every decision is scaled by the hand's result in big blinds minus a
running baseline. No dependency beyond NumPy and the ``rl`` extra.

    python examples/train_tiny.py --seconds 10
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from omaha.rl import OmahaGymEnv


@dataclass
class TrainResult:
    """What training produced: the weights and the reward (big blinds) of every hand."""

    weights: np.ndarray
    bias: np.ndarray
    rewards: list[float] = field(default_factory=list)


def features(obs: dict[str, Any]) -> np.ndarray:
    """The observation with chip amounts (up to 100s of big blinds) squashed: log(1 + x)."""
    return np.log1p(obs["observation"].astype(np.float64))


def policy(weights: np.ndarray, bias: np.ndarray, obs: dict[str, Any]) -> np.ndarray:
    """Action probabilities: a softmax of the linear scores over the legal actions."""
    scores = weights @ features(obs) + bias
    scores = np.where(obs["action_mask"] == 1, scores, -np.inf)
    scores -= scores.max()
    p = np.exp(scores)
    return p / p.sum()


def train(*, seconds: float = 5.0, episodes: int | None = None, seed: int = 0,
          opponents: Sequence[Any] | None = None, learning_rate: float = 0.001,
          game: str = "PO") -> TrainResult:
    """REINFORCE for ``seconds`` (or exactly ``episodes`` hands when given)."""
    env = OmahaGymEnv(game=game, players=2, opponents=opponents)
    rng = np.random.default_rng(seed)
    size = env.observation_space["observation"].shape[0]
    actions = env.action_space.n
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
            p = policy(weights, bias, obs)
            action = int(rng.choice(actions, p=p))
            trajectory.append((features(obs), p, action))
            obs, reward, done, _, _ = env.step(action)
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


if __name__ == "__main__":
    main()
