"""``omaha replay FILE...``: PHH histories replayed through the engine, with a summary.

Every hand of each ``.phh``/``.phhs`` file is replayed with the checks of live play and its
final stacks compared with its ``finishing_stacks``; the problem hands are printed (every
hand with ``--verbose``). Exit 0 when every hand replays and matches, 1 when a comparison
fails, 2 when a history is invalid (the error goes to stderr).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from omaha.cli.shared import (
    EXIT_INVALID,
    EXIT_MISMATCH,
    EXIT_OK,
    add_progress_options,
    one_line,
    path_name,
)

if TYPE_CHECKING:
    from omaha.phh.corpus import HandReport

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Register ``omaha replay``."""
    sub = commands.add_parser(
        "replay",
        help="replay PHH hand histories through the engine",
        description=(
            "Replay .phh hands and .phhs collections through the engine, hand by hand, with "
            "the same legality checks as live play, and compare the final stacks with each "
            "hand's finishing_stacks when it has them. Each hand gets its own result "
            "(matched, mismatched, replayed, unevaluable, invalid) and the files go on. "
            "Prints the problem hands (every hand with --verbose) and a summary."
        ),
        epilog="exit status: 0 every hand replays (matched, nothing to compare, "
        "unevaluable or an unsupported game), 1 a finishing_stacks comparison failed, 2 a file or hand is invalid "
        "(its error on stderr)",
    )
    sub.add_argument("files", metavar="FILE", nargs="+", type=path_name,
                     help=".phh or .phhs files")
    sub.add_argument("-j", "--jobs", type=_jobs, default=1, metavar="N",
                     help="replay in N processes (0: one per core; default 1); output stays in "
                     "input order")
    output = sub.add_mutually_exclusive_group()
    output.add_argument(
        "--json",
        action="store_true",
        help='one JSON object per hand: {"file", "hand", "ok", "result", "finishing_stacks", '
        '"expected_stacks", "error"}, amounts in the file\'s units',
    )
    output.add_argument("--verbose", "-v", action="store_true",
                        help="print a line for every hand, not only the problem hands")
    output.add_argument("--quiet", "-q", action="store_true",
                        help="print only the summary (errors still go to stderr)")
    add_progress_options(sub)
    sub.set_defaults(run=run)


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        jobs = -1
    if jobs < 0:
        raise argparse.ArgumentTypeError(f"expected a number of processes (0: all cores), got {text!r}")
    return jobs


def run(args: argparse.Namespace) -> int:
    """Replay every file's hands; the exit code says the worst outcome."""
    import time

    from omaha.cli.progress import progress_bar
    from omaha.phh.corpus import replay_files

    for path in args.files:   # a path that is no file: one line, nothing replayed
        if not os.path.isfile(path):
            what = "a directory" if os.path.isdir(path) else "no such file"
            shown = path if path.isprintable() else repr(path)
            print(f"omaha replay: error: {shown}: {what}", file=sys.stderr)
            return 2
    started = time.perf_counter()
    tally = _ReplayTally()
    bar = progress_bar(None, enabled=args.progress, description="replay")
    try:
        for report in replay_files(args.files, jobs=args.jobs):
            bar.update()
            tally.add(report)
            _report(args, report)
    finally:
        bar.close()
    if not args.json:
        print(tally.summary(len(args.files), time.perf_counter() - started))
    if tally.counts["invalid"] or tally.unreadable:
        return EXIT_INVALID
    return EXIT_MISMATCH if tally.counts["mismatched"] else EXIT_OK


class _ReplayTally:
    """Counts for the summary line of ``omaha replay``."""

    def __init__(self) -> None:
        from omaha.phh.corpus import RESULTS

        self.counts = dict.fromkeys(RESULTS, 0)
        self.unreadable = 0

    def add(self, report: HandReport) -> None:
        if report.unreadable:
            self.unreadable += 1
        else:
            self.counts[report.result] += 1

    def summary(self, files: int, seconds: float) -> str:
        counts = self.counts
        hands = sum(counts.values())
        rate = hands / seconds if seconds > 0 else float("inf")
        replayed = counts["matched"] + counts["mismatched"] + counts["replayed"]
        head = f"{hands} hand{'s' * (hands != 1)} in {files} file{'s' * (files != 1)}"
        parts = [
            f"{replayed} replayed",
            f"{counts['matched']} matched",
            f"{counts['mismatched']} mismatched",
            f"{counts['invalid']} invalid",
        ]
        for result in ("unevaluable", "unsupported"):
            if counts[result]:
                parts.append(f"{counts[result]} {result}")
        if counts["replayed"]:
            parts.append(f"{counts['replayed']} without finishing_stacks")
        if self.unreadable:
            parts.append(f"{self.unreadable} unreadable file{'s' * (self.unreadable > 1)}")
        return f"{head}: {', '.join(parts)}; {seconds:.2f} s, {rate:,.0f} hands/s"


def _report(args: argparse.Namespace, report: HandReport) -> None:
    """One hand's outcome: errors on stderr; mismatches (every hand with --verbose) on stdout."""
    if report.error is not None:
        label = "error" if report.result == "invalid" else report.result
        print(f"omaha replay: {label}: {one_line(report.error)}", file=sys.stderr)
    if args.json:
        print(report.to_json())
        return
    if args.quiet or report.error is not None:
        return
    where = report.file + ("" if report.hand is None else f" [{report.hand}]")
    stacks = " ".join(map(_amount, report.finishing_stacks or ()))
    if report.result == "mismatched":
        expected = " ".join(map(_amount, report.expected_stacks or ()))
        print(f"{where}: MISMATCH, finishing stacks {stacks}, the history says {expected}")
    elif args.verbose:
        print(f"{where}: ok, finishing stacks {stacks}")


def _amount(value: object) -> str:
    return "inf" if isinstance(value, float) else str(value)
