"""The betting tree of a river or turn spot, pot limit (RULES.md B2, B4, B5, B8), flattened
for the compiled core: node 0 is player 0's first decision; the children of a node are
consecutive and come after it.

Actions are labelled in chips put in since the spot began: ``check``, ``bet 50``,
``raise 150`` (a raise *to* 150), ``call``, ``fold``, ``allin 300`` (the whole stack). On a
turn spot (``rivers`` given) the action that closes the turn's betting leads to a chance node
whose children deal each river card (``river Qs``), each followed by the river's betting
from player 0 (or straight to the showdown when the stacks are all in).

>>> tree = build_tree(pot=100, stack=300, bets=(0.5, 1.0), raises=(1.0,), max_raises=3)
>>> tree.actions(0)
('check', 'bet 50', 'bet 100')
>>> tree.actions(tree.child(0, 'bet 100'))
('fold', 'call', 'allin 300')
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from omaha.cards import Card
from omahacore.solver import CHANCE, DECISION, FOLD, SHOWDOWN

if TYPE_CHECKING:   # NumPy is imported when a spot is built, not with omaha.solver
    import numpy as np
    import numpy.typing as npt

    from omaha.solver.spot import Spot

__all__ = ["Tree", "build_tree", "holders"]


@dataclass
class Tree:
    """Node arrays (see :class:`omahacore.solver.Game`) and each node's history of labels."""

    kinds: list[int] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    firsts: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    commits: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    history: list[tuple[str, ...]] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)
    """The river card a chance node's child deals (-1 elsewhere)."""
    boards: list[int] = field(default_factory=list)
    """The row of strengths a node's showdowns read: the index of its river card (or of the
    river it mirrors) in :attr:`rows` (0 on a river spot and on the turn)."""
    rows: list[int] = field(default_factory=list)
    """The river card of each row of strengths: the rivers solved (none on a river spot)."""
    mirrors: list[int] = field(default_factory=list)
    """For a chance node's child whose river mirrors another's (suit isomorphism), that
    sibling; -1 elsewhere."""
    twins: list[int] = field(default_factory=list)
    """The node whose strategy a node plays, its hands permuted: the node at the same place
    under the mirrored sibling for a node under a mirroring child; the node itself
    elsewhere."""

    def __len__(self) -> int:
        return len(self.kinds)

    def actions(self, node: int) -> tuple[str, ...]:
        """The labels of a node's actions, in the order of its children."""
        return tuple(self.history[c][-1] for c in self.children(node))

    def children(self, node: int) -> range:
        """The indices of a node's children."""
        return range(self.firsts[node], self.firsts[node] + self.counts[node])

    def river(self, node: int) -> int:
        """The river card dealt on the way to ``node`` (``node`` included), or -1."""
        n = 0
        for label in self.history[node]:
            n = self.child(n, label)
            if self.deals[n] >= 0:
                return self.deals[n]
        return -1

    def child(self, node: int, label: str) -> int:
        """The node an action leads to."""
        for c in self.children(node):
            if self.history[c][-1] == label:
                return c
        raise KeyError(label)


@dataclass(frozen=True)
class _State:
    actor: int
    commits: tuple[int, int]
    raises: int          # raises made after the bet
    increment: int       # the last bet or raise increment (B4: a raise adds at least it)


def _actions(s: _State, pot: int, stack: int, bets: tuple[float, ...],
             raises: tuple[float, ...], max_raises: int) -> list[tuple[str, int, object]]:
    """(label, kind, next state or None) for each action at ``s``."""
    a, o = s.actor, 1 - s.actor
    mine, theirs = s.commits[a], s.commits[o]
    left = stack - mine
    in_pot = pot + mine + theirs
    out: list[tuple[str, int, object]] = []

    def put(to: int, label: str, raised: bool) -> None:
        c = [0, 0]
        c[a], c[o] = to, theirs
        nxt = _State(o, (c[0], c[1]), s.raises + (1 if raised else 0), to - theirs)
        out.append((label, DECISION, nxt))

    if mine == theirs:
        if a == 0:      # nothing bet yet: player 0 checks to player 1
            out.append(("check", DECISION, _State(1, s.commits, 0, 0)))
        else:           # player 1 checks behind
            out.append(("check", SHOWDOWN, s.commits))
        amounts = sorted({min(max(1, round(f * in_pot)), in_pot) for f in bets})
        for amount in amounts:
            if mine + amount < stack:
                put(mine + amount, f"bet {mine + amount}", False)   # to, as raises
        if in_pot >= left and left > 0:
            put(stack, f"allin {stack}", False)
        return out
    out.append(("fold", FOLD, s.commits))
    out.append(("call", SHOWDOWN, (theirs, theirs)))
    if s.raises >= max_raises or theirs >= stack:
        return out
    after_call = in_pot + (theirs - mine)
    most = theirs + after_call                      # B5: the pot-limit raise
    least = theirs + max(s.increment, 1)            # B4: at least the last increment
    tos = sorted({min(max(theirs + round(f * after_call), least), most) for f in raises})
    for to in tos:
        if to < stack:
            put(to, f"raise {to}", True)
    if most >= stack:
        put(stack, f"allin {stack}", True)
    return out


def build_tree(*, pot: int, stack: int, bets: tuple[float, ...], raises: tuple[float, ...],
               max_raises: int, rivers: tuple[int, ...] = (),
               mirrors: Mapping[int, int] | None = None) -> Tree:
    """The tree of a river spot, or of a turn spot dealing each of ``rivers`` (card indices)
    when the turn's betting closes (see the module), breadth first. ``mirrors`` maps a river
    card to the smaller river card whose subtree it mirrors (suit isomorphism): its subtree
    is built (for the labels) but reads the other's rows (:attr:`Tree.twins`).

    >>> turn = build_tree(pot=100, stack=100, bets=(1.0,), raises=(), max_raises=0,
    ...                   rivers=(0, 51))
    >>> turn.actions(turn.child(0, 'check'))
    ('check', 'allin 100')
    >>> chance = turn.child(turn.child(0, 'check'), 'check')
    >>> turn.actions(chance), turn.actions(turn.child(chance, 'river 2c'))
    (('river 2c', 'river As'), ('check', 'allin 100'))
    """
    tree = Tree()
    mirrors = dict(mirrors or {})
    tree.rows = [c for c in rivers if c not in mirrors]
    row_of = {card: row for row, card in enumerate(tree.rows)}

    def add(kind: int, player: int, commits: tuple[int, int], history: tuple[str, ...],
            deal: int = -1, board: int = 0) -> int:
        tree.kinds.append(kind)
        tree.players.append(player)
        tree.firsts.append(0)
        tree.counts.append(0)
        tree.commits[0].append(commits[0])
        tree.commits[1].append(commits[1])
        tree.history.append(history)
        tree.deals.append(deal)
        tree.boards.append(board)
        return len(tree.kinds) - 1

    root = _State(0, (0, 0), 0, 0)
    add(DECISION, 0, root.commits, ())
    # (node, betting state or None for a chance node, whether the turn is being bet)
    queue: deque[tuple[int, _State | None, bool]] = deque([(0, root, bool(rivers))])
    while queue:
        node, state, turn = queue.popleft()
        tree.firsts[node] = len(tree.kinds)
        if state is None:           # deal each river; its betting starts from player 0
            commits = (tree.commits[0][node], tree.commits[1][node])
            tree.counts[node] = len(rivers)
            for card in rivers:
                row = row_of[mirrors.get(card, card)]
                history = tree.history[node] + (f"river {Card(card)}",)
                if commits[0] >= stack:         # all in: nothing left to bet
                    add(SHOWDOWN, 0, commits, history, card, row)
                    continue
                child = add(DECISION, 0, commits, history, card, row)
                queue.append((child, _State(0, commits, 0, 0), False))
            continue
        actions = _actions(state, pot, stack, bets, raises, max_raises)
        tree.counts[node] = len(actions)
        board = tree.boards[node]
        for label, kind, nxt in actions:
            history = tree.history[node] + (label,)
            if isinstance(nxt, _State):
                child = add(DECISION, nxt.actor, nxt.commits, history, board=board)
                queue.append((child, nxt, turn))
            elif kind == SHOWDOWN and turn:     # the turn's betting closes: the river comes
                assert isinstance(nxt, tuple)
                queue.append((add(CHANCE, 0, nxt, history), None, False))
            else:
                assert isinstance(nxt, tuple)
                add(kind, state.actor, nxt, history, board=board)
    _pair_mirrors(tree, mirrors)
    return tree


def holders(spot: Spot, tree: Tree, node: int) -> npt.NDArray[np.bool_] | None:
    """Which hands of the player acting at ``node`` hold the river card dealt on the way
    there (card removal, RULES.md C1: they never reach it), one per hand of
    ``spot.hands(player)``; ``None`` where no river card has been dealt (a river spot, or the
    turn's betting).

    >>> from omaha.solver.spot import Spot
    >>> spot = Spot("Ah Kd 7c 5s", {"AsAdQcJc": 1, "9h9d8c8s": 1}, "KK**", pot=10,
    ...             stack=10, bets="pot", raises="pot")
    >>> tree = build_tree(pot=10, stack=10, bets=(1.0,), raises=(1.0,), max_raises=1,
    ...                   rivers=spot.rivers)
    >>> chance = tree.child(tree.child(0, 'check'), 'check')
    >>> holders(spot, tree, 0) is None
    True
    >>> holders(spot, tree, tree.child(chance, 'river 9h')).tolist()
    [False, True]
    """
    river = tree.river(node)
    if river < 0:
        return None
    held: npt.NDArray[np.bool_] = (spot.cards(tree.players[node]) == river).any(axis=1)
    return held


def _pair_mirrors(tree: Tree, mirrors: dict[int, int]) -> None:
    """Fill :attr:`Tree.mirrors` and :attr:`Tree.twins`: each mirroring river's subtree
    paired node for node with its mirror's (both built the same way)."""
    tree.mirrors = [-1] * len(tree)
    tree.twins = list(range(len(tree)))
    for node in range(len(tree)):
        if tree.kinds[node] != CHANCE or not mirrors:
            continue
        by_card = {tree.deals[c]: c for c in tree.children(node)}
        for card, canon in mirrors.items():
            child, twin = by_card[card], by_card[canon]
            tree.mirrors[child] = twin
            pairs = [(child, twin)]
            while pairs:
                a, b = pairs.pop()
                tree.twins[a] = b
                pairs.extend(zip(tree.children(a), tree.children(b)))
