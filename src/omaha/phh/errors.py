"""Deprecated (kept for one release): HistoryError is in :mod:`omaha.errors`."""

import warnings

from omaha.errors import HistoryError

__all__ = ["HistoryError"]

warnings.warn(
    "omaha.phh.errors is deprecated; import from omaha.phh (or omaha.errors)",
    DeprecationWarning,
    stacklevel=2,
)
