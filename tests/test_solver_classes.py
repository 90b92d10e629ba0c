"""Issue 29: a solved decision's strategy by hand class (``omaha.solver.classes``,
``omaha solve``'s summary, ``--json`` and ``--plot``)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from omaha.analysis.evaluation import category, evaluate_hilo
from omaha.solver import Spot, solve
from omaha.solver.classes import by_class, hand_classes

BOARD = "Ah Kd 7c 5s 2h"
RANGE = "A2**,A3**,KQ**,77**:$ds"


@pytest.fixture(scope="module", params=["plo", "plo8"])
def solution(request):
    spot = Spot(BOARD, RANGE, RANGE, variant=request.param, pot=100, stack=300,
                bets="50%,pot", raises="pot")
    return solve(spot, max_iterations=15)


def slow_class(hand: str, board: str, hi_lo: bool) -> str:
    """One hand at a time: the category of its best high, and whether it makes a low."""
    high, low = evaluate_hilo(hand, board)
    name = category(high)
    return f"{name} + low" if hi_lo and low else name


def test_each_hand_is_classed_as_a_one_at_a_time_evaluation_says(solution):
    spot = solution.spot
    for player in (0, 1):
        labels, index = hand_classes(spot, player)
        hands = spot.hands(player)
        picked = np.random.default_rng(29).choice(len(hands), size=min(400, len(hands)),
                                                  replace=False)
        for i in picked:
            assert labels[index[i]] == slow_class(hands[i], BOARD, spot.variant.hi_lo)


def test_the_classes_weighted_by_reach_add_up_to_the_nodes_frequencies(solution):
    for node in solution.nodes():
        rows = by_class(node)
        assert rows, node.history
        assert sum(row.share for row in rows) == pytest.approx(1.0, abs=1e-9)
        assert sum(row.hands for row in rows) <= len(node.hands)
        mixed = np.zeros(len(node.actions))
        for row in rows:
            assert sum(row.frequencies) == pytest.approx(1.0, abs=1e-5)
            mixed += row.share * np.asarray(row.frequencies)
        assert mixed == pytest.approx(node.frequencies(), abs=1e-6)


def test_rows_come_best_class_first(solution):
    labels, _ = hand_classes(solution.spot, 0)
    order = [labels.index(row.label) for row in by_class(solution.node())]
    assert order == sorted(order)
    assert labels[0].startswith("Straight flush")


def run_solve(*extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "omaha", "solve", "--variant", "plo8", "--board", BOARD,
         "--oop", RANGE, "--ip", RANGE, "--pot", "100", "--stack", "300",
         "--max-iterations", "10", "--no-progress", *extra],
        capture_output=True, text=True, timeout=300)


def test_solve_prints_and_draws_the_strategy_by_hand_class(tmp_path):
    png = tmp_path / "classes.png"
    done = run_solve("--json", "--plot", str(png), "--plot-after", "check")
    assert done.returncode == 0, done.stderr
    root = json.loads(done.stdout)["decisions"][0]
    assert [row["class"] for row in root["classes"]][:1] == ["Straight + low"]
    assert all(set(row["actions"]) == set(root["actions"]) for row in root["classes"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = run_solve("--storage", "16bit", "--threads", "2")
    assert text.returncode == 0 and "of the range): check" in text.stdout


@pytest.mark.parametrize(("extra", "words"), [
    (("--plot", "x.txt"), "not a .png"),
    (("--plot", "nowhere/x.png"), "no folder"),
    (("--plot", "x.png", "--plot-after", "raise 7"), "no action 'raise 7'"),
])
def test_bad_plot_options_exit_2_with_one_line(tmp_path, extra, words):
    done = subprocess.run(
        [sys.executable, "-m", "omaha", "solve", "--board", BOARD, "--oop", "AA**", "--ip",
         "KK**", "--pot", "100", "--stack", "100", "--max-iterations", "2", "--no-progress",
         *extra], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_turn_classes_use_the_nodes_board():
    """On the turn: the best high of two hole and three of the four board cards (no low
    split); after the river, the river's classes; hands holding the river have no reach."""
    from reference_eval import omaha_high

    turn = "Ah Kd 7c 5s"
    spot = Spot(turn, "A2**:ds,KQ**:ds", "77**:ds,A3**:ds", variant="plo8", pot=100,
                stack=300, bets="pot", raises="")
    solution = solve(spot, max_iterations=5)
    labels, index = hand_classes(spot, 0)
    board = [int(c) for c in spot.board]
    for i, row in enumerate(spot.cards(0)[:200]):
        assert labels[index[i]] == category(omaha_high(sorted(int(c) for c in row), board))
    river = solution.node(("check", "check", "river 3h"))
    labels, index = hand_classes(spot, 0, tuple(int(c) for c in river.board))
    for i, hand in enumerate(river.hands[:200]):
        if "3h" in hand:
            assert index[i] == -1           # in no class: it never gets here
        else:
            assert labels[index[i]] == slow_class(hand, turn + " 3h", True)
    for node in (solution.node(), river):
        rows = by_class(node)
        assert sum(row.share for row in rows) == pytest.approx(1.0, abs=1e-9)
        mixed = sum(row.share * np.asarray(row.frequencies) for row in rows)
        assert mixed == pytest.approx(node.frequencies(), abs=1e-6)
