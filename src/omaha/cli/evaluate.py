"""``omaha eval HOLE BOARD``: the high and the low of one Omaha hand, with the cards used.

    omaha eval AhKh2c3d QhJhTh4s5s
    omaha eval AhKh2c3d QhJhTh4s5s --json

Exit 0, or 2 with one line on stderr for cards that do not parse (C1).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from omaha.cli.shared import EXIT_OK, fail

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Register ``omaha eval``."""
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
    sub.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Evaluate and print; 2 on bad cards."""
    from omaha.analysis.evaluation import describe
    from omahacore.cards import format_cards, parse_cards
    from omahacore.errors import OmahaError
    from omahacore.evaluator import best_hand, evaluate_hilo

    try:
        hole, board = parse_cards(args.hole), parse_cards(args.board)
        high, low = evaluate_hilo(hole, board)
        high_cards, low_cards = best_hand(hole, board)
    except OmahaError as exc:
        return fail("eval", exc)
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
