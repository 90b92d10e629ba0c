"""A solved spot: the values, the exploitability and the average strategy of every decision.

``ev`` is each player's expected value in chips under the average strategies (over the deals
of two hands that share no card, weighted by both ranges; the two add up to the pot);
``exploitability`` is the mean of the two players' gains from an exact best response, in
chips (``exploitability_pot``: as a share of the pot).

On a turn spot the decisions after the river card (history ``(..., "river Qs", ...)``) have a
column for every hand of the range, but hands holding that river card never reach them: their
column is NaN and :meth:`Node.strategy` refuses them.

On a turn spot solved with suit isomorphism, a river that mirrors another (see
:mod:`omaha.solver.isomorphism`) keeps no strategy of its own: its nodes read the mirrored
river's, each hand's column taken from the hand it maps to. Solved in 16-bit storage, the
strategies are kept in 16 bits too (each probability to the nearest 1/65535), about half the
memory of float32; :meth:`Node.strategy_table` widens one node at a time.

A solution is saved as a NumPy ``.npz`` file (no pickles): the spot's settings, both ranges,
the tree's labels and every stored node's strategy; :func:`load` reads it back.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from omaha.cards import Card, CardsLike, parse_cards
from omaha.errors import OmahaError, SolverError
from omaha.solver.isomorphism import Mirror, river_mirrors
from omaha.solver.spot import Spot
from omaha.solver.tree import Tree, build_tree, holders

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["FORMAT", "STEPS", "Node", "Solution", "compact", "load"]

FORMAT = "omaha-solution-2"
"""The ``format`` a saved solution carries: 2 adds suit isomorphism (``isomorphism`` in the
settings; no table for a mirroring river's nodes) and 16-bit tables (``uint16``, whole
1/:data:`STEPS`). :func:`load` reads 1 too (every node's table, float32)."""
READS = ("omaha-solution-1", FORMAT)

DECISION = 0

STEPS = 65535
"""A strategy kept in 16 bits holds each probability as a whole number of 1/STEPS."""

Table = Union["npt.NDArray[np.float32]", "npt.NDArray[np.uint16]"]


def compact(table: npt.NDArray[np.float32]) -> npt.NDArray[np.uint16]:
    """A strategy table in 16 bits: each probability to the nearest 1/:data:`STEPS` (NaN,
    a hand that never gets there, as 0).

    >>> import numpy as np
    >>> compact(np.array([[0.25, np.nan], [0.75, np.nan]], np.float32)).tolist()
    [[16384, 0], [49151, 0]]
    """
    import numpy as np

    return np.rint(np.nan_to_num(table) * STEPS).astype(np.uint16)


@dataclass(frozen=True)
class Node:
    """A decision: its ``history`` of action labels, the ``player`` to act (0 out of
    position), the ``pot`` there (the spot's pot plus both ``commits``), the ``actions``, and
    the strategy of each of the player's hands."""

    index: int
    history: tuple[str, ...]
    player: int
    pot: int
    commits: tuple[int, int]
    actions: tuple[str, ...]
    _solution: Solution

    @property
    def spot(self) -> Spot:
        """The spot this decision belongs to."""
        return self._solution.spot

    @property
    def hands(self) -> tuple[str, ...]:
        """The acting player's hands, in the order of :meth:`strategy_table`'s columns."""
        return self._solution.spot.hands(self.player)

    @property
    def board(self) -> tuple[Card, ...]:
        """The board here: the spot's, and on a turn spot past the river, the river card."""
        river = self._solution.tree.river(self.index)
        return self._solution.spot.board + ((Card(river),) if river >= 0 else ())

    def strategy(self, hand: CardsLike) -> tuple[float, ...]:
        """The probability of each action (in :attr:`actions` order) for ``hand``; a
        :class:`~omaha.errors.SolverError` for a hand holding a card of :attr:`board`."""
        solution = self._solution
        column = solution._column(self.player, hand)
        river = solution.tree.river(self.index)
        if river >= 0 and river in solution.spot.cards(self.player)[column]:
            raise SolverError(f"hand: {hand!r} holds the river card {Card(river)}, so it "
                              "never reaches this decision")
        stored, perm = solution._stored(self.index)
        got = stored[:, column if perm is None else perm[column]]
        scale = 1.0 / STEPS if got.dtype.kind == "u" else 1.0
        return tuple(float(x) * scale for x in got)

    def strategy_table(self) -> npt.NDArray[np.float32]:
        """The whole strategy: one row per action, one column per hand of :attr:`hands`
        (NaN for hands holding the river card dealt on the way here)."""
        return self._solution._table(self.index)

    def reach(self) -> npt.NDArray[np.float64]:
        """Each of :attr:`hands`' weight at this node: its range weight times the chances
        of the player's own earlier actions on the way here."""
        return self._solution._reach(self.index)

    def frequencies(self) -> tuple[float, ...]:
        """The share of each action over the hands that reach this node (weighted by the
        range and by the player's own earlier actions)."""
        import numpy as np

        reach = self.reach()
        table = np.nan_to_num(self._solution._table(self.index).astype(np.float64))
        total = float(reach.sum())
        if total <= 0:
            return tuple(0.0 for _ in self.actions)
        return tuple(float(x) for x in (table @ reach) / total)


class Solution:
    """What :func:`omaha.solver.solve` returns (see the module)."""

    def __init__(self, spot: Spot, tree: Tree, strategies: dict[int, Table],
                 ev: tuple[float, float], exploitability: float, iterations: int,
                 mirrors: dict[int, Mirror] | None = None) -> None:
        self.spot = spot
        self.tree = tree
        self.ev = ev
        self.exploitability = exploitability
        self.iterations = iterations
        self._strategies = strategies     # the nodes the tree's twins point at
        self._mirrors = mirrors or {}
        self._columns: list[dict[tuple[int, ...], int] | None] = [None, None]
        self._reaches: dict[int, npt.NDArray[np.float64]] = {}

    @property
    def exploitability_pot(self) -> float:
        """The exploitability as a share of the pot (0.003 is 0.3%)."""
        return self.exploitability / self.spot.pot

    def nodes(self) -> Iterator[Node]:
        """Every decision, breadth first from the root (player 0's first action)."""
        t = self.tree
        for n in range(len(t)):
            if t.kinds[n] == DECISION:
                yield self.node(n)

    def node(self, where: int | tuple[str, ...] = ()) -> Node:
        """The decision at a node index or after a history of labels (``()``: the root)."""
        t = self.tree
        if isinstance(where, bool):
            raise SolverError(f"node: a node index or a history of labels, got {where}")
        if isinstance(where, int):
            n = where
            if not 0 <= n < len(t) or t.kinds[n] != DECISION:
                raise SolverError(f"node: {n} is not a decision of this tree")
        else:
            n = 0
            for label in tuple(where):
                try:
                    n = t.child(n, label)
                except KeyError:
                    raise SolverError(f"node: no action {label!r} after "
                                      f"{t.history[n] or 'the start'}; there: "
                                      f"{', '.join(t.actions(n)) or 'none'}") from None
            if t.kinds[n] != DECISION:
                raise SolverError(f"node: {' '.join(where)} ends the hand")
        c0, c1 = t.commits[0][n], t.commits[1][n]
        return Node(n, t.history[n], t.players[n], self.spot.pot + c0 + c1, (c0, c1),
                    t.actions(n), self)

    def _column(self, player: int, hand: CardsLike) -> int:
        columns = self._columns[player]
        if columns is None:
            columns = {tuple(int(c) for c in row): i
                       for i, row in enumerate(self.spot.cards(player))}
            self._columns[player] = columns
        try:
            key = tuple(sorted(int(c) for c in parse_cards(hand)))
        except (OmahaError, TypeError) as exc:
            raise SolverError(f"hand: {exc}") from None
        if key not in columns:
            raise SolverError(f"hand: {hand!r} is not in player {player}'s range (after "
                              "card removal)")
        return columns[key]

    def _stored(self, node: int) -> tuple[Table, npt.NDArray[np.int32] | None]:
        """The table a node reads (its own, or its twin's under a mirrored river) and, for a
        mirroring river, each hand's column there."""
        twin = self.tree.twins[node]
        if twin == node:
            return self._strategies[node], None
        mirror = self._mirrors[self.tree.river(node)]
        return self._strategies[twin], mirror.perms[self.tree.players[node]]

    def _table(self, node: int) -> npt.NDArray[np.float32]:
        """A node's strategy as float32, NaN for hands holding its river card."""
        import numpy as np

        stored, perm = self._stored(node)
        table = stored if perm is None else stored[:, perm]
        if table.dtype != np.uint16:
            return table.astype(np.float32, copy=False)
        wide = table.astype(np.float32) / np.float32(STEPS)
        held = holders(self.spot, self.tree, node)
        if held is not None:        # the hands holding the river card never get here
            wide[:, held] = np.nan
        return wide

    def _reach(self, node: int) -> npt.NDArray[np.float64]:
        """The acting player's reach at ``node``: range weight times own action chances."""
        got = self._reaches.get(node)
        if got is not None:
            return got
        import numpy as np

        t = self.tree
        player = t.players[node]
        reach = self.spot.weights(player).copy()
        held = holders(self.spot, t, node)
        if held is not None:        # hands holding the river card never get here
            reach[held] = 0.0
        n = 0
        for label in t.history[node]:
            child = t.child(n, label)
            if t.kinds[n] == DECISION and t.players[n] == player:
                reach = reach * np.nan_to_num(self._table(n)[child - t.firsts[n]])
            n = child
        self._reaches[node] = reach
        return reach

    def summary(self) -> dict[str, object]:
        """Plain data: the spot, the values, the exploitability, the root's frequencies."""
        root = self.node()
        return {"spot": self.spot.to_dict(), "iterations": self.iterations,
                "ev": list(self.ev), "exploitability": self.exploitability,
                "exploitability_pot": self.exploitability_pot,
                "root": {"player": root.player,
                         "actions": dict(zip(root.actions, root.frequencies()))}}

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the solution to ``path`` (an ``.npz`` file; see the module)."""
        import numpy as np

        spot = self.spot
        meta = {"format": FORMAT, **spot.to_dict(), "ev": list(self.ev),
                "exploitability": self.exploitability, "iterations": self.iterations,
                "history": [list(h) for h in self.tree.history]}
        arrays: dict[str, Any] = {f"strategy_{n}": s for n, s in self._strategies.items()}
        # (uint16 tables stay 16-bit; a mirroring river's nodes are rebuilt by load)
        arrays.update(meta=np.array(json.dumps(meta)), cards0=spot.cards(0),
                      cards1=spot.cards(1), weights0=spot.weights(0), weights1=spot.weights(1))
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)


def load(path: str | os.PathLike[str]) -> Solution:
    """Read a solution :meth:`Solution.save` wrote; its spot and tree are rebuilt and
    checked against what was saved."""
    import numpy as np

    from omaha.cards import format_cards

    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"][()]))
            if not isinstance(meta, dict) or meta.get("format") not in READS:
                raise SolverError(f"path: {os.fspath(path)!r} is not a saved solution")
            ranges = []
            for p in (0, 1):
                cards, weights = data[f"cards{p}"], data[f"weights{p}"]
                ranges.append({format_cards([int(c) for c in row]): float(w)
                               for row, w in zip(cards, weights)})
            spot = Spot(meta["board"], ranges[0], ranges[1], variant=meta["variant"],
                        pot=meta["pot"], stack=meta["stack"], bets=meta["bets"],
                        raises=meta["raises"], max_raises=meta["max_raises"],
                        isomorphism=bool(meta.get("isomorphism", False)))
            mirrors = river_mirrors(spot)
            tree = build_tree(pot=spot.pot, stack=spot.stack, bets=spot.bets,
                              raises=spot.raises, max_raises=spot.max_raises,
                              rivers=spot.rivers,
                              mirrors={card: m.canon for card, m in mirrors.items()})
            if [list(h) for h in tree.history] != meta["history"]:
                raise SolverError(f"path: {os.fspath(path)!r} holds another tree")
            strategies: dict[int, Table] = {}
            for n in range(len(tree)):
                if tree.kinds[n] == DECISION and tree.twins[n] == n:
                    s = np.asarray(data[f"strategy_{n}"])
                    if s.dtype != np.uint16:
                        s = s.astype(np.float32)
                    want = (tree.counts[n], len(spot.cards(tree.players[n])))
                    if s.shape != want:
                        raise SolverError(f"path: node {n}'s strategy has shape {s.shape}, "
                                          f"not {want}")
                    strategies[n] = s
    except (KeyError, ValueError, TypeError) as exc:
        if isinstance(exc, OmahaError):
            raise
        raise SolverError(f"path: {os.fspath(path)!r} is not a readable solution: "
                          f"{exc}") from None
    return Solution(spot, tree, strategies, (float(meta["ev"][0]), float(meta["ev"][1])),
                    float(meta["exploitability"]), int(meta["iterations"]), mirrors)
