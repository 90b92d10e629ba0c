"""ICM: what tournament chips are worth in prize money (the Malmuth-Harville model).

A player's chance of finishing first is their share of the chips in play; given who finished
above, the chance of taking the next place is their share of the chips left. A player's
equity is the sum over places of the chance of that place times its prize. The work is done
in the compiled core (:mod:`omahacore.icm`).

Worked by hand for stacks 50/30/20 (100 chips) and prizes 50/30/20. Player A (50) wins with
chance 50/100; is second after B wins (3/10 x 50/70) or after C wins (2/10 x 50/80), 19/56
in all; and third with the 9/56 left: ``50 x 1/2 + 30 x 19/56 + 20 x 9/56 = 38.3929``. B:
``50 x 3/10 + 30 x 3/8 + 20 x 13/40 = 32.75``. C: ``50 x 1/5 + 30 x 2/7 + 20 x 18/35 =
28.8571``. The three add up to the 100 of prize money:

>>> from omaha import icm
>>> [round(e, 4) for e in icm.equities([50, 30, 20], [50, 30, 20])]
[38.3929, 32.75, 28.8571]
>>> icm.deal([50, 30, 20], [50, 30, 20])
(38, 33, 29)

Any field size can be estimated by sampling finishing orders, with a standard error for
each estimate (the same seed gives the same answer):

>>> est = icm.equities([50, 30, 20], [50, 30, 20], samples=100_000, seed=7)
>>> [abs(e - x) < 5 * s for e, x, s in zip(est.equities, (38.3929, 32.75, 28.8571),
...                                         est.standard_errors)]
[True, True, True]

The readings chosen where the model leaves room:

* **Input.** ``stacks`` lists each player's chips, ``prizes`` the prize of each place, first
  place first. Both are non-empty sequences of ints from 0 to 2**63-1 (NumPy integers and
  objects with ``__index__`` count; ``bool``, floats, NaN and text are refused); at least one
  stack is positive; the stacks add up to at most 2**63-1 chips, and so do the prizes.
  Prizes need not decrease by place: a larger prize lower down is taken as given.
* **Prizes beyond the number of players** are ignored; the prize money is the sum of the
  prizes of the first ``len(stacks)`` places, and the equities add up to it.
* **Zero stacks** finish below every player with chips. With ``z`` zero stacks, they take the
  last ``z`` places together and share those places' prizes equally (as players busted in
  the same hand with the same stack tie): ``equities([10, 0, 0], [50, 30, 20])`` is
  ``(50.0, 25.0, 25.0)``.
* **Ties** in stacks are just equal stacks: equal players, equal equities (exactly equal in
  the exact answer).
* **Exact or sampled.** The exact answer takes up to :data:`EXACT_MAX_PLAYERS` (22) players
  with chips (zero stacks do not count): O(2**n * n) time, 2**n doubles of memory (20 players
  take well under a second). Above that the error says to pass ``samples=``.

Bad input raises :class:`~omaha.errors.IcmError` naming the field (``stacks[3]``,
``prizes``, ``samples``, ``seed``); a value of the wrong type raises its subclass
:class:`~omaha.errors.IcmTypeError`, also a :class:`TypeError`.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, SupportsIndex, TypeAlias, overload

import numpy as np
import numpy.typing as npt

from omaha.errors import IcmError
from omahacore import icm as _core

__all__ = ["EXACT_MAX_PLAYERS", "IcmEstimate", "deal", "equities"]

#: Players with chips that the exact answer takes (2**22 subsets, 32 MiB).
EXACT_MAX_PLAYERS: int = _core.EXACT_MAX_PLAYERS

IntsLike: TypeAlias = Iterable[SupportsIndex] | npt.NDArray[np.integer[Any]]


@dataclass(frozen=True)
class IcmEstimate:
    """Sampled ICM equities.

    Attributes:
        equities: each player's estimated equity, in input order; they add up to the prize
            money (up to rounding).
        standard_errors: the standard error of each estimate (0.0 for a zero stack, whose
            share is exact).
        samples: the number of finishing orders drawn.
        seed: the seed used (drawn from the OS when none was given): pass it again to get
            the same answer.
        prize_money: the sum of the prizes of the first ``len(stacks)`` places.
    """

    equities: tuple[float, ...]
    standard_errors: tuple[float, ...]
    samples: int
    seed: int
    prize_money: int


@overload
def equities(stacks: IntsLike, prizes: IntsLike, *, samples: None = None,
             seed: None = None) -> tuple[float, ...]: ...


@overload
def equities(stacks: IntsLike, prizes: IntsLike, *, samples: SupportsIndex,
             seed: SupportsIndex | None = None) -> IcmEstimate: ...


def equities(stacks: IntsLike, prizes: IntsLike, *, samples: SupportsIndex | None = None,
             seed: SupportsIndex | None = None) -> tuple[float, ...] | IcmEstimate:
    """ICM equities of ``stacks`` for ``prizes`` (by place, first place first).

    Without ``samples``: the exact Malmuth-Harville equities, a tuple of floats in input
    order adding up to the prize money, for up to :data:`EXACT_MAX_PLAYERS` players with
    chips. With ``samples=N`` (2 to 10**12): an :class:`IcmEstimate` from ``N`` finishing
    orders drawn place by place with chances proportional to the chips left, for any field
    size; ``seed`` (0 to 2**64-1) makes it reproducible, the OS seeds it otherwise. The
    readings (zero stacks, ties, more prizes than players) are in the module's docstring.

    >>> [round(e, 4) for e in equities([1, 1, 2], [6, 2])]   # 13/6, 13/6, 11/3
    [2.1667, 2.1667, 3.6667]
    >>> equities([10, 0, 0], [50, 30, 20, 10])
    (50.0, 25.0, 25.0)
    >>> from omaha.errors import IcmError
    >>> try:
    ...     equities([10, True], [5])
    ... except IcmError as err:
    ...     print(type(err).__name__, err)
    IcmTypeError stacks[1] must be an int, got bool True

    Raises:
        IcmError: bad input, naming the field; :class:`~omaha.errors.IcmTypeError` for a
            wrong type.
    """
    if samples is None:
        if seed is not None:
            raise IcmError("seed is only used with samples=N (the exact answer draws "
                           "nothing)")
        return _core.exact(stacks, prizes)[0]
    if seed is None:
        seed = secrets.randbits(64)
    means, errors, money = _core.sample(stacks, prizes, samples, seed)
    return IcmEstimate(means, errors, int(samples), int(seed), money)


def deal(stacks: IntsLike, prizes: IntsLike) -> tuple[int, ...]:
    """An ICM deal: whole-chip prizes that add up exactly to the prize money.

    Each player gets the whole part of their exact equity (:func:`equities`); the chips left
    over go one each to the largest fractional parts, equal fractions to the lower index
    (equal stacks have exactly equal equities, so the first of them in the input). Each
    prize is then within one chip of the equity (for prize money below 2**52, where a float
    holds every chip).

    >>> deal([50, 30, 20], [50, 30, 20])
    (38, 33, 29)
    >>> deal([5, 5, 5], [10])
    (4, 3, 3)

    Raises:
        IcmError: as :func:`equities` does.
    """
    exact, money = _core.exact(stacks, prizes)
    whole = [max(0, math.floor(e)) for e in exact]
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - whole[i]), i))
    left = money - sum(whole)
    k = 0
    while left > 0:              # normally fewer chips than players: one each, in order
        whole[order[k % len(order)]] += 1
        left -= 1
        k += 1
    k = len(order) - 1
    while left < 0:              # only from rounding of enormous amounts
        i = order[k % len(order)]
        if whole[i] > 0:
            whole[i] -= 1
            left += 1
        k -= 1
    return tuple(whole)
