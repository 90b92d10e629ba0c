"""One meaning of ``--seed`` (issue 28): ``omaha play`` and ``omaha simulate`` with the same
seed play the same hands (deal ``d`` from ``deal_seed(seed, d)``), so they give the same bots
and the same net per seat, whatever ``--chunk``; ``simulate`` shows a progress bar like
``play``; ``play --plot`` draws a PNG."""

from __future__ import annotations

import json
import sys

import pytest

from omaha.cli import main


def run_json(capsys, *argv: str) -> dict:
    code = main([*argv, "--json", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def per_seat(summary: dict) -> list[tuple[int, str, int, int]]:
    return [(s["seat"], s["bot"], s["hands"], s["net"]) for s in summary["seats"]]


def test_play_and_simulate_agree_on_seed_1_and_2000_hands(capsys):
    played = run_json(capsys, "play", "--seed", "1", "--hands", "2000")
    simulated = run_json(capsys, "simulate", "--seed", "1", "--hands", "2000")
    assert played["hands"] == simulated["hands"] == 2000
    assert per_seat(played) == per_seat(simulated)
    assert [s["bot"] for s in played["seats"]] == ["strength", "random"] * 3
    assert [s["bb_per_100"] for s in played["seats"]] == \
        [round(s["bb_per_100"], 2) for s in simulated["seats"]]
    assert [s["ci95"] for s in played["seats"]] == \
        [round(s["ci95"], 2) for s in simulated["seats"]]
    other = run_json(capsys, "play", "--seed", "2", "--hands", "2000")
    assert per_seat(other) != per_seat(played)


@pytest.mark.parametrize(("argv", "chunks"), [
    (["-n", "300", "-p", "3", "--variant", "plo8"], ["7", "100", "20000"]),
    (["-n", "301", "-p", "4", "--duplicate"], ["5", "301"]),
    (["-n", "150", "-p", "2", "--variant", "flo", "--bots", "random"], ["1", "64"]),
])
def test_the_chunking_does_not_change_a_seeded_result(capsys, argv, chunks):
    played = run_json(capsys, "play", "--seed", "5", *argv)
    for chunk in chunks:
        simulated = run_json(capsys, "simulate", "--seed", "5", "--chunk", chunk, *argv)
        assert per_seat(simulated) == per_seat(played), chunk


def test_simulate_shows_a_progress_bar_only_when_asked_or_on_a_terminal(capsys):
    pytest.importorskip("tqdm", reason="the progress bar is tqdm's (a core dependency)")
    assert main(["simulate", "-n", "40", "-p", "2", "--seed", "1", "--chunk", "10",
                 "--progress"]) == 0
    out, err = capsys.readouterr()
    assert "simulate" in err and "40/40" in err and "hands/s" in out
    assert main(["simulate", "-n", "40", "-p", "2", "--seed", "1"]) == 0   # not a terminal
    out, err = capsys.readouterr()
    assert err == "" and "hands/s" in out


def test_play_plot_writes_a_png(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="--plot needs the [plot] extra")
    target = tmp_path / "out.png"
    summary = run_json(capsys, "play", "-n", "200", "-p", "3", "--seed", "1", "--plot",
                       str(target))
    assert summary["hands"] == 200
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    duplicate = tmp_path / "duplicate.png"
    run_json(capsys, "play", "-n", "60", "-p", "3", "--seed", "1", "--duplicate", "--plot",
             str(duplicate))
    assert duplicate.read_bytes()[:4] == b"\x89PNG"


def test_play_plot_refusals_are_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    for argv, expected in (
        (["--plot", str(tmp_path / "out.txt")], "not a .png"),
        (["--plot", str(tmp_path / "nowhere" / "out.png")], "no folder"),
    ):
        with pytest.raises(SystemExit) as exit_:
            main(["play", "-n", "5", *argv])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert expected in err and len(err.strip().splitlines()) == 1
    monkeypatch.setitem(sys.modules, "matplotlib", None)       # as if it were not installed
    code = main(["play", "-n", "5", "--plot", str(tmp_path / "out.png")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "omaha-poker[plot]" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out.png").exists()
