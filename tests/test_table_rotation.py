"""A Table that deals stud and follows a rotation (E1-E8): stud hands at table seats, the
button moving every hand whatever the game (E8), the rotation's games in order, chips kept,
snapshots that round-trip the rotation's position, and bad configurations refused."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omaha.config import HOLDEM, RAZZ, GameConfig
from omaha.errors import SnapshotError, TableError
from omaha.game.hand import Hand
from omaha.game.rake import NoRake
from omaha.game.rotation import Rotation, RotationConfig
from omaha.game.stud import StudConfig
from omaha.game.studseats import SeatedStudHand
from omaha.game.table import Table

STUD = StudConfig(variant="F7S", ante=1, bring_in=2, small_bet=4)


def _mixed(text: str = "HORSE") -> RotationConfig:
    return RotationConfig(Rotation.parse(text), small_bet=4, ante=1, bring_in=2)


def _play_out(hand: Hand | SeatedStudHand, rng: random.Random) -> None:
    """Random legal actions until the hand ends."""
    while not hand.is_over:
        legal = hand.legal_actions()
        r = rng.random()
        if r < 0.2 and legal.call_amount and legal.can_fold:
            hand.fold()
        elif r < 0.4 and legal.min_raise_to is not None:
            hand.bet_or_raise(legal.min_raise_to)
        else:
            hand.check_or_call()


def _table(config: GameConfig | StudConfig | RotationConfig, seats: int = 6,
           sit: tuple[int, ...] = (1, 2, 3, 4), seed: int = 1) -> Table:
    table = Table(config, seats=seats, rng=random.Random(seed))
    for seat in sit:
        table.sit(seat, stack=500, name=f"p{seat}")
    return table


def test_e1_a_stud_table_deals_stud_hands_to_its_seats() -> None:
    table = _table(STUD, sit=(2, 4, 5))
    hand = table.start_hand()
    assert isinstance(hand, SeatedStudHand)
    assert hand.seats == (2, 4, 5) and hand.button == table.button == 2   # T1: first seated
    assert hand.to_act == hand.seats[hand.stud.bring_in_seat]             # E4: bring-in first
    _play_out(hand, random.Random(3))
    assert sum(table.stacks.values()) == 1500
    assert table.start_hand().button == 4                                 # E8/T2: moves on


def test_e2_a_seat_sees_its_own_down_cards_and_only_up_cards_of_others() -> None:
    hand = _table(STUD, sit=(1, 3, 6)).start_hand()
    assert isinstance(hand, SeatedStudHand)
    for seat in hand.seats:
        view = hand.view(seat).to_dict()
        for shown in view["players"]:
            assert (shown["down"] is None) == (shown["seat"] != seat)
            assert len(shown["up"]) == 2   # one card, as text
        for event in hand.view(seat).events:   # the log hides others' down cards too
            if event["type"] == "stud_dealt":
                assert (event["down"] is None) == (event["seat"] != seat)
    assert all(p["down"] is None for p in hand.view(None).to_dict()["players"])


def test_e8_the_table_plays_the_rotation_in_order_an_orbit_each() -> None:
    table = _table(_mixed(), sit=(1, 2, 3))
    rng = random.Random(5)
    games = []
    for _ in range(16):
        hand = table.start_hand()
        games.append(hand.config.variant)
        _play_out(hand, rng)
    horse = Rotation.parse("HORSE")
    assert games == [horse.game_at(h, 3) for h in range(16)]
    assert sum(table.stacks.values()) == 1500


def test_e8_button_after_a_stud_stretch_is_where_it_would_have_been() -> None:
    """The button (stud's dealer position) moves one seat every hand: the hold'em hands after
    the razz hands have it where a table that never left hold'em would have it."""
    mixed = _table(_mixed("FT,FR:3"), sit=(1, 3, 4, 6))
    plain = _table(GameConfig.fixed_limit(small_bet=4, big_bet=8, variant=HOLDEM),
                   sit=(1, 3, 4, 6))
    rng = random.Random(9)
    for number in range(12):
        hand, flop = mixed.start_hand(), plain.start_hand()
        assert hand.config.variant == (HOLDEM if number % 6 < 3 else RAZZ)
        assert hand.button == flop.button == (1, 3, 4, 6)[number % 4]
        assert Rotation.parse("FT,FR:3").button_at(number, 4) == number % 4   # the E8 rule
        _play_out(hand, rng)
        _play_out(flop, rng)


def test_e8_a_newcomer_during_stud_is_dealt_in_and_plays_the_flop_game_after() -> None:
    table = _table(_mixed("FR,FT:1"), sit=(1, 2))
    _play_out(table.start_hand(), random.Random(1))       # razz, heads up
    table.sit(4, stack=300)                                # waits for the big blind (T5)...
    hand = table.start_hand()                              # ...but hold'em: not dealt yet
    assert hand.config.variant == HOLDEM and 4 not in hand.seats
    _play_out(hand, random.Random(2))
    hand = table.start_hand()                              # razz has no blinds: dealt in
    assert hand.config.variant == RAZZ and 4 in hand.seats
    _play_out(hand, random.Random(3))
    assert 4 in table.start_hand().seats                   # and plays on (T5 settled)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8),
       length=st.sampled_from(["orbit", "1", "2", "5"]), hands=st.integers(1, 25))
def test_e8_property_games_buttons_and_chips(seed: int, players: int, length: str,
                                             hands: int) -> None:
    """At a full table the games follow ``game_at``, the button ``button_at`` (both E8),
    and no chip is made or lost."""
    rotation = Rotation.parse(f"HORSE:{length}")
    table = _table(RotationConfig(rotation, small_bet=2, ante=1, bring_in=1), seats=8,
                   sit=tuple(range(1, players + 1)), seed=seed)
    rng = random.Random(seed)
    for number in range(hands):
        if len([s for s, c in table.stacks.items() if c > 0]) < players:
            break   # someone busted: the full-table rule no longer applies
        hand = table.start_hand()
        assert hand.config.variant == rotation.game_at(number, players)
        assert hand.button == rotation.button_at(number, players) + 1
        _play_out(hand, rng)
        assert sum(table.stacks.values()) == 500 * players


def test_rotation_step_agrees_with_game_at() -> None:
    for text in ("HORSE", "HORSE:3", "FT,FR:1", "HA:7"):
        rotation = Rotation.parse(text)
        for players in (2, 5, 8):
            position = (0, 0)
            for number in range(60):
                position = rotation.step(*position, players)
                assert rotation.games[position[0]] == rotation.game_at(number, players)


def test_snapshot_round_trips_the_rotation_position_and_a_stud_hand_in_play() -> None:
    table = _table(_mixed("HORSE:2"), sit=(1, 2, 5))
    rng = random.Random(4)
    for _ in range(5):
        _play_out(table.start_hand(), rng)
    hand = table.start_hand()                          # hand 6: razz, its second
    assert isinstance(hand, SeatedStudHand)
    hand.check_or_call()
    data = json.loads(json.dumps(table.snapshot()))
    back = Table.restore(data)
    assert back.rotation_position == table.rotation_position == (2, 2)
    assert back.config == table.config and back.button == table.button
    again = back.hand
    assert isinstance(again, SeatedStudHand) and again.seats == hand.seats
    assert again.view(2) == hand.view(2) and again.to_act == hand.to_act
    assert again.events == hand.events
    assert back.snapshot() == table.snapshot()
    for played in (table, back):                      # both go on the same way
        _play_out(played.hand, random.Random(8))      # type: ignore[arg-type]
        for _ in range(3):
            _play_out(played.start_hand(), random.Random(8))
    assert back.stacks == table.stacks and back.rotation_position == table.rotation_position


def test_snapshot_refuses_a_position_outside_the_rotation() -> None:
    table = _table(_mixed("FT,FR:2"), sit=(1, 2))
    _play_out(table.start_hand(), random.Random(1))
    data = json.loads(json.dumps(table.snapshot()))
    data["config"]["position"] = [7, 1]
    with pytest.raises(SnapshotError):
        Table.restore(data)


def test_a_stud_table_refuses_rake_manual_showdown_fixed_cards_and_nine_seats() -> None:
    with pytest.raises(TableError, match="E7"):
        Table(_mixed(), rake=NoRake())
    with pytest.raises(TableError, match="E7"):
        Table(STUD, manual_showdown=True)
    with pytest.raises(TableError, match="C1"):
        Table(_mixed(), seats=9)
    with pytest.raises(TableError, match="config must be"):
        Table(Rotation.parse("HORSE"))   # type: ignore[arg-type]
    table = _table(STUD, sit=(1, 2))
    with pytest.raises(TableError, match="E2"):
        table.start_hand(board="AhKhQh")
    assert not table.in_hand


def test_d2_e3_a_stud_hand_on_the_clock_times_out_and_round_trips() -> None:
    """D2 in stud: a player facing a bet who runs out of time folds, and the bring-in (which may not fold, E3) is posted; a clocked stud hand's snapshot
    restores it exactly."""
    from omaha.game.clock import TimeoutPolicy
    from omaha.game.clocked import ClockedHand

    config = StudConfig(variant="FR", ante=1, bring_in=1, small_bet=2)
    hand = SeatedStudHand.deal(config, {1: 50, 4: 60, 6: 70}, button=4, rng=random.Random(3))
    bring_in = hand.to_act
    assert hand.timeout(policy=TimeoutPolicy.FOLD) == "check"       # posted, not folded
    assert hand.stud.bets[hand.player(bring_in)] == 1                # type: ignore[arg-type]
    facing = hand.to_act
    assert facing is not None and hand.legal_actions().call_amount == 1
    assert hand.timeout() == "fold" and hand.stud.folded[hand.player(facing)]
    game = ClockedHand(hand, now=0)
    data = json.loads(json.dumps(game.snapshot()))
    again = ClockedHand.restore(data)
    assert isinstance(again.hand, SeatedStudHand)
    assert again.hand.events == hand.events and again.clock.seat == hand.to_act
    fired = game.advance(10**7)
    assert fired and hand.is_over and sum(hand.stacks.values()) == 180
