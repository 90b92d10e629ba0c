"""A decision's strategy by hand class: what each hand of the range holds on the river.

A hand's class is its high category (``Straight flush`` .. ``High card``, the evaluator's
names) and, in hi/lo, whether it also makes a low (``Flush + low``), on the node's board. On
the turn of a turn spot (four board cards) it is the high category of the best five cards of
two hole and three board cards, with no low split. :func:`by_class` sums a
node's strategy over each class, weighted as :meth:`~omaha.solver.solution.Node.frequencies`
weighs the whole range (the range's weight times the player's own earlier actions), so the
classes' shares, weighted by their reach, add up to the node's frequencies. ``omaha solve``
prints them and draws them (``--plot``).

>>> from omaha.solver import Spot, solve
>>> spot = Spot("Ah Kd 7c 5s 2h", "AA**", "KK**", pot=100, stack=100, bets="pot",
...             raises="")
>>> rows = by_class(solve(spot, max_iterations=20).node())
>>> rows[0].label, round(sum(row.share for row in rows), 6)
('Straight', 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from omaha.analysis.evaluation import CATEGORIES, HIGH_STRENGTHS, category

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from omaha.solver.solution import Node
    from omaha.solver.spot import Spot

__all__ = ["ClassRow", "by_class", "hand_classes"]


@dataclass(frozen=True, slots=True)
class ClassRow:
    """One class at a node: its ``label``, the ``hands`` of the range in it, its ``share`` of
    the reach at the node, and each action's ``frequencies`` within it (action order)."""

    label: str
    hands: int
    share: float
    frequencies: tuple[float, ...]


def _first_strengths() -> list[int]:
    """The lowest high strength of each category, worst category first."""
    firsts: list[int] = []
    for strength in range(1, HIGH_STRENGTHS + 1):
        if len(firsts) < len(CATEGORIES) and category(strength) == CATEGORIES[len(firsts)]:
            firsts.append(strength)
    return firsts


_FIRSTS = _first_strengths()


def hand_classes(spot: Spot, player: int, board: tuple[int, ...] | None = None,
                 ) -> tuple[list[str], npt.NDArray[np.intp]]:
    """The class labels, best first, and each of ``player``'s hands' index into them, on
    ``board`` (the spot's by default; a turn spot's river nodes pass the five cards); -1 for
    a hand holding a card of ``board`` (the river card: it never reaches those nodes)."""
    import itertools

    import numpy as np

    from omaha.analysis.evaluation import evaluate_five_batch, evaluate_hilo_batch

    shown = np.array([int(c) for c in (spot.board if board is None else board)], np.uint8)
    held = np.isin(spot.cards(player), shown).any(axis=1)
    cards = spot.cards(player)[~held]
    low = None
    if len(shown) == 5:
        high, low = evaluate_hilo_batch(cards, shown)
    else:       # the turn: the best of two hole and three board cards, the evaluator's
        high = np.zeros(len(cards), dtype=np.int32)
        for two in itertools.combinations(range(4), 2):
            for three in itertools.combinations(shown, 3):
                five = np.concatenate([cards[:, two], np.tile(three, (len(cards), 1))], 1)
                high = np.maximum(high, evaluate_five_batch(five.astype(np.uint8)))
    cat = np.searchsorted(np.asarray(_FIRSTS), high, side="right") - 1   # 0 high card .. 8
    order = len(CATEGORIES) - 1 - cat                                    # 0 straight flush
    index = np.full(len(spot.cards(player)), -1, dtype=np.intp)
    if not spot.variant.hi_lo or low is None:
        index[~held] = order
        return [CATEGORIES[len(CATEGORIES) - 1 - k] for k in range(len(CATEGORIES))], index
    labels = []
    for k in range(len(CATEGORIES)):
        name = CATEGORIES[len(CATEGORIES) - 1 - k]
        labels += [f"{name} + low", name]
    index[~held] = 2 * order + (low == 0)
    return labels, index


def by_class(node: Node) -> list[ClassRow]:
    """``node``'s strategy summed over each class that reaches it, best class first."""
    import numpy as np

    labels, index = hand_classes(node.spot, node.player, tuple(int(c) for c in node.board))
    reach = node.reach()
    table = np.nan_to_num(node.strategy_table().astype(np.float64))   # NaN: never reach
    total = float(reach.sum())
    rows = []
    for k, label in enumerate(labels):
        members = index == k
        mass = float(reach[members].sum())
        if not members.any() or mass <= 0:
            continue
        mix = (table[:, members] @ reach[members]) / mass
        rows.append(ClassRow(label, int(members.sum()), mass / total,
                             tuple(float(x) for x in mix)))
    return rows
