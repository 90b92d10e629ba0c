"""The betting tree of a river spot, pot limit (RULES.md B2, B4, B5, B8), flattened for the
compiled core: node 0 is player 0's first decision; the children of a node are consecutive
and come after it.

Actions are labelled in chips put in since the spot began: ``check``, ``bet 50``,
``raise 150`` (a raise *to* 150), ``call``, ``fold``, ``allin 300`` (the whole stack).

>>> tree = build_tree(pot=100, stack=300, bets=(0.5, 1.0), raises=(1.0,), max_raises=3)
>>> tree.actions(0)
('check', 'bet 50', 'bet 100')
>>> tree.actions(tree.child(0, 'bet 100'))
('fold', 'call', 'allin 300')
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from omahacore.solver import DECISION, FOLD, SHOWDOWN

__all__ = ["Tree", "build_tree"]


@dataclass
class Tree:
    """Node arrays (see :class:`omahacore.solver.Game`) and each node's history of labels."""

    kinds: list[int] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    firsts: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    commits: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    history: list[tuple[str, ...]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.kinds)

    def actions(self, node: int) -> tuple[str, ...]:
        """The labels of a node's actions, in the order of its children."""
        return tuple(self.history[c][-1] for c in self.children(node))

    def children(self, node: int) -> range:
        """The indices of a node's children."""
        return range(self.firsts[node], self.firsts[node] + self.counts[node])

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
                put(mine + amount, f"bet {amount}", False)
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
               max_raises: int) -> Tree:
    """The tree of a river spot (see the module), breadth first."""
    tree = Tree()

    def add(kind: int, player: int, commits: tuple[int, int], history: tuple[str, ...]) -> int:
        tree.kinds.append(kind)
        tree.players.append(player)
        tree.firsts.append(0)
        tree.counts.append(0)
        tree.commits[0].append(commits[0])
        tree.commits[1].append(commits[1])
        tree.history.append(history)
        return len(tree.kinds) - 1

    root = _State(0, (0, 0), 0, 0)
    add(DECISION, 0, root.commits, ())
    queue: deque[tuple[int, _State]] = deque([(0, root)])
    while queue:
        node, state = queue.popleft()
        actions = _actions(state, pot, stack, bets, raises, max_raises)
        tree.firsts[node] = len(tree.kinds)
        tree.counts[node] = len(actions)
        for label, kind, nxt in actions:
            history = tree.history[node] + (label,)
            if isinstance(nxt, _State):
                queue.append((add(DECISION, nxt.actor, nxt.commits, history), nxt))
            else:
                assert isinstance(nxt, tuple)
                add(kind, state.actor, nxt, history)
    return tree
