"""omaha.solver on the turn (issue 29): a 4-card board deals every river card at a chance node
when the turn's betting closes. Values and best responses against a brute force over the
rivers with the slow reference evaluator (RULES.md C1: a card is dealt once; C3-C5, S2-S4),
the game value against a sequence-form linear programme, suit invariance, hi/lo without a
possible low equal to high, all-in on the turn, save/load and the river nodes' hands."""

from __future__ import annotations

import random

import numpy as np
import pytest

from omaha.cards import parse_cards
from omaha.errors import SolverError
from omaha.solver import Spot, load, solve
from reference_solver import CHANCE, value
from test_solver import lp_value, permute, random_ranges, reference_of

TURN = "Ah Kd 7c 5s"


def turn_spot(variant: str, hands: int, seed: str, board: str = TURN, **options: object) -> Spot:
    rng = random.Random(seed)
    oop, ip = random_ranges(rng, [int(c) for c in parse_cards(board)], hands)
    settings: dict[str, object] = dict(pot=100, stack=150, bets="pot", raises="pot",
                                       max_raises=1)
    settings.update(options)
    return Spot(board, oop, ip, variant=variant, **settings)  # type: ignore[arg-type]


def tables(solution):  # type: ignore[no-untyped-def]
    """Each decision's strategy for the reference, NaN (hands holding the river) as 0: they
    have no reach there."""
    return {n.index: list(np.nan_to_num(n.strategy_table().astype(np.float64)).ravel())
            for n in solution.nodes()}


@pytest.mark.parametrize("variant", ["plo", "plo8"])
def test_turn_values_and_best_responses_match_a_brute_force_over_the_rivers(variant):
    """Each river is equally likely given both hands (40 cards left of 48); the stacks go
    all in on the turn too (a raise to 150), so showdowns under the chance node check the
    runout."""
    spot = turn_spot(variant, 20, variant)
    solution = solve(spot, target=0, max_iterations=15)
    assert "allin 150" in solution.node(("bet 100",)).actions
    ref = reference_of(spot, variant == "plo8")
    strategies = tables(solution)
    ev = [value(ref, p, strategies, False) for p in (0, 1)]
    best = [value(ref, p, strategies, True) for p in (0, 1)]
    assert solution.ev == pytest.approx(ev, rel=1e-5)
    assert sum(ev) == pytest.approx(spot.pot)
    assert solution.exploitability == pytest.approx((sum(best) - spot.pot) / 2, abs=1e-4)


def test_turn_showdown_values_are_the_mean_over_the_rivers():
    """Checked down to the river: the value is the brute-force mean of the river showdowns."""
    spot = turn_spot("plo8", 25, "checks", bets="", raises="")
    solution = solve(spot, target=0, max_iterations=1)
    ref = reference_of(spot, True)
    assert solution.ev == pytest.approx([value(ref, p, tables(solution), False)
                                         for p in (0, 1)], abs=1e-9)


def test_turn_game_value_matches_the_sequence_form_lp():
    pytest.importorskip("scipy", reason="the LP reference needs SciPy (the test extra)")
    spot = turn_spot("plo", 6, "lp", raises="")
    solution = solve(spot, target="0.05%", max_iterations=3000)
    game_value = lp_value(spot, reference_of(spot, False))
    assert abs(solution.ev[0] - game_value) <= 2 * solution.exploitability + 1e-6
    assert solution.exploitability <= 0.0005 * spot.pot


def test_permuting_suits_on_the_turn_gives_the_same_values():
    """The first iteration (from the uniform strategy) is the same to rounding; solved, both
    values lie within their exploitability of the one game value. (Later iterates need not
    agree to rounding: where a hand's actions are worth the same, its regrets are zero but
    for rounding, which the hands' order in the core changes, and regret matching turns a
    tiny positive regret into a whole action.)"""
    rng = random.Random(11)
    oop, ip = random_ranges(rng, [int(c) for c in parse_cards(TURN)], 15)
    perm = {"c": "s", "d": "h", "h": "c", "s": "d"}
    base = Spot(TURN, oop, ip, variant="plo8", pot=100, stack=200, bets="pot", raises="")
    moved = Spot(permute(TURN, perm), {permute(h, perm): w for h, w in oop.items()},
                 {permute(h, perm): w for h, w in ip.items()}, variant="plo8", pot=100,
                 stack=200, bets="pot", raises="")
    a = solve(base, target=0, max_iterations=1)
    b = solve(moved, target=0, max_iterations=1)
    # float32 rows: values agree to rounding of about 1e-6 of the pot (100), not 1e-9
    assert a.ev == pytest.approx(b.ev, abs=1e-4)
    assert a.exploitability == pytest.approx(b.exploitability, abs=1e-4)
    river = ("check", "check", "river 2c")
    moved_river = ("check", "check", f"river 2{perm['c']}")
    hand = next(h for h in oop if "2c" not in h)
    assert a.node(river).strategy(hand) == pytest.approx(
        b.node(moved_river).strategy(permute(hand, perm)), abs=1e-6)
    a = solve(base, target="0.1%", max_iterations=2000)
    b = solve(moved, target="0.1%", max_iterations=2000)
    assert max(a.exploitability, b.exploitability) <= 0.1
    assert abs(a.ev[0] - b.ev[0]) <= a.exploitability + b.exploitability + 1e-9


def test_hilo_on_a_turn_where_no_low_can_come_is_plo():
    """S3: one card of 8 or under on the turn, so at most two on the river: no low for
    anybody, and the high hand takes the whole pot on every river."""
    board = "Kh Qd 9c 5s"
    plo = solve(turn_spot("plo", 20, "nolow", board=board), target=0, max_iterations=20)
    plo8 = solve(turn_spot("plo8", 20, "nolow", board=board), target=0, max_iterations=20)
    assert plo8.ev == pytest.approx(plo.ev, abs=1e-9)
    assert plo8.exploitability == pytest.approx(plo.exploitability, abs=1e-9)


def test_turn_nodes_river_labels_and_hands_holding_the_river(tmp_path):
    spot = turn_spot("plo", 20, "nodes", stack=300, bets="50%,pot")
    solution = solve(spot, target="2%", max_iterations=60)
    assert len(spot.rivers) == 48
    tree = solution.tree
    chance = tree.child(tree.child(0, "check"), "check")
    assert tree.kinds[chance] == CHANCE
    assert tree.actions(chance)[0] == "river 2c" and len(tree.actions(chance)) == 48
    river = solution.node(("bet 50", "call", "river Qs"))
    assert river.pot == 200 and river.commits == (50, 50) and river.player == 0
    assert river.actions == ("check", "bet 150", "bet 250")    # half pot and pot, to 150, 250
    assert [str(c) for c in river.board] == ["Ah", "Kd", "7c", "5s", "Qs"]
    holding = [h for h in river.hands if "Qs" in h]
    free = [h for h in river.hands if "Qs" not in h]
    column = river.hands.index(free[0])
    assert river.strategy(free[0]) == pytest.approx(
        [float(x) for x in river.strategy_table()[:, column]])
    if holding:
        with pytest.raises(SolverError, match="river card Qs"):
            river.strategy(holding[0])
        assert np.isnan(river.strategy_table()[:, river.hands.index(holding[0])]).all()
    for node in solution.nodes():
        total = sum(node.frequencies())
        assert total == pytest.approx(1, abs=1e-5) or total == 0
    path = tmp_path / "turn.npz"
    solution.save(path)
    again = load(path)
    assert again.ev == solution.ev
    assert [n.history for n in again.nodes()] == [n.history for n in solution.nodes()]
    for a, b in zip(again.nodes(), solution.nodes()):
        assert np.array_equal(a.strategy_table(), b.strategy_table(), equal_nan=True)
    assert solution.summary()["root"]["actions"].keys() == {"check", "bet 50", "bet 100"}


def test_the_memory_limit_counts_every_river_before_allocating():
    spot = turn_spot("plo8", 20, "memory")
    river = Spot(TURN + " 2c", {h: 1.0 for h in spot.hands(0) if "2c" not in h},
                 {h: 1.0 for h in spot.hands(1) if "2c" not in h}, variant="plo8", pot=100,
                 stack=150, bets="pot", raises="pot", max_raises=1)
    needs = []
    for s in (spot, river):
        with pytest.raises(SolverError, match="max_bytes") as info:
            solve(s, max_bytes=1000)
        text = str(info.value)
        assert "limit of 1,000" in text
        needs.append(int(text.split("needs ")[1].split(" bytes")[0].replace(",", "")))
    # the subset sums (a fixed 2.3 MB) dominate such small ranges; each river's tree adds
    assert needs[0] > needs[1] + 47 * 8 * 20 * 2
