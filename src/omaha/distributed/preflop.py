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
from collections.abc import Callable, Sequence
from typing import Any

from omaha.distributed.runner import run_chunks
from omaha.errors import ConfigError

__all__ = ["COLUMNS", "build_table", "equity_chunk", "standard_error_bound", "write_table"]

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
    from omaha import equity  # type: ignore[attr-defined, unused-ignore]
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

    ``classes`` defaults to the representatives of :func:`omaha.preflop.classes`; with
    ``ray`` the chunks of ``chunk_classes`` classes run as Ray tasks.
    """
    if classes is None:
        from omaha import preflop  # type: ignore[attr-defined, unused-ignore]
        from omaha.cards import format_cards

        classes = [format_cards(hand) for hand, _ in preflop.classes()]
    if type(samples) is not int or samples < 1:
        raise ConfigError(None, f"samples must be a positive int, got {samples!r}")
    if type(seed) is not int or seed < 0:
        raise ConfigError(None, f"seed must be a non-negative int, got {seed!r}")
    if not opponents or any(type(n) is not int or not 1 <= n <= 9 for n in opponents):
        raise ConfigError("T1", f"opponents must be counts in 1..9, got {opponents!r}")
    hands = list(classes)
    chunks = [(i, hands[i:i + chunk_classes], tuple(opponents), samples, seed)
              for i in range(0, len(hands), chunk_classes)]
    parts = run_chunks(equity_chunk, chunks, ray=ray, address=address, num_cpus=num_cpus,
                       on_result=on_chunk)
    return [row for part in parts for row in part]


def write_table(rows: Sequence[Row], path: str) -> None:
    """Write the rows as CSV with a header (equities and standard errors to 5 decimals)."""
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for hand, n, *values in rows:
            writer.writerow((hand, n, *(f"{v:.5f}" for v in values)))
