"""The ``omaha`` command line (also ``python -m omaha``).

Commands:

* ``omaha replay FILE...`` — replay ``.phh``/``.phhs`` histories through the engine.
  Exit 0 when every hand replays and matches its ``finishing_stacks``, 1 when a comparison
  fails, 2 when a history is invalid (the error goes to stderr).
* ``omaha play`` — a table of built-in bots for N hands, a progress bar on a terminal, a
  summary (hands/s, result per seat), optionally every hand written as PHH.
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

__all__ = ["EXIT_INVALID", "EXIT_MISMATCH", "EXIT_OK", "ProgressBar", "build_parser", "main"]

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
    from omaha import cli_equity
    cli_equity.add_parser(commands)
    from omaha import cli_scale  # omaha simulate, omaha preflop-table (issue 15)

    cli_scale.add_parser(commands)
    return parser


class _VersionAction(argparse.Action):
    """``--version``, looked up only when asked (importlib.metadata is slow to import)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("omaha-poker")
        except PackageNotFoundError:
            found = "(not installed)"
        parser.exit(message=f"omaha {found}\n")


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
    sub.add_argument("--json", action="store_true", help="print one JSON object")
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
    print(f"high: {high_words} ({_used(high_cards, format_cards)})")
    if low_cards is None:
        print("low:  none (no 8-or-better low)")
    else:
        print(f"low:  {low_words} ({_used(low_cards, format_cards)})")
    return EXIT_OK


def _used(cards: Sequence[int], format_cards: Any) -> str:
    """Five cards as "hole + board" (best_hand puts the 2 hole cards first)."""
    return f"{format_cards(cards[:2])} + {format_cards(cards[2:])}"


# ---------------------------------------------------------------- omaha replay


def _add_replay(commands: Any) -> None:
    sub = commands.add_parser(
        "replay",
        help="replay PHH hand histories through the engine",
        description=(
            "Replay .phh hands and .phhs collections through the engine, with the same "
            "legality checks as live play, and compare the final stacks with each hand's "
            "finishing_stacks when it has them."
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
    sub.set_defaults(run=_run_replay)


def _run_replay(args: argparse.Namespace) -> int:
    from omaha.phh import HistoryError, read_histories
    from omaha.phh.replay import replay_history

    worst = EXIT_OK
    for path in args.files:
        try:
            hands = read_histories(path)
        except (HistoryError, OSError) as exc:
            worst = max(worst, EXIT_INVALID)
            _report(args, {"file": path, "hand": None, "ok": False, "finishing_stacks": None}, exc)
            continue
        for name, history in hands:
            record: dict[str, Any] = {"file": path, "hand": name}
            try:
                result = replay_history(history)
            except HistoryError as exc:
                worst = max(worst, EXIT_INVALID)
                record.update(ok=False, finishing_stacks=None)
                _report(args, record, exc.located(hand=name, source=path))
                continue
            record.update(
                ok=result.matches,
                finishing_stacks=list(result.finishing_stacks),
                expected_stacks=None
                if history.finishing_stacks is None
                else list(history.finishing_stacks),
            )
            if not result.matches:
                worst = max(worst, EXIT_MISMATCH)
            _report(args, record, None)
    return worst


def _report(args: argparse.Namespace, record: dict[str, Any], error: BaseException | None) -> None:
    where = record["file"] + ("" if record.get("hand") is None else f" [{record['hand']}]")
    if error is not None:
        message = str(error) if isinstance(error, ValueError) else f"{record['file']}: {error}"
        record["error"] = message
        print(f"omaha replay: error: {message}", file=sys.stderr)
    if args.json:
        print(json.dumps(record))
    elif error is None:
        stacks = " ".join(map(str, record["finishing_stacks"]))
        if record["ok"]:
            print(f"{where}: ok, finishing stacks {stacks}")
        else:
            expected = " ".join(map(str, record["expected_stacks"]))
            print(f"{where}: MISMATCH, finishing stacks {stacks}, the history says {expected}")


# ---------------------------------------------------------------- omaha play


def _add_play(commands: Any) -> None:
    sub = commands.add_parser(
        "play",
        help="run a table of built-in bots",
        description=(
            "Play N hands at a table of built-in bots (random, and a simple hand-strength "
            "bot) in any variant and betting structure, then print a summary."
        ),
        epilog="example: omaha play --variant plo8 --players 6 --hands 10000 --phh hands.phhs",
    )
    sub.add_argument(
        "--variant",
        default="PO",
        help="PHH code (PO, FO/8, NO, PO/8, FO, P5O, ...) or a name (plo, plo8, flo8, nlo5); default PO",
    )
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
        "--phh",
        metavar="PATH",
        default=None,
        help="write every hand: FILE.phhs, or a directory of .phh files",
    )
    progress = sub.add_mutually_exclusive_group()
    progress.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="always show the progress bar",
    )
    progress.add_argument(
        "--no-progress", dest="progress", action="store_false", help="never show the progress bar"
    )
    sub.add_argument("--json", action="store_true", help="print the summary as JSON")
    sub.set_defaults(run=_run_play)


def _run_play(args: argparse.Namespace) -> int:
    import random
    import time

    from omaha.bots import BOTS, play_session
    from omaha.errors import OmahaError
    from omaha.phh import variant_for_name

    try:
        game = variant_for_name(args.variant)
        config = _play_config(args, game)
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
    bots = [BOTS[kinds[i % len(kinds)]]() for i in range(args.players)]
    stack = args.stack if args.stack is not None else 100 * config.big_blind
    writer = _PhhWriter(args.phh) if args.phh else None
    bar = ProgressBar(args.hands, enabled=args.progress)
    rng = random.Random(args.seed) if args.seed is not None else None

    def on_hand(hand: Any) -> None:
        if writer is not None:
            writer.write(hand)
        bar.advance()

    started = time.perf_counter()
    try:
        result = play_session(config, bots, hands=args.hands, stack=stack, rng=rng, on_hand=on_hand)
    finally:
        bar.close()
        if writer is not None:
            writer.close()
    seconds = time.perf_counter() - started
    _print_summary(args, game.code, config, result, seconds)
    return EXIT_OK


def _play_config(args: argparse.Namespace, game: Any) -> Any:
    from omaha.config import GameConfig
    from omaha.phh.stakes import engine_variant

    variant = engine_variant(game)
    if game.fixed_limit:
        small_bet, big_bet = args.stakes or (2, 4)
        blinds = {} if args.blinds is None else dict(zip(("small_blind", "big_blind"), args.blinds))
        return GameConfig.fixed_limit(
            small_bet=small_bet, big_bet=big_bet, variant=variant, ante=args.ante, **blinds
        )
    if args.stakes is not None:
        raise ValueError(f"--stakes is for fixed limit; {game.code} takes --blinds SB/BB")
    small_blind, big_blind = args.blinds or (1, 2)
    maker = GameConfig.pot_limit if game.structure == "pot" else GameConfig.no_limit
    return maker(small_blind=small_blind, big_blind=big_blind, variant=variant, ante=args.ante)


class _PhhWriter:
    """Writes each finished hand: appended to a .phhs file, or one .phh file each in a folder."""

    def __init__(self, path: str) -> None:
        import os

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
            self.file.write(separator + dumps_all({str(self.count): history}))
        else:
            dump(history, os.path.join(self.path, f"hand-{self.count:06d}.phh"))

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def _print_summary(
    args: argparse.Namespace, code: str, config: Any, result: Any, seconds: float
) -> None:
    rate = result.hands / seconds if seconds > 0 else float("inf")
    big_blind = config.big_blind
    seats = [
        {
            "seat": seat,
            "bot": result.bots[seat],
            "net": net,
            "bb_per_100": round(100 * net / big_blind / result.hands, 2),
        }
        for seat, net in sorted(result.net.items())
    ]
    if args.json:
        summary = {
            "variant": code,
            "hands": result.hands,
            "seconds": round(seconds, 3),
            "hands_per_second": round(rate, 1),
            "seats": seats,
        }
        print(json.dumps(summary))
        return
    print(
        f"{result.hands} hands of {config.variant.name} ({config.structure.value}, {code}) "
        f"in {seconds:.2f} s: {rate:,.0f} hands/s"
    )
    print(f"{'seat':>4}  {'bot':<9} {'net chips':>10} {'bb/100':>8}")
    for row in seats:
        print(f"{row['seat']:>4}  {row['bot']:<9} {row['net']:>+10} {row['bb_per_100']:>+8.2f}")


def _positive(text: str) -> int:
    value = _non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {text}")
    return value


def _players(text: str) -> int:
    value = _non_negative(text)
    if not 2 <= value <= 10:
        raise argparse.ArgumentTypeError(f"a table seats 2 to 10 players (rule T1), got {text}")
    return value


def _pair(text: str) -> tuple[int, int]:
    low, slash, high = text.partition("/")
    if not slash:
        raise argparse.ArgumentTypeError(f"expected two amounts like 1/2, got {text!r}")
    return _positive(low), _positive(high)


# ---------------------------------------------------------------- shared helpers


def _fail(command: str, error: BaseException | str) -> int:
    print(f"omaha {command}: error: {error}", file=sys.stderr)
    return EXIT_INVALID


class ProgressBar:
    """A one-line progress bar on stderr, redrawn at most ~10 times a second.

    Shown only when ``enabled`` (by default when the stream is a terminal).

    >>> import io
    >>> out = io.StringIO()
    >>> bar = ProgressBar(4, stream=out, enabled=True, clock=iter(range(100)).__next__)
    >>> for _ in range(4): bar.advance()
    >>> bar.close()
    >>> out.getvalue().splitlines()[-1].strip()
    '[########################################] 100% 4/4'
    """

    WIDTH = 40

    def __init__(
        self,
        total: int,
        *,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        clock: Any = None,
    ) -> None:
        import time

        self.total = total
        self.done = 0
        self.stream = sys.stderr if stream is None else stream
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._clock = time.monotonic if clock is None else clock
        self._last = float("-inf")

    def advance(self, count: int = 1) -> None:
        """Count finished work; redraw when enough time passed."""
        self.done += count
        now = self._clock()
        if self.enabled and (now - self._last >= 0.1 or self.done >= self.total):
            self._last = now
            self._draw()

    def close(self) -> None:
        """Finish the line so later output starts on a fresh one."""
        if self.enabled:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()

    def _draw(self) -> None:
        filled = self.WIDTH * self.done // self.total if self.total else self.WIDTH
        percent = 100 * self.done // self.total if self.total else 100
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r[{bar}] {percent:3d}% {self.done}/{self.total}")
        self.stream.flush()
