"""Train sb3-contrib's MaskablePPO on heads-up pot-limit Omaha against a built-in bot, evaluate
it with ``omaha.rl.evaluate`` (bb/100 with a 95% interval, duplicate) and plot its learning curve.

The deep-learning stack is not a dependency of the package (PyTorch alone is gigabytes):

    pip install "omaha-poker[rl-train]"   # PyTorch, sb3-contrib, matplotlib
    python examples/train_maskable_ppo.py --minutes 4 --plot maskable_ppo_plo.png

The environment is ``gymnasium.make("omaha/PLO-v0")`` (``omaha.rl.OmahaGymEnv(game="PO")``):
one hand per episode, reward in big blinds when the hand ends, 100 big blinds deep, the built-in
``--opponent`` bot in the other seat. The network sees ``log(1 + observation)`` (chip amounts
squashed) and MaskablePPO draws only legal actions through ``action_masks()``. Every
``--eval-every`` steps the deterministic policy is evaluated in duplicate against the same bot
for the learning curve; at the end it is evaluated on more hands against both built-in bots,
next to a uniformly random legal policy. Training runs on one core (``torch.set_num_threads(1)``).
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from typing import Any

import gymnasium
import numpy as np

from omaha.rl import OmahaGymEnv, evaluate

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from linear_policy import plot_learning_curve, random_policy  # the sibling example


def make_env(opponent: str, seed: int) -> gymnasium.Env[Any, Any]:
    """``omaha/PLO-v0`` against ``opponent`` (``OmahaGymEnv(game="PO")`` where the id is not
    registered), as the network sees it: :class:`LearnerView`."""
    try:   # registered by importing omaha.rl once gymnasium is imported
        env: gymnasium.Env[Any, Any] = gymnasium.make("omaha/PLO-v0", opponents=opponent)
    except gymnasium.error.Error:
        env = OmahaGymEnv(game="PO", opponents=opponent)
    env.reset(seed=seed)
    return LearnerView(env)


def squash(observation: np.ndarray) -> np.ndarray:
    """Chip amounts (up to hundreds of big blinds) squashed for the network: log(1 + x)."""
    return np.log1p(observation).astype(np.float32)


class LearnerView(gymnasium.ObservationWrapper[np.ndarray, Any, dict[str, Any]]):
    """The env's observation dict as the network's input (the squashed observation vector)
    and its mask as ``action_masks()``, what ``MaskablePPO`` asks for."""

    def __init__(self, env: gymnasium.Env[Any, Any]) -> None:
        super().__init__(env)
        box = env.observation_space["observation"]
        self.observation_space = gymnasium.spaces.Box(
            0.0, squash(np.asarray(box.high, np.float32)).max(), box.shape, np.float32)
        self._mask = np.ones(int(env.action_space.n), bool)

    def observation(self, observation: dict[str, Any]) -> np.ndarray:
        self._mask = np.asarray(observation["action_mask"], bool)
        return squash(observation["observation"])

    def action_masks(self) -> np.ndarray:
        return self._mask


def as_policy(model: Any) -> Any:
    """The trained model as a policy for ``omaha.rl.evaluate``: the env's observation dict
    in, an action out (deterministic, legal actions only)."""
    def policy(obs: dict[str, Any]) -> int:
        action, _ = model.predict(squash(obs["observation"]), deterministic=True,
                                  action_masks=np.asarray(obs["action_mask"], bool))
        return int(action)

    return policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=4.0, help="training time (default 4)")
    parser.add_argument("--opponent", default="strength", choices=("strength", "random"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-every", type=int, default=8192,
                        help="steps between learning-curve evaluations")
    parser.add_argument("--eval-hands", type=int, default=600,
                        help="hands per learning-curve evaluation (duplicate)")
    parser.add_argument("--final-hands", type=int, default=4000,
                        help="hands of the final evaluation (duplicate)")
    parser.add_argument("--ent-coef", type=float, default=0.05,
                        help="entropy bonus (default 0.05: keeps it exploring past folding)")
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--plot", default="maskable_ppo_plo.png", help="learning-curve PNG")
    args = parser.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)
    env = make_env(args.opponent, args.seed)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, gamma=1.0, n_steps=2048,
                        batch_size=256, ent_coef=args.ent_coef,
                        learning_rate=args.learning_rate,
                        policy_kwargs={"net_arch": [64, 64]}, device="cpu", verbose=0)
    curve: list[tuple[int, Any]] = []
    hands = [0]

    def checkpoint() -> None:
        result = evaluate(as_policy(model), opponents=args.opponent, hands=args.eval_hands,
                          seed=args.seed)
        curve.append((hands[0], result))
        print(f"{hands[0]:>7} hands trained: {result}", flush=True)

    class Budget(BaseCallback):
        """Counts hands, evaluates every --eval-every steps, stops after --minutes."""

        def __init__(self) -> None:
            super().__init__()
            self.started = time.perf_counter()

        def _on_step(self) -> bool:
            hands[0] += int(np.sum(self.locals["dones"]))
            if self.num_timesteps % args.eval_every == 0:
                checkpoint()
            return time.perf_counter() - self.started < 60 * args.minutes

    checkpoint()
    started = time.perf_counter()
    model.learn(total_timesteps=10**9, callback=Budget())
    seconds = time.perf_counter() - started
    if model.num_timesteps % args.eval_every > args.eval_every // 2:
        checkpoint()   # the end of training, unless a checkpoint was just taken
    print(f"trained {model.num_timesteps} steps ({hands[0]} hands) in {seconds / 60:.1f} min "
          "on one core")
    baseline = None
    for bot in ("strength", "random"):
        learned = evaluate(as_policy(model), opponents=bot, hands=args.final_hands,
                           seed=args.seed + 1)
        rand = evaluate(random_policy(args.seed), opponents=bot, hands=args.final_hands,
                        seed=args.seed + 1)
        print(f"against the {bot} bot: MaskablePPO {learned}; random legal policy {rand}")
        if bot == args.opponent:
            baseline = rand
    plot_learning_curve(curve, args.plot, baseline=baseline,
                        title=f"MaskablePPO, heads-up PLO vs the {args.opponent} bot "
                              f"({seconds / 60:.1f} min, one core)")
    print(f"learning curve: {args.plot}")


if __name__ == "__main__":
    main()
