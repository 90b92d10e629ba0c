"""Tournament structures: levels (N1) and payout tables (N8), as data.

A :class:`Structure` is the schedule a tournament plays: its levels (blinds, ante or
big-blind ante, length in hands or in seconds; breaks are levels with no play), the starting
stack, the seats per table, the game, the buy-in and the payout table. It is frozen and
checked when made, so a tournament never starts half-configured; every refusal is a
:class:`~omaha.errors.TournamentError` naming the field at fault.

>>> s = Structure(levels=(Level(10, 20, hands=10), Level(15, 30, hands=10)),
...               starting_stack=1500, payouts=Payouts(shares=(500, 300, 200)))
>>> s.level_for_hand(0), s.level_for_hand(25)[0]       # the last level repeats
((0, Level(10, 20, hands=10)), 1)
>>> s.game_config(s.levels[1]).big_blind, s.limit
(30, 'pot-limit')
>>> s.prize_table(9)                                   # 9 x 100 in per-mille shares
(450, 270, 180)
>>> Structure.loads(s.dumps()) == s
True

Structure files are TOML (:meth:`Structure.load`, ``examples/tournaments/``)::

    name = "Turbo sit-and-go"
    starting_stack = 1500
    seats = 9
    variant = "plo"
    limit = "pot-limit"
    buy_in = 100
    payouts = { shares = [500, 300, 200] }     # or { amounts = [...] }; omitted: the default

    [[levels]]
    small_blind = 10
    big_blind = 20
    hands = 10

Prizes (N8) are whole units: per-mille shares of the pool, each rounded down, the rounding
remainder to first place; or fixed amounts. :func:`default_payouts` pays about the top 15%:

>>> Payouts(shares=(500, 300, 200)).prizes(1001)
(501, 300, 200)
>>> default_payouts(9).shares, default_payouts(100).places
((667, 333), 15)
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from omaha.config import FIXED_LIMIT, GameConfig, parse_variant
from omaha.config import Structure as LimitStructure
from omaha.errors import ConfigError, TournamentError
from omaha.limits import MAX_CHIPS, as_amount, as_int, safe_repr

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "BREAK_ORDERS",
    "DEFAULT_STRUCTURE",
    "LIMITS",
    "MAX_LEVELS",
    "MAX_PAYOUT_PLACES",
    "MAX_STRUCTURE_BYTES",
    "Level",
    "Payouts",
    "Structure",
    "default_payouts",
]

LIMITS = ("fixed-limit", "pot-limit", "no-limit")
"""The betting structures a tournament may play (the values of :class:`omaha.config.Structure`)."""

BREAK_ORDERS = ("highest", "lowest")
"""Which table breaks first (N5): the highest-numbered (the default) or the lowest."""

MAX_LEVELS = 10_000
"""Most levels one structure may list (the last repeats, so more are never needed)."""

MAX_PAYOUT_PLACES = 100_000
"""Most places a table of fixed amounts may pay (per-mille shares pay at most 1000)."""

MAX_STRUCTURE_BYTES = 1 << 20
"""Largest structure file read (1 MiB; the shipped ones are under 4 KiB)."""

DEFAULT_PAID_SHARE = 15
"""The default payout table pays this percentage of the field, rounded up (N8)."""

DEFAULT_MAX_PLACES = 300
"""The default payout table pays at most this many places in per-mille shares (a share is at
least 1, so a table can pay at most 1000; 300 keeps the curve steep); a larger field's
default is paid in amounts (:func:`default_payouts`)."""


def _fail(rule: str | None, where: str, reason: str) -> TournamentError:
    return TournamentError(rule, f"{where}: {reason}")


def _int(value: object, where: str, rule: str, *, low: int | None = 0,
         high: int | None = None) -> int:
    """``value`` as an exact int of chips (or a count) from ``low``: a bool, float or text is
    a TournamentTypeError naming ``where``; out of range a TournamentError."""
    number = as_amount(value, where, low=low, error=TournamentError, rule=rule,
                       above=TournamentError)
    if high is not None and number > high:
        raise _fail(rule, where, f"{number} is above {high}")
    return number


# ---- levels (N1) -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Level:
    """One level of the schedule (N1): blinds, an ante or a big-blind ante, and its length.

    The length is ``hands`` (hands dealt at a table, for simulation) or ``seconds`` (time
    passed in by the caller's clock, D4): exactly one of them, above 0. A break
    (``is_break=True``) has no blinds and no play; its ``hands`` or ``seconds`` still set its
    length. ``ante`` (every player) and ``big_blind_ante`` (the big blind, for the table) are
    not both set. ``small_blind=0`` is a single blind (T3's reading).

    >>> Level(25, 50, ante=5, seconds=600).ante
    5
    >>> Level(0, 0, seconds=300, is_break=True).is_break
    True
    >>> Level(50, 40, hands=10)
    Traceback (most recent call last):
    ...
    omaha.errors.TournamentError: N1: small_blind: 50 is above the big blind 40
    """

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: int = 0
    hands: int | None = None
    seconds: int | None = None
    is_break: bool = False

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante", "big_blind_ante"):
            object.__setattr__(self, name, _int(getattr(self, name), name, "N1"))
        if type(self.is_break) is not bool:
            raise _fail("N1", "is_break", f"must be true or false, got {safe_repr(self.is_break)}")
        if (self.hands is None) == (self.seconds is None):
            raise _fail("N1", "hands", "a level lasts a number of hands or of seconds: give "
                        "exactly one of hands and seconds")
        for name in ("hands", "seconds"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, _int(getattr(self, name), name, "N1", low=1))
        if self.is_break:
            for name in ("small_blind", "big_blind", "ante", "big_blind_ante"):
                if getattr(self, name):
                    raise _fail("N1", name, f"a break has no blinds or antes, got "
                                f"{getattr(self, name)}")
            return
        if self.big_blind < 1:
            raise _fail("N1", "big_blind", f"must be at least 1 (a break sets is_break), got "
                        f"{self.big_blind}")
        if self.small_blind > self.big_blind:
            raise _fail("N1", "small_blind", f"{self.small_blind} is above the big blind "
                        f"{self.big_blind}")
        if self.ante and self.big_blind_ante:
            raise _fail("N1", "big_blind_ante", "a level has an ante or a big-blind ante, "
                        "not both")

    def __repr__(self) -> str:
        shown = [repr(self.small_blind), repr(self.big_blind)]
        for name in ("ante", "big_blind_ante", "hands", "seconds", "is_break"):
            value = getattr(self, name)
            if value:
                shown.append(f"{name}={value!r}")
        return f"Level({', '.join(shown)})"

    @property
    def length(self) -> int:
        """Its ``hands`` or its ``seconds``, whichever it is counted in."""
        return self.hands if self.hands is not None else self.seconds  # type: ignore[return-value]

    def to_dict(self) -> dict[str, Any]:
        """Its fields, leaving out the ones at their default (TOML has no null)."""
        data: dict[str, Any] = {"small_blind": self.small_blind, "big_blind": self.big_blind}
        for name, default in (("ante", 0), ("big_blind_ante", 0), ("hands", None),
                              ("seconds", None), ("is_break", False)):
            value = getattr(self, name)
            if value != default:
                data[name] = value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, where: str = "level") -> Level:
        """Inverse of :meth:`to_dict`; a break may leave its blinds out. An error names the
        field as ``where.field`` (``levels[3].big_blind``)."""
        if not isinstance(data, Mapping):
            raise _fail("N1", where, f"must be a table of fields, got {safe_repr(data)}")
        unknown = sorted(set(data) - set(_LEVEL_FIELDS))
        if unknown:
            raise _fail("N1", f"{where}.{unknown[0]}", f"unknown field; a level has "
                        f"{', '.join(_LEVEL_FIELDS)}")
        fields = dict(data)
        if fields.get("is_break") is True:
            fields.setdefault("small_blind", 0)
            fields.setdefault("big_blind", 0)
        for name in ("small_blind", "big_blind"):
            if name not in fields:
                raise _fail("N1", f"{where}.{name}", "missing")
        try:
            return cls(**fields)
        except TournamentError as exc:
            raise _within(exc, where) from None


_LEVEL_FIELDS = ("small_blind", "big_blind", "ante", "big_blind_ante", "hands", "seconds",
                 "is_break")


def _within(exc: TournamentError, where: str) -> TournamentError:
    """``exc`` (of the same class) with its field named inside ``where``."""
    text = str(exc)
    prefix = f"{exc.rule}: " if exc.rule else ""
    return type(exc)(exc.rule, f"{where}.{text[len(prefix):]}")


# ---- prizes (N8) -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Payouts:
    """A payout table (N8): per-mille ``shares`` of the prize pool by place, or fixed
    ``amounts`` by place; exactly one of them.

    Shares are ints above 0, non-increasing, summing to exactly 1000; amounts are ints above
    0, non-increasing, and are the whole prize pool (whatever the buy-ins).

    >>> Payouts(shares=[600, 400]).prizes(999)      # 599.4 and 399.6 -> 599 + 1, 399
    (600, 399)
    >>> Payouts(amounts=(700, 300)).prizes(1000)
    (700, 300)
    >>> Payouts(shares=(500, 300, 190))
    Traceback (most recent call last):
    ...
    omaha.errors.TournamentError: N8: payouts.shares: sum to 990, not 1000
    """

    shares: tuple[int, ...] | None = None
    amounts: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if (self.shares is None) == (self.amounts is None):
            raise _fail("N8", "payouts", "give exactly one of shares (per-mille by place) and "
                        "amounts")
        name = "shares" if self.shares is not None else "amounts"
        values = self.shares if self.shares is not None else self.amounts
        where = f"payouts.{name}"
        if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Sequence):
            raise _fail("N8", where, f"must be a list of ints by place, got {safe_repr(values)}")
        most = 1000 if name == "shares" else MAX_PAYOUT_PLACES
        if not values or len(values) > most:
            raise _fail("N8", where, f"must pay 1 to {most} places, got {len(values)}")
        checked = tuple(_int(v, f"{where}[{i}]", "N8", low=1) for i, v in enumerate(values))
        for i in range(1, len(checked)):
            if checked[i] > checked[i - 1]:
                raise _fail("N8", f"{where}[{i}]", f"{checked[i]} is above place {i}'s "
                            f"{checked[i - 1]}; prizes never rise down the places")
        total = sum(checked)
        if name == "shares" and total != 1000:
            raise _fail("N8", where, f"sum to {total}, not 1000")
        if total > MAX_CHIPS:
            raise _fail("N8", where, f"sum to {total}, above MAX_CHIPS = 2**63-1")
        object.__setattr__(self, name, checked)

    @property
    def places(self) -> int:
        """How many places are paid."""
        return len(self.shares if self.shares is not None else self.amounts)  # type: ignore[arg-type]

    def prizes(self, pool: int) -> tuple[int, ...]:
        """The prize of each paid place, first place first, summing exactly to ``pool`` (N8).

        Shares: ``pool * share // 1000`` each, the rounding remainder to first place.
        Amounts: as given; ``pool`` must be their sum.

        Raises:
            TournamentError: ``pool`` negative or not an int; amounts that do not sum to it.
        """
        pool = _int(pool, "pool", "N8")
        if self.amounts is not None:
            if pool != sum(self.amounts):
                raise _fail("N8", "pool", f"{pool} is not the {sum(self.amounts)} the "
                            "payouts' amounts pay")
            return self.amounts
        assert self.shares is not None
        prizes = [pool * share // 1000 for share in self.shares]
        prizes[0] += pool - sum(prizes)
        return tuple(prizes)

    def to_dict(self) -> dict[str, list[int]]:
        """``{"shares": [...]}`` or ``{"amounts": [...]}``."""
        if self.shares is not None:
            return {"shares": list(self.shares)}
        return {"amounts": list(self.amounts or ())}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Payouts:
        """Inverse of :meth:`to_dict`."""
        if not isinstance(data, Mapping):
            raise _fail("N8", "payouts", f"must be a table with shares or amounts, got "
                        f"{safe_repr(data)}")
        unknown = sorted(set(data) - {"shares", "amounts"})
        if unknown:
            raise _fail("N8", f"payouts.{unknown[0]}", "unknown field; payouts have shares "
                        "or amounts")
        return cls(shares=data.get("shares"), amounts=data.get("amounts"))


def default_payouts(entrants: int, pool: int | None = None) -> Payouts:
    """The default payout table for a field of ``entrants`` (N8): about the top 15%.

    Places paid: ``ceil(15% of entrants)``, at least 1: 2-6 entrants pay 1, 7-13 pay 2,
    14-20 pay 3, 100 pay 15, 1000 pay 150. Up to :data:`DEFAULT_MAX_PLACES` (300) places the
    table is per-mille shares; a larger field, given its prize ``pool``, pays its 15% in
    amounts (:func:`_default_amounts`: every paid place a min-cash of about the buy-in, the
    rest on the same harmonic curve); without a pool (or one too small to give every place
    a chip) it pays 300 places in shares. Shares: every paid place gets 1 per-mille, and
    the other ``1000 - places`` per-mille are shared in proportion to ``1/k`` for place ``k``
    (a harmonic curve), each rounded down in exact integers, what rounding left over given one
    per-mille each to the best places (fewer than ``places`` of them). So
    the shares are ints, non-increasing, at least 1, and sum to exactly 1000.

    >>> default_payouts(2).shares, default_payouts(20).shares
    ((1000,), (545, 273, 182))
    >>> default_payouts(1000).shares[:3], default_payouts(1000).places
    ((154, 78, 52), 150)
    """
    entrants = _int(entrants, "entrants", "N8", low=2)
    places = max(1, -(-entrants * DEFAULT_PAID_SHARE // 100))
    if places > DEFAULT_MAX_PLACES and pool is not None:
        amounts = _default_amounts(places, _int(pool, "pool", "N8"))
        if amounts is not None:
            return Payouts(amounts=amounts)
    places = min(DEFAULT_MAX_PLACES, places)
    scale = 10**18
    weights = [scale // k for k in range(1, places + 1)]
    spread = 1000 - places
    total = sum(weights)
    shares = [1 + spread * w // total for w in weights]
    for k in range(1000 - sum(shares)):   # fewer than ``places`` left: one each from the top
        shares[k] += 1
    return Payouts(shares=tuple(shares))


def _default_amounts(places: int, pool: int) -> tuple[int, ...] | None:
    """A large field's default prizes: ``places`` amounts summing to ``pool``, non-increasing.

    15% of the pool is spread evenly over the paid places (with 15% of the field paid,
    that is about the buy-in each: the min-cash); the rest goes in proportion to ``1/k`` for
    place ``k``, rounded down; the rounding remainder goes to first place (N8). None when the
    min-cash would be under one chip.

    >>> prizes = _default_amounts(1500, 1_000_000)
    >>> len(prizes), sum(prizes), prizes[-1], prizes[:3]
    (1500, 1000000, 171, (108577, 53960, 36006))
    """
    base = pool * DEFAULT_PAID_SHARE // (100 * places)
    if base < 1:
        return None
    scale = 10**18
    weights = [scale // k for k in range(1, places + 1)]
    total = sum(weights)
    spread = pool - base * places
    amounts = [base + spread * w // total for w in weights]
    amounts[0] += pool - sum(amounts)
    return tuple(amounts)


# ---- the structure (N1) ----------------------------------------------------------------------

_STRUCTURE_FIELDS = ("name", "starting_stack", "seats", "variant", "limit", "buy_in",
                     "payouts", "break_order", "late_entry_levels", "re_entries", "levels")


@dataclass(frozen=True, slots=True, kw_only=True)
class Structure:
    """A tournament's schedule and prizes (N1, N8).

    ``levels`` is the schedule: at least one, all counted in hands or all in seconds, the big
    blind of the levels with play never going down, not starting or ending with a break (the
    last level repeats for as long as the tournament lasts). ``starting_stack`` is everyone's
    (N1). ``seats`` per table (2-10, T1, and no more than the variant can deal to, C1).
    ``variant`` is a name :func:`omaha.config.parse_variant` accepts; ``limit`` is
    ``"fixed-limit"``, ``"pot-limit"`` or ``"no-limit"``, by default the one the variant's
    name says or its usual one (``"plo"`` pot limit, ``"omaha8"`` fixed limit), and must
    agree with a name that says one. The prize pool is ``entrants * buy_in`` (with fixed
    ``amounts``, their sum); ``payouts`` None is :func:`default_payouts` for the field.
    ``break_order`` is which table breaks first (N5): ``"highest"`` number or ``"lowest"``.
    ``late_entry_levels`` (N2) is how many levels take late entries (0: none after the draw;
    ``2``: until the third level's first hand); ``re_entries`` how many times one player may
    enter again after busting, while late entries are open. ``name`` is kept, for people.

    >>> Structure(levels=[Level(1, 2, hands=5)], starting_stack=100, variant="omaha8").limit
    'fixed-limit'
    >>> Structure(levels=[Level(1, 2, hands=5)], starting_stack=100, seats=11)
    Traceback (most recent call last):
    ...
    omaha.errors.TournamentError: T1: seats: 11 is outside 2-10
    """

    levels: tuple[Level, ...]
    starting_stack: int
    seats: int = 9
    variant: str = "plo"
    limit: str = field(default=None)  # type: ignore[assignment]  # None: the variant's
    buy_in: int = 100
    payouts: Payouts | None = None
    break_order: str = "highest"
    late_entry_levels: int = 0
    re_entries: int = 0
    name: str | None = None

    def __post_init__(self) -> None:
        self._check_levels()
        object.__setattr__(self, "starting_stack",
                           _int(self.starting_stack, "starting_stack", "N1", low=1))
        seats = as_int(self.seats, "seats", error=TournamentError, rule="T1")
        if not 2 <= seats <= 10:
            raise _fail("T1", "seats", f"{seats} is outside 2-10")
        object.__setattr__(self, "seats", seats)
        if not isinstance(self.variant, str):
            raise _fail("C6", "variant", f"must be a variant's name, got {safe_repr(self.variant)}")
        try:
            meaning = parse_variant(self.variant)
        except ConfigError as exc:
            raise _fail("C6", "variant", str(exc).removeprefix("C6: ")) from None
        if seats > meaning.variant.max_players:
            raise _fail("C1", "seats", f"{seats} is more than {meaning.variant.name} deals to "
                        f"({meaning.variant.max_players})")
        limit = self.limit
        if limit is None:
            limit = (meaning.structure or meaning.usual).value
        if limit not in LIMITS:
            raise _fail("B3", "limit", f"must be one of {', '.join(LIMITS)}, got "
                        f"{safe_repr(limit)}")
        if meaning.structure is not None and meaning.structure.value != limit:
            raise _fail("B3", "limit", f"{limit} disagrees with variant {self.variant!r}, which "
                        f"is {meaning.structure.value}; name the variant without a structure "
                        "(e.g. 'omaha')")
        object.__setattr__(self, "limit", limit)
        object.__setattr__(self, "buy_in", _int(self.buy_in, "buy_in", "N8"))
        if self.payouts is not None and not isinstance(self.payouts, Payouts):
            raise _fail("N8", "payouts", f"must be a Payouts or None, got {safe_repr(self.payouts)}")
        if self.break_order not in BREAK_ORDERS:
            raise _fail("N5", "break_order", f"must be 'highest' or 'lowest', got "
                        f"{safe_repr(self.break_order)}")
        late = as_int(self.late_entry_levels, "late_entry_levels", error=TournamentError,
                      rule="N2")
        if not 0 <= late <= len(self.levels):
            raise _fail("N2", "late_entry_levels", f"{late} is outside 0-{len(self.levels)} "
                        "(the levels)")
        again = as_int(self.re_entries, "re_entries", error=TournamentError, rule="N2")
        if not 0 <= again <= 100:
            raise _fail("N2", "re_entries", f"{again} is outside 0-100")
        if again and not late:
            raise _fail("N2", "re_entries", "re-entries need late entries (late_entry_levels "
                        "above 0)")
        object.__setattr__(self, "late_entry_levels", late)
        object.__setattr__(self, "re_entries", again)
        if self.name is not None and not isinstance(self.name, str):
            raise _fail(None, "name", f"must be text, got {safe_repr(self.name)}")
        for index, level in enumerate(self.levels):   # every game it plays can be made
            if not level.is_break:
                try:
                    self.game_config(level)
                except ConfigError as exc:
                    text = str(exc).removeprefix(f"{exc.rule}: ") if exc.rule else str(exc)
                    raise _fail(exc.rule, f"levels[{index}]", text) from None

    def _check_levels(self) -> None:
        levels = self.levels
        if isinstance(levels, (str, bytes, Mapping)) or not isinstance(levels, Sequence):
            raise _fail("N1", "levels", f"must be a list of levels, got {safe_repr(levels)}")
        levels = tuple(levels)
        if not levels or len(levels) > MAX_LEVELS:
            raise _fail("N1", "levels", f"must list 1 to {MAX_LEVELS} levels, got {len(levels)}")
        previous: tuple[int, Level] | None = None
        for index, level in enumerate(levels):
            if not isinstance(level, Level):
                raise _fail("N1", f"levels[{index}]", f"must be a Level, got {safe_repr(level)}")
            if (level.hands is None) != (levels[0].hands is None):
                unit, other = ("hands", "seconds") if levels[0].hands is not None else (
                    "seconds", "hands")
                raise _fail("N1", f"levels[{index}].{other}", f"levels[0] is counted in {unit}; "
                            "every level of a structure is counted the same way")
            if level.is_break:
                continue
            if previous is not None and level.big_blind < previous[1].big_blind:
                raise _fail("N1", f"levels[{index}].big_blind", f"{level.big_blind} is below "
                            f"the previous level's {previous[1].big_blind} (levels[{previous[0]}])")
            previous = (index, level)
        if levels[0].is_break:
            raise _fail("N1", "levels[0].is_break", "a tournament does not start with a break")
        if levels[-1].is_break:
            raise _fail("N1", f"levels[{len(levels) - 1}].is_break", "the last level repeats "
                        "for as long as the tournament lasts, so it cannot be a break")
        object.__setattr__(self, "levels", levels)

    # ---- the schedule

    @property
    def counted_in(self) -> str:
        """``"hands"`` or ``"seconds"``: what the levels' lengths count."""
        return "hands" if self.levels[0].hands is not None else "seconds"

    def level_for_hand(self, hands_played: int) -> tuple[int, Level]:
        """The index and level of the next hand dealt after ``hands_played`` hands (N1).

        Level ``i`` covers the hands after the lengths of the levels before it; the last
        level repeats forever. No hand is dealt in a break, so a break's hands are not
        counted: the level found is never a break (the engine announces the breaks it
        passes).

        >>> s = Structure(levels=[Level(1, 2, hands=3), Level(0, 0, hands=9, is_break=True),
        ...                       Level(2, 4, hands=3)], starting_stack=100)
        >>> [s.level_for_hand(n)[0] for n in (0, 2, 3, 5, 6, 100)]
        [0, 0, 2, 2, 2, 2]
        """
        if self.counted_in != "hands":
            raise _fail("N1", "levels", "the levels are counted in seconds; use level_for_time")
        played = as_int(hands_played, "hands_played", low=0, error=TournamentError, rule="N1")
        last = len(self.levels) - 1
        for index, level in enumerate(self.levels):
            if level.is_break:
                continue
            assert level.hands is not None
            if played < level.hands or index == last:
                return index, level
            played -= level.hands
        raise AssertionError("unreachable: the last level is not a break")

    def level_for_time(self, seconds: float) -> tuple[int, Level]:
        """The index and level in play ``seconds`` after the start (N1, D4); the last level
        repeats forever. A break is returned as itself: no hand starts in it.

        >>> s = Structure(levels=[Level(1, 2, seconds=600), Level(0, 0, seconds=300,
        ...                       is_break=True), Level(2, 4, seconds=600)], starting_stack=100)
        >>> [s.level_for_time(t)[0] for t in (0, 599.9, 600, 900, 10**6)]
        [0, 0, 1, 2, 2]
        """
        if self.counted_in != "seconds":
            raise _fail("N1", "levels", "the levels are counted in hands; use level_for_hand")
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise _fail("D4", "seconds", f"must be a number of seconds, got {safe_repr(seconds)}")
        if not (math.isfinite(seconds) and seconds >= 0):
            raise _fail("D4", "seconds", f"must be finite and at least 0, got {seconds!r}")
        start = 0
        last = len(self.levels) - 1
        for index, level in enumerate(self.levels):
            assert level.seconds is not None
            if seconds < start + level.seconds or index == last:
                return index, level
            start += level.seconds
        raise AssertionError("unreachable")

    def game_config(self, level: Level) -> GameConfig:
        """The game one hand of ``level`` plays: the structure's variant and limit with the
        level's blinds and ante (fixed limit: small bet = big blind, big bet = twice it).

        >>> s = Structure(levels=[Level(10, 20, hands=5)], starting_stack=500, variant="flo8")
        >>> c = s.game_config(s.levels[0]); (c.small_blind, c.big_blind, c.small_bet, c.big_bet)
        (10, 20, 20, 40)
        """
        if not isinstance(level, Level):
            raise _fail("N1", "level", f"must be a Level, got {safe_repr(level)}")
        if level.is_break:
            raise _fail("N1", "level", "a break plays no hands")
        variant = parse_variant(self.variant).variant
        big = level.big_blind
        if self.limit == FIXED_LIMIT.value:
            return GameConfig.fixed_limit(small_bet=big, big_bet=2 * big, variant=variant,
                                          small_blind=level.small_blind, big_blind=big,
                                          ante=level.ante, big_blind_ante=level.big_blind_ante)
        return GameConfig(structure=LimitStructure(self.limit), variant=variant,
                          small_blind=level.small_blind, big_blind=big, ante=level.ante,
                          big_blind_ante=level.big_blind_ante)

    # ---- prizes

    def payouts_for(self, entrants: int) -> Payouts:
        """The payout table of a field of ``entrants``: ``payouts``, or the default (N8)."""
        entrants = as_int(entrants, "entrants", low=2, error=TournamentError, rule="N8")
        if self.payouts is not None:
            return self.payouts
        return default_payouts(entrants, _int(entrants * self.buy_in, "prize pool", "N8"))

    def prize_pool(self, entrants: int) -> int:
        """``entrants * buy_in``; with fixed amounts, their sum (N8)."""
        payouts = self.payouts_for(entrants)
        if payouts.amounts is not None:
            return sum(payouts.amounts)
        return _int(entrants * self.buy_in, "prize pool (entrants x buy_in)", "N8")

    def prize_table(self, entrants: int) -> tuple[int, ...]:
        """The prize of each paid place for a field of ``entrants`` (N8), first place first,
        summing exactly to :meth:`prize_pool`.

        Raises:
            TournamentError: fewer than 2 entrants, or fewer entrants than paid places.
        """
        payouts = self.payouts_for(entrants)
        if payouts.places > entrants:
            raise _fail("N8", "payouts", f"pay {payouts.places} places but there are only "
                        f"{entrants} entrants")
        return payouts.prizes(self.prize_pool(entrants))

    # ---- data and files

    def to_dict(self) -> dict[str, Any]:
        """The fields as TOML/JSON data, leaving out ``name`` and ``payouts`` when None."""
        data: dict[str, Any] = {}
        if self.name is not None:
            data["name"] = self.name
        data.update(starting_stack=self.starting_stack, seats=self.seats, variant=self.variant,
                    limit=self.limit, buy_in=self.buy_in)
        if self.payouts is not None:
            data["payouts"] = self.payouts.to_dict()
        data["break_order"] = self.break_order
        if self.late_entry_levels:
            data["late_entry_levels"] = self.late_entry_levels
        if self.re_entries:
            data["re_entries"] = self.re_entries
        data["levels"] = [level.to_dict() for level in self.levels]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Structure:
        """Inverse of :meth:`to_dict` (the format of a structure file)."""
        if not isinstance(data, Mapping):
            raise _fail("N1", "structure", f"must be a table of fields, got {safe_repr(data)}")
        unknown = sorted(set(data) - set(_STRUCTURE_FIELDS))
        if unknown:
            raise _fail("N1", unknown[0], f"unknown field; a structure has "
                        f"{', '.join(_STRUCTURE_FIELDS)}")
        for name in ("levels", "starting_stack"):
            if name not in data:
                raise _fail("N1", name, "missing")
        levels = data["levels"]
        if isinstance(levels, (str, bytes, Mapping)) or not isinstance(levels, Sequence):
            raise _fail("N1", "levels", f"must be a list of levels, got {safe_repr(levels)}")
        if len(levels) > MAX_LEVELS:
            raise _fail("N1", "levels", f"must list 1 to {MAX_LEVELS} levels, got {len(levels)}")
        fields = dict(data)
        fields["levels"] = tuple(Level.from_dict(level, where=f"levels[{i}]")
                                 for i, level in enumerate(levels))
        if "payouts" in fields:
            fields["payouts"] = Payouts.from_dict(fields["payouts"])
        return cls(**fields)

    def dumps(self) -> str:
        """The structure as TOML text that :meth:`loads` reads back equal."""
        data = self.to_dict()
        lines = []
        for key, value in data.items():
            if key == "payouts":
                (kind, values), = value.items()
                lines.append(f"payouts = {{ {kind} = {_toml(values)} }}")
            elif key != "levels":
                lines.append(f"{key} = {_toml(value)}")
        for level in data["levels"]:
            lines += ["", "[[levels]]"] + [f"{k} = {_toml(v)}" for k, v in level.items()]
        return "\n".join(lines) + "\n"

    @classmethod
    def loads(cls, text: str, *, source: str = "<text>") -> Structure:
        """A structure from TOML text (the format of :meth:`dumps` and the module docstring).

        Raises:
            TournamentError: not TOML (naming ``source`` and the line), or a field at fault.
        """
        if not isinstance(text, str):
            raise _fail(None, source, f"a structure file is text, got {safe_repr(text)}")
        if len(text) > MAX_STRUCTURE_BYTES:
            raise _fail(None, source, f"longer than {MAX_STRUCTURE_BYTES} characters")
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, ValueError, RecursionError) as exc:
            raise _fail(None, source, f"not TOML: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Structure:
        """A structure from a TOML file (see :meth:`loads`).

        Raises:
            TournamentError: the file is missing or unreadable, is not TOML (naming the path
                and the line), or a field is at fault.
        """
        shown = os.fspath(path)
        try:
            with open(path, encoding="utf-8") as file:
                text = file.read(MAX_STRUCTURE_BYTES + 1)
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise _fail(None, shown, f"cannot read the structure file: {reason}") from None
        return cls.loads(text, source=shown)


def _toml(value: object) -> str:
    """A TOML value of the plain kinds a structure holds."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        escaped = "".join(f"\\u{ord(c):04x}" if (c < " " and c != "\t") or c == "\x7f" else c
                          for c in escaped)
        return f'"{escaped}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")   # pragma: no cover - never in a structure


def _default_levels() -> tuple[Level, ...]:
    blinds = [(10, 20), (15, 30), (25, 50), (50, 100), (75, 150), (100, 200), (150, 300),
              (200, 400), (300, 600), (400, 800), (500, 1000), (700, 1400), (1000, 2000),
              (1500, 3000), (2000, 4000), (3000, 6000), (4000, 8000), (6000, 12000),
              (8000, 16000), (10000, 20000), (15000, 30000), (20000, 40000), (30000, 60000),
              (40000, 80000), (60000, 120000), (80000, 160000), (100000, 200000)]
    return tuple(Level(small, big, big_blind_ante=big if i >= 3 else 0, hands=12)
                 for i, (small, big) in enumerate(blinds))


DEFAULT_STRUCTURE = Structure(
    name="Default (pot-limit Omaha, 12 hands a level)",
    levels=_default_levels(), starting_stack=5000, seats=9, variant="plo",
    limit="pot-limit", buy_in=100)
"""The structure ``omaha tournament`` plays unless told otherwise (also shipped as
``examples/tournaments/default.toml``): pot-limit Omaha, 9 seats, 5000 chips, 27 levels of
12 hands from 10/20 (big-blind antes from level 4), a buy-in of 100 and the default payout
table (:func:`default_payouts`, about the top 15%)."""
