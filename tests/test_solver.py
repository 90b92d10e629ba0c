"""omaha.solver (issue 29): river spots solved exactly. Showdown values against a brute force
with the slow reference evaluator (RULES.md C3-C5, S2-S4), the game value against a
sequence-form linear programme, suit invariance, hi/lo without a low equal to high, the
pot-limit tree (B4, B5), save/load and typed errors for bad input."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omaha import Range
from omaha.cards import format_cards, parse_cards
from omaha.errors import OmahaError, SolverError, SolverTypeError
from omaha.solver import Spot, load, solve
from omaha.solver.cfr import next_check
from omaha.solver.tree import build_tree
from reference_eval import omaha_high, omaha_low
from reference_solver import CHANCE, RefGame, value


def random_ranges(rng: random.Random, board: list[int], n: int) -> tuple[dict, dict]:
    left = [c for c in range(52) if c not in board]
    out = []
    for _ in range(2):
        hands: dict[str, float] = {}
        while len(hands) < n:
            hand = format_cards(sorted(rng.sample(left, 4)))
            hands[hand] = rng.choice([1.0, 0.5, 2.0])
        out.append(hands)
    return out[0], out[1]


def reference_of(spot: Spot, hilo: bool) -> RefGame:
    """The spot as a slow reference game, strengths from the reference evaluator; on a turn
    spot one row of strengths per river card (0 for hands holding it)."""
    tree = build_tree(pot=spot.pot, stack=spot.stack, bets=spot.bets, raises=spot.raises,
                      max_raises=spot.max_raises, rivers=spot.rivers)
    board = [int(c) for c in spot.board]
    boards = [board + [r] for r in spot.rivers] if spot.rivers else [board]
    hands = tuple([frozenset(int(c) for c in row) for row in spot.cards(p)] for p in (0, 1))

    def rows(evaluate):  # type: ignore[no-untyped-def]
        return tuple([0 if h & set(b) else evaluate(sorted(h), b) for b in boards
                      for h in hands[p]] for p in (0, 1))

    return RefGame(spot.pot, tree.kinds, tree.players, tree.firsts, tree.counts,
                   tree.commits, hands, tuple(list(spot.weights(p)) for p in (0, 1)),
                   rows(omaha_high), rows(omaha_low) if hilo else None, tree.deals,
                   tree.boards)  # type: ignore[arg-type]


BOARDS = ["Ah Kd 7c 5s 2h", "9h 9d 3c 4h Th", "Kh Qh Jh 2c 3d", "8s 6d 4c 2h As"]


@pytest.mark.parametrize("variant", ["plo", "plo8"])
@pytest.mark.parametrize("board", BOARDS)
def test_showdown_values_match_a_brute_force_exactly(variant, board):
    """Checked down: each player's value is their share of the pot over every pair of
    hands that share no card, weighted by both ranges (C3-C5, S2, S3)."""
    rng = random.Random(board + variant)
    oop, ip = random_ranges(rng, [int(c) for c in parse_cards(board)], 25)
    spot = Spot(board, oop, ip, variant=variant, pot=60, stack=100, bets="", raises="")
    solution = solve(spot, target=0, max_iterations=1)
    ref = reference_of(spot, variant == "plo8")
    assert solution.ev == pytest.approx([value(ref, p, {0: [1.0] * 25, 1: [1.0] * 25}, False)
                                         for p in (0, 1)], abs=1e-9)


@pytest.mark.parametrize("variant", ["plo", "plo8"])
def test_best_responses_match_a_brute_force(variant):
    rng = random.Random(variant)
    board = "Ah Kd 7c 5s 2h"
    oop, ip = random_ranges(rng, [int(c) for c in parse_cards(board)], 8)
    spot = Spot(board, oop, ip, variant=variant, pot=60, stack=100, bets="50%,pot",
                raises="pot")
    solution = solve(spot, target=0, max_iterations=20)
    ref = reference_of(spot, variant == "plo8")
    strategies = {n.index: list(n.strategy_table().astype(np.float64).ravel())
                  for n in solution.nodes()}
    best = [value(ref, p, strategies, True) for p in (0, 1)]
    ev = [value(ref, p, strategies, False) for p in (0, 1)]
    assert solution.ev == pytest.approx(ev, rel=1e-5)
    assert solution.exploitability == pytest.approx((sum(best) - spot.pot) / 2, abs=1e-4)


def lp_value(spot: Spot, ref: RefGame) -> float:
    """Player 0's game value from the sequence-form linear programme (von Stengel), SciPy."""
    from scipy.optimize import linprog
    from scipy.sparse import lil_matrix

    tree = build_tree(pot=spot.pot, stack=spot.stack, bets=spot.bets, raises=spot.raises,
                      max_raises=spot.max_raises, rivers=spot.rivers)
    n_hands = [len(ref.hands[0]), len(ref.hands[1])]
    # sequences: per hand, the empty one plus one per (own decision, action)
    seq: list[dict] = [{}, {}]
    parent_seq = [dict(), dict()]           # node -> each player's last own sequence there
    last = {0: (None, None)}
    order = range(len(tree))
    for n in order:
        if tree.kinds[n] == CHANCE:     # the river: nobody's sequence grows
            for c in tree.children(n):
                last[c] = last[n]
        if tree.kinds[n] != 0:
            continue
        p = tree.players[n]
        for a, c in enumerate(tree.children(n)):
            key = (n, a)
            seq[p][key] = len(seq[p]) + 1     # 0 is the empty sequence
            s0, s1 = last[n]
            last[c] = (key, s1) if p == 0 else (s0, key)
    size = [len(seq[p]) + 1 for p in (0, 1)]

    def index(p: int, hand: int, key) -> int:
        return hand * size[p] + (0 if key is None else seq[p][key])

    nx, ny = n_hands[0] * size[0], n_hands[1] * size[1]
    B = lil_matrix((nx, ny))
    total = sum(ref.weights[0][i] * ref.weights[1][j] for i in range(n_hands[0])
                for j in range(n_hands[1]) if not ref.hands[0][i] & ref.hands[1][j])
    from reference_solver import payoff
    rivers = set(spot.rivers)
    for z in order:
        if tree.kinds[z] in (0, CHANCE):
            continue
        s0, s1 = last[z]
        river = tree.river(z)
        for i in range(n_hands[0]):
            for j in range(n_hands[1]):
                if ref.hands[0][i] & ref.hands[1][j]:
                    continue
                w = ref.weights[0][i] * ref.weights[1][j] / total
                if river >= 0:      # the river's chance given both hands
                    both = ref.hands[0][i] | ref.hands[1][j]
                    w = 0.0 if river in both else w / len(rivers - both)
                B[index(0, i, s0), index(1, j, s1)] += w * payoff(ref, z, 0, i, j)
    # E x = e (player 0's plan), F^T q <= B^T x (player 1 best-responds), maximise f^T q
    def constraints(p: int):
        rows, rhs = [], []
        for h in range(n_hands[p]):
            rows.append({index(p, h, None): 1.0})
            rhs.append(1.0)
            for n in order:
                if tree.kinds[n] == 0 and tree.players[n] == p:
                    row = {index(p, h, (n, a)): 1.0 for a in range(tree.counts[n])}
                    row[index(p, h, last[n][p])] = -1.0
                    rows.append(row)
                    rhs.append(0.0)
        return rows, rhs
    E_rows, e = constraints(0)
    F_rows, f = constraints(1)
    nq = len(F_rows)
    # variables: x (nx, >= 0) then q (nq, free)
    A_eq = lil_matrix((len(E_rows), nx + nq))
    for r, row in enumerate(E_rows):
        for k, v in row.items():
            A_eq[r, k] = v
    A_ub = lil_matrix((ny, nx + nq))
    Bt = B.T.tocsr()
    A_ub[:, :nx] = -Bt
    for r, row in enumerate(F_rows):
        for k, v in row.items():
            A_ub[k, nx + r] += v
    cost = np.concatenate([np.zeros(nx), -np.array(f)])
    bounds = [(0, None)] * nx + [(None, None)] * nq
    res = linprog(cost, A_ub=A_ub.tocsr(), b_ub=np.zeros(ny), A_eq=A_eq.tocsr(), b_eq=e,
                  bounds=bounds, method="highs")
    assert res.status == 0, res.message
    return -res.fun


@pytest.mark.parametrize("variant, board", [("plo", "Ah Kd 7c 5s 2h"), ("plo8", "8s 6d 4c 2h As")])
def test_game_value_matches_the_sequence_form_lp(variant, board):
    pytest.importorskip("scipy", reason="the LP reference needs SciPy (the test extra)")
    rng = random.Random(board)
    oop, ip = random_ranges(rng, [int(c) for c in parse_cards(board)], 12)
    spot = Spot(board, oop, ip, variant=variant, pot=100, stack=200, bets="50%,pot",
                raises="pot")
    solution = solve(spot, target="0.05%", max_iterations=3000)
    ref = reference_of(spot, variant == "plo8")
    game_value = lp_value(spot, ref)
    # both the game value and the solution's value lie within [pot - br1, br0]
    assert abs(solution.ev[0] - game_value) <= 2 * solution.exploitability + 1e-6
    assert solution.exploitability <= 0.0005 * spot.pot


def permute(text: str, perm: dict[str, str]) -> str:
    return "".join(ch if ch not in perm or i % 2 == 0 else perm[ch]
                   for i, ch in enumerate(text.replace(" ", "")))


def test_permuting_suits_gives_the_same_values():
    rng = random.Random(5)
    board = "Ah Kd 7c 5s 2h"
    oop, ip = random_ranges(rng, [int(c) for c in parse_cards(board)], 30)
    perm = {"c": "h", "d": "s", "h": "d", "s": "c"}
    base = Spot(board, oop, ip, variant="plo8", pot=100, stack=300)
    moved = Spot(permute(board, perm), {permute(h, perm): w for h, w in oop.items()},
                 {permute(h, perm): w for h, w in ip.items()}, variant="plo8", pot=100,
                 stack=300)
    a = solve(base, target=0, max_iterations=60)
    b = solve(moved, target=0, max_iterations=60)
    assert a.ev == pytest.approx(b.ev, abs=1e-6)
    assert a.exploitability == pytest.approx(b.exploitability, abs=1e-6)
    hand = next(iter(oop))
    assert a.node().strategy(hand) == pytest.approx(b.node().strategy(permute(hand, perm)),
                                                    abs=1e-5)


def test_hilo_on_a_board_without_a_low_is_plo():
    """S3: with no qualifying low the high hand takes the whole pot."""
    board = "Kh Qd 9c 9s Th"        # two low cards at most: no 8-or-better low is possible
    rng = random.Random(9)
    oop, ip = random_ranges(rng, [int(c) for c in parse_cards(board)], 40)
    plo = solve(Spot(board, oop, ip, variant="plo", pot=100, stack=250), target=0,
                max_iterations=50)
    plo8 = solve(Spot(board, oop, ip, variant="plo8", pot=100, stack=250), target=0,
                 max_iterations=50)
    assert plo8.ev == pytest.approx(plo.ev, abs=1e-9)
    assert plo8.exploitability == pytest.approx(plo.exploitability, abs=1e-9)


@settings(max_examples=80, deadline=None)
@given(pot=st.integers(1, 500), stack=st.integers(1, 3000),
       bets=st.lists(st.sampled_from([0.25, 0.33, 0.5, 0.75, 1.0, 1.5]), max_size=3),
       raises=st.lists(st.sampled_from([0.5, 1.0, 2.0]), max_size=2),
       max_raises=st.integers(0, 4), turn=st.booleans())
def test_the_tree_keeps_pot_limit(pot, stack, bets, raises, max_raises, turn):
    """B2 actions, B4 minimum raise, B5 pot-limit maximum, B8 nobody past their stack; on
    the turn the river's betting starts again from player 0, sized by the pot then."""
    tree = build_tree(pot=pot, stack=stack, bets=tuple(sorted(set(bets))),
                      raises=tuple(sorted(set(raises))), max_raises=max_raises,
                      rivers=(3, 40) if turn else ())
    for n in range(len(tree)):
        c = (tree.commits[0][n], tree.commits[1][n])
        assert max(c) <= stack
        if tree.kinds[n] in (2, CHANCE):
            assert c[0] == c[1]
        if tree.kinds[n] == CHANCE:     # the turn closed: each river, then its betting
            assert turn and tree.history[n][-1] in ("check", "call")
            for child in tree.children(n):
                assert tree.history[child][-1].startswith("river ")
                assert (tree.commits[0][child], tree.commits[1][child]) == c
                assert tree.kinds[child] == (2 if c[0] == stack else 0)
                assert tree.players[child] == 0
        if tree.kinds[n] != 0:
            continue
        p = tree.players[n]
        facing = c[1 - p] - c[p]
        labels = tree.actions(n)
        assert len(set(labels)) == len(labels)
        assert labels[:2] == (("fold", "call") if facing else ("check",))[:2] or \
            labels[0] == "check"
        for child in tree.children(n):
            label = tree.history[child][-1]
            put = tree.commits[p][child]
            if label.startswith(("bet", "raise", "allin")):
                in_pot = pot + c[0] + c[1]
                assert put - c[p] <= facing + in_pot + facing       # B5
                assert int(label.split()[1]) == put
            if label.startswith("raise"):
                assert put - c[1 - p] >= 1                          # B4
            if label.startswith("allin"):
                assert put == stack and pot + sum(c) + 2 * facing >= stack - c[p]


def test_save_and_load_give_the_same_solution(tmp_path):
    spot = Spot("Ah Kd 7c 5s 2h", "AA**:$ds", "KK**:$ds", variant="plo8", pot=100,
                stack=300)
    solution = solve(spot, target="1%", max_iterations=50)
    path = tmp_path / "spot.npz"
    solution.save(path)
    again = load(path)
    assert again.ev == solution.ev and again.exploitability == solution.exploitability
    assert [n.history for n in again.nodes()] == [n.history for n in solution.nodes()]
    for a, b in zip(again.nodes(), solution.nodes()):
        assert a.hands == b.hands and a.actions == b.actions
        assert np.array_equal(a.strategy_table(), b.strategy_table())
    (tmp_path / "bad.npz").write_bytes(b"not a solution")
    with pytest.raises(SolverError, match="path"):
        load(tmp_path / "bad.npz")


def test_nodes_histories_and_frequencies():
    spot = Spot("Ah Kd 7c 5s 2h", "AA**:$ds", "KK**:$ds", pot=100, stack=300,
                bets="50%,pot", raises="pot")
    solution = solve(spot, target="1%", max_iterations=100)
    root = solution.node()
    assert root.history == () and root.player == 0 and root.pot == 100
    assert root.actions == ("check", "bet 50", "bet 100")
    facing = solution.node(("bet 100",))
    assert facing.actions == ("fold", "call", "allin 300") and facing.player == 1
    assert facing.commits == (100, 0) and facing.pot == 200
    for node in solution.nodes():
        assert sum(node.frequencies()) == pytest.approx(1, abs=1e-5) or \
            sum(node.frequencies()) == 0
        assert len(node.hands) == node.strategy_table().shape[1]
    with pytest.raises(SolverError, match="node"):
        solution.node(("raise 7",))
    with pytest.raises(SolverError, match="hand"):
        root.strategy("KcKsQcQs")


@pytest.mark.parametrize("change, field, typed", [
    (dict(board="Ah Ah 7c 5s 2h"), "board", False),
    (dict(board="Ah Kd 7c 5s 2h 3h"), "board", False),
    (dict(board="Ah Kd 7c"), "board", False),
    (dict(board="Ah Kd 7c 5s Zz"), "board", False),
    (dict(oop={"AhAcAdAs": 1}), "oop", False),
    (dict(ip={}), "ip", False),
    (dict(ip={"AcAd2c2d": -1}), "ip", False),
    (dict(ip={"AcAd2c2d": True}), "ip", True),
    (dict(ip={"AcAd2c": 1}), "ip", False),
    (dict(oop=5), "oop", True),
    (dict(oop="ZZ"), "oop", False),
    (dict(bets="0%"), "bets", False),
    (dict(bets=[-0.5]), "bets", False),
    (dict(raises="big"), "raises", False),
    (dict(raises=[True]), "raises", True),
    (dict(pot=0), "pot", False),
    (dict(pot=True), "pot", True),
    (dict(pot=1.5), "pot", True),
    (dict(stack=-3), "stack", False),
    (dict(stack="300"), "stack", True),
    (dict(variant="holdem"), "variant", False),
    (dict(variant="nosuchgame"), "variant", False),
    (dict(max_raises=-1), "max_raises", False),
])
def test_bad_spots_are_typed_errors_naming_the_field(change, field, typed):
    args = dict(board="Ah Kd 7c 5s 2h", oop="AA**", ip="KK**", variant="plo", pot=100,
                stack=300)
    args.update(change)
    board, oop, ip = args.pop("board"), args.pop("oop"), args.pop("ip")
    with pytest.raises(OmahaError, match=field) as info:
        Spot(board, oop, ip, **args)
    assert isinstance(info.value, SolverError)
    assert isinstance(info.value, SolverTypeError) == typed


def test_bad_solve_settings_and_a_raising_progress_stop_the_solve():
    spot = Spot("Ah Kd 7c 5s 2h", "AA**:$ds", "KK**:$ds", pot=100, stack=300)
    for kwargs, field in ((dict(target="lots"), "target"), (dict(target=-1), "target"),
                          (dict(max_iterations=True), "max_iterations"),
                          (dict(check_every=0), "check_every"),
                          (dict(max_bytes=10_000), "max_bytes"),
                          (dict(storage="8bit"), "storage"),
                          (dict(storage=["16bit"]), "storage"),
                          (dict(threads=0), "threads"),
                          (dict(threads="2"), "threads"),
                          (dict(progress=3), "progress")):
        with pytest.raises(SolverError, match=field):
            solve(spot, **kwargs)
    calls = []

    def stop(iterations: int, gap: float) -> None:
        calls.append(iterations)
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        solve(spot, target=0, max_iterations=100, progress=stop)
    assert calls == [10]


def test_a_range_object_and_its_text_agree():
    board = "Ah Kd 7c 5s 2h"
    a = Spot(board, Range("AA**:$ds", "plo8"), "KK**", variant="plo8", pot=100, stack=100)
    b = Spot(board, "AA**:$ds", Range("KK**"), variant="plo8", pot=100, stack=100)
    assert a.hands(0) == b.hands(0) and a.hands(1) == b.hands(1)
    assert all(not set(h) & set(board.replace(" ", "")) or True for h in a.hands(0))
    blocked = {int(c) for c in parse_cards(board)}
    assert not any(blocked & set(int(c) for c in row) for p in (0, 1) for row in a.cards(p))
    assert len(Spot(board, "****", "****", pot=1, stack=1).hands(0)) == 178_365


@pytest.mark.parametrize("variant", ["plo", "plo8"])
def test_16_bit_storage_reaches_the_target_with_the_same_values(variant):
    spot = Spot("Ah Kd 7c 5s 2h", "AA**:$ds,A2**:ds", "KK**:$ds,QQ**:ds", variant=variant,
                pot=100, stack=300, bets="50%,pot", raises="pot")
    wide = solve(spot, target="0.3%", max_iterations=300)
    small = solve(spot, target="0.3%", max_iterations=300, storage="16bit")
    assert small.exploitability_pot <= 0.003 and wide.exploitability_pot <= 0.003
    assert abs(small.iterations - wide.iterations) <= wide.iterations // 4
    # both are within their exploitability of the game value, so of each other
    slack = small.exploitability + wide.exploitability
    assert small.ev[0] == pytest.approx(wide.ev[0], abs=2 * slack)


def test_16_bit_storage_with_four_and_more_actions_a_node_reaches_the_same_values():
    """The 16-bit passes have copies for two and three actions and one for any count: a tree
    whose first decisions have five and six actions (four bet sizes and all-in) takes the
    last, and converges to the values that float32 storage reaches."""
    spot = Spot("Ah Kd 7c 5s 2h", "AA**:$ds,A2**:ds", "KK**:$ds,QQ**:ds", pot=100, stack=300,
                bets="25%,50%,75%,pot", raises="pot")
    tree = build_tree(pot=spot.pot, stack=spot.stack, bets=spot.bets, raises=spot.raises,
                      max_raises=spot.max_raises, rivers=spot.rivers)
    assert max(tree.counts) >= 5
    wide = solve(spot, target="0.3%", max_iterations=300)
    small = solve(spot, target="0.3%", max_iterations=300, storage="16bit")
    assert small.exploitability_pot <= 0.003 and wide.exploitability_pot <= 0.003
    slack = small.exploitability + wide.exploitability
    assert small.ev[0] == pytest.approx(wide.ev[0], abs=2 * slack)


@settings(max_examples=200, deadline=None)
@given(checks=st.lists(st.tuples(st.integers(1, 10_000), st.floats(0, 1e4)), max_size=4),
       goal=st.floats(0, 100), first=st.integers(1, 1000))
def test_next_check_runs_at_least_a_fifth_of_the_first_step_and_at_most_half_again(
        checks, goal, first):
    checks = sorted(checks)
    step = next_check(checks, goal, first)
    if not checks:
        assert step == first
    else:
        assert max(1, first // 5) <= step
        t, gap = checks[-1]
        done = gap <= goal or goal <= 0          # nothing to aim at: the iterations double
        assert step <= max(max(1, first // 5), t if done else -(-t // 2))


@pytest.mark.parametrize("variant, storage", [("plo", "32bit"), ("plo8", "16bit")])
def test_threads_give_the_same_values_and_strategies(variant, storage):
    spot = Spot("Ah Kd 7c 5s 2h", "AA**:$ds,A2**:ds", "KK**:$ds,QQ**:ds", variant=variant,
                pot=100, stack=300, bets="50%,pot", raises="pot")
    one = solve(spot, target=0, max_iterations=12, storage=storage)
    for threads in (2, 3):
        many = solve(spot, target=0, max_iterations=12, storage=storage, threads=threads)
        assert many.iterations == one.iterations
        assert many.ev == pytest.approx(one.ev, rel=1e-9)
        assert many.exploitability == pytest.approx(one.exploitability, rel=1e-6, abs=1e-9)
        for a, b in zip(one.nodes(), many.nodes()):
            assert np.allclose(a.strategy_table(), b.strategy_table(), atol=1e-4)
