"""The ``omaha`` command line (also ``python -m omaha``): :func:`main` and the parser.

One module per subcommand group, each with ``add_parser`` (its arguments) and the function
that runs it: :mod:`~omaha.cli.replay`, :mod:`~omaha.cli.play`, :mod:`~omaha.cli.evaluate`,
:mod:`~omaha.cli.arena` (``serve``, ``bots``, ``export``), :mod:`~omaha.cli.equity`,
:mod:`~omaha.cli.scale` (``simulate``, ``preflop-table``); what they share (exit codes,
argument types, ``--variant``, ``--progress``) is :mod:`~omaha.cli.shared`, the progress
bar :mod:`~omaha.cli.progress`.

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
* ``omaha serve``, ``bots``, ``export`` — the arena server, its bot clients, its hands as PHH.
* ``omaha equity`` — each hand's or range's share of the pot.
* ``omaha solve`` — a heads-up PLO or PLO8 river spot solved exactly (:mod:`~omaha.cli.solve`).
* ``omaha simulate``, ``preflop-table`` — long jobs in chunks, here or on Ray.

Usage errors exit 2, as argparse does. Heavy modules (the engine, NumPy) are imported only
by the command that needs them, so ``omaha --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from omaha.cli.shared import EXIT_INVALID, EXIT_MISMATCH, EXIT_OK, OneLineParser, fail

__all__ = ["EXIT_INVALID", "EXIT_MISMATCH", "EXIT_OK", "build_parser", "main"]


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
    except Exception as exc:   # a bad input a command did not word itself: one line, exit 2
        from omaha.errors import OmahaError

        if not isinstance(exc, (OmahaError, OSError)):
            raise   # a bug: its traceback is wanted
        return fail(args.command, exc)
    return code


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = OneLineParser(
        prog="omaha",
        description=("Omaha poker: evaluate a hand (eval); the equity of hands or ranges "
                     "(equity); solve a heads-up river spot exactly (solve); bots, built-in or your own, at one table (play), in long "
                     "runs (simulate) or in a tournament (tournament); replay PHH hand "
                     "histories (replay); the arena: its server (serve), bot clients (bots) "
                     "and its hands as PHH (export); the preflop equity table "
                     "(preflop-table)."),
    )
    parser.add_argument("--version", action=_VersionAction)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    # each module imports what its command runs on only when it runs (omaha --help is fast)
    from omaha.cli import arena, equity, evaluate, play, replay, scale, solve, tournament

    for group in (replay, play, evaluate, arena, equity, scale, tournament, solve):
        group.add_parser(commands)
    return parser


class _VersionAction(argparse.Action):
    """``--version``: the package's version (written once, in ``omaha/_version.py``)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from omaha._version import __version__

        print(f"omaha {__version__}")  # on stdout, as argparse's own version action does
        parser.exit()
