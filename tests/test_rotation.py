"""Mixed-game rotations (E8): the order of the games, their length, the button across stud
games, bad rotations refused naming what is wrong, and ``omaha play --rotation``."""

from __future__ import annotations

import json

import pytest

from omaha.cli import main
from omaha.config import HOLDEM, OMAHA_HILO, RAZZ, SEVEN_CARD_STUD, SEVEN_CARD_STUD_HILO
from omaha.errors import ConfigError
from omaha.game.bots import RandomBot
from omaha.game.hand import Hand
from omaha.game.rotation import Rotation, play_rotation
from omaha.game.stud import StudHand


def test_e8_horse_plays_each_game_an_orbit_in_order():
    horse = Rotation.parse("HORSE")
    games = [horse.game_at(h, 3) for h in range(18)]
    order = [HOLDEM, OMAHA_HILO, RAZZ, SEVEN_CARD_STUD, SEVEN_CARD_STUD_HILO, HOLDEM]
    assert games == [game for game in order for _ in range(3)]


def test_e8_a_list_of_games_and_a_fixed_number_of_hands():
    rotation = Rotation.parse("F7S, FT:2")
    assert [rotation.game_at(h, 6) for h in range(5)] == [
        SEVEN_CARD_STUD, SEVEN_CARD_STUD, HOLDEM, HOLDEM, SEVEN_CARD_STUD]


def test_e8_button_resumes_where_it_would_have_been_after_stud():
    """The button (the stud dealer position) moves one seat every hand, so the hold'em hand
    after the stud hands has the button that many seats on."""
    seen: dict[int, tuple[str, int]] = {}

    def record(number, hand):
        if isinstance(hand, StudHand):
            seen[number] = ("stud", hand.dealer)
        else:
            assert isinstance(hand, Hand)
            seen[number] = ("flop", hand.button - 1)

    bots = [RandomBot(), RandomBot(), RandomBot()]
    play_rotation(Rotation.parse("FT,F7S,FR:2"), bots, ["random"] * 3, hands=8, small_bet=2,
                  big_bet=4, ante=1, bring_in=1, stack=100, seed=3, on_hand=record)
    assert [seen[h] for h in range(8)] == [
        ("flop", 0), ("flop", 1), ("stud", 2), ("stud", 0), ("stud", 1), ("stud", 2),
        ("flop", 0), ("flop", 1)]


@pytest.mark.parametrize(("text", "words"), [
    ("FT,stud9", "E8: rotation: unknown variant 'stud9'"),
    ("HORSE:0", "E8: rotation: hands per game must be 1..10000"),
    ("", "E8: rotation must be a name or a list of games"),
    ("PLO,F7S", "E8: rotation: every game is fixed limit; 'PLO' is pot-limit"),
    ("FT,5-card omaha", "E8: rotation: 5-Card Omaha High has no fixed-limit game here"),
])
def test_e8_bad_rotations_are_refused_naming_the_problem(text, words):
    with pytest.raises(ConfigError, match=words):
        Rotation.parse(text)


def test_e8_omaha_play_rotation_horse(capsys):
    argv = ["play", "--rotation", "HORSE:2", "--players", "4", "--bots", "strength,random",
            "--hands", "40", "--seed", "5", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["per_game"] == {"FT": 8, "FO/8": 8, "FR": 8, "F7S": 8, "F7S/8": 8}
    assert sum(seat["net"] for seat in summary["seats"]) == 0
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["seats"] == summary["seats"]   # seeded
    assert main(["play", "--rotation", "HORSE", "--hands", "2", "--bots", "x.py:bot"]) == 2
    assert "E8" in capsys.readouterr().err
