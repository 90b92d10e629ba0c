"""The PettingZoo AEC environment: one Omaha (or Hold'em) hand per episode, 2-10 seats.

Laid out like PettingZoo's classic environments: :func:`env` is :class:`raw_env` with an
illegal (masked or out-of-range) action ending the episode with a reward of -1 for the
offender, as PettingZoo's ``TerminateIllegalWrapper`` does. That check, the bounds check and
the order check (no ``step``/``observe`` before ``reset``) are built in rather than stacked
as PettingZoo's wrappers, whose attribute forwarding costs more than the game itself; a
:class:`raw_env` made directly raises :class:`~omaha.errors.IllegalActionError` instead. Agents are ``player_0`` ..
``player_{n-1}`` (seats 1..n); each observation is a dict with ``"observation"`` (the
float32 vector of :mod:`omaha.rl.game`) and ``"action_mask"`` (int8, one per action of the
:class:`~omaha.rl.actions.ActionSet`). Rewards are the players' results in big blinds,
given when the hand ends; every stack starts at ``stack`` chips each hand and the button
moves one seat per episode. ``reset(seed=s)`` replays exactly; without a seed the cards
come from the OS generator. ``raw_env.history()`` is the episode as a PHH hand history.

Options: ``game`` (a PHH code or short name such as ``"PO"``, ``"NO"``, ``"FO/8"``,
``"plo5"``, ``"nlh"``; or pass ``config``, a :class:`~omaha.config.GameConfig`),
``players`` (2-10), ``stack`` (chips, default 100 big blinds), ``blinds`` / ``stakes``,
``actions`` (an :class:`~omaha.rl.actions.ActionSet`), ``render_mode`` (``"ansi"``,
``"human"`` or None).

>>> from omaha.rl import env
>>> e = env(game="PO/8", players=3)
>>> e.reset(seed=4)
>>> e.agent_selection, e.observation_space("player_0")["observation"].shape
('player_0', (133,))
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     e.step(None if terminated or truncated else 1)     # everyone checks or calls
>>> sum(e.unwrapped.last_rewards.values())
0.0
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from omaha.config import GameConfig
from omaha.errors import IllegalActionError
from omaha.limits import safe_repr
from omaha.rl.actions import ActionSet
from omaha.rl.game import Episode, choice_option, make_config, reward_option

__all__ = ["env", "raw_env"]


def env(**options: Any) -> Any:
    """The environment for training: an illegal action ends the episode (reward -1)."""
    options.setdefault("illegal_reward", -1.0)
    return raw_env(**options)


class raw_env(AECEnv):  # type: ignore[misc]
    """The unwrapped AEC environment (see the module notes for the options)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "omaha_v0", "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, *, game: str = "PO", config: GameConfig | None = None, players: int = 2,
                 stack: int | None = None, blinds: tuple[int, int] = (1, 2),
                 stakes: tuple[int, int] = (2, 4), actions: ActionSet | None = None,
                 render_mode: str | None = None, illegal_reward: float | None = None) -> None:
        super().__init__()
        self.illegal_reward = reward_option(illegal_reward, "illegal_reward")
        if config is None:
            config = make_config(game, blinds, stakes)
        self.episode = Episode(config, players=players, stack=stack, actions=actions)
        self.render_mode = choice_option(render_mode, "render_mode", (None, "human", "ansi"))
        self.possible_agents = [f"player_{i}" for i in range(self.episode.players)]
        self.agents: list[str] = []
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        size = self.episode.actions.size
        observation = spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (self.episode.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(size))
        self.last_rewards: dict[str, float] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.episode.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.last_rewards = {}
        actor = self.episode.actor
        assert actor is not None   # Episode refuses stacks too short to act after the blinds
        self.agent_selection = self.possible_agents[actor]

    def observe(self, agent: str) -> dict[str, Any]:
        if self.episode.hand is None:
            raise AttributeError("observe() before reset(): call reset() first")
        i = self._index[agent]
        episode = self.episode
        mask = episode._mask if episode._actor == i else [0] * episode.actions.size
        return {"observation": episode.observation(i), "action_mask": np.array(mask, np.int8)}

    def step(self, action: Any) -> None:
        """Apply ``action`` for :attr:`agent_selection`.

        A non-action (NaN, a float, a bool, text, an array, an index outside the action
        space) raises :class:`~omaha.errors.IllegalActionError` (its TypeError subclass for
        a wrong type) and changes nothing, whatever ``illegal_reward`` says: only a masked
        action of the space is an illegal move. A finished agent's step takes ``None``
        (PettingZoo's dead step); once every agent is done, ``step`` warns and does nothing,
        as PettingZoo's ``OrderEnforcingWrapper`` does.
        """
        if self.episode.hand is None:
            raise AttributeError("step() before reset(): call reset() first")
        if not self.agents:
            from pettingzoo.utils.env_logger import EnvLogger

            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError("B2", f"{agent} is done: the only action now is None, "
                                               f"got {safe_repr(action)}")
            self._was_dead_step(action)
            return
        episode = self.episode
        action = episode.action_index(action)   # a non-action is no move: it is refused
        self._cumulative_rewards[agent] = 0.0
        try:
            episode.step(action)
        except IllegalActionError as exc:
            if self.illegal_reward is None:
                raise
            self._end_illegal(agent, exc)
            return
        actor = episode._actor
        if actor is None:
            rewards = episode.rewards()
            self.rewards = dict(zip(self.possible_agents, rewards))
            self.last_rewards = dict(self.rewards)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[actor]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_illegal(self, agent: str, error: IllegalActionError) -> None:
        """As PettingZoo's TerminateIllegalWrapper: everyone stops, the offender is fined."""
        import warnings

        warnings.warn(f"{agent} took an illegal action ({error}); the episode ends",
                      stacklevel=3)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward or 0.0)
        self.last_rewards = dict(self.rewards)
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent]["illegal_move"] = True
        self._accumulate_rewards()

    def history(self) -> Any:
        """This episode's hand as a PHH :class:`~omaha.phh.HandHistory`."""
        return self.episode.history()

    def render(self) -> str | None:
        """The hand as PHH text (``ansi``), or printed (``human``)."""
        if self.render_mode is None or self.episode.hand is None:
            return None
        from omaha.phh import dumps

        text = dumps(self.history())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
