"""Slow, obviously-correct game values for the solver tests (issue 29).

Walks a game tree hand by hand, over every pair of dealt hands that share no card, for given
strategies: each player's value under both strategies, or a player's best response (the best
action for each of their hands, chosen knowing only their own hand). Pots follow RULES.md S2
(tied high hands split), S3 (hi/lo: half to the best high, half to the best low, the whole
pot to the high when nobody has a low) and S4 (a fold gives the other player the pot).

A chance node deals one of its children's cards (``deals``), uniformly over those that neither
dealt hand holds, counted pair by pair; strengths are per board row, ``highs[p][row * hands +
i]``, the row of a node being ``boards[node]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DECISION, FOLD, SHOWDOWN, CHANCE = 0, 1, 2, 3


@dataclass
class RefGame:
    pot: int
    kinds: list[int]
    players: list[int]
    firsts: list[int]
    counts: list[int]
    commits: tuple[list[int], list[int]]
    hands: tuple[list[frozenset[int]], list[frozenset[int]]]
    weights: tuple[list[float], list[float]]
    highs: tuple[list[int], list[int]]
    lows: tuple[list[int], list[int]] | None = None
    deals: list[int] | None = None
    boards: list[int] | None = None


def share(game: RefGame, p: int, i: int, j: int, row: int = 0) -> float:
    """Player p's share of the pot at a showdown of p's hand i against the other's hand j,
    on the board of strength row ``row``."""
    q = 1 - p
    i += row * len(game.hands[p])
    j += row * len(game.hands[q])
    hi_me, hi_op = game.highs[p][i], game.highs[q][j]
    high = 1.0 if hi_me > hi_op else 0.5 if hi_me == hi_op else 0.0
    if game.lows is None:
        return high
    lo_me, lo_op = game.lows[p][i], game.lows[q][j]
    if lo_me == 0 and lo_op == 0:
        return high
    low = 1.0 if lo_me > lo_op else 0.5 if lo_me == lo_op else 0.0
    return high / 2 + low / 2


def payoff(game: RefGame, node: int, p: int, i: int, j: int) -> float:
    mine, theirs = game.commits[p][node], game.commits[1 - p][node]
    if game.kinds[node] == FOLD:
        return -mine if game.players[node] == p else game.pot + theirs
    row = game.boards[node] if game.boards else 0
    return share(game, p, i, j, row) * (game.pot + mine + theirs) - mine


def value(game: RefGame, p: int, strategies: dict[int, Sequence[float]], best: bool) -> float:
    """Player p's value in chips, the other playing ``strategies``; p plays them too, or
    best-responds when ``best``. ``strategies[node]`` is action-major over the actor's hands."""
    q = 1 - p
    n_me, n_op = len(game.hands[p]), len(game.hands[q])

    def walk(node: int, i: int, reach: list[float]) -> float:
        if game.kinds[node] == CHANCE:
            assert game.deals is not None
            children = range(game.firsts[node], game.firsts[node] + game.counts[node])
            cards = {game.deals[c] for c in children}
            total = 0.0
            for c in children:
                card = game.deals[c]
                if card in game.hands[p][i]:
                    continue
                left = [len(cards - game.hands[p][i] - game.hands[q][j]) for j in range(n_op)]
                total += walk(c, i, [0.0 if card in game.hands[q][j] else reach[j] / left[j]
                                     for j in range(n_op)])
            return total
        if game.kinds[node] != DECISION:
            return sum(reach[j] * payoff(game, node, p, i, j) for j in range(n_op)
                       if not game.hands[p][i] & game.hands[q][j])
        children = range(game.firsts[node], game.firsts[node] + game.counts[node])
        sigma = strategies[node]
        if game.players[node] == q:
            return sum(walk(c, i, [reach[j] * sigma[a * n_op + j] for j in range(n_op)])
                       for a, c in enumerate(children))
        values = [walk(c, i, reach) for c in children]
        if best:
            return max(values)
        return sum(sigma[a * n_me + i] * v for a, v in enumerate(values))

    total = sum(game.weights[p][i] * game.weights[q][j] for i in range(n_me)
                for j in range(n_op) if not game.hands[p][i] & game.hands[q][j])
    return sum(game.weights[p][i] * walk(0, i, list(game.weights[q]))
               for i in range(n_me)) / total
