"""Replay of histories through the engine, and export of engine hands to PHH."""

from __future__ import annotations

import random

import pytest

from omaha.config import (
    FIVE_CARD_OMAHA_HILO,
    HOLDEM,
    OMAHA_HIGH,
    OMAHA_HILO,
    SIX_CARD_OMAHA,
    GameConfig,
)
from omaha.errors import UnevaluableHandError
from omaha.game.bots import RandomBot, act, situation
from omaha.game.hand import Hand
from omaha.game.table import Table
from omaha.phh import HandHistory, HistoryError, dumps, dumps_all, loads, loads_all
from omaha.phh.export import history_from_events
from omaha.phh.replay import replay_history


def po(actions, *, stacks=(100, 100, 100), **extra) -> HandHistory:
    n = len(stacks)
    fields = {
        "variant": "PO",
        "antes": [0] * n,
        "blinds_or_straddles": [1, 2] + [0] * (n - 2),
        "min_bet": 2,
        "starting_stacks": list(stacks),
        "actions": actions,
    }
    fields.update(extra)
    return HandHistory(**fields)


DEAL3 = ["d dh p1 AcAd2h3s", "d dh p2 KcKd4h5s", "d dh p3 QcQd6h7s"]


def refused(history: HandHistory) -> HistoryError:
    with pytest.raises(HistoryError) as info:
        replay_history(history)
    return info.value


# ---------------------------------------------------------------- legal replays


def test_b1_t3_three_handed_order_and_stacks():
    """p1 small blind, p2 big blind, p3 (button) first preflop, p1 first after the flop."""
    hh = po(
        DEAL3 + ["p3 cbr 6", "p1 cc", "p2 f", "d db 2c8d9h", "p1 cc", "p3 cbr 10", "p1 f"],
        finishing_stacks=[94, 98, 108],
    )
    result = replay_history(hh)
    assert result.complete and result.matches
    assert result.finishing_stacks == (94, 98, 108)


def test_t4_heads_up_button_is_p2_and_acts_first_preflop():
    deal = ["d dh p1 AcAd2h3s", "d dh p2 KcKd4h5s"]
    result = replay_history(po(deal + ["p2 f"], stacks=(50, 60)))
    assert result.finishing_stacks == (51, 59)  # p1 posted the big blind 2, p2 (button) 1
    assert result.hand.button == 2 and result.hand.big_blind_seat == 1
    err = refused(po(deal + ["p1 cc"], stacks=(50, 60)))
    assert err.index == 2 and "it is p2's turn, not p1's (B1)" in err.reason


def test_showdown_replay_with_shown_and_unknown_cards():
    """Unknown hole cards (??) are filled in from what the player shows."""
    actions = [
        "d dh p1 AcAd2h3s",
        "d dh p2 ????????",
        "d dh p3 ????????",
        "p3 f",
        "p1 cc",
        "p2 cc",
        "d db 2c8d9h",
        "p1 cc",
        "p2 cc",
        "d db Ts",
        "p1 cc",
        "p2 cc",
        "d db Js",
        "p1 cc",
        "p2 cc",
        "p1 sm AcAd2h3s",
        "p2 sm KcKd4h5s",
    ]
    result = replay_history(po(actions))
    assert result.finishing_stacks == (102, 98, 100)  # aces beat kings: p2 pays p1 2
    assert result.hand.hole_cards(2) == (44, 45, 10, 15)


def test_partial_history_gives_stacks_behind():
    result = replay_history(po(DEAL3 + ["p3 cbr 6"], finishing_stacks=[99, 98, 94]))
    assert not result.complete and result.matches


def test_mismatching_finishing_stacks_replays_but_does_not_match():
    result = replay_history(po(DEAL3 + ["p3 f", "p1 f"], finishing_stacks=[99, 100, 100]))
    assert result.finishing_stacks == (99, 101, 100) and not result.matches


def test_recorded_seats_map_to_table_seats():
    hh = po(DEAL3 + ["p3 f", "p1 f"], metadata={"seats": [7, 9, 2]})
    result = replay_history(hh)
    assert result.hand.seats == (2, 7, 9) and result.hand.button == 2
    assert result.hand.small_blind_seat == 7 and result.finishing_stacks == (99, 101, 100)
    assert refused(po(DEAL3, metadata={"seats": [9, 7, 2]})).field == "seats"


def test_t3_antes_and_big_blind_ante():
    hh = po(DEAL3 + ["p3 f", "p1 f"], antes=[1, 4, 1])  # ante 1, big-blind ante 3
    assert replay_history(hh).finishing_stacks == (98, 103, 99)  # p2 takes 9: antes 6, blinds 3
    assert refused(po(DEAL3, antes=[0, 0, 5])).field == "antes"  # button ante


def test_fixed_limit_cap_and_unit():
    deal = ["d dh p1 AcAd2h3s", "d dh p2 KcKd4h5s"]
    base = {
        "variant": "FO/8",
        "antes": [0, 0],
        "blinds_or_straddles": [1, 2],
        "small_bet": 2,
        "big_bet": 4,
        "starting_stacks": [100, 100],
    }
    ok = HandHistory(**base, actions=deal + ["p2 cbr 4", "p1 cbr 6", "p2 cbr 8", "p1 cc"])
    assert replay_history(ok).hand.pot_total == 16
    err = refused(
        HandHistory(**base, actions=deal + ["p2 cbr 4", "p1 cbr 6", "p2 cbr 8", "p1 cbr 10"])
    )
    assert (err.index, err.action) == (5, "p1 cbr 10") and "B3" in err.reason
    err = refused(HandHistory(**base, actions=deal + ["p2 cbr 5"]))
    assert "B3" in err.reason and "exactly 4" in err.reason


@pytest.mark.parametrize(
    ("actions", "index", "words"),
    [
        (["p3 cbr 3"], 3, "B4: minimum raise is to 4"),
        (["p3 cbr 8"], 3, "B5: maximum raise is to 7"),
        (["p3 cbr 200"], 3, "maximum raise is to 7"),
        (["p1 f"], 3, "it is p3's turn, not p1's"),
        (["p3 f", "p1 f", "p2 cc"], 5, "the hand is over"),
        (["d db 2c8d9h"], 3, "the flop is not due: p3 is still to act"),
        (["p3 f", "p1 cc", "p2 cc", "p1 cc"], 6, "the flop must be dealt"),
        (["p3 f", "p1 f", "d db 2c8d9h"], 5, "the hand is over; there is no flop"),
        (["p3 cc", "p1 sm"], 4, "no showdown yet: p1 is to act"),
        (["p3 f", "p1 cc", "p3 sm"], 5, "p3 folded"),
        (["# p3 protected all-in (D2)"], 3, "D2: seat 3 has put no chips"),
    ],
)
def test_illegal_actions_stop_the_replay_naming_the_action(actions, index, words):
    err = refused(po(DEAL3 + actions))
    assert (err.index, err.action) == (index, (DEAL3 + actions)[index])
    assert words in err.reason
    assert str(err).startswith(f"actions[{index}] ")


@pytest.mark.parametrize(
    ("actions", "index", "words"),
    [
        (["d dh p1 AcAd2h3s", "d dh p2 Ac2c3c4c"], 1, "Ac is dealt twice (C1)"),
        (DEAL3 + ["p3 cc", "p1 cc", "p2 cc", "d db 2c8d"], 6, "the flop is 3 cards, got 2"),
        (
            DEAL3
            + ["p3 cc", "p1 cc", "p2 cc", "d db 2c8d9h", "p1 cc", "p2 cc", "p3 cc", "d db 2d3d"],
            10,
            "the turn is 1 card",
        ),
        (["d dh p1 AcAd2h3s4s"], 0, "would hold 5 hole cards; this game deals 4"),
        (["d dh p1 AcAd2h3s", "p1 sm AcAd2h9s"], 1, "shows 9s, which is not among"),
        (["d dh p1 AcAd2h3s", "p1 sm AcAd2h3s4s"], 1, "shows 5 cards"),
    ],
)
def test_contradicting_cards_are_refused(actions, index, words):
    err = refused(po(actions))
    assert err.index == index and words in err.reason


def test_t6_hole_cards_come_before_the_betting():
    err = refused(po(DEAL3[1:] + ["p3 cc", "d dh p1 AcAd2h3s"]))
    assert (err.index, err.action) == (3, "d dh p1 AcAd2h3s")
    assert "dealt before the betting starts (T6)" in err.reason


def test_showdown_with_cards_the_history_does_not_give_is_unevaluable():
    unknown = [
        "d dh p1 AcAd2h3s",
        "d dh p2 ????????",
        "d dh p3 ????????",
        "p3 f",
        "p1 cc",
        "p2 cc",
        "d db 2c8d9h",
        "p1 cc",
        "p2 cc",
        "d db Ts",
        "p1 cc",
        "p2 cc",
        "d db Js",
        "p1 cc",
        "p2 cc",
    ]
    err = refused(po(unknown))
    assert isinstance(err, UnevaluableHandError)   # not a broken file: unevaluable
    assert "needs the hole cards of p2, which the history does not give" in err.reason
    allin = DEAL3 + ["p3 cbr 7", "p1 cbr 21", "p2 f", "p3 cbr 60", "p1 cc", "d db 2c8d9h"]
    hh = po(allin, stacks=(60, 100, 60))
    err = refused(hh)
    assert isinstance(err, UnevaluableHandError)
    assert "gives only 3 of the 5 board cards" in err.reason


@pytest.mark.parametrize(
    ("fields", "name", "words"),
    [
        ({"blinds_or_straddles": [1, 2, 4]}, "blinds_or_straddles", "straddles are not played"),
        ({"blinds_or_straddles": [0, 2, 0]}, "blinds_or_straddles", "small blind of at least 1"),
        ({"min_bet": 4}, "min_bet", "differs from the big blind"),
        ({"user_fields": {"_max_raises": -1}}, "_max_raises", "expected a whole number"),
        ({"user_fields": {"_rake": "x"}}, "_rake", "whole number"),
    ],
)
def test_games_the_engine_does_not_play_are_refused(fields, name, words):
    err = refused(po(DEAL3, **fields))
    assert err.field == name and words in err.reason


def test_t5_live_blind_extension():
    hh = po(
        DEAL3[:2] + ["d dh p3 QcQd6h7s", "d dh p4 ????????", "p3 f", "p4 cc", "p1 f", "p2 cc"],
        stacks=(50, 50, 50, 50),
        blinds_or_straddles=[1, 2, 0, 2],
        user_fields={"_live_blinds": [4]},
    )
    result = replay_history(hh)
    assert result.hand.pot_total == 5 and not result.complete
    assert result.hand.to_act == 2 and "d db" not in " ".join(hh.actions)  # the flop is due
    assert (
        "straddles"
        in refused(
            po(DEAL3 + ["d dh p4 ????????"], stacks=(50,) * 4, blinds_or_straddles=[1, 2, 0, 2])
        ).reason
    )


# ---------------------------------------------------------------- export


def _random_hand(config: GameConfig, players: int, seed: int, *, timeouts: bool = False) -> Hand:
    rng = random.Random(seed)
    seats = rng.sample(range(1, 11), players)
    stacks = {s: rng.randrange(3, 40) * config.big_blind for s in seats}
    hand = Hand(config, stacks=stacks, button=rng.choice(seats), rng=rng)
    bot = RandomBot()
    while not hand.is_over:
        if timeouts and rng.random() < 0.1:
            hand.timeout()
        else:
            act(hand, bot.decide(situation(hand), rng))
    return hand


CONFIGS = [
    GameConfig.pot_limit(small_blind=1, big_blind=2),
    GameConfig.pot_limit(small_blind=5, big_blind=10, variant=OMAHA_HILO, ante=1),
    GameConfig.no_limit(small_blind=1, big_blind=2, big_blind_ante=2),
    GameConfig.fixed_limit(small_bet=10, big_bet=20, variant=OMAHA_HILO),
    GameConfig.fixed_limit(small_bet=4, variant=OMAHA_HIGH, max_raises=None),
    GameConfig.fixed_limit(small_bet=4, variant=OMAHA_HIGH, uncapped_heads_up=True, max_raises=3),
    GameConfig.no_limit(small_blind=2, big_blind=4, variant=FIVE_CARD_OMAHA_HILO),
    GameConfig.pot_limit(small_blind=1, big_blind=2, variant=SIX_CARD_OMAHA),
    GameConfig.no_limit(small_blind=1, big_blind=2, variant=HOLDEM),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.structure.value}-{c.variant.name}")
def test_export_import_replay_gives_the_same_hand(config):
    """Every engine hand written as PHH reads back and replays to the same stacks and
    the same event log (timeouts replay as the action they became)."""
    for seed in range(40):
        players = 2 + seed % (config.variant.max_players - 1)
        hand = _random_hand(config, players, seed, timeouts=seed % 3 == 0)
        history = history_from_events(hand.events)
        again = loads(dumps(history))
        assert again == history
        result = replay_history(again)
        assert result.complete and result.matches
        order = list(history.metadata["seats"])
        assert result.finishing_stacks == tuple(hand.stacks[s] for s in order)
        skip = ("TimedOut", "CardBurned")  # PHH records neither; burns replay at random
        ours = [e for e in hand.events if type(e).__name__ not in skip]
        assert [e for e in result.hand.events if type(e).__name__ not in skip] == ours


def test_export_of_a_table_session_with_live_blinds_and_rake():
    class TenPercent:
        def rake_for(self, pot_total, players_dealt, saw_flop):
            return pot_total // 10

    rng = random.Random(4)
    table = Table(
        GameConfig.pot_limit(small_blind=1, big_blind=2), seats=6, rng=rng, rake=TenPercent()
    )
    for seat in (1, 3, 5):
        table.sit(seat, stack=200)
    histories = []
    for number in range(12):
        if number == 4:  # newcomers post a live big blind to be dealt in at once (T5)
            table.sit(4, stack=150, post_big_blind=True)
            table.sit(2, stack=150, post_big_blind=True)
        for seat, chips in table.stacks.items():
            if chips < 200:
                table.rebuy(seat, 200 - chips)
        hand = table.start_hand()
        while not hand.is_over:
            act(hand, RandomBot().decide(situation(hand), rng))
        histories.append(history_from_events(hand.events, metadata={"hand": number + 1}))
    assert any("_live_blinds" in h.user_fields for h in histories)
    assert any(h.user_fields.get("_rake") for h in histories)
    for history in loads_all(dumps_all(histories)):
        assert replay_history(history).matches


def test_protected_all_in_is_written_as_a_documented_no_op():
    config = GameConfig.pot_limit(small_blind=1, big_blind=2)
    hand = Hand(config, stacks={1: 100, 2: 100, 3: 100}, button=3, rng=random.Random(8))
    hand.call()  # p3 (button) calls 2
    hand.bet_or_raise(8)  # p1 (small blind) raises
    hand.bet_or_raise(26)  # p2 re-raises
    assert hand.timeout() == "all_in"  # p3 has chips in: protected all-in (D2)
    hand.fold()
    history = history_from_events(hand.events)
    assert "# p3 protected all-in (D2)" in history.actions
    assert replay_history(loads(dumps(history))).finishing_stacks == tuple(
        hand.stacks[s] for s in history.metadata["seats"]
    )


def test_export_needs_a_hand_log():
    with pytest.raises(HistoryError, match="starts with HandStarted"):
        history_from_events([])
