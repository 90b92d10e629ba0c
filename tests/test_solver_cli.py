"""``omaha solve`` (issue 29): a river spot from the command line, text and --json, --hand,
--save, and one-line errors with exit 2."""

from __future__ import annotations

import json

import pytest

from omaha.cli import main
from omaha.solver import load

SPOT = ["solve", "--variant", "plo8", "--board", "Ah Kd 7c 5s 2h", "--oop", "AA**:$ds",
        "--ip", "KK**:$ds", "--pot", "100", "--stack", "300", "--target", "1%",
        "--no-progress"]


def test_text_summary_names_the_values_and_first_decisions(capsys):
    assert main(SPOT + ["--hand", "AcAs2c3s"]) == 0
    out = capsys.readouterr().out
    assert "Omaha Hi/Lo 8-or-better" in out and "of the pot" in out
    assert "after start: out of position (pot 100): check" in out
    assert "after bet 100: in position (pot 200): fold" in out
    assert "    AcAs2c3s: check" in out


def test_json_matches_the_solution_saved(capsys, tmp_path):
    path = tmp_path / "spot.npz"
    assert main(SPOT + ["--json", "--save", str(path), "--hand", "KcKs3c4s"]) == 0
    data = json.loads(capsys.readouterr().out)
    solution = load(path)
    assert data["ev"] == pytest.approx(list(solution.ev))
    assert data["exploitability_pot"] <= 0.01
    root = data["decisions"][0]
    assert root["history"] == [] and list(root["actions"]) == ["check", "bet 50", "bet 100"]
    assert sum(root["actions"].values()) == pytest.approx(1, abs=1e-5)
    after_check = data["decisions"][1]
    assert after_check["history"] == ["check"] and "KcKs3c4s" in after_check["hands"]


@pytest.mark.parametrize("change, words", [
    (["--board", "Ah Kd 7c"], "board: a turn board has 4 cards"),
    (["--oop", "AhKd**"], "oop: the range is empty"),
    (["--bets", "0%"], "bets"),
    (["--target", "soon"], "target"),
    (["--variant", "holdem"], "variant"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, change, words):
    args = list(SPOT)
    flag = change[0]
    if flag in args:
        i = args.index(flag)
        args[i + 1] = change[1]
    else:
        args += change
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("omaha solve: error:") and words in err and "\n" not in err


def test_a_turn_board_solves_every_river_and_shows_the_turn_decisions(capsys, tmp_path):
    args = list(SPOT)
    args[args.index("--board") + 1] = "Ah Kd 7c 5s"
    args[args.index("--target") + 1] = "5%"
    path = tmp_path / "turn.npz"
    assert main(args + ["--bets", "pot", "--raises", "", "--json", "--save", str(path),
                        "--max-iterations", "30"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["spot"]["board"] == "AhKd7c5s"
    assert [d["history"] for d in data["decisions"]] == [[], ["check"], ["bet 100"]]
    solution = load(path)
    river = solution.node(("check", "check", "river 2c"))
    assert [str(c) for c in river.board][-1] == "2c" and river.actions[0] == "check"


def test_a_pot_that_is_not_a_whole_number_is_a_usage_error(capsys):
    args = list(SPOT)
    args[args.index("--pot") + 1] = "1.5"
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2 and "--pot" in capsys.readouterr().err
