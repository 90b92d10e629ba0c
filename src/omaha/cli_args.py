"""Argument types and the game config the command-line tools share (``play``, ``simulate``,
``serve``): one place for what a count, an amount pair or a table size may be.

>>> pair("1/2"), positive("3"), players("6")
((1, 2), 3, 6)
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["game_config", "non_negative", "pair", "players", "positive"]


def non_negative(text: str) -> int:
    """A whole number >= 0 (argparse ``type=``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {text}")
    return value


def positive(text: str) -> int:
    """A whole number >= 1 (argparse ``type=``)."""
    value = non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def players(text: str) -> int:
    """A table size, 2 to 10 (rule T1)."""
    value = non_negative(text)
    if not 2 <= value <= 10:
        raise argparse.ArgumentTypeError(f"a table seats 2 to 10 players (rule T1), got {text}")
    return value


def pair(text: str) -> tuple[int, int]:
    """Two positive amounts written ``A/B`` (blinds, or the small and big bet)."""
    low, slash, high = text.partition("/")
    if not slash:
        raise argparse.ArgumentTypeError(f"expected two amounts like 1/2, got {text!r}")
    return positive(low), positive(high)


def game_config(game: Any, *, blinds: tuple[int, int] | None,
                stakes: tuple[int, int] | None, ante: int = 0) -> Any:
    """The :class:`~omaha.config.GameConfig` of a PHH ``game`` with the stakes given
    (defaults: blinds 1/2 in pot and no limit, bets 2/4 in fixed limit)."""
    from omaha.config import GameConfig
    from omaha.phh.variants import engine_variant

    variant = engine_variant(game)
    if game.fixed_limit:
        small_bet, big_bet = stakes or (2, 4)
        given = {} if blinds is None else dict(zip(("small_blind", "big_blind"), blinds))
        return GameConfig.fixed_limit(
            small_bet=small_bet, big_bet=big_bet, variant=variant, ante=ante, **given
        )
    if stakes is not None:
        raise ValueError(f"--stakes is for fixed limit; {game.code} takes --blinds SB/BB")
    small_blind, big_blind = blinds or (1, 2)
    maker = GameConfig.pot_limit if game.structure == "pot" else GameConfig.no_limit
    return maker(small_blind=small_blind, big_blind=big_blind, variant=variant, ante=ante)
