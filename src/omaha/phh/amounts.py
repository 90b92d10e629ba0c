"""Money in a history's own units: decimal amounts scaled to whole chips, and ``inf`` stacks.

Online hand histories give amounts in currency units (``0.25``, ``1.5``); the engine counts
whole chips (integer chips, never floats). A history is replayed in its **smallest unit**:
the most fractional digits any of its amounts has, trailing zeros dropped (``0.50`` has one,
``3.00`` none), across every amount field and every ``cbr`` amount. Every amount is then
multiplied by ``10**decimals``, exactly, and the results are written back divided by it, so
decimals come back out as they went in (``10287.5`` stays ``10287.5``; ``3.00`` is ``3``).

>>> decimals_of([Decimal("0.50"), 1, Decimal("200.30"), Decimal("3.00")])
1
>>> scaled(Decimal("0.5"), 1), scaled(7, 1), in_units(5, 1), in_units(30, 1)
(5, 70, Decimal('0.5'), 3)

A starting stack of ``inf`` (the depth was not recorded) plays as :data:`DEEP_STACK`, deeper
than anything a hand can put in while the finite stacks total at most :data:`MAX_FINITE`;
such a player's finishing stack is ``inf`` again.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from omaha.limits import MAX_CHIPS

__all__ = ["DEEP_STACK", "MAX_DECIMALS", "MAX_FINITE", "decimals_of", "in_units", "is_inf", "scaled"]

DEEP_STACK = MAX_CHIPS // 32
"""The chips an ``inf`` starting stack plays with: ten of them beside :data:`MAX_FINITE`
finite chips still total less than ``MAX_CHIPS``, so every sum the engine forms fits."""

MAX_FINITE = MAX_CHIPS // 2
"""The most the finite starting stacks may total beside an ``inf`` one."""

MAX_DECIMALS = 18
"""More fractional digits than this cannot be scaled into int64 chips with any room left."""


def is_inf(value: object) -> bool:
    """True for a positive infinity as TOML reads it (``inf``, ``+inf``)."""
    if isinstance(value, Decimal):
        return value.is_infinite() and value > 0
    return isinstance(value, float) and value == float("inf")


def _fraction_digits(value: object) -> int:
    if isinstance(value, float):
        value = Decimal(repr(value))
    if not isinstance(value, Decimal) or not value.is_finite() or value == value.to_integral_value():
        return 0
    exponent = value.normalize().as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def decimals_of(values: Iterable[object]) -> int:
    """The fractional digits of the hand's smallest unit: the most any value has (values that
    are not finite numbers count none; their own checks refuse them)."""
    return max((_fraction_digits(value) for value in values), default=0)


def scaled(value: object, decimals: int) -> object:
    """``value`` in units of ``10**-decimals``: an exact int where it is a whole number of
    them; anything else is returned as it is, for the amount checks to refuse by name."""
    if decimals == 0 or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value * 10**decimals
    if isinstance(value, float):
        value = Decimal(repr(value))
    if isinstance(value, Decimal) and value.is_finite() and value.copy_abs() <= MAX_CHIPS:
        units = value.scaleb(decimals)
        if units == units.to_integral_value():
            return int(units)
    return value


def in_units(chips: int, decimals: int) -> int | Decimal:
    """``chips`` (in units of ``10**-decimals``) in the history's own units: an int when it
    is whole, else an exact decimal with no trailing zeros."""
    if decimals == 0:
        return chips
    value = Decimal(chips).scaleb(-decimals)
    if value == value.to_integral_value():
        return int(value)
    return value.normalize()
