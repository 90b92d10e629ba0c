"""The ``omaha`` command line (also ``python -m omaha``).

Commands:

* ``omaha replay FILE...`` — replay ``.phh``/``.phhs`` histories through the engine and
  print a summary and the problem hands (every hand with ``--verbose``). Exit 0 when every
  hand replays and matches its ``finishing_stacks``, 1 when a comparison fails, 2 when a
  history is invalid (the error goes to stderr).
* ``omaha play`` — a table of built-in bots for N hands, every stack starting every hand at
  the starting stack (optionally in duplicate), a progress bar on a terminal, a summary
  (hands/s, each seat's bb/100 with a 95% confidence interval), optionally every hand
  written as PHH.
* ``omaha eval HOLE BOARD`` — the high and low of one Omaha hand with the cards used.

Usage errors exit 2, as argparse does. Heavy modules (the engine, NumPy) are imported only
by the command that needs them, so ``omaha --help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from omaha.cli_args import add_variant, game_config
from omaha.cli_args import non_negative as _non_negative
from omaha.cli_args import pair as _pair
from omaha.cli_args import players as _players
from omaha.cli_args import positive as _positive

__all__ = ["EXIT_INVALID", "EXIT_MISMATCH", "EXIT_OK", "build_parser", "main"]

EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_INVALID = 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_INVALID
    try:
        code: int = args.run(args)
    except BrokenPipeError:  # e.g. `omaha replay --json ... | head`
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        print("omaha: interrupted", file=sys.stderr)
        return 130
    return code


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = argparse.ArgumentParser(
        prog="omaha",
        description="Omaha poker: replay PHH hand histories, run bot tables, evaluate hands.",
    )
    parser.add_argument("--version", action=_VersionAction)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_replay(commands)
    _add_play(commands)
    _add_eval(commands)
    from omaha.cli_arena import add_parsers as _add_arena  # serve, bots, export
    _add_arena(commands)
    from omaha import cli_equity
    cli_equity.add_parser(commands)
    from omaha import cli_scale  # omaha simulate, omaha preflop-table (issue 15)

    cli_scale.add_parser(commands)
    return parser


class _VersionAction(argparse.Action):
    """``--version``: the package's version (written once, in ``omaha/_version.py``)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from omaha._version import __version__

        print(f"omaha {__version__}")  # on stdout, as argparse's own version action does
        parser.exit()


# ---------------------------------------------------------------- omaha eval


def _add_eval(commands: Any) -> None:
    sub = commands.add_parser(
        "eval",
        help="the high and low of an Omaha hand",
        description=(
            "Evaluate an Omaha hand: exactly 2 of the 4-6 hole cards with exactly 3 of the "
            "3-5 board cards (rule C3). Prints the best high and the best 8-or-better low "
            "(rule C5), each with the five cards used."
        ),
        epilog="example: omaha eval AhKh2c3d QhJhTh4s5s",
    )
    sub.add_argument("hole", metavar="HOLE", help="hole cards, e.g. AhKh2c3d")
    sub.add_argument("board", metavar="BOARD", help="board cards, e.g. QhJhTh4s5s")
    sub.add_argument("--json", action="store_true", help="print one JSON object (ASCII cards)")
    symbols = sub.add_mutually_exclusive_group()
    symbols.add_argument("--symbols", dest="symbols", action="store_true", default=None,
                         help="print suits as symbols (A♠ K♥); the default on a terminal that "
                         "can show them")
    symbols.add_argument("--ascii", dest="symbols", action="store_false",
                         help="print suits as letters (As Kh), the default when piped")
    sub.set_defaults(run=_run_eval)


def _run_eval(args: argparse.Namespace) -> int:
    from omaha.evaluation import describe
    from omahacore.cards import format_cards, parse_cards
    from omahacore.errors import OmahaError
    from omahacore.evaluator import best_hand, evaluate_hilo

    try:
        hole, board = parse_cards(args.hole), parse_cards(args.board)
        high, low = evaluate_hilo(hole, board)
        high_cards, low_cards = best_hand(hole, board)
    except OmahaError as exc:
        return _fail("eval", exc)
    high_words = describe(high)
    low_words = None if low_cards is None else describe(low, low=True)
    if args.json:
        result = {
            "high": {
                "strength": high,
                "description": high_words,
                "cards": format_cards(high_cards),
            },
            "low": None
            if low_cards is None
            else {"strength": low, "description": low_words, "cards": format_cards(low_cards)},
        }
        print(json.dumps(result))
        return EXIT_OK
    symbols = _symbols_wanted(args.symbols, sys.stdout)
    print(f"high: {high_words} ({_used(high_cards, format_cards, symbols)})")
    if low_cards is None:
        print("low:  none (no 8-or-better low)")
    else:
        print(f"low:  {low_words} ({_used(low_cards, format_cards, symbols)})")
    return EXIT_OK


def _symbols_wanted(asked: bool | None, stream: TextIO) -> bool:
    """Suit symbols when asked, else when ``stream`` is a terminal whose encoding has them."""
    if asked is not None:
        return asked
    try:
        "♠♥♦♣".encode(stream.encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return stream.isatty()


def _used(cards: Sequence[int], format_cards: Any, symbols: bool) -> str:
    """Five cards as "hole + board" (best_hand puts the 2 hole cards first)."""
    return (f"{format_cards(cards[:2], symbols=symbols)} + "
            f"{format_cards(cards[2:], symbols=symbols)}")


# ---------------------------------------------------------------- omaha replay


def _add_replay(commands: Any) -> None:
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
    sub.add_argument("files", metavar="FILE", nargs="+", help=".phh or .phhs files")
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
    _add_progress_options(sub)
    sub.set_defaults(run=_run_replay)


def _run_replay(args: argparse.Namespace) -> int:
    import time

    from omaha.phh import HistoryError, read_histories
    from omaha.phh.replay import replay_history
    from omaha.progress import progress_bar

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
        print(f"omaha replay: error: {message}", file=sys.stderr)
    if args.json:
        print(json.dumps(record))
    elif error is None:
        stacks = " ".join(map(str, record["finishing_stacks"]))
        if not record["ok"]:
            expected = " ".join(map(str, record["expected_stacks"]))
            print(f"{where}: MISMATCH, finishing stacks {stacks}, the history says {expected}")
        elif args.verbose:
            print(f"{where}: ok, finishing stacks {stacks}")


# ---------------------------------------------------------------- omaha play


def _add_play(commands: Any) -> None:
    sub = commands.add_parser(
        "play",
        help="run a table of built-in bots",
        description=(
            "Play N hands at a table of built-in bots (random, and a simple hand-strength "
            "bot) in any variant and betting structure, then print each seat's result in big "
            "blinds per 100 hands with a 95%% confidence interval. Scored the way bot matches "
            "are: every stack starts every hand at the starting stack (winnings are banked, "
            "losses covered) and the button moves one seat each hand."
        ),
        epilog="example: omaha play --variant plo8 --players 6 --hands 10000 --phh hands.phhs",
    )
    add_variant(sub, default="PO")
    sub.add_argument(
        "--hands", "-n", type=_positive, default=1000, help="hands to play (default 1000)"
    )
    sub.add_argument("--players", "-p", type=_players, default=6, help="players, 2-10 (default 6)")
    sub.add_argument(
        "--bots",
        default="strength,random",
        help="comma-separated bot kinds (random, strength), repeated round the table "
        "(default strength,random)",
    )
    sub.add_argument(
        "--stack", type=_positive, default=None, help="starting stack (default 100 big blinds)"
    )
    sub.add_argument(
        "--blinds", type=_pair, default=None, help="SB/BB in pot- and no-limit (default 1/2)"
    )
    sub.add_argument(
        "--stakes", type=_pair, default=None, help="small/big bet in fixed limit (default 2/4)"
    )
    sub.add_argument(
        "--ante", type=_non_negative, default=0, help="ante each player posts (default 0)"
    )
    sub.add_argument(
        "--seed", type=int, default=None, help="seed the shuffle and bots (default: OS RNG)"
    )
    sub.add_argument(
        "--duplicate",
        action="store_true",
        help="duplicate mode: play each shuffled deal once per seat, the bots moving one "
        "seat clockwise between replays, so every bot plays every seat's cards and the luck "
        "of the deal cancels out (--hands is rounded up to a multiple of --players)",
    )
    sub.add_argument(
        "--phh",
        metavar="PATH",
        default=None,
        help="write every hand: FILE.phhs, or a directory of .phh files",
    )
    sub.add_argument(
        "--pokerkit",
        action="store_true",
        help="with --phh: write standard variant codes PokerKit reads (PO/8 as PO, FO as FO/8, "
        "PT as NT, the real code in _variant); refused for games without one",
    )
    sub.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="play the hands as Ray tasks (the 'ray' extra): a new local cluster, or the one at "
        "ADDRESS (e.g. auto); merged exactly; --phh then names a folder of shards",
    )
    _add_progress_options(sub)
    sub.add_argument("--json", action="store_true", help="print the summary as JSON")
    sub.set_defaults(run=_run_play)


def _run_play(args: argparse.Namespace) -> int:
    import random
    import time

    from omaha.bots import BOTS, play_session
    from omaha.errors import OmahaError
    from omaha.phh import variant_for_name
    from omaha.progress import progress_bar

    try:
        config = game_config(args.variant, blinds=args.blinds, stakes=args.stakes, ante=args.ante)
        game = variant_for_name(args.variant)   # its PHH code, for --phh and the summary
    except (OmahaError, ValueError) as exc:
        return _fail("play", exc)
    kinds = [kind.strip() for kind in args.bots.split(",")]
    unknown = sorted(set(kinds) - set(BOTS))
    if unknown or not kinds:
        return _fail("play", f"unknown bot {unknown[0]!r}; choose from {', '.join(BOTS)}")
    if args.players > config.variant.max_players:
        return _fail(
            "play",
            f"{config.variant.name} seats at most {config.variant.max_players} players "
            "(one deck, rule C1)",
        )
    if args.ray is not None:
        from omaha.cli_scale import run_on_ray

        return run_on_ray(args, config, kinds)
    bots = [BOTS[kinds[i % len(kinds)]]() for i in range(args.players)]
    stack = _stack(args, config)
    if args.pokerkit and game.code not in _pokerkit_codes():
        return _fail("play", f"--pokerkit: {game.code} ({game.name}) has no PHH standard "
                     f"code PokerKit reads; use one of {', '.join(_pokerkit_codes())}")
    writer = _PhhWriter(args.phh, compatible=args.pokerkit) if args.phh else None
    hands = args.hands
    if args.duplicate:
        hands = -(-hands // args.players) * args.players
    bar = progress_bar(hands, enabled=args.progress, description="play")
    rng = random.Random(args.seed) if args.seed is not None else None

    def on_hand(hand: Any) -> None:
        if writer is not None:
            writer.write(hand)
        bar.update()

    started = time.perf_counter()
    try:
        result = play_session(
            config,
            bots,
            hands=hands,
            stack=stack,
            rng=rng,
            on_hand=on_hand,
            duplicate=args.duplicate,
        )
    finally:
        bar.close()
        if writer is not None:
            writer.close()
    seconds = time.perf_counter() - started
    _print_summary(args, game.code, config, result, seconds)
    return EXIT_OK


def _pokerkit_codes() -> list[str]:
    from omaha.phh import PORTABLE_CODES, STANDARD_CODES

    return sorted(STANDARD_CODES | set(PORTABLE_CODES))


class _PhhWriter:
    """Writes each finished hand: appended to a .phhs file, or one .phh file each in a folder."""

    def __init__(self, path: str, *, compatible: bool = False) -> None:
        import os

        self.compatible = compatible
        self.count = 0
        self.collection = path.endswith(".phhs")
        self.path = path
        if self.collection:
            self.file: TextIO | None = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        else:
            os.makedirs(path, exist_ok=True)
            self.file = None

    def write(self, hand: Any) -> None:
        import os

        from omaha.phh import dump, dumps_all
        from omaha.phh.export import history_from_events

        self.count += 1
        history = history_from_events(hand.events, metadata={"hand": self.count})
        if self.file is not None:
            separator = "\n" if self.count > 1 else ""
            text = dumps_all({str(self.count): history}, compatible=self.compatible)
            self.file.write(separator + text)
        else:
            path = os.path.join(self.path, f"hand-{self.count:06d}.phh")
            dump(history, path, compatible=self.compatible)

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def _print_summary(
    args: argparse.Namespace, code: str, config: Any, result: Any, seconds: float
) -> None:
    rate = result.hands / seconds if seconds > 0 else float("inf")
    scores = result.scores(config.big_blind)
    seats = [
        {
            "seat": score.seat,
            "bot": score.bot,
            "hands": score.hands,
            "net": score.net,
            "bb_per_100": round(score.bb_per_100, 2),
            "ci95": None if score.ci95 is None else round(score.ci95, 2),
        }
        for score in scores
    ]
    if args.json:
        summary = {
            "variant": code,
            "hands": result.hands,
            "duplicate": result.duplicate,
            "stack": _stack(args, config),
            "big_blind": config.big_blind,
            "seconds": round(seconds, 3),
            "hands_per_second": round(rate, 1),
            "seats": seats,
        }
        print(json.dumps(summary))
        return
    deals = result.hands // result.hands_per_sample
    mode = f", duplicate: {deals} deals" if result.duplicate else ""
    print(
        f"{result.hands} hands of {config.variant.name} ({config.structure.value}, {code}{mode}) "
        f"in {seconds:.2f} s: {rate:,.0f} hands/s"
    )
    print(f"{'seat':>4}  {'bot':<9} {'net chips':>10} {'bb/100':>9} {'95% CI':>10}")
    for row in seats:
        ci = "" if row["ci95"] is None else f"+/- {row['ci95']:.2f}"
        print(
            f"{row['seat']:>4}  {row['bot']:<9} {row['net']:>+10} {row['bb_per_100']:>+9.2f} "
            f"{ci:>10}"
        )
    print(
        f"every stack started every hand at {_stack(args, config)} "
        "(winnings banked); 95% CI: bb/100 +/- the half-width"
    )


def _stack(args: argparse.Namespace, config: Any) -> int:
    """The starting stack of every hand (default 100 big blinds)."""
    return int(args.stack) if args.stack is not None else 100 * int(config.big_blind)


# ---------------------------------------------------------------- shared helpers


def _fail(command: str, error: BaseException | str) -> int:
    print(f"omaha {command}: error: {error}", file=sys.stderr)
    return EXIT_INVALID


def _add_progress_options(sub: argparse.ArgumentParser) -> None:
    """``--progress``/``--no-progress``: by default a bar only when stderr is a terminal."""
    progress = sub.add_mutually_exclusive_group()
    progress.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="always show the progress bar (default: only when stderr is a terminal)",
    )
    progress.add_argument(
        "--no-progress", dest="progress", action="store_false", help="never show the progress bar"
    )
