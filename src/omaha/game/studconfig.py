"""A stud game's configuration (E1, E3, E5): the variant, the ante, the bring-in and the bets.

:class:`StudConfig` is what :class:`~omaha.game.stud.StudHand` plays and what its
:class:`~omaha.game.studevents.StudStarted` event records; it sits below both so that the
events need not import the hand.

>>> config = StudConfig(variant="razz", ante=1, bring_in=2, small_bet=10)
>>> StudConfig.from_dict(config.to_dict()) == config, STUD_CODES[config.variant]
(True, 'FR')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from omaha.config import (
    FIVE_CARD_STUD,
    RAZZ,
    SEVEN_CARD_STUD,
    SEVEN_CARD_STUD_HILO,
    Variant,
    parse_variant,
)
from omaha.errors import ConfigError
from omaha.limits import as_amount, safe_repr
from omahacore.stud import GAME_FIVE, GAME_HIGH, GAME_HILO, GAME_RAZZ

__all__ = ["STUD_CODES", "StudConfig", "game_code"]


def game_code(variant: Variant) -> int:
    """The compiled engine's game number of a stud variant (E1)."""
    if variant.hand_rule == "razz":
        return GAME_RAZZ
    if variant.hole_cards == 5:
        return GAME_FIVE
    return GAME_HILO if variant.hi_lo else GAME_HIGH


STUD_CODES = {SEVEN_CARD_STUD: "F7S", SEVEN_CARD_STUD_HILO: "F7S/8", RAZZ: "FR",
              FIVE_CARD_STUD: "F5S"}
"""Each stud game's code: PHH's, and F5S for five-card stud, which PHH does not name."""


@dataclass(frozen=True, slots=True, kw_only=True, init=False)
class StudConfig:
    """A fixed-limit stud game (E1, E3, E5): antes, a bring-in, the small and big bets.

    ``big_bet`` defaults to twice the small bet; ``max_raises`` caps the bets per street (B3,
    the completion counting as the first). A game needs an ante or a bring-in, and a bring-in
    no larger than the small bet.

    >>> StudConfig(variant="F7S/8", ante=5, bring_in=5, small_bet=20).variant.name
    'Seven-Card Stud Hi/Lo 8-or-better'
    >>> StudConfig(variant="FR", small_bet=10)
    Traceback (most recent call last):
    ...
    omaha.errors.ConfigError: E3: a stud game needs an ante or a bring-in (ante=0, bring_in=0)
    """

    variant: Variant
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    max_raises: int | None

    def __init__(self, *, variant: Variant | str = SEVEN_CARD_STUD, small_bet: int,
                 big_bet: int = 0, ante: int = 0, bring_in: int = 0,
                 max_raises: int | None = 4) -> None:
        resolved = parse_variant(variant).variant
        if not resolved.is_stud:
            raise ConfigError("E1", f"variant {safe_repr(variant)} is not a stud game; flop games "
                              "are configured with GameConfig")
        small = as_amount(small_bet, "small_bet", low=1, error=ConfigError, rule="E5")
        big = as_amount(big_bet or 2 * small, "big_bet", low=small, error=ConfigError, rule="E5")
        ante_ = as_amount(ante, "ante", error=ConfigError, rule="E3")
        bring = as_amount(bring_in, "bring_in", error=ConfigError, rule="E3")
        if not ante_ and not bring:
            raise ConfigError("E3", f"a stud game needs an ante or a bring-in (ante={ante_}, "
                              f"bring_in={bring})")
        if bring > small:
            raise ConfigError("E3", f"bring_in {bring} is larger than the small bet {small}")
        if max_raises is not None:
            max_raises = as_amount(max_raises, "max_raises", low=1, error=ConfigError, rule="B3")
        for name, value in (("variant", resolved), ("ante", ante_), ("bring_in", bring),
                            ("small_bet", small), ("big_bet", big), ("max_raises", max_raises)):
            object.__setattr__(self, name, value)

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible fields."""
        return {"variant": self.variant.name, "ante": self.ante, "bring_in": self.bring_in,
                "small_bet": self.small_bet, "big_bet": self.big_bet,
                "max_raises": self.max_raises}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StudConfig:
        """The configuration a :meth:`to_dict` dict describes; a typed error (ConfigError)
        naming the field for anything else."""
        if not isinstance(data, Mapping):
            raise ConfigError("E1", f"a stud configuration is a dict, got {safe_repr(data)}")
        names = {"variant", "ante", "bring_in", "small_bet", "big_bet", "max_raises"}
        if set(data) != names:
            raise ConfigError("E1", f"a stud configuration has the fields {sorted(names)}, got "
                              f"{sorted(map(str, data))}")
        return cls(**{name: data[name] for name in names})
