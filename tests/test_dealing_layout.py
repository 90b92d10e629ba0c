"""One statement of the T6 layout (omaha.game.dealing) and of the event codes
(omaha.game.events).

Hands, tables, records and replay ask omaha.game.dealing where the blinds and every card are;
the board and burn offsets are the compiled engine's STREET_CARDS. The Python events of the
engine's log codes are one table built from the engine's EV_* names.
"""

from __future__ import annotations

import random

import pytest

import omaha.game.deck
from omaha.config import GameConfig
from omaha.game import dealing
from omaha.game.dealing import (
    blind_positions,
    board_positions,
    burn_positions,
    cards_needed,
    dealing_place,
    hole_position,
)
from omaha.game.events import EVENT_OF_CODE, EVENT_TYPES, BoardDealt, CardBurned, HoleDealt
from omaha.game.hand import Hand
from omaha.game.table import Table
from omahacore import engine

TWO_BLINDS = GameConfig.pot_limit(small_blind=1, big_blind=2)
ONE_BLIND = GameConfig.no_limit(small_blind=0, big_blind=2)


@pytest.mark.parametrize("config", [TWO_BLINDS, ONE_BLIND], ids=["two blinds", "one blind"])
@pytest.mark.parametrize("players", range(2, 10))
def test_t3_t4_hands_post_where_blind_positions_says(config: GameConfig, players: int) -> None:
    seats = tuple(range(2, 2 * players + 2, 2))   # gaps between seats change nothing
    for b, button in enumerate(seats):
        hand = Hand(config, stacks=dict.fromkeys(seats, 100), button=button,
                    rng=random.Random(b))
        sb, bb = blind_positions(players, b, single_blind=not config.small_blind)
        assert (hand.small_blind_seat, hand.big_blind_seat) == (seats[sb], seats[bb])
        if players == 2:   # T4: the button posts the small blind (or the single blind)
            assert hand.small_blind_seat == button
        dealt = [e.seat for e in hand.events if isinstance(e, HoleDealt)]
        assert dealt[0] == seats[sb]                            # T6: from the small blind
        assert [dealing_place(seats.index(s), sb, players) for s in dealt] == list(range(players))


@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("hole_cards", [2, 4, 5, 6])
def test_t6_positions_follow_the_engines_street_cards(players: int, hole_cards: int) -> None:
    if players * hole_cards + 8 > 52:
        return
    base = players * hole_cards
    burns = burn_positions(players=players, hole_cards=hole_cards)
    board = board_positions(players=players, hole_cards=hole_cards)
    assert burns == tuple(base + burn for burn, _, _ in engine.STREET_CARDS)
    assert board == tuple(base + i for _, first, end in engine.STREET_CARDS
                          for i in range(first, end))
    holes = {hole_position(round_=r, player=p, players=players)
             for r in range(hole_cards) for p in range(players)}
    assert sorted(holes) == list(range(base))
    assert sorted([*holes, *burns, *board]) == list(range(cards_needed(players, hole_cards)))


def test_t6_a_hand_deals_its_sequence_where_dealing_says() -> None:
    deck = list(range(51, 51 - cards_needed(3, 4), -1))
    hand = Hand(TWO_BLINDS, stacks={1: 100, 2: 100, 3: 100}, button=3, deck=deck)
    while not hand.is_over:
        hand.check_or_call()
    events = hand.events
    burns = [e.card for e in events if isinstance(e, CardBurned)]
    board = [c for e in events if isinstance(e, BoardDealt) for c in e.cards]
    assert burns == [deck[i] for i in burn_positions(players=3, hole_cards=4)]
    assert board == [deck[i] for i in board_positions(players=3, hole_cards=4)]
    sb = (1, 2, 3).index(hand.small_blind_seat)
    for event in events:
        if isinstance(event, HoleDealt):
            place = dealing_place((1, 2, 3).index(event.seat), sb, 3)
            assert list(event.cards) == [deck[hole_position(round_=r, player=place, players=3)]
                                         for r in range(4)]


@pytest.mark.parametrize("config", [TWO_BLINDS, ONE_BLIND], ids=["two blinds", "one blind"])
def test_t5_a_table_deals_its_blinds_where_blind_positions_says(config: GameConfig) -> None:
    table = Table(config, seats=6, rng=random.Random(1))
    for seat in (1, 3, 4, 6):
        table.sit(seat, stack=200)
    for _ in range(6):
        hand = table.start_hand()
        seats = hand.seats
        sb, bb = blind_positions(len(seats), seats.index(hand.button),
                                 single_blind=not config.small_blind)
        assert (hand.small_blind_seat, hand.big_blind_seat) == (seats[sb], seats[bb])
        while not hand.is_over:   # everyone folds to the blinds: the button moves on
            if hand.legal_actions().call_amount:
                hand.fold()
            else:
                hand.check()


def test_the_layout_is_dealings_alone() -> None:
    """The deck module shuffles; where the cards go is dealing's (its old home, the old
    omaha.deck path, re-exports these names for one release: test_package_layout.py)."""
    assert dealing.STREET_CARDS is engine.STREET_CARDS
    for name in ("STREET_CARDS", "board_positions", "burn_positions", "cards_needed",
                 "hole_position", "stacked_cards"):
        assert not hasattr(omaha.game.deck, name), name


def test_every_engine_log_code_has_its_event() -> None:
    codes = {name: getattr(engine, name) for name in dir(engine) if name.startswith("EV_")}
    assert sorted(codes.values()) == list(range(len(EVENT_OF_CODE)))
    assert EVENT_OF_CODE[engine.EV_HOLES] is HoleDealt
    assert EVENT_OF_CODE[engine.EV_BURNED] is CardBurned
    assert set(EVENT_TYPES.values()) == set(EVENT_OF_CODE)
