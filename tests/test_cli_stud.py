"""``omaha play`` plays the stud games (E1-E7) with the built-in stud bots."""

from __future__ import annotations

import json

import pytest

from omaha.cli import main


@pytest.mark.parametrize("code", ["F7S", "F7S/8", "FR", "F5S"])
def test_e1_play_stud_reports_hands_per_second_in_json(code, capsys):
    argv = ["play", "--variant", code, "--players", "6", "--bots", "random,strength",
            "--hands", "60", "--seed", "4", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["hands"] == 60 and summary["hands_per_second"] > 0
    assert summary["bring_in"] == 1 and summary["big_bet"] == 4
    assert sum(seat["net"] for seat in summary["seats"]) == 0
    assert main(argv) == 0       # the same seed plays the same hands
    again = json.loads(capsys.readouterr().out)
    assert [s["net"] for s in again["seats"]] == [s["net"] for s in summary["seats"]]


@pytest.mark.parametrize(("extra", "words"), [
    (["--ante", "0", "--bring-in", "0"], "E3: a stud game needs an ante or a bring-in"),
    (["--bring-in", "5"], "E3: bring_in 5 is larger than the small bet 2"),
    (["--players", "9"], "at most 8 players (rule E1)"),
    (["--bots", "nobody"], "unknown stud bot 'nobody'"),
    (["--duplicate"], "--duplicate: not available for stud games yet"),
])
def test_e1_e3_play_stud_bad_options_exit_2_with_one_line(extra, words, capsys):
    assert main(["play", "--variant", "FR", "--hands", "2", *extra]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
