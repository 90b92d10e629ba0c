"""The PettingZoo AEC environment: one Omaha (or Hold'em) hand per episode, 2-10 seats.

Laid out like PettingZoo's classic environments; :func:`env` and :class:`raw_env` are the
same environment (its checks are built in rather than stacked as PettingZoo's wrappers,
whose attribute forwarding costs more than the game itself). Agents are ``player_0`` ..
``player_{n-1}`` (seats 1..n); each observation is a dict with ``"observation"`` (the
float32 vector of :mod:`omaha.rl.game`, every value within the finite bounds of the
observation space) and ``"action_mask"`` (int8, one per action of the
:class:`~omaha.rl.actions.ActionSet`). Rewards are the players' results in big blinds,
given when the hand ends (zero-sum, per hand); every stack starts at ``stack`` chips each
hand and the button moves one seat per episode.

The reward policy (:mod:`omaha.rl.game`; ``docs/rl.md``): a masked action of the action
space is played as a fold, exactly as if the agent had folded, and the agent's ``info``
says so (``illegal_action`` True, ``action_played`` 0, ``action_requested``); a value that
is not an action of the space raises :class:`~omaha.errors.IllegalActionError` naming the
space and changes nothing. ``illegal_reward`` is deprecated and ignored.

``reset(seed=s)`` fixes the cards and the button; the unseeded resets after it continue
from that seed (a new process replays them too); with no seed ever the cards come from
the OS generator. Observations, infos and ``render()`` never show a card another seat
has not shown. ``raw_env.history()`` is the episode as a PHH hand history (every hole
card in it: the record of the hand, not a view of it).

Options: ``game`` (a PHH code or short name such as ``"PO"``, ``"NO"``, ``"FO/8"``,
``"plo5"``, ``"nlh"``; or pass ``config``, a :class:`~omaha.config.GameConfig`),
``players`` (2-10), ``stack`` (chips, default 100 big blinds), ``blinds`` / ``stakes``,
``actions`` (an :class:`~omaha.rl.actions.ActionSet`), ``render_mode`` (``"ansi"``: the
text picture of the hand as :attr:`agent_selection` may see it; ``"human"``: that text
printed; or None).

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
from omaha.rl.actions import FOLD, ActionSet
from omaha.rl.game import (
    Episode,
    choice_option,
    deprecated_illegal_reward,
    make_config,
    options_option,
)
from omaha.rl.registration import register_envs

__all__ = ["env", "raw_env"]

register_envs()   # Gymnasium is imported here anyway: make the omaha/... ids known to it


def env(**options: Any) -> Any:
    """The environment (PettingZoo's ``env()`` name for it): :class:`raw_env` itself, the
    checks built in; a masked action is played as a fold."""
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
        deprecated_illegal_reward(illegal_reward)
        if config is None:
            config = make_config(game, blinds, stakes)
        self.episode = Episode(config, players=players, stack=stack, actions=actions)
        self.render_mode = choice_option(render_mode, "render_mode", (None, "human", "ansi"))
        self.possible_agents = [f"player_{i}" for i in range(self.episode.players)]
        self.agents: list[str] = []
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        size = self.episode.actions.size
        low, high = self.episode.observation_bounds()
        observation = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self._no_mask = np.zeros(size, np.int8)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(size))
        self.last_rewards: dict[str, float] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        options_option(options)
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
        mask = episode._mask_buffer if episode._actor == i else self._no_mask
        return {"observation": episode.observation(i), "action_mask": mask.copy()}

    def step(self, action: Any) -> None:
        """Apply ``action`` for :attr:`agent_selection`.

        A masked action of the space is played as a fold (the reward policy: the module
        notes); the agent's info then holds ``illegal_action`` True, ``action_played`` 0 and
        ``action_requested``. A non-action (NaN, a float, a bool, text, an array, an index
        outside the action space) raises :class:`~omaha.errors.IllegalActionError` (its
        TypeError subclass for a wrong type) naming the space, and changes nothing. A
        finished agent's step takes ``None`` (PettingZoo's dead step); once every agent is
        done, ``step`` warns and does nothing, as PettingZoo's ``OrderEnforcingWrapper`` does.
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
        # Episode.play, inlined (the hot path): a non-action raises here, changing nothing
        if type(action) is not int or not 0 <= action < episode._size:
            action = episode.action_index(action)
        if episode._mask[action]:
            episode._apply(action)
            if self.infos[agent]:
                self.infos[agent] = {}
        else:                                       # masked: played as a fold
            episode._apply(FOLD)
            self.infos[agent] = {"illegal_action": True, "action_played": FOLD,
                                 "action_requested": action}
        self._cumulative_rewards[agent] = 0.0
        actor = episode._actor
        if actor is None:
            rewards = episode.rewards()
            self.rewards = dict(zip(self.possible_agents, rewards))
            self.last_rewards = dict(self.rewards)
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()   # before the end every reward is 0: nothing to add
        else:
            self.agent_selection = self.possible_agents[actor]
        if self.render_mode == "human":
            self.render()

    def history(self) -> Any:
        """This episode's hand as a PHH :class:`~omaha.phh.HandHistory`."""
        return self.episode.history()

    def render(self) -> str | None:
        """The hand as :attr:`agent_selection` may see it (its own hole cards, the board,
        the public actions, the hands shown: :meth:`omaha.rl.game.Episode.render_text`), as
        text (``ansi``) or printed (``human``)."""
        if self.render_mode is None or self.episode.hand is None:
            return None
        text = self.episode.render_text(self._index[self.agent_selection],
                                        self.possible_agents)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
