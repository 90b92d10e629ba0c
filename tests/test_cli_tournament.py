"""``omaha tournament`` end to end (issue 25): places and prizes as JSON, PHH that replays
exactly, the same seed giving the same tournament with or without ``--phh``, and bad input
getting exit 2 with one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from omaha.phh.corpus import replay_files

ROOT = Path(__file__).resolve().parent.parent


def omaha(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "omaha", "tournament", *args],
                          capture_output=True, text=True, timeout=300, cwd=cwd, check=False)


def test_json_places_every_player_once_and_pays_the_pool(tmp_path):
    done = omaha("--players", "40", "--seed", "3", "--json", "--no-progress")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"prize_pool", "hands", "places"}
    assert data["prize_pool"] == 40 * 100 and data["hands"] > 0
    players = [p["player"] for p in data["places"]]
    assert sorted(players) == sorted(f"player{i}" for i in range(1, 41))
    assert sum(p["prize"] for p in data["places"]) == data["prize_pool"]
    assert [p["place"] for p in data["places"]] == sorted(p["place"] for p in data["places"])


def test_phh_replays_exactly_and_the_seed_decides_the_tournament(tmp_path):
    plain = omaha("--players", "25", "--seats", "6", "--seed", "9", "--json", "--no-progress")
    written = omaha("--players", "25", "--seats", "6", "--seed", "9", "--json", "--no-progress",
                    "--phh", str(tmp_path / "hands"))
    assert plain.returncode == written.returncode == 0, written.stderr
    assert plain.stdout == written.stdout
    files = sorted((tmp_path / "hands").glob("table-*.phhs"))
    assert files
    reports = list(replay_files([str(f) for f in files]))
    assert reports and all(r.result == "matched" for r in reports)
    assert len(reports) == json.loads(plain.stdout)["hands"]


@pytest.mark.parametrize("args, words", [
    (["--players", "1"], "entrants"),
    (["--players", "10", "--seats", "11"], "seats"),
    (["--players", "10", "--structure", "missing.toml"], "missing.toml"),
    (["--players", "10", "--variant", "chess"], "chess"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, args, words):
    done = omaha(*args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr, done.stderr


def test_a_structure_file_that_is_not_toml_names_the_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("levels = [[[\n", encoding="utf-8")
    done = omaha("--players", "10", "--structure", str(bad))
    assert done.returncode == 2 and "bad.toml" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_shipped_structures_play(tmp_path):
    for name in ("turbo-sng.toml", "mtt-1000.toml"):
        done = omaha("--players", "18", "--seed", "1", "--json", "--no-progress",
                     "--structure", str(ROOT / "examples" / "tournaments" / name))
        assert done.returncode == 0, done.stderr
        assert len(json.loads(done.stdout)["places"]) == 18
