"""One variant-name table (issue 20): every name of ``VARIANT_NAMES`` means the same game in
every API and every command that takes a variant, and an unknown name is refused by all of
them in the same words (rule C6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import omaha
from omaha.analysis.ranges import Range
from omaha.cli import build_parser, main
from omaha.cli.arena import _settings
from omaha.config import (
    FIXED_LIMIT,
    SHORT_NAMES,
    STUD_VARIANTS,
    VARIANT_NAMES,
    VARIANTS,
    GameConfig,
    parse_variant,
    variant_of,
)
from omaha.errors import OmahaError
from omaha.phh import variant_for_name
from omaha.rl import make_config

# Every key of the table, and the forms people type (case, marks, PHH codes, display forms).
NAMES = sorted({*VARIANT_NAMES, *SHORT_NAMES.values(), "PO/8", "plo5-8", "PLO-Hi/Lo", "Hi-Lo",
                "Texas Hold'em", "NLHE", "5-card Omaha hi/lo", *(v.name for v in VARIANTS)})
COMMANDS = ("equity", "play", "simulate", "serve")


def run(capsys: pytest.CaptureFixture[str], command: str, name: str) -> tuple[int, str, str]:
    """``omaha COMMAND --variant NAME``, as small as the command allows (``serve``: the game
    it would serve, without opening a port)."""
    if command == "serve":
        args = build_parser().parse_args(["serve", "--db", "unused", "--variant", name])
        return 0, json.dumps(_settings(args).game), ""
    argv = {"equity": ["equity", "****", "****", "--samples", "200", "--seed", "1"],
            "play": ["play", "--hands", "2", "--players", "2", "--seed", "1"],
            "simulate": ["simulate", "--hands", "2", "--players", "2", "--seed", "1"]}[command]
    code = main([*argv, "--variant", name, "--json"])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("name", NAMES)
def test_c6_every_name_means_one_game_in_every_api_and_command(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    meaning = parse_variant(name)
    game, structure = meaning.variant, meaning.usual
    if game.is_stud:
        stud_name_is_refused_by_the_flop_apis(name, capsys)
        return
    assert variant_of(name) is game
    assert Range("****", variant=name).variant is game
    assert omaha.equity(["****", "****"], variant=name, samples=100, seed=1).variant is game
    stakes = ({"small_bet": 2} if structure is FIXED_LIMIT
              else {"small_blind": 1, "big_blind": 2})
    config = GameConfig.named(name, **stakes)
    assert (config.variant, config.structure) == (game, structure)
    assert make_config(name) == config
    phh = variant_for_name(name)
    assert (phh.hole_cards, phh.hilo, phh.game, phh.engine_structure) == (
        game.hole_cards, game.hi_lo, game.hand_rule, structure)
    for command in COMMANDS:
        code, out, err = run(capsys, command, name)
        assert code == 0 and err == "", (command, err)
        data = json.loads(out)
        if command == "serve":
            served = GameConfig.from_dict(data)
            assert (served.variant, served.structure) == (game, structure)
        elif command == "equity":
            assert data["variant"] == game.name
        else:   # play names the PHH code, simulate echoes the name
            assert parse_variant(data["variant"]).variant is game


def stud_name_is_refused_by_the_flop_apis(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A stud name (E1) is the same game in ``omaha.game.stud`` and ``omaha play``; the APIs of
    the flop games refuse it with E1, naming the stud game."""
    from omaha.game.stud import StudConfig

    game = parse_variant(name).variant
    assert StudConfig(variant=name, ante=1, small_bet=2).variant is game
    for call in (lambda: variant_of(name), lambda: Range("****", variant=name),
                 lambda: GameConfig.named(name, small_bet=2), lambda: make_config(name)):
        with pytest.raises(OmahaError, match=f"E1: {game.name} is a stud game"):
            call()
    code, out, err = run(capsys, "play", name)
    assert code == 0 and err == "" and parse_variant(json.loads(out)["variant"]).variant is game


@pytest.mark.parametrize("name", ["stud9", "o", "plo88", "", "x" * 100])
def test_c6_an_unknown_name_is_refused_everywhere_in_the_same_words(
        name: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(OmahaError) as info:
        parse_variant(name)
    words = str(info.value)
    assert words.startswith("C6: unknown variant") and "plo8" in words and "PO/8" in words
    calls = [lambda: variant_of(name), lambda: Range("****", variant=name),
             lambda: omaha.equity(["****", "****"], variant=name, samples=100),
             lambda: GameConfig.named(name, small_blind=1, big_blind=2),
             lambda: GameConfig(big_blind=2, variant=name), lambda: make_config(name),
             lambda: variant_for_name(name)]
    for call in calls:
        with pytest.raises(OmahaError) as info:
            call()
        assert str(info.value) == words
    for command in COMMANDS[:-1]:
        code, out, err = run(capsys, command, name)
        assert (code, out, err) == (2, "", f"omaha {command}: error: {words}\n"), command
    pytest.importorskip("websockets")   # serve checks its extra first, then the settings
    assert main(["serve", "--db", str(tmp_path / "a.sqlite"), "--variant", name]) == 2
    assert capsys.readouterr().err == f"omaha serve: error: {words}\n"
    assert not (tmp_path / "a.sqlite").exists()


def test_c6_each_variant_has_one_display_name_that_reads_back() -> None:
    assert set(SHORT_NAMES) == set(VARIANTS + STUD_VARIANTS)
    for variant, name in SHORT_NAMES.items():
        assert parse_variant(name).variant is variant and parse_variant(name).structure is None
    assert repr(Range("AA", variant="PO/8")) == "Range('AA', variant='omaha8')"


def test_c6_every_command_documents_the_same_names() -> None:
    from omaha.cli.shared import VARIANT_HELP

    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices   # type: ignore[union-attr]
    helps = {name: action.help for name, sub in commands.items() for action in sub._actions
             if "--variant" in action.option_strings}
    # tournament: a structure's variant; solve: 4-card Omaha only (its Spot refuses the rest)
    assert set(helps) == {*COMMANDS, "tournament", "solve"}
    assert all(text.startswith(VARIANT_HELP) for text in helps.values())
