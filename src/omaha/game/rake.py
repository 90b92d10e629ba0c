"""The rake hook and the rake schedules (rules K1-K4): how much the house takes from a
finished hand.

:class:`RakeRule` is the hook a hand asks (K1): any object with ``rake_for``. A schedule is data (K4): a frozen dataclass that round-trips through plain JSON with
:func:`rake_to_dict` / :func:`rake_from_dict`. Every schedule answers one question::

    schedule.rake_for(pot_total, players_dealt, saw_flop) -> int

in the table's smallest unit (cents for the seed charts). The engine asks once, before
awarding, and the pot splitter takes that amount from the pots in proportion to their sizes
(K1: floor per pot, remainder from the main pot).

Three kinds ship:

- :class:`PercentageRake`: so much per whole unit of pot, capped by the number of players dealt
  in, zero under a minimum (K3). :data:`SEED_POT_LIMIT_RAKE` is the seeds' pot/no-limit chart.
- :class:`ThresholdRake`: "pot at least X gives rake Y" rows per range of players dealt in (one
  stakes band of K2). :class:`FixedLimitRakeChart` holds several bands and picks one from the
  game's big bet; :data:`SEED_FIXED_LIMIT_CHART` is the seeds' fixed-limit chart.
- :class:`NoRake`.

Every kind honours "no flop, no drop" (K1): with ``no_flop_no_drop=True`` (the default) a hand
that ended before the flop pays nothing.

>>> SEED_POT_LIMIT_RAKE.rake_for(1_999, 6, True)     # $19.99: 19 whole dollars -> $0.95
95
>>> SEED_POT_LIMIT_RAKE.rake_for(1_999, 6, False)    # no flop, no drop
0
>>> band = SEED_FIXED_LIMIT_CHART.for_big_bet(2_000)  # a $10/$20 game
>>> band.rake_for(4_000, 5, True)                     # $40 pot, 5 dealt in -> $2.00
200
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Protocol, runtime_checkable

from omaha.errors import RakeError
from omaha.limits import as_amount, safe_repr

__all__ = [
    "SEED_FIXED_LIMIT_CHART",
    "SEED_POT_LIMIT_RAKE",
    "FixedLimitRakeChart",
    "NoRake",
    "PercentageRake",
    "PlayersBracket",
    "RakeError",
    "RakeRule",
    "RakeSchedule",
    "StakesBand",
    "Threshold",
    "ThresholdRake",
    "rake_from_dict",
    "rake_to_dict",
]


class RakeRule(Protocol):
    """The rake hook (K1): asked once, before awarding, how much the house takes."""

    def rake_for(self, pot_total: int, players_dealt: int, saw_flop: bool) -> int:
        """Rake for a pot of ``pot_total`` (uncalled chips excluded)."""
        ...


@runtime_checkable
class RakeSchedule(RakeRule, Protocol):
    """A rake schedule as data (K4): the engine's :class:`RakeRule` hook (``rake_for``, asked
    once before awarding) plus a JSON-ready description."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description that :func:`rake_from_dict` turns back into this schedule."""
        ...


# --- validation helpers ---------------------------------------------------------------------

def _int(value: object, what: str, *, minimum: int = 0) -> int:
    """``value`` as an exact int from ``minimum`` to MAX_CHIPS (the one validator; a rake
    schedule keeps its own RakeError past the limit)."""
    return as_amount(value, what, low=minimum, error=RakeError, above=RakeError)


def _store(owner: object, name: str, what: str, *, minimum: int = 0) -> int:
    """Check a dataclass field and keep it as an exact int (a NumPy int would overflow)."""
    value = _int(getattr(owner, name), what, minimum=minimum)
    object.__setattr__(owner, name, value)
    return value


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise RakeError(f"{what} must be true or false, got {safe_repr(value)}")
    return value


def _question(pot_total: int, players_dealt: int, saw_flop: bool) -> tuple[int, int]:
    """The arguments of ``rake_for`` checked (the same for every schedule), as exact ints."""
    _bool(saw_flop, "saw_flop")
    return _int(pot_total, "pot_total"), _int(players_dealt, "players_dealt", minimum=2)


def _pairs(value: object, what: str) -> list[tuple[object, object]]:
    """A JSON list of two-element lists as Python pairs."""
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise RakeError(f"{what} must be a list of [a, b] pairs, got {safe_repr(value)}")
    pairs = []
    for item in value:
        if not isinstance(item, Sequence) or isinstance(item, str) or len(item) != 2:
            raise RakeError(f"{what} entries must be [a, b] pairs, got {safe_repr(item)}")
        pairs.append((item[0], item[1]))
    return pairs


def _fields(data: object, kind: str, allowed: set[str]) -> Mapping[str, Any]:
    """``data`` as a mapping of the given kind with no unknown keys."""
    if not isinstance(data, Mapping):
        raise RakeError(f"a rake schedule must be a mapping, got {safe_repr(data)}")
    if data.get("kind") != kind:
        raise RakeError(f"expected kind {safe_repr(kind)}, got {data.get('kind')!r}")
    unknown = set(data) - allowed - {"kind"}
    if unknown:
        raise RakeError(f"unknown {kind} field(s): {', '.join(sorted(map(str, unknown)))}")
    return data


# --- no rake -------------------------------------------------------------------------------

@dataclass(frozen=True)
class NoRake:
    """The house takes nothing (K4).

    >>> NoRake().rake_for(10_000, 9, True)
    0
    """

    def rake_for(self, pot_total: int, players_dealt: int, saw_flop: bool) -> int:
        """Always 0 (the arguments are still checked)."""
        _question(pot_total, players_dealt, saw_flop)
        return 0

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": "none"}``."""
        return {"kind": "none"}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NoRake:
        """Inverse of :meth:`to_dict`."""
        _fields(data, "none", set())
        return cls()


# --- percentage rake (K3) ------------------------------------------------------------------

@dataclass(frozen=True)
class PercentageRake:
    """``per_unit`` for each *whole* ``unit`` in the pot, capped, zero under ``minimum`` (K3).

    The reading of K3 ("$0.05 for each whole $1.00 in the pot"), in this order:

    1. ``rake = per_unit * (pot_total // unit)``: only whole units count, so a $19.99 pot
       pays for 19 dollars;
    2. capped by ``caps``: pairs ``(min_players, cap)`` sorted by ``min_players``; the pair
       with the largest ``min_players`` not above the number of players dealt in applies;
       no caps means no cap;
    3. a result under ``minimum`` is zero ("a rake under $0.10 is zero"), so with the seed
       numbers pots under $2.00 pay nothing.

    ``per_unit <= unit`` is required, so the rake never exceeds the pot.

    >>> r = PercentageRake(per_unit=5, unit=100, caps=((2, 100), (4, 200), (6, 300)), minimum=10)
    >>> [r.rake_for(pot, 3, True) for pot in (199, 200, 2_099, 99_999)]
    [0, 10, 100, 100]
    >>> r.rake_for(99_999, 6, True)
    300
    """

    per_unit: int
    unit: int
    caps: tuple[tuple[int, int], ...] = ()
    minimum: int = 0
    no_flop_no_drop: bool = True

    def __post_init__(self) -> None:
        per_unit = _store(self, "per_unit", "per_unit")
        unit = _store(self, "unit", "unit", minimum=1)
        if per_unit > unit:
            raise RakeError(f"per_unit {per_unit} exceeds unit {unit}: rake above the pot")
        _store(self, "minimum", "minimum")
        _bool(self.no_flop_no_drop, "no_flop_no_drop")
        if not isinstance(self.caps, tuple):
            raise RakeError(f"caps must be a tuple of (min_players, cap) pairs, got {safe_repr(self.caps)}")
        caps: list[tuple[int, int]] = []
        for pair in self.caps:
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise RakeError(f"caps entries must be (min_players, cap) pairs, got {safe_repr(pair)}")
            players = _int(pair[0], "caps min_players", minimum=2)
            if caps and players <= caps[-1][0]:
                raise RakeError(f"caps must be sorted by min_players without repeats, got {safe_repr(self.caps)}")
            caps.append((players, _int(pair[1], "caps cap")))
        object.__setattr__(self, "caps", tuple(caps))
        if self.caps and self.caps[0][0] != 2:
            raise RakeError(f"the first cap must start at 2 players, got {self.caps[0][0]}")

    def cap_for(self, players_dealt: int) -> int | None:
        """The cap for this many players dealt in, or None when uncapped."""
        cap = None
        for players, amount in self.caps:
            if players <= players_dealt:
                cap = amount
        return cap

    def rake_for(self, pot_total: int, players_dealt: int, saw_flop: bool) -> int:
        """The rake under K3 (see the class docstring for the order of the steps)."""
        pot_total, players_dealt = _question(pot_total, players_dealt, saw_flop)
        if self.no_flop_no_drop and not saw_flop:
            return 0
        rake = self.per_unit * (pot_total // self.unit)
        cap = self.cap_for(players_dealt)
        if cap is not None:
            rake = min(rake, cap)
        return 0 if rake < self.minimum else rake

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description; caps become ``[[min_players, cap], ...]``."""
        return {
            "kind": "percentage",
            "per_unit": self.per_unit,
            "unit": self.unit,
            "caps": [list(pair) for pair in self.caps],
            "minimum": self.minimum,
            "no_flop_no_drop": self.no_flop_no_drop,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PercentageRake:
        """Inverse of :meth:`to_dict`; ``caps``, ``minimum`` and ``no_flop_no_drop`` are optional."""
        data = _fields(data, "percentage", {"per_unit", "unit", "caps", "minimum", "no_flop_no_drop"})
        for key in ("per_unit", "unit"):
            if key not in data:
                raise RakeError(f"percentage rake needs {safe_repr(key)}")
        caps = tuple((_int(a, "caps min_players"), _int(b, "caps cap"))
                     for a, b in _pairs(data.get("caps", []), "caps"))
        return cls(per_unit=data["per_unit"], unit=data["unit"], caps=caps,
                   minimum=data.get("minimum", 0),
                   no_flop_no_drop=data.get("no_flop_no_drop", True))


# --- threshold rake (K2, one stakes band) --------------------------------------------------

@dataclass(frozen=True)
class Threshold:
    """One chart row: a pot of at least ``pot`` gives rake ``rake`` (``rake <= pot``).

    >>> Threshold(pot=2_000, rake=100)
    Threshold(pot=2000, rake=100)
    """

    pot: int
    rake: int

    def __post_init__(self) -> None:
        _store(self, "pot", "threshold pot")
        _store(self, "rake", "threshold rake")
        if self.rake > self.pot:
            raise RakeError(f"threshold rake {self.rake} exceeds its pot {self.pot}")


@dataclass(frozen=True)
class PlayersBracket:
    """The thresholds that apply when ``min_players..max_players`` (inclusive) are dealt in.

    Thresholds are sorted by pot, strictly increasing, and their rakes never go down; the
    highest threshold the pot reaches applies (K2).
    """

    min_players: int
    max_players: int
    thresholds: tuple[Threshold, ...]

    def __post_init__(self) -> None:
        low = _store(self, "min_players", "min_players", minimum=2)
        _store(self, "max_players", "max_players", minimum=low)
        if not isinstance(self.thresholds, tuple) or not all(
                isinstance(t, Threshold) for t in self.thresholds):
            raise RakeError(f"thresholds must be a tuple of Threshold, got {safe_repr(self.thresholds)}")
        for lower, upper in pairwise(self.thresholds):
            if upper.pot <= lower.pot or upper.rake < lower.rake:
                raise RakeError(f"thresholds must rise in pot and not fall in rake: {lower}, {upper}")

    def rake_for_pot(self, pot_total: int) -> int:
        """The rake of the highest threshold ``pot_total`` reaches, 0 below the first."""
        rake = 0
        for threshold in self.thresholds:
            if pot_total >= threshold.pot:
                rake = threshold.rake
        return rake

    def to_dict(self) -> dict[str, Any]:
        """``{"players": [min, max], "thresholds": [[pot, rake], ...]}``."""
        return {"players": [self.min_players, self.max_players],
                "thresholds": [[t.pot, t.rake] for t in self.thresholds]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlayersBracket:
        """Inverse of :meth:`to_dict`."""
        if not isinstance(data, Mapping) or set(data) != {"players", "thresholds"}:
            raise RakeError(f"a bracket needs exactly 'players' and 'thresholds', got {safe_repr(data)}")
        ((low, high),) = _pairs([data["players"]], "players")
        return cls(min_players=_int(low, "min_players"), max_players=_int(high, "max_players"),
                   thresholds=tuple(Threshold(pot=_int(p, "threshold pot"),
                                              rake=_int(r, "threshold rake"))
                                    for p, r in _pairs(data["thresholds"], "thresholds")))


def _check_brackets(brackets: object) -> None:
    """Brackets must be a non-empty tuple of contiguous, non-overlapping player ranges."""
    if not isinstance(brackets, tuple) or not brackets or not all(
            isinstance(b, PlayersBracket) for b in brackets):
        raise RakeError(f"brackets must be a non-empty tuple of PlayersBracket, got {safe_repr(brackets)}")
    for lower, upper in pairwise(brackets):
        if upper.min_players != lower.max_players + 1:
            raise RakeError(f"player brackets must be contiguous: {lower.min_players}-"
                            f"{lower.max_players} then {upper.min_players}-{upper.max_players}")


@dataclass(frozen=True)
class ThresholdRake:
    """Threshold rows per range of players dealt in: one stakes band of a K2 chart.

    >>> band = ThresholdRake(brackets=(
    ...     PlayersBracket(min_players=2, max_players=10,
    ...                    thresholds=(Threshold(pot=500, rake=50), Threshold(pot=1_200, rake=75))),
    ... ))
    >>> [band.rake_for(pot, 4, True) for pot in (499, 500, 1_199, 1_200)]
    [0, 50, 50, 75]
    """

    brackets: tuple[PlayersBracket, ...]
    no_flop_no_drop: bool = True

    def __post_init__(self) -> None:
        _check_brackets(self.brackets)
        _bool(self.no_flop_no_drop, "no_flop_no_drop")

    def bracket_for(self, players_dealt: int) -> PlayersBracket:
        """The bracket covering ``players_dealt``; RakeError if none does."""
        for bracket in self.brackets:
            if bracket.min_players <= players_dealt <= bracket.max_players:
                return bracket
        raise RakeError(f"no rake bracket covers {players_dealt} players dealt in "
                        f"(covered: {self.brackets[0].min_players}-{self.brackets[-1].max_players})")

    def rake_for(self, pot_total: int, players_dealt: int, saw_flop: bool) -> int:
        """The rake of the highest threshold reached in the players' bracket (K2)."""
        pot_total, players_dealt = _question(pot_total, players_dealt, saw_flop)
        bracket = self.bracket_for(players_dealt)
        if self.no_flop_no_drop and not saw_flop:
            return 0
        return bracket.rake_for_pot(pot_total)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {"kind": "thresholds", "brackets": [b.to_dict() for b in self.brackets],
                "no_flop_no_drop": self.no_flop_no_drop}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ThresholdRake:
        """Inverse of :meth:`to_dict`."""
        data = _fields(data, "thresholds", {"brackets", "no_flop_no_drop"})
        return cls(brackets=_brackets_from(data.get("brackets")),
                   no_flop_no_drop=data.get("no_flop_no_drop", True))


def _brackets_from(value: object) -> tuple[PlayersBracket, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise RakeError(f"brackets must be a list, got {safe_repr(value)}")
    return tuple(PlayersBracket.from_dict(item) for item in value)


# --- fixed-limit chart (K2, all bands) -----------------------------------------------------

@dataclass(frozen=True)
class StakesBand:
    """The player brackets used from big bet ``min_big_bet`` up to the next band (K2).

    ``name`` is the chart's wording, for people (e.g. ``"$2/$4 to $10/$20"``).
    """

    name: str
    min_big_bet: int
    brackets: tuple[PlayersBracket, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise RakeError(f"band name must be a string, got {safe_repr(self.name)}")
        _store(self, "min_big_bet", "min_big_bet", minimum=1)
        _check_brackets(self.brackets)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {"name": self.name, "min_big_bet": self.min_big_bet,
                "brackets": [b.to_dict() for b in self.brackets]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StakesBand:
        """Inverse of :meth:`to_dict`."""
        if not isinstance(data, Mapping) or set(data) != {"name", "min_big_bet", "brackets"}:
            raise RakeError(f"a band needs exactly 'name', 'min_big_bet', 'brackets', got {safe_repr(data)}")
        return cls(name=data["name"], min_big_bet=data["min_big_bet"],
                   brackets=_brackets_from(data["brackets"]))


@dataclass(frozen=True)
class FixedLimitRakeChart:
    """A fixed-limit rake chart: stakes bands, each with its player brackets (K2).

    The game's *big bet* (upper stake, in the chart's unit) picks the band. Reading of the
    gaps in the seeds' chart: a band runs from its first listed stake until the next band
    begins, so ``$12/$24`` uses ``$2/$4 to $10/$20`` and anything from ``$15/$30`` up (even
    above ``$30/$60``) uses the last band; stakes below the first band use the first band.
    The chart itself needs the stakes, so it is not a :class:`RakeSchedule`: bind it to a game
    with :meth:`for_big_bet`, which returns the band's :class:`ThresholdRake`.

    >>> SEED_FIXED_LIMIT_CHART.band_for(2_400).name
    '$2/$4 to $10/$20'
    >>> SEED_FIXED_LIMIT_CHART.for_big_bet(6_000).rake_for(10_000, 6, True)
    300
    """

    bands: tuple[StakesBand, ...]
    no_flop_no_drop: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.bands, tuple) or not self.bands or not all(
                isinstance(b, StakesBand) for b in self.bands):
            raise RakeError(f"bands must be a non-empty tuple of StakesBand, got {safe_repr(self.bands)}")
        for lower, upper in pairwise(self.bands):
            if upper.min_big_bet <= lower.min_big_bet:
                raise RakeError(f"bands must rise in min_big_bet: {safe_repr(lower.name)}, {safe_repr(upper.name)}")
        _bool(self.no_flop_no_drop, "no_flop_no_drop")

    def band_for(self, big_bet: int) -> StakesBand:
        """The band a game with this big bet uses (see the class docstring)."""
        big_bet = _int(big_bet, "big_bet", minimum=1)
        chosen = self.bands[0]
        for band in self.bands:
            if band.min_big_bet <= big_bet:
                chosen = band
        return chosen

    def for_big_bet(self, big_bet: int) -> ThresholdRake:
        """The schedule for a game with this big bet, e.g. 2000 for $10/$20 in cents."""
        return ThresholdRake(brackets=self.band_for(big_bet).brackets,
                             no_flop_no_drop=self.no_flop_no_drop)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {"kind": "fixed_limit_chart", "bands": [b.to_dict() for b in self.bands],
                "no_flop_no_drop": self.no_flop_no_drop}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FixedLimitRakeChart:
        """Inverse of :meth:`to_dict`."""
        data = _fields(data, "fixed_limit_chart", {"bands", "no_flop_no_drop"})
        bands = data.get("bands")
        if not isinstance(bands, Sequence) or isinstance(bands, str):
            raise RakeError(f"bands must be a list, got {safe_repr(bands)}")
        return cls(bands=tuple(StakesBand.from_dict(b) for b in bands),
                   no_flop_no_drop=data.get("no_flop_no_drop", True))


# --- JSON entry points ---------------------------------------------------------------------

_KINDS: dict[str, Any] = {
    "none": NoRake,
    "percentage": PercentageRake,
    "thresholds": ThresholdRake,
    "fixed_limit_chart": FixedLimitRakeChart,
}


def rake_from_dict(data: Mapping[str, Any]) -> NoRake | PercentageRake | ThresholdRake | FixedLimitRakeChart:
    """Build a schedule or chart from its JSON form; the ``kind`` key says which.

    >>> rake_from_dict({"kind": "percentage", "per_unit": 3, "unit": 100, "caps": [[2, 50]]})
    PercentageRake(per_unit=3, unit=100, caps=((2, 50),), minimum=0, no_flop_no_drop=True)
    """
    if not isinstance(data, Mapping):
        raise RakeError(f"a rake schedule must be a mapping, got {safe_repr(data)}")
    kind = data.get("kind")
    if kind not in _KINDS:
        raise RakeError(f"unknown rake kind {safe_repr(kind)}; expected one of {', '.join(_KINDS)}")
    built: NoRake | PercentageRake | ThresholdRake | FixedLimitRakeChart = _KINDS[kind].from_dict(data)
    return built


def rake_to_dict(schedule: NoRake | PercentageRake | ThresholdRake | FixedLimitRakeChart
                 ) -> dict[str, Any]:
    """The JSON form of a schedule or chart (the inverse of :func:`rake_from_dict`)."""
    return schedule.to_dict()


# --- the seeds' charts (one literal each, in cents) ----------------------------------------

SEED_POT_LIMIT_RAKE = PercentageRake(
    per_unit=5, unit=100, caps=((2, 100), (4, 200), (6, 300)), minimum=10,
)
"""K3: $0.05 per whole $1.00, caps $1/$2/$3 for 2-3/4-5/6+ dealt in, zero under $0.10.

The seeds list 6-9 players for the $3.00 cap; RULES.md K3 says "6 or more", which this follows.
"""

SEED_FIXED_LIMIT_CHART = FixedLimitRakeChart.from_dict({
    "kind": "fixed_limit_chart",
    "bands": [
        {"name": "$0.50/$1 and $1/$2", "min_big_bet": 100, "brackets": [
            {"players": [2, 10], "thresholds": [[500, 50], [1_200, 75], [2_000, 100]]},
        ]},
        {"name": "$2/$4 to $10/$20", "min_big_bet": 400, "brackets": [
            {"players": [2, 3], "thresholds": [[2_000, 100]]},
            {"players": [4, 5], "thresholds": [[2_000, 100], [3_000, 150], [4_000, 200]]},
            {"players": [6, 10], "thresholds": [[2_000, 100], [3_000, 150], [4_000, 200],
                                                [5_000, 250], [6_000, 300]]},
        ]},
        {"name": "$15/$30 to $30/$60", "min_big_bet": 3_000, "brackets": [
            {"players": [2, 3], "thresholds": [[4_000, 100]]},
            {"players": [4, 5], "thresholds": [[4_000, 100], [5_500, 150], [7_000, 200]]},
            {"players": [6, 10], "thresholds": [[4_000, 100], [5_500, 150], [7_000, 200],
                                                [8_500, 250], [10_000, 300]]},
        ]},
    ],
})
"""K2: the seeds' fixed-limit chart in cents; bind it to a game with ``for_big_bet``."""
