"""``omaha replay`` and ``omaha play``: output, JSON lines, PHH files and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from omaha.cli import EXIT_INVALID, EXIT_MISMATCH, EXIT_OK, main
from omaha.phh import dumps, load_all, loads, read_histories

DATA = Path(__file__).parent / "data"
FIXTURES = [DATA / "pokerkit_po_3.phh", DATA / "pokerkit_fo8_2.phh", DATA / "pokerkit_mixed.phhs"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_of_pokerkit_fixtures_exits_0(capsys):
    code, out, err = run(capsys, "replay", *FIXTURES)
    assert code == EXIT_OK and err == ""
    lines = out.splitlines()
    assert len(lines) == 6 and all(": ok, finishing stacks " in line for line in lines)
    assert lines[2].startswith(f"{FIXTURES[2]} [1]: ok")


def test_replay_json_prints_one_object_per_hand(capsys):
    code, out, _ = run(capsys, "replay", "--json", *FIXTURES)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == EXIT_OK and len(records) == 6
    expected = [hh.finishing_stacks for path in FIXTURES for _, hh in read_histories(path)]
    assert [tuple(r["finishing_stacks"]) for r in records] == expected
    assert all(r["ok"] is True for r in records)
    assert [r["file"] for r in records][:2] == [str(FIXTURES[0]), str(FIXTURES[1])]
    assert [r["hand"] for r in records][2:] == ["1", "2", "3", "4"]


def test_replay_mismatch_exits_1(tmp_path, capsys):
    history = read_histories(FIXTURES[0])[0][1]
    wrong = list(history.finishing_stacks)
    richest = wrong.index(max(wrong))
    wrong[richest] -= 1
    wrong[richest - 1] += 1  # one chip moved: still a valid history, but not what happened
    path = tmp_path / "wrong.phh"
    path.write_text(
        dumps(
            loads(
                dumps(history).replace(
                    f"finishing_stacks = {list(history.finishing_stacks)}",
                    f"finishing_stacks = {wrong}",
                )
            )
        )
    )
    code, out, _ = run(capsys, "replay", path, FIXTURES[1])
    assert code == EXIT_MISMATCH
    assert "MISMATCH" in out.splitlines()[0] and out.splitlines()[1].endswith(
        " ".join(map(str, read_histories(FIXTURES[1])[0][1].finishing_stacks))
    )
    code, out, _ = run(capsys, "replay", "--json", path)
    record = json.loads(out)
    assert code == EXIT_MISMATCH and record["ok"] is False and record["expected_stacks"] == wrong


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("variant = 'PO'\nantes = [0, 0\n", "bad TOML"),
        ("variant = 'XX'\n", "unknown variant 'XX'"),
    ],
)
def test_replay_invalid_history_exits_2_with_the_error_on_stderr(tmp_path, capsys, text, words):
    path = tmp_path / "bad.phh"
    path.write_text(text)
    code, out, err = run(capsys, "replay", path, FIXTURES[0])
    assert code == EXIT_INVALID
    assert err.startswith(f"omaha replay: error: {path}") and words in err
    assert out.splitlines()[0].startswith(f"{FIXTURES[0]}: ok")  # the other file still replays


def test_replay_illegal_action_names_file_hand_index_and_text(tmp_path, capsys):
    hands = load_all(FIXTURES[2])
    text = dumps(hands["2"])
    history = loads(text)
    first_bet = next(i for i, a in enumerate(history.actions) if " cbr " in a)
    bad_action = history.actions[first_bet].rsplit(" ", 1)[0] + " 1"
    path = tmp_path / "hands.phhs"
    path.write_text(
        f"[1]\n{dumps(hands['1'])}\n[2]\n"
        + text.replace(f'"{history.actions[first_bet]}"', f'"{bad_action}"', 1)
    )
    code, out, err = run(capsys, "replay", "--json", path)
    assert code == EXIT_INVALID
    assert err.startswith(f"omaha replay: error: {path} [2] actions[{first_bet}] '{bad_action}': ")
    records = [json.loads(line) for line in out.splitlines()]
    assert records[0]["ok"] is True
    assert records[1]["ok"] is False and records[1]["hand"] == "2" and "error" in records[1]


def test_replay_missing_file_exits_2(tmp_path, capsys):
    code, _, err = run(capsys, "replay", tmp_path / "nope.phh")
    assert code == EXIT_INVALID and "No such file" in err


# ---------------------------------------------------------------- play


def test_play_prints_a_summary_per_seat(capsys):
    code, out, err = run(capsys, "play", "--hands", "50", "--players", "4", "--seed", "1")
    assert code == EXIT_OK and err == ""  # no progress bar when stderr is not a terminal
    lines = out.splitlines()
    assert (
        lines[0].startswith("50 hands of Omaha High (pot-limit, PO) in ") and "hands/s" in lines[0]
    )
    rows = [line.split() for line in lines[2:]]
    assert [row[:2] for row in rows] == [
        ["1", "strength"],
        ["2", "random"],
        ["3", "strength"],
        ["4", "random"],
    ]
    assert sum(int(row[2]) for row in rows) == 0


def test_play_json_is_reproducible_with_a_seed(capsys):
    argv = (
        "play",
        "--variant",
        "flo8",
        "-n",
        "40",
        "-p",
        "3",
        "--bots",
        "random",
        "--seed",
        "9",
        "--json",
    )
    code, out, _ = run(capsys, *argv)
    first = json.loads(out)
    assert code == EXIT_OK and first["variant"] == "FO/8" and first["hands"] == 40
    assert {s["bot"] for s in first["seats"]} == {"random"} and sum(
        s["net"] for s in first["seats"]
    ) == 0
    _, again, _ = run(capsys, *argv)
    assert [s["net"] for s in json.loads(again)["seats"]] == [s["net"] for s in first["seats"]]


@pytest.mark.parametrize("variant", ["PO", "FO/8", "nlo8", "P5O", "FO", "NT"])
def test_play_writes_every_hand_as_phh_that_replays(tmp_path, capsys, variant):
    path = tmp_path / "hands.phhs"
    code, _, _ = run(
        capsys,
        "play",
        "--variant",
        variant,
        "-n",
        "25",
        "-p",
        "4",
        "--seed",
        "5",
        "--ante",
        "1",
        "--phh",
        path,
    )
    assert code == EXIT_OK
    hands = load_all(path)
    assert list(hands) == [str(i) for i in range(1, 26)]
    assert [hh.metadata["hand"] for hh in hands.values()] == list(range(1, 26))
    code, out, _ = run(capsys, "replay", path)
    assert code == EXIT_OK and out.count(": ok,") == 25


def test_play_writes_a_folder_of_phh_files(tmp_path, capsys):
    folder = tmp_path / "out"
    code, _, _ = run(capsys, "play", "-n", "5", "-p", "2", "--seed", "2", "--phh", folder)
    assert code == EXIT_OK
    files = sorted(folder.glob("*.phh"))
    assert [f.name for f in files] == [f"hand-{i:06d}.phh" for i in range(1, 6)]
    assert run(capsys, "replay", *files)[0] == EXIT_OK


def test_play_progress_bar_when_forced(capsys):
    code, _, err = run(capsys, "play", "-n", "30", "-p", "2", "--seed", "1", "--progress")
    assert code == EXIT_OK and err.rstrip().endswith("100% 30/30")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--bots", "random,shark"], "unknown bot 'shark'"),
        (["--variant", "stud"], "unknown variant 'stud'"),
        (["--variant", "PO", "--stakes", "2/4"], "--stakes is for fixed limit"),
        (["--variant", "plo6", "--players", "10"], "at most 7 players"),
        (["--blinds", "5/2"], "exceeds big_blind"),
    ],
)
def test_play_usage_problems_exit_2(capsys, argv, words):
    code, out, err = run(capsys, "play", "-n", "3", *argv)
    assert code == EXIT_INVALID and out == ""
    assert err.startswith("omaha play: error:") and words in err
