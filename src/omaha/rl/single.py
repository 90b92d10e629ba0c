"""A Gymnasium single-agent environment: one seat learns, the other seats are policies.

The learner plays seat ``seat + 1`` (0-based ``seat``, default 0) at a table of
``players``; the other seats are played by ``opponents`` — each a built-in bot
(:mod:`omaha.game.bots`, default :class:`~omaha.game.bots.StrengthBot`) or any callable taking the
observation dict and returning a discrete action. Observations, actions, masks and rewards
are those of :mod:`omaha.rl.aec` (a dict with ``"observation"`` and ``"action_mask"``; the
reward, in big blinds, comes when the hand ends). A hand in which the learner never acts
(everyone folded to its big blind) is not an episode: it is counted in
``info["skipped_hands"]`` and the next hand is dealt. ``reset(seed=s)`` replays exactly
(cards and the bots' choices). An illegal (masked) action ends the episode with reward
``illegal_reward`` (default -1) and ``info["illegal_action"]``; with ``illegal_reward=None``
it raises :class:`~omaha.errors.IllegalActionError` and changes nothing.

>>> from omaha.rl import OmahaGymEnv
>>> env = OmahaGymEnv(game="PO", players=3)
>>> obs, info = env.reset(seed=2)
>>> env.episode.actions.describe(obs["action_mask"])   # pot limit: the pot is the maximum
['fold', 'check_call', 'raise_0.5_pot', 'raise_1_pot']
>>> terminated = False
>>> while not terminated:
...     obs, reward, terminated, truncated, info = env.step(1)   # check or call down
>>> isinstance(reward, float), env.history().players
(True, 3)
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from omaha.config import GameConfig
from omaha.errors import ConfigError, ConfigTypeError, IllegalActionError
from omaha.limits import as_int, safe_repr
from omaha.rl.actions import ActionSet
from omaha.rl.game import Episode, choice_option, make_config, reward_option, seed_option

__all__ = ["OmahaGymEnv"]

Policy = Callable[[dict[str, Any]], int]


class OmahaGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One learning seat against fixed policies (see the module notes)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium declares it)

    def __init__(self, *, game: str = "PO", config: GameConfig | None = None, players: int = 2,
                 seat: int = 0, opponents: Sequence[Any] | None = None,
                 stack: int | None = None, blinds: tuple[int, int] = (1, 2),
                 stakes: tuple[int, int] = (2, 4), actions: ActionSet | None = None,
                 render_mode: str | None = None, illegal_reward: float | None = -1.0) -> None:
        self.illegal_reward = reward_option(illegal_reward, "illegal_reward")
        if config is None:
            config = make_config(game, blinds, stakes)
        self.episode = Episode(config, players=players, stack=stack, actions=actions)
        players = self.episode.players
        self.seat = as_int(seat, "seat", low=0, high=players - 1, error=ConfigError, rule="T1")
        if opponents is None:
            from omaha.game.bots import StrengthBot

            opponents = [StrengthBot() for _ in range(players - 1)]
        policies = _policies(opponents, players - 1)
        others = [i for i in range(players) if i != self.seat]
        self.opponents: dict[int, Any] = dict(zip(others, policies))
        self.render_mode = choice_option(render_mode, "render_mode", (None, "ansi"))
        size = self.episode.actions.size
        self.action_space = spaces.Discrete(size)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (self.episode.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self._bot_rng = random.Random()
        self._skipped = 0

    def _observe(self) -> dict[str, Any]:
        episode = self.episode
        mask = episode._mask if episode._actor == self.seat else [0] * episode.actions.size
        return {"observation": episode.observation(self.seat),
                "action_mask": np.array(mask, np.int8)}

    def _play_others(self) -> None:
        """Opponents act until the learner is to act or the hand is over."""
        episode = self.episode
        while episode._actor is not None and episode._actor != self.seat:
            policy = self.opponents[episode._actor]
            if hasattr(policy, "decide"):
                episode.play_bot(policy, self._bot_rng)
            else:
                episode.step(policy(self._observation_of(episode._actor)))

    def _observation_of(self, player: int) -> dict[str, Any]:
        episode = self.episode
        return {"observation": episode.observation(player),
                "action_mask": np.array(episode._mask, np.int8)}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        seed = seed_option(seed, low=0)   # Gymnasium's rule: a non-negative int
        super().reset(seed=seed)
        seed_text = str(seed) if seed is not None else os.urandom(16).hex()
        self._bot_rng = random.Random(f"omaha-opponents:{seed_text}")
        self._skipped = 0
        self.episode.reset(seed)
        self._play_others()
        while self.episode._actor is None:   # the learner never acted: deal again
            self._skipped += 1
            self.episode.reset()
            self._play_others()
        return self._observe(), {"skipped_hands": self._skipped}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """The learner's ``action``; a non-action (NaN, a float, a bool, text, an array, an
        index outside the action space) raises :class:`~omaha.errors.IllegalActionError`
        (its TypeError subclass for a wrong type) and changes nothing, whatever
        ``illegal_reward`` says: only a masked action of the space is an illegal move."""
        episode = self.episode
        action = episode.action_index(action)   # a non-action is no move: it is refused
        try:
            episode.step(action)
        except IllegalActionError as exc:
            if self.illegal_reward is None:
                raise
            info = {"skipped_hands": self._skipped, "illegal_action": str(exc)}
            return self._observe(), float(self.illegal_reward), True, False, info
        self._play_others()
        done = episode._actor is None
        reward = episode.rewards()[self.seat] if done else 0.0
        return self._observe(), reward, done, False, {"skipped_hands": self._skipped}

    def history(self) -> Any:
        """This episode's hand as a PHH :class:`~omaha.phh.HandHistory`."""
        return self.episode.history()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.episode.hand is None:
            return None
        from omaha.phh import dumps

        return dumps(self.history())


def _policies(opponents: object, needed: int) -> list[Any]:
    """``opponents`` as a list of ``needed`` policies, each a bot (with ``decide``) or a
    callable; anything else is refused here, before a hand is dealt."""
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        raise ConfigTypeError("T1", f"opponents must be a list of {needed} bots or callables, "
                                    f"got {safe_repr(opponents)}")
    policies = list(opponents)
    if len(policies) != needed:
        raise ConfigError("T1", f"{needed} opponents needed, got {len(policies)}")
    for i, policy in enumerate(policies):
        if not (callable(getattr(policy, "decide", None)) or callable(policy)):
            raise ConfigTypeError("T1", f"opponents[{i}] must be a bot (with decide) or a "
                                        f"callable, got {safe_repr(policy)}")
    return policies

