"""What the player to act may do: the answer the compiled engine gives before every decision.

Defined here, below the engine (:mod:`omahacore.engine` builds it); users import it from
:mod:`omaha`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["LegalActions"]


class LegalActions(NamedTuple):
    """What the player to act (``seat``) may do now.

    ``call_amount`` is the chips a call adds (capped at the stack: a short call is all-in,
    B8); 0 means nothing is owed and ``can_check`` is true. ``min_raise_to``/``max_raise_to``
    bound the total a bet or raise may reach this round, or are ``None`` when no bet or raise
    is allowed. At showdown only ``can_show``/``can_muck`` are true (S1). (A named tuple:
    immutable and cheap, since bots ask for it before every action.)

    >>> la = LegalActions(seat=3, can_fold=True, can_check=False, call_amount=2,
    ...                   min_raise_to=4, max_raise_to=7)
    >>> la.can_call, la.can_raise
    (True, True)
    """

    seat: int
    can_fold: bool
    can_check: bool
    call_amount: int
    min_raise_to: int | None
    max_raise_to: int | None
    can_show: bool = False
    can_muck: bool = False

    @property
    def can_call(self) -> bool:
        """Whether a call is possible (something is owed)."""
        return self.call_amount > 0

    @property
    def can_raise(self) -> bool:
        """Whether a bet or raise is possible (``bet_or_raise`` is legal for some amount)."""
        return self.min_raise_to is not None

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible fields."""
        return {
            "seat": self.seat, "can_fold": self.can_fold, "can_check": self.can_check,
            "call_amount": self.call_amount, "min_raise_to": self.min_raise_to,
            "max_raise_to": self.max_raise_to, "can_show": self.can_show,
            "can_muck": self.can_muck,
        }
