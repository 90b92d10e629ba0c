"""The compiled DCFR core (omahacore.solver, issue 29): Kuhn and Leduc poker's known values
(Leduc against OpenSpiel's exact values of the same policy), and exact values and best
responses against a slow reference on random trees and card games with card removal and
chance nodes (RULES.md C1: a card is dealt once; S2-S4 settle the leaves)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omaha.errors import OmahaError, SolverError, SolverTypeError
from omahacore.solver import Game
from reference_solver import CHANCE, DECISION, FOLD, SHOWDOWN, RefGame, value

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


@pytest.mark.parametrize("options", [dict(bits=16), dict(gamma=2.0), dict(beta=0.5), dict(restart=4)])
def test_kuhn_with_16_bit_storage_or_other_discounts_reaches_its_value(options):
    game = kuhn(**options)
    game.run(3000)
    gap = game.exploitability()
    assert 0 <= gap < 2e-3
    assert game.values()[0] - 1 == pytest.approx(-1 / 18, abs=2 * gap + 1e-9)


# Leduc poker: six cards J, Q, K in two suits (card c has rank c // 2, OpenSpiel's order),
# antes 1, one private card each, then a public card; fixed-limit bets of 2 then 4, at most a
# bet and a raise a round, player 0 first in both rounds; a pair with the public card wins,
# else the higher card (equal ranks split).
FOLD_ID, CALL_ID, RAISE_ID = 0, 1, 2      # OpenSpiel's action ids


def leduc_tree() -> tuple[dict[str, list[int]], list[list[int]]]:
    """The arrays of Leduc's tree (children consecutive, after their parent) and each
    decision's OpenSpiel action ids in the order of its children."""
    t: dict[str, list[int]] = {k: [] for k in ("kinds", "players", "firsts", "counts",
                                                "commits0", "commits1", "deals", "boards")}
    ids: list[list[int]] = []

    def add(kind: int, player: int, commits: tuple[int, int], deal: int, board: int) -> int:
        for key, v in (("kinds", kind), ("players", player), ("firsts", 0), ("counts", 0),
                       ("commits0", commits[0]), ("commits1", commits[1]), ("deals", deal),
                       ("boards", board)):
            t[key].append(v)
        ids.append([])
        return len(t["kinds"]) - 1

    def expand(node: int, rnd: int, actor: int, commits: tuple[int, int], raises: int,
               checked: bool, board: int) -> None:
        if t["kinds"][node] == CHANCE:
            t["firsts"][node], t["counts"][node] = len(t["kinds"]), 6
            kids = [add(DECISION, 0, commits, card, card) for card in range(6)]
            for card, kid in enumerate(kids):
                expand(kid, 2, 0, commits, 0, False, card)
            return
        if t["kinds"][node] != DECISION:
            return
        mine, theirs = commits[actor], commits[1 - actor]
        size = 2 if rnd == 1 else 4
        plan = []       # (id, kind, actor next, commits, raises, checked)
        if mine < theirs:
            plan.append((FOLD_ID, FOLD, actor, commits, raises, checked))
        called = (theirs, theirs)
        if mine < theirs or checked:        # the round closes
            plan.append((CALL_ID, CHANCE if rnd == 1 else SHOWDOWN, actor, called, 0, False))
        else:
            plan.append((CALL_ID, DECISION, 1 - actor, commits, raises, True))
        if raises < 2:
            c = [0, 0]
            c[actor], c[1 - actor] = theirs + size, theirs
            plan.append((RAISE_ID, DECISION, 1 - actor, (c[0], c[1]), raises + 1, False))
        t["firsts"][node], t["counts"][node] = len(t["kinds"]), len(plan)
        kids = [add(kind, nxt, c, -1, board) for _, kind, nxt, c, _, _ in plan]
        ids[node] = [i for i, *_ in plan]
        for kid, (_, kind, nxt, c, r, ch) in zip(kids, plan):
            expand(kid, rnd, nxt, c, r, ch, board)

    expand(add(DECISION, 0, (0, 0), -1, 0), 1, 0, (0, 0), 0, False, 0)
    return t, ids


LEDUC, LEDUC_IDS = leduc_tree()


def leduc_strength(hand: int, public: int) -> int:
    return 10 + hand // 2 if hand // 2 == public // 2 else hand // 2


def leduc(**options: object) -> Game:
    highs = [leduc_strength(h, public) for public in range(6) for h in range(6)]
    return Game(2, LEDUC["kinds"], LEDUC["players"], LEDUC["firsts"], LEDUC["counts"],
                LEDUC["commits0"], LEDUC["commits1"], 1, bytes(range(6)), bytes(range(6)),
                [1] * 6, [1] * 6, highs, highs, deals=LEDUC["deals"], boards=LEDUC["boards"],
                **options)


def openspiel_policy(game: Game):  # type: ignore[no-untyped-def]
    """Our average strategy as an OpenSpiel policy: both trees walked side by side."""
    import pyspiel
    from open_spiel.python import policy

    spiel = pyspiel.load_game("leduc_poker")
    table = policy.TabularPolicy(spiel)
    strategies = {n: game.strategy(n) for n in range(len(LEDUC["kinds"]))
                  if LEDUC["kinds"][n] == DECISION}

    def walk(state, node: int, cards: tuple[int, ...]) -> None:  # type: ignore[no-untyped-def]
        if state.is_terminal():
            return
        if state.is_chance_node():
            for card, _ in state.chance_outcomes():
                child = state.child(card)
                if len(cards) < 2:
                    walk(child, node, cards + (card,))
                else:       # the public card: our chance node's child of that card
                    assert LEDUC["kinds"][node] == CHANCE
                    walk(child, LEDUC["firsts"][node] + card, cards)
            return
        player = state.current_player()
        assert LEDUC["kinds"][node] == DECISION and LEDUC["players"][node] == player
        assert sorted(LEDUC_IDS[node]) == sorted(state.legal_actions())
        probs = table.policy_for_key(state.information_state_string())
        for a, action in enumerate(LEDUC_IDS[node]):
            probs[action] = strategies[node][a * 6 + cards[player]]
            walk(state.child(action), LEDUC["firsts"][node] + a, cards)

    walk(spiel.new_initial_state(), 0, ())
    return spiel, table


def test_leduc_reaches_its_value_and_openspiel_agrees_on_the_same_policy():
    """Leduc's value for the first player is about -0.0856; our values and exploitability of
    the average strategy equal OpenSpiel's exact ones for the same policy."""
    pytest.importorskip("pyspiel", reason="OpenSpiel (the test extra) computes Leduc exactly")
    from open_spiel.python.algorithms import exploitability
    from open_spiel.python.algorithms.expected_game_score import policy_value

    game = leduc()
    gaps = []
    for total in (10, 100, 1000, 3000):
        game.run(total - game.iterations)
        gaps.append(game.exploitability())
    assert all(b < a for a, b in zip(gaps, gaps[1:])), gaps
    assert 0 <= gaps[-1] < 2e-3
    ev0, ev1 = game.values()
    assert ev0 + ev1 == pytest.approx(2, abs=1e-9)
    assert ev0 - 1 == pytest.approx(-0.0856, abs=2 * gaps[-1] + 1e-3)
    spiel, table = openspiel_policy(game)
    assert policy_value(spiel.new_initial_state(), [table, table]) == pytest.approx(
        [ev0 - 1, ev1 - 1], abs=1e-6)
    assert exploitability.exploitability(spiel, table) == pytest.approx(gaps[-1], abs=1e-6)


@pytest.mark.parametrize("bits", [16, 32])
def test_leduc_exploitability_is_openspiels_early_too(bits):
    pytest.importorskip("pyspiel", reason="OpenSpiel (the test extra) computes Leduc exactly")
    from open_spiel.python.algorithms import exploitability

    game = leduc(bits=bits)
    game.run(7)
    spiel, table = openspiel_policy(game)
    assert exploitability.exploitability(spiel, table) == pytest.approx(
        game.exploitability(), abs=1e-6)


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


def random_chance_game(rng: random.Random, cards: int, hilo: bool) -> RefGame:
    """A random tree with chance nodes: each deals any card of a small deck that no earlier
    chance node dealt, the hands drawn from the same deck; one strength row per card dealt."""
    deck = rng.sample(range(52), 2 * cards + 3)
    kinds, players, firsts, counts, deals, boards = [0], [0], [0], [0], [-1], [0]
    commits: tuple[list[int], list[int]] = ([0], [0])
    level, dealt = [0], [frozenset[int]()]
    queue = [0]

    def add(kind: int, player: int, c: list[int], deal: int, board: int, parent: int) -> None:
        kinds.append(kind)
        players.append(player)
        firsts.append(0)
        counts.append(0)
        commits[0].append(c[0])
        commits[1].append(c[1])
        deals.append(deal)
        boards.append(board)
        level.append(level[parent] + 1)
        dealt.append(dealt[parent] | ({deal} if deal >= 0 else set()))
        if kind in (DECISION, CHANCE):
            queue.append(len(kinds) - 1)

    while queue:
        node = queue.pop(0)
        c = [commits[0][node], commits[1][node]]
        firsts[node] = len(kinds)
        if kinds[node] == CHANCE:
            left = [card for card in deck if card not in dealt[node]]
            counts[node] = len(left)
            for card in left:
                kind = rng.choice([DECISION, SHOWDOWN]) if level[node] < 3 else SHOWDOWN
                add(kind, rng.randint(0, 1), c, card, max(boards) + 1, node)
            continue
        actor = players[node]
        counts[node] = rng.randint(1, 3)
        for _ in range(counts[node]):
            options = [FOLD, SHOWDOWN] + ([DECISION] if level[node] < 3 else [])
            if len(dealt[node]) < 2 and level[node] < 3:
                options.append(CHANCE)
            kind = rng.choice(options)
            mine = list(c)
            mine[actor] += rng.randint(0, 5)
            if kind in (SHOWDOWN, CHANCE):
                mine[0] = mine[1] = max(mine)
            add(kind, 1 - actor if kind == DECISION else actor, mine, -1, boards[node], node)
    every = [frozenset(h) for h in itertools.combinations(deck, cards)]
    hands = (rng.sample(every, min(len(every), rng.randint(1, 7))),
             rng.sample(every, min(len(every), rng.randint(1, 7))))
    weights = tuple([float(rng.choice([0, 1, 2, 0.5])) for _ in h] for h in hands)
    for w in weights:
        w[0] = 1.0
    rows = max(boards) + 1
    highs = tuple([rng.randint(0, 3) for _ in range(rows) for _ in h] for h in hands)
    lows = tuple([rng.choice([0, 0, 1, 2]) for _ in range(rows) for _ in h] for h in hands) \
        if hilo else None
    return RefGame(rng.randint(1, 10), kinds, players, firsts, counts, commits, hands,
                   weights, highs, lows, deals, boards)  # type: ignore[arg-type]


def compiled(ref: RefGame, bits: int = 32, threads: int = 1) -> Game:
    def data(hands: list[frozenset[int]]) -> bytes:
        return bytes(c for h in hands for c in sorted(h, reverse=True))   # any order in a hand
    return Game(ref.pot, ref.kinds, ref.players, ref.firsts, ref.counts, ref.commits[0],
                ref.commits[1], len(ref.hands[0][0]), data(ref.hands[0]), data(ref.hands[1]),
                ref.weights[0], ref.weights[1], ref.highs[0], ref.highs[1],
                ref.lows[0] if ref.lows else None, ref.lows[1] if ref.lows else None,
                bits=bits, threads=threads, deals=ref.deals, boards=ref.boards)


def check_against_brute_force(ref: RefGame, iterations: int, bits: int, threads: int) -> None:
    """Compile ``ref``, run it, and check its values, best responses and exploitability
    against the reference's brute force for the strategies reached."""
    try:
        game = compiled(ref, bits=bits, threads=threads)
    except SolverError as exc:          # every weighted pair shares a card: nothing to deal
        assert "no deal is possible" in str(exc)
        return
    game.run(iterations)
    strategies = {n: game.strategy(n) for n in range(len(ref.kinds)) if ref.kinds[n] == DECISION}
    expect = [value(ref, p, strategies, best=False) for p in (0, 1)]
    best = [value(ref, p, strategies, best=True) for p in (0, 1)]
    # float32 rows: values carry a rounding of about 1e-7 of the pot (not of a value near 0)
    assert game.values() == pytest.approx(expect, rel=1e-6, abs=1e-6 * ref.pot)
    assert game.best_responses() == pytest.approx(best, rel=1e-6, abs=1e-6 * ref.pot)
    assert sum(expect) == pytest.approx(ref.pot)
    # float32 rows: the two best responses carry a rounding of about 1e-7 of the pot each
    assert game.exploitability() == pytest.approx((best[0] + best[1] - ref.pot) / 2,
                                                  abs=1e-6 * ref.pot)
    assert game.exploitability() >= -1e-6 * ref.pot


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cards=st.integers(1, 4), hilo=st.booleans(),
       iterations=st.integers(0, 7), bits=st.sampled_from([16, 32]), threads=st.integers(1, 3))
def test_values_and_best_responses_match_a_brute_force(seed, cards, hilo, iterations, bits,
                                                       threads):
    # 16-bit storage rounds the regrets and sums, yet the values of the strategy it holds
    # are as exact as with float32
    check_against_brute_force(random_game(random.Random(seed), cards, hilo), iterations, bits,
                              threads)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cards=st.integers(1, 4), hilo=st.booleans(),
       iterations=st.integers(0, 5), bits=st.sampled_from([16, 32]), threads=st.integers(1, 2))
def test_chance_nodes_match_a_brute_force_over_the_cards_dealt(seed, cards, hilo, iterations,
                                                               bits, threads):
    """Each card a chance node deals is equally likely given both hands (C1: never one a
    hand holds or one dealt before); the strengths below it are that board's."""
    check_against_brute_force(random_chance_game(random.Random(seed), cards, hilo), iterations,
                              bits, threads)


@pytest.mark.parametrize("change, field", [
    (dict(deals=[-1, 0, -1, 1, 2, 3, 4]), "deals"),         # a deal not under a chance node
    (dict(deals=[-1, -1, -1, -1, 2, 3, 4]), "deals"),       # a chance child dealing nothing
    (dict(deals=[-1, -1, -1, 1, 1, 3, 4]), "deals"),        # one card twice
    (dict(deals=[-1, -1, -1, 1, 2, 3, 52]), "deals"),
    (dict(deals=[-1, -1, -1, 1, 2, 3, True]), "deals"),
    (dict(hands0=bytes([1, 2, 9])), "deals"),               # a card the chance node lacks
    (dict(boards=[0, 0, 0, 1, 2, 3, -1]), "boards"),
    (dict(boards=[0, 0, 0, 1, 2, 3, 5]), "highs0"),         # 6 rows, strengths for 5
    (dict(deals=[-1, -1, -1, 1, 2]), "deals"),              # one entry per node
])
def test_bad_chance_trees_are_typed_errors_naming_the_field(change, field):
    # P0 folds (node 1) or goes to the chance node 2, which deals cards 1..4 (nodes 3..6,
    # strength rows 1..4); one-card hands 1, 2, 3: each card comes with chance 1/2
    args = dict(pot=2, kinds=[0, 1, 3, 2, 2, 2, 2], players=[0] * 7,
                firsts=[1, 0, 3, 0, 0, 0, 0], counts=[2, 0, 4, 0, 0, 0, 0],
                commits0=[0] * 7, commits1=[0] * 7, cards=1, hands0=bytes([1, 2, 3]),
                hands1=bytes([1, 2, 3]), weights0=[1, 1, 1], weights1=[1, 1, 1],
                highs0=[0, 1, 2] * 5, highs1=[0, 1, 2] * 5,
                deals=[-1, -1, -1, 1, 2, 3, 4], boards=[0, 0, 0, 1, 2, 3, 4])
    with pytest.raises(SolverError, match=field):
        Game(**dict(args, **change))
    args = dict(args, hands0=bytes([1, 2]), hands1=bytes([3, 4]), weights0=[1, 1],
                weights1=[1, 1], highs0=[0, 1] * 5, highs1=[0, 1] * 5)
    game = Game(**args)                 # the fixture itself is good
    game.run(5)
    with pytest.raises(SolverError, match="counts"):    # 2 cards left for two hands of 1
        Game(**dict(args, kinds=[0, 1, 3, 2, 2], firsts=[1, 0, 3, 0, 0],
                    counts=[2, 0, 2, 0, 0], players=[0] * 5, commits0=[0] * 5,
                    commits1=[0] * 5, deals=[-1, -1, -1, 1, 2], boards=[0, 0, 0, 1, 2],
                    hands0=bytes([1, 2]), hands1=bytes([1, 2]), highs0=[0, 1] * 3,
                    highs1=[0, 1] * 3))


@pytest.mark.parametrize("change, field, typed", [
    (dict(pot=0), "pot", False),
    (dict(pot=True), "pot", True),
    (dict(pot=2.0), "pot", True),
    (dict(cards=5), "cards", False),
    (dict(cards=True), "cards", True),
    (dict(kinds=[0, 0, 0, 2, 0, 1, 2, 1, 4]), "kinds", False),
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
    (dict(restart=1), "restart", False),
    (dict(restart=4.0), "restart", True),
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
