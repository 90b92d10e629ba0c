"""The stud configuration and hand surface (E1, E3, E5): the variant table's stud names, the
typed errors naming the field, a seeded deal, and views that hide other players' down cards."""

from __future__ import annotations

import random

import pytest

from omaha.config import (
    FIVE_CARD_STUD,
    FIXED_LIMIT,
    RAZZ,
    SEVEN_CARD_STUD,
    SEVEN_CARD_STUD_HILO,
    VARIANT_NAMES,
    GameConfig,
    parse_variant,
    variant_of,
)
from omaha.errors import ConfigError, TableError
from omaha.game.stud import STUD_CODES, StudConfig, StudHand


@pytest.mark.parametrize(("name", "variant"), [
    ("F7S", SEVEN_CARD_STUD), ("F7S/8", SEVEN_CARD_STUD_HILO), ("FR", RAZZ),
    ("F5S", FIVE_CARD_STUD), ("stud8", SEVEN_CARD_STUD_HILO), ("Razz", RAZZ),
])
def test_e1_stud_names_in_the_one_variant_table(name, variant):
    assert parse_variant(name).variant == variant
    assert variant.is_stud and variant.max_players == 8
    assert StudConfig(variant=name, ante=1, small_bet=2).variant == variant
    assert parse_variant(STUD_CODES[variant]).variant == variant


def test_e1_flop_configs_and_equity_refuse_stud_variants():
    with pytest.raises(ConfigError, match="E1"):
        GameConfig.fixed_limit(small_bet=10, variant="FR")
    with pytest.raises(ConfigError, match="E1"):
        variant_of("F7S")
    with pytest.raises(ConfigError, match="E1"):
        StudConfig(variant="plo", ante=1, small_bet=2)
    assert all(v.usual is FIXED_LIMIT for v in VARIANT_NAMES.values() if v.variant.is_stud)


def test_e3_no_ante_and_no_bring_in_is_refused():
    with pytest.raises(ConfigError, match="E3: a stud game needs an ante or a bring-in"):
        StudConfig(variant="F7S", small_bet=10)


def test_e3_bring_in_larger_than_the_small_bet_is_refused_naming_it():
    with pytest.raises(ConfigError, match="bring_in 11 is larger than the small bet 10"):
        StudConfig(variant="F7S", ante=1, bring_in=11, small_bet=10)


@pytest.mark.parametrize("field", ["ante", "bring_in", "small_bet", "max_raises"])
def test_e5_bad_amounts_name_the_field(field):
    values = {"ante": 1, "bring_in": 2, "small_bet": 10}
    values[field] = -1
    with pytest.raises(ConfigError, match=field):
        StudConfig(variant="F7S", **values)
    values[field] = True     # bool is never an amount
    with pytest.raises((ConfigError, TypeError)):
        StudConfig(variant="F7S", **values)


def test_e1_more_than_eight_players_is_refused():
    config = StudConfig(variant="F7S", ante=1, bring_in=2, small_bet=10)
    with pytest.raises(TableError, match="E1"):
        StudHand(config, [100] * 9)


def test_e2_seeded_deal_repeats_and_views_hide_down_cards():
    config = StudConfig(variant="F7S/8", ante=1, bring_in=2, small_bet=10)
    one = StudHand(config, [200] * 5, rng=random.Random(5))
    two = StudHand(config, [200] * 5, rng=random.Random(5))
    assert one.view(None) == two.view(None)
    while not one.is_over:
        one.check_or_call()
    view = one.view(3)
    for i, seat in enumerate(view["players"]):
        assert (seat["down"] is None) == (i != 3)
        assert len(seat["up"]) == 4
    assert len(view["players"][3]["down"]) == 3
    assert sum(one.stacks) == 1000
