"""A Gymnasium ``VectorEnv`` on the compiled batched kernel: ``num_envs`` tables per call.

:class:`OmahaVectorEnv` runs ``num_envs`` tables of one game on
:class:`omahacore.vector.VectorCore`, the kernel of :class:`~omaha.rl.VectorTables`: every
table is a hand engine state stepped by the engine's own compiled transitions, so the
tables play exactly the game :class:`~omaha.game.hand.Hand` plays for every
:class:`~omaha.config.GameConfig` (every variant and structure, 2-10 seats, antes, big
blind antes, a single blind). It is what ``gymnasium.make_vec("omaha/PLO-v0", num_envs=N)``
makes. The options are those of :class:`~omaha.rl.OmahaGymEnv` (``game``, ``config``,
``players``, ``seat``, ``opponents``, ``stack``, ``blinds``, ``stakes``, ``actions``,
``render_mode``), plus ``self_play``, ``copy`` and ``autoreset_mode``.

**Episodes.** One hand is one episode; stacks are reset every hand (banked scoring) and the
button moves one seat per hand. The learner plays 0-based ``seat`` (default 0) at every
table; the reward, in big blinds, comes at the step that ends the hand.

**Opponents** (the other seats), ``opponents=``:

* ``"random"`` (the default): a uniformly random legal action, drawn in NumPy for all
  tables at once from the env's seeded generator (:attr:`np_random`) as the argmax of
  uniform noise over the legal actions. The kernel has no built-in bot of its own, and the
  engine's bots (:mod:`omaha.game.bots`) play one hand object at a time: for them use
  :class:`~omaha.rl.OmahaGymEnv`;
* a batch policy: a callable ``policy(observations, masks) -> actions`` (float32
  ``(k, size)``, bool ``(k, n)``, ``k`` integer actions), or an object with
  ``predict(observations, action_masks=masks)`` returning ``(actions, state)``
  (sb3-contrib's ``MaskablePPO``: self-play against a frozen copy). Each gets only the
  tables where one of its seats is to act, each row that seat's own view. A masked action it
  returns is played as a fold (the reward policy below); one outside the action space raises;
* a list or tuple of those, one per other seat in seat order.

The opponents act inside :meth:`step` until the learner is to act or the hand is over. A
hand the learner never acts in (everyone before it folded: its big blind wins) is not an
episode: the next hand is dealt and ``info["skipped_hands"]`` counts it.

**Self-play** (``self_play=True``; ``opponents`` must stay ``"random"``, unused): every seat
is the learner. Each step acts for whichever seat is to act at each table, and the
observation, the mask and the reward are that seat's (``info["seat"]``); when a hand ends,
``info["rewards"]`` holds every seat's result (zero-sum), so each seat's last transition
can be credited.

**Autoreset: next step** (``metadata["autoreset_mode"]`` is
:attr:`gymnasium.vector.AutoresetMode.NEXT_STEP`, Gymnasium 1.x's default). The step that
ends a table's hand returns ``terminated`` True, the reward, and the final observation of
the hand as the learner (in self-play: the seat that acted) sees it; its mask then allows
only check/call. At that table's next step the action is ignored (never flagged) and a new
hand is dealt: the step returns the new hand's first observation, reward 0, ``terminated``
False. ``truncated`` is always False (a hand always ends). ``autoreset_mode=
AutoresetMode.SAME_STEP`` (as Gymnasium's ``SyncVectorEnv`` takes it) deals the next hand
in the step that ends one instead: that step returns the new hand's first observation with
``terminated`` True and the reward, and the final observation in ``info["final_obs"]`` (an
array ``(num_envs, size)``, valid in the rows where ``info["_final_obs"]`` is True); every
step is then a decision.

**Spaces.** ``single_action_space`` is ``Discrete(n)`` (fold, check/call, the raise
sizes of ``actions``: :class:`~omaha.rl.ActionSet`), ``action_space`` its batch
(``MultiDiscrete``). ``single_observation_space`` is a ``Box`` with finite bounds: the
observation of :mod:`omaha.rl.game` (float32, chip amounts in big blinds), every value at
least 0, cards and flags at most 1, chip amounts at most the table's chips in big blinds
(``players * stack / big_blind``: stacks are reset every hand, so no amount passes it; no
clipping is needed). ``info["action_mask"]`` and :meth:`action_masks` (sb3-contrib's
convention) give the masks as a bool array ``(num_envs, n)``.

**The reward policy** (the package's, :mod:`omaha.rl.vector`): a masked action of the
action space is played as a fold, exactly the outcome of folding in that state, and flagged
in ``info["illegal_action"]``; it never earns a special reward. Actions outside the space
(not an integer array or list, a float or bool dtype, NaN, a wrong shape, an index out of
range) raise :class:`~omaha.errors.IllegalActionError` (:class:`~omaha.errors.
IllegalActionTypeError` for a wrong type) naming ``actions`` and the space, and change
nothing.

**Seeding.** ``reset(seed=s)`` seeds :attr:`np_random`, from which every table's deck and
the random opponents' choices are drawn: the same seed gives the same trajectories, in this
process or another; the unseeded resets after it continue from it (Gymnasium's convention).

**Info** holds an array per key, a value for every table (so no ``_key`` masks, except
``_final_obs``): ``action_mask`` (bool ``(num_envs, n)``), ``illegal_action`` (bool: the
action just given was masked and played as a fold), ``seat`` (whose observation each row
is), and ``rewards`` (every seat's result, self-play) or ``skipped_hands`` (opponents);
same-step mode adds ``final_obs`` and ``_final_obs``. The final observation shows the state
the hand ended in (after a fold, the street it ended on; the folder flagged folded).
Needs Gymnasium 1.0 or later (``AutoresetMode``).

**Arrays.** With ``copy=True`` (the default) every returned array is the caller's (the kernel
writes each step's observations into a new array: nothing is copied); with
``copy=False`` the observations and the info arrays are the kernel's own, overwritten by the
next call (as Gymnasium's ``SyncVectorEnv(copy=False)``): copy what you keep.

>>> import numpy as np
>>> from omaha.rl.gym_vector import OmahaVectorEnv
>>> envs = OmahaVectorEnv(num_envs=4, game="NLHE")
>>> obs, info = envs.reset(seed=1)
>>> obs.shape, info["action_mask"].shape, envs.single_action_space
((4, 126), (4, 6), Discrete(6))
>>> obs, reward, terminated, truncated, info = envs.step(np.zeros(4, np.int64))   # fold
>>> terminated.tolist(), reward.tolist()    # the small blind lost
([True, True, True, True], [-0.5, -0.5, -0.5, -0.5])
>>> obs, reward, terminated, truncated, info = envs.step(np.zeros(4, np.int64))   # new hands
>>> bool(terminated.any()), bool(reward.any())
(False, False)
>>> envs.close()
"""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from omaha.config import GameConfig
from omaha.errors import (
    ArrayError,
    ConfigError,
    ConfigTypeError,
    IllegalActionError,
    IllegalActionTypeError,
)
from omaha.limits import as_int, safe_repr
from omaha.rl.actions import ActionSet
from omaha.rl.game import (
    PLAYER_FEATURES,
    TABLE_FEATURES,
    choice_option,
    model_policy,
    reward_option,
)
from omaha.rl.game import seed_option as _seed_option
from omaha.rl.vector import VectorTables

__all__ = ["OmahaVectorEnv", "observation_bounds"]

Observations = npt.NDArray[np.float32]
Actions = npt.NDArray[np.int64]

# the chip features of the observation (omahacore.vector's layout; the rest are 0/1)
_TABLE_CHIPS = (108, 109, 110, 111)
_PLAYER_CHIPS = (0, 1, 2)


def observation_bounds(players: int, stack: int,
                       big_blind: int) -> tuple[Observations, Observations]:
    """``(low, high)`` of every value of the observation (:mod:`omaha.rl.game`'s layout):
    0 and 1, and for a chip amount the table's chips in big blinds, computed as the kernel
    computes amounts (so the largest possible value is exactly the bound).

    >>> low, high = observation_bounds(2, 200, 2)
    >>> float(low.min()), float(high.max()), float(high[0]), high.shape
    (0.0, 200.0, 1.0, (126,))
    """
    size = TABLE_FEATURES + PLAYER_FEATURES * players
    total = np.float32(players * stack * (1.0 / big_blind))
    high = np.ones(size, np.float32)
    high[list(_TABLE_CHIPS)] = total
    for k in range(players):
        base = TABLE_FEATURES + PLAYER_FEATURES * k
        high[[base + i for i in _PLAYER_CHIPS]] = total
    return np.zeros(size, np.float32), high


class OmahaVectorEnv(VectorEnv[Observations, Actions, npt.NDArray[Any]]):
    """``num_envs`` tables on the compiled kernel, one learning seat each (module notes)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP,  # noqa: RUF012 (gymnasium's)
                "render_modes": ["ansi"]}

    def __init__(self, num_envs: int = 1, *, game: str = "PO", config: GameConfig | None = None,
                 players: int = 2, seat: int = 0, opponents: Any = "random",
                 self_play: bool = False, stack: int | None = None,
                 blinds: tuple[int, int] = (1, 2), stakes: tuple[int, int] = (2, 4),
                 actions: ActionSet | None = None, render_mode: str | None = None,
                 illegal_reward: float | None = None, copy: bool = True,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP) -> None:
        if reward_option(illegal_reward, "illegal_reward") is not None:
            warnings.warn("illegal_reward is ignored: a masked action is played as a fold "
                          "(see docs/rl.md, 'The reward policy')", DeprecationWarning,
                          stacklevel=2)
        if type(self_play) is not bool or type(copy) is not bool:
            raise ConfigTypeError(None, "self_play and copy must be bools, got "
                                        f"{safe_repr(self_play)}, {safe_repr(copy)}")
        self.render_mode = choice_option(render_mode, "render_mode", (None, "ansi"))
        # the table options are checked by VectorTables (and Episode) once
        self.tables = VectorTables(num_envs, game=game, config=config, players=players,
                                   stack=stack, blinds=blinds, stakes=stakes, actions=actions)
        core = self.tables._core
        assert core is not None
        self._core = core
        self.num_envs = num_envs = self.tables.tables
        players = self.tables.players
        self.players = players
        self.config = self.tables.config
        self.stack = self.tables.stack
        self.actions = self.tables.actions
        self.seat = as_int(seat, "seat", low=0, high=players - 1, error=ConfigError, rule="T1")
        self.self_play = self_play
        if self_play and not (type(opponents) is str and opponents == "random"):
            raise ConfigError("T1", "self_play=True plays every seat: leave opponents out")
        others = [i for i in range(players) if i != self.seat]
        self.opponents: dict[int, Any] = dict(zip(others, _policies(opponents, len(others))))
        # a model's predict as a batch policy (observations, masks) -> actions
        self._deciders = {seat: model_policy(p) if callable(getattr(p, "predict", None)) else p
                          for seat, p in self.opponents.items()}
        self.copy = copy
        n = self.actions.size
        low, high = observation_bounds(players, self.stack, self.config.big_blind)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._space = (f"{self.action_space} (an integer array of shape ({num_envs},), each "
                       f"0..{n - 1})" if num_envs <= 8 else
                       f"MultiDiscrete([{n}] * {num_envs}) (an integer array of shape "
                       f"({num_envs},), each 0..{n - 1})")
        self._cards: np.random.Generator | None = None
        self._flags = np.zeros(num_envs, np.uint8)     # the learner's masked actions
        self._scratch = np.zeros(num_envs, np.uint8)   # the opponents'
        self._fresh = np.ones(num_envs, np.bool_)      # dealt, the learner not yet acted
        self._skipped = np.zeros(num_envs, np.int64)
        self._opponent_actions = np.full(num_envs, -1, np.int64)
        self._gains = np.zeros(num_envs, np.float64)   # the learner's results, this step
        self._random_only = all(type(p) is str for p in self.opponents.values())
        self._same = _autoreset(autoreset_mode) is AutoresetMode.SAME_STEP
        self.metadata = {**type(self).metadata, "autoreset_mode": _autoreset(autoreset_mode)}
        self._final = np.zeros((num_envs, low.size), np.float32)
        self._final_scratch = np.zeros((num_envs, low.size), np.float32)
        self._mask = core.action_mask.view(np.bool_)
        self._started = False

    # --- Gymnasium ---------------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observations, dict[str, Any]]:
        """Deal every table a hand in which the learner acts (buttons on seat 1 first).

        ``seed`` (a non-negative int) seeds :attr:`np_random`, and from it the decks and the
        random opponents; without one both continue from the last seed (the OS's entropy
        when none was ever given). ``options`` is accepted and must be None or a dict."""
        self._check_open()
        seed = _seed_option(seed, low=0)   # Gymnasium's rule: a non-negative int
        if options is not None and type(options) is not dict:
            raise ConfigTypeError(None, f"options must be None or a dict, got "
                                        f"{safe_repr(options)}")
        super().reset(seed=seed)
        if seed is not None or self._cards is None:
            self._cards = np.random.default_rng(int(self.np_random.integers(0, 2**63 - 1)))
        self._fresh_target()
        self.tables.reset(generator=self._cards)
        self._gains[:] = 0
        self._flags[:] = 0
        self._skipped[:] = 0
        self._fresh[:] = True
        if self._same and not self.self_play:
            self._play_opponents_same(np.zeros(self.num_envs, np.bool_),
                                      np.zeros(self.num_envs, np.float64))
        elif not self.self_play:
            self._play_opponents()
        self._started = True
        return self._observations(), self._info()

    def step(self, actions: Any) -> tuple[Observations, npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                          dict[str, Any]]:
        """One action per table (see the module notes: a masked one is played as a fold,
        one outside the action space raises and changes nothing; next-step autoreset: at a
        table whose hand ended at the last step it is ignored and the next hand is dealt)."""
        self._check_open()
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        chosen = self._checked(actions)
        core = self._core
        if core.pooled < self.num_envs:
            self.tables._refill()
        view = -1 if self.self_play else self.seat
        same = self._same
        ended, fresh, gains = core.ended, self._fresh, self._gains
        held = None if same else ended.copy()   # these tables are dealt now
        previous = self._fresh_target()
        try:
            core.step(chosen, self._flags, not same, view, False,
                      self._final if same else None, gains)
        except ArrayError as exc:   # an index out of range: refused before any change
            if previous is not None:
                core.retarget(previous)
                self.tables.observation = previous
            raise IllegalActionError("B2", f"actions must be in the action space "
                                           f"{self._space}: {exc}") from None
        self._skipped[:] = 0
        if held is not None:
            np.copyto(fresh, held)   # a table dealt now: its learner has not acted yet
        if self.self_play:
            terminated = ended.copy()
        elif not same:
            self._play_opponents()   # a hand ending on an opponent's action: gains too
            terminated = ended.copy()
        else:
            terminated = ended.copy()
            np.copyto(fresh, ended)   # dealt at once: its learner has not acted
            self._play_opponents_same(terminated, gains)
        reward = gains.copy()
        info = self._info()
        if same:
            info["final_obs"] = self._final.copy() if self.copy else self._final
            info["_final_obs"] = terminated.copy()
        return (self._observations(), reward, terminated, np.zeros(self.num_envs, np.bool_),
                info)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions at every table now, a bool array ``(num_envs, n)`` (sb3-contrib
        ``MaskablePPO``'s convention; at a table whose hand just ended only check/call, whose
        action is ignored)."""
        self._check_open()
        return self._mask.copy()

    def render(self) -> tuple[str, ...] | None:
        """With ``render_mode="ansi"``: each table as the player whose observation it is
        sees it (their own cards, the board, the pot and stacks), decoded from the
        observation, so it shows nothing the observation does not."""
        if self.render_mode != "ansi" or not self._started:
            return None
        return tuple(describe_observation(row, self.players, self.config.variant.hole_cards)
                     for row in self._core.observation)

    def close_extras(self, **kwargs: Any) -> None:
        self._started = False

    # --- inside a step -----------------------------------------------------------------

    def _check_open(self) -> None:
        if self.closed:
            raise gymnasium.error.ClosedEnvironmentError(
                "this OmahaVectorEnv is closed (close() was called)")

    def _checked(self, actions: Any) -> Actions:
        """``actions`` as a C-contiguous int64 array of one action per table, or a typed
        refusal naming the space (the range is the kernel's check)."""
        n = self.num_envs
        if type(actions) is np.ndarray:
            if actions.dtype.kind not in "iu":
                raise IllegalActionTypeError(
                    "B2", f"actions must be in the action space {self._space}, got a "
                          f"{actions.dtype} array")
            if actions.shape != (n,):
                raise IllegalActionError("B2", f"actions must be in the action space "
                                               f"{self._space}, got shape {actions.shape}")
            if actions.dtype != np.int64 or not actions.flags.c_contiguous:
                if actions.dtype.kind == "u" and actions.size and actions.max() > 2**62:
                    raise IllegalActionError("B2", f"actions must be in the action space "
                                                   f"{self._space}, got {actions.max()}")
                actions = np.ascontiguousarray(actions, np.int64)
            checked: Actions = actions
            return checked
        if type(actions) in (list, tuple):
            items: tuple[object, ...] = tuple(actions)
            if len(items) != n:
                raise IllegalActionError("B2", f"actions must be in the action space "
                                               f"{self._space}, got {len(items)} actions")
            size, space = self.actions.size, self._space
            return np.array([as_int(item, f"actions[{i}] (of the action space {space})", low=0,
                                    high=size - 1, error=IllegalActionError, rule="B2")
                             for i, item in enumerate(items)], np.int64)
        raise IllegalActionTypeError("B2", f"actions must be in the action space {self._space}, "
                                           f"got {safe_repr(actions)}")

    def _pick(self, waiting: npt.NDArray[np.bool_]) -> Actions:
        """The opponents' actions at the ``waiting`` tables, -1 (no action) elsewhere."""
        chosen = self._opponent_actions
        chosen.fill(-1)
        if self._random_only:
            noise = self.np_random.random(self._mask.shape)
            noise += 1.0
            noise *= self._mask
            np.copyto(chosen, noise.argmax(1), where=waiting)
        else:
            self._ask_policies(waiting, chosen)
        return chosen

    def _play_opponents(self) -> None:
        """Next-step mode: the other seats act until the learner is to act or its hand is
        over (it then waits); a hand that ends before the learner acted is dealt again
        (counted in skipped_hands)."""
        core, seat, fresh = self._core, self.seat, self._fresh
        ended, actor = core.ended, core.actors
        while True:
            again = ended & fresh                # hands the learner never acted in
            waiting = ~ended & (actor != seat)   # an opponent to act
            anyone = bool(waiting.any())
            if not anyone and not again.any():
                return
            chosen = self._pick(waiting) if anyone else self._opponent_actions
            if not anyone:
                chosen.fill(-1)
            chosen[again] = 0   # ignored: the next hand is dealt
            self._skipped += again
            if core.pooled < self.num_envs:
                self.tables._refill()
            core.step(chosen, self._scratch, True, seat, True, None, self._gains)

    def _play_opponents_same(self, terminated: npt.NDArray[np.bool_],
                             reward: npt.NDArray[np.float64]) -> None:
        """Same-step mode: the other seats act until the learner is to act (every table
        then has a live hand); a hand the learner acted in that ends on an opponent's action
        is terminal (``terminated``, ``reward`` and the final observation are recorded), one
        it never acted in is skipped."""
        core, seat, fresh = self._core, self.seat, self._fresh
        ended, actor, results = core.ended, core.actors, core.results
        final, scratch = self._final, self._final_scratch
        while True:
            waiting = actor != seat
            if not waiting.any():
                return
            chosen = self._pick(waiting)
            if core.pooled < self.num_envs:
                self.tables._refill()
            core.step(chosen, self._scratch, False, seat, True, scratch)
            newly = ended & waiting
            if newly.any():
                over = newly & ~fresh   # the learner's hand, ended by an opponent
                if over.any():
                    terminated |= over
                    reward[over] = results[over, seat]
                    final[over] = scratch[over]
                self._skipped += newly & fresh
                fresh |= newly

    def _ask_policies(self, waiting: npt.NDArray[np.bool_], chosen: Actions) -> None:
        core, actor, mask = self._core, self._core.actors, self._mask
        size = self.actions.size
        for player, policy in self.opponents.items():
            rows = np.flatnonzero(waiting & (actor == player))
            if not rows.size:
                continue
            if type(policy) is str:   # "random"
                noise = self.np_random.random((rows.size, size)) + 1.0
                picked: Any = (noise * mask[rows]).argmax(1)
            else:
                observations, masks = core.observation[rows], mask[rows]
                picked = self._deciders[player](observations, masks)
            picked = np.asarray(picked)
            if picked.dtype.kind not in "iu" or picked.shape != (rows.size,) or (
                    rows.size and (picked.min() < 0 or picked.max() >= size)):
                raise IllegalActionError(
                    "B2", f"opponent of player {player}: its actions must be integers "
                          f"0..{size - 1}, one per table asked ({rows.size}), got "
                          f"{safe_repr(picked)}")
            chosen[rows] = picked

    def _fresh_target(self) -> Observations | None:
        """With ``copy``: the kernel writes this step's observations into a new array (every
        table moves at the learner's step, so every row is rewritten: the caller's arrays
        of earlier steps stay as they were, and nothing is copied). Returns the last one."""
        if not self.copy:
            return None
        core = self._core
        previous: Observations = core.observation
        target = np.empty_like(previous)
        core.retarget(target)
        self.tables.observation = target
        return previous

    def _observations(self) -> Observations:
        return self._core.observation

    def _info(self) -> dict[str, Any]:
        core = self._core
        copy = self.copy
        info: dict[str, Any] = {
            "action_mask": self._mask.copy() if copy else self._mask,
            "illegal_action": self._flags.astype(np.bool_) if copy else self._flags.view(
                np.bool_),
            "seat": core.actors.copy() if copy else core.actors,
        }
        if self.self_play:
            info["rewards"] = core.results.copy() if copy else core.results
        else:
            info["skipped_hands"] = self._skipped.copy() if copy else self._skipped
        return info


def _policies(opponents: object, needed: int) -> list[Any]:
    """``opponents`` as one policy per other seat: ``"random"``, a batch callable or a model
    with ``predict``; one for all, or a list or tuple of one per seat."""
    items: list[object]
    if type(opponents) in (list, tuple):
        items = list(opponents)   # type: ignore[call-overload]
        if len(items) != needed:
            raise ConfigError("T1", f"{needed} opponents needed, got {len(items)}")
    else:
        items = [opponents] * needed
    for i, policy in enumerate(items):
        if type(policy) is str:
            if policy != "random":
                raise ConfigError("T1", f"opponents[{i}]: the vector env plays 'random' "
                                        f"(the engine's bots, like {policy!r}, play in "
                                        "OmahaGymEnv), a batch callable or a model with "
                                        "predict")
        elif not (callable(getattr(policy, "predict", None)) or callable(policy)):
            raise ConfigTypeError("T1", f"opponents[{i}] must be 'random', a batch callable "
                                        "(observations, masks) -> actions, or a model with "
                                        f"predict, got {safe_repr(policy)}")
    return items


def _autoreset(mode: object) -> AutoresetMode:
    """``autoreset_mode``: next step (the default) or same step, as Gymnasium names them."""
    if isinstance(mode, AutoresetMode) and mode is not AutoresetMode.DISABLED:
        return mode
    if type(mode) is str and mode in ("NextStep", "SameStep"):
        return AutoresetMode(mode)
    raise ConfigError(None, "autoreset_mode must be AutoresetMode.NEXT_STEP or SAME_STEP "
                            f"('NextStep', 'SameStep'), got {safe_repr(mode)}")


_RANKS, _SUITS = "23456789TJQKA", "cdhs"


def _card(index: int) -> str:
    return _RANKS[index // 4] + _SUITS[index % 4]


def describe_observation(row: Observations, players: int, hole_cards: int) -> str:
    """One observation in words: the observer's cards, the board, the street, the pot and
    every player's stack and bet (big blinds), observer first."""
    cards = "".join(_card(int(i)) for i in np.flatnonzero(row[:52]))
    board = "".join(_card(int(i)) for i in np.flatnonzero(row[52:104])) or "-"
    streets = np.flatnonzero(row[104:108])
    street = ("preflop", "flop", "turn", "river")[int(streets[0])] if streets.size else "over"
    lines = [(f"{street}  cards {cards or '?' * 2 * hole_cards}  board {board}  "
              f"pot {float(row[108]):g} bb  to call {float(row[109]):g} bb")]
    for k in range(players):
        base = TABLE_FEATURES + PLAYER_FEATURES * k
        stack, bet = float(row[base]), float(row[base + 1])
        state = ("folded" if row[base + 5] else "all-in" if row[base + 4] else "active")
        who = "you" if k == 0 else f"+{k}"
        lines.append(f"  {who:>3}: stack {stack:g}  bet {bet:g}  {state}"
                     f"{'  button' if row[base + 6] else ''}")
    return "\n".join(lines)

