"""Tournament structures (N1) and payout tables (N8): omaha.tournament.structure.

Levels and their lookup by hands and by time (N1), payout tables by shares or amounts with the
rounding remainder to first place (N8), the default table paying about the top 15% (N8), TOML
files that round-trip, and a typed error naming the field for every bad input.
"""

from __future__ import annotations

import itertools
import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omaha.config import FIXED_LIMIT, NO_LIMIT, OMAHA_HILO, POT_LIMIT
from omaha.errors import LimitError, OmahaTypeError, TournamentError, TournamentTypeError
from omaha.tournament import DEFAULT_STRUCTURE, Level, Payouts, Structure, default_payouts

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "tournaments"

TURBO = """
name = "Turbo"
starting_stack = 1500
seats = 9
variant = "plo"
limit = "pot-limit"
buy_in = 100
payouts = { shares = [500, 300, 200] }

[[levels]]
small_blind = 10
big_blind = 20
hands = 10

[[levels]]
small_blind = 15
big_blind = 30
hands = 10

[[levels]]
small_blind = 25
big_blind = 50
big_blind_ante = 50
hands = 10
"""


def simple(**options):
    options.setdefault("levels", (Level(10, 20, hands=10), Level(20, 40, hands=10)))
    options.setdefault("starting_stack", 1000)
    return Structure(**options)


def refused(match, call, *args, error=TournamentError, **kwargs):
    with pytest.raises(error, match=match) as info:
        call(*args, **kwargs)
    return info.value


# ---- levels (N1) ---------------------------------------------------------------------------

def test_n1_level_fields_and_defaults():
    level = Level(25, 50, ante=5, hands=8)
    assert (level.small_blind, level.big_blind, level.ante, level.big_blind_ante,
            level.hands, level.seconds, level.is_break) == (25, 50, 5, 0, 8, None, False)
    assert level.length == 8 and Level(1, 2, seconds=60).length == 60
    assert Level(0, 0, hands=3, is_break=True).is_break
    assert Level(0, 10, hands=1).small_blind == 0   # a single blind (T3's reading)


@pytest.mark.parametrize(("fields", "match"), [
    ({"small_blind": 10, "big_blind": 20}, "exactly one of hands and seconds"),
    ({"small_blind": 10, "big_blind": 20, "hands": 5, "seconds": 60}, "exactly one"),
    ({"small_blind": 10, "big_blind": 20, "hands": 0}, "hands must be at least 1"),
    ({"small_blind": 10, "big_blind": 20, "seconds": -5}, "seconds must be at least 1"),
    ({"small_blind": 10, "big_blind": 0, "hands": 5}, "big_blind: must be at least 1"),
    ({"small_blind": 30, "big_blind": 20, "hands": 5}, "small_blind: 30 is above the big blind"),
    ({"small_blind": -1, "big_blind": 20, "hands": 5}, "small_blind must be at least 0"),
    ({"small_blind": 10, "big_blind": 20, "ante": 2, "big_blind_ante": 20, "hands": 5},
     "big_blind_ante: a level has an ante or a big-blind ante, not both"),
    ({"small_blind": 10, "big_blind": 20, "hands": 5, "is_break": True}, "small_blind: a break"),
    ({"small_blind": 10, "big_blind": 20, "hands": 5, "is_break": 1}, "is_break: must be true"),
])
def test_n1_bad_levels_are_refused_naming_the_field(fields, match):
    err = refused(match, Level, **fields)
    assert err.rule == "N1" and str(err).startswith("N1: ")


@pytest.mark.parametrize("value", [True, 1.0, "10", None, 2.5])
def test_n1_level_amounts_must_be_ints_bool_and_float_refused(value):
    err = refused("big_blind must be an integer", Level, 10, value, hands=5,
                  error=TournamentTypeError)
    assert isinstance(err, TypeError) and isinstance(err, OmahaTypeError)
    refused("hands must be an integer", Level, 10, 20, hands=value if value is not None else 1.5,
            error=TournamentTypeError)


def test_n1_level_amount_above_max_chips_is_refused():
    refused("MAX_CHIPS", Level, 1, 2**63, hands=5)


def test_n1_level_for_hand_counts_lengths_and_the_last_level_repeats():
    s = Structure(levels=(Level(1, 2, hands=3), Level(2, 4, hands=2), Level(5, 10, hands=1)),
                  starting_stack=100)
    got = [s.level_for_hand(n)[0] for n in range(10)]
    assert got == [0, 0, 0, 1, 1, 2, 2, 2, 2, 2]
    assert s.level_for_hand(10**12) == (2, s.levels[2])


def test_n1_level_for_hand_skips_breaks():
    s = Structure(levels=(Level(1, 2, hands=2), Level(0, 0, hands=50, is_break=True),
                          Level(2, 4, hands=2)), starting_stack=100)
    assert [s.level_for_hand(n)[0] for n in range(5)] == [0, 0, 2, 2, 2]


@given(st.lists(st.integers(1, 20), min_size=1, max_size=8), st.integers(0, 500))
def test_n1_level_for_hand_matches_a_list_of_every_hand(lengths, played):
    levels = tuple(Level(k + 1, 2 * (k + 1), hands=n) for k, n in enumerate(lengths))
    s = Structure(levels=levels, starting_stack=10**6)
    schedule = [k for k, n in enumerate(lengths) for _ in range(n)]
    expected = schedule[played] if played < len(schedule) else len(lengths) - 1
    assert s.level_for_hand(played) == (expected, levels[expected])


def test_n1_level_for_time_includes_breaks_and_the_last_level_repeats():
    s = Structure(levels=(Level(1, 2, seconds=600), Level(0, 0, seconds=300, is_break=True),
                          Level(2, 4, seconds=600)), starting_stack=100)
    assert [s.level_for_time(t)[0] for t in (0, 599.999, 600, 899, 900, 1499, 1500, 1e9)] == [
        0, 0, 1, 1, 2, 2, 2, 2]
    assert s.counted_in == "seconds"


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), True, "5"])
def test_n1_level_for_time_refuses_bad_times(bad):
    s = Structure(levels=(Level(1, 2, seconds=60),), starting_stack=100)
    refused("seconds", s.level_for_time, bad)


def test_n1_lookup_by_the_wrong_unit_is_refused():
    by_hands = simple()
    by_time = Structure(levels=(Level(1, 2, seconds=60),), starting_stack=100)
    refused("use level_for_time", by_time.level_for_hand, 0)
    refused("use level_for_hand", by_hands.level_for_time, 0)
    refused("hands_played must be at least 0", by_hands.level_for_hand, -1)
    refused("hands_played must be an integer", by_hands.level_for_hand, 1.0,
            error=TournamentTypeError)


# ---- the structure (N1) --------------------------------------------------------------------

def test_n1_structure_defaults():
    s = simple()
    assert (s.seats, s.variant, s.limit, s.buy_in, s.payouts, s.break_order, s.name) == (
        9, "plo", "pot-limit", 100, None, "highest", None)
    assert s.counted_in == "hands"
    assert isinstance(s.levels, tuple)
    assert simple(levels=[Level(1, 2, hands=1)]).levels == (Level(1, 2, hands=1),)


@pytest.mark.parametrize(("variant", "limit"), [
    ("plo", "pot-limit"), ("omaha8", "fixed-limit"), ("flo8", "fixed-limit"),
    ("holdem", "no-limit"), ("nlo", "no-limit"), ("omaha", "pot-limit")])
def test_n1_limit_defaults_to_the_variants(variant, limit):
    assert simple(variant=variant).limit == limit


def test_n1_game_config_per_limit():
    fl = simple(variant="omaha8", levels=(Level(10, 20, ante=3, hands=5),))
    config = fl.game_config(fl.levels[0])
    assert config.structure is FIXED_LIMIT and config.variant == OMAHA_HILO
    assert (config.small_blind, config.big_blind, config.small_bet, config.big_bet,
            config.ante) == (10, 20, 20, 40, 3)
    pl = simple(levels=(Level(25, 50, big_blind_ante=50, hands=5),))
    config = pl.game_config(pl.levels[0])
    assert config.structure is POT_LIMIT
    assert (config.small_blind, config.big_blind, config.big_blind_ante) == (25, 50, 50)
    nl = simple(variant="omaha", limit="no-limit")
    assert nl.game_config(nl.levels[1]).structure is NO_LIMIT
    single = simple(levels=(Level(0, 20, hands=5),))
    assert single.game_config(single.levels[0]).small_blind == 0
    brk = Level(0, 0, hands=1, is_break=True)
    refused("a break plays no hands", pl.game_config, brk)


@pytest.mark.parametrize(("options", "match", "rule"), [
    ({"seats": 1}, "seats: 1 is outside 2-10", "T1"),
    ({"seats": 11}, "seats: 11 is outside 2-10", "T1"),
    ({"seats": 8, "variant": "plo6"}, "seats: 8 is more than", "C1"),
    ({"starting_stack": 0}, "starting_stack must be at least 1", "N1"),
    ({"variant": "stud9"}, "variant: unknown variant", "C6"),
    ({"variant": 4}, "variant: must be a variant's name", "C6"),
    ({"limit": "spread-limit"}, "limit: must be one of", "B3"),
    ({"variant": "plo", "limit": "no-limit"}, "limit: no-limit disagrees with variant", "B3"),
    ({"buy_in": -1}, "buy_in must be at least 0", "N8"),
    ({"break_order": "random"}, "break_order: must be", "N5"),
    ({"payouts": {"shares": [1000]}}, "payouts: must be a Payouts", "N8"),
    ({"levels": ()}, "levels: must list 1 to", "N1"),
    ({"levels": "10/20"}, "levels: must be a list", "N1"),
    ({"levels": ({"small_blind": 1},)}, r"levels\[0\]: must be a Level", "N1"),
    ({"levels": (Level(10, 20, hands=5), Level(5, 10, hands=5))},
     r"levels\[1\]\.big_blind: 10 is below the previous level's 20", "N1"),
    ({"levels": (Level(10, 20, hands=5), Level(0, 0, hands=1, is_break=True),
                 Level(5, 10, hands=5))},
     r"levels\[2\]\.big_blind: 10 is below the previous level's 20 \(levels\[0\]\)", "N1"),
    ({"levels": (Level(10, 20, hands=5), Level(20, 40, seconds=60))},
     r"levels\[1\]\.seconds: levels\[0\] is counted in hands", "N1"),
    ({"levels": (Level(0, 0, hands=5, is_break=True), Level(20, 40, hands=5))},
     r"levels\[0\]\.is_break: a tournament does not start with a break", "N1"),
    ({"levels": (Level(10, 20, hands=5), Level(0, 0, hands=5, is_break=True))},
     r"levels\[1\]\.is_break: the last level repeats", "N1"),
])
def test_n1_bad_structures_are_refused_naming_the_field(options, match, rule):
    err = refused(match, simple, **options)
    assert err.rule == rule


def test_n1_seats_of_the_wrong_type_are_a_type_error():
    refused("seats must be an integer", simple, seats=True, error=TournamentTypeError)
    refused("starting_stack must be an integer", simple, starting_stack=1.5,
            error=TournamentTypeError)


def test_n1_a_level_whose_game_cannot_be_made_is_refused():
    # A fixed-limit big blind of 2**62 makes a big bet of 2**63: above MAX_CHIPS.
    with pytest.raises((TournamentError, LimitError)):
        simple(variant="flo", levels=(Level(1, 2**62, hands=1),))


def test_n1_equal_blinds_may_repeat_and_small_blinds_are_free():
    s = simple(levels=(Level(10, 20, hands=1), Level(10, 20, seconds=None, hands=2),
                       Level(5, 20, ante=1, hands=3)))
    assert len(s.levels) == 3


# ---- payouts (N8) --------------------------------------------------------------------------

def test_n8_shares_round_down_and_the_remainder_goes_to_first_place():
    payouts = Payouts(shares=(500, 300, 200))
    assert payouts.prizes(1000) == (500, 300, 200)
    assert payouts.prizes(999) == (501, 299, 199)   # 499.5, 299.7, 199.8 -> 1 left over
    assert payouts.prizes(0) == (0, 0, 0)
    assert payouts.places == 3


def test_n8_amounts_are_the_pool():
    payouts = Payouts(amounts=[700, 200, 100])
    assert payouts.amounts == (700, 200, 100) and payouts.places == 3
    assert payouts.prizes(1000) == (700, 200, 100)
    refused("pool: 999 is not the 1000", payouts.prizes, 999)


@given(st.lists(st.integers(1, 1000), min_size=1, max_size=30), st.integers(0, 2**62))
def test_n8_prizes_sum_to_the_pool_exactly_and_never_rise(weights, pool):
    # Any non-increasing per-mille table: scale the weights to 1000, remainder to first.
    weights.sort(reverse=True)
    weights = weights[:1000]
    shares = [max(1, 1000 * w // sum(weights)) for w in weights]
    while sum(shares) > 1000:
        shares.pop()
    shares[0] += 1000 - sum(shares)
    payouts = Payouts(shares=shares)
    prizes = payouts.prizes(pool)
    assert sum(prizes) == pool
    assert all(a >= b for a, b in itertools.pairwise(prizes))
    assert prizes[1:] == tuple(pool * s // 1000 for s in shares[1:])   # remainder only to first
    assert 0 <= prizes[0] - pool * shares[0] // 1000 < len(shares)


@pytest.mark.parametrize(("fields", "match"), [
    ({}, "payouts: give exactly one of shares"),
    ({"shares": [1000], "amounts": [10]}, "payouts: give exactly one"),
    ({"shares": [500, 300, 190]}, r"payouts\.shares: sum to 990, not 1000"),
    ({"shares": [500, 300, 210]}, r"payouts\.shares: sum to 1010, not 1000"),
    ({"shares": [300, 500, 200]}, r"payouts\.shares\[1\]: 500 is above place 1's 300"),
    ({"shares": [1000, 0]}, r"payouts\.shares\[1\] must be at least 1"),
    ({"shares": []}, r"payouts\.shares: must pay 1 to 1000 places, got 0"),
    ({"shares": [1] * 1001}, r"payouts\.shares: must pay 1 to 1000 places"),
    ({"shares": "500,500"}, r"payouts\.shares: must be a list"),
    ({"amounts": [100, -5]}, r"payouts\.amounts\[1\] must be at least 1"),
    ({"amounts": [50, 100]}, r"payouts\.amounts\[1\]: 100 is above place 1's 50"),
    ({"amounts": [2**62, 2**62]}, r"payouts\.amounts: sum to .*MAX_CHIPS"),
])
def test_n8_bad_payouts_are_refused_naming_the_field(fields, match):
    assert refused(match, Payouts, **fields).rule == "N8"


@pytest.mark.parametrize("value", [True, 500.0, "500"])
def test_n8_payout_values_must_be_ints(value):
    refused(r"payouts\.shares\[0\] must be an integer", Payouts, shares=[value, 500],
            error=TournamentTypeError)


@pytest.mark.parametrize(("entrants", "places"), [
    (2, 1), (3, 1), (6, 1), (7, 2), (9, 2), (13, 2), (14, 3), (20, 3), (100, 15), (101, 16),
    (1000, 150), (2000, 300), (10_000, 300)])
def test_n8_default_payouts_pay_about_the_top_15_percent(entrants, places):
    assert default_payouts(entrants).places == places


@given(st.integers(2, 20_000))
@settings(max_examples=200)
def test_n8_default_payouts_properties(entrants):
    shares = default_payouts(entrants).shares
    assert shares is not None
    assert sum(shares) == 1000
    assert all(a >= b for a, b in itertools.pairwise(shares))
    assert shares[-1] >= 1
    assert len(shares) == min(300, max(1, -(-entrants * 15 // 100)))
    if len(shares) > 1:
        assert shares[0] > shares[1]   # the winner always gets more


def test_n8_default_payouts_refuse_fewer_than_two_entrants():
    refused("entrants must be at least 2", default_payouts, 1)
    refused("entrants must be an integer", default_payouts, True, error=TournamentTypeError)


def test_n8_prize_table_pool_is_entrants_times_buy_in():
    s = simple(payouts=Payouts(shares=(500, 300, 200)), buy_in=55)
    assert s.prize_pool(9) == 495
    assert s.prize_table(9) == (248, 148, 99)
    assert sum(s.prize_table(9)) == 495
    default = simple()
    assert default.payouts_for(100) == default_payouts(100)
    assert sum(default.prize_table(1000)) == 100_000 and len(default.prize_table(1000)) == 150
    fixed = simple(payouts=Payouts(amounts=(300, 100)), buy_in=0)
    assert fixed.prize_pool(50) == 400 and fixed.prize_table(50) == (300, 100)


def test_n8_prize_table_refuses_fields_too_small():
    s = simple(payouts=Payouts(shares=(500, 300, 200)))
    refused("payouts: pay 3 places but there are only 2 entrants", s.prize_table, 2)
    refused("entrants must be at least 2", s.prize_table, 1)
    refused("entrants must be at least 2", s.prize_pool, 0)


# ---- files and data (N1, N8) ---------------------------------------------------------------

def test_n1_toml_loads_and_round_trips():
    s = Structure.loads(TURBO)
    assert s.name == "Turbo" and s.starting_stack == 1500 and len(s.levels) == 3
    assert s.levels[2] == Level(25, 50, big_blind_ante=50, hands=10)
    assert s.payouts == Payouts(shares=(500, 300, 200))
    assert Structure.loads(s.dumps()) == s
    assert Structure.from_dict(s.to_dict()) == s


structures = st.builds(
    lambda lengths, unit, stack, seats, variant, buy_in, shares, order, name: Structure(
        levels=tuple(Level(k, 2 * k + 2, ante=k % 3, **{unit: n})
                     for k, n in enumerate(lengths)),
        starting_stack=stack, seats=seats, variant=variant, buy_in=buy_in,
        payouts=None if shares is None else Payouts(shares=shares), break_order=order,
        name=name),
    st.lists(st.integers(1, 100), min_size=1, max_size=6), st.sampled_from(["hands", "seconds"]),
    st.integers(1, 10**9), st.integers(2, 8), st.sampled_from(["plo", "omaha8", "nlo5", "plo8"]),
    st.integers(0, 10**6), st.sampled_from([None, (1000,), (600, 400), (500, 300, 200)]),
    st.sampled_from(["highest", "lowest"]), st.one_of(st.none(), st.text(max_size=20)))


@given(structures)
@settings(max_examples=60)
def test_n1_any_structure_round_trips_through_toml_and_dicts(structure):
    assert Structure.loads(structure.dumps()) == structure
    assert Structure.from_dict(structure.to_dict()) == structure


def test_n1_a_break_may_leave_out_its_blinds_in_toml():
    text = TURBO.replace("[[levels]]\nsmall_blind = 15\nbig_blind = 30\nhands = 10",
                         "[[levels]]\nis_break = true\nhands = 10")
    s = Structure.loads(text)
    assert s.levels[1] == Level(0, 0, hands=10, is_break=True)


@pytest.mark.parametrize(("old", "new", "match"), [
    ("big_blind = 30", "big_blind = 15", r"levels\[1\]\.big_blind: 15 is below the previous"),
    ("big_blind = 30", "big_blind = 30.0", r"levels\[1\]\.big_blind must be an integer"),
    ("big_blind = 30", "big_blind = true", r"levels\[1\]\.big_blind must be an integer"),
    ("big_blind = 30", "big_blind = -30", r"levels\[1\]\.big_blind must be at least 0"),
    ("big_blind = 30", "big_bind = 30", r"levels\[1\]\.big_bind: unknown field"),
    ("small_blind = 15\nbig_blind = 30\n", "small_blind = 15\n", r"levels\[1\]\.big_blind: missing"),
    ("hands = 10\n\n[[levels]]\nsmall_blind = 25", "seconds = 60\n\n[[levels]]\nsmall_blind = 25",
     r"levels\[1\]\.seconds: levels\[0\] is counted in hands"),
    ("seats = 9", "seats = 11", "seats: 11 is outside 2-10"),
    ("seats = 9", "seats = 1", "seats: 1 is outside 2-10"),
    ("seats = 9", "sits = 9", "sits: unknown field"),
    ("starting_stack = 1500", "starting_stack = 1500.5", "starting_stack must be an integer"),
    ("starting_stack = 1500", "starting_stack = -1500", "starting_stack must be at least 1"),
    ("starting_stack = 1500\n", "", "starting_stack: missing"),
    ("[500, 300, 200]", "[500, 300, 190]", r"payouts\.shares: sum to 990, not 1000"),
    ("[500, 300, 200]", "[500, 300, 200.0]", r"payouts\.shares\[2\] must be an integer"),
    ("{ shares = [500, 300, 200] }", "{ share = [1000] }", r"payouts\.share: unknown field"),
    ("{ shares = [500, 300, 200] }", "[1000]", "payouts: must be a table"),
    ("{ shares = [500, 300, 200] }", "{ amounts = [100, 200] }",
     r"payouts\.amounts\[1\]: 200 is above place 1's 100"),
    ('variant = "plo"', 'variant = "razz9"', "variant: unknown variant"),
    ('limit = "pot-limit"', 'limit = "no-limit"', "limit: no-limit disagrees"),
    ("buy_in = 100", "buy_in = -5", "buy_in must be at least 0"),
])
def test_n1_n8_every_bad_toml_field_is_named(old, new, match):
    assert old in TURBO
    refused(match, Structure.loads, TURBO.replace(old, new, 1))


def test_n1_no_levels_in_toml():
    text = TURBO.split("[[levels]]")[0]
    refused("levels: missing", Structure.loads, text)
    refused("levels: must be a list", Structure.loads, text + "levels = 3\n")
    refused("levels: must list 1 to", Structure.loads, text + "levels = []\n")
    refused(r"levels\[0\]: must be a table", Structure.loads, text + "levels = [3]\n")


def test_n1_text_that_is_not_toml_names_the_source_and_line(tmp_path):
    err = refused(r"<text>: not TOML: .*line 2", Structure.loads, "seats = 9\nseats = = 3\n")
    assert err.rule is None
    path = tmp_path / "broken.toml"
    path.write_text("name = 'x'\n[[levels]\n", encoding="utf-8")
    refused(rf"{path}: not TOML: .*line 2", Structure.load, path)
    refused("a structure file is text", Structure.loads, b"seats = 9")
    refused("longer than", Structure.loads, "#" * (2**20 + 1))


def test_n1_a_missing_or_unreadable_file_names_the_path(tmp_path):
    missing = tmp_path / "nope.toml"
    refused(rf"{missing}: cannot read the structure file: No such file", Structure.load, missing)
    refused(rf"{tmp_path}: cannot read", Structure.load, tmp_path)   # a directory
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    refused(rf"{binary}: cannot read", Structure.load, str(binary))


def test_n1_load_reads_a_file(tmp_path):
    path = tmp_path / "turbo.toml"
    path.write_text(TURBO, encoding="utf-8")
    assert Structure.load(path) == Structure.load(str(path)) == Structure.loads(TURBO)


# ---- the shipped structures ----------------------------------------------------------------

def test_n1_the_shipped_default_toml_is_the_default_structure():
    assert Structure.load(EXAMPLES / "default.toml") == DEFAULT_STRUCTURE
    assert DEFAULT_STRUCTURE.payouts is None and DEFAULT_STRUCTURE.seats == 9


def test_n1_n8_the_shipped_turbo_sit_and_go():
    s = Structure.load(EXAMPLES / "turbo-sng.toml")
    assert s.seats == 9 and s.counted_in == "hands" and s.payouts is not None
    assert s.payouts.places == 3
    assert s.prize_table(9) == (450, 270, 180)


def test_n1_n8_the_shipped_1000_player_mtt():
    s = Structure.load(EXAMPLES / "mtt-1000.toml")
    assert s.seats == 9 and s.counted_in == "hands" and s.payouts is None
    assert len(s.levels) >= 20
    prizes = s.prize_table(1000)
    assert len(prizes) == 150 and sum(prizes) == 1000 * s.buy_in


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_n1_every_shipped_structure_loads_and_round_trips(path):
    s = Structure.load(path)
    assert Structure.loads(s.dumps()) == s


@pytest.mark.parametrize("entrants", [2001, 2_500, 10_000, 100_000])
def test_n8_a_large_field_s_default_pays_its_top_15_percent_in_amounts(entrants):
    """Beyond the 300 places per-mille shares can pay well, the default pays ceil(15%) of
    the field in amounts: the whole pool, never rising, each place at least the buy-in."""
    structure = Structure(levels=(Level(10, 20, hands=5),), starting_stack=1000, seats=9,
                          buy_in=100)
    prizes = structure.prize_table(entrants)
    assert len(prizes) == -(-entrants * 15 // 100)
    assert sum(prizes) == structure.prize_pool(entrants) == entrants * 100
    assert all(a >= b for a, b in zip(prizes, prizes[1:]))
    assert prizes[-1] >= 100 and prizes[0] > 20 * prizes[-1]


def test_n8_the_default_without_a_pool_or_with_a_tiny_one_stays_in_capped_shares():
    from omaha.tournament.structure import default_payouts

    assert default_payouts(10_000).places == 300
    assert default_payouts(10_000, pool=100).places == 300   # under a chip per place
    assert default_payouts(10_000, pool=10**6).places == 1500
