"""``omaha play --phh`` for stud games and rotations (issue 26; E1-E8): every hand is written
in its own game's notation (the writer of ``omaha simulate --phh``), the file replays with
``omaha replay`` to its finishing stacks, and those stacks add up, seat by seat, to the nets
``omaha play`` reported. Five-card stud, which PHH does not name, is refused before a hand is
played."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import tomllib

from omaha.cli import main
from omaha.game.rotation import STUD_OR_FLOP_CODE, Rotation


def _hands(path: Path) -> list[dict[str, Any]]:
    """The hands of a ``.phhs`` file, or of a folder of ``.phh`` files, in order."""
    if path.is_dir():
        return [tomllib.loads(file.read_text()) for file in sorted(path.glob("*.phh"))]
    tables = tomllib.loads(path.read_text())
    return [tables[str(number)] for number in range(1, len(tables) + 1)]


def _nets(hands: list[dict[str, Any]], players: int) -> list[int]:
    """Each seat's net over the hands: ``seats`` names each PHH player's seat (a stud hand's
    player index from 1, a flop hand's table seat; both 1..players here)."""
    nets = [0] * players
    for hand in hands:
        for seat, start, end in zip(hand["seats"], hand["starting_stacks"],
                                    hand["finishing_stacks"]):
            nets[seat - 1] += end - start
    return nets


def _replays(capsys: pytest.CaptureFixture[str], path: Path, count: int) -> None:
    files = sorted(path.glob("*.phh")) if path.is_dir() else [path]
    assert main(["replay", "--json", *map(str, files)]) == 0
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(reports) == count and {r["result"] for r in reports} == {"matched"}
    assert all(r["finishing_stacks"] == r["expected_stacks"] for r in reports)


@pytest.mark.parametrize(("code", "target"), [("F7S", "hands.phhs"), ("F7S/8", "hands.phhs"),
                                             ("FR", "folder")])
def test_e1_e7_play_stud_phh_replays_to_the_stacks_play_reported(code, target, tmp_path,
                                                                  capsys):
    path = tmp_path / target
    argv = ["play", "--variant", code, "--players", "6", "--hands", "80", "--seed", "26",
            "--ante", "1", "--bots", "strength,random", "--json"]
    assert main([*argv, "--phh", str(path)]) == 0
    played = json.loads(capsys.readouterr().out)
    hands = _hands(path)
    assert len(hands) == 80 and {hand["variant"] for hand in hands} == {code}
    _replays(capsys, path, 80)
    assert _nets(hands, 6) == [seat["net"] for seat in played["seats"]]
    assert main(argv) == 0   # writing the hands does not change them
    assert json.loads(capsys.readouterr().out)["seats"] == played["seats"]


def test_e8_play_rotation_phh_writes_each_hand_in_its_games_notation(tmp_path, capsys):
    path = tmp_path / "horse.phhs"
    assert main(["play", "--rotation", "HORSE:3", "--players", "5", "--hands", "45",
                 "--seed", "8", "--ante", "1", "--json", "--phh", str(path)]) == 0
    played = json.loads(capsys.readouterr().out)
    hands = _hands(path)
    rotation = Rotation.parse("HORSE:3")
    assert [hand["variant"] for hand in hands] == [
        STUD_OR_FLOP_CODE[rotation.game_at(n, 5)] for n in range(45)]
    for hand in hands:   # stud: antes, bring-in and bets (E3); flop: blinds
        stud = hand["variant"] in ("F7S", "F7S/8", "FR")
        assert ("bring_in" in hand) == stud and ("blinds_or_straddles" in hand) == (not stud)
    _replays(capsys, path, 45)
    assert _nets(hands, 5) == [seat["net"] for seat in played["seats"]]


@pytest.mark.parametrize("argv", [["--variant", "F5S"], ["--rotation", "FT,F5S:2"]])
def test_e1_play_five_card_stud_phh_is_refused_before_playing(argv, tmp_path, capsys):
    path = tmp_path / "f5s.phhs"
    assert main(["play", *argv, "--hands", "4", "--phh", str(path)]) == 2
    err = capsys.readouterr().err
    assert "variant: five-card stud (F5S) has no PHH variant code" in err
    assert err.count("\n") == 1 and not path.exists()
