"""The engine's hard limits, defined once (see README "Guarantees and limits").

Chips are exact Python ints in the engine, but the pot splitter and the batch kernels are
compiled and add amounts as signed 64-bit integers. So every amount is checked where it
enters (a stack, a rebuy, a blind or ante, a rake cap, a restored snapshot, a PHH field):
no single amount, and no total of the chips at a table or in a hand, may exceed
:data:`MAX_CHIPS`. Every sum the engine forms (a pot, a side pot, a payout, a raise bound)
is at most the chips in play, so it fits too.

>>> MAX_CHIPS == 2**63 - 1
True
>>> check_total([2**62, 2**62], "stacks")
Traceback (most recent call last):
...
omaha.errors.LimitError: stacks total 9223372036854775808 chips, above the limit MAX_CHIPS = 2**63-1 = 9223372036854775807

Data read from outside has size and nesting limits, checked before any recursion:
snapshots (:data:`MAX_SNAPSHOT_DEPTH`, :data:`MAX_SNAPSHOT_ITEMS`) and PHH text
(:data:`MAX_PHH_BYTES`, :data:`MAX_PHH_DEPTH`).
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable

from omaha.errors import LimitError

__all__ = [
    "MAX_CHIPS",
    "MAX_PHH_BYTES",
    "MAX_PHH_DEPTH",
    "MAX_SNAPSHOT_DEPTH",
    "MAX_SNAPSHOT_ITEMS",
    "check_amount",
    "check_total",
    "shown",
]

MAX_CHIPS = 2**63 - 1
"""Most chips any amount, and the total at a table or in a hand, may be (int64)."""

MAX_SNAPSHOT_DEPTH = 16
"""Deepest nesting of lists/dicts in a snapshot (the format needs 6)."""

MAX_SNAPSHOT_ITEMS = 200_000
"""Most values (containers, keys and leaves) in one snapshot."""

MAX_PHH_BYTES = 64 * 2**20
"""Largest PHH text read (64 MiB; a ``.phhs`` collection of thousands of hands is far less)."""

MAX_PHH_DEPTH = 32
"""Deepest nesting of arrays/tables in PHH text (the standard's fields need 3)."""

_LIMIT = f"the limit MAX_CHIPS = 2**63-1 = {MAX_CHIPS}"
_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 3, 40, 40


def shown(value: object) -> str:
    """A short, safe text of a caller's value for an error message.

    ``repr`` of a caller's object can be huge, recurse without end, raise, or (for an int of
    more than 4300 digits) refuse; an error message must never fail while it is built.

    >>> shown(10**5000), shown(-3), shown([[[[1]]]]), shown("x" * 100)[-5:]
    ('an int of 16610 bits', '-3', '[[[[...]]]]', "xx...'")
    """
    if isinstance(value, int) and not isinstance(value, bool):
        number = int.__int__(value)   # its value, without running a subclass's methods
        if not -2**64 < number < 2**64:
            return f"an int of {number.bit_length()} bits"
    try:
        return _REPR.repr(value)
    except Exception:   # noqa: BLE001 - a hostile __repr__ may raise anything
        return f"a {type(value).__name__}"


def check_amount(value: int, what: str) -> int:
    """``value`` (an int already checked for type and sign) if at most :data:`MAX_CHIPS`."""
    if value > MAX_CHIPS:
        raise LimitError(f"{what} is {shown(value)} chips, above {_LIMIT}")
    return value


def check_total(values: Iterable[int], what: str) -> int:
    """The sum of ``values`` (ints already checked) if at most :data:`MAX_CHIPS`."""
    total = sum(values)
    if total > MAX_CHIPS:
        raise LimitError(f"{what} total {shown(total)} chips, above {_LIMIT}")
    return total
