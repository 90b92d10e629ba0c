"""The ``omaha`` command line: help, usage errors, ``eval`` (replay and play: test_cli_*.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from omaha.analysis.evaluation import describe, evaluate_five, evaluate_five_low, evaluate_hilo
from omaha.cli import EXIT_INVALID, EXIT_OK, main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", [[], ["replay"], ["play"], ["eval"]])
def test_help_for_every_command(capsys, command):
    with pytest.raises(SystemExit) as info:
        main([*command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: omaha")
    if command:
        assert command[0] in out.splitlines()[0]


def test_no_command_prints_usage_and_exits_2(capsys):
    code, _, err = run(capsys)
    assert code == EXIT_INVALID and "usage: omaha" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["frobnicate"], "invalid choice"),
        (["eval", "AhKh2c3d"], "required: BOARD"),
        (["replay"], "required: FILE"),
        (["play", "--hands", "0"], "must be at least 1, got 0"),
        (["play", "--hands", "ten"], "expected a whole number"),
        (["play", "--players", "11"], "players (rule T1) must be at most 10, got 11"),
        (["play", "--blinds", "1-2"], "two amounts like 1/2"),
        (["play", "--progress", "--no-progress"], "not allowed with"),
    ],
)
def test_usage_errors_exit_2_with_a_message(capsys, argv, words):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert words in capsys.readouterr().err


def test_python_dash_m_runs_the_same_cli_without_numpy():
    probe = "import sys, runpy; sys.argv = ['omaha', '--help']\ntry:\n    runpy.run_module('omaha', run_name='__main__')\nexcept SystemExit as e:\n    assert e.code == 0\nassert 'numpy' not in sys.modules, 'the CLI imported numpy at start-up'\n"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "replay" in done.stdout and "play" in done.stdout and "eval" in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "omaha", "eval", "xx", "yy"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "omaha eval: error" in done.stderr


# ---------------------------------------------------------------- eval


def test_eval_prints_high_and_low_with_the_cards_used(capsys):
    code, out, _ = run(capsys, "eval", "As2d9h9c", "3c4d5hKsKd")
    assert code == EXIT_OK
    assert out.splitlines() == [
        "high: Straight, five high (As2d + 3c4d5h)",
        "low:  5-4-3-2-A low (As2d + 3c4d5h)",
    ]


def test_eval_without_a_low(capsys):
    code, out, _ = run(capsys, "eval", "AhKh2c3d", "QhJhTh4s5s")
    assert code == EXIT_OK
    assert out.splitlines() == [
        "high: Royal flush (AhKh + QhJhTh)",
        "low:  none (no 8-or-better low)",
    ]


def test_eval_json_agrees_with_the_library(capsys):
    """The cards printed are 2 hole + 3 board cards (C3) that make the strength printed."""
    for hole, board in [
        ("8h6d4sKc", "2cAdQsJh7s"),
        ("AsAdKsKd", "QsJsTs2h3h"),
        ("9c8c7c6c", "5c4c3c"),
    ]:
        code, out, _ = run(capsys, "eval", hole, board, "--json")
        assert code == EXIT_OK
        result = json.loads(out)
        high, low = evaluate_hilo(hole, board)
        assert result["high"]["strength"] == high and result["high"]["description"] == describe(
            high
        )
        _assert_made_by(result["high"]["cards"], hole, board, evaluate_five, high)
        if low:
            assert result["low"]["description"] == describe(low, low=True)
            _assert_made_by(result["low"]["cards"], hole, board, evaluate_five_low, low)
        else:
            assert result["low"] is None


def _assert_made_by(cards: str, hole: str, board: str, evaluate, strength: int) -> None:
    def split(text: str) -> list[str]:
        return [text[i : i + 2] for i in range(0, len(text), 2)]

    used = split(cards)
    assert set(used[:2]) <= set(split(hole)) and set(used[2:]) <= set(split(board))
    assert evaluate(cards) == strength


@pytest.mark.parametrize(
    ("hole", "board", "words"),
    [
        ("AhKh2c", "QhJhTh4s5s", "4 to 6 cards"),
        ("AhKh2c3x", "QhJhTh4s5s", "3x"),
        ("AhKh2c3d", "AhJhTh4s5s", "Ah"),
    ],
)
def test_eval_bad_cards_exit_2(capsys, hole, board, words):
    code, out, err = run(capsys, "eval", hole, board)
    assert code == EXIT_INVALID and out == ""
    assert err.startswith("omaha eval: error:") and words in err
