"""Cards and parsing (rule C1)."""

import json
import pickle

import pytest

import omaha
from omaha import Card, CardError, OmahaError, format_cards, parse_cards


def test_c1_index_is_four_rank_plus_suit():
    assert [int(c) for c in parse_cards("2c2d2h2sAs")] == [0, 1, 2, 3, 51]
    assert Card("Ah").rank == 12 and Card("Ah").suit == 2


def test_c1_case_insensitive_and_ten():
    assert parse_cards("ahKS10c") == parse_cards("AhKsTc")
    assert parse_cards("Ah, Ks; 10d") == [Card("Ah"), Card("Ks"), Card("Td")]


def test_c1_repr_pastes_back_and_str_is_text():
    card = Card("Td")
    assert repr(card) == "Card('Td')"
    assert eval(repr(card)) == card
    assert str(card) == "Td"
    assert format_cards(parse_cards("AhKs2c")) == "AhKs2c"
    assert format_cards(parse_cards("AhKs2c"), sep=" ") == "Ah Ks 2c"


def test_cards_are_ints_for_json_and_pickle():
    cards = parse_cards("AhKs")
    assert json.loads(json.dumps(cards)) == [50, 47]
    assert pickle.loads(pickle.dumps(cards)) == cards
    assert type(pickle.loads(pickle.dumps(cards))[0]) is Card


def test_deck_is_52_distinct_cards():
    assert len(omaha.DECK) == 52 and len(set(omaha.DECK)) == 52
    assert {str(c) for c in omaha.DECK} == {r + s for r in "23456789TJQKA" for s in "cdhs"}


@pytest.mark.parametrize(
    "text, token",
    [("AhKx2c", "Kx"), ("1h", "1h"), ("Zs", "Zs"), ("Ah K", "K"), ("AhKs2", "2"), ("11h", "11")],
)
def test_c1_bad_text_names_the_token(text, token):
    with pytest.raises(CardError) as info:
        parse_cards(text)
    assert repr(token) in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, OmahaError)


def test_c1_duplicates_are_errors():
    with pytest.raises(CardError, match="duplicate card Ah"):
        parse_cards("AhKsAh")
    with pytest.raises(CardError, match="duplicate card Ks"):
        omaha.evaluate_high("AhKs2c3d", "KsQdJd")


@pytest.mark.parametrize("bad", [52, -1, 2**70, -(2**70), 1.0, None, True, "Ah Ks", b"Ah", [50]])
def test_c1_bad_single_cards(bad):
    with pytest.raises(CardError):
        Card(bad)
