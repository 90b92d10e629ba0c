"""Game configuration: the variant (C3, C6), the betting structure (B3-B5) and the blinds (T3).

A game is a small frozen :class:`GameConfig` made with keyword arguments; the three
constructors fill in what the rules derive:

>>> fl = GameConfig.fixed_limit(small_bet=10, big_bet=20, variant=OMAHA_HILO)
>>> fl.small_blind, fl.big_blind, fl.bet_unit(0), fl.bet_unit(3)
(5, 10, 10, 20)
>>> GameConfig.fixed_limit(small_bet=500, big_bet=1000, blind_unit=100).small_blind  # T3
200
>>> pl = GameConfig.pot_limit(small_blind=1, big_blind=2)
>>> pl.structure, pl.variant.name
(Structure.POT_LIMIT, 'Omaha High')
>>> GameConfig.from_dict(pl.to_dict()) == pl
True

Wherever a variant is taken, a short name or PHH code does as well as the object
(:data:`VARIANT_NAMES`, case-insensitive); a name that says the structure must agree with it:

>>> GameConfig.pot_limit(small_blind=1, big_blind=2, variant="plo8").variant == OMAHA_HILO
True
>>> GameConfig.fixed_limit(small_bet=2, variant="FO/8").variant.name
'Omaha Hi/Lo 8-or-better'
>>> GameConfig.named("plo5", small_blind=1, big_blind=2).variant == FIVE_CARD_OMAHA
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal

from omaha.errors import ConfigError
from omaha.limits import as_amount, as_int, safe_repr

__all__ = [
    "FIVE_CARD_OMAHA",
    "FIVE_CARD_OMAHA_HILO",
    "FIVE_CARD_STUD",
    "FIXED_LIMIT",
    "HOLDEM",
    "NO_LIMIT",
    "OMAHA_HIGH",
    "OMAHA_HILO",
    "POT_LIMIT",
    "RAZZ",
    "SEVEN_CARD_STUD",
    "SEVEN_CARD_STUD_HILO",
    "SHORT_NAMES",
    "SIX_CARD_OMAHA",
    "SIX_CARD_OMAHA_HILO",
    "STUD_VARIANTS",
    "VARIANTS",
    "VARIANT_NAMES",
    "GameConfig",
    "Structure",
    "Variant",
    "VariantName",
    "parse_variant",
    "variant_of",
]

HandRule = Literal["omaha", "holdem", "stud", "razz"]

# Cards one hand can use besides the hole cards: five on the board and three burns (T6).
BOARD_AND_BURNS = 8
MAX_SEATS = 10
MAX_STUD_PLAYERS = 8   # E1


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """Which cards make a hand (C3, C6): ``hole_cards`` dealt, the ``hand_rule`` and hi/lo.

    ``"omaha"`` plays exactly 2 hole cards with exactly 3 board cards; ``"holdem"`` plays the
    best 5 of the 7 cards. ``hi_lo`` splits every pot with an 8-or-better low (C5, S3).

    >>> Variant(name="Omaha Hi/Lo 8-or-better", hi_lo=True) == OMAHA_HILO
    True
    """

    name: str
    hole_cards: int = 4
    hand_rule: HandRule = "omaha"
    hi_lo: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ConfigError("C6", f"a variant needs a name, got {safe_repr(self.name)}")
        cards = as_int(self.hole_cards, "hole_cards", error=ConfigError, rule="C6")
        object.__setattr__(self, "hole_cards", cards)   # a NumPy int stored as an int
        if self.hand_rule == "omaha":
            if cards not in (4, 5, 6):
                raise ConfigError("C6", f"Omaha deals 4, 5 or 6 hole cards, got {safe_repr(cards)}")
        elif self.hand_rule == "holdem":
            if cards != 2:
                raise ConfigError("C6", f"Hold'em deals 2 hole cards, got {safe_repr(cards)}")
        elif self.hand_rule in ("stud", "razz"):   # E1: seven-card games, or five-card stud
            if cards not in (5, 7) or (cards == 5 and (self.hi_lo or self.hand_rule == "razz")):
                raise ConfigError("E1", "stud deals 7 cards (5 in five-card stud high), got "
                                  f"{safe_repr(cards)}")
            if self.hand_rule == "razz" and self.hi_lo is True:
                raise ConfigError("E1", "razz is a low game, never hi/lo")
        else:
            raise ConfigError("C6", "hand_rule must be 'omaha', 'holdem', 'stud' or 'razz', got "
                              f"{safe_repr(self.hand_rule)}")
        if type(self.hi_lo) is not bool:
            raise ConfigError("C6", f"hi_lo must be a bool, got {safe_repr(self.hi_lo)}")

    @property
    def is_stud(self) -> bool:
        """Whether this is a stud game (E1): dealt up and down cards, no board."""
        return self.hand_rule in ("stud", "razz")

    @property
    def max_players(self) -> int:
        """Most players one 52-card deck can serve (C1), at most 10 (T1); stud 8 (E1)."""
        if self.is_stud:
            return MAX_STUD_PLAYERS
        return min(MAX_SEATS, (52 - BOARD_AND_BURNS) // self.hole_cards)

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible fields."""
        return {"name": self.name, "hole_cards": self.hole_cards,
                "hand_rule": self.hand_rule, "hi_lo": self.hi_lo}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variant:
        """Inverse of :meth:`to_dict`."""
        try:
            return cls(name=data["name"], hole_cards=data["hole_cards"],
                       hand_rule=data["hand_rule"], hi_lo=data["hi_lo"])
        except ConfigError:   # a field's own refusal (a ConfigTypeError is a TypeError too)
            raise
        except (KeyError, TypeError) as exc:
            raise ConfigError("C6", f"bad variant data {safe_repr(data)}") from exc


OMAHA_HIGH = Variant(name="Omaha High")
OMAHA_HILO = Variant(name="Omaha Hi/Lo 8-or-better", hi_lo=True)
FIVE_CARD_OMAHA = Variant(name="5-Card Omaha High", hole_cards=5)
FIVE_CARD_OMAHA_HILO = Variant(name="5-Card Omaha Hi/Lo 8-or-better", hole_cards=5, hi_lo=True)
SIX_CARD_OMAHA = Variant(name="6-Card Omaha High", hole_cards=6)
SIX_CARD_OMAHA_HILO = Variant(name="6-Card Omaha Hi/Lo 8-or-better", hole_cards=6, hi_lo=True)
HOLDEM = Variant(name="Texas Hold'em", hole_cards=2, hand_rule="holdem")
VARIANTS: tuple[Variant, ...] = (
    OMAHA_HIGH, OMAHA_HILO, FIVE_CARD_OMAHA, FIVE_CARD_OMAHA_HILO,
    SIX_CARD_OMAHA, SIX_CARD_OMAHA_HILO, HOLDEM,
)
"""The flop games (a board, blinds): what :class:`GameConfig` and the hand engine play."""
SEVEN_CARD_STUD = Variant(name="Seven-Card Stud", hole_cards=7, hand_rule="stud")
SEVEN_CARD_STUD_HILO = Variant(name="Seven-Card Stud Hi/Lo 8-or-better", hole_cards=7,
                               hand_rule="stud", hi_lo=True)
RAZZ = Variant(name="Razz", hole_cards=7, hand_rule="razz")
FIVE_CARD_STUD = Variant(name="Five-Card Stud", hole_cards=5, hand_rule="stud")
STUD_VARIANTS: tuple[Variant, ...] = (SEVEN_CARD_STUD, SEVEN_CARD_STUD_HILO, RAZZ, FIVE_CARD_STUD)
"""The stud games (E1): fixed limit with antes and a bring-in, played by :mod:`omaha.game.stud`."""


class Structure(Enum):
    """The betting structure (B3 fixed limit, B4 no limit, B5 pot limit)."""

    FIXED_LIMIT = "fixed-limit"
    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"

    def __repr__(self) -> str:
        return f"Structure.{self.name}"


FIXED_LIMIT = Structure.FIXED_LIMIT
POT_LIMIT = Structure.POT_LIMIT
NO_LIMIT = Structure.NO_LIMIT


@dataclass(frozen=True, slots=True)
class VariantName:
    """What a short variant name means: the variant, and the structure when the name says it.

    ``usual`` is the structure a tool picks for a name that does not say one (``"holdem"``
    plays no limit, ``"omaha8"`` fixed limit); :class:`GameConfig` never applies it.
    """

    variant: Variant
    structure: Structure | None
    usual: Structure


_LETTERS = {FIXED_LIMIT: "f", POT_LIMIT: "p", NO_LIMIT: "n"}
_OMAHA = {(4, False): OMAHA_HIGH, (4, True): OMAHA_HILO, (5, False): FIVE_CARD_OMAHA,
          (5, True): FIVE_CARD_OMAHA_HILO, (6, False): SIX_CARD_OMAHA,
          (6, True): SIX_CARD_OMAHA_HILO}


def _normal(name: str) -> str:
    """Case, spaces, ``-``, ``_``, ``/`` and ``'`` do not matter; ``hilo`` after a name
    means ``8`` (``plo-hilo`` is ``plo8``), alone it is a name of its own."""
    text = name.lower()
    for mark in " -_/'":
        text = text.replace(mark, "")
    return text if text == "hilo" else text.replace("hilo", "8")


def _variant_names() -> dict[str, VariantName]:
    names: dict[str, VariantName] = {}
    for structure, letter in _LETTERS.items():
        for (cards, hi_lo), variant in _OMAHA.items():
            meaning = VariantName(variant, structure, structure)
            count = "" if cards == 4 else str(cards)
            split = "8" if hi_lo else ""
            names[f"{letter}{count}o{split}"] = meaning  # the PHH code, e.g. PO/8, P5O
            for short in (f"{letter}lo", "lo" if structure is FIXED_LIMIT else ""):
                if short:
                    names[f"{short}{count}{split}"] = meaning  # plo8, plo58
                    names[f"{count}{short}{split}"] = meaning  # 5plo8
        holdem = VariantName(HOLDEM, structure, structure)
        names[f"{letter}t"] = holdem  # PHH FT, NT, PT
        for short in ("lh", "lhe", "lholdem"):
            names[f"{letter}{short}"] = holdem  # nlh, nlhe, plhe, flholdem
    names["lhe"] = names["lholdem"] = names["ft"]
    for (cards, hi_lo), variant in _OMAHA.items():
        usual = FIXED_LIMIT if hi_lo else POT_LIMIT
        for name in ("omaha", "omahahigh", "omahahi") if not hi_lo else ("omaha8", "o8"):
            names[name if cards == 4 else f"{cards}card{name}"] = VariantName(variant, None, usual)
        names[_normal(variant.name)] = VariantName(variant, None, usual)
    names["hi"], names["hilo"] = names["omaha"], names["omaha8"]
    for name in ("holdem", "texasholdem", _normal(HOLDEM.name)):
        names[name] = VariantName(HOLDEM, None, NO_LIMIT)
    # Stud (E1): PHH's F7S, F7S/8 and FR; five-card stud has no PHH code: F5S here.
    # The codes say fixed limit (F); the names do not, and stud is always fixed limit (E1).
    for variant, code, plain in (
            (SEVEN_CARD_STUD, "f7s", ("stud", "7stud", "sevencardstud")),
            (SEVEN_CARD_STUD_HILO, "f7s8", ("stud8", "7stud8", "sevencardstud8")),
            (RAZZ, "fr", ("razz",)),
            (FIVE_CARD_STUD, "f5s", ("5cardstud", "5stud", "fivecardstud"))):
        names[code] = VariantName(variant, FIXED_LIMIT, FIXED_LIMIT)
        for name in (*plain, _normal(variant.name)):
            names[name] = VariantName(variant, None, FIXED_LIMIT)
    return names


VARIANT_NAMES: Mapping[str, VariantName] = _variant_names()
"""Every accepted short name, PHH code and variant name (normalised: lower case, no spaces,
``-``, ``_``, ``/`` or ``'``; ``hilo`` after a name written ``8``) and what it means.
The one alias table of the package: GameConfig, equity, ranges, the preflop tables, PHH's
``variant_for_name``, the learning envs and every command line read it."""

SHORT_NAMES: Mapping[Variant, str] = {
    OMAHA_HIGH: "omaha", OMAHA_HILO: "omaha8", FIVE_CARD_OMAHA: "5-card omaha",
    FIVE_CARD_OMAHA_HILO: "5-card omaha8", SIX_CARD_OMAHA: "6-card omaha",
    SIX_CARD_OMAHA_HILO: "6-card omaha8", HOLDEM: "holdem",
    SEVEN_CARD_STUD: "stud", SEVEN_CARD_STUD_HILO: "stud8", RAZZ: "razz",
    FIVE_CARD_STUD: "5-card stud",
}
"""The one display form of each built-in variant's name: short, without a structure, and a
name of :data:`VARIANT_NAMES` (reprs and help texts show it)."""

_SHOWN_NAMES = ("plo, plo8, flo, flo8, nlo, nlo8, plo5, 5plo8, plo6, 6plo8 (likewise flo5, "
                "nlo6...), nlhe, plhe, flhe, holdem, omaha, omaha8, hi, hilo, the PHH codes PO, PO/8, FO, "
                "FO/8, NO, NO/8, P5O, P5O/8, P6O/8..., FT, NT, PT, the stud games stud, stud8, razz, "
                "5-card stud, F7S, F7S/8, FR, F5S, or a variant's own name")


def parse_variant(name: str | Variant) -> VariantName:
    """What a variant name means (case-insensitive); a :class:`Variant` means itself.

    >>> parse_variant("PLO8").variant == OMAHA_HILO, parse_variant("plo8").structure
    (True, Structure.POT_LIMIT)
    >>> parse_variant("5-card Omaha").variant.hole_cards
    5

    Raises:
        ConfigError: not a Variant or a known name; the message lists the accepted names.
    """
    if isinstance(name, Variant):
        return VariantName(name, None, POT_LIMIT if name.hand_rule == "omaha" else NO_LIMIT)
    if isinstance(name, str) and len(name) <= 64:
        meaning = VARIANT_NAMES.get(_normal(name))
        if meaning is not None:
            return meaning
    raise ConfigError("C6", f"unknown variant {safe_repr(name)}; accepted (any case): {_SHOWN_NAMES}")


def variant_of(variant: Variant | str) -> Variant:
    """The :class:`Variant` a name means, whatever structure the name says (for equity and
    ranges, where only the cards matter); a :class:`Variant` is itself.

    >>> variant_of("PO/8") is variant_of("hilo") is variant_of("flo8") is OMAHA_HILO
    True

    Raises:
        ConfigError: as :func:`parse_variant`.
    """
    found = variant if type(variant) is Variant else parse_variant(variant).variant
    if found.is_stud:
        raise ConfigError("E1", f"{found.name} is a stud game; equity and ranges are for the "
                          "flop games")
    return found


def _resolve_variant(variant: Variant | str, structure: Structure) -> Variant:
    """The Variant a GameConfig's ``variant`` argument names, checked against its structure."""
    meaning = parse_variant(variant)
    if meaning.variant.is_stud:
        raise ConfigError("E1", f"{meaning.variant.name} is a stud game: configure it with "
                          "omaha.game.stud.StudConfig (antes and a bring-in, no blinds)")
    if meaning.structure is not None and meaning.structure is not structure:
        raise ConfigError(
            "C6", f"variant {variant!r} is {meaning.structure.value} but the game is "
            f"{structure.value}; name the variant without a structure (e.g. 'omaha8') or "
            f"use GameConfig.named({variant!r}, ...)")
    return meaning.variant



# The amounts a GameConfig holds and the rule each belongs to; max_raises may also be None.
_AMOUNT_RULES = (("blind_unit", "T3"), ("small_bet", "B3"), ("big_bet", "B3"),
                 ("big_blind", "T3"), ("small_blind", "T3"), ("ante", "T3"),
                 ("big_blind_ante", "T3"), ("max_raises", "B3"))


def _at_least(value: int, name: str, low: int, rule: str) -> int:
    return as_int(value, name, low=low, error=ConfigError, rule=rule)


@dataclass(frozen=True, slots=True, kw_only=True, init=False)
class GameConfig:
    """One game: variant, structure, stakes, blinds, antes and cap options.

    Fixed limit needs ``small_bet`` (``big_bet`` defaults to twice it) and its big blind
    defaults to the small bet; pot and no limit need ``big_blind``. In every structure
    ``small_blind=None`` (the default) derives the small blind from the big blind, half of it
    rounded down to ``blind_unit`` (T3), and ``small_blind=0`` means there is none: a single
    blind. Once made, ``small_blind`` is always an int (0: no small blind).
    ``ante`` is a dead ante every player posts; ``big_blind_ante`` is one dead ante the big
    blind posts for the table. ``max_raises`` caps the bets per fixed-limit round (B3; None
    lifts it) and ``uncapped_heads_up`` lifts the cap on rounds that start with two players.
    The cap does not apply to pot and no limit. A single blind (``small_blind=0``, as some
    tournament histories record it, fixed limit included) is the big blind, posted by the
    first seat left of the button (heads-up, the button), and the action starts left of it
    (T3 read with Robert's Rules: one blind is a big blind); fixed-limit bets are unchanged.
    Every amount is at most :data:`~omaha.limits.MAX_CHIPS`.

    >>> GameConfig(structure=NO_LIMIT, small_blind=50, big_blind=100, ante=10).ante
    10
    >>> GameConfig(structure=NO_LIMIT, big_blind=100).small_blind   # None: derived (T3)
    50
    >>> GameConfig.fixed_limit(small_bet=10, small_blind=0, big_blind_ante=10).small_blind
    0
    """

    variant: Variant = OMAHA_HIGH
    structure: Structure = POT_LIMIT
    small_blind: int = 0
    big_blind: int = 0
    small_bet: int = 0
    big_bet: int = 0
    blind_unit: int = 1
    ante: int = 0
    big_blind_ante: int = 0
    max_raises: int | None = 4
    uncapped_heads_up: bool = False

    def __init__(self, *, variant: Variant | str = OMAHA_HIGH, structure: Structure = POT_LIMIT,
                 small_blind: int | None = None, big_blind: int = 0, small_bet: int = 0,
                 big_bet: int = 0,
                 blind_unit: int = 1, ante: int = 0, big_blind_ante: int = 0,
                 max_raises: int | None = 4, uncapped_heads_up: bool = False) -> None:
        # Written out (not generated) so that ``variant`` may be a name; still frozen.
        if not isinstance(structure, Structure):
            raise ConfigError("B3", f"structure must be a Structure, got {safe_repr(structure)}")
        resolved = _resolve_variant(variant, structure)
        derive = small_blind is None   # None: half the big blind (T3); 0: no small blind
        for name, value in (("variant", resolved), ("structure", structure),
                            ("small_blind", 0 if derive else small_blind), ("big_blind", big_blind),
                            ("small_bet", small_bet), ("big_bet", big_bet),
                            ("blind_unit", blind_unit), ("ante", ante),
                            ("big_blind_ante", big_blind_ante), ("max_raises", max_raises),
                            ("uncapped_heads_up", uncapped_heads_up)):
            object.__setattr__(self, name, value)
        self._check(derive_small_blind=derive)

    def _check(self, *, derive_small_blind: bool) -> None:
        # Every amount first as an exact int (a NumPy int is stored as an int); a big blind of
        # 0 means "the default" in fixed limit, so the real minimums come after the defaults.
        for name, rule in _AMOUNT_RULES:
            value = getattr(self, name)
            if value is not None or name != "max_raises":
                value = as_amount(value, name, error=ConfigError, rule=rule)
                object.__setattr__(self, name, value)
        unit = _at_least(self.blind_unit, "blind_unit", 1, "T3")
        if self.structure is FIXED_LIMIT:
            small_bet = _at_least(self.small_bet, "small_bet", 1, "B3")
            big_bet = _at_least(self.big_bet or 2 * small_bet, "big_bet", small_bet, "B3")
            object.__setattr__(self, "big_bet", big_bet)
            object.__setattr__(self, "big_blind", self.big_blind or small_bet)
        else:
            if self.small_bet or self.big_bet:
                raise ConfigError("B3", f"small_bet/big_bet are for fixed limit, not {self.structure.value}")
            if not self.big_blind:
                raise ConfigError("T3", f"{self.structure.value} needs a big_blind")
        if derive_small_blind:
            small_blind = self.big_blind // 2 // unit * unit
            if small_blind == 0:
                raise ConfigError("T3", f"the small blind, half of {safe_repr(self.big_blind)} "
                                  f"rounded down to blind_unit={unit}, is 0; pass small_blind "
                                  "explicitly, or small_blind=0 for no small blind")
            object.__setattr__(self, "small_blind", small_blind)
        big_blind = _at_least(self.big_blind, "big_blind", 1, "T3")
        if self.small_blind > big_blind:
            raise ConfigError("T3", f"small_blind {safe_repr(self.small_blind)} exceeds big_blind "
                              f"{safe_repr(big_blind)}")
        if self.max_raises is not None:
            _at_least(self.max_raises, "max_raises", 1, "B3")
        if type(self.uncapped_heads_up) is not bool:
            raise ConfigError("B3", f"uncapped_heads_up must be a bool, got {safe_repr(self.uncapped_heads_up)}")

    @classmethod
    def fixed_limit(cls, *, small_bet: int, big_bet: int = 0, variant: Variant | str = OMAHA_HIGH,
                    small_blind: int | None = None, **options: Any) -> GameConfig:
        """A fixed-limit game (B3) whose blinds default from the stakes (T3); ``small_blind=0``
        is a single blind (the big blind)."""
        return cls(structure=FIXED_LIMIT, small_bet=small_bet, big_bet=big_bet,
                   variant=variant, small_blind=small_blind, **options)

    @classmethod
    def pot_limit(cls, *, big_blind: int, small_blind: int | None = None,
                  variant: Variant | str = OMAHA_HIGH, **options: Any) -> GameConfig:
        """A pot-limit game (B5); ``small_blind`` None derives it, 0 is a single blind (T3)."""
        return cls(structure=POT_LIMIT, small_blind=small_blind, big_blind=big_blind,
                   variant=variant, **options)

    @classmethod
    def no_limit(cls, *, big_blind: int, small_blind: int | None = None,
                 variant: Variant | str = OMAHA_HIGH, **options: Any) -> GameConfig:
        """A no-limit game (B4); ``small_blind`` None derives it, 0 is a single blind (T3)."""
        return cls(structure=NO_LIMIT, small_blind=small_blind, big_blind=big_blind,
                   variant=variant, **options)

    @classmethod
    def named(cls, variant: str | Variant, *, small_blind: int | None = None,
              **options: Any) -> GameConfig:
        """A game from a variant name alone: the structure is the one the name says, else the
        name's usual one (``"holdem"`` no limit, ``"omaha8"`` fixed limit, ``"omaha"`` pot
        limit), unless ``structure=`` is passed. ``small_blind`` as in :class:`GameConfig`.

        >>> GameConfig.named("flo8", small_bet=2).structure
        Structure.FIXED_LIMIT
        >>> GameConfig.named("holdem", small_blind=1, big_blind=2).structure
        Structure.NO_LIMIT
        """
        meaning = parse_variant(variant)
        structure = options.pop("structure", meaning.structure or meaning.usual)
        return cls(variant=variant, structure=structure, small_blind=small_blind, **options)

    def bet_unit(self, street: int) -> int:
        """The fixed-limit bet on ``street`` (0 preflop .. 3 river), else the big blind (B3, B4)."""
        if self.structure is FIXED_LIMIT:
            return self.small_bet if street < 2 else self.big_bet
        return self.big_blind

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible fields (every blind resolved)."""
        return {
            "variant": self.variant.to_dict(), "structure": self.structure.value,
            "small_blind": self.small_blind, "big_blind": self.big_blind,
            "small_bet": self.small_bet, "big_bet": self.big_bet, "blind_unit": self.blind_unit,
            "ante": self.ante, "big_blind_ante": self.big_blind_ante,
            "max_raises": self.max_raises, "uncapped_heads_up": self.uncapped_heads_up,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameConfig:
        """Inverse of :meth:`to_dict`; ``variant`` may also be a name (``"plo8"``).

        ``small_blind`` reads as the constructor's: missing (or null) derives it, 0 is no small
        blind. :meth:`to_dict` has always written the resolved blind, never 0 for a fixed-limit
        small blind it derived, so stored configs read as they were written.

        >>> GameConfig.from_dict({"variant": "PO/8", "structure": "pot-limit", "big_blind": 2}).variant.hi_lo
        True
        """
        try:
            fields = dict(data)
            if not isinstance(fields["variant"], str):  # a name is resolved by __init__
                fields["variant"] = Variant.from_dict(fields["variant"])
            fields["structure"] = Structure(fields["structure"])
            return cls(**fields)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, ConfigError):
                raise
            raise ConfigError(None, f"bad game config data: {exc}") from exc
