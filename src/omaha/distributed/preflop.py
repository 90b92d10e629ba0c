"""The preflop equity table of 4-card Omaha: every suit-isomorphic starting hand (16,432
classes) with its equity against 1..5 random hands, high (Omaha High) and hi/lo (Omaha
Hi/Lo 8-or-better, the share of the pot won), computed with the package's equity engine
(:func:`omaha.equity`), in chunks of classes, locally or on Ray.

Each estimate is a Monte Carlo mean over ``samples`` deals of a share in [0, 1], so its
standard error is at most ``0.5 / sqrt(samples)`` (:func:`standard_error_bound`; 0.005 at
10,000 samples); the engine's own standard error of each value is kept beside it. Each
(class, opponent count) has its own seed, so the table is the same however it is chunked
and however many workers compute it.

>>> round(standard_error_bound(10_000), 4)
0.005
"""

from __future__ import annotations

import csv
import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from omaha.analysis.preflop import DATA_FILE, MAGIC, class_of, load_table, shipped_table
from omaha.distributed.runner import run_chunks
from omaha.errors import ConfigError, ConfigTypeError, OmahaError
from omaha.limits import as_int, safe_repr

__all__ = ["COLUMNS", "DATA_FILE", "build_table", "equity_chunk", "load_table",
           "preflop_equity", "standard_error_bound", "write_binary", "write_table"]

COLUMNS = ("hand", "opponents", "high", "high_se", "hilo", "hilo_se")
Row = tuple[str, int, float, float, float, float]


def standard_error_bound(samples: int) -> float:
    """The largest standard error of a mean of ``samples`` shares in [0, 1]."""
    return 0.5 / math.sqrt(samples)


def equity_chunk(first: int, hands: Sequence[str], opponents: Sequence[int], samples: int,
                 seed: int) -> list[Row]:
    """One task: the high and hi/lo equity of each hand against 1..n random hands.

    Hand ``first + i`` against ``n`` opponents is sampled with seed
    ``(seed * 16_432 + first + i) * 10 + n`` (C2: reproducible whatever the chunking).
    """
    from omaha.analysis.equity import equity
    from omaha.config import OMAHA_HIGH, OMAHA_HILO

    rows = []
    for i, hand in enumerate(hands):
        for n in opponents:
            entries = [hand, *["****"] * n]
            where = ((seed * 16_432 + first + i) * 10 + n)
            high = equity(entries, samples=samples, seed=where, variant=OMAHA_HIGH, exact=False)
            hilo = equity(entries, samples=samples, seed=where, variant=OMAHA_HILO, exact=False)
            rows.append((hand, n, float(high.equity[0]), float(high.std_error[0]),
                         float(hilo.equity[0]), float(hilo.std_error[0])))
    return rows


def build_table(*, classes: Sequence[str] | None = None, opponents: Sequence[int] = (1, 2, 3, 4, 5),
                samples: int = 10_000, seed: int = 0, chunk_classes: int = 128,
                ray: bool = False, address: str | None = None, num_cpus: int | None = None,
                on_chunk: Callable[[int, Any], None] | None = None) -> list[Row]:
    """The table's rows ``(hand, opponents, high, high_se, hilo, hilo_se)``, class by class.

    ``classes`` defaults to the representatives of :func:`omaha.analysis.preflop.classes`; with
    ``ray`` the chunks of ``chunk_classes`` classes run as Ray tasks.
    """
    if classes is None:
        from omaha.analysis import preflop
        from omaha.cards import format_cards

        classes = [format_cards(hand) for hand, _ in preflop.classes()]
    samples = as_int(samples, "samples", low=1, high=2**32 - 1, error=ConfigError)  # uint32 in the file
    seed = as_int(seed, "seed", low=0, error=ConfigError)
    counts = tuple(as_int(n, "opponents", low=1, high=9, error=ConfigError, rule="T1")
                   for n in _listed(opponents, "opponents", "counts 1..9"))
    if not counts:
        raise ConfigError("T1", "opponents must list at least one count (1..9)")
    chunk_classes = as_int(chunk_classes, "chunk_classes", low=1, error=ConfigError)
    hands = [_hand(hand, i) for i, hand in enumerate(_listed(classes, "classes", "hands"))]
    if ray:
        from omaha.distributed.simulate import _check_tasks

        _check_tasks(-(-len(hands) // chunk_classes), "chunk_classes")
    chunks = [(i, hands[i:i + chunk_classes], counts, samples, seed)
              for i in range(0, len(hands), chunk_classes)]
    parts = run_chunks(equity_chunk, chunks, ray=ray, address=address, num_cpus=num_cpus,
                       on_result=on_chunk)
    return [row for part in parts for row in part]


def _listed(value: object, what: str, of: str) -> list[Any]:
    """``value`` as a list, refusing text, bytes, mappings and non-iterables (a string where
    a list goes would be read one character at a time)."""
    if isinstance(value, (str, bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        raise ConfigTypeError(None, f"{what} must be a list of {of}, got "
                              f"{type(value).__name__} {safe_repr(value)}")
    return list(value)


def _hand(value: object, index: int) -> str:
    """``classes[index]``: a 4-card hand, as its text."""
    from omaha.cards import parse_cards

    if not isinstance(value, str):
        raise ConfigTypeError(None, f"classes[{index}] must be a hand as text, got "
                              f"{type(value).__name__} {safe_repr(value)}")
    try:
        cards = parse_cards(value)
    except OmahaError as exc:
        raise ConfigError(None, f"classes[{index}]: {exc}") from None
    if len(cards) != 4:
        raise ConfigError(None, f"classes[{index}] must be a 4-card hand, got {len(cards)} "
                          f"cards in {safe_repr(value)}")
    return value


def write_table(rows: Sequence[Row], path: str) -> None:
    """Write the rows as CSV with a header (equities and standard errors to 5 decimals)."""
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for hand, n, *values in rows:
            writer.writerow((hand, n, *(f"{v:.5f}" for v in values)))


def write_binary(rows: Sequence[Row], path: str, samples: int) -> None:
    """The table as package data, in the format :func:`omaha.analysis.preflop.load_table` reads: a
    header (magic, classes, samples, opponent counts) and, per opponent count, the high then
    the hi/lo equity of every class as uint16 / 65535.

    ``rows`` must be :func:`build_table`'s, for every class and opponents ``1..K``.
    """
    import array
    import sys

    samples = as_int(samples, "samples", low=1, high=2**32 - 1, error=ConfigError)  # uint32
    rows = _listed(rows, "rows", "build_table rows")
    for i, row in enumerate(rows):       # what load_table would refuse is never written
        if not isinstance(row, (tuple, list)) or len(row) != len(COLUMNS):
            raise ConfigTypeError(None, f"rows[{i}] must be a row {COLUMNS}, got "
                                  f"{safe_repr(row)}")
        as_int(row[1], f"rows[{i}] opponents", low=1, high=9, error=ConfigError)
        for value in (row[2], row[4]):
            if not isinstance(value, numbers.Real) or isinstance(value, bool) \
                    or not 0.0 <= float(value) <= 1.0:     # NaN fails the comparison too
                raise ConfigError(None, f"rows[{i}]: an equity must be a number in [0, 1], "
                                  f"got {safe_repr(value)}")
    counts = sorted({n for _, n, *_ in rows})
    if not counts:
        raise ConfigError(None, "the binary table needs at least one row")
    classes = len(rows) // len(counts)
    if counts != list(range(1, len(counts) + 1)) or classes * len(counts) != len(rows):
        raise ConfigError(None, "the binary table needs every class at opponents 1..K")
    by_count = {n: ([0] * classes, [0] * classes) for n in counts}
    for i, (_, n, high, _, hilo, _) in enumerate(rows):
        column = by_count[n]
        column[0][i // len(counts)] = round(high * 65535)
        column[1][i // len(counts)] = round(hilo * 65535)
    header = array.array("I", [classes, samples, len(counts)])
    body = array.array("H")
    for n in counts:
        body.extend(by_count[n][0])
        body.extend(by_count[n][1])
    if sys.byteorder == "big":
        header.byteswap()
        body.byteswap()
    with open(path, "wb") as out:
        out.write(MAGIC + header.tobytes() + body.tobytes())


def preflop_equity(hand: str, opponents: int = 1, *, hilo: bool = True) -> float:
    """A 4-card hand's equity against ``opponents`` (1-5) random hands, from the shipped
    table: Omaha Hi/Lo pot share (``hilo``) or Omaha High equity.

    >>> round(preflop_equity("AcAdKcKd", 1, hilo=False), 2), round(preflop_equity("AcAd2c3d", 3), 2)
    (0.7, 0.49)
    """
    values = shipped_table()
    opponents = as_int(opponents, "opponents", low=1, high=values.shape[0], error=ConfigError,
                       rule="T1")
    return float(values[opponents - 1, 1 if hilo else 0, class_of(hand)])
