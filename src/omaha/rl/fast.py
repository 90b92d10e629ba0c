"""The betting engine of :class:`~omaha.rl.vector.VectorTables` as NumPy array operations.

Many tables of the same game step together: each table's state is one row of a few arrays
(stacks, bets, contributions, states, the betting round of B3-B8) and every rule of
:class:`~omaha.betting.BettingRound` and of the compiled round flow (``advance``) is written once
over all rows. Hands are compared by the compiled batch evaluator and the chips paid by the
compiled splitter (:func:`omahacore.pots.settle_batch`: side pots, returned bets, odd chips
S2/S3), exactly as the hand does it. Cards are dealt in the T6 layout from a shuffled deck
per table (the OS generator, C2, unless seeded), so a table's hand can be replayed by
:class:`~omaha.hand.Hand` with ``deck=``; the tests do that for every step.

Used for games without antes whose stack is above the big blind (Omaha with 4-6 hole
cards, high or hi/lo, and Hold'em high: the best of the 21 five-card hands of 7 cards, C6);
:class:`~omaha.rl.vector.VectorTables` drives :class:`~omaha.hand.Hand` objects otherwise.

>>> from omaha.rl.game import make_config
>>> from omaha.rl.actions import ActionSet
>>> fast = FastTables(make_config("PO"), tables=2, players=3, stack=200, actions=ActionSet())
>>> fast.reset(seed=1)
>>> fast.actor.tolist(), fast.mask.tolist()[0]
([0, 0], [1, 1, 1, 1, 0, 0])
"""

from __future__ import annotations

import os
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from omaha.config import FIXED_LIMIT, POT_LIMIT, GameConfig
from omaha.rl.actions import ActionSet
from omaha.rl.game import PLAYER_FEATURES, TABLE_FEATURES
from omahacore.batch import evaluate_five_batch, evaluate_high_batch, evaluate_hilo_batch
from omahacore.pots import settle_batch

__all__ = ["FastTables", "supports"]

ACTIVE, FOLDED, ALL_IN = 0, 1, 2
_SEVEN_CHOOSE_FIVE = np.array(list(combinations(range(7), 5)))   # Hold'em: best 5 of 7 (C6)
I64 = np.int64


def supports(config: GameConfig, stack: int) -> bool:
    """Whether :class:`FastTables` plays this game exactly (else use the hand engine)."""
    variant = config.variant
    return ((variant.hand_rule == "omaha" or not variant.hi_lo) and not config.ante
            and not config.big_blind_ante and stack > config.big_blind)


class FastTables:
    """``tables`` tables of ``players`` seats, each starting every hand with ``stack``."""

    def __init__(self, config: GameConfig, *, tables: int, players: int, stack: int,
                 actions: ActionSet) -> None:
        self.config, self.m, self.n, self.stack, self.actions = config, tables, players, stack, actions
        self.limit = config.structure is FIXED_LIMIT
        self.pot_limit = config.structure is POT_LIMIT
        self.h = config.variant.hole_cards
        self.needed = players * self.h + 8
        self.size = TABLE_FEATURES + PLAYER_FEATURES * players
        self.scale = 1.0 / config.big_blind
        m, n = tables, players
        self.stacks = np.zeros((m, n), I64)
        self.bets = np.zeros((m, n), I64)
        self.contrib = np.zeros((m, n), I64)
        self.status = np.zeros((m, n), np.int8)
        self.acted = np.zeros((m, n), np.bool_)
        self.holes = np.zeros((m, n, self.h), np.uint8)
        self.board = np.zeros((m, 5), np.uint8)
        self.decks = np.zeros((m, self.needed), np.uint8)
        def zeros() -> npt.NDArray[np.int64]:
            return np.zeros(m, I64)

        # per table: the street, who acts, the round (BettingRound's fields), pot and counts
        self.street, self.actor, self.current, self.min_raise = zeros(), zeros(), zeros(), zeros()
        self.full_level, self.raises, self.unit, self.cap = zeros(), zeros(), zeros(), zeros()
        self.pot, self.live, self.active = zeros(), zeros(), zeros()
        self.button, self.episodes = zeros(), zeros()
        self.final = np.zeros((m, n), I64)
        self.mask = np.zeros((m, actions.size), np.int8)
        self.totals = np.zeros((m, actions.size - 2), I64)
        self.call = np.zeros(m, I64)
        self.low = np.zeros(m, I64)
        self.high = np.zeros(m, I64)
        self.rows = np.arange(m)
        # each hand's actions (to rebuild its PHH), and the last finished hand of each table
        self.log = np.zeros((m, 16), np.int8)
        self.log_len = np.zeros(m, I64)
        self.last_log: list[list[int] | None] = [None] * m
        self.last_decks = np.zeros((m, self.needed), np.uint8)
        self.last_button = np.zeros(m, I64)
        self._rng: np.random.Generator | None = None

    # --- dealing -----------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> None:
        """Deal every table a hand; a seed fixes the decks and puts every button on seat 1."""
        self._rng = np.random.default_rng(seed) if seed is not None else None
        self.episodes[:] = 0
        self.log_len[:] = 0
        self.last_log = [None] * self.m
        self._deal(self.rows)
        self._legal()

    def _shuffled(self, count: int) -> npt.NDArray[np.uint8]:
        keys: npt.NDArray[Any]
        if self._rng is not None:
            keys = self._rng.random((count, 52))
        else:   # C2: the OS generator
            keys = np.frombuffer(os.urandom(count * 52 * 8), np.uint64).reshape(count, 52)
        return np.argsort(keys, axis=1, kind="stable")[:, :self.needed].astype(np.uint8)

    def _deal(self, t: npt.NDArray[np.int64]) -> None:
        n, h, config = self.n, self.h, self.config
        deck = self.decks[t] = self._shuffled(len(t))
        button = self.button[t] = self.episodes[t] % n
        self.episodes[t] += 1
        sb = button if n == 2 else (button + 1) % n
        bb = (sb + 1) % n
        position = (np.arange(n)[None, :] - sb[:, None]) % n          # T6: from the small blind
        rounds = np.arange(h)[None, None, :] * n + position[:, :, None]
        self.holes[t] = np.take_along_axis(deck[:, None, :], rounds.reshape(len(t), 1, -1),
                                           axis=2).reshape(len(t), n, h)
        base = n * h
        self.board[t] = deck[:, [base + 1, base + 2, base + 3, base + 5, base + 7]]
        self.stacks[t] = self.stack
        self.bets[t] = 0
        rows = np.arange(len(t))
        bets = np.zeros((len(t), n), I64)
        bets[rows, sb] = config.small_blind
        bets[rows, bb] = config.big_blind
        self.bets[t] = bets
        self.contrib[t] = bets
        self.stacks[t] -= bets
        self.status[t] = ACTIVE
        self.acted[t] = False
        self.street[t] = 0
        self.current[t] = config.big_blind
        self.full_level[t] = config.big_blind
        self.unit[t] = config.bet_unit(0)
        self.min_raise[t] = config.bet_unit(0)
        self.raises[t] = 1 if self.limit else 0
        self.live[t] = n
        self.active[t] = n
        self.cap[t] = self._cap(n)
        self.pot[t] = config.small_blind + config.big_blind
        self.actor[t] = (bb + 1) % n

    def _cap(self, live: int) -> int:
        config = self.config
        if config.uncapped_heads_up and live == 2 or config.max_raises is None:
            return -1
        return config.max_raises

    # --- the rules of one decision (BettingRound.legal, B2-B8) -------------------------

    def _legal(self) -> None:
        r, a = self.rows, self.actor
        bet, stack, acted = self.bets[r, a], self.stacks[r, a], self.acted[r, a]
        current, unit = self.current, self.unit
        owed = current - bet
        call = np.where(owed > 0, np.minimum(owed, stack), 0)
        allin = bet + stack
        reopened = ~acted | (2 * owed >= unit if self.limit else owed >= self.min_raise)
        can = (allin > current) & (self.active > 1) & reopened
        if self.limit:
            can &= (self.cap < 0) | (self.raises < self.cap)
            low = np.minimum(self.full_level + unit, allin)
            high = low
        else:
            low = current + self.min_raise
            high = current + self.pot + owed if self.pot_limit else allin
            high = np.maximum(high, low)
            low = np.minimum(low, allin)
            high = np.minimum(high, allin)
        self.call, self.low, self.high = call, np.where(can, low, 0), np.where(can, high, 0)
        # ActionSet.raise_totals and .mask, over all tables
        after_call = self.pot + call
        columns = [current + (f * after_call).astype(I64) for f in self.actions.fractions]
        columns = [np.clip(c, low, high) for c in columns]
        if self.actions.min_raise:
            columns.append(low)
        if self.actions.max_raise:
            columns.append(high)
        mask = self.mask
        mask[:, 0] = call > 0
        mask[:, 1] = 1
        for k, column in enumerate(columns):
            self.totals[:, k] = column
            fresh = can.copy()
            for earlier in columns[:k]:
                fresh &= column != earlier
            mask[:, 2 + k] = fresh

    # --- one step ----------------------------------------------------------------------

    def step(self, chosen: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """Apply checked, legal actions (one per table); returns which hands ended.

        Ended hands' final stacks are in :attr:`final`; those tables are dealt again.
        """
        r, a = self.rows, self.actor
        if int(self.log_len.max()) >= self.log.shape[1]:
            self.log = np.concatenate([self.log, np.zeros_like(self.log)], axis=1)
        self.log[r, self.log_len] = chosen
        self.log_len += 1
        fold = chosen == 0
        f = r[fold]
        self.status[f, a[fold]] = FOLDED
        self.live[f] -= 1
        self.active[f] -= 1
        raising = chosen >= 2
        to = np.where(raising, self.totals[r, np.maximum(chosen - 2, 0)], 0)
        bet, stack = self.bets[r, a], self.stacks[r, a]
        amount = np.where(raising, to - bet, np.where(chosen == 1, self.call, 0))
        moves = ~fold
        self.stacks[r, a] -= amount
        self.bets[r, a] += amount
        self.contrib[r, a] += amount
        self.pot += amount
        self.acted[r[moves], a[moves]] = True
        all_in = moves & (amount > 0) & (amount == stack)
        self.status[r[all_in], a[all_in]] = ALL_IN
        self.active[all_in] -= 1
        # apply_raise (B3, B4, B7)
        if self.limit:
            full = raising & (2 * (to - self.full_level) >= self.unit)
            self.full_level = np.where(full, to, self.full_level)
        else:
            full = raising & (to - self.current >= self.min_raise)
            self.min_raise = np.where(full, to - self.current, self.min_raise)
        self.raises += full
        self.current = np.where(raising, to, self.current)
        ended = self._advance(r, a.copy())
        if ended.size:
            self.last_decks[ended] = self.decks[ended]
            self.last_button[ended] = self.button[ended]
            for t in ended.tolist():
                self.last_log[t] = self.log[t, :self.log_len[t]].tolist()
            self.log_len[ended] = 0
            self._deal(ended)
        self._legal()
        done = np.zeros(self.m, np.bool_)
        done[ended] = True
        return done

    def _advance(self, work: npt.NDArray[np.int64],
                 after: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The round flow (the engine's advance and end_round) over the tables in ``work``;
        returns those that ended."""
        n = self.n
        ended = []
        while work.size:
            over = self.live[work] == 1
            if over.any():
                ended.append(work[over])
                self._finish(work[over], showdown=False)
                work, after = work[~over], after[~over]
            status, bets = self.status[work], self.bets[work]
            close = np.zeros(work.size, np.bool_)
            lone = self.active[work] <= 1
            if lone.any():
                is_active = status[lone] == ACTIVE
                j = np.where(is_active.any(1), is_active.argmax(1), -1)
                others = np.where(np.arange(n)[None, :] == j[:, None], np.iinfo(I64).min,
                                  bets[lone]).max(1)
                mine = bets[lone][np.arange(j.size), np.maximum(j, 0)]
                close[lone] = (j < 0) | (mine >= others)
            found = np.full(work.size, -1, I64)
            rows = np.arange(work.size)
            current, acted = self.current[work], self.acted[work]
            for offset in range(1, n + 1):
                j = (after + offset) % n
                ok = ((found < 0) & ~close & (status[rows, j] == ACTIVE)
                      & ((bets[rows, j] < current) | ~acted[rows, j]))
                found[ok] = j[ok]
            has = found >= 0
            self.actor[work[has]] = found[has]
            ending = work[~has]
            if not ending.size:
                break
            self.bets[ending] = 0
            self.acted[ending] = False
            river = self.street[ending] == 3
            runout = self.active[ending] < 2
            showdown = ending[river | runout]
            if showdown.size:
                ended.append(showdown)
                self._finish(showdown, showdown=True)
            work = ending[~river & ~runout]
            street = self.street[work] = self.street[work] + 1
            unit = np.where(street < 2, self.config.bet_unit(0), self.config.bet_unit(2))
            self.unit[work] = unit
            self.min_raise[work] = unit
            self.current[work] = 0
            self.full_level[work] = 0
            self.raises[work] = 0
            self.cap[work] = [self._cap(int(live)) for live in self.live[work]]
            after = self.button[work]
        return np.concatenate(ended) if ended else np.zeros(0, I64)

    def _finish(self, t: npt.NDArray[np.int64], *, showdown: bool) -> None:
        """Award every pot with the compiled splitter (S2-S4), as the hand does."""
        n = self.n
        folded = self.status[t] == FOLDED
        if showdown:
            boards = np.ascontiguousarray(self.board[t])
            holes = np.ascontiguousarray(self.holes[t])
            if self.config.variant.hand_rule == "holdem":
                seven = np.concatenate(
                    [holes, np.broadcast_to(boards[:, None, :], (len(t), n, 5))], axis=2)
                fives = np.ascontiguousarray(seven[:, :, _SEVEN_CHOOSE_FIVE]).reshape(-1, 5)
                high, low = evaluate_five_batch(fives).reshape(len(t), n, 21).max(2), None
            elif self.config.variant.hi_lo:
                high, low = evaluate_hilo_batch(holes, boards)
            else:
                high, low = evaluate_high_batch(holes, boards), None
            high = np.where(folded, 0, high).astype(np.int32)
            low = None if low is None else np.where(folded, 0, low).astype(np.int32)
        else:
            high, low = np.zeros((len(t), n), np.int32), None
        order = (self.button[t][:, None] + 1 + np.arange(n)[None, :]) % n
        payouts, _ = settle_batch(np.ascontiguousarray(self.contrib[t]), folded, high, low,
                                  order=order)
        self.final[t] = self.stacks[t] + payouts

    # --- observation (the layout of omaha.rl.game) -------------------------------------

    def observe(self, out: npt.NDArray[np.float32]) -> None:
        """Write the player to act's observation of every table into ``out`` (tables, size)."""
        m, n, scale = self.m, self.n, self.scale
        r, a = self.rows, self.actor
        out[:, :TABLE_FEATURES] = 0.0
        out[r[:, None], self.holes[r, a]] = 1.0
        visible = np.array([0, 3, 4, 5])[self.street]
        shown = np.arange(5)[None, :] < visible[:, None]
        out[np.broadcast_to(r[:, None], (m, 5))[shown], 52 + self.board[shown].astype(I64)] = 1.0
        out[r, 104 + self.street] = 1.0
        out[:, 108] = self.pot * scale
        out[:, 109] = self.call * scale
        out[:, 110] = self.low * scale
        out[:, 111] = self.high * scale
        seat = (a[:, None] + np.arange(n)[None, :]) % n
        status = np.take_along_axis(self.status, seat, 1)
        block = out[:, TABLE_FEATURES:].reshape(m, n, PLAYER_FEATURES)
        block[:, :, 0] = np.take_along_axis(self.stacks, seat, 1) * scale
        block[:, :, 1] = np.take_along_axis(self.bets, seat, 1) * scale
        block[:, :, 2] = np.take_along_axis(self.contrib, seat, 1) * scale
        block[:, :, 3] = status == ACTIVE
        block[:, :, 4] = status == ALL_IN
        block[:, :, 5] = status == FOLDED
        block[:, :, 6] = seat == self.button[:, None]
