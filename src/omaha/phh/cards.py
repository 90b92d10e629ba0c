"""Deprecated (kept for one release): PHH card notation moved to :mod:`omaha.phh.notation`."""

import warnings

from omaha.phh.notation import RANKS, SUITS, UNKNOWN, PhhCard, format_phh_cards, parse_phh_cards

__all__ = ["RANKS", "SUITS", "UNKNOWN", "PhhCard", "format_phh_cards", "parse_phh_cards"]

warnings.warn(
    "omaha.phh.cards is deprecated; import from omaha.phh (or omaha.phh.notation)",
    DeprecationWarning,
    stacklevel=2,
)
