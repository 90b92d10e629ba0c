"""``omaha play --plot``: each seat's cumulative winnings in big blinds, with its 95% band.

Needs matplotlib (the ``[plot]`` extra), imported only when a plot is drawn. The band of a
seat after ``n`` samples is its mean per sample so far, times ``n``, plus or minus 1.96
standard errors of that sum (``1.96 * sd * sqrt(n)``, ``sd`` the seat's sample standard
deviation over the whole session): where the line would lie, were the seat's true mean the
one observed, 95% of the time.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
from collections.abc import Sequence
from typing import Any

__all__ = ["plot_output", "plot_session", "plot_strategy", "require_matplotlib"]


def plot_output(text: str) -> str:
    """``--plot PATH``: a PNG file name in a folder that exists."""
    if not text.lower().endswith(".png"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a .png file name")
    folder = os.path.dirname(text) or "."
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"no folder {folder!r} to write {text!r} in")
    return text


def require_matplotlib() -> Any:
    """``matplotlib.pyplot`` on the file-only Agg backend; ImportError with a one-line hint."""
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        raise ImportError("--plot needs matplotlib: pip install 'omaha-poker[plot]'") from None
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def plot_session(result: Any, big_blind: int, path: str, *, title: str = "") -> None:
    """Draw a :class:`~omaha.game.bots.SessionResult` into the PNG file ``path``."""
    from omaha.game.bots import Z95

    plt = require_matplotlib()
    per_sample = result.hands_per_sample
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=100)
    try:
        for seat in sorted(result.samples):
            samples = [chips / big_blind for chips in result.samples[seat]]
            count = len(samples)
            if not count:
                continue
            xs = [per_sample * (i + 1) for i in range(count)]
            running, ys = 0.0, []
            for value in samples:
                running += value
                ys.append(running)
            mean = running / count
            sd = math.sqrt(sum((v - mean) ** 2 for v in samples) / (count - 1)) if count > 1 \
                else 0.0
            low = [mean * (i + 1) - Z95 * sd * math.sqrt(i + 1) for i in range(count)]
            high = [mean * (i + 1) + Z95 * sd * math.sqrt(i + 1) for i in range(count)]
            (line,) = axes.plot(xs, ys, linewidth=1.2,
                                label=f"seat {seat} ({result.bots[seat]})")
            axes.fill_between(xs, low, high, color=line.get_color(), alpha=0.15, linewidth=0)
        axes.axhline(0, color="grey", linewidth=0.8)
        axes.set_xlabel("hands")
        axes.set_ylabel("cumulative winnings (big blinds)")
        axes.set_title(title or "cumulative winnings, 95% band")
        axes.legend(loc="upper left", fontsize="small")
        figure.tight_layout()
        figure.savefig(path, format="png")
    finally:
        plt.close(figure)


def plot_strategy(rows: Sequence[Any], actions: Sequence[str], path: str, *,
                  title: str = "") -> None:
    """Draw a decision's strategy by hand class (:func:`omaha.solver.classes.by_class`'s
    rows, best class on top) as stacked bars into the PNG file ``path``: each bar one class,
    split by action, labelled with the class's share of the range."""
    plt = require_matplotlib()
    figure, axes = plt.subplots(figsize=(9, 0.45 * len(rows) + 1.8), dpi=100)
    try:
        colours = plt.get_cmap("tab10")
        ys = list(range(len(rows)))[::-1]
        left = [0.0] * len(rows)
        for a, label in enumerate(actions):
            widths = [row.frequencies[a] for row in rows]
            axes.barh(ys, widths, left=left, color=colours(a % 10), label=label, height=0.7)
            left = [x + w for x, w in zip(left, widths)]
        axes.set_yticks(ys, [f"{row.label} ({row.share:.0%})" for row in rows])
        axes.set_xlim(0, 1)
        axes.set_xlabel("share of the class's hands (weighted by reach)")
        axes.set_title(title or "strategy by hand class", fontsize="medium")
        axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small",
                    frameon=False)
        figure.tight_layout()
        figure.savefig(path, format="png")
    finally:
        plt.close(figure)
