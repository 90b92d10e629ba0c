"""A learner that needs only NumPy: a linear softmax policy with the action mask, trained by
REINFORCE with a baseline on ``omaha.rl.OmahaGymEnv``, and evaluated by ``omaha.rl.evaluate``.

The policy scores every action linearly, ``W @ x + b`` with ``x = log(1 + observation)`` (chip
amounts squashed), and draws from the softmax of the scores over the legal actions only (a
masked action gets probability 0). After each hand, the gradient of ``log pi(action)`` of every
decision is scaled by the hand's result in big blinds minus a running-average baseline.
``tests/test_rl_learning.py`` runs it in CI; ``--plot`` saves its learning curve (the policy
evaluated in duplicate against the opponent, with the 95% interval, as training goes on).

    python examples/linear_policy.py --hands 5000 --plot curve.png
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from omaha.game.bots import BOTS
from omaha.rl import OmahaGymEnv, evaluate

if TYPE_CHECKING:
    from omaha.rl.evaluation import Evaluation


class LinearPolicy:
    """``softmax(W @ log(1 + obs) + b)`` over the legal actions.

    Called with an observation dict it returns the most likely legal action (deterministic,
    for evaluation); :meth:`sample` draws one.
    """

    def __init__(self, observation_size: int, actions: int) -> None:
        self.weights = np.zeros((actions, observation_size))
        self.bias = np.zeros(actions)

    @staticmethod
    def features(obs: dict[str, Any]) -> np.ndarray:
        """The observation with chip amounts (up to 100s of big blinds) squashed."""
        return np.log1p(np.asarray(obs["observation"], np.float64))

    def probabilities(self, obs: dict[str, Any], x: np.ndarray | None = None) -> np.ndarray:
        """The probability of every action: 0 for the masked ones."""
        x = self.features(obs) if x is None else x
        scores = self.weights @ x + self.bias
        scores = np.where(np.asarray(obs["action_mask"]) == 1, scores, -np.inf)
        p = np.exp(scores - scores.max())
        return p / p.sum()

    def sample(self, obs: dict[str, Any], rng: np.random.Generator) -> int:
        """An action drawn from :meth:`probabilities`."""
        return int(rng.choice(len(self.bias), p=self.probabilities(obs)))

    def __call__(self, obs: dict[str, Any]) -> int:
        return int(np.argmax(self.probabilities(obs)))


def random_policy(seed: int) -> Callable[[dict[str, Any]], int]:
    """A uniformly random legal policy (seeded), the yardstick a learner must beat."""
    rng = np.random.default_rng(seed)

    def policy(obs: dict[str, Any]) -> int:
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    return policy


@dataclass
class Training:
    """What :func:`train` produced: the policy, each hand's reward and the learning curve
    (hands trained, :class:`~omaha.rl.evaluation.Evaluation`) when checkpoints were asked for."""

    policy: LinearPolicy
    rewards: list[float] = field(default_factory=list)
    curve: list[tuple[int, Evaluation]] = field(default_factory=list)
    seconds: float = 0.0


def train(*, hands: int = 5000, seed: int = 0, opponent: str = "random",
          learning_rate: float = 0.01, entropy: float = 0.05, game: str = "PO",
          checkpoints: Sequence[int] = (), checkpoint_hands: int = 400) -> Training:
    """REINFORCE with a baseline for ``hands`` hands against the built-in bot ``opponent``
    (heads-up). The advantage (reward minus a running mean) is divided by a running standard
    deviation; ``entropy`` weights an entropy bonus that keeps the policy exploring. After each
    number of hands in ``checkpoints`` the greedy policy is evaluated in duplicate
    (``checkpoint_hands`` hands, seed ``seed``) for the learning curve."""
    env = OmahaGymEnv(game=game, players=2, opponents=[BOTS[opponent]()])
    rng = np.random.default_rng(seed)
    size = env.observation_space["observation"].shape[0]
    policy = LinearPolicy(size, int(env.action_space.n))
    result = Training(policy)
    marks = set(checkpoints)
    mean, var = 0.0, 1.0
    started = time.perf_counter()
    if 0 in marks:
        result.curve.append((0, evaluate(policy, opponents=opponent, game=game,
                                         hands=checkpoint_hands, seed=seed)))
    obs, _ = env.reset(seed=seed)
    for hand in range(1, hands + 1):
        trajectory = []
        done = False
        reward = 0.0
        while not done:
            x = policy.features(obs)
            p = policy.probabilities(obs, x)
            action = int(rng.choice(len(p), p=p))
            trajectory.append((x, p, action))
            obs, reward, done, _, _ = env.step(action)
        reward = float(reward)
        advantage = (reward - mean) / np.sqrt(var)
        mean += 0.01 * (reward - mean)
        var += 0.01 * ((reward - mean) ** 2 - var)
        for x, p, action in trajectory:
            grad = -p * advantage                 # grad log softmax = onehot - p
            grad[action] += advantage
            legal = p > 0                         # grad of the entropy over the legal actions
            logp = np.log(np.where(legal, p, 1.0))
            grad -= entropy * p * (logp - (p * logp).sum())
            policy.weights += learning_rate * np.outer(grad, x)
            policy.bias += learning_rate * grad
        result.rewards.append(reward)
        if hand in marks:
            result.curve.append((hand, evaluate(policy, opponents=opponent, game=game,
                                                hands=checkpoint_hands, seed=seed)))
        obs, _ = env.reset()
    result.seconds = time.perf_counter() - started
    return result


def plot_learning_curve(points: Sequence[tuple[int, Evaluation]], path: str, *,
                        title: str, baseline: Evaluation | None = None,
                        baseline_label: str = "uniformly random legal policy") -> None:
    """Save a learning curve: bb/100 with its 95% interval at each number of hands trained
    (and a baseline policy's band), as a small PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [x for x, _ in points]
    ys = np.array([e.bb_per_100 for _, e in points])
    ci = np.array([e.ci95 or 0.0 for _, e in points])
    fig, ax = plt.subplots(figsize=(6, 3.4), dpi=90)
    ax.plot(xs, ys, marker="o", color="C0", label="learner (duplicate evaluation)")
    ax.fill_between(xs, ys - ci, ys + ci, color="C0", alpha=0.2, label="95% interval")
    if baseline is not None:
        ax.axhline(baseline.bb_per_100, color="C3", linestyle="--", label=baseline_label)
        ax.axhspan(baseline.low, baseline.high, color="C3", alpha=0.1)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("hands trained")
    ax.set_ylabel("bb/100")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands to train")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", default="random", choices=sorted(BOTS))
    parser.add_argument("--evaluate", type=int, default=4000, help="hands to evaluate")
    parser.add_argument("--plot", default=None, help="save the learning curve here (PNG)")
    args = parser.parse_args()
    marks = [int(x) for x in np.linspace(0, args.hands, 9)] if args.plot else []
    result = train(hands=args.hands, seed=args.seed, opponent=args.opponent,
                   checkpoints=marks)
    learned = evaluate(result.policy, opponents=args.opponent, hands=args.evaluate,
                       seed=args.seed + 1)
    rand = evaluate(random_policy(args.seed + 1), opponents=args.opponent, hands=args.evaluate,
                    seed=args.seed + 1)
    print(f"trained {args.hands} hands in {result.seconds:.1f} s against {args.opponent}")
    print(f"learner: {learned}")
    print(f"random:  {rand}")
    if args.plot:
        plot_learning_curve(result.curve, args.plot,
                            title=f"NumPy linear softmax (REINFORCE), heads-up PLO vs "
                                  f"{args.opponent} bot", baseline=rand)
        print(f"learning curve: {args.plot}")


if __name__ == "__main__":
    main()
