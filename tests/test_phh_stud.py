"""PHH for stud (issue 26; E1-E7, C1): the engine's hands written and read back, and every
impossible history refused with a HistoryError naming the field or the action."""

from __future__ import annotations

import random

import pytest

from omaha.errors import HistoryError, UnevaluableHandError
from omaha.game.stud import StudConfig, StudHand
from omaha.game.studplay import random_stud
from omaha.phh.stud import (
    StudHistory,
    dumps_stud,
    loads_stud,
    replay_stud_history,
    stud_history,
)
from test_stud_record import random_hand


def finished(seed: int, variant: str | None = None) -> StudHand:
    hand, rng = random_hand(seed, variant)
    while not hand.is_over:
        random_stud(hand, rng)
    return hand


@pytest.mark.parametrize("variant", ["F7S", "F7S/8", "FR"])
def test_e1_e7_hands_written_as_phh_replay_to_their_stacks(variant):
    """Random hands (2-8 players, any dealer, short decks included) written as PHH, read back
    and replayed: the same final stacks, and the same history written again."""
    for seed in range(200):
        hand = finished(seed, variant)
        history = stud_history(hand)
        text = dumps_stud(history)
        back = loads_stud(text)
        assert back == history
        replay = replay_stud_history(back)
        order = [s - 1 for s in history.seats]
        assert replay.matches and list(replay.stacks) == [hand.stacks[p] for p in order]
        assert dumps_stud(stud_history(replay.hand)).split("seats")[0] == text.split("seats")[0]


def test_e2_short_deck_shared_card_is_written_as_a_board_card():
    hand = StudHand(StudConfig(variant="F7S", ante=1, small_bet=2), [100] * 8,
                    rng=random.Random(1))
    while not hand.is_over:
        hand.check_or_call()
    text = dumps_stud(stud_history(hand))
    assert sum(line.strip().startswith('"d db') for line in text.splitlines()) == 1
    assert replay_stud_history(loads_stud(text)).matches


def test_five_card_stud_has_no_phh_code():
    hand = finished(1, "F5S")
    with pytest.raises(HistoryError, match="F5S") as err:
        stud_history(hand)
    assert err.value.field == "variant"


BASE = """variant = "F7S"
antes = [1, 1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [100, 100, 100]
"""
# p1 shows 2c (the lowest up card: it brings in, E3), p2 Ah, p3 Kd.
DEAL = ['d dh p1 7s8s2c', 'd dh p2 9d9cAh', 'd dh p3 3h4hKd']


def history(actions: list[str], base: str = BASE) -> str:
    return base + "actions = [" + ", ".join(f'"{a}"' for a in actions) + "]\n"


def test_a_written_by_hand_history_replays():
    text = history(DEAL + ["p1 pb", "p2 f", "p3 f"])
    replay = replay_stud_history(loads_stud(text))
    assert replay.stacks == (102, 99, 99)


IMPOSSIBLE = {
    "up card twice": (DEAL[:2] + ["d dh p3 3h4hAh"], 2, "twice"),
    "down card twice": (DEAL[:2] + ["d dh p3 9d4hKd"], 2, "twice"),
    "four cards on third street": (["d dh p1 7s8s2c5d"] + DEAL[1:], 0, "4 cards"),
    "unknown up card": (["d dh p1 7s8s??"] + DEAL[1:], 0, "up card cannot be unknown"),
    "bring-in by the wrong seat": (DEAL + ["p2 pb"], 3, "bring-in is p1's"),
    "bring-in called": (DEAL + ["p1 cc"], 3, "owes the bring-in"),
    "bring-in folds": (DEAL + ["p1 f"], 3, "E3|bring"),
    "acting before the up cards": (DEAL[:2] + ["p1 pb"], 2, "up card"),
    "a card to a folded player": (DEAL + ["p1 pb", "p2 f", "p3 cc", "d dh p2 5s"], 6,
                                  "no card now"),
    "completion below the small bet": (DEAL + ["p1 cbr 3"], 3, "exactly 4"),
    "a board card without a short deck": (DEAL + ["d db 5s"], 3, "shared card"),
}


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE))
def test_e2_e3_c1_impossible_stud_histories_name_the_action(name):
    actions, index, message = IMPOSSIBLE[name]
    with pytest.raises(HistoryError, match=message) as err:
        replay_stud_history(loads_stud(history(actions)))
    assert err.value.index == index and err.value.action == actions[index]


BAD_FIELDS = {
    "F5S": (BASE.replace('"F7S"', '"F5S"'), "variant"),
    "unequal antes": (BASE.replace("[1, 1, 1]", "[1, 2, 1]"), "antes"),
    "bring-in above the small bet": (BASE.replace("bring_in = 2", "bring_in = 5"), "bring_in"),
    "nine players": (BASE.replace("antes = [1, 1, 1]", "antes = [1] * 9")
                     .replace("[100, 100, 100]", str([100] * 9)), "starting_stacks"),
    "missing bring_in": (BASE.replace("bring_in = 2\n", ""), "bring_in"),
    "blinds": (BASE + "blinds_or_straddles = [1, 2, 0]\n", "blinds_or_straddles"),
    "negative stack": (BASE.replace("[100, 100, 100]", "[100, -1, 100]"), "starting_stacks[1]"),
    "bool bet": (BASE.replace("small_bet = 4", "small_bet = true"), "small_bet"),
    "cap": (BASE + "_max_raises = -1\n", "_max_raises"),
}


@pytest.mark.parametrize("name", sorted(BAD_FIELDS))
def test_bad_stud_fields_are_named(name):
    base, field = BAD_FIELDS[name]
    if "antes = [1] * 9" in base:
        base = base.replace("antes = [1] * 9", "antes = " + str([1] * 9))
    with pytest.raises(HistoryError) as err:
        replay_stud_history(loads_stud(history(DEAL, base)))
    assert err.value.field == field, str(err.value)


def test_actions_ending_early_are_refused():
    with pytest.raises(HistoryError) as err:
        replay_stud_history(loads_stud(history(DEAL + ["p1 pb"])))
    assert err.value.field == "actions"


def test_unknown_down_cards_replay_unless_they_decide_a_showdown():
    """``??`` down cards (a player's view of a hand) replay; a showdown they decide is
    unevaluable, and showing them (``sm``) decides it."""
    deal = ['d dh p1 ????2c', 'd dh p2 ????Ah', 'd dh p3 ????Kd']
    folds = replay_stud_history(loads_stud(history(deal + ["p1 pb", "p2 f", "p3 f"])))
    assert folds.stacks == (102, 99, 99)
    streets = ["p1 pb", "p2 f", "p3 cc", "d dh p1 5c", "d dh p3 5d", "p3 cc", "p1 cc",
               "d dh p1 6c", "d dh p3 6d", "p3 cc", "p1 cc", "d dh p1 7c", "d dh p3 7d",
               "p3 cc", "p1 cc", "d dh p1 ??", "d dh p3 ??", "p3 cc", "p1 cc"]
    with pytest.raises(UnevaluableHandError):
        replay_stud_history(loads_stud(history(deal + streets)))
    shown = streets + ["p3 sm 3h4hKd5d6d7dQs", "p1 sm 7s8s2c5c6c7cJs"]
    replay = replay_stud_history(loads_stud(history(deal + shown)))
    assert replay.stacks == (97, 99, 104)   # p3's 3-4-5-6-7 straight
    lie = streets + ["p3 sm 3h4hAd5d6d7dQs", "p1 sm 7s8s2c5c6c7cJs"]
    with pytest.raises(HistoryError, match="Kd was dealt"):
        replay_stud_history(loads_stud(history(deal + lie)))


def test_stud_history_checks_its_fields_on_construction():
    with pytest.raises(HistoryError) as err:
        StudHistory(variant="FR", antes=[1, 1], bring_in=1, small_bet=2, big_bet=4,
                    starting_stacks=[10, 10], actions=["p1 xx"])
    assert err.value.index == 0
