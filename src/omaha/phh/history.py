"""The hand history object: one hand in the PHH standard, checked on construction.

A :class:`HandHistory` holds the fields of one ``.phh`` file. Building one checks every
field's type, the field set the variant requires, the per-player array lengths, and the
syntax of every action; a fault raises :class:`~omaha.phh.HistoryError` naming the field
or the action's index and text. Whether the actions are *legal* is decided by replaying
them through the engine (:mod:`omaha.phh.replay`).

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
"""

from __future__ import annotations

import datetime
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from omaha.config import MAX_SEATS
from omaha.limits import shown
from omaha.phh.actions import Action, parse_action
from omaha.phh.errors import HistoryError
from omaha.phh.fields import OPTIONAL_FIELDS, check_chips, check_chips_list
from omaha.phh.variants import PORTABLE_CODES, Variant, variant_for_code

__all__ = ["HandHistory", "UnknownFieldWarning"]

_BET_FIELDS = ("min_bet", "small_bet", "big_bet")
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


@dataclass(frozen=True, kw_only=True)
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
        self._set(
            "starting_stacks", check_chips_list("starting_stacks", stacks, players, positive=True)
        )
        self._set("antes", check_chips_list("antes", self.antes, players))
        self._set(
            "blinds_or_straddles",
            check_chips_list("blinds_or_straddles", self.blinds_or_straddles, players),
        )
        self._check_bet_fields(game)
        if self.finishing_stacks is not None:
            self._set(
                "finishing_stacks",
                check_chips_list("finishing_stacks", self.finishing_stacks, players),
            )
        self._set("metadata", _check_metadata(self.metadata, players))
        self._set("user_fields", dict(self.user_fields))
        if not isinstance(self.actions, (list, tuple)):
            raise HistoryError("expected an array of action strings", field="actions")
        self._set("actions", tuple(self.actions))
        self._set(
            "parsed_actions", tuple(_parse(i, text, players) for i, text in enumerate(self.actions))
        )

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
        return _heads_up_reversed(self.antes)

    def posted_blinds(self) -> tuple[int, ...]:
        """The blind each player (in PHH order) posts: heads-up the array is reversed, so
        with ``[1, 2]`` p1 posts the big blind 2 and p2, the button, the small blind 1.

        >>> HandHistory(variant="PO", antes=[0, 0], blinds_or_straddles=[1, 2], min_bet=2,
        ...             starting_stacks=[100, 100]).posted_blinds()
        (2, 1)
        """
        return _heads_up_reversed(self.blinds_or_straddles)

    def fields(self) -> Iterator[tuple[str, Any]]:
        """The fields to write, as ``(name, value)`` pairs: required fields first in the
        standard's order, then the optional fields present, then user fields."""
        for name in REQUIRED_ORDER:
            value = getattr(self, name)
            if value is not None:
                yield name, list(value) if isinstance(value, tuple) else value
        for name in OPTIONAL_FIELDS:
            value = self.finishing_stacks if name == "finishing_stacks" else self.metadata.get(name)
            if value is not None:
                yield name, list(value) if isinstance(value, tuple) else value
        yield from self.user_fields.items()

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
        return cls(
            **known,
            finishing_stacks=fields.get("finishing_stacks"),
            metadata=metadata,
            user_fields=user_fields,
        )


def _restore_variant(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields with ``variant`` set back from ``_variant``, checked to be the export's pair."""
    real, written = fields["_variant"], fields["variant"]
    if not isinstance(real, str) or PORTABLE_CODES.get(real) != written:
        pairs = ", ".join(f"{code} as {standard}" for code, standard in PORTABLE_CODES.items())
        raise HistoryError(
            f"{shown(real)} with variant {shown(written)} is not a compatible export "
            f"(those write {pairs})",
            field="_variant",
        )
    restored = {name: value for name, value in fields.items() if name != "_variant"}
    restored["variant"] = real
    return restored


def _heads_up_reversed(values: Sequence[int]) -> tuple[int, ...]:
    return tuple(reversed(values)) if len(values) == 2 else tuple(values)


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


def _parse(index: int, text: object, players: int) -> Action:
    if not isinstance(text, str):
        raise HistoryError(f"expected an action string, got {shown(text)}", index=index)
    try:
        return parse_action(text, players=players)
    except ValueError as exc:
        raise HistoryError(str(exc), index=index, action=text) from None
