"""Table rules T1-T5 and B8 between hands."""

from __future__ import annotations

import random

import pytest

from omaha.config import SIX_CARD_OMAHA, GameConfig
from omaha.errors import TableError
from omaha.game.events import Posted
from omaha.game.hand import Hand
from omaha.game.table import PLAYING, POSTING, SITTING_OUT, WAITING, Table

PL = GameConfig.pot_limit(small_blind=1, big_blind=2)


def fold_out(hand: Hand) -> None:
    while not hand.is_over:
        hand.fold()


def posts(hand: Hand) -> list[tuple[int, str, int]]:
    return [(e.seat, e.what, e.amount) for e in hand.events if isinstance(e, Posted)]


def table_with(*seats: int, **options: object) -> Table:
    table = Table(PL, seats=6, rng=random.Random(1), **options)  # type: ignore[arg-type]
    for seat in seats:
        table.sit(seat, stack=100)
    return table


def test_t1_seat_count_and_first_button_to_the_first_player_seated() -> None:
    for bad in (1, 11, "6"):
        with pytest.raises(TableError, match="T1"):
            Table(PL, seats=bad)  # type: ignore[arg-type]
    with pytest.raises(TableError, match="C1"):
        Table(GameConfig.pot_limit(small_blind=1, big_blind=2, variant=SIX_CARD_OMAHA), seats=9)
    table = table_with(4, 2, 6)
    assert table.start_hand().button == 4


def test_t1_seats_and_stacks_are_checked() -> None:
    table = table_with(1)
    with pytest.raises(TableError, match="T1"):
        table.sit(1, stack=100)
    with pytest.raises(TableError, match="T1"):
        table.sit(7, stack=100)
    with pytest.raises(TableError, match="B8"):
        table.sit(2, stack=0)
    with pytest.raises(TableError, match="T1"):
        table.start_hand()       # one player


def test_t2_button_moves_clockwise_to_the_next_player_dealt_in() -> None:
    table = table_with(1, 3, 5)
    buttons = []
    for _ in range(4):
        hand = table.start_hand()
        buttons.append(hand.button)
        fold_out(hand)
    assert buttons == [1, 3, 5, 1]


def test_t2_button_skips_empty_and_sitting_out_seats() -> None:
    table = table_with(1, 2, 4, 5)
    fold_out(table.start_hand())            # button 1
    table.sit_out(2)
    table.leave(4)
    hand = table.start_hand()
    assert hand.button == 5 and hand.seats == (1, 5)


def test_t3_blinds_left_of_the_button() -> None:
    table = table_with(2, 4, 6)
    hand = table.start_hand()               # button 2
    assert posts(hand) == [(4, "small_blind", 1), (6, "big_blind", 2)]


def test_t4_heads_up_button_posts_the_small_blind_and_acts_first() -> None:
    table = table_with(2, 5)
    hand = table.start_hand()
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat, hand.to_act) == (2, 2, 5, 2)
    fold_out(hand)
    hand = table.start_hand()
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (5, 5, 2)


def test_stacks_persist_across_hands() -> None:
    table = table_with(1, 2, 3)
    hand = table.start_hand()               # button 1, blinds 2 and 3
    fold_out(hand)                          # 1 and 2 fold: seat 3 wins the small blind
    assert table.stacks == {1: 100, 2: 99, 3: 101}
    hand = table.start_hand()
    assert hand.stacks == {1: 98, 2: 99, 3: 100}    # seat 3 posts the small blind from 101


def test_t5_new_player_waits_for_the_big_blind() -> None:
    table = table_with(1, 2, 3)
    fold_out(table.start_hand())            # button 1: blinds 2, 3
    table.sit(4, stack=100)                 # waits (default)
    assert table.players()[-1].status == WAITING
    hand = table.start_hand()               # button 2, SB 3, BB reaches 4
    assert 4 in hand.seats and hand.big_blind_seat == 4
    assert posts(hand) == [(3, "small_blind", 1), (4, "big_blind", 2)]


def test_t5_waiting_player_is_not_dealt_before_the_big_blind_reaches_them() -> None:
    table = table_with(1, 3, 5)
    fold_out(table.start_hand())            # button 1: SB 3, BB 5
    table.sit(2, stack=100)                 # between button and small blind next hand
    hand = table.start_hand()               # button 3, SB 5, BB 1
    assert 2 not in hand.seats and hand.big_blind_seat == 1
    fold_out(hand)
    hand = table.start_hand()               # button 5, SB 1, BB reaches 2
    assert hand.big_blind_seat == 2 and 2 in hand.seats


def test_t5_new_player_may_post_a_live_big_blind_to_play_at_once() -> None:
    table = table_with(1, 2, 3, 4)
    fold_out(table.start_hand())            # button 1
    table.sit(6, stack=100, post_big_blind=True)
    assert table.players()[-1].status == POSTING
    hand = table.start_hand()               # button 2, SB 3, BB 4; seat 6 posts live
    assert posts(hand) == [(3, "small_blind", 1), (4, "big_blind", 2), (6, "live_blind", 2)]
    assert hand.to_act == 6                  # first left of the big blind
    legal = hand.legal_actions()
    assert legal.can_check and legal.min_raise_to == 4   # the live blind is a live bet
    hand.check(); hand.call(); hand.call(); hand.call(); hand.check()
    assert hand.street == 1
    assert table.players()[-1].status == PLAYING


def test_t5_new_player_in_the_big_blind_position_posts_just_the_big_blind() -> None:
    table = table_with(1, 2, 3)
    fold_out(table.start_hand())            # button 1
    table.sit(5, stack=100, post_big_blind=True)
    hand = table.start_hand()               # button 2, SB 3, and the big blind is seat 5
    assert posts(hand) == [(3, "small_blind", 1), (5, "big_blind", 2)]


def test_t5_poster_between_button_and_small_blind_waits_for_the_button_to_pass() -> None:
    table = table_with(1, 3, 5)
    fold_out(table.start_hand())            # button 1
    table.sit(4, stack=100, post_big_blind=True)   # next: button 3, SB 5: 4 is between
    hand = table.start_hand()
    assert 4 not in hand.seats
    fold_out(hand)
    hand = table.start_hand()               # button 5, SB 1, BB 3: seat 4 posts live
    assert (4, "live_blind", 2) in posts(hand)


def test_t5_no_posting_before_the_first_hand() -> None:
    table = Table(PL, seats=6)
    table.sit(1, stack=100, post_big_blind=True)
    table.sit(2, stack=100)
    assert {p.status for p in table.players()} == {PLAYING}


def test_sit_out_and_back_in() -> None:
    table = table_with(1, 2, 3)
    table.sit_out(3)
    hand = table.start_hand()
    assert hand.seats == (1, 2)
    fold_out(hand)
    with pytest.raises(TableError, match="T5"):
        table.sit_in(2)
    table.sit_in(3, post_big_blind=True)
    assert table.players()[2].status == POSTING
    table.sit_out(1)
    assert table.players()[0].status == SITTING_OUT


def test_b8_rebuy_only_between_hands() -> None:
    table = table_with(1, 2)
    hand = table.start_hand()
    with pytest.raises(TableError, match="B8"):
        table.rebuy(1, 50)
    with pytest.raises(TableError, match="B8"):
        table.leave(2)
    fold_out(hand)
    table.rebuy(1, 50)
    with pytest.raises(TableError, match="B8"):
        table.rebuy(1, -5)
    assert table.stacks[1] == 149
    assert table.leave(2) == 101


def test_busted_players_are_not_dealt_in() -> None:
    config = GameConfig.no_limit(small_blind=1, big_blind=2)
    table = Table(config, seats=3, rng=random.Random(3))
    table.sit(1, stack=10); table.sit(2, stack=10); table.sit(3, stack=10)
    hand = table.start_hand()                # button 1: seat 1 to act
    hand.all_in()
    hand.all_in() if hand.to_act == 2 else None
    while not hand.is_over:
        hand.check_or_call()
    busted = [s for s, chips in table.stacks.items() if chips == 0]
    if len(busted) < 2:
        nxt = table.start_hand()
        assert not set(busted) & set(nxt.seats)
    assert sum(table.stacks.values()) == 30


def test_one_hand_at_a_time() -> None:
    table = table_with(1, 2)
    table.start_hand()
    with pytest.raises(TableError, match="T1"):
        table.start_hand()
