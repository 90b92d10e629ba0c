"""Many tables stepped in one call, with NumPy arrays in and out (self-play throughput).

The caller plays every seat. The tables run on the compiled batched kernel
(:class:`omahacore.vector.VectorCore`): every table is a hand engine state stepped by the
same compiled transitions :class:`~omaha.game.hand.Hand` runs, so the vector env plays exactly the
hand engine's game for every :class:`~omaha.config.GameConfig` (single blind, antes, big
blind antes, fixed, pot and no limit; the tests replay every table's hands on
:class:`~omaha.game.hand.Hand` and compare every state). ``engine="hands"`` drives one
:class:`~omaha.rl.game.Episode` per table instead (slower; the same rules).

Each call takes one action per table (for that table's player to act) and returns, per
table, the next player's observation and mask and, for tables whose hand just ended, every
player's result in big blinds; a finished table deals its next hand at once (auto-reset), so
the returned observation is already the new hand's. The arrays are reused between calls
(copy them to keep them). Cards come from the OS's cryptographic generator (C2) unless
:meth:`reset` gets a seed, which makes the whole run reproducible.

The reward policy of every environment of :mod:`omaha.rl` (issue 23): a *masked* action of
the action space (illegal now) is played as a fold, exactly the outcome of folding in that
state (the engine allows a fold on any turn, B2), and flagged in :attr:`illegal_action`; it
is never worth more than folding and never earns a special reward. Anything outside the
action space (a wrong shape or dtype, an index out of range) is refused with
:class:`~omaha.errors.ArrayError` and changes nothing.

===================  =========================  ============================================
array                shape, dtype               meaning
===================  =========================  ============================================
``observation``      (tables, size) float32     the player to act's view (:mod:`.game`)
``action_mask``      (tables, actions) int8     their legal actions
``actor``            (tables,) int64            who acts (0-based player)
``rewards``          (tables, players) float32  results of the hands that ended this call
``done``             (tables,) bool             which tables' hands ended this call
``illegal_action``   (tables,) bool             whose action was masked (played as a fold)
===================  =========================  ============================================

>>> from omaha.rl import VectorTables
>>> tables = VectorTables(4, game="NO", players=2)
>>> obs, mask, actor = tables.reset(seed=1)
>>> obs.shape, mask.shape, actor.tolist(), tables.engine
((4, 126), (4, 6), [0, 0, 0, 0], 'compiled')
>>> import numpy as np
>>> obs, mask, actor, rewards, done = tables.step(np.zeros(4, np.int64))   # all fold
>>> done.tolist(), rewards[0].tolist()
([True, True, True, True], [-0.5, 0.5])
>>> len(tables.last_history(0).actions) > 0
True
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np
import numpy.typing as npt

from omaha.config import FIXED_LIMIT, POT_LIMIT, GameConfig
from omaha.errors import ArrayError, ArrayTypeError, ConfigError, ConfigTypeError
from omaha.game.hand import Hand
from omaha.limits import as_int, safe_repr
from omaha.rl.actions import ActionSet
from omaha.rl.game import Episode, make_config, seed_option
from omahacore.vector import VectorCore

__all__ = ["VectorTables"]

ENGINES = ("compiled", "hands")


class VectorTables:
    """``tables`` independent tables of ``players`` seats (options as in :mod:`.aec`)."""

    def __init__(self, tables: int, *, game: str = "PO", config: GameConfig | None = None,
                 players: int = 2, stack: int | None = None, blinds: tuple[int, int] = (1, 2),
                 stakes: tuple[int, int] = (2, 4), actions: ActionSet | None = None,
                 engine: str = "compiled") -> None:
        tables = as_int(tables, "tables", low=1, high=1_000_000, error=ConfigError)
        if type(engine) is not str:
            raise ConfigTypeError(None, "engine must be 'compiled' or 'hands', "
                                        f"got {safe_repr(engine)}")
        if engine in ("auto", "numpy"):   # the names of 0.1's engines
            warnings.warn(f"engine={engine!r} is deprecated: the compiled engine plays every "
                          "game; use 'compiled' (the default)", DeprecationWarning, stacklevel=2)
            engine = "compiled"
        if engine not in ENGINES:
            raise ConfigError(None, f"engine must be 'compiled' or 'hands', got {engine!r}")
        if config is None:
            config = make_config(game, blinds, stakes)
        first = Episode(config, players=players, stack=stack, actions=actions)  # checks options
        self.config, self.stack = config, first.stack
        players = first.players   # the checked int
        self.tables, self.players = tables, players
        self.actions = first.actions
        self.engine = engine
        self.episodes: list[Episode] = []
        self._core: VectorCore | None = None
        if engine == "compiled":
            variant = config.variant
            self._core = VectorCore(
                tables, players, variant.hole_cards, variant.hi_lo, variant.hand_rule == "omaha",
                config.structure is FIXED_LIMIT, config.structure is POT_LIMIT,
                (config.bet_unit(0), config.bet_unit(1), config.bet_unit(2), config.bet_unit(3)),
                config.max_raises,
                config.uncapped_heads_up, config.ante, config.small_blind, config.big_blind,
                config.big_blind_ante, first.stack,
                np.array(self.actions.fractions, np.float64), self.actions.min_raise,
                self.actions.max_raise)
        else:
            self.episodes = [first] + [
                Episode(config, players=players, stack=stack, actions=actions)
                for _ in range(tables - 1)]
        if self._core is not None:   # the kernel writes its own arrays; they are these
            core = self._core
            self.observation, self.action_mask = core.observation, core.action_mask
            self.actor, self.rewards, self.done = core.actors, core.results, core.ended
        else:
            self.observation = np.zeros((tables, first.observation_size), np.float32)
            self.action_mask = np.zeros((tables, self.actions.size), np.int8)
            self.actor = np.zeros(tables, np.int64)
            self.rewards = np.zeros((tables, players), np.float32)
            self.done = np.zeros(tables, np.bool_)
        self._flags = np.zeros(tables, np.uint8)   # the kernel's illegal-action flags
        self.illegal_action = self._flags.view(np.bool_)
        self._finished: list[Hand | None] = [None] * tables
        self._rng: np.random.Generator | None = None   # None: the OS generator (C2)

    # --- cards (C2) --------------------------------------------------------------------

    def _refill(self) -> None:
        """Fill the kernel's pool of shuffled decks: bytes from the seeded generator, else
        the OS's cryptographic one."""
        core = self._core
        assert core is not None
        while core.pooled < core.pool_size:
            size = (core.pool_size - core.pooled) * core.cards_needed * 3 // 2 + 64
            core.refill(self._rng.bytes(size) if self._rng is not None else os.urandom(size))

    # --- the API -----------------------------------------------------------------------

    def _write(self, i: int) -> None:
        episode = self.episodes[i]
        actor = episode._actor
        assert actor is not None   # a table's current hand always has someone to act
        self.actor[i] = actor
        episode.observation(actor, self.observation[i])
        self.action_mask[i] = episode._mask

    def reset(self, seed: int | None = None, *,
              generator: np.random.Generator | None = None) -> tuple[
                  npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """Deal every table a hand, buttons on seat 1; a ``seed`` makes the whole run
        reproducible (else the OS's cryptographic generator shuffles, C2). The compiled
        engine also takes a NumPy ``generator`` to shuffle from, kept for the run (how
        :class:`~omaha.rl.gym_vector.OmahaVectorEnv` continues a seeded run)."""
        core = self._core
        # an integer; the compiled engine's NumPy generator takes only non-negative ones
        seed = seed_option(seed, low=0 if core is not None else None)
        if generator is not None and (core is None or seed is not None
                                      or not isinstance(generator, np.random.Generator)):
            raise ConfigError(None, "generator must be a numpy Generator, given without a "
                                    "seed, on the compiled engine")
        self._finished = [None] * self.tables
        self._flags[:] = 0
        if core is None:
            self.rewards[:] = 0
            self.done[:] = False
            for i, episode in enumerate(self.episodes):
                episode.reset(None if seed is None else seed + i)
                self._write(i)
            return self.observation, self.action_mask, self.actor
        self._rng = (generator if generator is not None else
                     np.random.default_rng(seed) if seed is not None else None)
        core.discard_pool()
        self._refill()
        core.reset()
        return self.observation, self.action_mask, self.actor

    def step(self, actions: Any) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8],
                                          npt.NDArray[np.int64], npt.NDArray[np.float32],
                                          npt.NDArray[np.bool_]]:
        """Apply one action per table; returns observation, mask, actor, rewards, done.

        ``actions`` is an integer array of length ``tables`` (or a list of ints), each an
        index of the action space (else :class:`~omaha.errors.ArrayError` before any table
        changes); a masked action is played as a fold and flagged in
        :attr:`illegal_action` (the package's reward policy, see the module notes).
        """
        chosen = actions if isinstance(actions, np.ndarray) else self._listed(actions)
        if chosen.shape != (self.tables,) or chosen.dtype.kind not in "iu":
            raise ArrayError(f"actions must be an integer array of shape ({self.tables},), "
                             f"got {chosen.dtype} {chosen.shape}")
        core = self._core
        if core is not None:
            if chosen.dtype != np.int64 or not chosen.flags.c_contiguous:
                chosen = np.ascontiguousarray(chosen, np.int64)
            if core.pooled < self.tables:   # a step deals at most one hand per table
                self._refill()
            core.step(chosen, self._flags)   # every action checked first (ArrayError)
            return self.observation, self.action_mask, self.actor, self.rewards, self.done
        size = self.actions.size
        if chosen.size and (chosen.min() < 0 or chosen.max() >= size):
            raise ArrayError(f"actions must be 0..{size - 1}")
        self.illegal_action[:] = self.action_mask[np.arange(self.tables), chosen] == 0
        rewards, done = self.rewards, self.done
        rewards[:] = 0
        done[:] = False
        for i, action in enumerate(chosen.tolist()):
            episode = self.episodes[i]
            _play(episode, action)
            if episode._actor is None:
                rewards[i] = episode.rewards()
                done[i] = True
                self._finished[i] = episode.hand
                episode.reset()
            self._write(i)
        return self.observation, self.action_mask, self.actor, rewards, done

    def _listed(self, actions: object) -> npt.NDArray[np.int64]:
        """A list or tuple of actions as an array, each item read by the one validator (no
        other object is asked anything: hostile containers never run their code here)."""
        if type(actions) not in (list, tuple):
            raise ArrayTypeError(f"actions must be an integer array of shape ({self.tables},) "
                                 f"or a list of ints, got {safe_repr(actions)}")
        items: tuple[object, ...] = tuple(actions)   # type: ignore[arg-type]
        if len(items) != self.tables:
            raise ArrayError(f"actions must hold {self.tables} actions, got {len(items)}")
        return np.array([as_int(item, "an action", low=0, high=self.actions.size - 1,
                                error=ArrayError) for item in items], np.int64)

    def table_state(self, table: int) -> dict[str, Any]:
        """Table ``table``'s current hand as plain numbers (street, player to act, pot,
        stacks, bets, contributions, player states, bet to call, button index; the compiled
        engine adds the dealt sequence, ``deck``)."""
        table = as_int(table, "table", low=0, high=self.tables - 1, error=ArrayError)
        if self._core is not None:
            return dict(self._core.state(table))
        hand = self.episodes[table]._hand
        return {"street": hand._street, "to_act": hand._to_act, "pot": hand._pot,
                "stacks": hand._stacks, "bets": hand._bets, "contrib": hand._contrib,
                "status": hand._status, "current_bet": hand._current_bet,
                "button": hand._button}

    def last_history(self, table: int) -> Any:
        """Table ``table``'s last finished hand as PHH (None before the first ends)."""
        from omaha.phh.export import history_from_events

        table = as_int(table, "table", low=0, high=self.tables - 1, error=ArrayError)
        core = self._core
        if core is None:
            hand = self._finished[table]
            return None if hand is None else history_from_events(hand.events)
        last = core.last_hand(table)
        if last is None:
            return None
        deck, button, actions = last
        episode = Episode(self.config, players=self.players, stack=self.stack,
                          actions=self.actions)
        stacks = dict.fromkeys(range(1, self.players + 1), self.stack)
        episode.hand = Hand(self.config, stacks=stacks, button=button + 1, deck=list(deck))
        episode._refresh()
        for action in actions:
            _play(episode, action)
        return episode.history()


def _play(episode: Episode, action: int) -> None:
    """``action`` for the player to act; a masked one is played as a fold (B2 allows a fold
    on any turn, even where checking is free and the mask hides it)."""
    if episode._mask[action]:
        episode.step(action)
    else:
        episode._hand.fold()
        episode._refresh()
