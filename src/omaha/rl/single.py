"""A Gymnasium single-agent environment: one seat learns, the other seats are policies.

The learner plays seat ``seat + 1`` (0-based ``seat``, default 0) at a table of
``players``; the other seats are played by ``opponents``, each one of:

* a built-in bot by name (``"strength"``, ``"random"``, ``"solver"``:
  :func:`omaha.game.userbots.built_in_names`) or
  as an object (anything with ``decide(situation, rng)``, e.g.
  :class:`~omaha.game.bots.StrengthBot`); it draws its randomness from the env's seeded
  generator, so ``reset(seed=s)`` fixes its choices;
* a callable ``(observation dict) -> action``, given the observation of the seat it plays
  (the same dict the learner gets: only that seat's cards; the mask in it);
* an object with ``predict(observation, action_masks=mask)`` returning ``(action, state)``
  (sb3-contrib's ``MaskablePPO``, for self-play against a frozen copy of a policy).

``opponents`` is one of these for every other seat, or a list or tuple of one per other
seat (in seat order); the default is the strength bot at every other seat. A callable or a
model keeps its own randomness: seed it yourself for reproducible episodes.

Observations, actions and masks are those of :mod:`omaha.rl.aec`: a dict with
``"observation"`` (float32, within the finite bounds of the space) and ``"action_mask"``
(int8). ``action_masks()`` (sb3-contrib ``MaskablePPO``'s convention) and
``info["action_mask"]`` give the mask as a bool array. The reward, in big blinds, comes
when the hand ends. A hand in which the learner never acts (everyone folded to its big
blind) is not an episode: it is counted in ``info["skipped_hands"]`` and the next hand is
dealt.

The reward policy (:mod:`omaha.rl.game`; ``docs/rl.md``): a masked action of the action
space is played as a fold — exactly the outcome of folding — and ``info`` says so
(``illegal_action`` True, ``action_played`` 0); a value that is not an action of the space
raises :class:`~omaha.errors.IllegalActionError` naming the space and changes nothing.
``illegal_reward`` is deprecated and ignored. ``step()`` after the episode ended warns and
changes nothing (it returns the last observation, reward 0 and ``terminated`` True).

Seeding follows Gymnasium: ``reset(seed=s)`` seeds :attr:`np_random`, from which the
cards and the built-in opponents' generator are drawn; the unseeded resets after it
continue from that seed, in this process or a new one.

>>> from omaha.rl import OmahaGymEnv
>>> env = OmahaGymEnv(game="PO", players=3)
>>> obs, info = env.reset(seed=2)
>>> env.episode.actions.describe(obs["action_mask"])   # pot limit: the pot is the maximum
['fold', 'check_call', 'raise_0.5_pot', 'raise_1_pot']
>>> env.action_masks().tolist() == info["action_mask"].tolist() == [True] * 4 + [False] * 2
True
>>> terminated = False
>>> while not terminated:
...     obs, reward, terminated, truncated, info = env.step(1)   # check or call down
>>> isinstance(reward, float), env.history().players
(True, 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from omaha.config import GameConfig
from omaha.errors import ConfigError, ConfigTypeError
from omaha.limits import as_int, safe_repr
from omaha.rl.actions import ActionSet
from omaha.rl.game import (
    Episode,
    choice_option,
    deprecated_illegal_reward,
    make_config,
    model_policy,
    options_option,
    seed_option,
)
from omaha.rl.registration import register_envs

__all__ = ["OmahaGymEnv"]

register_envs()   # Gymnasium is imported here anyway: make the omaha/... ids known to it

Policy = Callable[[dict[str, Any]], Any]


class OmahaGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One learning seat against fixed policies (see the module notes)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (gymnasium's)

    def __init__(self, *, game: str = "PO", config: GameConfig | None = None, players: int = 2,
                 seat: int = 0, opponents: Any = None, stack: int | None = None,
                 blinds: tuple[int, int] = (1, 2), stakes: tuple[int, int] = (2, 4),
                 actions: ActionSet | None = None, render_mode: str | None = None,
                 illegal_reward: float | None = None) -> None:
        deprecated_illegal_reward(illegal_reward)
        if config is None:
            config = make_config(game, blinds, stakes)
        self.episode = Episode(config, players=players, stack=stack, actions=actions)
        players = self.episode.players
        self.seat = as_int(seat, "seat", low=0, high=players - 1, error=ConfigError, rule="T1")
        policies = _policies(opponents, players - 1)
        others = [i for i in range(players) if i != self.seat]
        self.opponents: dict[int, Any] = dict(zip(others, policies))
        self._models = {seat: model_policy(p) for seat, p in self.opponents.items()
                        if not hasattr(p, "decide") and not callable(p)}
        self.render_mode = choice_option(render_mode, "render_mode", (None, "ansi"))
        size = self.episode.actions.size
        self.action_space = spaces.Discrete(size)
        low, high = self.episode.observation_bounds()
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self._bot_rng: random.Random | None = None
        self._skipped = 0
        self._done = True
        self._last: dict[str, Any] | None = None

    # --- what the learner sees ---------------------------------------------------------

    def _mask(self) -> npt.NDArray[np.int8]:
        episode = self.episode
        if episode._actor == self.seat:
            return episode._mask_buffer.copy()
        return np.zeros(episode.actions.size, np.int8)

    def _observe(self) -> dict[str, Any]:
        return {"observation": self.episode.observation(self.seat), "action_mask": self._mask()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now, a bool array (sb3-contrib ``MaskablePPO``'s
        convention; all False once the episode has ended)."""
        self.episode._require()
        return self._mask().astype(bool)

    def _info(self, illegal: bool = False, played: int | None = None) -> dict[str, Any]:
        info: dict[str, Any] = {"skipped_hands": self._skipped,
                                "action_mask": self._mask().astype(bool)}
        if played is not None:
            info["illegal_action"] = illegal
            info["action_played"] = played
        return info

    # --- the other seats ---------------------------------------------------------------

    def _play_others(self) -> None:
        """Opponents act until the learner is to act or the hand is over."""
        episode = self.episode
        rng = self._bot_rng
        assert rng is not None
        while episode._actor is not None and episode._actor != self.seat:
            actor = episode._actor
            policy = self.opponents[actor]
            if hasattr(policy, "decide"):
                episode.play_bot(policy, rng)
                continue
            mask = episode._mask_buffer.copy()
            observation = {"observation": episode.observation(actor), "action_mask": mask}
            if callable(policy):
                action = policy(observation)
            else:   # a model: predict(observation, action_masks=...) -> (action, state)
                action = self._models[actor](observation, mask.astype(bool))
            episode.play(action)   # a masked action folds, as the learner's does

    # --- Gymnasium -----------------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a hand in which the learner acts. ``seed`` (a non-negative int) seeds
        :attr:`np_random`, and from it the cards and the built-in opponents' generator;
        without one both continue (Gymnasium's convention)."""
        seed = seed_option(seed, low=0)   # Gymnasium's rule: a non-negative int
        options_option(options)
        super().reset(seed=seed)
        if seed is not None or self._bot_rng is None:
            # everything is drawn from np_random: seeded by `seed`, or (the first unseeded
            # reset) by Gymnasium from the OS; later unseeded resets continue both streams
            cards, bots = (int(x) for x in self.np_random.integers(0, 2**63 - 1, size=2))
            self._bot_rng = random.Random(bots)
            self.episode.reset(cards)
        else:
            self.episode.reset()
        self._skipped = 0
        self._play_others()
        while self.episode._actor is None:   # the learner never acted: deal again
            self._skipped += 1
            self.episode.reset()
            self._play_others()
        self._done = False
        observation = self._observe()
        self._last = observation
        return observation, self._info()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """The learner's ``action``. A masked action is played as a fold (``info``:
        ``illegal_action`` True, ``action_played`` 0); a non-action (NaN, a float, a bool,
        text, an array, an index outside the action space) raises
        :class:`~omaha.errors.IllegalActionError` (its TypeError subclass for a wrong type)
        naming the space, and changes nothing. After the episode ended: a warning, and
        nothing changes."""
        episode = self.episode
        episode._require()
        if self._done:
            gymnasium.logger.warn("step() called after the episode ended (terminated): call "
                                  "reset(); nothing was played")
            info = self._info()
            assert self._last is not None
            return {k: v.copy() for k, v in self._last.items()}, 0.0, True, False, info
        played = episode.play(action)   # a non-action raises here, before any change
        illegal = episode.masked
        self._play_others()
        done = episode._actor is None
        reward = float(episode.rewards()[self.seat]) if done else 0.0
        self._done = done
        observation = self._observe()
        self._last = observation
        return observation, reward, done, False, self._info(illegal, played)

    def history(self) -> Any:
        """This episode's hand as a PHH :class:`~omaha.phh.HandHistory` (every hole card in
        it: the record of the hand, not the learner's view; :meth:`render` is the view)."""
        return self.episode.history()

    def render(self) -> str | None:
        """``render_mode="ansi"``: the hand as the learner may see it, as text (its own hole
        cards, the board, the public actions, the hands shown)."""
        if self.render_mode != "ansi" or self.episode.hand is None:
            return None
        names = [f"player_{i}" if i != self.seat else f"player_{i} (learner)"
                 for i in range(self.episode.players)]
        return self.episode.render_text(self.seat, names)


def _policies(opponents: object, needed: int) -> list[Any]:
    """``opponents`` as a list of ``needed`` policies (module notes): None (the strength
    bot everywhere), one policy for every seat, or a list/tuple of ``needed``; anything else
    is refused here, before a hand is dealt."""
    from omaha.game.bots import StrengthBot
    from omaha.game.userbots import built_in_bot, built_in_names

    if opponents is None:
        return [StrengthBot() for _ in range(needed)]
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != needed:
            raise ConfigError("T1", f"{needed} opponents needed, got {len(opponents)}")
        given = list(opponents)
    elif type(opponents) is str or _is_policy(opponents):
        given = [opponents] * needed
    else:
        raise ConfigTypeError("T1", f"opponents must be a bot name ({', '.join(built_in_names())}), a bot, "
                                    "a callable (observation -> action), a model with "
                                    f"predict(), or a list of {needed} of them, got "
                                    f"{safe_repr(opponents)}")
    policies = []
    for i, policy in enumerate(given):
        if type(policy) is str:
            bot = built_in_bot(policy)
            if bot is None:
                raise ConfigError("T1", f"opponents[{i}]: no built-in bot {policy!r}; the bots "
                                        f"are {', '.join(built_in_names())}")
            policy = bot
        elif not _is_policy(policy):
            raise ConfigTypeError("T1", f"opponents[{i}] must be a bot name, a bot (with "
                                        "decide), a callable or a model with predict(), got "
                                        f"{safe_repr(policy)}")
        policies.append(policy)
    return policies


def _is_policy(value: object) -> bool:
    return (callable(getattr(value, "decide", None)) or callable(value)
            or callable(getattr(value, "predict", None)))

