"""Hostile Python objects for the compiled entry points, built from any source of choices.

One generator serves three drivers: Hypothesis (``HypothesisSource`` over ``st.data()``),
atheris (``BytesSource`` over the fuzzer's bytes) and plain ``random`` (``RandomSource``).
Every object here is something a caller could pass: ``__index__`` tricks (returns itself,
returns another hostile object, an int subclass, a bool or a huge int, raises, mutates the
very list being read), int and str subclasses that override everything, bools, numpy
scalars, floats (NaN, inf), bytes, None, deep and ragged nests.

The oracle is simple: whatever the input, a call either returns or raises an ``OmahaError``
(wrong types may also be ``TypeError``, through ``OmahaTypeError``); it never crashes the
process and never lets another exception escape.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import numpy as np


class Source(Protocol):
    def int(self, low: int, high: int) -> int:
        """A choice in [low, high]."""


class RandomSource:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def int(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


class BytesSource:
    """Choices read from a byte string (atheris); zeros once the bytes run out."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def int(self, low: int, high: int) -> int:
        span = high - low
        if span <= 0:
            return low
        width = (span.bit_length() + 7) // 8
        chunk = self.data[self.at:self.at + width]
        self.at += width
        return low + int.from_bytes(chunk, "little") % (span + 1)


class HypothesisSource:
    def __init__(self, data: Any) -> None:
        from hypothesis import strategies as st

        self.data, self.st = data, st

    def int(self, low: int, high: int) -> int:
        return int(self.data.draw(self.st.integers(low, high)))


# ---------------------------------------------------------------- hostile objects

class Boom(Exception):
    """An exception only a hostile object raises: it must never escape the package."""


class Indexer:
    """An object whose ``__index__`` does something nasty (the trick is chosen when built)."""

    def __init__(self, trick: str, value: Any = 0) -> None:
        self.trick, self.value = trick, value
        self.container: list[Any] | None = None   # the list holding it, for the mutators

    def __index__(self) -> Any:
        trick = self.trick
        if trick == "self":
            return self
        if trick == "raise":
            raise Boom("__index__ raised")
        if trick == "recurse":
            return self.__index__()
        box = self.container
        if box is not None:
            if trick == "clear":
                box.clear()
            elif trick == "shrink":
                del box[len(box) // 2:]
            elif trick == "grow":
                box.extend([Indexer("clear")] * 100)
            elif trick == "swap" and box:
                box[0] = Indexer("self")
        return self.value

    def __repr__(self) -> str:
        if self.trick == "raise":
            raise Boom("__repr__ raised")
        return f"Indexer({self.trick!r})"

    def __eq__(self, other: object) -> bool:
        if self.container is not None:
            self.container.clear()
        return False

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        if self.container is not None:
            self.container.clear()
        raise Boom("__bool__ raised")


class SneakyInt(int):
    """An int subclass that lies everywhere it can: only its value may be used."""

    def __index__(self) -> int:  # type: ignore[override]
        return 999

    def __int__(self) -> int:
        return -5

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__

    def __lt__(self, other: object) -> bool:
        raise Boom("compared")

    def __repr__(self) -> str:
        raise Boom("__repr__ raised")


class SneakyStr(str):
    """A str subclass whose methods lie: only its characters may be used."""

    def upper(self) -> str:  # type: ignore[override]
        raise Boom("upper")

    def lower(self) -> str:  # type: ignore[override]
        raise Boom("lower")

    def __getitem__(self, key: Any) -> str:  # type: ignore[override]
        raise Boom("getitem")

    def __len__(self) -> int:
        return 10**9

    def __iter__(self) -> Iterator[str]:
        raise Boom("iter")


class BadIterable:
    """Iterates a few items, then raises; or claims a length it does not have."""

    def __init__(self, items: list[Any], fail_after: int) -> None:
        self.items, self.fail_after = items, fail_after

    def __iter__(self) -> Iterator[Any]:
        for i, item in enumerate(self.items):
            if i == self.fail_after:
                raise Boom("iteration raised")
            yield item

    def __len__(self) -> int:
        return 3

    def __getitem__(self, i: int) -> Any:
        if i >= self.fail_after:
            raise Boom("getitem raised")
        return self.items[i]


def endless() -> Iterator[int]:
    i = 0
    while True:
        yield i % 52
        i += 1


def deep(depth: int) -> list[Any]:
    nest: list[Any] = [1]
    for _ in range(depth):
        nest = [nest]
    return nest


CARD_TEXT = ["Ah", "ks", "10d", "2c", "A♠", "K♡", "Td", "1h", "Ax", "", " ", "AhKs",
             "AhAh", "♠", "10", "A\ufe0f♠", "\x00", "ÅΩ", "9♦8♣7♥6♠", "AhKs2c3d4d"]


def scalar(src: Source, depth: int = 0) -> Any:
    """One item, as a caller might put it in a card list or an amount list."""
    k = src.int(0, 30)
    if k <= 6:
        return src.int(-3, 60)                         # plain ints, mostly valid cards
    if k == 7:
        return [2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**30, 10**5000, -(10**5000)][src.int(0, 6)]
    if k == 8:
        return bool(src.int(0, 1))
    if k == 9:
        return np.bool_(src.int(0, 1))
    if k == 10:
        dtype = [np.uint8, np.int8, np.int64, np.uint64, np.int32, np.int16][src.int(0, 5)]
        return dtype(src.int(0, 100))
    if k == 11:
        return [1.5, 3.0, math.nan, math.inf, -0.0, np.float64(2.0)][src.int(0, 5)]
    if k == 12:
        return [None, b"Ah", bytearray(b"\x01"), object(), (), {}, set(), 1j][src.int(0, 7)]
    if k <= 15:
        return CARD_TEXT[src.int(0, len(CARD_TEXT) - 1)]
    if k == 16:
        return SneakyStr(CARD_TEXT[src.int(0, len(CARD_TEXT) - 1)])
    if k == 17:
        return SneakyInt(src.int(-2, 60))
    if k <= 23:
        trick = ["self", "raise", "recurse", "clear", "shrink", "grow", "swap", "value"][src.int(0, 7)]
        inner: Any = src.int(0, 51)
        if depth < 3 and src.int(0, 3) == 0:
            inner = scalar(src, depth + 1)             # returns another hostile object
        return Indexer(trick, inner)
    if k == 24:
        return deep(src.int(1, 3000))
    if k == 25:
        return [scalar(src, depth + 1) for _ in range(src.int(0, 3))] if depth < 3 else 0
    if k == 26:
        return SneakyInt(2**70)
    return src.int(0, 51)


def adopt(box: list[Any]) -> list[Any]:
    """Give every mutating item a reference to the list that holds it."""
    for item in box:
        if isinstance(item, Indexer):
            item.container = box
    return box


def sequence(src: Source, length: int, valid: Callable[[], int] | None = None) -> Any:
    """A container of about ``length`` items (cards, amounts or flags), often hostile."""
    n = max(0, length + src.int(-2, 2)) if src.int(0, 4) else src.int(0, 70)
    items = [valid() if valid is not None and src.int(0, 2) else scalar(src) for _ in range(n)]
    k = src.int(0, 14)
    if k <= 5:
        return adopt(items)
    if k == 6:
        return tuple(items)
    if k == 7:
        return iter(items)
    if k == 8:
        return BadIterable(items, src.int(0, max(0, n)))
    if k == 9:
        return [endless(), "AhKs2c3d", b"\x01\x02\x03\x04", None, 5, 2.5, {"a": 1}][src.int(0, 6)]
    if k == 10:
        return SneakyStr("AhKs2c3d")
    if k == 11:
        return array(src, (n,))
    if k == 12:
        return adopt(items + [deep(src.int(0, 5))])
    if k == 13:
        return [items, items[:1]]                       # ragged
    return np.array(items, dtype=object) if src.int(0, 1) else adopt(items)


def array(src: Source, shape: tuple[int, ...]) -> Any:
    """A numpy array near ``shape`` with a random dtype, layout and values."""
    if src.int(0, 5) == 0:
        shape = tuple(max(0, s + src.int(-2, 2)) for s in shape)
    if src.int(0, 6) == 0:
        shape = shape + (src.int(0, 3),)
    if src.int(0, 6) == 0:
        shape = shape[:-1]
    dtype = [np.uint8, np.uint8, np.uint8, np.int64, np.int32, np.int8, np.uint64, np.bool_,
             np.float64, np.int16][src.int(0, 9)]
    size = int(np.prod(shape)) if shape else 1
    if size > 50_000:
        shape, size = (0,), 0
    values = [src.int(0, 51) if src.int(0, 20) else src.int(-300, 300) for _ in range(min(size, 64))]
    flat = np.resize(np.array(values or [0], dtype=np.int64), size)
    arr = flat.astype(dtype, casting="unsafe").reshape(shape)
    k = src.int(0, 6)
    if k == 0 and arr.ndim:
        arr = np.asfortranarray(arr)
    elif k == 1 and arr.ndim and arr.shape[0] > 1:
        arr = arr[::2]
    elif k == 2:
        arr = arr.copy()
        arr.setflags(write=False)
    return arr
