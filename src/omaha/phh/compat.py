"""Deprecated (kept for one release): PokerKit-compatible export moved to
:mod:`omaha.phh.export`.
"""

import warnings

from omaha.phh.export import pokerkit_compatible

__all__ = ["pokerkit_compatible"]

warnings.warn(
    "omaha.phh.compat is deprecated; import from omaha.phh (or omaha.phh.export)",
    DeprecationWarning,
    stacklevel=2,
)
