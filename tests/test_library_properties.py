"""Property tests of the library edge (issue 21, classes 5 and 6): range strings and
equity/range arguments of any value and type are accepted soundly or refused with a typed
``OmahaError`` naming the argument or the limit, quickly, before any work."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import omaha
from omaha import limits
from omaha.analysis.ranges import Range, RangeError, RangeLimitError, RangeTypeError
from omaha.errors import LimitError, OmahaError, OmahaTypeError

HANDS = ["AsAh2d3c", "KsKhQdJc"]
FAST = settings(max_examples=60, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])

slot = st.builds(lambda rank, suit: rank + suit,
                 st.sampled_from([*"AKQJT98765432*", "10", "[AK]", "[2-5]"]),
                 st.sampled_from(["", *"cdhswxyz"]))
pattern = st.lists(slot, min_size=1, max_size=4).map("".join)
atom = st.one_of(pattern, st.sampled_from(["$ds", "$ss", "$r", "$np", "$pair", "$L", "$B",
                                           "top 5%", "top 20%hilo", "KK-99"]))
range_text = st.recursive(
    atom,
    lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=3).flatmap(
            lambda parts: st.sampled_from(",!:").map(lambda op: op.join(parts))),
        inner.map(lambda text: f"({text})")),
    max_leaves=6)

wrong_ints = st.one_of(st.booleans(), st.floats(allow_nan=True), st.text(max_size=3),
                       st.none(), st.lists(st.integers(), max_size=2),
                       st.just(np.bool_(True)), st.just(np.float64(2.0)),
                       st.just(b"4"), st.just(object()))


@FAST
@given(range_text)
def test_grammar_ranges_read_back_to_themselves(text: str) -> None:
    try:
        r = Range(text)
    except RangeError:
        return
    assert Range(str(r)) == r
    assert r.is_any or 0 < len(r) <= limits.MAX_RANGE_HANDS


@FAST
@given(st.text(max_size=60))
def test_any_text_is_a_range_or_a_range_error(text: str) -> None:
    try:
        Range(text)
    except RangeError:
        pass


@FAST
@given(st.integers(0, 400), range_text)
def test_nesting_past_the_limit_is_refused_by_name(depth: int, inner: str) -> None:
    text = "(" * depth + inner + ")" * depth
    if depth + inner.count("(") > limits.MAX_RANGE_DEPTH:
        with pytest.raises(RangeLimitError, match="MAX_RANGE_DEPTH"):
            Range(text)
    else:
        try:
            Range(text)
        except RangeLimitError as exc:
            assert "MAX_RANGE_DEPTH" not in str(exc)
        except RangeError:
            pass


@FAST
@given(st.one_of(wrong_ints, st.lists(st.text(max_size=4), max_size=2),
                 st.dictionaries(st.text(max_size=2), st.integers(), max_size=1)))
def test_range_text_of_any_other_type_is_a_range_type_error(value: Any) -> None:
    if isinstance(value, str):
        return
    with pytest.raises(RangeTypeError, match="text"):
        Range(value)


@FAST
@given(st.one_of(st.integers(), wrong_ints), st.sampled_from(["samples", "threads"]))
def test_equity_counts_are_checked_at_entry(value: Any, name: str) -> None:
    started = time.perf_counter()
    limit = limits.MAX_SAMPLES if name == "samples" else limits.MAX_THREADS
    options: dict[str, Any] = {name: value, "seed": 1}
    if name == "threads":
        options["samples"] = 2000
    valid = type(value) is int and 1 <= value <= limit
    if value is None and name == "samples":
        return   # the default
    if valid and name == "samples" and value > 50_000:
        return   # a valid large run: not what this test is about
    try:
        result = omaha.equity(HANDS, exact=False, **options)
    except OmahaTypeError as exc:
        assert not valid and name in str(exc) and isinstance(exc, TypeError)
    except LimitError as exc:
        assert type(value) is int and value > limit
        assert f"MAX_{name.upper()}" in str(exc)
    except OmahaError as exc:
        assert not valid and name in str(exc)
    else:
        assert valid and abs(sum(result.equity) - 1) < 1e-9
    assert time.perf_counter() - started < 5


@FAST
@given(st.integers(1, 6), st.integers(1, 3))
def test_a_progress_that_raises_always_propagates(after: int, threads: int) -> None:
    calls: list[int] = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) >= after:
            raise KeyError("stop")      # any exception, even one the package never raises

    samples = 16_384 * 32 * 4
    try:
        result = omaha.equity([HANDS[0], "****"], samples=samples, seed=1, threads=threads,
                              progress=progress)
    except KeyError:
        assert len(calls) == after
    else:
        assert len(calls) < after and result.deals == samples
