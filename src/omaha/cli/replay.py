"""``omaha replay FILE...``: PHH histories replayed through the engine, with a summary.

Every hand of each ``.phh``/``.phhs`` file is replayed with the checks of live play and its
final stacks compared with its ``finishing_stacks``; the problem hands are printed (every
hand with ``--verbose``). Exit 0 when every hand replays and matches, 1 when a comparison
fails, 2 when a history is invalid (the error goes to stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from omaha.cli.shared import (
    EXIT_INVALID,
    EXIT_MISMATCH,
    EXIT_OK,
    add_progress_options,
    one_line,
    path_name,
)

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Register ``omaha replay``."""
    sub = commands.add_parser(
        "replay",
        help="replay PHH hand histories through the engine",
        description=(
            "Replay .phh hands and .phhs collections through the engine, with the same "
            "legality checks as live play, and compare the final stacks with each hand's "
            "finishing_stacks when it has them. Prints the problem hands (every hand with "
            "--verbose) and a summary: hands, replayed, matched, mismatched, invalid, time."
        ),
        epilog="exit status: 0 all hands replay and match, 1 a finishing_stacks comparison "
        "failed, 2 a history is invalid or an action illegal (error on stderr)",
    )
    sub.add_argument("files", metavar="FILE", nargs="+", type=path_name,
                     help=".phh or .phhs files")
    sub.add_argument(
        "--json",
        action="store_true",
        help='one JSON object per hand: {"file", "hand", "ok", "finishing_stacks", ...}',
    )
    sub.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="print a line for every hand, not only the problem hands",
    )
    add_progress_options(sub)
    sub.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Replay every file's hands; the exit code says the worst outcome."""
    import time

    from omaha.cli.progress import progress_bar
    from omaha.phh import HistoryError, read_histories
    from omaha.phh.replay import replay_history

    started = time.perf_counter()
    tally = _ReplayTally()
    worst = EXIT_OK
    files: list[tuple[str, list[tuple[str | None, Any]]]] = []
    bar = progress_bar(None, enabled=args.progress, description="read")
    try:
        for path in args.files:
            bar.set_description_str(f"read {path}")
            try:
                files.append((path, read_histories(path)))
            except (HistoryError, OSError) as exc:
                worst = max(worst, EXIT_INVALID)
                tally.invalid_files += 1
                unreadable = {"file": path, "hand": None, "ok": False, "finishing_stacks": None}
                _report(args, unreadable, exc)
        bar.total = sum(len(hands) for _, hands in files)
        bar.set_description_str("replay")
        for path, hands in files:
            for name, history in hands:
                tally.hands += 1
                bar.update()
                record: dict[str, Any] = {"file": path, "hand": name}
                try:
                    result = replay_history(history)
                except HistoryError as exc:
                    worst = max(worst, EXIT_INVALID)
                    tally.invalid += 1
                    record.update(ok=False, finishing_stacks=None)
                    _report(args, record, exc.located(hand=name, source=path))
                    continue
                tally.replayed += 1
                checked = history.finishing_stacks is not None
                tally.unchecked += not checked
                tally.matched += checked and result.matches
                record.update(
                    ok=result.matches,
                    finishing_stacks=list(result.finishing_stacks),
                    expected_stacks=list(history.finishing_stacks) if checked else None,
                )
                if not result.matches:
                    worst = max(worst, EXIT_MISMATCH)
                _report(args, record, None)
    finally:
        bar.close()
    if not args.json:
        print(tally.summary(len(args.files), time.perf_counter() - started))
    return worst


class _ReplayTally:
    """Counts for the summary line of ``omaha replay``."""

    def __init__(self) -> None:
        self.hands = self.replayed = self.matched = self.unchecked = 0
        self.invalid = self.invalid_files = 0

    def summary(self, files: int, seconds: float) -> str:
        rate = self.hands / seconds if seconds > 0 else float("inf")
        mismatched = self.replayed - self.matched - self.unchecked
        head = f"{self.hands} hand{'s' * (self.hands != 1)} in {files} file{'s' * (files != 1)}"
        parts = [
            f"{self.replayed} replayed",
            f"{self.matched} matched",
            f"{mismatched} mismatched",
            f"{self.invalid} invalid",
        ]
        if self.unchecked:
            parts.append(f"{self.unchecked} without finishing_stacks")
        if self.invalid_files:
            parts.append(f"{self.invalid_files} unreadable file{'s' * (self.invalid_files > 1)}")
        return f"{head}: {', '.join(parts)}; {seconds:.2f} s, {rate:,.0f} hands/s"


def _report(args: argparse.Namespace, record: dict[str, Any], error: BaseException | None) -> None:
    """One hand's outcome: errors on stderr; mismatches (every hand with --verbose) on stdout."""
    where = record["file"] + ("" if record.get("hand") is None else f" [{record['hand']}]")
    if error is not None:
        message = str(error) if isinstance(error, ValueError) else f"{record['file']}: {error}"
        record["error"] = message
        print(f"omaha replay: error: {one_line(message)}", file=sys.stderr)
    if args.json:
        print(json.dumps(record))
    elif error is None:
        stacks = " ".join(map(str, record["finishing_stacks"]))
        if not record["ok"]:
            expected = " ".join(map(str, record["expected_stacks"]))
            print(f"{where}: MISMATCH, finishing stacks {stacks}, the history says {expected}")
        elif args.verbose:
            print(f"{where}: ok, finishing stacks {stacks}")
