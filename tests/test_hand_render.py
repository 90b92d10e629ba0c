"""The text picture of a hand (``str(hand)``, ``hand.render(seat=k)``) shows the table and
never a card its viewer may not see (issue 28).

Random hands of every variant (4-, 5- and 6-card Omaha, Hold'em, high and hi/lo) and
structure are driven by random legal actions; at every step the picture of every viewer is
read back card by card and compared with what that viewer may see: the board, its own hole
cards and the hands shown at showdown.
"""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

import omaha
from engine_helpers import random_action, random_hand
from omaha.config import FIVE_CARD_OMAHA_HILO, SIX_CARD_OMAHA, GameConfig
from omaha.game.hand import Hand
from omaha.game.render import HIDDEN

CARD = re.compile(r"(?<![\w-])([2-9TJQKA][shdc])(?![\w-])")


def shown_cards(picture: str) -> set[str]:
    """Every card named in the picture."""
    return set(CARD.findall(picture))


def hidden_from(hand: Hand, viewer: int | None) -> set[str]:
    """The hole cards ``viewer`` (None: a spectator) may not see now."""
    shown = {seat for seat, _ in hand.shown_hands()}
    return {str(card) for seat in hand.seats if seat != viewer and seat not in shown
            for card in hand.hole_cards(seat)}


def check_picture(hand: Hand, viewer: int | None) -> None:
    picture = str(hand) if viewer is None else hand.render(seat=viewer)
    cards = shown_cards(picture)
    leaked = cards & hidden_from(hand, viewer)
    assert not leaked, f"{leaked} shown to {viewer}:\n{picture}"
    assert {str(c) for c in hand.board} <= cards
    if viewer is not None:
        assert {str(c) for c in hand.hole_cards(viewer)} <= cards, picture
    for seat, hole in hand.shown_hands():
        assert {str(c) for c in hole} <= cards, picture
    rows = {int(m.group(2)): m.group(1) for m in
            re.finditer(r"^  ([> ]) +(\d+)  ", picture, re.MULTILINE)}
    assert sorted(rows) == sorted(hand.seats), picture
    if hand.to_act is not None:
        assert f"to act: seat {hand.to_act}" in picture
        assert [s for s, mark in rows.items() if mark == ">"] == [hand.to_act]
    else:
        assert "to act: seat" not in picture and ">" not in rows.values()
    for seat in hand.seats:
        row = next(line for line in picture.splitlines()
                   if re.match(rf"^  [> ] +{seat}  ", line))
        assert str(hand.stacks[seat]) in row.split()
        assert str(hand.bets[seat]) in row.split()
        state = hand.state(seat)
        if state == "folded":
            assert "folded" in row
        elif state == "all_in":
            assert "all-in" in row or seat == hand.to_act


@settings(max_examples=150)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60))
def test_every_picture_shows_only_what_its_viewer_may_see(seed, steps):
    rng = random.Random(seed)
    hand = random_hand(rng)
    for _ in range(steps + 1):
        assert str(hand) == hand.render() == hand.render(seat=None)
        for viewer in (None, *hand.seats):
            check_picture(hand, viewer)
        if hand.is_over:
            break
        random_action(hand, rng)


def test_spectator_picture_of_a_new_hand_has_no_card():
    hand = Hand(GameConfig.pot_limit(small_blind=1, big_blind=2, variant=FIVE_CARD_OMAHA_HILO),
                stacks={1: 100, 2: 100, 3: 100}, button=1, rng=random.Random(4))
    picture = str(hand)
    assert not shown_cards(picture)
    assert picture.count(HIDDEN) == 3 and "to act: seat 1" in picture
    assert "5-Card Omaha Hi/Lo 8-or-better pot-limit 1/2" in picture
    assert repr(hand).startswith("<Hand 5-Card Omaha Hi/Lo 8-or-better pot-limit seats=")


def test_seat_picture_shows_its_own_six_cards_only():
    hand = Hand(GameConfig.no_limit(small_blind=1, big_blind=2, variant=SIX_CARD_OMAHA),
                stacks={1: 100, 2: 100}, button=1, rng=random.Random(8))
    picture = hand.render(seat=1)
    mine = {str(c) for c in hand.hole_cards(1)}
    assert len(mine) == 6 and shown_cards(picture) == mine
    assert picture.count(HIDDEN) == 1 and "seat 1" in picture.splitlines()[0]


def test_picture_after_the_showdown_shows_the_shown_hands_and_the_payouts():
    hand = omaha.Hand(omaha.GameConfig.pot_limit(small_blind=1, big_blind=2),
                      stacks={1: 50, 2: 50, 3: 50}, button=1, rng=random.Random(11))
    hand.fold()
    while not hand.is_over:
        hand.check_or_call()
    picture = str(hand)
    shown = dict(hand.shown_hands())
    assert shown and all({str(c) for c in cards} <= shown_cards(picture)
                         for cards in shown.values())
    assert "folded" in picture and "hand over; paid: seat" in picture
    assert not shown_cards(picture) & hidden_from(hand, None)


def test_side_pots_are_listed():
    hand = Hand(GameConfig.no_limit(small_blind=1, big_blind=2),
                stacks={1: 100, 2: 30, 3: 100, 4: 60}, button=1, rng=random.Random(3))
    hand.call()     # seat 4 (UTG)
    hand.call()     # the button
    hand.all_in()   # the small blind, 30
    hand.call()     # the big blind
    hand.all_in()   # seat 4, 60
    picture = hand.render(seat=3)
    assert "side 1" in picture and "main" in picture, picture
