"""User bots on the command line (issue 28): ``module:callable`` and ``file.py:callable``
wherever bots are named (``play``, ``simulate``, ``tournament``, ``bots``), resolved by the one
:func:`omaha.game.userbots.load_bot`; the bot is really asked to decide; every bad spec is
one line on stderr and exit 2."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from omaha.cli import main
from omaha.game.bots import Decision, StrengthBot
from omaha.game.userbots import UserBotError, load_bot

BOT_FILE = '''\
import os

from omaha.game.bots import Decision

CALLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calls.txt")


def act(situation, rng):
    """Call or check, and count every decision in calls.txt."""
    with open(CALLS, "a") as log:
        log.write("x\\n")
    return Decision("call") if situation.legal.can_call else Decision("check")


class Raiser:
    name = "raiser"

    def decide(self, situation, rng):
        legal = situation.legal
        if legal.min_raise_to is not None:
            return Decision("raise", legal.min_raise_to)
        return Decision("call") if legal.can_call else Decision("check")


def make():
    return Raiser()


folder = Raiser()
NUMBER = 7


def two_args_needed(a, b, c):
    return None


def says_nonsense(situation, rng):
    return "call"
'''


@pytest.fixture
def bot_dir(tmp_path, monkeypatch):
    """A folder holding mybot.py, made the current directory (and mybot unimported)."""
    (tmp_path / "mybot.py").write_text(BOT_FILE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "mybot", raising=False)
    yield tmp_path
    sys.modules.pop("mybot", None)


def calls(folder: Path) -> int:
    log = folder / "calls.txt"
    return len(log.read_text().split()) if log.exists() else 0


def run_json(capsys, *argv: str) -> dict:
    code = main([*argv, "--json", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("spec", ["mybot:act", "mybot.py:act", "./mybot.py:act"])
def test_a_user_bot_plays_through_omaha_play_and_is_asked_to_decide(bot_dir, capsys, spec):
    summary = run_json(capsys, "play", "--bots", f"{spec},strength", "-p", "4", "-n", "200",
                       "--seed", "3")
    assert calls(bot_dir) > 0
    assert [s["bot"] for s in summary["seats"]] == ["act", "strength"] * 2
    assert summary["hands"] == 200 and sum(s["net"] for s in summary["seats"]) == 0
    assert all(s["hands"] == 200 for s in summary["seats"])


def test_the_console_script_finds_mybot_in_the_current_directory(bot_dir):
    script = shutil.which("omaha") or str(Path(sys.executable).parent / "omaha")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([script, "play", "--bots", "mybot:act,strength", "-n", "50",
                           "--seed", "1", "--json"], cwd=bot_dir, capture_output=True,
                          text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    seats = json.loads(done.stdout)["seats"]
    assert [s["bot"] for s in seats] == ["act", "strength"] * 3
    assert calls(bot_dir) > 0


def test_factories_classes_objects_and_functions_are_bots(bot_dir, capsys):
    for spec in ("mybot:Raiser", "mybot:make", "mybot:folder"):
        summary = run_json(capsys, "play", "--bots", f"{spec},random", "-p", "2", "-n", "30",
                           "--seed", "1")
        assert summary["seats"][0]["bot"] == "raiser"
    assert load_bot("mybot:act").name == "act"
    assert load_bot("omaha.game.bots:StrengthBot").name == "strength"
    # a seeded user bot that is a built-in plays exactly as the built-in does
    by_name = run_json(capsys, "play", "--bots", "strength,random", "-n", "100", "--seed", "4")
    by_spec = run_json(capsys, "play", "--bots", "omaha.game.bots:StrengthBot,random", "-n",
                       "100", "--seed", "4")
    assert [s["net"] for s in by_name["seats"]] == [s["net"] for s in by_spec["seats"]]


def test_a_wrapped_function_answers_like_the_function(bot_dir):
    bot = load_bot("mybot:act")
    from omaha.config import GameConfig
    from omaha.game.bots import situation
    from omaha.game.hand import Hand

    hand = Hand(GameConfig.pot_limit(small_blind=1, big_blind=2), stacks={1: 200, 2: 200},
                button=1, rng=random.Random(1))
    assert bot.decide(situation(hand), random.Random(1)) == Decision("call")
    assert calls(bot_dir) == 1
    assert isinstance(load_bot("strength"), StrengthBot)


def test_user_bots_play_in_simulate_tournament_and_duplicate(bot_dir, capsys):
    summary = run_json(capsys, "simulate", "--bots", "mybot.py:act,strength", "-p", "3",
                       "-n", "90", "--seed", "2", "--chunk", "40")
    assert [s["bot"] for s in summary["seats"]] == ["act", "strength", "act"]
    after_simulate = calls(bot_dir)
    assert after_simulate > 0
    played = run_json(capsys, "play", "--bots", "mybot.py:act,strength", "-p", "3", "-n", "90",
                      "--seed", "2")
    assert [s["net"] for s in played["seats"]] == [s["net"] for s in summary["seats"]]
    data = run_json(capsys, "tournament", "--players", "4", "--bots", "mybot:act", "--seed",
                    "1")
    assert len(data["places"]) == 4
    assert calls(bot_dir) > 2 * after_simulate - 1


BAD = [
    ("nosuchmodule_xyz:act", "no module named 'nosuchmodule_xyz'"),
    ("mybot:missing", "has no attribute 'missing'"),
    ("missing.py:act", "no file 'missing.py'"),
    ("sub/missing.py:act", "no file"),
    ("mybot:NUMBER", "not a bot"),
    ("mybot:two_args_needed", "neither a bot"),
    ("mybot:", "module:callable"),
    ("shark", "unknown bot 'shark'"),
]


def one_line_exit_2(capsys, argv: list[str], expected: str) -> None:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (argv, out, err)
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert expected in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize(("spec", "expected"), BAD)
def test_every_bad_spec_is_one_line_and_exit_2_everywhere(bot_dir, capsys, spec, expected):
    one_line_exit_2(capsys, ["play", "--bots", f"strength,{spec}", "-n", "5"], expected)
    one_line_exit_2(capsys, ["simulate", "--bots", spec, "-n", "5", "--no-progress"], expected)
    one_line_exit_2(capsys, ["tournament", "--players", "3", "--bots", spec, "--no-progress"],
                    expected)
    pytest.importorskip("websockets", reason="omaha bots needs the [server] extra")
    one_line_exit_2(capsys, ["bots", "ws://127.0.0.1:9", "--policy", spec], expected)


def test_a_file_that_fails_to_run_and_an_answer_that_is_no_decision(bot_dir, capsys):
    (bot_dir / "broken.py").write_text("raise RuntimeError('boom')\n")
    one_line_exit_2(capsys, ["play", "--bots", "broken.py:act", "-n", "5"],
                    "RuntimeError: boom")
    one_line_exit_2(capsys, ["play", "--bots", "mybot:says_nonsense", "-n", "5"],
                    "not a Decision")
    with pytest.raises(UserBotError, match="has no attribute"):
        load_bot("mybot:nothing")
    with pytest.raises(ValueError, match="a bot spec is a string"):
        load_bot(3)  # type: ignore[arg-type]
