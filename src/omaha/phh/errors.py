"""The error raised for a malformed or illegal hand history (defined with the others)."""

from __future__ import annotations

from omaha.errors import HistoryError

__all__ = ["HistoryError"]
