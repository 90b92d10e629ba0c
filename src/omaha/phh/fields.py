"""Deprecated (kept for one release): the checks of PHH fields moved to :mod:`omaha.phh.history`."""

import warnings

from omaha.phh.history import OPTIONAL_FIELDS, Checker, check_chips, check_chips_list

__all__ = ["OPTIONAL_FIELDS", "Checker", "check_chips", "check_chips_list"]

warnings.warn(
    "omaha.phh.fields is deprecated; import from omaha.phh (or omaha.phh.history)",
    DeprecationWarning,
    stacklevel=2,
)
