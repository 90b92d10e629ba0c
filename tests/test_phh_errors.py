"""Every kind of malformed PHH raises HistoryError naming the field or the action."""

from __future__ import annotations

import pytest

from omaha.errors import UnsupportedVariantError
from omaha.phh import (
    HandHistory,
    HistoryError,
    UnknownFieldWarning,
    load,
    loads,
    loads_all,
    parse_action,
)
from omahacore.errors import OmahaError

GOOD = {
    "variant": '"PO"',
    "antes": "[0, 0, 0]",
    "blinds_or_straddles": "[1, 2, 0]",
    "min_bet": "2",
    "starting_stacks": "[100, 100, 100]",
    "actions": '["d dh p1 AcAd2h3s", "d dh p2 ????????", "d dh p3 ????????", "p3 cbr 6", "p1 f"]',
}


def phh(**changes: str | None) -> str:
    """GOOD with fields replaced (or removed when None)."""
    fields = {**GOOD, **changes}
    return "".join(f"{k} = {v}\n" for k, v in fields.items() if v is not None)


def error(text: str) -> HistoryError:
    with pytest.raises(HistoryError) as info:
        loads(text)
    return info.value


def test_the_good_history_loads():
    assert loads(phh()).players == 3


def test_history_error_is_an_omaha_value_error():
    assert issubclass(HistoryError, OmahaError) and issubclass(HistoryError, ValueError)


def test_bad_toml_names_line_and_column():
    err = error(phh(min_bet="= 2"))
    assert "bad TOML" in str(err) and "line 4" in str(err)
    assert "end of document" in str(error(phh() + "oops = [1, 2\n"))
    assert "bad TOML" in str(error("variant = 'PO\n"))


def test_unknown_variant():
    err = error(phh(variant='"NS"'))  # short-deck hold'em: a standard code the engine lacks
    assert isinstance(err, UnsupportedVariantError)   # valid PHH, a game not played here
    assert err.field == "variant" and "NS (no-limit short-deck hold'em) is a PHH game" in str(err)
    err = error(phh(variant='"XYZ"'))
    assert not isinstance(err, UnsupportedVariantError)
    assert "unknown variant 'XYZ'" in str(err) and "PO" in str(err)
    assert "unknown variant" in str(error(phh(variant="3")))


@pytest.mark.parametrize(
    "name", ["variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions"]
)
def test_missing_required_field(name):
    err = error(phh(**{name: None}))
    assert err.field == name and "missing" in err.reason


def test_bet_fields_must_match_the_structure():
    err = error(phh(variant='"FO/8"'))
    assert err.field == "small_bet" and "missing required field for FO/8" in str(err)
    err = error(phh(variant='"FO/8"', small_bet="2", big_bet="4"))
    assert err.field == "min_bet" and "small_bet and big_bet" in str(err)
    err = error(phh(small_bet="2"))
    assert err.field == "small_bet" and "uses min_bet" in str(err)
    assert error(phh(bring_in="1")).field == "bring_in"


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("starting_stacks", "[100, 0, 100]", "must be positive"),
        ("starting_stacks", "[100]", "at least 2"),
        ("starting_stacks", "[100, -inf, 100]", "unknown amounts"),
        ("starting_stacks", "[100, nan, 100]", "unknown amounts"),
        ("starting_stacks", "[100, 1e-30, 100]", "30 decimal places; at most 18"),
        ("starting_stacks", "[100, 9223372036854775807.5, 100]", "above"),
        ("starting_stacks", '"100"', "at least 2"),
        ("antes", "[0, 0]", "has 2 entries but the hand has 3 players"),
        ("antes", "[0, -1, 0]", "non-negative"),
        ("antes", "0", "one entry per player"),
        ("blinds_or_straddles", "[1, true, 0]", "whole number of chips, got boolean"),
        ("min_bet", "0", "positive"),
        ("min_bet", "nan", "unknown amounts"),
        ("finishing_stacks", "[1, 2]", "has 2 entries"),
        ("players", '["a", 2, "c"]', "expected a string"),
        ("seats", "[1, 2, 3.0]", "expected an integer"),
        ("time", "2024-01-01T10:00:00", "local time"),
        ("day", '"3"', "expected an integer"),
        ("ante_trimming_status", "1", "true or false"),
        ("time_banks", "[1, 2, 'x']", "expected a number"),
    ],
)
def test_bad_field_values(field, value, words):
    err = error(phh(**{field: value}))
    assert err.field is not None and err.field.startswith(field)
    assert words in str(err)


@pytest.mark.parametrize(
    ("index", "action", "words"),
    [
        (2, "d dh p3 AcAd2h3x", "bad card '3x'"),
        (2, "d dh p3 AcAd2h3", "two characters each"),
        (2, "d dh p3 10cAd2h3", "bad card '10'"),
        (2, "d dh p3 10cAd2h3s", "two characters each"),
        (2, "d dh p3 acAd2h3s", "bad card 'ac'"),
        (3, "p3 raise 6", "unknown action 'raise'"),
        (3, "p3 pb", "stud action"),
        (3, "p3 sd", "draw-game action"),
        (3, "p3 cbr", "wrong arguments for 'cbr'"),
        (3, "p3 f now", "wrong arguments for 'f'"),
        (3, "p3", "unknown action ''"),
        (3, "p4 cbr 6", "no player 'p4': the hand has 3 players"),
        (3, "p0 cbr 6", "bad actor 'p0'"),
        (3, "q3 cbr 6", "bad actor 'q3'"),
        (3, "P3 cbr 6", "bad actor 'P3'"),
        (3, "p3 cbr 6.5e-40", "41 decimal places; at most 18"),
        (3, "p3 cbr -6", "bad amount '-6'"),
        (3, "p3 cbr 0", "bad amount '0'"),
        (3, "p3 cbr six", "bad amount 'six'"),
        (3, "d dx p3 AcAd2h3s", "unknown dealer action 'dx'"),
        (3, "d db", "wrong arguments for 'db'"),
        (3, "d dh AcAd2h3s", "wrong arguments for 'dh'"),
    ],
)
def test_bad_actions_name_their_index_and_text(index, action, words):
    actions = ["d dh p1 AcAd2h3s", "d dh p2 ????????", "d dh p3 ????????", "p3 cbr 6", "p1 f"]
    actions[index] = action
    err = error(phh(actions="[" + ", ".join(f'"{a}"' for a in actions) + "]"))
    assert (err.index, err.action, err.field) == (index, action, "actions")
    assert words in err.reason
    assert str(err).startswith(f"actions[{index}] {action!r}: ")


def test_action_that_is_not_a_string():
    err = error(phh(actions='["d dh p1 AcAd2h3s", 7]'))
    assert err.index == 1 and "action string" in str(err)
    assert error(phh(actions='"p1 f"')).field == "actions"


def test_unknown_fields_warn_but_user_fields_do_not():
    with pytest.warns(UnknownFieldWarning, match="'colour'"):
        hh = loads(phh(colour='"red"'))
    assert hh.user_fields == {"colour": "red"}
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert loads(phh(_colour='"red"')).user_fields == {"_colour": "red"}


def test_collections_name_the_faulty_hand_and_file(tmp_path):
    bad = phh(actions='["p9 f"]')
    text = f"[1]\n{phh()}\n[second]\n{bad}"
    with pytest.raises(HistoryError) as info:
        loads_all(text)
    assert info.value.hand == "second" and str(info.value).startswith(
        "[second] actions[0] 'p9 f': "
    )
    with pytest.raises(HistoryError, match="outside any hand"):
        loads_all(f"x = 1\n[1]\n{phh()}")
    with pytest.raises(HistoryError, match="use loads_all|read it with loads_all"):
        loads(text.replace(bad, phh()))
    path = tmp_path / "h.phhs"
    path.write_text(text)
    with pytest.raises(HistoryError) as info:
        from omaha.phh import load_all

        load_all(path)
    assert info.value.source == str(path) and str(info.value).startswith(
        f"{path} [second] actions[0]"
    )


def test_non_utf8_file(tmp_path):
    path = tmp_path / "bad.phh"
    path.write_bytes(phh().encode() + b'_x = "\xff"\n')
    with pytest.raises(HistoryError, match="not UTF-8"):
        load(path)


def test_direct_construction_is_checked_too():
    with pytest.raises(HistoryError, match="metadata"):
        HandHistory(
            variant="PO",
            antes=[0, 0],
            blinds_or_straddles=[1, 2],
            min_bet=2,
            starting_stacks=[5, 5],
            metadata={"colour": "red"},
        )
    with pytest.raises(HistoryError) as info:
        HandHistory(
            variant="PO",
            antes=[0, 0],
            blinds_or_straddles=[1, 2],
            min_bet=2,
            starting_stacks=[5, 5],
            actions=["p3 f"],
        )
    assert info.value.index == 0


def test_parse_action_errors_are_value_errors():
    with pytest.raises(ValueError, match="unknown action"):
        parse_action("p1 x")
