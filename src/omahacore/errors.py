"""Exception types shared by the compiled modules and the ``omaha`` package.

Every error a caller can cause is a subclass of :class:`OmahaError`, itself a
:class:`ValueError`, so code that already guards against ``ValueError`` keeps working, and
each names what was wrong. An argument of the wrong *type* (a float, ``bool``, bytes, an
object whose ``__index__`` misbehaves) raises a subclass that is also a :class:`TypeError`.

>>> issubclass(CardTypeError, CardError) and issubclass(CardTypeError, TypeError)
True
"""

from __future__ import annotations

from typing import Any


class OmahaError(ValueError):
    """Base class of every error raised for bad input by omaha-poker."""


class OmahaTypeError(OmahaError, TypeError):
    """An argument has the wrong type (also a :class:`TypeError`)."""


class CardError(OmahaError):
    """A card token, index or card list is malformed or repeats a card (rule C1)."""


class CardTypeError(CardError, OmahaTypeError):
    """Something that is not a card, card text or a sequence of cards (bool, float, bytes)."""


class StrengthError(OmahaError):
    """A hand strength is out of range or not an ``int``."""


class StrengthTypeError(StrengthError, OmahaTypeError):
    """A hand strength that is not an ``int`` (a bool, float or text)."""


class ArrayError(OmahaError):
    """A batch array has the wrong shape, dtype or values."""


class ArrayTypeError(ArrayError, OmahaTypeError):
    """Something that is not an array of integers at all (text, None)."""


class PotError(OmahaError):
    """Pot or award input is inconsistent (rules P1, P2, S2-S4, K1)."""


class PotTypeError(PotError, OmahaTypeError):
    """A pot argument has the wrong type (a float, bool amount, non-sequence)."""


class IcmError(OmahaError):
    """ICM input is invalid: negative or all-zero stacks, negative prizes, bad counts."""


class IcmTypeError(IcmError, OmahaTypeError):
    """An ICM argument has the wrong type (a bool, float or text where an int goes)."""


class SolverError(OmahaError):
    """A game tree, range or solver setting is invalid (the subgame solver, issue 29)."""


class SolverTypeError(SolverError, OmahaTypeError):
    """A solver argument has the wrong type (a bool, float or text where an int goes)."""


class RuleError(OmahaError):
    """An error that names the rule it enforces (``rule`` is e.g. ``"B4"``, or ``None``)."""

    def __init__(self, rule: str | None, message: str) -> None:
        self.rule = rule
        super().__init__(f"{rule}: {message}" if rule else message)

    def __reduce__(self) -> tuple[Any, ...]:
        text = str(self)
        prefix = f"{self.rule}: " if self.rule else ""
        return (type(self), (self.rule, text[len(prefix):]))


class IllegalActionError(RuleError):
    """An action or amount is not allowed now (rules B1-B8, S1, D2); nothing was changed.

    ``reason`` is the compiled rules' code for why
    (:class:`omahacore.transitions.Reason`; None for refusals made outside the betting
    rules), for programs that branch on the cause rather than the words.
    """

    def __init__(self, rule: str | None, message: str, *, reason: Any = None) -> None:
        super().__init__(rule, message)
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        cls, args = super().__reduce__()
        return (_illegal_action, (cls, *args, self.reason))


def _illegal_action(cls: type[IllegalActionError], rule: str | None, message: str,
                    reason: Any) -> IllegalActionError:
    return cls(rule, message, reason=reason)


class TableError(RuleError):
    """A seating, button or chip operation is not allowed (rules T1-T5, B8)."""
