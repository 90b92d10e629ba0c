"""The discrete action space of the learning environments, and its mask (B2-B8).

Action ``0`` folds, ``1`` checks or calls, and the rest bet or raise: each listed pot
fraction, then (optionally) the minimum raise and all-in. A pot-fraction raise puts in the
call plus ``fraction`` times the pot after calling (1.0 is the pot-limit maximum of B5);
every size is clipped to the legal range of the engine, so in fixed limit all raise sizes
collapse to the one legal amount. The mask keeps only distinct legal actions: a raise size
that lands on the same total as an earlier one is masked, and folding is masked when a check
is free (the engine allows it, B2, but it never gains anything).

>>> from omaha import LegalActions
>>> actions = ActionSet(fractions=(0.5, 1.0))
>>> actions.names
('fold', 'check_call', 'raise_0.5_pot', 'raise_1_pot', 'min_raise', 'max_raise')
>>> legal = LegalActions(seat=1, can_fold=True, can_check=False, call_amount=2,
...                      min_raise_to=4, max_raise_to=200)
>>> actions.raise_totals(legal, current_bet=2, pot_total=3)   # pot after calling: 5
(4, 7, 4, 200)
>>> actions.mask(legal, current_bet=2, pot_total=3)
[1, 1, 1, 1, 0, 1]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from omaha.errors import ConfigError, ConfigTypeError
from omaha.limits import safe_repr
from omahacore.actions import LegalActions
from omahacore.vector import action_totals

__all__ = ["CHECK_CALL", "FOLD", "ActionSet"]

FOLD = 0
CHECK_CALL = 1


@dataclass(frozen=True, slots=True)
class ActionSet:
    """Which discrete actions exist: ``fractions`` of the pot, ``min_raise``, ``max_raise``."""

    fractions: tuple[float, ...] = (0.5, 1.0)
    min_raise: bool = True
    max_raise: bool = True

    def __post_init__(self) -> None:
        given: object = self.fractions
        if isinstance(given, np.ndarray) and given.ndim == 1:
            given = given.tolist()
        if isinstance(given, (str, bytes, np.ndarray)) or not isinstance(given, Iterable):
            raise ConfigTypeError(None, "fractions must be a list or tuple of pot fractions, "
                                        f"got {safe_repr(given)}")
        fractions = tuple(given)
        for f in fractions:
            if isinstance(f, (bool, np.bool_)) or not isinstance(f, (int, float, np.integer,
                                                                     np.floating)):
                raise ConfigTypeError(None, "a raise size is a pot fraction in (0, 100], "
                                            f"got {safe_repr(f)}")
            if not 0 < f <= 100:
                raise ConfigError(None, f"a raise size is a pot fraction in (0, 100], got {f!r}")
        object.__setattr__(self, "fractions", tuple(float(f) for f in fractions))
        if type(self.min_raise) is not bool or type(self.max_raise) is not bool:
            raise ConfigError(None, "min_raise and max_raise must be bools")

    @property
    def size(self) -> int:
        """How many discrete actions there are."""
        return 2 + len(self.fractions) + self.min_raise + self.max_raise

    @property
    def names(self) -> tuple[str, ...]:
        """A name per action, in order."""
        sizes = tuple(f"raise_{f:g}_pot" for f in self.fractions)
        return ("fold", "check_call", *sizes, *(("min_raise",) if self.min_raise else ()),
                *(("max_raise",) if self.max_raise else ()))

    def raise_totals(self, legal: LegalActions, current_bet: int,
                     pot_total: int) -> tuple[int, ...]:
        """The total each raise action bets to (actions 2, 3, ...), clipped to the legal range.

        ``current_bet`` is the bet to call this round and ``pot_total`` every chip in the
        pot. Empty when no raise is legal.
        """
        return self.evaluate(legal, current_bet, pot_total)[0]

    def mask(self, legal: LegalActions, current_bet: int, pot_total: int,
             totals: tuple[int, ...] | None = None) -> list[int]:
        """1 for each legal, distinct action, else 0 (see the module notes); ``totals`` is
        accepted for compatibility and not needed."""
        return self.evaluate(legal, current_bet, pot_total)[1]

    def evaluate(self, legal: LegalActions, current_bet: int,
                 pot_total: int) -> tuple[tuple[int, ...], list[int]]:
        """:meth:`raise_totals` and :meth:`mask` in one call, from the compiled kernel
        (:func:`omahacore.vector.action_totals`, which :class:`~omaha.rl.VectorTables`
        runs too: the sizes and the mask are stated once)."""
        totals = np.zeros(self.size - 2, np.int64)
        mask = np.zeros(self.size, np.int8)
        low, high = legal.min_raise_to, legal.max_raise_to
        action_totals(legal.call_amount, low or 0, high or 0, current_bet, pot_total,
                      np.array(self.fractions, np.float64), self.min_raise, self.max_raise,
                      totals, mask)
        return (tuple(totals.tolist()) if low is not None else ()), mask.tolist()

    def describe(self, mask: Sequence[int]) -> list[str]:
        """The names of the actions a mask allows."""
        return [name for name, ok in zip(self.names, mask) if ok]
