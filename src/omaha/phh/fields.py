"""Checking and normalising the values of PHH fields (types from the PHH standard).

Each checker takes the field name, the raw value (as :func:`~omaha.phh.tomlio.load_toml`
returns it, or as a caller passed it) and the number of players, and returns the value in
its normal Python form or raises :class:`~omaha.phh.HistoryError` naming the field.

Money is whole chips: an integer, or a TOML float with no fraction (``2.0`` reads as 2).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from omaha.phh.errors import HistoryError

__all__ = ["OPTIONAL_FIELDS", "check_chips", "check_chips_list"]

Checker = Callable[[str, Any, int], Any]


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return f"{type(value).__name__} {value!r}"


def check_chips(name: str, value: object, *, positive: bool = False) -> int:
    """A whole, non-negative (or positive) number of chips."""
    if isinstance(value, float):
        value = Decimal(repr(value))
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise HistoryError(
                f"{value} is not a number of chips (unknown amounts cannot be replayed)", field=name
            )
        if value != value.to_integral_value():
            raise HistoryError(
                f"{value} is not a whole number of chips: amounts are integers in the "
                "table's smallest unit (write cents as 150, not 1.50)",
                field=name,
            )
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise HistoryError(f"expected a whole number of chips, got {_kind(value)}", field=name)
    if value < 0 or (positive and value == 0):
        limit = "positive" if positive else "non-negative"
        raise HistoryError(f"must be {limit}, got {value}", field=name)
    return value


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
    """One whole number of chips per player."""
    items = _per_player(name, value, players)
    return tuple(
        check_chips(f"{name}[{i}]", item, positive=positive) for i, item in enumerate(items)
    )


def _string(name: str, value: object, players: int) -> str:
    if not isinstance(value, str):
        raise HistoryError(f"expected a string, got {_kind(value)}", field=name)
    return value


def _integer(name: str, value: object, players: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise HistoryError(f"expected an integer, got {_kind(value)}", field=name)
    return value


def _string_or_integer(name: str, value: object, players: int) -> str | int:
    if isinstance(value, str):
        return value
    return _integer(name, value, players)


def _boolean(name: str, value: object, players: int) -> bool:
    if not isinstance(value, bool):
        raise HistoryError(f"expected true or false, got {_kind(value)}", field=name)
    return value


def _number(name: str, value: object, players: int) -> int | Decimal:
    if isinstance(value, float):
        value = Decimal(repr(value))
    if isinstance(value, Decimal) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise HistoryError(f"expected a number, got {_kind(value)}", field=name)


def _local_time(name: str, value: object, players: int) -> datetime.time:
    if not isinstance(value, datetime.time) or value.tzinfo is not None:
        raise HistoryError(
            f"expected a TOML local time like 12:30:00, got {_kind(value)}", field=name
        )
    return value


def _integers_per_player(name: str, value: object, players: int) -> tuple[int, ...]:
    return tuple(
        _integer(f"{name}[{i}]", v, players)
        for i, v in enumerate(_per_player(name, value, players))
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
    "day": _integer,
    "month": _integer,
    "year": _integer,
    "hand": _string_or_integer,
    "level": _integer,
    "seats": _integers_per_player,
    "seat_count": _integer,
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
