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

Every whole number a caller passes (an amount, a seat, a count, a time) goes through one
validator, :func:`as_int` (:func:`as_amount` for chips): ``operator.index`` decides what is
an integer, so NumPy integers pass and floats and text do not; ``bool`` (and NumPy's bool)
is never a number here; the range is checked on the exact int; the wording is one:

>>> import numpy as np
>>> as_int(np.int64(3), "seats", low=2, high=10)
3
>>> as_int(True, "seats", low=2, high=10)
Traceback (most recent call last):
...
omahacore.errors.OmahaTypeError: seats must be an integer, got True
>>> as_amount(2**63, "stack")
Traceback (most recent call last):
...
omaha.errors.LimitError: stack must be at most MAX_CHIPS = 2**63-1, got 9223372036854775808

Data read from outside has size and nesting limits, checked before any recursion:
snapshots (:data:`MAX_SNAPSHOT_DEPTH`, :data:`MAX_SNAPSHOT_ITEMS`) and PHH text
(:data:`MAX_PHH_BYTES`, :data:`MAX_PHH_DEPTH`).

The library's work has limits too, each checked where the call enters, before any memory is
taken: Monte Carlo samples (:data:`MAX_SAMPLES`), threads (:data:`MAX_THREADS`), range text,
nesting and size (:data:`MAX_RANGE_TEXT`, :data:`MAX_RANGE_DEPTH`, :data:`MAX_RANGE_HANDS`)
and simulations (:data:`MAX_SIMULATED_HANDS`, :data:`MAX_CHUNKS`). Those are *raisable*
(:data:`RAISABLE`): the checks read this module at each call, so a program that needs more
sets, say, ``omaha.limits.MAX_SAMPLES = 10**12`` once; a refusal says so. ``as_int(...,
limit="MAX_SAMPLES")`` is how a check names one:

>>> as_int(10**15, "samples", low=1, limit="MAX_SAMPLES", above=LimitError)
Traceback (most recent call last):
...
omaha.errors.LimitError: samples must be at most MAX_SAMPLES = 100,000,000,000, got 1000000000000000 (raise omaha.limits.MAX_SAMPLES to allow more)

Every limit, its default and how to raise it: ``docs/limits.md``.
"""

from __future__ import annotations

import operator
import reprlib
import warnings
from collections.abc import Callable, Iterable
from typing import Any

from omaha.errors import LimitError, OmahaError, RuleError

__all__ = [
    "MAX_CHIPS",
    "MAX_CHUNKS",
    "MAX_PHH_BYTES",
    "MAX_PHH_DEPTH",
    "MAX_RANGE_DEPTH",
    "MAX_RANGE_HANDS",
    "MAX_RANGE_TEXT",
    "MAX_SAMPLES",
    "MAX_SIMULATED_HANDS",
    "MAX_SNAPSHOT_DEPTH",
    "MAX_SNAPSHOT_ITEMS",
    "MAX_THREADS",
    "RAISABLE",
    "as_amount",
    "as_int",
    "check_amount",
    "check_total",
    "safe_repr",
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

# ---- the library's work (issue 21): raisable, read at each call (see RAISABLE)

MAX_SAMPLES = 10**11
"""Most Monte Carlo deals one ``omaha.equity`` call samples. A thread samples about 10
million deals a second, so this is hours on one core and minutes on a large machine; the
standard error is then under 2e-6, far below any use. The kernels count in int64, so it can
be raised up to 2**62."""

MAX_THREADS = 1024
"""Most threads one ``omaha.equity`` call starts. The kernels release the GIL, so one thread
per core is the most that helps; 1024 is above the core count of the largest single hosts
(each thread reserves its stack, so a million threads exhaust the process)."""

MAX_RANGE_TEXT = 1_000_000
"""Longest range text, in characters (1 MB: a range listing 100,000 hands one by one fits;
a human range is under 100 characters)."""

MAX_RANGE_DEPTH = 100
"""Deepest nesting of parentheses in a range (a written range needs 3 or 4). The parser
recurses about 4 frames per level, so this stays well inside Python's recursion limit;
raising it past about 200 needs ``sys.setrecursionlimit`` too (a RangeError, never a
RecursionError, either way)."""

MAX_RANGE_HANDS = 3_000_000
"""Most hands a range may list, and most a part of one may enumerate while it is built
(every 5-card hand is 2,598,960; the 20 million 6-card hands take gigabytes as Python sets,
so 6-card ranges must be narrowed by a pattern)."""

MAX_SIMULATED_HANDS = 10**11
"""Most hands one ``omaha simulate`` / ``run_play`` run plays. A core plays a few thousand
bot hands a second, so this is about a day on a 200-core cluster; a longer study runs
several seeded runs and merges them (``SimulationResult.merge``)."""

MAX_CHUNKS = 1_000_000
"""Most tasks one job sends to Ray (a simulation's ``chunk_hands`` pieces, a preflop table's
``chunk_classes`` pieces): every task is a handle held by the driver. A larger job takes
larger chunks. Local runs build their chunks one at a time and are not limited by it."""

RAISABLE = frozenset({"MAX_SAMPLES", "MAX_THREADS", "MAX_RANGE_TEXT", "MAX_RANGE_DEPTH",
                      "MAX_RANGE_HANDS", "MAX_SIMULATED_HANDS", "MAX_CHUNKS"})
"""The limits a program may raise by assigning this module's attribute (read at each call).
The others are fixed: the chip limit is the compiled int64, and the snapshot and PHH limits
are read once at import."""

_LIMIT = f"the limit MAX_CHIPS = 2**63-1 = {MAX_CHIPS}"
_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 3, 40, 40


def safe_repr(value: object) -> str:
    """A short, safe text of a caller's value for an error message.

    ``repr`` of a caller's object can be huge, recurse without end, raise, or (for an int of
    more than 4300 digits) refuse; an error message must never fail while it is built.

    >>> safe_repr(10**5000), safe_repr(-3), safe_repr([[[[1]]]]), safe_repr("x" * 100)[-5:]
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


def __getattr__(name: str) -> Any:
    """``shown``, the old name of :func:`safe_repr`: kept for one release, with a warning."""
    if name == "shown":
        warnings.warn("omaha.limits.shown is deprecated; it is omaha.limits.safe_repr",
                      DeprecationWarning, stacklevel=2)
        return safe_repr
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def as_int(value: object, what: str | Callable[[], str], *, low: int | None = None,
           high: int | None = None, error: type[OmahaError] = OmahaError,
           rule: str | None = None, limit: str | None = None,
           above: type[OmahaError] | None = None) -> int:
    """``value`` as an exact ``int`` from ``low`` to ``high`` (either may be None: no bound).

    An integer is what ``operator.index`` accepts (``int``, NumPy integers, an object with
    ``__index__``), read once; an ``int`` subclass counts as its value, none of its code run.
    ``bool`` and NumPy's bool are refused: ``True`` is never seat 1 or one chip.

    Raises ``error`` (with ``rule`` first when it is a :class:`RuleError`) naming ``what``: its
    TypeError subclass (``CardError`` -> ``CardTypeError``) for a value that is not an integer,
    where it has one, and ``error`` itself for one out of range. ``what`` may be a function
    that words it, called only for a refusal (hot paths: a name built per item costs more
    than the check).

    ``limit`` names one of this module's ``MAX_*`` limits: its current value is the upper
    bound (unless ``high`` is given and lower) and a refusal names it, with how to raise it
    when it is :data:`RAISABLE`. Past the upper bound ``above`` is raised (default
    ``error``).

    >>> import numpy as np
    >>> as_int(7, "seat", low=1, high=10), as_int(np.uint8(7), "seat", low=1)
    (7, 7)
    >>> from omaha.errors import ConfigError
    >>> as_int(0, "big_blind", low=1, error=ConfigError, rule="T3")
    Traceback (most recent call last):
    ...
    omaha.errors.ConfigError: T3: big_blind must be at least 1, got 0
    """
    number = _exact_int(value)
    if number is None:
        raise _error(_type_error(error), rule,
                     f"{_named(what)} must be an integer, got {safe_repr(value)}")
    if low is not None and number < low:
        raise _error(error, rule, f"{_named(what)} must be at least {low}, got {safe_repr(number)}")
    if limit is not None:
        bound = globals()[limit]
        if high is None or bound <= high:
            if number > bound:
                how = (f" (raise omaha.limits.{limit} to allow more)" if limit in RAISABLE
                       else "")
                raise _error(above or error, rule,
                             _above(what, f"{limit} = {bound:,}", number) + how)
            return number
    if high is not None and number > high:
        raise _error(above or error, rule, _above(what, str(high), number))
    return number


def as_amount(value: object, what: str | Callable[[], str], *, low: int | None = 0,
              error: type[OmahaError] = OmahaError, rule: str | None = None,
              above: type[OmahaError] = LimitError) -> int:
    """A number of chips: :func:`as_int` from ``low`` up, and at most :data:`MAX_CHIPS`; past
    it ``above`` is raised, the engine's :class:`~omaha.errors.LimitError` unless the caller's
    own error owns the limit (a rake schedule's ``RakeError``).

    >>> as_amount(100, "stack", low=1)
    100
    """
    number = as_int(value, what, low=low, error=error, rule=rule)
    if number > MAX_CHIPS:
        raise _error(above, rule, _above(what, "MAX_CHIPS = 2**63-1", number))
    return number


def _above(what: str | Callable[[], str], bound: str, number: int) -> str:
    return f"{_named(what)} must be at most {bound}, got {safe_repr(number)}"


def _named(what: str | Callable[[], str]) -> str:
    return what if isinstance(what, str) else what()


def _exact_int(value: object) -> int | None:
    """``value`` as an exact int, or None when it is not an integer (see :func:`as_int`)."""
    if type(value) is int:
        return value
    kind = type(value)
    if isinstance(value, bool) or (kind.__name__ in ("bool", "bool_")
                                   and kind.__module__ == "numpy"):
        return None
    if isinstance(value, int):
        return int.__index__(value)   # a subclass: its value, none of its methods run
    try:
        number = operator.index(value)   # type: ignore[arg-type]
    except Exception:   # noqa: BLE001 - not an integer, or a hostile __index__
        return None
    return number if type(number) is int else None


def _type_error(error: type[OmahaError]) -> type[OmahaError]:
    """``error``'s own TypeError subclass (``CardError`` -> ``CardTypeError``), else ``error``."""
    if issubclass(error, TypeError):
        return error
    for sub in error.__subclasses__():
        if issubclass(sub, TypeError):
            return sub
    return error


def _error(error: type[OmahaError], rule: str | None, message: str) -> OmahaError:
    return error(rule, message) if issubclass(error, RuleError) else error(message)


def check_amount(value: int, what: str) -> int:
    """``value`` (an int already checked for type and sign) if at most :data:`MAX_CHIPS`;
    :func:`as_amount` checks the type and sign too."""
    return as_amount(value, what, low=None)


def check_total(values: Iterable[int], what: str) -> int:
    """The sum of ``values`` (ints already checked) if at most :data:`MAX_CHIPS`."""
    total = sum(values)
    if total > MAX_CHIPS:
        raise LimitError(f"{what} total {safe_repr(total)} chips, above {_LIMIT}")
    return total


# arena
# The WebSocket server's guards (omaha.arena.server.ArenaServer options; ``omaha serve``
# flags). Each is checked when the server is built: a value that would switch a guard off
# (NaN, 0, infinity) is refused with an OmahaError naming it.

ARENA_MAX_FRAME = 1 << 20
"""Largest ``max_size`` (bytes of one client frame) a server may be given (default 4096)."""

ARENA_MAX_RATE = 10_000.0
"""Highest ``rate`` (client messages per second, each connection) a server may be given
(default 50; a client past its rate and burst is closed with 1008)."""

ARENA_MAX_BURST = 100_000
"""Largest ``burst`` (messages a client may send at once before the rate applies; default
100)."""

ARENA_OPEN_TIMEOUT = 5.0
"""Seconds a connection has to finish its WebSocket handshake before it is dropped."""

ARENA_MAX_OPEN_TIMEOUT = 300.0
"""Largest ``open_timeout`` a server may be given."""

ARENA_LEASE_MS = 3000
"""How long an arena process's hold on a table lasts unless renewed (issue 24)."""
