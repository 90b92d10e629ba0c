"""Deprecated (kept for one release): PHH seat order moved to :mod:`omaha.phh.notation`."""

import warnings

from omaha.phh.notation import blind_players, phh_order, table_seats

__all__ = ["blind_players", "phh_order", "table_seats"]

warnings.warn(
    "omaha.phh.seats is deprecated; import from omaha.phh (or omaha.phh.notation)",
    DeprecationWarning,
    stacklevel=2,
)
