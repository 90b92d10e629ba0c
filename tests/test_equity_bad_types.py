"""Wrong types at ``omaha.equity`` (issue 20): an ``OmahaError`` naming the argument, a
wrong type as an ``OmahaTypeError`` (also a ``TypeError``), never a bare error from inside."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import omaha
from omaha.errors import OmahaError, OmahaTypeError

HANDS = ["AsAh2d3c", "KsKhQdJc"]


@pytest.mark.parametrize(("options", "words"), [
    ({"threads": True}, "threads must be an integer, got True"),
    ({"threads": 1.0}, "threads must be an integer, got 1.0"),
    ({"threads": "2"}, "threads must be an integer, got '2'"),
    ({"threads": np.bool_(True)}, "threads must be an integer"),
    ({"samples": 1.5}, "samples must be an integer, got 1.5"),
    ({"samples": "10"}, "samples must be an integer, got '10'"),
    ({"samples": True}, "samples must be an integer, got True"),
    ({"samples": [10]}, "samples must be an integer"),
    ({"samples": 1000, "seed": 1.0}, "seed must be an integer, got 1.0"),
    ({"samples": 1000, "seed": "1"}, "seed must be an integer"),
    ({"exact": 1}, "exact must be True, False or None, got 1"),
    ({"exact": "yes"}, "exact must be True, False or None"),
    ({"samples": 1000, "progress": 5}, "progress must be a function"),
    ({"progress": "bar"}, "progress must be a function"),
    ({"entries": {"a": "AsAh2d3c", "b": "KsKhQdJc"}}, "entries must be a list"),
    ({"entries": "AsAh2d3cKsKhQdJc"}, "entries must be a list"),
    ({"entries": 7}, "entries must be a list"),
    ({"entries": [HANDS[0], {"As": 1}]}, "entry 2: expected a hand, a range or a Range"),
    ({"entries": [HANDS[0], b"KsKhQdJc"]}, "entry 2: expected a hand"),
    ({"entries": [HANDS[0], 5]}, "entry 2: expected a hand"),
    ({"entries": [HANDS[0], [1.5, 2, 3, 4]]}, "entry 2"),
    ({"board": 5}, "board"),
    ({"board": ["Kd", 7.0, "4h"]}, "board"),
    ({"dead": {"Kd": 1}}, "dead"),
])
def test_wrong_types_raise_omaha_type_errors_naming_the_argument(options: dict[str, Any],
                                                                 words: str) -> None:
    call = {"entries": HANDS, **options}
    with pytest.raises(OmahaTypeError, match=words) as info:
        omaha.equity(**call)
    assert isinstance(info.value, TypeError) and isinstance(info.value, OmahaError)


@pytest.mark.parametrize(("options", "words"), [
    ({"threads": 0}, "threads must be at least 1, got 0"),
    ({"samples": 0}, "samples must be at least 1, got 0"),
    ({"samples": 2**63}, "samples must be at most"),
    ({"samples": 10, "seed": 2**64}, "seed must be at most"),
    ({"samples": 10, "seed": -1}, "seed must be at least 0"),
    ({"variant": 4}, "unknown variant 4"),
    ({"variant": None}, "unknown variant None"),
])
def test_bad_values_raise_omaha_errors_naming_the_argument(options: dict[str, Any],
                                                           words: str) -> None:
    with pytest.raises(OmahaError, match=words):
        omaha.equity(HANDS, **options)


def test_numpy_integers_are_integers() -> None:
    plain = omaha.equity(HANDS, board="Kd7c4h", samples=2_000, seed=3, threads=2)
    numpy = omaha.equity(HANDS, board="Kd7c4h", samples=np.int64(2_000), seed=np.uint64(3),
                         threads=np.int32(2))
    assert numpy == plain and type(numpy.deals) is int
