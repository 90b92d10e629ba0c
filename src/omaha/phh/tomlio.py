"""Deprecated (kept for one release): the TOML reader and writer moved to :mod:`omaha.phh.io`."""

import warnings

from omaha.phh.io import format_assignment, format_key, format_value, load_toml

__all__ = ["format_assignment", "format_key", "format_value", "load_toml"]

warnings.warn(
    "omaha.phh.tomlio is deprecated; import from omaha.phh (or omaha.phh.io)",
    DeprecationWarning,
    stacklevel=2,
)
