"""Hostile input to the compiled entry points (issue 10, items 1 and 6).

Every compiled reader copies the caller's input into a fixed snapshot of exact ints before it
fills a C buffer, so no object can crash the process or slip an untyped error out: the calls
either answer (from the snapshot, agreeing with the slow reference) or raise an OmahaError
(wrong types: an OmahaTypeError, also a TypeError). The crashes reproduced on the old main
run in a subprocess, so a segfault fails its test instead of killing pytest.
"""

from __future__ import annotations

import os
import pathlib
import random
import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import omaha
import reference_eval as ref
import reference_pots
from omaha.cards import Card
from omahacore import cards, evaluator, pots
from omahacore.errors import (
    ArrayError,
    CardError,
    CardTypeError,
    OmahaError,
    OmahaTypeError,
    PotError,
    PotTypeError,
    StrengthError,
)

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "fuzz"))
import hostile
from hostile import Indexer, SneakyInt, SneakyStr


def run_isolated(code: str) -> str:
    """Run ``code`` in a fresh interpreter; a crash (a signal) or a traceback fails the test."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "fuzz"), *sys.path])
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                         text=True, env=env, timeout=120, check=False)
    assert out.returncode == 0, f"exit {out.returncode}\n{out.stdout}\n{out.stderr}"
    return out.stdout


# ---------------------------------------------------------------- crashes on the old main

CRASHES = {
    # card_value recursed until the stack overflowed.
    "card_index_returns_itself": """
        from hostile import Indexer
        from omahacore import evaluator
        from omahacore.errors import CardTypeError
        for bad in (Indexer("self"), Indexer("value", Indexer("self")), Indexer("recurse")):
            try:
                evaluator.evaluate_high([bad, 1, 2, 3], "AhKhQh")
            except CardTypeError as exc:
                assert "cannot read" in str(exc), exc
            else:
                raise SystemExit("accepted")
        print("typed")
    """,
    # read_cards indexed the list after __index__ had cleared it (boundscheck off).
    "read_cards_list_cleared_while_read": """
        from hostile import Indexer
        from omahacore import evaluator
        for trick in ("clear", "shrink", "grow", "swap"):
            hole = [Indexer(trick, 5), 1, 2, 3]
            hole[0].container = hole
            got = evaluator.evaluate_hilo(hole, [40, 41, 44])
            assert got == evaluator.evaluate_hilo([5, 1, 2, 3], [40, 41, 44]), (trick, got)
        print("snapshot")
    """,
    # pots._read_ints read past a list shrunk by an item's __index__.
    "pots_read_ints_list_cleared": """
        from hostile import Indexer
        from omahacore import pots
        contributions = [Indexer("clear", 10)] + [40] * 60
        contributions[0].container = contributions
        s = pots.settle(contributions, [False] * 61, high=list(range(61)))
        assert s == pots.settle([10] + [40] * 60, [False] * 61, high=list(range(61)))
        order = [Indexer("clear", 0)] + list(range(1, 61))
        order[0].container = order
        s = pots.settle([5] * 61, [False] * 61, high=[1] * 61, order=order)
        assert s.payouts == (5,) * 61
        print("snapshot")
    """,
    # pots._read_strengths, same trick on the strengths.
    "pots_read_strengths_list_cleared": """
        from hostile import Indexer
        from omahacore import pots
        high = [Indexer("clear", 3)] + [1] * 60
        high[0].container = high
        s = pots.settle([10] * 61, [False] * 61, high=high)
        assert s.payouts[0] == 610, s.payouts
        print("snapshot")
    """,
    # pots._read_flags: an item's `dtype` lookup cleared the list being read.
    "pots_read_flags_list_cleared": """
        from omahacore import pots
        from omahacore.errors import PotTypeError
        class Sneaky:
            def __init__(self, box):
                self.box = box
            @property
            def dtype(self):
                self.box.clear()
                class Kind:
                    kind = "b"
                return Kind()
            def __bool__(self):
                return False
        folded = [False] * 61
        folded[0] = Sneaky(folded)
        try:
            pots.settle([10] * 61, folded, high=[1] * 61)
        except PotTypeError as exc:
            assert "folded[0]" in str(exc)
        else:
            raise SystemExit("accepted")
        print("typed")
    """,
}


@pytest.mark.parametrize("name", sorted(CRASHES))
def test_issue10_item1_no_crash_from_python_objects(name: str) -> None:
    assert run_isolated(CRASHES[name]).strip() in ("typed", "snapshot")


# ---------------------------------------------------------------- item 6: typed errors


@pytest.mark.parametrize("value", [3.5, True, False, 10**30, -(10**30), "x", None, b"1",
                                   np.True_, np.float64(7.0), Indexer("self"), Indexer("raise"),
                                   Indexer("value", True), Indexer("value", SneakyInt(5)),
                                   float("nan")], ids=lambda v: type(v).__name__)
@pytest.mark.parametrize("fn", [omaha.describe, omaha.category, omaha.describe_low,
                                evaluator.high_key, evaluator.low_ranks])
def test_issue10_item6_strength_errors_are_typed(fn: Any, value: Any) -> None:
    with pytest.raises(StrengthError, match="strength") as info:
        fn(value)
    wrong_type = not (type(value) is int)
    assert isinstance(info.value, TypeError) == wrong_type, info.value


def test_issue10_item6_strengths_accept_int_likes() -> None:
    assert omaha.describe(np.int64(7462)) == omaha.describe(7462) == "Royal flush"
    assert omaha.describe(Indexer("value", 7462)) == "Royal flush"
    assert omaha.describe(SneakyInt(1)) == "High card, 7-5-4-3-2"   # its value, not its lies
    assert omaha.describe_low(0) == omaha.describe_low(np.uint8(0)) == "No low"
    with pytest.raises(OmahaTypeError, match="low must be True or False"):
        omaha.describe(100, low=1)


@pytest.mark.parametrize("value", [True, False, np.True_, 1.0, 3.5, float("nan"), None,
                                   b"A", bytearray(b"\x01"), Indexer("self"),
                                   Indexer("value", True), Indexer("value", SneakyInt(3)),
                                   Indexer("raise"), object(), [1], 1j],
                         ids=lambda v: type(v).__name__)
def test_issue10_item6_bool_and_other_types_are_never_cards(value: Any) -> None:
    for call in (cards.parse_card, Card, cards.format_card, lambda v: cards.parse_cards([v]),
                 lambda v: omaha.evaluate_high([v, 1, 2, 3], [4, 5, 6]),
                 lambda v: omaha.evaluate_five([v, 1, 2, 3, 4])):
        with pytest.raises(CardTypeError) as info:
            call(value)
        assert isinstance(info.value, TypeError) and isinstance(info.value, CardError)


@pytest.mark.parametrize("value", [52, -1, 2**63, 10**5000, SneakyInt(99), np.int64(60)],
                         ids=lambda v: type(v).__name__)
def test_out_of_range_cards_are_card_errors_that_stay_short(value: Any) -> None:
    with pytest.raises(CardError, match="out of range 0..51") as info:
        cards.parse_card(value)
    assert not isinstance(info.value, TypeError) and len(str(info.value)) < 200


@pytest.mark.parametrize("seq", [b"\x00\x01\x02\x03", bytearray(4), 7, None, 2.5,
                                 hostile.BadIterable([0, 1, 2, 3], 2), SneakyStr("AhKs2c")],
                         ids=lambda v: type(v).__name__)
def test_card_sequences_of_the_wrong_kind_are_typed(seq: Any) -> None:
    with pytest.raises(CardError):
        omaha.evaluate_high(seq, "QdJd7h")


def test_endless_iterators_are_refused_not_consumed() -> None:
    with pytest.raises(CardError, match="hole must have 4 to 6 cards, got more than 6"):
        omaha.evaluate_high(hostile.endless(), "QdJd7h")
    with pytest.raises(CardError, match="more than 100000 cards"):
        omaha.format_cards(hostile.endless())


def test_str_subclasses_are_read_by_their_characters() -> None:
    assert cards.parse_cards(SneakyStr("AhKs")) == [50, 47]
    assert cards.format_cards(SneakyStr("AhKs"), SneakyStr(" ")) == "Ah Ks"


def test_error_messages_survive_hostile_reprs_and_huge_ints() -> None:
    with pytest.raises(CardTypeError, match="Indexer object"):
        cards.parse_card(Indexer("raise"))
    with pytest.raises(PotError, match="an int of 16610 bits"):
        omaha.settle([10**5000, 1], [False, False], high=[1, 2])
    with pytest.raises(StrengthError, match="an int of 16610 bits"):
        omaha.describe(10**5000)


@pytest.mark.parametrize("value", [True, np.True_, 2.0, "5", None, Indexer("self"),
                                   Indexer("value", False), Indexer("raise"), SneakyStr("1")],
                         ids=lambda v: type(v).__name__)
def test_issue10_item6_bool_is_never_an_amount(value: Any) -> None:
    with pytest.raises(PotTypeError) as info:
        pots.settle([value, 10], [False, False], high=[1, 2])
    assert isinstance(info.value, TypeError)
    for kwargs in ({"rake": value}, {"dead": value}):
        with pytest.raises(PotTypeError):
            pots.settle([10, 10], [False, False], high=[1, 2], **kwargs)
    with pytest.raises(PotTypeError):
        pots.PotLayer(amount=value, eligible=[0])
    with pytest.raises(PotTypeError):
        pots.build_pots([10, 10], [False, False], dead=value)


@pytest.mark.parametrize("holes", [
    [[0, 1, 2, 3], [4, 5, 6]],                 # ragged
    [[0, 1, 2, 3], [4, 5, 6, [7]]],            # ragged, deeper
    hostile.deep(5000),                        # deep
    [[Indexer("self")] * 4],                   # objects: dtype object
    "AhKs2c3d",                                # text
    None,
], ids=["ragged", "ragged-deeper", "deep", "objects", "text", "None"])
def test_issue10_item6_ragged_and_odd_arrays_are_array_errors(holes: Any) -> None:
    for fn in (omaha.evaluate_high_batch, omaha.evaluate_hilo_batch):
        with pytest.raises(ArrayError):
            fn(holes, np.array([40, 41, 42, 43, 44], np.uint8))


def test_batch_shapes_with_zero_columns_are_array_errors() -> None:
    boards = np.zeros((2, 5), np.uint8)
    for shape in ((2, 3, 0), (2, 0, 0), (0, 0)):
        with pytest.raises(ArrayError):
            omaha.evaluate_hilo_batch(np.zeros(shape, np.uint8), boards)


def test_batch_reads_a_private_copy_of_the_callers_array() -> None:
    holes = np.array([[0, 1, 2, 3]], np.uint8)
    boards = np.array([[40, 41, 42, 43, 44]], np.uint8)
    expected = omaha.evaluate_high_batch(holes, boards)
    view = np.lib.stride_tricks.as_strided(holes)   # same memory, a different object
    assert (omaha.evaluate_high_batch(view, boards) == expected).all()


# ---------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_hostile_input_only_ever_raises_omaha_errors(data: Any) -> None:
    """The fuzz harness's generator, driven by Hypothesis (the harness runs longer budgets)."""
    import fuzz_compiled

    fuzz_compiled.run_one(hostile.HypothesisSource(data))


def wrap_card(card: int, how: int) -> Any:
    """The same card, as one of the many things a caller may pass."""
    return [card, Card(card), np.uint8(card), np.int64(card), Indexer("value", card),
            SneakyInt(card), cards.CARD_TEXT[card], cards.CARD_SYMBOLS[card],
            SneakyStr(cards.CARD_TEXT[card]), "10" + "cdhs"[card & 3] if card >> 2 == 8
            else cards.CARD_TEXT[card]][how]


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(52)), st.integers(4, 6), st.integers(3, 5),
       st.lists(st.integers(0, 9), min_size=11, max_size=11),
       st.sampled_from([list, tuple, iter]))
def test_wrapped_valid_cards_agree_with_the_reference(deck: list[int], nh: int, nb: int,
                                                      hows: list[int], box: Any) -> None:
    hole, board = deck[:nh], deck[nh:nh + nb]
    wrapped_hole = box([wrap_card(c, hows[i]) for i, c in enumerate(hole)])
    wrapped_board = box([wrap_card(c, hows[6 + i]) for i, c in enumerate(board)])
    assert omaha.evaluate_hilo(wrapped_hole, wrapped_board) == (
        ref.omaha_high(hole, board), ref.omaha_low(hole, board))


def wrap_amount(value: int, how: int) -> Any:
    return [value, np.int64(value), Indexer("value", value), SneakyInt(value)][how]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 300), st.booleans(), st.integers(0, 20),
                          st.integers(0, 3)), min_size=2, max_size=9))
def test_wrapped_valid_amounts_agree_with_the_reference(rows: list[tuple[int, bool, int, int]]
                                                        ) -> None:
    contributions = [c for c, _, _, _ in rows]
    folded = [f for _, f, _, _ in rows]
    high = [h for _, _, h, _ in rows]
    try:
        expected = reference_pots.settle(contributions, folded, high)
    except (OmahaError, ValueError):
        with pytest.raises(PotError):
            pots.settle(contributions, folded, high)
        return
    got = pots.settle([wrap_amount(c, how) for c, _, _, how in rows],
                      [np.bool_(f) if i % 2 else f for i, f in enumerate(folded)],
                      [wrap_amount(h, how) for _, _, h, how in rows])
    assert list(got.payouts) == list(expected.payouts)


# ---------------------------------------------------------------- the fuzz harness, briefly


def test_fuzz_harness_short_budget() -> None:
    """A few seconds of the harness in a subprocess: a crash or an untyped error fails it."""
    out = run_isolated(f"""
        import sys
        sys.argv = ["fuzz_compiled.py", "--seconds", "3", "--engine", "random",
                    "--seed", "{random.randrange(2**32)}"]
        import fuzz_compiled
        sys.exit(fuzz_compiled.main())
    """)
    assert "no finding" in out, out


class LyingArray(np.ndarray):
    """A numpy subclass whose shape and dtype properties lie (a base-class view cannot)."""

    @property
    def shape(self) -> tuple[int, ...]:  # type: ignore[override]
        return (1000, 3)

    def reshape(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return np.zeros((1, 1), np.int64)


def test_numpy_subclasses_cannot_lie_about_their_shape() -> None:
    contributions = np.array([[10, 20, 30]], np.int64).view(LyingArray)
    folded = np.zeros((1, 3), bool)
    high = np.array([[1, 2, 3]], np.int32)
    pay, _ = pots.settle_batch(contributions, folded, high,
                               order=np.array([2, 1, 0]).view(LyingArray))
    assert pay.tolist() == [[0, 0, 60]]
    with pytest.raises(ArrayError):
        pots.settle_batch(np.zeros((1000, 3), np.int64), folded.view(LyingArray), high)
