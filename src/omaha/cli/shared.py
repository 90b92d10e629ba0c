"""What the commands share: the exit codes, the one-line error, ``--progress``, the argument
types and the game config (``play``, ``simulate``, ``serve``, ``equity``): one place for
what a count, an amount pair, a table size or a variant name may be.

>>> pair("1/2"), positive("3"), players("6")
((1, 2), 3, 6)
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from omaha.errors import OmahaError
from omaha.limits import as_int

__all__ = ["EXIT_INVALID", "EXIT_MISMATCH", "EXIT_OK", "VARIANT_HELP", "add_progress_options",
           "add_variant", "fail", "game_config", "non_negative", "pair", "players", "positive"]

EXIT_OK = 0
"""The command did what it was asked."""
EXIT_MISMATCH = 1
"""``omaha replay``: a hand's final stacks differ from its ``finishing_stacks``."""
EXIT_INVALID = 2
"""Bad input (a usage error, an invalid history), as argparse exits on a usage error."""

VARIANT_HELP = ("a name of omaha.config.VARIANT_NAMES, any case: plo, plo8, flo8, nlo, plo5, "
                "5plo8, nlhe, holdem, omaha, omaha8, hilo, a PHH code (PO, PO/8, FO/8, P5O...) "
                "or a variant's own name")
"""The one help text of ``--variant``: every command takes the same names."""


def _whole(text: str, what: str, *, low: int, high: int | None = None) -> int:
    """``text`` as a whole number from ``low`` to ``high``, range-checked and worded by the
    one validator (:func:`omaha.limits.as_int`), for argparse ``type=``."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    try:
        return as_int(number, what, low=low, high=high)
    except OmahaError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def non_negative(text: str) -> int:
    """A whole number >= 0 (argparse ``type=``)."""
    return _whole(text, "the number", low=0)


def positive(text: str) -> int:
    """A whole number >= 1 (argparse ``type=``)."""
    return _whole(text, "the number", low=1)


def players(text: str) -> int:
    """A table size, 2 to 10 (rule T1)."""
    return _whole(text, "players (rule T1)", low=2, high=10)


def pair(text: str) -> tuple[int, int]:
    """Two positive amounts written ``A/B`` (blinds, or the small and big bet)."""
    low, slash, high = text.partition("/")
    if not slash:
        raise argparse.ArgumentTypeError(f"expected two amounts like 1/2, got {text!r}")
    return positive(low), positive(high)


def add_variant(sub: argparse.ArgumentParser, default: str) -> None:
    """``--variant NAME``, the same names and help for every command (checked when it runs,
    so a wrong name gets the command's one-line error with the accepted names)."""
    sub.add_argument("--variant", default=default, help=f"{VARIANT_HELP} (default {default})")


def game_config(variant: str, *, blinds: tuple[int, int] | None,
                stakes: tuple[int, int] | None, ante: int = 0) -> Any:
    """The :class:`~omaha.config.GameConfig` a ``--variant`` name plays (its structure, or its
    usual one) with the stakes given (defaults: blinds 1/2 in pot and no limit, bets 2/4 in
    fixed limit, where ``blinds`` override the blinds the bets imply)."""
    from omaha.config import FIXED_LIMIT, GameConfig, parse_variant

    structure = parse_variant(variant).usual
    if structure is FIXED_LIMIT:
        small_bet, big_bet = stakes or (2, 4)
        given = {} if blinds is None else dict(zip(("small_blind", "big_blind"), blinds))
        return GameConfig.named(variant, small_bet=small_bet, big_bet=big_bet, ante=ante,
                                **given)
    if stakes is not None:
        raise ValueError(f"--stakes is for fixed limit; {variant} is {structure.value}, "
                         "give --blinds SB/BB")
    small_blind, big_blind = blinds or (1, 2)
    return GameConfig.named(variant, small_blind=small_blind, big_blind=big_blind, ante=ante)


def fail(command: str, error: BaseException | str) -> int:
    """Print ``omaha COMMAND: error: ...`` on stderr; returns :data:`EXIT_INVALID`."""
    print(f"omaha {command}: error: {error}", file=sys.stderr)
    return EXIT_INVALID


def add_progress_options(sub: argparse.ArgumentParser) -> None:
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
