"""``omaha replay`` and ``omaha simulate`` for stud (issue 26; E1-E7): stud PHH files replay
through the engine, and stud simulations write PHH that replays to the same stacks."""

from __future__ import annotations

import json

import pytest

from omaha.cli import main
from omaha.phh.stud import dumps_stud, stud_history
from omaha.phh.toml import table_header
from test_phh_stud import DEAL, finished, history


def test_e1_replay_stud_files_matches_their_finishing_stacks(tmp_path, capsys):
    texts = [dumps_stud(stud_history(finished(seed, code)))
             for seed, code in [(1, "F7S"), (2, "FR"), (3, "F7S/8")]]
    (tmp_path / "one.phh").write_text(texts[0])
    (tmp_path / "all.phhs").write_text("\n".join(table_header(str(i)) + text
                                                 for i, text in enumerate(texts, 1)))
    assert main(["replay", "--json", str(tmp_path / "one.phh"), str(tmp_path / "all.phhs")]) == 0
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["result"] for r in reports] == ["matched"] * 4
    assert all(r["finishing_stacks"] == r["expected_stacks"] for r in reports)


def test_e1_replay_stud_mismatch_exits_1(tmp_path, capsys):
    text = history(DEAL + ["p1 pb", "p2 f", "p3 f"]) + "finishing_stacks = [100, 99, 101]\n"
    (tmp_path / "wrong.phh").write_text(text)
    assert main(["replay", str(tmp_path / "wrong.phh")]) == 1
    assert "MISMATCH, finishing stacks 102 99 99" in capsys.readouterr().out


def test_c1_replay_impossible_stud_hand_exits_2_naming_the_action(tmp_path, capsys):
    (tmp_path / "bad.phh").write_text(history(DEAL[:2] + ["d dh p3 3h4hAh"]))
    assert main(["replay", str(tmp_path / "bad.phh")]) == 2
    err = capsys.readouterr().err
    assert "actions[2] 'd dh p3 3h4hAh'" in err and "dealt twice (C1)" in err
    assert err.count("\n") == 1


def test_replay_five_card_stud_is_invalid_naming_the_variant(tmp_path, capsys):
    (tmp_path / "f5s.phh").write_text(history(DEAL).replace('"F7S"', '"F5S"'))
    assert main(["replay", str(tmp_path / "f5s.phh")]) == 2
    assert "variant" in capsys.readouterr().err


def test_e1_simulate_stud_plays_omaha_plays_hands_and_writes_phh_that_replays(tmp_path, capsys):
    argv = ["--variant", "F7S/8", "--players", "5", "--hands", "120", "--seed", "9",
            "--ante", "1", "--json"]
    assert main(["simulate", *argv, "--phh", str(tmp_path)]) == 0
    simulated = json.loads(capsys.readouterr().out)
    assert main(["play", *argv]) == 0   # the same seed: the same hands as omaha play
    played = json.loads(capsys.readouterr().out)
    assert [s["net"] for s in simulated["seats"]] == [s["net"] for s in played["seats"]]
    assert simulated["hands"] == 120 and all(s["ci95"] > 0 for s in simulated["seats"])
    assert [round(s["bb_per_100"], 2) for s in simulated["seats"]] == [
        s["big_bets_per_100"] for s in played["seats"]]
    assert main(["replay", "--json", str(tmp_path / "shard-000000.phhs")]) == 0
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(reports) == 120 and {r["result"] for r in reports} == {"matched"}


def test_e1_simulate_stud_text_voice(capsys):
    assert main(["simulate", "--variant", "razz", "--players", "3", "--hands", "50"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("50 hands of Razz (fixed limit, FR) in ")
    assert out[1].split() == ["seat", "bot", "net", "chips", "BB/100", "95%", "CI"]
    assert len(out) == 3 + 3


@pytest.mark.parametrize(("argv", "words"), [
    (["--variant", "F5S", "--phh", "PHH_DIR"], "F5S) has no PHH variant code"),
    (["--variant", "F7S", "--ray"], "--ray: not available for stud games yet"),
    (["--variant", "F7S", "--duplicate"], "--duplicate: not available for stud games yet"),
    (["--variant", "F7S", "--players", "9"], "at most 8 players (rule E1)"),
    (["--variant", "F7S", "--bring-in", "5"], "E3: bring_in 5 is larger than the small bet 2"),
    (["--variant", "F7S", "--bots", "nobody"], "unknown stud bot 'nobody'"),
    (["--variant", "plo", "--bring-in", "1"], "--bring-in: stud games only"),
])
def test_e1_e3_simulate_stud_bad_options_exit_2_with_one_line(argv, words, tmp_path, capsys):
    argv = [str(tmp_path) if word == "PHH_DIR" else word for word in argv]
    assert main(["simulate", "--hands", "3", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
