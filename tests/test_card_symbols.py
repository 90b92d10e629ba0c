"""Suit symbols in card text (rule C1; issue 13): parsed like letters, printed on request."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import omaha
from omaha.cards import DECK, Card
from omahacore import cards
from omahacore.errors import CardError, CardTypeError


@pytest.mark.parametrize("text, expected", [
    ("A♠", "As"), ("a♤", "As"), ("K♥", "Kh"), ("K♡", "Kh"), ("10♦", "Td"), ("T♢", "Td"),
    ("2♣", "2c"), ("2♧", "2c"), ("A\N{BLACK SPADE SUIT}\ufe0f", "As"),
])
def test_c1_suit_symbols_parse_like_letters(text: str, expected: str) -> None:
    assert cards.parse_card(text) == cards.parse_card(expected)
    assert Card(text) == Card(expected)


def test_c1_symbols_mix_with_letters_and_separators() -> None:
    assert omaha.parse_cards("A♠ Kh, 10♦;2♣") == omaha.parse_cards("AsKhTd2c")
    assert omaha.parse_cards("A♠️K♥️") == omaha.parse_cards("AsKh")   # emoji presentation
    with pytest.raises(CardError, match="duplicate card As"):
        omaha.parse_cards("A♠ As")
    for bad in ("A♔", "♠A", "A ♠", "1♠"):
        with pytest.raises(CardError):
            omaha.parse_cards(bad)


def test_symbols_are_printed_on_request_and_ascii_stays_the_default() -> None:
    ah = Card("Ah")
    assert ah.symbol == "A♥" and str(ah) == "Ah" and repr(ah) == "Card('Ah')"
    assert omaha.format_cards([ah, 47], " ", symbols=True) == "A♥ K♠"
    assert omaha.format_cards([ah, 47]) == "AhKs"
    assert cards.format_card(0, symbols=True) == "2♣"
    assert cards.format_cards("Td 9c", symbols=True) == "T♦9♣"
    with pytest.raises(CardTypeError, match="symbols must be True or False"):
        cards.format_cards([0], symbols=1)
    with pytest.raises(CardTypeError, match="sep must be a str"):
        cards.format_cards([0], 5)


@given(st.lists(st.sampled_from(DECK), unique=True, max_size=12), st.booleans(),
       st.sampled_from(["", " ", ","]))
def test_formatted_text_parses_back_either_way(hand: list[Card], symbols: bool, sep: str) -> None:
    text = omaha.format_cards(hand, sep, symbols=symbols)
    assert omaha.parse_cards(text) == hand
    assert eval(repr(hand), {"Card": Card}) == hand
