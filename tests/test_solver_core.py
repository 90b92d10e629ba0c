"""The compiled DCFR core (omahacore.solver, issue 29): Kuhn poker's known value, and exact
values and best responses against a slow reference on random trees and card games with card
removal (RULES.md C1: a card is dealt once; S2-S4 settle the leaves)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omaha.errors import OmahaError, SolverError, SolverTypeError
from omahacore.solver import Game
from reference_solver import DECISION, FOLD, SHOWDOWN, RefGame, value

# Kuhn poker: cards J < Q < K, each player antes 1 (pot 2), one bet of 1.
# node 0: P0 check (1) / bet (2); 1: P1 check (3 showdown) / bet (4); 2: P1 fold (5) / call (6)
# 4: P0 fold (7) / call (8)
KUHN = dict(kinds=[0, 0, 0, 2, 0, 1, 2, 1, 2], players=[0, 1, 1, 0, 0, 1, 0, 0, 0],
            firsts=[1, 3, 5, 0, 7, 0, 0, 0, 0], counts=[2, 2, 2, 0, 2, 0, 0, 0, 0],
            commits0=[0, 0, 1, 0, 0, 1, 1, 0, 1], commits1=[0, 0, 0, 0, 1, 0, 1, 1, 1])


def kuhn(**options: object) -> Game:
    return Game(2, KUHN["kinds"], KUHN["players"], KUHN["firsts"], KUHN["counts"],
                KUHN["commits0"], KUHN["commits1"], 1, bytes([0, 1, 2]), bytes([0, 1, 2]),
                [1, 1, 1], [1, 1, 1], [0, 1, 2], [0, 1, 2], **options)


def test_kuhn_value_is_minus_one_eighteenth_and_exploitability_falls_to_zero():
    game = kuhn()
    gaps = []
    for total in (10, 100, 1000, 5000):
        game.run(total - game.iterations)
        gaps.append(game.exploitability())
    assert all(b < a for a, b in zip(gaps, gaps[1:])), gaps
    assert 0 <= gaps[-1] < 1e-4
    ev0, ev1 = game.values()
    assert ev0 + ev1 == pytest.approx(2, abs=1e-12)             # the values sum to the pot
    assert ev0 - 1 == pytest.approx(-1 / 18, abs=2 * gaps[-1])  # the antes come back: pot/2
    # Kuhn's equilibria: P1 with the king always calls a bet, with the jack always folds
    strategy = game.strategy(2)      # P1 facing a bet: fold row, then call row
    assert strategy[3 + 2] == pytest.approx(1, abs=1e-3) and strategy[0] == pytest.approx(1, abs=1e-3)


@pytest.mark.parametrize("options", [dict(bits=16), dict(gamma=2.0), dict(beta=0.5)])
def test_kuhn_with_16_bit_storage_or_other_discounts_reaches_its_value(options):
    game = kuhn(**options)
    game.run(3000)
    gap = game.exploitability()
    assert 0 <= gap < 2e-3
    assert game.values()[0] - 1 == pytest.approx(-1 / 18, abs=2 * gap + 1e-9)


def random_game(rng: random.Random, cards: int, hilo: bool) -> RefGame:
    kinds, players, firsts, counts = [0], [0], [0], [0]
    commits: tuple[list[int], list[int]] = ([0], [0])
    level = [0]
    queue = [0]
    while queue:
        node = queue.pop(0)
        actor = players[node]
        n = rng.randint(1, 3)
        firsts[node], counts[node] = len(kinds), n
        for _ in range(n):
            kind = rng.choice([DECISION, FOLD, SHOWDOWN]) if level[node] < 3 else \
                rng.choice([FOLD, SHOWDOWN])
            c = [commits[0][node], commits[1][node]]
            c[actor] += rng.randint(0, 5)
            if kind == SHOWDOWN:
                c[0] = c[1] = max(c)
            kinds.append(kind)
            players.append(1 - actor if kind == DECISION else actor)
            firsts.append(0)
            counts.append(0)
            commits[0].append(c[0])
            commits[1].append(c[1])
            level.append(level[node] + 1)
            if kind == DECISION:
                queue.append(len(kinds) - 1)
    deck = rng.sample(range(52), cards + 4)
    every = [frozenset(h) for h in itertools.combinations(deck, cards)]
    hands = (rng.sample(every, min(len(every), rng.randint(1, 9))),
             rng.sample(every, min(len(every), rng.randint(1, 9))))
    weights = tuple([float(rng.choice([0, 1, 2, 0.5, 3.25])) for _ in h] for h in hands)
    for w in weights:
        w[0] = 1.0
    highs = tuple([rng.randint(0, 3) for _ in h] for h in hands)
    lows = tuple([rng.choice([0, 0, 1, 2]) for _ in h] for h in hands) if hilo else None
    return RefGame(rng.randint(1, 10), kinds, players, firsts, counts, commits, hands,
                   weights, highs, lows)  # type: ignore[arg-type]


def compiled(ref: RefGame, bits: int = 32, threads: int = 1) -> Game:
    def data(hands: list[frozenset[int]]) -> bytes:
        return bytes(c for h in hands for c in sorted(h, reverse=True))   # any order in a hand
    return Game(ref.pot, ref.kinds, ref.players, ref.firsts, ref.counts, ref.commits[0],
                ref.commits[1], len(ref.hands[0][0]), data(ref.hands[0]), data(ref.hands[1]),
                ref.weights[0], ref.weights[1], ref.highs[0], ref.highs[1],
                ref.lows[0] if ref.lows else None, ref.lows[1] if ref.lows else None,
                bits=bits, threads=threads)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cards=st.integers(1, 4), hilo=st.booleans(),
       iterations=st.integers(0, 7), bits=st.sampled_from([16, 32]), threads=st.integers(1, 3))
def test_values_and_best_responses_match_a_brute_force(seed, cards, hilo, iterations, bits,
                                                       threads):
    # 16-bit storage rounds the regrets and sums, yet the values of the strategy it holds
    # are as exact as with float32
    rng = random.Random(seed)
    ref = random_game(rng, cards, hilo)
    try:
        game = compiled(ref, bits=bits, threads=threads)
    except SolverError as exc:          # every weighted pair shares a card: nothing to deal
        assert "no deal is possible" in str(exc)
        return
    game.run(iterations)
    strategies = {n: game.strategy(n) for n in range(len(ref.kinds)) if ref.kinds[n] == DECISION}
    expect = [value(ref, p, strategies, best=False) for p in (0, 1)]
    best = [value(ref, p, strategies, best=True) for p in (0, 1)]
    assert game.values() == pytest.approx(expect, rel=1e-6, abs=1e-9)
    assert game.best_responses() == pytest.approx(best, rel=1e-6, abs=1e-9)
    assert sum(expect) == pytest.approx(ref.pot)
    assert game.exploitability() == pytest.approx((best[0] + best[1] - ref.pot) / 2, abs=1e-9)
    assert game.exploitability() >= -1e-9


@pytest.mark.parametrize("change, field, typed", [
    (dict(pot=0), "pot", False),
    (dict(pot=True), "pot", True),
    (dict(pot=2.0), "pot", True),
    (dict(cards=5), "cards", False),
    (dict(cards=True), "cards", True),
    (dict(kinds=[0, 0, 0, 2, 0, 1, 2, 1, 3]), "kinds", False),
    (dict(players=[0, 1, 2, 0, 0, 1, 0, 0, 0]), "players", False),
    (dict(firsts=[1, 1, 5, 0, 7, 0, 0, 0, 0]), "firsts", False),
    (dict(firsts=[1, 3, 5, 0, 3, 0, 0, 0, 0]), "firsts", False),
    (dict(counts=[2, 2, 2, 1, 2, 0, 0, 0, 0]), "counts", False),
    (dict(counts=[2, 2, 2, 0, 2, 0, 0, 0]), "counts", False),
    (dict(commits0=[0, 0, -1, 0, 0, 1, 1, 0, 1]), "commits0", False),
    (dict(commits1=[0, 0, 0, 0, 1.5, 0, 1, 1, 1]), "commits1", True),
    (dict(hands0=bytes([0, 1])), "weights0", False),
    (dict(hands0=b""), "hands0", False),
    (dict(hands0=[0, 1, 2]), "hands0", True),
    (dict(hands1=bytes([0, 1, 52])), "hands1", False),
    (dict(weights0=[1, 1, -1]), "weights0", False),
    (dict(weights0=[1, 1, float("nan")]), "weights0", False),
    (dict(weights0=[1, True, 1]), "weights0", True),
    (dict(weights1=[0, 0, 0]), "weights1", False),
    (dict(highs0=[0, 1, "2"]), "highs0", True),
    (dict(lows0=[0, 0, 0]), "lows0", False),
    (dict(hands0=bytes([0]), weights0=[1], highs0=[0], hands1=bytes([0]), weights1=[1],
          highs1=[0]), "no deal is possible", False),
    (dict(max_bytes=100), "max_bytes", False),
    (dict(bits=8), "bits", False),
    (dict(bits=24), "bits", False),
    (dict(bits=True), "bits", True),
    (dict(alpha=-1), "alpha", False),
    (dict(beta=float("nan")), "beta", False),
    (dict(gamma="2"), "gamma", True),
    (dict(threads=0), "threads", False),
    (dict(threads=1.0), "threads", True),
])
def test_bad_input_is_a_typed_error_naming_the_field(change, field, typed):
    args = dict(pot=2, **KUHN, cards=1, hands0=bytes([0, 1, 2]), hands1=bytes([0, 1, 2]),
                weights0=[1, 1, 1], weights1=[1, 1, 1], highs0=[0, 1, 2], highs1=[0, 1, 2])
    args.update(change)
    with pytest.raises(OmahaError, match=field) as info:
        Game(**args)
    assert isinstance(info.value, SolverError)
    assert isinstance(info.value, SolverTypeError) == typed


def test_run_takes_only_a_count():
    game = kuhn()
    for bad in (True, 1.0, "3"):
        with pytest.raises(SolverTypeError, match="iterations"):
            game.run(bad)
    with pytest.raises(SolverError, match="iterations"):
        game.run(-1)
    with pytest.raises(SolverError, match="node"):
        game.strategy(3)
    assert game.iterations == 0


@pytest.mark.parametrize("bits", [16, 32])
def test_strategy_into_matches_strategy_and_release_keeps_only_the_strategy(bits):
    import numpy as np

    game = kuhn(bits=bits)
    game.run(100)
    for node in (0, 1, 2, 4):
        out = np.empty(2 * 3, dtype=np.float32)
        game.strategy_into(node, out)
        assert out.tolist() == pytest.approx(game.strategy(node), abs=1e-7)
    with pytest.raises(SolverError, match="out"):
        game.strategy_into(0, np.empty(5, dtype=np.float32))
    before = game.strategy(0)
    game.release()
    assert game.strategy(0) == before
    for call in (lambda: game.run(1), game.values, game.exploitability):
        with pytest.raises(SolverError, match="released"):
            call()
