"""The ``solver`` bot: it re-solves heads-up river spots and plays from the solution.

When it faces a river decision in PLO or PLO hi/lo with exactly one opponent left, the bot

1. **estimates both ranges** (:func:`estimate_range`): ``hands`` random 4-card hands that
   miss the board, of which it keeps the stronger ``keep`` share by a cheap measure (the
   hand's place among the sample by its river high hand; in hi/lo the better of that and
   its place by its low), each with weight 1 — players who reach the river hold better than
   random hands. Its own hand is added to its range if the cut left it out. Nothing is
   read from the betting: both players get the same kind of range;
2. **builds the spot** from what the table shows: the pot when the river was dealt, the
   effective stack then (the smaller of the two players' chips behind plus their river
   bets), the player out of position as player 0, and the bot's sizes (half pot and pot
   bets, a pot raise, two raises at most by default);
3. **solves it** with a modest target and iteration cap (``target``, ``max_iterations``),
   about a second on narrowed ranges, once per river (later decisions on the same river
   reuse the solution);
4. **finds its node** (:func:`nearest_node`): of its decisions in the tree that face a bet
   exactly when it faces one at the table, the one whose river commitments (its own and its
   opponent's) are closest to the table's, in chips — a bet of 70 into 100 is played as the
   tree's nearer size, half pot (50) or pot (100);
5. **draws an action** from its hand's strategy there with the game's generator and plays
   it (:func:`decision_for`): a tree bet or raise *to* X is a raise to X clamped to the
   legal bounds (all-in is the legal maximum), ``fold`` where nothing is owed is a check,
   and a check or call is whichever the table allows.

Anywhere else (before the river, with more than one opponent, other games, or when the
situation does not say who is left) it plays like :class:`~omaha.game.bots.StrengthBot`.

>>> import random
>>> from omaha.config import GameConfig
>>> from omaha.game.bots import StrengthBot, play_session
>>> result = play_session(GameConfig.pot_limit(small_blind=1, big_blind=2),
...                       [SolverBot(hands=300, max_iterations=10), StrengthBot()],
...                       hands=4, stack=200, rng=random.Random(5))
>>> result.hands, sum(result.net.values())
(4, 0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from omaha.cards import Card, format_cards
from omaha.config import Variant
from omaha.game.bots import Decision, Situation, StrengthBot
from omaha.solver.cfr import solve
from omaha.solver.solution import Node, Solution
from omaha.solver.spot import SizesLike, Spot

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["RiverSpot", "SolverBot", "decision_for", "estimate_range", "nearest_node",
           "river_spot"]


@dataclass(frozen=True, slots=True)
class RiverSpot:
    """A heads-up river decision as the table shows it: the ``pot`` when the river was dealt,
    the effective ``stack`` then, the bot's ``player`` in the tree (0 out of position), and
    both players' river ``commits`` (the bot's, then its opponent's)."""

    pot: int
    stack: int
    player: int
    commits: tuple[int, int]


def river_spot(situation: Situation) -> RiverSpot | None:
    """The heads-up river spot of ``situation``, or None where the bot does not solve: not
    the river, not PLO or PLO hi/lo, not exactly one opponent left, or no chips to play."""
    variant = situation.variant
    if len(situation.board) != 5 or len(situation.opponents) != 1 or \
            variant.hole_cards != 4 or variant.hand_rule != "omaha" or \
            len(situation.hole_cards) != 4:
        return None
    rival = situation.opponents[0]
    pot = situation.pot_total - situation.bet - rival.bet
    stack = min(situation.stack + situation.bet, rival.stack + rival.bet)
    if pot < 1 or stack < 1:
        return None
    return RiverSpot(pot, stack, 0 if rival.acts_after else 1, (situation.bet, rival.bet))


def estimate_range(board: tuple[int, ...], variant: Variant, rng: random.Random, *,
                   hands: int = 2000, keep: float = 0.5) -> dict[str, float]:
    """A range for a player who reached the river on ``board`` (see the module): ``hands``
    random hands missing the board (drawn with ``rng``; repeats dropped), the stronger
    ``keep`` share kept, each with weight 1.

    >>> from omaha.config import variant_of
    >>> r = estimate_range((0, 5, 10, 20, 51), variant_of("plo"), random.Random(1), hands=100)
    >>> 45 <= len(r) <= 50, set(r.values())
    (True, {1.0})
    """
    import numpy as np

    from omaha.analysis.evaluation import evaluate_high_batch, evaluate_hilo_batch

    left = [c for c in range(52) if c not in board]
    drawn = sorted({tuple(sorted(rng.sample(left, 4))) for _ in range(hands)})
    cards = np.array(drawn, dtype=np.uint8).reshape(-1, 4)
    cut = np.array(list(board), dtype=np.uint8)
    if variant.hi_lo:
        highs, lows = evaluate_hilo_batch(cards, cut)
        score = np.maximum(_places(highs), np.where(lows > 0, _places(lows), 0.0))
    else:
        score = _places(evaluate_high_batch(cards, cut))
    count = max(1, round(keep * len(drawn)))
    kept = np.argsort(-score, kind="stable")[:count]
    return {format_cards([Card(int(c)) for c in cards[i]]): 1.0 for i in sorted(kept)}


def _places(values: npt.NDArray[np.int32]) -> npt.NDArray[np.float64]:
    """Each value's place among ``values`` in [0, 1] (the share of values below it)."""
    import numpy as np

    ordered = np.sort(values)
    return np.searchsorted(ordered, values, side="left") / len(values)


def nearest_node(solution: Solution, player: int, commits: tuple[int, int]) -> Node:
    """``player``'s decision in ``solution`` nearest the table (see the module): it faces a
    bet exactly when ``commits`` (``player``'s river chips, then the opponent's) do, and of
    those its commitments are closest in chips (the earlier node on a tie)."""
    mine, theirs = commits
    facing = theirs > mine
    best: Node | None = None
    best_gap = 0
    for node in solution.nodes():
        if node.player != player:
            continue
        tree_mine, tree_theirs = node.commits[player], node.commits[1 - player]
        if (tree_theirs > tree_mine) != facing:
            continue
        gap = abs(tree_mine - mine) + abs(tree_theirs - theirs)
        if best is None or gap < best_gap:
            best, best_gap = node, gap
    if best is None:    # cannot happen in a tree with bets: facing or not, a node exists
        raise LookupError(f"no decision of player {player} fits commitments {commits}")
    return best


def decision_for(label: str, situation: Situation) -> Decision:
    """The table action for the tree action ``label`` (see the module).

    >>> from omaha.config import variant_of
    >>> from omahacore.actions import LegalActions
    >>> legal = LegalActions(seat=1, can_fold=True, can_check=False, call_amount=50,
    ...                      min_raise_to=100, max_raise_to=200)
    >>> s = Situation(legal, (0, 1, 2, 3), (), 200, variant_of("plo"))
    >>> decision_for("raise 250", s), decision_for("fold", s), decision_for("call", s)
    (Decision(kind='raise', amount=200), Decision(kind='fold', amount=None), \
Decision(kind='call', amount=None))
    """
    legal = situation.legal
    kind, _, amount = label.partition(" ")
    if kind in ("bet", "raise", "allin") and legal.min_raise_to is not None:
        assert legal.max_raise_to is not None
        to = legal.max_raise_to if kind == "allin" else int(amount)
        return Decision("raise", min(max(to, legal.min_raise_to), legal.max_raise_to))
    if kind == "fold" and legal.can_call:
        return Decision("fold")
    return Decision("call") if legal.can_call else Decision("check")


class SolverBot:
    """Solves heads-up river spots and plays from the solution; elsewhere the strength bot
    (see the module). ``hands`` and ``keep`` shape the range estimates, ``bets``,
    ``raises`` and ``max_raises`` the tree, ``target`` and ``max_iterations`` the solve."""

    name = "solver"

    def __init__(self, *, hands: int = 2000, keep: float = 0.5,
                 bets: SizesLike = "50%,pot", raises: SizesLike = "pot", max_raises: int = 2,
                 target: float | str = "1%", max_iterations: int = 40) -> None:
        self.hands = hands
        self.keep = keep
        self.bets = bets
        self.raises = raises
        self.max_raises = max_raises
        self.target = target
        self.max_iterations = max_iterations
        self.fallback = StrengthBot()
        self._cached: tuple[object, Solution] | None = None

    def decide(self, situation: Situation, rng: random.Random) -> Decision:
        spot = river_spot(situation)
        if spot is None:
            return self.fallback.decide(situation, rng)
        solution = self.solution(situation, spot, rng)
        node = nearest_node(solution, spot.player, spot.commits)
        hole = format_cards([Card(c) for c in situation.hole_cards])
        strategy = node.strategy(hole)
        roll, total = rng.random() * sum(strategy), 0.0
        label = node.actions[-1]
        for action, p in zip(node.actions, strategy):
            total += p
            if roll < total:
                label = action
                break
        return decision_for(label, situation)

    def solution(self, situation: Situation, spot: RiverSpot, rng: random.Random) -> Solution:
        """The solved river of ``situation`` (solved once per river and hand)."""
        key = (situation.board, tuple(sorted(situation.hole_cards)), situation.variant.name,
               spot.pot, spot.stack, spot.player)
        if self._cached is not None and self._cached[0] == key:
            return self._cached[1]
        hole = format_cards([Card(c) for c in sorted(situation.hole_cards)])
        ranges = [estimate_range(situation.board, situation.variant, rng, hands=self.hands,
                                 keep=self.keep) for _ in (0, 1)]
        mine = ranges[spot.player]
        if hole not in mine:
            mine[hole] = 1.0
        solved = solve(Spot(situation.board, ranges[0], ranges[1], variant=situation.variant,
                            pot=spot.pot, stack=spot.stack, bets=self.bets,
                            raises=self.raises, max_raises=self.max_raises),
                       target=self.target, max_iterations=self.max_iterations,
                       check_every=max(1, self.max_iterations // 2))
        self._cached = (key, solved)
        return solved
