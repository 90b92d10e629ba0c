"""The 4-card Omaha preflop ordering behind ``top N%`` ranges (see ``docs/ranges.md``).

Every 4-card starting hand belongs to one of 16,432 suit-isomorphic classes (hands equal up
to renaming suits). Each class is ranked by its equity against one random hand, hi/lo
(Omaha 8-or-better) and high-only (Omaha High). The values come from the one shipped preflop
table, ``omaha/data/preflop4_vs1-5.bin`` (:data:`DATA_FILE`: every class against 1 to 5
random hands, computed with this package's own equity engine by ``tools/preflop_table.py``
or ``omaha preflop-table --binary``); the ordering reads its one-opponent column.

>>> reps = classes()
>>> len(reps), sum(m for _, m in reps)
(16432, 270725)
>>> from omaha.cards import format_cards
>>> format_cards(ordering(hilo=True)[0][0]), format_cards(ordering(hilo=False)[0][0])
('2c3dAcAd', 'QcQdAcAd')
>>> len(top_hands(1.0, hilo=True)) >= 2707
True
"""

from __future__ import annotations

import array
import itertools
import numbers
import os
import sys
from functools import lru_cache
from importlib import resources
from itertools import permutations

import numpy as np

from omaha.cards import DECK, Card
from omaha.errors import ConfigError, ConfigTypeError, OmahaError, OmahaTypeError
from omaha.limits import safe_repr

__all__ = ["CLASSES", "DATA_FILE", "HANDS", "MAGIC", "class_of", "classes", "equities",
           "load_table", "ordering", "shipped_table", "top_hands"]

CLASSES = 16_432
HANDS = 270_725
DATA_FILE = "data/preflop4_vs1-5.bin"
"""The one shipped preflop table (package data of ``omaha``; see :func:`load_table`)."""
MAGIC = b"OMPFN1\n"
"""The first bytes of a preflop table file; then uint32 classes, samples, opponent counts."""


@lru_cache(maxsize=1)
def _table() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(hands (N, 4), their class index, class codes, class multiplicities)."""
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 4)),
                       dtype=np.int64, count=4 * HANDS)
    hands = flat.reshape(HANDS, 4)
    best = None
    for perm in permutations(range(4)):
        mapped = (hands & ~3) | np.array(perm)[hands & 3]
        mapped.sort(axis=1)
        code = ((mapped[:, 0] * 52 + mapped[:, 1]) * 52 + mapped[:, 2]) * 52 + mapped[:, 3]
        best = code if best is None else np.minimum(best, code)
    assert best is not None
    codes, index, counts = np.unique(best, return_inverse=True, return_counts=True)
    return hands.astype(np.uint8), index.astype(np.int32), codes, counts


def _decode(code: int) -> tuple[Card, ...]:
    out = []
    for _ in range(4):
        code, c = divmod(code, 52)
        out.append(DECK[c])
    return tuple(reversed(out))


def classes() -> list[tuple[tuple[Card, ...], int]]:
    """The 16,432 classes as ``(representative, multiplicity)``: the representative is the
    class's smallest hand after renaming suits; multiplicities sum to 270,725."""
    _, _, codes, counts = _table()
    return [(_decode(int(c)), int(m)) for c, m in zip(codes, counts)]


def class_of(hand: object) -> int:
    """Index into :func:`classes` of a 4-card hand."""
    from omaha.cards import parse_cards
    cards = sorted(int(c) for c in parse_cards(hand))  # type: ignore[arg-type]
    if len(cards) != 4:
        raise OmahaError(f"a 4-card Omaha hand is needed, got {len(cards)} cards")
    best = min(tuple(sorted((c & ~3) | p[c & 3] for c in cards)) for p in permutations(range(4)))
    code = ((best[0] * 52 + best[1]) * 52 + best[2]) * 52 + best[3]
    _, _, codes, _ = _table()
    return int(np.searchsorted(codes, code))


def load_table(path: str | bytes | os.PathLike[str] | None = None) -> tuple[int, np.ndarray]:
    """``(samples, equities)``: ``equities[n - 1, hilo, class]`` as float64, each class's
    equity against ``n`` random hands (``hilo`` 0 for Omaha High, 1 for Hi/Lo; classes
    indexed as :func:`classes`), each value a mean over ``samples`` deals.

    ``path`` defaults to the shipped :data:`DATA_FILE`. Validated, never trusted: after
    :data:`MAGIC`, uint32 ``classes, samples, counts``, then per opponent count the high and
    the hi/lo equity of every class as uint16 / 65535 (little-endian). A file with the wrong
    magic, truncated or too long, with 0 or more than 16,432 classes, 0 samples, or an
    opponent count outside 1..9 is refused with a :class:`~omaha.errors.ConfigError` (at
    most :data:`MAX_TABLE_BYTES` are read); every value is in [0, 1] by construction.

    >>> samples, values = load_table()
    >>> samples, values.shape
    (10000, (5, 2, 16432))
    """
    if path is None:
        raw = resources.files("omaha").joinpath(DATA_FILE).read_bytes()
    else:
        if not isinstance(path, (str, bytes, os.PathLike)):   # an int would be read as an fd
            raise ConfigTypeError(None, f"path must be a file name (str or os.PathLike), got "
                                  f"{type(path).__name__} {safe_repr(path)}")
        with open(path, "rb") as source:      # never more than the largest valid table
            raw = source.read(MAX_TABLE_BYTES + 1)
    return _parse_table(raw)


MAX_TABLE_BYTES = len(MAGIC) + 12 + 2 * 2 * 9 * CLASSES
"""The largest valid table: every class, high and hi/lo, against 1 to 9 opponents."""


def _parse_table(raw: bytes) -> tuple[int, np.ndarray]:
    """A table's bytes checked field by field (magic, header, sizes, counts), then read."""
    start = len(MAGIC) + 12
    if not raw.startswith(MAGIC):
        raise ConfigError(None, "not a preflop equity table (wrong magic bytes)")
    if len(raw) < start:
        raise ConfigError(None, f"the preflop equity table is truncated: {len(raw)} bytes, "
                          f"the header alone is {start}")
    if len(raw) > MAX_TABLE_BYTES:
        raise ConfigError(None, f"the preflop equity table is longer than the largest valid "
                          f"one ({MAX_TABLE_BYTES} bytes)")
    header = array.array("I", raw[len(MAGIC):start])
    if sys.byteorder == "big":
        header.byteswap()
    classes, samples, counts = header
    if not 1 <= classes <= CLASSES:
        raise ConfigError(None, f"the preflop equity table lists {classes} classes; "
                          f"1 to {CLASSES} are possible")
    if samples < 1:
        raise ConfigError(None, "the preflop equity table says its values are means over "
                          "0 samples")
    if not 1 <= counts <= 9:
        raise ConfigError(None, f"the preflop equity table has {counts} opponent counts; "
                          "1 to 9 are possible")
    expected = start + 2 * 2 * counts * classes
    if len(raw) != expected:
        raise ConfigError(None, f"the preflop equity table has the wrong size: {len(raw)} "
                          f"bytes, its header says {expected}")
    body = array.array("H", raw[start:])
    if sys.byteorder == "big":
        body.byteswap()
    values = np.array(body, dtype=np.float64).reshape(counts, 2, classes) / 65535.0
    return samples, values


@lru_cache(maxsize=1)
def shipped_table() -> np.ndarray:
    """The shipped table's equities, read once (``equities[n - 1, hilo, class]``)."""
    values = load_table()[1]
    if values.shape[2] != CLASSES:
        raise ConfigError(None, f"{DATA_FILE} has {values.shape[2]} classes, not {CLASSES}")
    return values


def equities(hilo: bool = True) -> np.ndarray:
    """Each class's equity against one random hand (index as :func:`classes`), to 1/65535."""
    column: np.ndarray = shipped_table()[0, 1 if hilo else 0].copy()
    return column


@lru_cache(maxsize=2)
def _order(hilo: bool) -> np.ndarray:
    eq = equities(hilo)
    return np.lexsort((np.arange(CLASSES), -eq))


def ordering(hilo: bool = True) -> list[tuple[tuple[Card, ...], int]]:
    """:func:`classes` from best to worst against one random hand."""
    reps = classes()
    return [reps[i] for i in _order(hilo)]


def top_hands(percent: float, hilo: bool = True) -> frozenset[int]:
    """Card bit masks of the best classes covering at least ``percent`` % of all hands
    (whole classes: the class that crosses the line is included).

    ``percent`` is a real number (an int or float, NumPy's included; not a bool) in
    (0, 100]: another type is an :class:`~omaha.errors.OmahaTypeError` naming it.
    """
    if isinstance(percent, (bool, np.bool_)) or not isinstance(percent, numbers.Real):
        raise OmahaTypeError(f"percent must be a number in (0, 100], got {safe_repr(percent)}")
    value = float(percent)
    if not 0 < value <= 100:
        raise OmahaError(f"percent must be in (0, 100], got {safe_repr(percent)}")
    return _top_hands(value, bool(hilo))


@lru_cache(maxsize=64)
def _top_hands(percent: float, hilo: bool) -> frozenset[int]:
    hands, index, _, counts = _table()
    order = _order(hilo)
    covered = np.cumsum(counts[order])
    n = int(np.searchsorted(covered, percent / 100 * HANDS - 1e-9)) + 1
    chosen = np.zeros(CLASSES, dtype=bool)
    chosen[order[:n]] = True
    picked = hands[chosen[index]].astype(np.uint64)
    one = np.uint64(1)
    masks = (one << picked[:, 0]) | (one << picked[:, 1]) | (one << picked[:, 2]) | (one << picked[:, 3])
    return frozenset(int(m) for m in masks)
