"""Exceptions of the game engine.

Every error a caller can cause is a :class:`ValueError` (through :class:`OmahaError`), names
what was wrong, and leaves the game exactly as it was. Errors that break a numbered rule of
``RULES.md`` carry it in ``rule`` and start their message with it:

>>> err = IllegalActionError("B4", "minimum raise is to 400, got 300")
>>> str(err), err.rule, isinstance(err, ValueError)
('B4: minimum raise is to 400, got 300', 'B4', True)
"""

from __future__ import annotations

from omahacore.errors import (
    ArrayError,
    ArrayTypeError,
    CardError,
    CardTypeError,
    IcmError,
    IcmTypeError,
    IllegalActionError,
    OmahaError,
    OmahaTypeError,
    PotError,
    PotTypeError,
    RuleError,
    SolverError,
    SolverTypeError,
    StrengthError,
    StrengthTypeError,
    TableError,
)

__all__ = [
    "ArrayError",
    "ArrayTypeError",
    "CardError",
    "CardTypeError",
    "ClockError",
    "ClockTypeError",
    "ConfigError",
    "ConfigTypeError",
    "HistoryError",
    "IcmError",
    "IcmTypeError",
    "IllegalActionError",
    "IllegalActionTypeError",
    "LimitError",
    "OmahaError",
    "OmahaTypeError",
    "PotError",
    "PotTypeError",
    "RakeError",
    "RakeTypeError",
    "RuleError",
    "SnapshotError",
    "SolverError",
    "SolverTypeError",
    "StrengthError",
    "StrengthTypeError",
    "TableError",
    "TableTypeError",
    "TournamentError",
    "TournamentTypeError",
    "UnevaluableHandError",
    "UnsupportedVariantError",
]


class ConfigError(RuleError):
    """A game configuration is invalid (rules T3, B3, C6)."""


class SnapshotError(OmahaError):
    """Snapshot or event data is malformed or does not replay to the game it describes."""


class LimitError(OmahaError):
    """An amount or a total of chips above ``MAX_CHIPS`` (2**63-1), or data past a size or
    depth limit (see :mod:`omaha.limits`); nothing was changed."""


class RakeError(OmahaError):
    """A rake schedule or a rake question is malformed (rules K1-K4)."""


class ClockError(OmahaError):
    """A clock call is malformed: bad time, time going backwards, wrong seat (rules D1-D4)."""


class TournamentError(RuleError):
    """A tournament structure, payout table, place or prize is malformed (rules N1-N8).

    The message names the field at fault, after the rule when there is one:

    >>> str(TournamentError("N1", "levels[3].big_blind: 40 is below the previous level's 50"))
    "N1: levels[3].big_blind: 40 is below the previous level's 50"
    """


class HistoryError(OmahaError):
    """A PHH hand history is malformed, or one of its actions breaks the rules.

    The message starts with where the fault is, so a user can find it in the file:

    >>> err = HistoryError("raise to 50 is below the minimum 60", index=6, action="p3 cbr 50")
    >>> str(err)
    "actions[6] 'p3 cbr 50': raise to 50 is below the minimum 60"
    >>> err.index, err.action, err.reason
    (6, 'p3 cbr 50', 'raise to 50 is below the minimum 60')

    Attributes:
        reason: what is wrong, without the location.
        field: the TOML field at fault (``"actions"`` when an action is), or ``None``.
        index: the 0-based position of the faulty action in ``actions``, or ``None``.
        action: the text of the faulty action, or ``None``.
        hand: the table name of the hand inside a ``.phhs`` collection, or ``None``.
        source: the file the history came from, or ``None``.
    """

    def __init__(
        self,
        reason: str,
        *,
        field: str | None = None,
        index: int | None = None,
        action: str | None = None,
        hand: str | None = None,
        source: str | None = None,
    ) -> None:
        self.reason = reason
        self.field = "actions" if field is None and index is not None else field
        self.index = index
        self.action = action
        self.hand = hand
        self.source = source
        super().__init__(self._render())

    def located(self, *, hand: str | None = None, source: str | None = None) -> HistoryError:
        """A copy of this error that also names the collection entry and/or file it is in."""
        return type(self)(
            self.reason,
            field=self.field,
            index=self.index,
            action=self.action,
            hand=self.hand if hand is None else hand,
            source=self.source if source is None else source,
        )

    def _render(self) -> str:
        where = []
        if self.source is not None:
            where.append(self.source)
        if self.hand is not None:
            where.append(f"[{self.hand}]")
        if self.index is not None:
            where.append(f"actions[{self.index}]")
            if self.action is not None:
                where.append(repr(self.action))
        elif self.field is not None:
            where.append(self.field)
        return f"{' '.join(where)}: {self.reason}" if where else self.reason


# A value of the wrong type is also a TypeError, as a CardTypeError is a CardError, so a caller
# may catch either; omaha.limits.as_int picks the one that matches the error it was asked for.

class ConfigTypeError(ConfigError, OmahaTypeError):
    """A configuration value of the wrong type (a bool, float or text where an int goes)."""


class IllegalActionTypeError(IllegalActionError, OmahaTypeError):
    """An action given as the wrong type (a learning env's action or player that is a bool,
    float or text where an int goes)."""


class TableTypeError(TableError, OmahaTypeError):
    """A seat, stack or count of the wrong type (a bool, float or text where an int goes)."""


class RakeTypeError(RakeError, OmahaTypeError):
    """A rake amount or count of the wrong type (a bool, float or text where an int goes)."""


class ClockTypeError(ClockError, OmahaTypeError):
    """A time or seat of the wrong type (a bool, float or text where an int goes)."""


class TournamentTypeError(TournamentError, OmahaTypeError):
    """A tournament amount or count of the wrong type (a bool, float or text where an int
    goes)."""


class UnevaluableHandError(HistoryError):
    """A history that plays legally to a showdown decided by cards it does not give (``????``
    hole cards of a player still in, or a missing board card): its pots cannot be awarded.

    Not a broken file: corpus replay reports such a hand as *unevaluable*, apart from the
    invalid ones.
    """


class UnsupportedVariantError(HistoryError):
    """A history of a game the PHH standard names but this package does not play (stud,
    draw, short-deck): valid PHH, reported by corpus replay as *unsupported*."""
