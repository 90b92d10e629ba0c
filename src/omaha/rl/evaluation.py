"""Evaluate a policy: big blinds per 100 hands with a 95% confidence interval, as bot matches
are scored.

:func:`evaluate` seats the policy at a table with ``opponents`` and plays ``hands`` hands through
:func:`omaha.game.bots.run_session`, the session behind ``omaha play``: every stack starts every
hand at the starting stack (winnings banked), the button moves one seat each hand, and with
``duplicate=True`` (the default) each shuffled deal is replayed once per seat with the players
rotated, so the policy plays every seat's cards from every position and the luck of the deal
cancels out. Its result is :meth:`omaha.game.bots.SessionResult.scores`'s, interval included:
nothing is scored twice.

A policy (and each opponent) is one of

* a callable taking the observation dict of :class:`~omaha.rl.OmahaGymEnv` (``"observation"``,
  ``"action_mask"``) and returning a discrete action of the env's action space;
* an object with a ``predict`` method, called as Stable-Baselines3 models are
  (``predict(obs, deterministic=...)``, plus ``action_masks=mask`` when its signature has that
  parameter, as sb3-contrib's ``MaskablePPO``), returning ``(action, state)`` or an action;
* a built-in bot (a name of :func:`omaha.game.userbots.built_in_names`, e.g. ``"strength"``
  or ``"solver"``, or a bot object with a ``decide`` method).

An action outside the action space (a float, NaN, an index past the end...) raises
:class:`~omaha.errors.IllegalActionError` naming the policy; a masked action of the space is
played as a fold (the package's policy for masked actions: never worth more than the legal
action it replaces) and counted in :attr:`Evaluation.masked_actions`.

>>> from omaha.rl import evaluate
>>> def calls_down(obs):                      # check or call, always
...     return 1
>>> result = evaluate(calls_down, opponents="random", hands=40, seed=3)
>>> result.hands, result.duplicate, result.ci95 is not None
(40, True, True)
>>> result == evaluate(calls_down, opponents="random", hands=40, seed=3)   # seeded: replayed
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from omaha.config import GameConfig
from omaha.errors import ConfigError, ConfigTypeError, IllegalActionError
from omaha.game.bots import SeatScore, act, run_session, situation
from omaha.game.hand import Hand
from omaha.game.userbots import built_in_bot, built_in_names
from omaha.limits import as_int, safe_repr
from omaha.rl.actions import ActionSet
from omaha.rl.game import Episode, make_config, model_policy, seed_option

__all__ = ["Evaluation", "evaluate"]


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What :func:`evaluate` measured for the policy (seat 1 of the session).

    ``bb_per_100`` is the policy's result in big blinds per 100 hands and ``ci95`` the
    half-width of its 95% confidence interval (None with fewer than two samples), both as
    ``omaha play`` reports them; ``hands`` hands were played, ``samples`` of them independent
    (deals in duplicate mode). ``masked_actions`` counts the policy's masked actions, each
    played as a fold. ``seats`` holds every seat's :class:`~omaha.game.bots.SeatScore`
    (the policy's first, named ``"policy"``).
    """

    bb_per_100: float
    ci95: float | None
    hands: int
    samples: int
    duplicate: bool
    masked_actions: int
    seats: tuple[SeatScore, ...]

    @property
    def low(self) -> float:
        """The lower end of the 95% interval (``bb_per_100`` when there is none)."""
        return self.bb_per_100 - (self.ci95 or 0.0)

    @property
    def high(self) -> float:
        """The upper end of the 95% interval (``bb_per_100`` when there is none)."""
        return self.bb_per_100 + (self.ci95 or 0.0)

    def __str__(self) -> str:
        ci = "" if self.ci95 is None else f" +/- {self.ci95:.2f}"
        return (f"{self.bb_per_100:+.2f}{ci} bb/100 over {self.hands} hands"
                f"{' (duplicate)' if self.duplicate else ''}")


def evaluate(policy: Any, *, opponents: Any = "strength", hands: int = 1000,
             seed: int | None = None, duplicate: bool = True, game: str = "PO",
             players: int = 2, config: GameConfig | None = None, stack: int | None = None,
             blinds: tuple[int, int] = (1, 2), stakes: tuple[int, int] = (2, 4),
             actions: ActionSet | None = None, deterministic: bool = True) -> Evaluation:
    """Play ``policy`` against ``opponents`` for ``hands`` hands and score it (module notes).

    ``opponents`` is one policy or bot for every other seat, or a list of ``players - 1``
    (default: the built-in strength bot). ``seed`` (an integer, or None for the OS generator)
    fixes the cards and the built-in bots' choices: the same seed gives the same result for
    policies that are deterministic (or seeded) themselves. ``duplicate`` replays every deal
    once per seat with the players rotated (``hands`` is then rounded up to a multiple of
    ``players``). ``game``, ``players``, ``config``, ``stack``, ``blinds``, ``stakes`` and
    ``actions`` are :class:`~omaha.rl.OmahaGymEnv`'s options, so a policy trained on the env
    is evaluated at the same table; ``deterministic`` goes to ``predict``.

    Raises:
        ConfigError: a bad option, named (:class:`~omaha.errors.ConfigTypeError` for a wrong
            type): an unknown bot name, a policy that is neither callable nor a bot, the wrong
            number of opponents...
        IllegalActionError: the policy returned something that is not an action of the space.
    """
    hands = as_int(hands, "hands", low=1, limit="MAX_SIMULATED_HANDS", error=ConfigError)
    seed = seed_option(seed, low=0)
    for name, flag in (("duplicate", duplicate), ("deterministic", deterministic)):
        if type(flag) is not bool:
            raise ConfigTypeError(None, f"{name} must be True or False, got {safe_repr(flag)}")
    if config is None:
        config = make_config(game, blinds, stakes)
    episode = Episode(config, players=players, stack=stack, actions=actions)
    count = episode.players
    rng = random.Random(seed) if seed is not None else random.Random()
    seated = [_Seat(policy, "policy", episode, rng, deterministic)]
    seated += [_Seat(spec, what, episode, rng, deterministic)
               for spec, what in _opponents(opponents, count - 1)]

    def turn(hand: Hand, player: int) -> None:
        seated[player].turn(hand)

    result = run_session(config, [seat.name for seat in seated], turn, hands=hands,
                         stack=episode.stack, rng=rng, duplicate=duplicate, seed=seed)
    scores = tuple(result.scores(config.big_blind))
    mine = scores[0]
    return Evaluation(bb_per_100=mine.bb_per_100, ci95=mine.ci95, hands=result.hands,
                      samples=len(result.samples[1]), duplicate=duplicate,
                      masked_actions=seated[0].masked, seats=scores)


def _opponents(opponents: object, needed: int) -> list[tuple[object, str]]:
    """``opponents`` as ``needed`` (policy, name-for-errors) pairs: one for every seat, or a
    list of exactly ``needed``."""
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != needed:
            raise ConfigError(None, f"opponents must be one policy or a list of {needed} "
                                    f"(players - 1), got a list of {len(opponents)}")
        return [(spec, f"opponents[{i}]") for i, spec in enumerate(opponents)]
    return [(opponents, "opponents")] * needed


class _Seat:
    """One player of the session: a built-in bot, or a policy seen through the env's eyes."""

    def __init__(self, spec: object, what: str, episode: Episode, rng: random.Random,
                 deterministic: bool) -> None:
        self.what = what
        self.episode = episode
        self.rng = rng
        self.masked = 0
        self.bot: Any = None
        self.decide: Callable[[dict[str, Any]], object] | None = None
        if isinstance(spec, str):
            self.bot = built_in_bot(spec)
            if self.bot is None:
                raise ConfigError(None, f"{what}: unknown bot {safe_repr(spec)}; choose from "
                                        f"{', '.join(built_in_names())}, or pass a policy")
        elif isinstance(spec, type):
            raise ConfigTypeError(None, f"{what} must be a policy, a bot or a bot name, got the "
                                        f"class {safe_repr(spec)} (pass an instance)")
        elif callable(getattr(spec, "decide", None)):
            self.bot = spec
        elif callable(getattr(spec, "predict", None)):
            predict = model_policy(spec, deterministic=deterministic)
            self.decide = lambda obs: predict(obs, obs["action_mask"].astype(bool))
        elif callable(spec):
            self.decide = spec
        else:
            raise ConfigTypeError(None, f"{what} must be a callable (observation dict -> action), "
                                        "an object with predict(), a bot or a bot name "
                                        f"({', '.join(built_in_names())}), got {safe_repr(spec)}")
        if self.bot is not None:
            self.name = str(getattr(self.bot, "name", type(self.bot).__name__))
        else:
            self.name = "policy" if what == "policy" else "opponent"

    def turn(self, hand: Hand) -> None:
        """Make the decision of the player to act in ``hand``."""
        if self.bot is not None:
            act(hand, self.bot.decide(situation(hand), self.rng))
            return
        assert self.decide is not None
        episode = self.episode
        episode.hand = hand          # the env's own view of this hand: observation, mask, sizes
        episode._refresh()
        player = hand.to_act
        assert player is not None
        obs = {"observation": episode.observation(player - 1),
               "action_mask": np.array(episode._mask, np.int8)}
        action = _unwrap(self.decide(obs))
        try:
            episode.play(action)     # THE reward policy: a masked action is played as a fold
        except IllegalActionError as exc:   # not an action of the space: say whose it was
            text = str(exc).removeprefix(f"{exc.rule}: ")
            raise type(exc)(exc.rule, f"{self.what} returned {safe_repr(action)}, not an "
                                      f"action: {text}") from None
        self.masked += episode.masked

def _unwrap(chosen: object) -> object:
    """A ``predict``-style ``(action, state)`` pair's action; a one-item array's item."""
    if isinstance(chosen, tuple) and len(chosen) == 2:
        chosen = chosen[0]
    if isinstance(chosen, np.ndarray) and chosen.shape == (1,):
        chosen = chosen.reshape(())
    return chosen
