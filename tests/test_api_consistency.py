"""One consistent API (issue 13): names the engine reports are accepted back, reprs read well,
a seat's filtered event log is public."""

import random

import pytest

import omaha
from omaha.errors import IllegalActionError
from omaha.game.clock import ClockConfig
from omaha.game.clocked import ACTION_ALIASES, ACTIONS, ClockedHand

CONFIG = omaha.GameConfig.no_limit(small_blind=1, big_blind=2)


def clocked() -> ClockedHand:
    hand = omaha.Hand(CONFIG, stacks={1: 100, 2: 100, 3: 100}, button=1, rng=random.Random(3))
    return ClockedHand(hand, now=0, config=ClockConfig())


@pytest.mark.parametrize("name", ["raise", "bet", "bet_or_raise"])
def test_b2_clocked_act_takes_the_bots_words_for_a_raise(name: str) -> None:
    game = clocked()
    seat = game.hand.to_act
    game.act(seat, name, to=6, now=1)
    assert game.hand.events[-1] == omaha.game.events.BetOrRaised(seat=seat, to=6)


def test_b2_every_action_the_bots_report_is_accepted_back() -> None:
    from typing import get_args

    from omaha.game.bots import Kind

    assert set(get_args(Kind)) <= set(ACTIONS) | set(ACTION_ALIASES)


@pytest.mark.parametrize("bad", ["shove", True, None, 3])
def test_b2_unknown_or_mistyped_action_names_are_refused_and_change_nothing(bad: object) -> None:
    game = clocked()
    before = game.snapshot()
    with pytest.raises(IllegalActionError):
        game.act(game.hand.to_act, bad, now=1)  # type: ignore[arg-type]
    assert game.snapshot() == before


def test_hand_and_table_reprs_say_what_and_where() -> None:
    hand = omaha.Hand(CONFIG, stacks={1: 100, 2: 100}, button=1, rng=random.Random(1))
    text = repr(hand)
    assert text.startswith("<Hand Omaha High no-limit") and "to act 1" in text
    hand.fold()
    assert " over " in repr(hand)
    table = omaha.Table(CONFIG)
    table.sit(1, stack=100)
    table.sit(2, stack=50)
    assert repr(table) == ("<Table Omaha High no-limit stacks={1: 100, 2: 50} button=None "
                           "hands_played=0>")


def test_visible_events_is_public_and_hides_other_hole_cards() -> None:
    hand = omaha.Hand(CONFIG, stacks={1: 100, 2: 100}, button=1, rng=random.Random(1))
    mine = omaha.visible_events(hand, 1)
    dealt = [e for e in mine if e["type"] == "hole_dealt"]
    assert {e["seat"] for e in dealt} == {1, 2}
    assert all((e["cards"] is None) == (e["seat"] != 1) for e in dealt)


def test_player_states_are_one_literal_type() -> None:
    from typing import get_args

    from omaha.game.status import STATE_NAMES, PlayerState

    assert get_args(PlayerState) == STATE_NAMES
    hand = omaha.Hand(CONFIG, stacks={1: 100, 2: 100}, button=1, rng=random.Random(1))
    assert {hand.state(s) for s in hand.seats} <= set(STATE_NAMES)


def test_a_hand_result_prints_seat_numbers_only() -> None:
    """The result reads by seat (3, 5, 7 here); the splitter's 0-based arrays stay out of its repr."""
    hand = omaha.Hand(CONFIG, stacks={3: 100, 5: 100, 7: 100}, button=3, rng=random.Random(2))
    while not hand.is_over:
        hand.check_or_call()
    text = repr(hand.result)
    assert "settlement" not in text and "eligible=(3, 5, 7)" in text
    assert hand.result.settlement.total == sum(hand.result.payouts.values())


def test_c1_eval_prints_suit_symbols_on_request_and_letters_when_piped(capsys) -> None:
    from omaha.cli import main

    assert main(["eval", "AhKh2c3d", "QhJh4s5s6c", "--symbols"]) == 0
    assert "(A♥2♣ + 4♠5♠6♣)" in capsys.readouterr().out
    assert main(["eval", "A♥K♥2♣3♦", "QhJh4s5s6c"]) == 0   # symbols parse; captured: not a tty
    assert "(Ah2c + 4s5s6c)" in capsys.readouterr().out
