"""Variant short names and PHH codes in GameConfig and the CLI (rule C6), and pasteable reprs."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

import omaha.config as config_module
from omaha.cli import main
from omaha.config import (
    FIVE_CARD_OMAHA,
    FIVE_CARD_OMAHA_HILO,
    FIXED_LIMIT,
    HOLDEM,
    NO_LIMIT,
    OMAHA_HIGH,
    OMAHA_HILO,
    POT_LIMIT,
    SIX_CARD_OMAHA,
    SIX_CARD_OMAHA_HILO,
    STUD_VARIANTS,
    VARIANT_NAMES,
    VARIANTS,
    GameConfig,
    Structure,
    Variant,
    parse_variant,
)
from omaha.errors import ConfigError
from omaha.phh import VARIANTS as PHH_VARIANTS
from omaha.phh import HistoryError, variant_for_name

# name -> (variant, structure the name says or None)
EXPECTED = {
    "plo": (OMAHA_HIGH, POT_LIMIT),
    "PLO8": (OMAHA_HILO, POT_LIMIT),
    "plo/8": (OMAHA_HILO, POT_LIMIT),
    "PLO-Hi/Lo": (OMAHA_HILO, POT_LIMIT),
    "flo8": (OMAHA_HILO, FIXED_LIMIT),
    "lo8": (OMAHA_HILO, FIXED_LIMIT),
    "nlo": (OMAHA_HIGH, NO_LIMIT),
    "plo5": (FIVE_CARD_OMAHA, POT_LIMIT),
    "5plo": (FIVE_CARD_OMAHA, POT_LIMIT),
    "5-PLO-8": (FIVE_CARD_OMAHA_HILO, POT_LIMIT),
    "plo6": (SIX_CARD_OMAHA, POT_LIMIT),
    "nlo6-8": (SIX_CARD_OMAHA_HILO, NO_LIMIT),
    "holdem": (HOLDEM, None),
    "Texas Hold'em": (HOLDEM, None),
    "nlhe": (HOLDEM, NO_LIMIT),
    "NLH": (HOLDEM, NO_LIMIT),
    "flhe": (HOLDEM, FIXED_LIMIT),
    "PO": (OMAHA_HIGH, POT_LIMIT),
    "po/8": (OMAHA_HILO, POT_LIMIT),
    "PO/8": (OMAHA_HILO, POT_LIMIT),
    "FO/8": (OMAHA_HILO, FIXED_LIMIT),
    "NO": (OMAHA_HIGH, NO_LIMIT),
    "FO": (OMAHA_HIGH, FIXED_LIMIT),
    "P5O/8": (FIVE_CARD_OMAHA_HILO, POT_LIMIT),
    "n6o": (SIX_CARD_OMAHA, NO_LIMIT),
    "NT": (HOLDEM, NO_LIMIT),
    "FT": (HOLDEM, FIXED_LIMIT),
    "omaha": (OMAHA_HIGH, None),
    "Omaha8": (OMAHA_HILO, None),
    "o8": (OMAHA_HILO, None),
    "5-card omaha hi/lo": (FIVE_CARD_OMAHA_HILO, None),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_c6_short_names_and_phh_codes(name):
    variant, structure = EXPECTED[name]
    meaning = parse_variant(name)
    assert meaning.variant == variant and meaning.structure is structure


@pytest.mark.parametrize("variant", VARIANTS)
def test_c6_every_variant_has_its_own_name_and_objects_mean_themselves(variant):
    assert parse_variant(variant.name).variant is variant
    assert parse_variant(variant).variant is variant
    assert parse_variant(variant).structure is None


@pytest.mark.parametrize("name", ["stud9", "plo7", "", "o", "plo88", "x" * 1000])
def test_c6_unknown_names_are_refused_with_the_accepted_list(name):
    with pytest.raises(ConfigError, match="unknown variant .*accepted .*plo8.*PO/8.*FO/8"):
        parse_variant(name)
    with pytest.raises(ConfigError, match="unknown variant"):
        GameConfig.pot_limit(small_blind=1, big_blind=2, variant=name)


@pytest.mark.parametrize("value", [None, True, 4, b"plo", ["plo"]])
def test_c6_non_string_variants_are_refused(value):
    with pytest.raises(ConfigError, match="unknown variant"):
        GameConfig(big_blind=2, variant=value)


def test_c6_every_phh_code_is_in_the_one_table_and_agrees_with_phh():
    for code, game in PHH_VARIANTS.items():
        meaning = parse_variant(code)
        assert (meaning.variant.hole_cards, meaning.variant.hi_lo, meaning.variant.hand_rule) == (
            game.hole_cards, game.hilo, game.game)
        assert meaning.structure.value.split("-")[0] == game.structure
        assert variant_for_name(code.lower()) is game


def test_c6_constructors_take_names():
    assert GameConfig.pot_limit(small_blind=1, big_blind=2, variant="plo8").variant is OMAHA_HILO
    assert GameConfig.fixed_limit(small_bet=2, variant="FO/8").variant is OMAHA_HILO
    assert GameConfig.no_limit(small_blind=1, big_blind=2, variant="nlhe").variant is HOLDEM
    assert GameConfig.no_limit(small_blind=1, big_blind=2, variant="holdem").variant is HOLDEM
    assert GameConfig.fixed_limit(small_bet=2, variant="omaha8").variant is OMAHA_HILO
    assert GameConfig(big_blind=2, variant="po").variant is OMAHA_HIGH
    named = GameConfig.pot_limit(small_blind=1, big_blind=2, variant="plo5")
    assert named == GameConfig.pot_limit(small_blind=1, big_blind=2, variant=FIVE_CARD_OMAHA)


@pytest.mark.parametrize(
    ("maker", "name"),
    [("fixed_limit", "plo8"), ("pot_limit", "FO/8"), ("no_limit", "plo"), ("pot_limit", "nlhe")],
)
def test_c6_a_name_that_says_a_structure_must_agree_with_the_game(maker, name):
    stakes = {"small_bet": 2} if maker == "fixed_limit" else {"small_blind": 1, "big_blind": 2}
    with pytest.raises(ConfigError, match=f"variant '{name}' is .*but the game is"):
        getattr(GameConfig, maker)(variant=name, **stakes)


def test_c6_named_picks_the_structure_the_name_says_or_its_usual_one():
    assert GameConfig.named("flo8", small_bet=2).structure is FIXED_LIMIT
    assert GameConfig.named("PO/8", small_blind=1, big_blind=2).structure is POT_LIMIT
    assert GameConfig.named("holdem", small_blind=1, big_blind=2).structure is NO_LIMIT
    assert GameConfig.named("omaha8", small_bet=2).structure is FIXED_LIMIT
    assert GameConfig.named("omaha", small_blind=1, big_blind=2).structure is POT_LIMIT
    game = GameConfig.named("omaha8", structure=POT_LIMIT, small_blind=1, big_blind=2)
    assert (game.variant, game.structure) == (OMAHA_HILO, POT_LIMIT)


def test_c6_the_table_keys_are_normalised():
    for key, meaning in VARIANT_NAMES.items():
        assert key == key.lower() and not set(key) & set(" -_/'")
        assert meaning.variant in VARIANTS + STUD_VARIANTS


# ---------------------------------------------------------------- the CLI reads the same table


@pytest.mark.parametrize("name", ["plo8", "PO/8", "FO/8", "5plo", "nlhe", "holdem", "omaha8"])
def test_c6_cli_accepts_the_api_names(name, capsys):
    code = main(["play", "--variant", name, "--hands", "2", "--players", "2", "--seed", "1",
                 "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    meaning = parse_variant(name)
    assert meaning.variant.name in out.out or variant_for_name(name).code in out.out


def test_c6_cli_refuses_unknown_names_with_the_accepted_list(capsys):
    assert main(["play", "--variant", "stud9", "--hands", "1"]) != 0
    assert "plo8" in capsys.readouterr().err
    with pytest.raises(HistoryError, match="accepted"):
        variant_for_name("stud9")


# ---------------------------------------------------------------- reprs paste back, equality

NAMESPACE = {name: getattr(config_module, name) for name in config_module.__all__}


@pytest.mark.parametrize(
    "value",
    [
        *VARIANTS,
        *Structure,
        GameConfig.pot_limit(small_blind=1, big_blind=2, variant="plo8"),
        GameConfig.fixed_limit(small_bet=10, big_bet=20, blind_unit=5, max_raises=None),
        GameConfig.no_limit(small_blind=0, big_blind=100, ante=10, big_blind_ante=5,
                            variant=HOLDEM),
        GameConfig.fixed_limit(small_bet=2, variant=SIX_CARD_OMAHA_HILO, uncapped_heads_up=True),
        Variant(name="my game", hole_cards=5),
    ],
    ids=repr,
)
def test_reprs_paste_back_equal_and_hash_equal(value):
    again = eval(repr(value), NAMESPACE)
    assert again == value and hash(again) == hash(value)
    assert pickle.loads(pickle.dumps(value)) == value


def test_configs_compare_by_value():
    game = GameConfig.pot_limit(small_blind=1, big_blind=2)
    assert game == GameConfig(structure=POT_LIMIT, small_blind=1, big_blind=2)
    assert game != GameConfig.pot_limit(small_blind=1, big_blind=3)
    assert game != GameConfig.pot_limit(small_blind=1, big_blind=2, variant="plo8")
    assert dataclasses.replace(game, variant="PO/8").variant is OMAHA_HILO
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.ante = 5  # type: ignore[misc]
    assert GameConfig.from_dict(game.to_dict()) == game


def test_phh_variants_and_histories_paste_back():
    import pathlib

    from omaha import phh

    data = pathlib.Path(__file__).parent / "data"
    import datetime

    namespace = {name: getattr(phh, name) for name in phh.__all__}
    namespace["datetime"] = datetime   # a history's `time` field is a datetime.time
    for variant in phh.VARIANTS.values():
        assert eval(repr(variant), namespace) == variant
    for history in phh.load_all(data / "pokerkit_mixed.phhs"):
        assert eval(repr(history), namespace) == history
    # decimals and inf stacks (issue 22) paste back too
    for history in phh.load_all(data / "corpus" / "handhq_ipoker_excerpt.phhs"):
        assert eval(repr(history), namespace) == history
    decimal = phh.load(data / "corpus" / "pluribus_88_128.phh")
    assert decimal.decimals == 1 and eval(repr(decimal), namespace) == decimal


def test_c6_from_dict_takes_a_variant_name_and_checks_it():
    data = GameConfig.pot_limit(small_blind=1, big_blind=2).to_dict()
    assert GameConfig.from_dict({**data, "variant": "plo8"}).variant is OMAHA_HILO
    with pytest.raises(ConfigError, match="unknown variant"):
        GameConfig.from_dict({**data, "variant": "stud9"})
    with pytest.raises(ConfigError, match="E1: Seven-Card Stud is a stud game"):
        GameConfig.from_dict({**data, "variant": "stud"})
    with pytest.raises(ConfigError, match="is fixed-limit but the game is pot-limit"):
        GameConfig.from_dict({**data, "variant": "FO/8"})
