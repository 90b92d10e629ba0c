"""Many tables stepped in one call, with NumPy arrays in and out (self-play throughput).

The caller plays every seat. Games without antes run on a NumPy engine that steps all
tables at once (:mod:`omaha.rl.fast`, checked step by step against the hand engine in the
tests); others drive one :class:`~omaha.rl.game.Episode` per table, as does
``engine="hands"``. ``engine`` says which was chosen (``"numpy"`` or ``"hands"``). Each call
takes one action per table (for that table's player to act) and returns, per table, the
next player's observation and mask and, for tables whose hand just ended, every player's
result in big blinds; a finished table deals its next hand at once (auto-reset), so the
returned observation is already the new hand's. The arrays are reused between calls (copy
them to keep them).

=================  =========================  ============================================
array              shape, dtype               meaning
=================  =========================  ============================================
``observation``    (tables, size) float32     the player to act's view (:mod:`.game`)
``action_mask``    (tables, actions) int8     their legal actions
``actor``          (tables,) int64            who acts (0-based player)
``rewards``        (tables, players) float32  results of the hands that ended this call
``done``           (tables,) bool             which tables' hands ended this call
=================  =========================  ============================================

>>> from omaha.rl import VectorTables
>>> tables = VectorTables(4, game="NO", players=2)
>>> obs, mask, actor = tables.reset(seed=1)
>>> obs.shape, mask.shape, actor.tolist(), tables.engine
((4, 126), (4, 6), [0, 0, 0, 0], 'numpy')
>>> import numpy as np
>>> obs, mask, actor, rewards, done = tables.step(np.zeros(4, np.int64))   # all fold
>>> done.tolist(), rewards[0].tolist()
([True, True, True, True], [-0.5, 0.5])
>>> len(tables.last_history(0).actions) > 0
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from omaha.config import GameConfig
from omaha.errors import ArrayError, ConfigError
from omaha.hand import Hand
from omaha.rl.actions import ActionSet
from omaha.rl.fast import FastTables, supports
from omaha.rl.game import Episode, make_config

__all__ = ["VectorTables"]


class VectorTables:
    """``tables`` independent tables of ``players`` seats (options as in :mod:`.aec`)."""

    def __init__(self, tables: int, *, game: str = "PO", config: GameConfig | None = None,
                 players: int = 2, stack: int | None = None, blinds: tuple[int, int] = (1, 2),
                 stakes: tuple[int, int] = (2, 4), actions: ActionSet | None = None,
                 engine: str = "auto") -> None:
        if type(tables) is not int or not 1 <= tables <= 1_000_000:
            raise ConfigError(None, f"tables must be an int in 1..1000000, got {tables!r}")
        if config is None:
            config = make_config(game, blinds, stakes)
        first = Episode(config, players=players, stack=stack, actions=actions)  # checks options
        self.config, self.stack = config, first.stack
        self.tables, self.players = tables, players
        self.actions = first.actions
        if engine not in ("auto", "numpy", "hands"):
            raise ConfigError(None, f"engine must be 'auto', 'numpy' or 'hands', got {engine!r}")
        fast = supports(config, first.stack)
        if engine == "numpy" and not fast:
            raise ConfigError(None, "the NumPy engine plays games without antes whose stack "
                              "is above the big blind (and no Hold'em hi/lo)")
        self.engine = "numpy" if engine != "hands" and fast else "hands"
        self.episodes: list[Episode] = []
        self._fast: FastTables | None = None
        if self.engine == "numpy":
            self._fast = FastTables(config, tables=tables, players=players, stack=first.stack,
                                    actions=first.actions)
        else:
            self.episodes = [first] + [
                Episode(config, players=players, stack=stack, actions=actions)
                for _ in range(tables - 1)]
        self.observation = np.zeros((tables, first.observation_size), np.float32)
        self.action_mask = np.zeros((tables, self.actions.size), np.int8)
        self.actor = np.zeros(tables, np.int64)
        self.rewards = np.zeros((tables, players), np.float32)
        self.done = np.zeros(tables, np.bool_)
        self._finished: list[Hand | None] = [None] * tables

    def _write(self, i: int) -> None:
        episode = self.episodes[i]
        actor = episode._actor
        assert actor is not None   # a table's current hand always has someone to act
        self.actor[i] = actor
        episode.observation(actor, self.observation[i])
        self.action_mask[i] = episode._mask

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.float32],
                                                      npt.NDArray[np.int8],
                                                      npt.NDArray[np.int64]]:
        """Deal every table a hand; a ``seed`` makes the whole run reproducible."""
        if self._fast is not None:
            self._fast.reset(seed)
            self._sync()
            self.rewards[:] = 0
            self.done[:] = False
            return self.observation, self.action_mask, self.actor
        for i, episode in enumerate(self.episodes):
            episode.reset(None if seed is None else seed + i)
            self._write(i)
        self.rewards[:] = 0
        self.done[:] = False
        return self.observation, self.action_mask, self.actor

    def step(self, actions: Any) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8],
                                          npt.NDArray[np.int64], npt.NDArray[np.float32],
                                          npt.NDArray[np.bool_]]:
        """Apply one action per table; returns observation, mask, actor, rewards, done.

        ``actions`` is an integer array of length ``tables``; every action is checked
        against its table's mask before any table changes.
        """
        chosen = np.asarray(actions)
        if chosen.shape != (self.tables,) or chosen.dtype.kind not in "iu":
            raise ArrayError(f"actions must be an integer array of shape ({self.tables},), "
                             f"got {chosen.dtype} {chosen.shape}")
        size = self.actions.size
        if chosen.size and (chosen.min() < 0 or chosen.max() >= size):
            raise ArrayError(f"actions must be 0..{size - 1}")
        picked = self.action_mask[np.arange(self.tables), chosen]
        if not picked.all():
            bad = int(np.flatnonzero(picked == 0)[0])
            raise ArrayError(f"table {bad}: action {int(chosen[bad])} is masked (illegal now)")
        rewards, done = self.rewards, self.done
        rewards[:] = 0
        done[:] = False
        fast = self._fast
        if fast is not None:
            done[:] = fast.step(chosen.astype(np.int64))
            rewards[done] = (fast.final[done] - self.stack) / self.config.big_blind
            self._sync()
            return self.observation, self.action_mask, self.actor, rewards, done
        for i, action in enumerate(chosen.tolist()):
            episode = self.episodes[i]
            episode.step(action)
            if episode._actor is None:
                rewards[i] = episode.rewards()
                done[i] = True
                self._finished[i] = episode.hand
                episode.reset()
            self._write(i)
        return self.observation, self.action_mask, self.actor, rewards, done

    def _sync(self) -> None:
        fast = self._fast
        assert fast is not None
        fast.observe(self.observation)
        self.action_mask[:] = fast.mask
        self.actor[:] = fast.actor

    def last_history(self, table: int) -> Any:
        """Table ``table``'s last finished hand as PHH (None before the first ends)."""
        from omaha.phh.export import history_from_events

        fast = self._fast
        if fast is None:
            hand = self._finished[table]
            return None if hand is None else history_from_events(hand.events)
        actions = fast.last_log[table]
        if actions is None:
            return None
        episode = Episode(self.config, players=self.players, stack=self.stack,
                          actions=self.actions)
        stacks = dict.fromkeys(range(1, self.players + 1), self.stack)
        episode.hand = Hand(self.config, stacks=stacks, button=int(fast.last_button[table]) + 1,
                            deck=fast.last_decks[table].tolist())
        episode._refresh()
        for action in actions:
            episode.step(action)
        return episode.history()
