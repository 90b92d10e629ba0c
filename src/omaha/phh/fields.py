"""Checking and normalising the values of PHH fields (types from the PHH standard).

Each checker takes the field name, the raw value (as :func:`~omaha.phh.tomlio.load_toml`
returns it, or as a caller passed it) and the number of players, and returns the value in
its normal Python form or raises :class:`~omaha.phh.HistoryError` naming the field.

Money is whole chips: an integer, or a TOML float with no fraction (``2.0`` reads as 2), at
most ``MAX_CHIPS`` (2**63-1) each and in total per array. Every other number has its range:
``day`` 1..31, ``month`` 1..12, ``year`` 1..9999 (and together a real date), ``seat_count``
2..10, ``seats`` 1..``seat_count`` (10 without it) and distinct, ``hand`` and ``table``
numbers int64, ``level`` and times 0..2**63-1.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from omaha.config import MAX_SEATS
from omaha.limits import MAX_CHIPS, shown
from omaha.phh.errors import HistoryError

__all__ = ["OPTIONAL_FIELDS", "check_chips", "check_chips_list"]

Checker = Callable[[str, Any, int], Any]
_LIMIT = "the limit MAX_CHIPS = 2**63-1"


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return f"{type(value).__name__} {shown(value)}"


def check_chips(name: str, value: object, *, positive: bool = False) -> int:
    """A whole, non-negative (or positive) number of chips."""
    if isinstance(value, float):
        value = Decimal(repr(value))
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise HistoryError(
                f"{shown(value)} is not a number of chips (unknown amounts cannot be replayed)", field=name
            )
        if value > MAX_CHIPS:   # before rounding or int(), which could overflow or explode
            raise HistoryError(f"{shown(value)} chips is above {_LIMIT}", field=name)
        if value < 0:
            raise HistoryError(f"must be non-negative, got {shown(value)}", field=name)
        if value != value.to_integral_value():
            raise HistoryError(
                f"{shown(value)} is not a whole number of chips: amounts are integers in the "
                "table's smallest unit (write cents as 150, not 1.50)",
                field=name,
            )
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise HistoryError(f"expected a whole number of chips, got {_kind(value)}", field=name)
    if value < 0 or (positive and value == 0):
        limit = "positive" if positive else "non-negative"
        raise HistoryError(f"must be {limit}, got {shown(value)}", field=name)
    if value > MAX_CHIPS:
        raise HistoryError(f"{shown(value)} chips is above {_LIMIT}", field=name)
    return int(value)


def _per_player(name: str, value: object, players: int) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise HistoryError(
            f"expected an array with one entry per player, got {_kind(value)}", field=name
        )
    if len(value) != players:
        raise HistoryError(
            f"has {len(value)} entries but the hand has {players} players (starting_stacks)",
            field=name,
        )
    return list(value)


def check_chips_list(
    name: str, value: object, players: int, *, positive: bool = False
) -> tuple[int, ...]:
    """One whole number of chips per player; their total at most MAX_CHIPS (2**63-1)."""
    items = _per_player(name, value, players)
    chips = tuple(
        check_chips(f"{name}[{i}]", item, positive=positive) for i, item in enumerate(items)
    )
    if sum(chips) > MAX_CHIPS:
        raise HistoryError(f"totals {sum(chips)} chips, above {_LIMIT}", field=name)
    return chips


def _string(name: str, value: object, players: int) -> str:
    if not isinstance(value, str):
        raise HistoryError(f"expected a string, got {_kind(value)}", field=name)
    return value


def _integer(name: str, value: object, players: int) -> int:
    """A whole number from 0 to MAX_CHIPS (2**63-1), e.g. a hand or table number."""
    number: int = _ranged(0, MAX_CHIPS)(name, value, players)
    return number


def _ranged(low: int, high: int) -> Checker:
    """A checker of whole numbers from ``low`` to ``high``."""
    def check(name: str, value: object, players: int) -> int:
        if type(value) is not int:
            raise HistoryError(f"expected an integer, got {_kind(value)}", field=name)
        if not low <= value <= high:
            raise HistoryError(f"must be from {low} to {high}, got {shown(value)}", field=name)
        return value
    return check


def _string_or_integer(name: str, value: object, players: int) -> str | int:
    """A name or an int64 number (hand and table identifiers)."""
    if isinstance(value, str):
        return value
    number: int = _ranged(-(2**63), 2**63 - 1)(name, value, players)
    return number


def _boolean(name: str, value: object, players: int) -> bool:
    if not isinstance(value, bool):
        raise HistoryError(f"expected true or false, got {_kind(value)}", field=name)
    return value


def _number(name: str, value: object, players: int) -> int | Decimal:
    """A finite non-negative number (seconds) of at most MAX_CHIPS."""
    if isinstance(value, float):
        value = Decimal(repr(value))
    if isinstance(value, Decimal) or (isinstance(value, int) and not isinstance(value, bool)):
        if isinstance(value, Decimal) and not value.is_finite():
            raise HistoryError(f"expected a finite number, got {shown(value)}", field=name)
        if not 0 <= value <= MAX_CHIPS:
            raise HistoryError(f"must be from 0 to {MAX_CHIPS}, got {shown(value)}", field=name)
        return value
    raise HistoryError(f"expected a number, got {_kind(value)}", field=name)


def _local_time(name: str, value: object, players: int) -> datetime.time:
    if not isinstance(value, datetime.time) or value.tzinfo is not None:
        raise HistoryError(
            f"expected a TOML local time like 12:30:00, got {_kind(value)}", field=name
        )
    return value


def _seat_numbers(name: str, value: object, players: int) -> tuple[int, ...]:
    """Seat numbers, 1 to 10 (T1; checked against ``seat_count`` by the history)."""
    check = _ranged(1, MAX_SEATS)
    return tuple(
        check(f"{name}[{i}]", v, players) for i, v in enumerate(_per_player(name, value, players))
    )


def _strings_per_player(name: str, value: object, players: int) -> tuple[str, ...]:
    return tuple(
        _string(f"{name}[{i}]", v, players) for i, v in enumerate(_per_player(name, value, players))
    )


def _numbers_per_player(name: str, value: object, players: int) -> tuple[int | Decimal, ...]:
    return tuple(
        _number(f"{name}[{i}]", v, players) for i, v in enumerate(_per_player(name, value, players))
    )


def _chips_per_player(name: str, value: object, players: int) -> tuple[int, ...]:
    return check_chips_list(name, value, players)


OPTIONAL_FIELDS: dict[str, Checker] = {
    "author": _string,
    "event": _string,
    "url": _string,
    "venue": _string,
    "address": _string,
    "city": _string,
    "region": _string,
    "postal_code": _string,
    "country": _string,
    "time": _local_time,
    "time_zone": _string,
    "time_zone_abbreviation": _string,
    "day": _ranged(1, 31),
    "month": _ranged(1, 12),
    "year": _ranged(1, 9999),
    "hand": _string_or_integer,
    "level": _integer,
    "seats": _seat_numbers,
    "seat_count": _ranged(2, MAX_SEATS),
    "table": _string_or_integer,
    "players": _strings_per_player,
    "finishing_stacks": _chips_per_player,
    "winnings": _chips_per_player,
    "currency": _string,
    "currency_symbol": _string,
    "ante_trimming_status": _boolean,
    "time_limit": _number,
    "time_banks": _numbers_per_player,
}
"""The PHH standard's optional fields, in its order, with their checkers."""
