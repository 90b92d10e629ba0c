"""Stub for the compiled fast path of PHH replay (``phhfast.pyx``, issue 22)."""

from typing import Final

FIELDS: Final[tuple[bytes, ...]]
"""The PHH fields the fast path reads (a hand with any other field falls back)."""

def replay_text(
    data: bytes, start: int = 0, end: int = -1
) -> tuple[int, tuple[int, ...], int, tuple[int, ...] | None, int] | None: ...
