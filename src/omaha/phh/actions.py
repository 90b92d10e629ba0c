"""Deprecated (kept for one release): PHH action notation moved to :mod:`omaha.phh.notation`."""

import warnings

from omaha.phh.notation import (
    Action,
    BetOrRaiseTo,
    CheckOrCall,
    DealBoard,
    DealHole,
    Fold,
    NoOp,
    ShowOrMuck,
    format_action,
    parse_action,
)

__all__ = [
    "Action",
    "BetOrRaiseTo",
    "CheckOrCall",
    "DealBoard",
    "DealHole",
    "Fold",
    "NoOp",
    "ShowOrMuck",
    "format_action",
    "parse_action",
]

warnings.warn(
    "omaha.phh.actions is deprecated; import from omaha.phh (or omaha.phh.notation)",
    DeprecationWarning,
    stacklevel=2,
)
