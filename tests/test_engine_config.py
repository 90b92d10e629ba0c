"""Game configuration: T3 blind defaults, C6 variants, B3 cap options, validation."""

import pytest

from omaha.config import (
    FIXED_LIMIT,
    HOLDEM,
    NO_LIMIT,
    OMAHA_HIGH,
    OMAHA_HILO,
    POT_LIMIT,
    SIX_CARD_OMAHA,
    VARIANTS,
    GameConfig,
    Structure,
    Variant,
)
from omaha.errors import ConfigError


def test_t3_fixed_limit_blinds_default_from_stakes() -> None:
    # 5/10 gives 2 and 5 when the unit is 1 (T3).
    config = GameConfig.fixed_limit(small_bet=5, big_bet=10)
    assert (config.small_blind, config.big_blind) == (2, 5)


def test_t3_blind_unit_one_dollar_in_a_cents_table() -> None:
    config = GameConfig.fixed_limit(small_bet=500, big_bet=1000, blind_unit=100)
    assert (config.small_blind, config.big_blind) == (200, 500)


def test_t3_explicit_blinds_override_the_defaults() -> None:
    config = GameConfig.fixed_limit(small_bet=10, big_bet=20, small_blind=3, big_blind=7)
    assert (config.small_blind, config.big_blind) == (3, 7)


def test_t3_derived_small_blind_of_zero_is_refused() -> None:
    with pytest.raises(ConfigError, match="T3"):
        GameConfig.fixed_limit(small_bet=1, big_bet=2)


def test_t3_pot_and_no_limit_need_a_big_blind_and_a_lone_blind_is_the_big_blind() -> None:
    with pytest.raises(ConfigError, match="T3"):
        GameConfig(structure=POT_LIMIT, small_blind=2)
    single = GameConfig(structure=POT_LIMIT, small_blind=0, big_blind=2)   # issue 10 item 7
    assert (single.small_blind, single.big_blind) == (0, 2)
    derived = GameConfig(structure=POT_LIMIT, big_blind=2)   # issue 22: omitted is derived
    assert (derived.small_blind, derived.big_blind) == (1, 2)
    with pytest.raises(ConfigError, match="T3"):
        GameConfig(structure=NO_LIMIT, small_blind=3, big_blind=2)


def test_b3_big_bet_defaults_to_twice_the_small_bet_and_units_follow_streets() -> None:
    config = GameConfig.fixed_limit(small_bet=10)
    assert config.big_bet == 20
    assert [config.bet_unit(street) for street in range(4)] == [10, 10, 20, 20]
    assert GameConfig.no_limit(small_blind=1, big_blind=2).bet_unit(3) == 2


def test_b3_cap_options() -> None:
    assert GameConfig.fixed_limit(small_bet=10).max_raises == 4
    assert not GameConfig.fixed_limit(small_bet=10).uncapped_heads_up
    assert GameConfig.fixed_limit(small_bet=10, max_raises=None).max_raises is None
    with pytest.raises(ConfigError, match="B3"):
        GameConfig.fixed_limit(small_bet=10, max_raises=0)


@pytest.mark.parametrize("bad", [
    {"small_blind": 1.5, "big_blind": 2},
    {"small_blind": True, "big_blind": 2},
    {"small_blind": 1, "big_blind": 2, "ante": -1},
    {"small_blind": 1, "big_blind": 2, "small_bet": 4},
    {"small_blind": 1, "big_blind": 2, "blind_unit": 0},
])
def test_bad_values_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        GameConfig(structure=NO_LIMIT, **bad)  # type: ignore[arg-type]


def test_config_is_frozen_and_keyword_only() -> None:
    config = GameConfig.pot_limit(small_blind=1, big_blind=2)
    with pytest.raises(AttributeError):
        config.big_blind = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        GameConfig(OMAHA_HIGH)  # type: ignore[misc]


def test_c6_variants_are_configurations() -> None:
    assert OMAHA_HIGH.hole_cards == 4 and not OMAHA_HIGH.hi_lo
    assert OMAHA_HILO.hi_lo
    assert SIX_CARD_OMAHA.hole_cards == 6 and SIX_CARD_OMAHA.max_players == 7
    assert HOLDEM.hand_rule == "holdem" and HOLDEM.hole_cards == 2 and HOLDEM.max_players == 10
    assert OMAHA_HIGH.max_players == 10
    with pytest.raises(ConfigError, match="C6"):
        Variant(name="Omaha 3", hole_cards=3)
    with pytest.raises(ConfigError, match="C6"):
        Variant(name="Big Hold'em", hole_cards=4, hand_rule="holdem")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("structure", [FIXED_LIMIT, POT_LIMIT, NO_LIMIT])
def test_round_trip_through_dict(variant: Variant, structure: object) -> None:
    if structure is FIXED_LIMIT:
        config = GameConfig.fixed_limit(small_bet=10, variant=variant, ante=1, big_blind_ante=2)
    else:
        config = GameConfig(structure=structure, small_blind=1, big_blind=2,  # type: ignore[arg-type]
                            variant=variant, uncapped_heads_up=True)
    assert GameConfig.from_dict(config.to_dict()) == config
    assert eval(repr(config)) == config  # the repr pastes back
    assert Structure.POT_LIMIT.value == "pot-limit"


def test_from_dict_refuses_garbage() -> None:
    with pytest.raises(ConfigError):
        GameConfig.from_dict({"variant": {}, "structure": "pot-limit"})
    with pytest.raises(ConfigError):
        GameConfig.from_dict({"structure": "nope"})
