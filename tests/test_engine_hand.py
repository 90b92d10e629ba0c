"""Scripted full hands with hand-computed final stacks, one per structure and variant, and
the hand-level rules: T4 heads-up, T6 dealing, C2 shuffling, S4, antes."""

from __future__ import annotations

import random

import pytest

from engine_helpers import cards, make_hand
from omaha.config import (
    FIVE_CARD_OMAHA,
    HOLDEM,
    OMAHA_HIGH,
    OMAHA_HILO,
    SIX_CARD_OMAHA_HILO,
    GameConfig,
)
from omaha.errors import IllegalActionError, TableError
from omaha.game.deck import shuffled_cards
from omaha.game.events import BoardDealt, CardBurned, HoleDealt, Posted, Shown
from omaha.game.hand import Hand, Street


def test_scripted_pot_limit_omaha_high() -> None:
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HIGH),
                     {1: 100, 2: 100, 3: 100}, button=1,
                     hole_cards={1: "AhAdKcQc", 2: "2c2d7h8h", 3: "JsTs9d3h"}, board="AsAc2h5d9c")
    assert hand.legal_actions().max_raise_to == 7
    hand.bet_or_raise(7); hand.call(); hand.call()                     # pot 21
    hand.check(); hand.bet_or_raise(10)                                # flop: 2 checks, 3 bets
    assert hand.legal_actions().max_raise_to == 51
    hand.bet_or_raise(40); hand.call(); hand.fold()                    # pot 111
    hand.check(); hand.bet_or_raise(30); hand.call()                   # turn: pot 171
    hand.all_in(); hand.all_in()                                       # river: 23 each
    # quad aces (seat 1) beat deuces full of aces (seat 2)
    assert hand.is_over and hand.stacks == {1: 217, 2: 0, 3: 83}
    result = hand.result
    assert result is not None and result.winners == (1,) and result.net == {1: 117, 2: -100, 3: -17}
    shows = [e.seat for e in hand.events if isinstance(e, Shown)]
    assert shows == [2, 1] and set(result.shown) == {1, 2}   # S1: the river bettor first


def test_scripted_pot_limit_omaha_hilo_split() -> None:
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO),
                     {1: 100, 2: 100, 3: 100}, button=1,
                     hole_cards={1: "Ac2dQsJs", 2: "KhKc7s8s", 3: "9c9dTcTd"}, board="3h4h5cKdKs")
    hand.call(); hand.call(); hand.check()                             # pot 6
    hand.check(); hand.check(); hand.check()
    hand.bet_or_raise(6); hand.fold(); hand.call()                     # turn: pot 18
    hand.check(); hand.check()
    # quad kings take the high half, the wheel the low half: 9 and 9
    assert hand.stacks == {1: 101, 2: 101, 3: 98}
    result = hand.result
    assert result is not None
    assert result.pots[0].high == ((2, 9),) and result.pots[0].low == ((1, 9),)


def test_s3_odd_chip_of_the_halving_goes_to_the_high_half() -> None:
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO),
                     {1: 100, 2: 100, 3: 100}, button=1,
                     hole_cards={1: "Ac2dQsJs", 2: "9c9dTcTd", 3: "KhKc7s8s"}, board="3h4h5cKdKs")
    hand.call(); hand.fold(); hand.check()                             # pot 5
    for _ in range(6):
        hand.check()
    assert hand.stacks == {1: 100, 2: 99, 3: 101}


def test_scripted_fixed_limit_omaha_hilo_with_a_side_pot() -> None:
    hand = make_hand(GameConfig.fixed_limit(small_bet=10, big_bet=20, variant=OMAHA_HILO),
                     {1: 1000, 2: 1000, 3: 20, 4: 1000}, button=1,
                     hole_cards={1: "9c9dJcJd", 2: "6c7dTcTd", 3: "Ac2dQsJs", 4: "KhKc7s8s"},
                     board="3h4h5cKdKs")
    hand.bet_or_raise(20); hand.call(); hand.call(); hand.call()      # seat 3 all-in: main 80
    hand.bet_or_raise(10); hand.bet_or_raise(20); hand.call(); hand.call()   # flop: side 60
    hand.check(); hand.bet_or_raise(20); hand.fold(); hand.call()     # turn: side 100
    hand.bet_or_raise(20); hand.call()                                 # river: side 140
    # main 80: quad kings (4) high, the wheel (3) low; side 140: kings high, 7-6 low (2)
    assert hand.stacks == {1: 960, 2: 990, 3: 40, 4: 1030}
    result = hand.result
    assert result is not None
    assert [(p.amount, p.eligible, p.high, p.low) for p in result.pots] == [
        (80, (2, 3, 4), ((4, 40),), ((3, 40),)),
        (140, (2, 4), ((4, 70),), ((2, 70),)),
    ]


def test_scripted_fixed_limit_omaha_high_with_a_capped_flop() -> None:
    hand = make_hand(GameConfig.fixed_limit(small_bet=2, big_bet=4, variant=OMAHA_HIGH),
                     {1: 50, 2: 50, 3: 50}, button=1,
                     hole_cards={1: "AhAdKcQc", 2: "2c2d7h8h", 3: "JsTs9d3h"}, board="AsAc2h5d9c")
    hand.bet_or_raise(4); hand.call(); hand.call()                    # pot 12
    for to in (2, 4, 6, 8):                                            # flop: capped at 4 bets
        hand.bet_or_raise(to)
    assert hand.legal_actions().min_raise_to is None
    hand.call(); hand.call()                                           # pot 36
    hand.check(); hand.check(); hand.bet_or_raise(4); hand.call(); hand.fold()   # turn: 44
    hand.bet_or_raise(4); hand.bet_or_raise(8); hand.call()            # river: 60
    assert hand.stacks == {1: 86, 2: 26, 3: 38}
    mucked = [e.seat for e in hand.events if type(e).__name__ == "Mucked"]
    assert mucked == [2]             # S1: the river raiser shows first; the full house mucks


def test_scripted_no_limit_omaha_hilo_heads_up_all_in() -> None:
    hand = make_hand(GameConfig.no_limit(small_blind=5, big_blind=10, variant=OMAHA_HILO),
                     {1: 300, 2: 500}, button=1,
                     hole_cards={1: "Ac2dQsJs", 2: "KhKc7s8s"}, board="3h4h5cKdKs")
    hand.bet_or_raise(30); hand.call()
    hand.check(); hand.bet_or_raise(40); hand.bet_or_raise(120); hand.call()
    hand.all_in(); hand.all_in()                                       # turn: 350 vs 150
    # 200 of seat 2's shove goes back; 600 splits: quad kings high, the wheel low
    assert hand.stacks == {1: 300, 2: 500}
    result = hand.result
    assert result is not None and result.returned == {2: 200}
    assert result.pots[0].high == ((2, 300),) and result.pots[0].low == ((1, 300),)


def test_scripted_no_limit_holdem_heads_up_uncontested() -> None:
    hand = make_hand(GameConfig.no_limit(small_blind=1, big_blind=2, variant=HOLDEM),
                     {1: 100, 2: 100}, button=1)
    assert (hand.small_blind_seat, hand.big_blind_seat, hand.to_act) == (1, 2, 1)   # T4
    hand.bet_or_raise(6); hand.call()
    assert hand.to_act == 2                                            # T4: button acts last
    hand.check(); hand.bet_or_raise(10); hand.bet_or_raise(30); hand.call()
    hand.all_in(); hand.fold()                                         # turn
    assert hand.stacks == {1: 64, 2: 136}
    result = hand.result
    assert result is not None and result.shown == {} and result.returned == {2: 64}   # S4


def test_scripted_five_card_omaha_uses_exactly_two_hole_cards() -> None:
    hand = make_hand(GameConfig.pot_limit(small_blind=5, big_blind=10, variant=FIVE_CARD_OMAHA),
                     {1: 500, 2: 500}, button=1,
                     hole_cards={1: "AhAdAcKhKd", 2: "QhQd9c9hTh"}, board="AsQc7d4s2s")
    while not hand.is_over:
        hand.check_or_call()
    # seat 1 has three aces in hand but plays exactly two: trip aces beat trip queens
    assert hand.stacks == {1: 510, 2: 490}


def test_scripted_six_card_omaha_hilo_scoop() -> None:
    hand = make_hand(GameConfig.pot_limit(small_blind=5, big_blind=10, variant=SIX_CARD_OMAHA_HILO),
                     {1: 500, 2: 500, 3: 500}, button=3,
                     hole_cards={1: "Ah2h9c9dTsJs", 2: "KsKdQcQdJcJd", 3: "Tc8c8d7h6h5s"},
                     board="3h4h5cKcQh")
    while not hand.is_over:
        hand.check_or_call()
    # seat 1: the wheel low and the ace-high heart flush scoop seat 3's queen-high flush and
    # 7-6 low and seat 2's trip kings
    assert hand.stacks == {1: 520, 2: 490, 3: 490}


def test_antes_and_big_blind_ante_are_dead_money() -> None:
    config = GameConfig.no_limit(small_blind=5, big_blind=10, ante=2, big_blind_ante=10)
    hand = make_hand(config, {1: 100, 2: 100, 3: 100}, button=1)
    posts = [(e.seat, e.what, e.amount) for e in hand.events if isinstance(e, Posted)]
    assert posts == [(2, "ante", 2), (3, "ante", 2), (1, "ante", 2), (2, "small_blind", 5),
                     (3, "big_blind", 10), (3, "big_blind_ante", 10)]
    assert hand.pot_total == 31 and hand.legal_actions().call_amount == 10
    assert hand.legal_actions().min_raise_to == 20   # antes are not part of the bet
    hand.fold(); hand.fold()
    assert hand.stacks == {1: 98, 2: 93, 3: 109}


def test_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    # The all-in big blind's ante is table money: the big blind wins it, but can only win
    # what they put in live (100) from each caller, not 150.
    config = GameConfig.no_limit(small_blind=50, big_blind=100, big_blind_ante=100)
    hand = make_hand(config, {1: 1000, 2: 1000, 3: 150}, button=1,
                     hole_cards={1: "QhQdJhJd", 2: "9c9d8c8d", 3: "AhAdKhKd"}, board="AsAcKc2s3d")
    assert [(e.what, e.amount) for e in hand.events if isinstance(e, Posted)] == [
        ("small_blind", 50), ("big_blind", 100), ("big_blind_ante", 50)]
    assert hand.contributions == {1: 0, 2: 50, 3: 150}
    hand.bet_or_raise(300); hand.fold()
    assert hand.is_over and hand.stacks == {1: 900, 2: 950, 3: 300}
    result = hand.result
    assert result is not None and result.returned == {1: 200}
    assert [(p.amount, p.eligible) for p in result.pots] == [(300, (1, 3))]


def test_big_blind_ante_when_everyone_folds_to_the_big_blind() -> None:
    config = GameConfig.no_limit(small_blind=50, big_blind=100, big_blind_ante=100)
    hand = make_hand(config, {1: 1000, 2: 1000, 3: 1000}, button=1)
    hand.fold(); hand.fold()
    assert hand.stacks == {1: 1000, 2: 950, 3: 1050}
    result = hand.result
    assert result is not None and result.returned == {3: 50}
    assert [p.amount for p in result.pots] == [200]


def test_b8_short_stacks_post_what_they_have() -> None:
    config = GameConfig.no_limit(small_blind=5, big_blind=10, ante=3)
    hand = make_hand(config, {1: 100, 2: 3, 3: 8}, button=1)
    assert hand.state(2) == "all_in" and hand.state(3) == "all_in"
    assert hand.contributions == {1: 3, 2: 3, 3: 8}
    hand.call()
    assert hand.is_over and sum(hand.stacks.values()) == 111


def test_t6_hole_cards_one_at_a_time_from_the_small_blind_with_burns() -> None:
    deck = list(range(20))   # 3 players x 4 cards + 8
    hand = Hand(GameConfig.pot_limit(small_blind=1, big_blind=2), stacks={1: 50, 2: 50, 3: 50},
                button=1, deck=deck)
    assert hand.hole_cards(2) == (0, 3, 6, 9)       # the small blind gets the first card
    assert hand.hole_cards(3) == (1, 4, 7, 10)
    assert hand.hole_cards(1) == (2, 5, 8, 11)
    while not hand.is_over:
        hand.check_or_call()
    burns = [e.card for e in hand.events if isinstance(e, CardBurned)]
    boards = [e.cards for e in hand.events if isinstance(e, BoardDealt)]
    assert burns == [12, 16, 18] and boards == [(13, 14, 15), (17,), (19,)]
    assert hand.board == (13, 14, 15, 17, 19)


def test_c2_a_seeded_generator_reproduces_the_hand() -> None:
    config = GameConfig.pot_limit(small_blind=1, big_blind=2)
    one = Hand(config, stacks={1: 50, 2: 50, 3: 50}, button=2, rng=random.Random(99))
    two = Hand(config, stacks={1: 50, 2: 50, 3: 50}, button=2, rng=random.Random(99))
    assert one.events == two.events
    other = Hand(config, stacks={1: 50, 2: 50, 3: 50}, button=2)   # OS generator
    assert other.events != one.events   # 1 in 10^40 to fail


def test_c2_shuffle_is_uniform_over_positions() -> None:
    rng = random.Random(5)
    counts = [[0] * 52 for _ in range(3)]
    draws = 5200
    for _ in range(draws):
        seq = shuffled_cards(3, rng)
        for position, card in enumerate(seq):
            counts[position][card] += 1
        assert len(set(seq)) == 3
    for row in counts:   # chi-square with 51 degrees of freedom; 99.99% bound is about 100
        chi2 = sum((c - 100) ** 2 / 100 for c in row)
        assert chi2 < 110


def test_c2_os_generator_shuffle_is_uniform_over_positions() -> None:
    counts = [[0] * 52 for _ in range(2)]
    for _ in range(5200):
        for position, card in enumerate(shuffled_cards(2)):
            counts[position][card] += 1
    for row in counts:   # chi-square, 51 degrees of freedom: 110 is beyond p = 1e-6
        assert sum((c - 100) ** 2 / 100 for c in row) < 110


def test_c1_stacked_cards_must_be_distinct() -> None:
    config = GameConfig.pot_limit(small_blind=1, big_blind=2)
    with pytest.raises(ValueError, match="C1|twice|duplicate"):
        Hand(config, stacks={1: 50, 2: 50}, button=1, hole_cards={1: "AhKs2c3d", 2: "AhQs4c5d"})
    with pytest.raises(TableError, match="T6"):
        Hand(config, stacks={1: 50, 2: 50}, button=1, deck=list(range(12)))


def test_s4_last_player_takes_the_pot_without_showing_or_evaluating() -> None:
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2), {1: 50, 2: 50, 3: 50})
    hand.bet_or_raise(7); hand.fold(); hand.fold()
    assert hand.is_over and hand.street == Street.PREFLOP and hand.board == ()
    assert hand.stacks == {1: 53, 2: 49, 3: 48}
    result = hand.result
    assert result is not None and result.shown == {} and result.returned == {1: 5}


def test_bad_setups_are_refused() -> None:
    config = GameConfig.pot_limit(small_blind=1, big_blind=2)
    with pytest.raises(TableError, match="T1"):
        Hand(config, stacks={1: 50}, button=1)
    with pytest.raises(TableError, match="T2"):
        Hand(config, stacks={1: 50, 2: 50}, button=3)
    with pytest.raises(TableError, match="B8"):
        Hand(config, stacks={1: 50, 2: 0}, button=1)
    with pytest.raises(TableError, match="T1"):
        Hand(GameConfig.pot_limit(small_blind=1, big_blind=2, variant=SIX_CARD_OMAHA_HILO),
             stacks={s: 50 for s in range(1, 9)}, button=1)
    with pytest.raises(TableError, match="T5"):
        Hand(config, stacks={1: 50, 2: 50, 3: 50}, button=1, live_blinds=[3])


def test_illegal_actions_leave_the_hand_exactly_as_it_was() -> None:
    hand = make_hand(GameConfig.no_limit(small_blind=1, big_blind=2), {1: 50, 2: 50, 3: 50})
    before = hand.snapshot()
    for attempt in (lambda: hand.check(), lambda: hand.bet_or_raise(3),
                    lambda: hand.bet_or_raise(51), lambda: hand.fold(seat=2),
                    lambda: hand.show(), lambda: hand.protect_all_in()):
        with pytest.raises(IllegalActionError):
            attempt()
        assert hand.snapshot() == before


def test_queries_after_the_hand_is_over() -> None:
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2), {1: 50, 2: 50})
    hand.fold()
    assert hand.to_act is None and hand.is_over
    with pytest.raises(IllegalActionError, match="B1: the hand is over"):
        hand.legal_actions()
    with pytest.raises(IllegalActionError, match="B1"):
        hand.call()
    assert [type(e).__name__ for e in hand.events][-3:] == ["Returned", "PotAwarded", "HandEnded"]
    assert isinstance(hand.events[2], Posted) and isinstance(hand.events[4], HoleDealt)
    assert hand.pots() == [(2, (2,))]
    assert cards("Ah") == [50]
