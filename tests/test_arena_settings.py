"""Issue 24, settings fixed at the first start: ``omaha serve`` on an existing database with
other settings exits 2 with one line naming what differs, unless ``--reconfigure`` (which
applies the house rules and more tables, never another game or seat count)."""

import signal
import subprocess
import sys

import pytest

from omaha.arena import ArenaSettings
from omaha.arena.house import Arena
from omaha.arena.settings import SettingsChanged, settings_changes
from omaha.arena.storage import SqliteStorage
from serving import ENV  # child processes run the tests' copy of omaha

BASE = ["--tables", "2", "--seats", "3", "--blinds", "1/2"]


def serve(db, *options):
    """Start ``omaha serve``; (exit code, stderr) if it refused, or (None, first line) once
    it listens (then stopped with SIGTERM, as an operator would)."""
    pytest.importorskip("websockets")
    process = subprocess.Popen(
        [sys.executable, "-m", "omaha", "serve", "--db", db, "--port", "0", *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    line = process.stdout.readline()
    if "listening" in line:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=20)
        return None, line
    _, err = process.communicate(timeout=20)
    return process.returncode, err


def stored(db):
    storage = SqliteStorage(db)
    try:
        return storage.settings()
    finally:
        storage.close()


def test_a_restart_with_the_same_settings_resumes(tmp_path):
    db = str(tmp_path / "a.sqlite")
    assert serve(db, *BASE)[0] is None
    first = stored(db)
    assert serve(db, *BASE)[0] is None
    assert stored(db) == first


def test_a_restart_with_other_settings_exits_2_with_one_line_naming_them(tmp_path):
    db = str(tmp_path / "a.sqlite")
    assert serve(db, *BASE)[0] is None
    first = stored(db)
    code, err = serve(db, "--tables", "2", "--seats", "4", "--blinds", "2/4",
                      "--variant", "plo", "--buy-in", "300")
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("omaha serve: ")
    for change in ("seats 3 -> 4", "game.small_blind 1 -> 2", "game.big_blind 2 -> 4",
                   "game.variant Omaha Hi/Lo 8-or-better -> Omaha", "buy_in 200 -> 300",
                   "--reconfigure"):
        assert change in err, err
    assert "tables" not in err.split("given):")[1]
    assert stored(db) == first                       # nothing changed
    assert serve(db, *BASE)[0] is None               # and the stored ones still serve


def test_reconfigure_applies_the_house_rules_and_more_tables(tmp_path):
    db = str(tmp_path / "a.sqlite")
    assert serve(db, *BASE)[0] is None
    new = [*BASE[:1], "3", *BASE[2:], "--buy-in", "300", "--no-rebuy", "--base-ms", "5000",
           "--spectators", "2"]
    assert serve(db, *new)[0] == 2                   # without --reconfigure: refused
    assert serve(db, *new, "--reconfigure")[0] is None
    settings = stored(db)
    assert (settings["tables"], settings["buy_in"], settings["rebuy"],
            settings["clock"]["base_ms"], settings["spectators"]) == (3, 300, False, 5000, 2)
    storage = SqliteStorage(db)
    assert [t.table for t in storage.tables()] == [1, 2, 3]
    storage.close()
    assert serve(db, *new)[0] is None                # the new settings are the stored ones
    assert serve(db, *BASE)[0] == 2                  # and the old ones now differ


@pytest.mark.parametrize("options, named", [
    (["--tables", "2", "--seats", "4", "--blinds", "1/2"], "seats 3 -> 4"),
    (["--tables", "2", "--seats", "3", "--blinds", "1/2", "--variant", "plo"],
     "game.variant"),
    (["--tables", "1", "--seats", "3", "--blinds", "1/2"], "tables 2 -> 1"),
])
def test_reconfigure_refuses_another_game_seat_count_or_fewer_tables(tmp_path, options, named):
    db = str(tmp_path / "a.sqlite")
    assert serve(db, *BASE)[0] is None
    first = stored(db)
    code, err = serve(db, *options, "--reconfigure")
    assert code == 2 and err.count("\n") == 1 and named in err, err
    assert "cannot change" in err
    assert stored(db) == first


def test_serve_help_shows_every_options_default():
    done = subprocess.run([sys.executable, "-m", "omaha", "serve", "--help"],
                          check=False, capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 0
    text = done.stdout.split("options:")[-1]
    blocks, current = [], []
    for line in text.splitlines():
        if line.startswith("  -") and current:
            blocks.append(" ".join(current))
            current = []
        if line.strip():
            current.append(line.strip())
    blocks.append(" ".join(current))
    assert len(blocks) > 20
    for block in blocks:
        if block.startswith(("-h", "--db")):
            continue
        assert "default" in block, block
    assert "--reconfigure" in text


def test_the_library_reconfigure_modes(tmp_path):
    db = str(tmp_path / "a.sqlite")
    emit = lambda *a: None
    first = ArenaSettings(tables=1, seats=2)
    Arena.open(SqliteStorage(db), first, emit=emit).storage.close()
    other = ArenaSettings(tables=1, seats=2, buy_in=500)
    # None (the library's default): the stored settings win, as before
    arena = Arena.open(SqliteStorage(db), other, emit=emit)
    assert arena.settings.buy_in == 200
    arena.storage.close()
    with pytest.raises(SettingsChanged, match="buy_in 200 -> 500") as caught:
        Arena.open(SqliteStorage(db), other, emit=emit, reconfigure=False)
    assert caught.value.changes == ["buy_in 200 -> 500"]
    arena = Arena.open(SqliteStorage(db), other, emit=emit, reconfigure=True)
    assert arena.settings.buy_in == 500
    arena.storage.close()
    assert settings_changes(other, other) == []
