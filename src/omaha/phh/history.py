"""The hand history object: one hand in the PHH standard, checked on construction.

A :class:`HandHistory` holds the fields of one ``.phh`` file. Building one checks every
field's type, the field set the variant requires, the per-player array lengths, and the
syntax of every action; a fault raises :class:`~omaha.errors.HistoryError` naming the field
or the action's index and text. Whether the actions are *legal* is decided by replaying
them through the engine (:mod:`omaha.phh.replay`).

Field types are the PHH standard's. Money is whole chips: an integer, or a TOML float with
no fraction (``2.0`` reads as 2), at most ``MAX_CHIPS`` (2**63-1) each and in total per
array. Every other number has its range: ``day`` 1..31, ``month`` 1..12, ``year`` 1..9999
(and together a real date), ``seat_count`` 2..10, ``seats`` 1..``seat_count`` (10 without
it) and distinct, ``hand`` and ``table`` numbers int64, ``level`` and times 0..2**63-1.

Player order is the standard's: ``p1`` sits first left of the button and the last player
has the button. Heads-up, the button posts the small blind, so the forced-bet arrays
(written small blind first) are reversed: see :meth:`HandHistory.posted_blinds`.

>>> hh = HandHistory(
...     variant="PO", antes=[0, 0, 0], blinds_or_straddles=[1, 2, 0], min_bet=2,
...     starting_stacks=[200, 200, 200], actions=["d dh p1 AcAd2h3s"])
>>> hh.players, hh.game.name
(3, 'pot-limit Omaha high')
>>> hh.parsed_actions[0].cards
(48, 49, 2, 7)
>>> HandHistory(variant="PO", antes=[0, 0], blinds_or_straddles=[1, 2], min_bet=2,
...             starting_stacks=[100, 1.5])
Traceback (most recent call last):
  ...
omaha.errors.HistoryError: starting_stacks[1]: not a whole number of chips: amounts are \
integers in the table's smallest unit (write cents as 150, not 1.50), got 1.5
"""

from __future__ import annotations

import datetime
import math
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from omaha.config import MAX_SEATS
from omaha.errors import HistoryError
from omaha.limits import MAX_CHIPS, safe_repr
from omaha.phh.amounts import (
    DEEP_STACK,
    MAX_DECIMALS,
    MAX_FINITE,
    decimals_of,
    in_units,
    is_inf,
    scaled,
)
from omaha.phh.notation import (
    Action,
    bet_amount_text,
    heads_up_reversed,
    parse_action,
    whole_chips,
)
from omaha.phh.variants import PORTABLE_CODES, Variant, variant_for_code

__all__ = [
    "OPTIONAL_FIELDS",
    "HandHistory",
    "UnknownFieldWarning",
    "check_boolean",
    "check_chips",
    "check_chips_list",
    "check_integer",
]

_BET_FIELDS = ("min_bet", "small_bet", "big_bet")
_AMOUNT_FIELDS = frozenset({"antes", "blinds_or_straddles", *_BET_FIELDS, "starting_stacks",
                            "finishing_stacks", "winnings"})
"""The fields that hold money, scaled by ``decimals`` (:mod:`omaha.phh.amounts`)."""
REQUIRED_ORDER = (
    "variant",
    "antes",
    "blinds_or_straddles",
    *_BET_FIELDS,
    "starting_stacks",
    "actions",
)


class UnknownFieldWarning(UserWarning):
    """A PHH field that is neither standard nor user-defined (``_name``) was kept as is."""


# --- the checks of one field -----------------------------------------------------------
# Each takes the field name, the raw value (as the TOML reader returns it, or as a caller
# passed it) and returns the value in its normal Python form, or raises HistoryError
# naming the field.

Checker = Callable[[str, Any, int], Any]
"""A field's check: ``(name, value, players) -> normal value``."""


def _kind(value: object) -> str:
    """The value as an error message shows it: numbers as written, other values with their
    kind (a number is often right but out of range; a string or an array is the wrong kind)."""
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (Decimal, float)) and len(str(value)) <= 40:
        return str(value)
    if isinstance(value, (int, Decimal, float)):
        return safe_repr(value)
    return f"{type(value).__name__} {safe_repr(value)}"


def _bound(number: int) -> str:
    return {MAX_CHIPS: "2**63-1", -(2**63): "-2**63"}.get(number, str(number))


def check_chips(name: str, value: object, *, positive: bool = False) -> int:
    """A whole, non-negative (or positive) number of chips (see
    :func:`~omaha.phh.notation.whole_chips`)."""
    try:
        return whole_chips(value, positive=positive)
    except (TypeError, ValueError) as exc:
        raise HistoryError(f"{exc}, got {_kind(value)}", field=name) from None


def check_chips_list(
    name: str, value: object, players: int, *, positive: bool = False
) -> tuple[int, ...]:
    """One whole number of chips per player; their total at most MAX_CHIPS (2**63-1)."""
    items = _per_player(name, value, players)
    chips = tuple(
        check_chips(f"{name}[{i}]", item, positive=positive) for i, item in enumerate(items)
    )
    if sum(chips) > MAX_CHIPS:
        raise HistoryError(f"totals {sum(chips)} chips, above the limit MAX_CHIPS = 2**63-1",
                           field=name)
    return chips


def check_integer(name: str, value: object, low: int, high: int, what: str = "an integer") -> int:
    """A TOML integer (not a boolean, not a float) from ``low`` to ``high``."""
    if type(value) is not int or not low <= value <= high:
        raise HistoryError(
            f"expected {what} from {_bound(low)} to {_bound(high)}, got {_kind(value)}", field=name
        )
    return value


def check_boolean(name: str, value: object) -> bool:
    """A TOML boolean."""
    if not isinstance(value, bool):
        raise HistoryError(f"expected true or false, got {_kind(value)}", field=name)
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


def _each(check: Checker) -> Checker:
    """The checker of an array with one value per player, each checked by ``check``."""
    def check_all(name: str, value: object, players: int) -> tuple[Any, ...]:
        items = _per_player(name, value, players)
        return tuple(check(f"{name}[{i}]", item, players) for i, item in enumerate(items))
    return check_all


def _ranged(low: int, high: int) -> Checker:
    return lambda name, value, players: check_integer(name, value, low, high)


def _string(name: str, value: object, players: int) -> str:
    if not isinstance(value, str):
        raise HistoryError(f"expected a string, got {_kind(value)}", field=name)
    return value


def _string_or_integer(name: str, value: object, players: int) -> str | int:
    """A name or an int64 number (hand and table identifiers)."""
    if isinstance(value, str):
        return value
    return check_integer(name, value, -(2**63), 2**63 - 1)


def _number(name: str, value: object, players: int) -> int | Decimal:
    """A finite number (seconds) from 0 to MAX_CHIPS."""
    number = Decimal(repr(value)) if isinstance(value, float) else value
    if (
        isinstance(number, (int, Decimal))
        and not isinstance(number, bool)
        and (isinstance(number, int) or number.is_finite())   # NaN cannot be compared
        and 0 <= number <= MAX_CHIPS
    ):
        return number
    raise HistoryError(f"expected a number from 0 to 2**63-1, got {_kind(value)}", field=name)


def _local_time(name: str, value: object, players: int) -> datetime.time:
    if not isinstance(value, datetime.time) or value.tzinfo is not None:
        raise HistoryError(
            f"expected a TOML local time like 12:30:00, got {_kind(value)}", field=name
        )
    return value


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
    "level": _ranged(0, MAX_CHIPS),
    "seats": _each(_ranged(1, MAX_SEATS)),   # within seat_count: _check_cross_fields
    "seat_count": _ranged(2, MAX_SEATS),
    "table": _string_or_integer,
    "players": _each(_string),
    "finishing_stacks": check_chips_list,
    "winnings": check_chips_list,
    "currency": _string,
    "currency_symbol": _string,
    "ante_trimming_status": lambda name, value, players: check_boolean(name, value),
    "time_limit": _number,
    "time_banks": _each(_number),
}
"""The PHH standard's optional fields, in its order, with their checkers."""


# --- the hand --------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, repr=False)
class HandHistory:
    """One hand in the PHH standard.

    Attributes:
        variant: the PHH variant code (see :mod:`omaha.phh.variants`).
        antes: per player, in PHH order; a big-blind ante is ``[0, X, 0, ...]``.
        blinds_or_straddles: per player, small blind first: ``[1, 2, 0, ...]``.
        starting_stacks: per player, positive whole chips; its length is the player count.
        actions: the action notations, kept verbatim (commentary included).
        min_bet: the minimum bet of pot- and no-limit games, None in fixed limit.
        small_bet, big_bet: the fixed-limit bet units, None in pot- and no-limit.
        finishing_stacks: the stacks after the hand, if recorded.
        metadata: the other optional fields of the standard (``players``, ``event``, ...),
            normalised, in the standard's order.
        user_fields: fields named ``_like_this`` (and unknown ones), kept verbatim.
        decimals: the amounts (fields and ``cbr`` actions) count units of
            ``10**-decimals`` of the file's money (:mod:`omaha.phh.amounts`); 0 for whole
            chips. Reading sets it from the file; writing divides back.
        deep_players: the players (0-based) whose starting stack is ``inf`` (depth not
            recorded): they play with :data:`~omaha.phh.amounts.DEEP_STACK` and finish with
            ``inf``. Pass ``inf`` in ``starting_stacks`` (and ``finishing_stacks``) for them.

    >>> hh = HandHistory(variant="NT", antes=[0, 0], blinds_or_straddles=[5, 10], min_bet=10,
    ...                  starting_stacks=[2000, float("inf")], actions=["p2 cbr 25"],
    ...                  decimals=2)
    >>> hh.deep_players, hh.parsed_actions[0].amount, dict(hh.fields())["starting_stacks"]
    ((1,), 2500, [20, inf])
    """

    variant: str
    antes: Sequence[int]
    blinds_or_straddles: Sequence[int]
    starting_stacks: Sequence[int]
    actions: Sequence[str] = ()
    min_bet: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    finishing_stacks: Sequence[int] | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    user_fields: Mapping[str, Any] = field(default_factory=dict)
    decimals: int = 0
    deep_players: tuple[int, ...] = field(init=False, default=())
    parsed_actions: tuple[Action, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        game = variant_for_code(self.variant)
        stacks = self.starting_stacks
        if not isinstance(stacks, (list, tuple)) or not 2 <= len(stacks) <= MAX_SEATS:
            raise HistoryError(
                f"expected an array of at least 2 and at most {MAX_SEATS} stacks, one per player (T1)",
                field="starting_stacks",
            )
        players = len(stacks)
        check_integer("decimals", self.decimals, 0, MAX_DECIMALS, "a number of decimal places")
        deep = tuple(i for i, stack in enumerate(stacks) if is_inf(stack))
        self._set("deep_players", deep)
        finite = check_chips_list(
            "starting_stacks", [1 if i in deep else s for i, s in enumerate(stacks)], players,
            positive=True)
        if deep and sum(finite) - len(deep) > MAX_FINITE:
            raise HistoryError(
                f"the finite stacks total {sum(finite) - len(deep)} chips; beside an inf stack "
                f"they may total at most {MAX_FINITE}", field="starting_stacks")
        self._set("starting_stacks",
                  tuple(DEEP_STACK if i in deep else s for i, s in enumerate(finite)))
        self._set("antes", check_chips_list("antes", self.antes, players))
        self._set(
            "blinds_or_straddles",
            check_chips_list("blinds_or_straddles", self.blinds_or_straddles, players),
        )
        self._check_bet_fields(game)
        if self.finishing_stacks is not None:
            self._set("finishing_stacks", self._finishing(self.finishing_stacks, players))
        self._set("metadata", _check_metadata(self.metadata, players))
        self._set("user_fields", dict(self.user_fields))
        if not isinstance(self.actions, (list, tuple)):
            raise HistoryError("expected an array of action strings", field="actions")
        self._set("actions", tuple(self.actions))
        self._set(
            "parsed_actions",
            tuple(_parse(i, text, players, self.decimals) for i, text in enumerate(self.actions)),
        )

    def __repr__(self) -> str:
        """The constructor call that builds this history again (``inf`` stacks as
        ``float('inf')``)."""
        def stacks(values: Sequence[int] | None) -> str:
            if values is None:
                return "None"
            return "(" + ", ".join("float('inf')" if i in self.deep_players else repr(v)
                                   for i, v in enumerate(values)) + ",)"
        parts = [f"variant={self.variant!r}", f"antes={self.antes!r}",
                 f"blinds_or_straddles={self.blinds_or_straddles!r}",
                 f"starting_stacks={stacks(self.starting_stacks)}", f"actions={self.actions!r}",
                 f"min_bet={self.min_bet!r}", f"small_bet={self.small_bet!r}",
                 f"big_bet={self.big_bet!r}",
                 f"finishing_stacks={stacks(self.finishing_stacks)}",
                 f"metadata={self.metadata!r}", f"user_fields={self.user_fields!r}"]
        if self.decimals:
            parts.append(f"decimals={self.decimals!r}")
        return f"HandHistory({', '.join(parts)})"

    def _finishing(self, stacks: object, players: int) -> tuple[int, ...]:
        """The finishing stacks: ``inf`` for exactly the deep players (stored as DEEP_STACK)."""
        items = _per_player("finishing_stacks", stacks, players)
        for i, item in enumerate(items):
            if is_inf(item) != (i in self.deep_players):
                said = "inf" if i in self.deep_players else "a number of chips"
                raise HistoryError(
                    f"p{i + 1} starts with {said}, so finishes with {said}, got {_kind(item)}",
                    field=f"finishing_stacks[{i}]")
        chips = check_chips_list(
            "finishing_stacks", [0 if i in self.deep_players else s for i, s in enumerate(items)],
            players)
        return tuple(DEEP_STACK if i in self.deep_players else s for i, s in enumerate(chips))

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)  # normalising inside a frozen dataclass

    def _check_bet_fields(self, game: Variant) -> None:
        for name in _BET_FIELDS:
            value = getattr(self, name)
            if name in game.bet_fields:
                if value is None:
                    raise HistoryError(f"is required for {game.code} ({game.name})", field=name)
                self._set(name, check_chips(name, value, positive=True))
            elif value is not None:
                wanted = " and ".join(game.bet_fields)
                raise HistoryError(
                    f"is not a field of {game.code} ({game.name}), which uses {wanted}", field=name
                )

    @property
    def game(self) -> Variant:
        """The :class:`~omaha.phh.variants.Variant` the ``variant`` code names."""
        return variant_for_code(self.variant)

    @property
    def players(self) -> int:
        """The number of players dealt in."""
        return len(self.starting_stacks)

    def posted_antes(self) -> tuple[int, ...]:
        """The ante each player (in PHH order) posts: ``antes``, reversed heads-up."""
        return heads_up_reversed(self.antes)

    def posted_blinds(self) -> tuple[int, ...]:
        """The blind each player (in PHH order) posts: heads-up the array is reversed, so
        with ``[1, 2]`` p1 posts the big blind 2 and p2, the button, the small blind 1.

        >>> HandHistory(variant="PO", antes=[0, 0], blinds_or_straddles=[1, 2], min_bet=2,
        ...             starting_stacks=[100, 100]).posted_blinds()
        (2, 1)
        """
        return heads_up_reversed(self.blinds_or_straddles)

    def fields(self) -> Iterator[tuple[str, Any]]:
        """The fields to write, as ``(name, value)`` pairs: required fields first in the
        standard's order, then the optional fields present, then user fields."""
        for name in REQUIRED_ORDER:
            value = getattr(self, name)
            if value is not None:
                yield name, self._written(name, value)
        for name in OPTIONAL_FIELDS:
            value = self.finishing_stacks if name == "finishing_stacks" else self.metadata.get(name)
            if value is not None:
                yield name, self._written(name, value)
        yield from self.user_fields.items()

    def _written(self, name: str, value: Any) -> Any:
        """A field's value as the file writes it: amounts back in the file's units (and
        ``inf`` for the deep players' stacks), arrays as lists."""
        if name in _AMOUNT_FIELDS:
            if isinstance(value, int):
                return in_units(value, self.decimals)
            deep = self.deep_players if name in ("starting_stacks", "finishing_stacks") else ()
            return [math.inf if i in deep else in_units(v, self.decimals)
                    for i, v in enumerate(value)]
        return list(value) if isinstance(value, tuple) else value

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> HandHistory:
        """Build a history from parsed TOML fields (the inverse of :meth:`fields`).

        Raises:
            HistoryError: a required field is missing or a field is malformed.
        """
        if "variant" not in fields:
            raise HistoryError("missing required field", field="variant")
        if "_variant" in fields:  # a PokerKit-compatible export: the real game is here
            fields = _restore_variant(fields)
        game = variant_for_code(fields["variant"])
        for name in (
            "antes",
            "blinds_or_straddles",
            *game.bet_fields,
            "starting_stacks",
            "actions",
        ):
            if name not in fields:
                raise HistoryError(f"missing required field for {game.code}", field=name)
        if "bring_in" in fields:
            raise HistoryError("is a stud field; Omaha uses blinds_or_straddles", field="bring_in")
        metadata: dict[str, Any] = {}
        user_fields: dict[str, Any] = {}
        for name, value in fields.items():
            if name in REQUIRED_ORDER or name == "finishing_stacks":
                continue
            if name in OPTIONAL_FIELDS:
                metadata[name] = value
            else:
                if not name.startswith("_"):
                    warnings.warn(
                        f"unknown PHH field {name!r} kept as a user field (user fields start with '_')",
                        UnknownFieldWarning,
                        stacklevel=2,
                    )
                user_fields[name] = value
        known = {name: fields[name] for name in REQUIRED_ORDER if name in fields}
        finishing = fields.get("finishing_stacks")
        decimals = _decimals(fields)
        if decimals:
            known = {name: _scaled(name, value, decimals) for name, value in known.items()}
            finishing = _scaled("finishing_stacks", finishing, decimals)
            metadata = {name: _scaled(name, value, decimals) for name, value in metadata.items()}
        return cls(
            **known,
            finishing_stacks=finishing,
            metadata=metadata,
            user_fields=user_fields,
            decimals=decimals,
        )


def _decimals(fields: Mapping[str, Any]) -> int:
    """The decimal places of the hand's smallest unit, over every amount it uses: the amount
    fields and every ``cbr`` action (the one with too many is named)."""
    decimals = 0
    for name in _AMOUNT_FIELDS:
        value = fields.get(name)
        places = decimals_of(value if isinstance(value, (list, tuple)) else [value])
        if places > MAX_DECIMALS:
            raise HistoryError(_too_fine(places), field=name)
        decimals = max(decimals, places)
    actions = fields.get("actions")
    for index, text in enumerate(actions if isinstance(actions, (list, tuple)) else ()):
        amount = bet_amount_text(text) if isinstance(text, str) else None
        if amount is not None:
            try:
                places = decimals_of([Decimal(amount)])
            except ArithmeticError:
                continue   # parse_action words the error
            if places > MAX_DECIMALS:
                raise HistoryError(_too_fine(places), index=index, action=text)
            decimals = max(decimals, places)
    return decimals


def _too_fine(places: int) -> str:
    return (f"an amount with {places} decimal places; at most {MAX_DECIMALS} can be counted "
            "in whole chips (int64)")


def _scaled(name: str, value: Any, decimals: int) -> Any:
    """An amount field's raw value in units of ``10**-decimals`` (other fields unchanged)."""
    if name not in _AMOUNT_FIELDS:
        return value
    if isinstance(value, (list, tuple)):
        return [scaled(item, decimals) for item in value]
    return scaled(value, decimals)


def _restore_variant(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields with ``variant`` set back from ``_variant``, checked to be the export's pair."""
    real, written = fields["_variant"], fields["variant"]
    if not isinstance(real, str) or PORTABLE_CODES.get(real) != written:
        pairs = ", ".join(f"{code} as {standard}" for code, standard in PORTABLE_CODES.items())
        raise HistoryError(
            f"{safe_repr(real)} with variant {safe_repr(written)} is not a compatible export "
            f"(those write {pairs})",
            field="_variant",
        )
    restored = {name: value for name, value in fields.items() if name != "_variant"}
    restored["variant"] = real
    return restored


def _check_metadata(metadata: Mapping[str, Any], players: int) -> dict[str, Any]:
    checked = {}
    for name, check in OPTIONAL_FIELDS.items():
        if name == "finishing_stacks":
            if name in metadata:
                raise HistoryError(
                    "pass finishing_stacks as its own argument, not in metadata", field=name
                )
            continue
        if metadata.get(name) is not None:
            checked[name] = check(name, metadata[name], players)
    _check_cross_fields(checked, players)
    unknown = set(metadata) - set(OPTIONAL_FIELDS)
    if unknown:
        raise HistoryError(
            f"not optional PHH fields: {sorted(unknown)}; put them in user_fields", field="metadata"
        )
    return checked


def _check_cross_fields(checked: Mapping[str, Any], players: int) -> None:
    """Ranges that depend on another field: seat_count, seats within it, a real date."""
    if checked.get("seat_count", players) < players:
        raise HistoryError(f"{checked['seat_count']} seats cannot hold {players} players",
                           field="seat_count")
    seats = checked.get("seats")
    if seats is not None:
        count = checked.get("seat_count", MAX_SEATS)
        if any(seat > count for seat in seats) or len(set(seats)) != len(seats):
            raise HistoryError(f"{list(seats)}: seats are distinct, from 1 to {count} "
                               "(seat_count)", field="seats")
    if all(name in checked for name in ("year", "month", "day")):
        try:
            datetime.date(checked["year"], checked["month"], checked["day"])
        except ValueError as exc:
            raise HistoryError(f"not a date: {exc}", field="day") from None


def _parse(index: int, text: object, players: int, decimals: int) -> Action:
    if not isinstance(text, str):
        raise HistoryError(f"expected an action string, got {safe_repr(text)}", index=index)
    try:
        return parse_action(text, players=players, decimals=decimals)
    except ValueError as exc:
        raise HistoryError(str(exc), index=index, action=text) from None
