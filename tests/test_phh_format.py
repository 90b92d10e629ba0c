"""Reading and writing PHH: fields, actions, TOML values, .phh and .phhs round trips."""

from __future__ import annotations

import datetime
import io
from decimal import Decimal

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser, packaged as tomli
    import tomli as tomllib
from hypothesis import given, settings
from hypothesis import strategies as st

from omaha.phh import (
    VARIANTS,
    BetOrRaiseTo,
    CheckOrCall,
    DealBoard,
    DealHole,
    Fold,
    HandHistory,
    NoOp,
    ShowOrMuck,
    dump,
    dump_all,
    dumps,
    dumps_all,
    format_action,
    format_phh_cards,
    load,
    load_all,
    loads,
    loads_all,
    parse_action,
    parse_phh_cards,
    read_histories,
    variant_for_code,
    variant_for_name,
)
from omaha.phh.io import format_value

PO_TEXT = """\
# A hand written by hand, with TOML comments, commentary and metadata.
variant = "PO"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 8000, 12000]
actions = [
  "d dh p1 AcAd2h3s",  # small blind
  "d dh p2 ????????",
  "d dh p3 KhQhJd9c",
  "p3 cbr 300 # opens",
  "p1 cc",
  "p2 f",
  "d db Jc3d5c",
  "p1 cc",
  "p3 cbr 600",
  "p1 cc",
  "d db 4h",
  "# a no-op with commentary",
  "",
  "p1 cc",
  "p3 cc",
  "d db 9s",
  "p1 cc",
  "p3 cc",
  "p1 sm AcAd2h3s",
  "p3 sm -",
]
author = "Someone"
event = "Test event"
time = 20:15:00
day = 3
month = 11
year = 2024
hand = 17
table = "Table A"
seats = [2, 5, 9]
seat_count = 9
players = ["Ann", "Bob", "Cy"]
finishing_stacks = [12000, 7900, 10100]
currency = "USD"
time_limit = 30.5
time_banks = [60, 60, 90]
_note = "user field"
_sponsors = ["", "X", ""]
"""


def test_reads_every_field_of_a_handwritten_po_hand():
    hh = loads(PO_TEXT)
    assert hh.variant == "PO" and hh.game.structure == "pot" and not hh.game.hilo
    assert hh.starting_stacks == (10000, 8000, 12000)
    assert hh.blinds_or_straddles == (50, 100, 0) and hh.min_bet == 100
    assert hh.small_bet is None and hh.big_bet is None
    assert hh.finishing_stacks == (12000, 7900, 10100)
    assert hh.metadata["time"] == datetime.time(20, 15)
    assert hh.metadata["time_limit"] == Decimal("30.5")
    assert hh.metadata["players"] == ("Ann", "Bob", "Cy")
    assert hh.user_fields == {"_note": "user field", "_sponsors": ["", "X", ""]}
    assert hh.parsed_actions[3] == BetOrRaiseTo(player=2, amount=300, commentary="opens")
    assert hh.parsed_actions[1] == DealHole(player=1, cards=(None,) * 4)
    assert hh.parsed_actions[11] == NoOp("a no-op with commentary")
    assert hh.parsed_actions[12] == NoOp()
    assert hh.parsed_actions[-1] == ShowOrMuck(player=2, dealt=True)


def test_round_trip_keeps_every_field_and_the_action_texts():
    hh = loads(PO_TEXT)
    text = dumps(hh)
    again = loads(text)
    assert again == hh
    assert again.actions == hh.actions  # commentary and spacing kept verbatim
    assert again.metadata == hh.metadata and again.user_fields == hh.user_fields
    assert dumps(again) == text  # the writer is a fixed point


def test_writer_puts_required_fields_first_and_one_action_a_line():
    lines = dumps(loads(PO_TEXT)).splitlines()
    assert [line.split(" = ")[0] for line in lines[:6]] == [
        "variant",
        "antes",
        "blinds_or_straddles",
        "min_bet",
        "starting_stacks",
        "actions",
    ]
    assert lines[6] == '  "d dh p1 AcAd2h3s",'
    assert "finishing_stacks = [12000, 7900, 10100]" in lines


def test_fixed_limit_hand_writes_small_and_big_bet():
    hh = HandHistory(
        variant="FO/8",
        antes=[0, 0],
        blinds_or_straddles=[1, 2],
        small_bet=2,
        big_bet=4,
        starting_stacks=[80, 90],
        actions=["d dh p1 AhKd2c3c", "d dh p2 ????????", "p2 f"],
    )
    data = tomllib.loads(dumps(hh))
    assert data["small_bet"] == 2 and data["big_bet"] == 4 and "min_bet" not in data
    assert loads(dumps(hh)) == hh


def test_whole_number_floats_read_as_integer_chips():
    text = PO_TEXT.replace("min_bet = 100", "min_bet = 100.0").replace(
        "starting_stacks = [10000,", "starting_stacks = [10000.00,"
    )
    hh = loads(text)
    assert hh.min_bet == 100 and type(hh.min_bet) is int
    assert hh.starting_stacks[0] == 10000 and type(hh.starting_stacks[0]) is int


def test_phhs_collection_round_trip_keeps_table_names(tmp_path):
    first = loads(PO_TEXT)
    second = HandHistory(
        variant="NO/8",
        antes=[1, 1, 1, 1],
        blinds_or_straddles=[5, 10, 0, 0],
        min_bet=10,
        starting_stacks=[500, 500, 500, 500],
    )
    named = {"hand 7": first, "8": second}
    assert loads_all(dumps_all(named)) == [first, second]
    assert [name for name, _ in read_histories(io.StringIO(dumps_all([first, second])))] == ["1", "2"]
    path = tmp_path / "hands.phhs"
    dump_all(named, path)
    assert load_all(path) == [first, second]
    assert read_histories(path) == [("hand 7", first), ("8", second)]


def test_single_file_helpers(tmp_path):
    hh = loads(PO_TEXT)
    path = tmp_path / "one.phh"
    dump(hh, path)
    assert load(path) == hh
    assert read_histories(path) == [(None, hh)]
    assert load_all(path) == [hh]


@given(st.sampled_from(sorted(VARIANTS)), st.integers(2, 10), st.data())
@settings(max_examples=60, deadline=None)
def test_random_histories_round_trip(code, players, data):
    game = variant_for_code(code)
    chips = st.integers(0, 10**12)
    bets = {name: data.draw(st.integers(1, 10**6)) for name in game.bet_fields}
    metadata = {
        "author": data.draw(st.text()),
        "hand": data.draw(st.one_of(st.integers(-(2**63), 2**63 - 1), st.text())),
        "seats": list(range(1, players + 1)),
        "time_limit": data.draw(st.decimals(min_value=0, max_value=10**9, places=3)),
    }
    user_value = data.draw(
        st.recursive(
            st.one_of(st.text(), st.integers(-(2**63), 2**63 - 1), st.booleans()),
            lambda inner: st.lists(inner, max_size=3),
            max_leaves=6,
        )
    )
    hh = HandHistory(
        variant=code,
        antes=data.draw(st.lists(chips, min_size=players, max_size=players)),
        blinds_or_straddles=data.draw(st.lists(chips, min_size=players, max_size=players)),
        starting_stacks=data.draw(
            st.lists(st.integers(1, 10**12), min_size=players, max_size=players)
        ),
        actions=[format_action(a) for a in data.draw(st.lists(_actions(players), max_size=8))],
        finishing_stacks=data.draw(st.none() | st.lists(chips, min_size=players, max_size=players)),
        metadata=metadata,
        user_fields={"_x": user_value},
        **bets,
    )
    assert loads(dumps(hh)) == hh
    assert loads_all(dumps_all([hh, hh])) == [hh, hh]


# ---------------------------------------------------------------- actions

_cards = st.lists(st.one_of(st.none(), st.integers(0, 51)), min_size=1, max_size=6).map(tuple)
_note = st.none() | st.text(
    alphabet=st.characters(blacklist_categories=["Cs", "Cc", "Zs", "Zl", "Zp"]), min_size=1
)


def _actions(players: int) -> st.SearchStrategy:
    player = st.integers(0, players - 1)
    return st.one_of(
        st.builds(DealHole, player, _cards, _note),
        st.builds(DealBoard, _cards, _note),
        st.builds(Fold, player, _note),
        st.builds(CheckOrCall, player, _note),
        st.builds(BetOrRaiseTo, player, st.integers(1, 10**15), _note),
        st.builds(ShowOrMuck, player, st.none() | _cards, st.just(False), _note),
        st.builds(ShowOrMuck, player, st.none(), st.just(True), _note),
        st.builds(NoOp, _note),
    )


@given(st.integers(2, 10).flatmap(_actions))
def test_action_format_then_parse_is_identity(action):
    assert parse_action(format_action(action)) == action


def test_action_examples_from_the_standard():
    assert parse_action("d dh p3 7h6h") == DealHole(2, (22, 18))
    assert parse_action("d db Jc3d5c") == DealBoard((36, 5, 12))
    assert parse_action("p2 f") == Fold(1)
    assert parse_action("p3 cc") == CheckOrCall(2)
    assert parse_action("p1 cbr 1067100") == BetOrRaiseTo(0, 1067100)
    assert parse_action("p1 sm Ac2d") == ShowOrMuck(0, (48, 1))
    assert parse_action("p1 sm") == ShowOrMuck(0) and parse_action("p1 sm").mucks
    assert parse_action("p4 sm -") == ShowOrMuck(3, dealt=True)
    assert parse_action("  p2   cbr  60  ") == BetOrRaiseTo(1, 60)  # any whitespace
    assert parse_action("p2 cbr 60.0") == BetOrRaiseTo(1, 60)
    assert parse_action("# Burn card 6s is exposed") == NoOp("Burn card 6s is exposed")
    assert format_action(ShowOrMuck(0)) == "p1 sm"


@given(st.lists(st.one_of(st.none(), st.integers(0, 51)), min_size=1, max_size=8))
def test_phh_cards_round_trip(cards):
    assert parse_phh_cards(format_phh_cards(cards)) == tuple(cards)


def test_phh_card_indices_match_the_package_encoding():
    text = "".join(r + s for r in "23456789TJQKA" for s in "cdhs")
    assert parse_phh_cards(text) == tuple(range(52))


# ---------------------------------------------------------------- variants and TOML values


def test_variant_codes():
    assert variant_for_code("PO").standard and variant_for_code("FO/8").standard
    assert variant_for_code("NT").standard and not variant_for_code("PT").standard
    assert not variant_for_code("NO").standard
    assert len(VARIANTS) == 21  # 3 structures x (high/hilo x 4/5/6-card Omaha + Hold'em)
    for code, game in VARIANTS.items():
        assert variant_for_name(code) is game
        assert game.code == code and (
            game.fixed_limit == (game.bet_fields == ("small_bet", "big_bet"))
        )
    assert variant_for_name("PLO8").code == "PO/8"
    assert variant_for_name("flo-hilo").code == "FO/8"
    assert variant_for_name("lo8").code == "FO/8"
    assert variant_for_name("plo6").name == "pot-limit 6-card Omaha high"


@given(
    st.recursive(
        st.one_of(
            st.text(),
            st.integers(-(2**63), 2**63 - 1),
            st.booleans(),
            st.decimals(allow_nan=False, places=4),
            st.dates(),
            st.times(),
            st.datetimes(),
        ),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
        max_leaves=8,
    )
)
def test_toml_values_read_back_as_written(value):
    parsed = tomllib.loads(f"k = {format_value(value)}", parse_float=Decimal)["k"]
    assert parsed == value
