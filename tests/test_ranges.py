"""Range syntax (docs/ranges.md) against a brute-force matcher over every hand."""

from __future__ import annotations

import itertools
import math
import random

import pytest

import omaha
from omaha.analysis.ranges import Range, RangeError

RANKS = "23456789TJQKA"


def slot_ok(card, spec, binding):
    rank, suit = spec
    if rank is not None and card >> 2 not in rank:
        return False
    if suit is None:
        return True
    if suit in "cdhs":
        return card & 3 == "cdhs".index(suit)
    if suit in binding:
        return binding[suit] == card & 3
    return card & 3 not in binding.values()


def brute_match(hand, slots):
    """Some ordering of the hand's cards fits the slots, suit variables bound consistently."""
    for perm in itertools.permutations(hand, len(slots)):
        binding = {}
        ok = True
        for card, spec in zip(perm, slots):
            if not slot_ok(card, spec, binding):
                ok = False
                break
            if spec[1] and spec[1] in "wxyz":
                binding[spec[1]] = card & 3
        if ok:
            return True
    return False


def R(text):
    return frozenset(RANKS.index(c) for c in text)


CASES = {
    # pattern text: slots as (allowed ranks or None, suit or None)
    "AA**": [(R("A"), None), (R("A"), None)],
    "AxKx": [(R("A"), "x"), (R("K"), "x")],
    "AKxx": [(R("A"), None), (R("K"), "x"), (None, "x")],
    "AxKy": [(R("A"), "x"), (R("K"), "y")],
    "xxyy": [(None, "x"), (None, "x"), (None, "y"), (None, "y")],
    "As[2-5]*h": [(R("A"), "s"), (R("2345"), None), (None, "h")],
    "[AK]w[AK]w[QJ]": [(R("AK"), "w"), (R("AK"), "w"), (R("QJ"), None)],
    "Ac2d": [(R("A"), "c"), (R("2"), "d")],
}


@pytest.mark.parametrize("text", sorted(CASES))
def test_pattern_matches_brute_force_on_random_hands(text):
    """A hand matches when its cards can be assigned to the slots (issue 11 semantics)."""
    rng = random.Random(text)
    r = Range(text)
    slots = CASES[text]
    hands = [tuple(sorted(rng.sample(range(52), 4))) for _ in range(3000)]
    hands += [tuple(sorted(h)) for h in itertools.islice(iter(r), 300)]
    for hand in hands:
        assert (omaha.format_cards(hand) in r) == brute_match(hand, slots), hand


def test_counts_of_well_known_ranges():
    assert len(Range("AA**")) == 6961           # issue 11
    assert len(Range("****")) == math.comb(52, 4)
    assert len(Range("AsAh")) == math.comb(50, 2)
    assert len(Range("AcAdAhAs")) == 1
    assert len(Range("xxyy")) == 6 * 78 * 78     # double-suited: two suits, two ranks each
    assert len(Range("$ds")) == len(Range("xxyy"))
    assert len(Range("$r")) == 13 ** 4
    assert len(Range("$np")) == math.comb(13, 4) * 4 ** 4
    assert len(Range("$L")) == math.comb(32, 4)
    assert len(Range("$B")) == math.comb(20, 4)
    assert len(Range("AA", variant="plo5")) == math.comb(52, 5) - math.comb(48, 5) - 4 * math.comb(48, 4)


def test_operators_are_set_operations():
    aa, ds, kk = Range("AA**"), Range("$ds"), Range("KK**")
    both = set(aa) & set(ds)
    assert set(Range("AA**:$ds")) == both
    assert set(Range("AA**!$ds")) == set(aa) - set(ds)
    assert set(Range("AA**,KK**")) == set(aa) | set(kk)
    assert set(Range("(AA**,KK**):$ds")) == (set(aa) | set(kk)) & set(ds)
    assert set(Range("AA**,KK**:$ds")) == set(aa) | (set(kk) & set(ds))   # ':' binds tighter


def test_rank_spans():
    assert set(Range("KK-QQ")) == set(Range("KK,QQ"))
    assert set(Range("AK-AT")) == set(Range("AK,AQ,AJ,AT"))
    assert set(Range("KQJT-JT98")) == set(Range("KQJT,QJT9,JT98"))
    assert set(Range("[AK]Q")) == set(Range("AQ,KQ"))
    assert set(Range("[A-J]s[2-3]")) == set(Range("[AKQJ]s[32]"))


def test_macros():
    for hand in itertools.islice(Range("$ss"), 0, None, 997):
        suits = sorted((sum(1 for c in hand if c.suit == s) for s in range(4)), reverse=True)
        assert suits[0] >= 2 and suits[1] < 2
    for hand in itertools.islice(Range("$np:$L"), 0, None, 97):
        assert len({c.rank for c in hand}) == 4 and all(c.rank in (12, 0, 1, 2, 3, 4, 5, 6)
                                                        for c in hand)


@pytest.mark.parametrize("text", ["AA**:xxyy", "KK-88!KKK*,$ds:AK", "(AK,QQ):$r!AAKK",
                                  "[AKQ]s[2-4]*", "xxyy:T9*", "top 5%", "top 2.5%hilo:$ds"])
def test_str_parses_back_to_the_same_hands(text):
    r = Range(text, variant=omaha.OMAHA_HILO)
    again = Range(str(r), variant=omaha.OMAHA_HILO)
    assert again == r and str(again) == str(r) and len(again) == len(r)
    assert eval(repr(r), {"Range": Range}) == r


def test_top_percent_takes_best_classes_first():
    """The shipped ordering: AA23 double-suited tops hi/lo; 10% is about 27,073 hands."""
    top1 = Range("top 1%", variant=omaha.OMAHA_HILO)
    assert "AsAh2s3h" in top1 and "KcQd7h2s" not in top1
    ten = Range("top 10%", variant=omaha.OMAHA_HILO)
    assert 27_073 <= len(ten) < 27_073 + 24
    assert set(top1) <= set(ten)
    assert Range("top 10%high", variant=omaha.OMAHA_HILO) == Range("top 10%", variant="omaha")


@pytest.mark.parametrize("text", ["", "AA**)", "(AA", "$foo", "top %", "top 0%", "K-A",
                                  "[A-", "Q@", "AK-AK", "AAAAA"])
def test_bad_ranges_raise_range_error_naming_the_text(text):
    with pytest.raises(RangeError) as info:
        Range(text)
    assert isinstance(info.value, omaha.OmahaError) and isinstance(info.value, ValueError)


def test_wrong_types_and_variants():
    with pytest.raises(TypeError):
        Range(5)  # type: ignore[arg-type]
    with pytest.raises(omaha.OmahaError):
        Range("AA", variant="stud9")
    with pytest.raises(RangeError):
        Range("top 5%", variant="plo5")
    assert "AsAh2d" not in Range("AA**") and 7 not in Range("AA**")
