"""PHH variant codes for the games the engine plays (rule C6), and the engine's game for each.

The PHH standard names two Omaha games: ``PO`` (pot-limit Omaha high) and ``FO/8``
(fixed-limit Omaha hi/lo eight or better). It says new variants get new codes; this module
extends it in the standard's own pattern, *structure letter + card count + game + split*,
the way ``F7S`` is fixed-limit seven-card stud and ``/8`` marks an eight-or-better split:

========  ==============================================  ========
code      game                                            standard
========  ==============================================  ========
``PO``    pot-limit Omaha high                            yes
``FO/8``  fixed-limit Omaha hi/lo 8-or-better             yes
``FO``    fixed-limit Omaha high                          extension
``NO``    no-limit Omaha high                             extension
``PO/8``  pot-limit Omaha hi/lo 8-or-better               extension
``NO/8``  no-limit Omaha hi/lo 8-or-better                extension
``F5O``   fixed-limit 5-card Omaha high (and ``P5O``,     extension
          ``N5O``, ``F5O/8``, ``P5O/8``, ``N5O/8``;
          ``6`` in place of ``5`` for 6-card Omaha)
``FT``    fixed-limit Texas hold'em                       yes
``NT``    no-limit Texas hold'em                          yes
``PT``    pot-limit Texas hold'em                         extension
========  ==============================================  ========

The 4-card games drop the card count, as the standard does. Texas Hold'em, which the engine
also plays (rule C6), keeps the standard's ``FT`` and ``NT`` and adds ``PT`` (pot limit).
Fixed-limit codes take ``small_bet`` and ``big_bet``; pot- and no-limit codes take ``min_bet``.

:func:`engine_variant` and :func:`variant_for_config` go between a code and the engine's
:class:`~omaha.config.Variant` and :class:`~omaha.config.GameConfig` (the forced bets a
history adds are read in :mod:`omaha.phh.replay` and written in :mod:`omaha.phh.export`).

>>> variant_for_code("PO/8")
Variant(code='PO/8', structure='pot', hilo=True, hole_cards=4, game='omaha')
>>> variant_for_code("P5O").name
'pot-limit 5-card Omaha high'
>>> find_variant(structure="fixed", hilo=True).code
'FO/8'
>>> engine_variant(variant_for_code("P5O")).name, variant_for_code("P5O").engine_structure
('5-Card Omaha High', Structure.POT_LIMIT)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from omaha.config import VARIANTS as ENGINE_VARIANTS
from omaha.config import GameConfig, parse_variant
from omaha.config import Structure as EngineStructure
from omaha.config import Variant as EngineVariant
from omaha.errors import ConfigError, HistoryError, UnsupportedVariantError
from omaha.game.studconfig import STUD_CODES
from omaha.limits import safe_repr

__all__ = [
    "NOT_PLAYED",
    "PORTABLE_CODES",
    "STANDARD_CODES",
    "VARIANTS",
    "Structure",
    "Variant",
    "engine_variant",
    "find_variant",
    "variant_for_code",
    "variant_for_config",
    "variant_for_name",
]

Structure = Literal["fixed", "pot", "no"]

_STRUCTURE_LETTERS: dict[Structure, str] = {"fixed": "F", "pot": "P", "no": "N"}
_STRUCTURE_NAMES: dict[Structure, str] = {
    "fixed": "fixed-limit",
    "pot": "pot-limit",
    "no": "no-limit",
}

STANDARD_CODES = frozenset({"PO", "FO/8", "FT", "NT"})
"""The codes here that the PHH standard itself defines; the rest are this package's extensions."""

PORTABLE_CODES: dict[str, str] = {"PT": "NT", "PO/8": "PO", "FO": "FO/8"}
"""Extension code -> the standard code a PokerKit-compatible export writes in its place, the
real code going in the user field ``_variant``. The deal and every bet are the same in both
games; ``PT`` -> ``NT`` is exact (every pot-limit bet is a legal no-limit bet, the showdown is
the same), while ``PO/8`` -> ``PO`` and ``FO`` -> ``FO/8`` differ at a showdown, where a reader
that ignores ``_variant`` splits (or does not split) the pot for low. The other extension
codes (no-limit Omaha, 5- and 6-card Omaha) have no faithful standard encoding."""


@dataclass(frozen=True)
class Variant:
    """One Omaha game as a PHH variant code describes it.

    Attributes:
        code: the PHH ``variant`` field value.
        structure: ``"fixed"``, ``"pot"`` or ``"no"`` (limit).
        hilo: True for hi/lo 8-or-better split (rule C5), False for high only.
        hole_cards: 4, 5 or 6 hole cards in Omaha (exactly 2 are used, rule C3), 2 in Hold'em.
        game: ``"omaha"`` or ``"holdem"`` (best five of seven, rule C6).
    """

    code: str
    structure: Structure
    hilo: bool
    hole_cards: int
    game: Literal["omaha", "holdem"] = "omaha"

    @property
    def name(self) -> str:
        """A readable name, e.g. ``'fixed-limit Omaha hi/lo 8-or-better'``."""
        if self.game == "holdem":
            return f"{_STRUCTURE_NAMES[self.structure]} Texas hold'em"
        cards = "" if self.hole_cards == 4 else f"{self.hole_cards}-card "
        game = "hi/lo 8-or-better" if self.hilo else "high"
        return f"{_STRUCTURE_NAMES[self.structure]} {cards}Omaha {game}"

    @property
    def standard(self) -> bool:
        """True when the PHH standard defines this code, False for an extension."""
        return self.code in STANDARD_CODES

    @property
    def fixed_limit(self) -> bool:
        """True when bets come in fixed units (``small_bet``/``big_bet`` fields)."""
        return self.structure == "fixed"

    @property
    def bet_fields(self) -> tuple[str, ...]:
        """The PHH fields holding the bet sizes for this structure."""
        return ("small_bet", "big_bet") if self.fixed_limit else ("min_bet",)

    @property
    def engine_structure(self) -> EngineStructure:
        """The engine's betting structure for this code (B3)."""
        return _ENGINE_STRUCTURES[self.structure]


def _code(structure: Structure, hilo: bool, hole_cards: int) -> str:
    cards = "" if hole_cards == 4 else str(hole_cards)
    return f"{_STRUCTURE_LETTERS[structure]}{cards}O{'/8' if hilo else ''}"


VARIANTS: dict[str, Variant] = {
    _code(structure, hilo, cards): Variant(_code(structure, hilo, cards), structure, hilo, cards)
    for cards in (4, 5, 6)
    for hilo in (False, True)
    for structure in _STRUCTURE_LETTERS
}
VARIANTS.update(
    (f"{letter}T", Variant(f"{letter}T", structure, False, 2, "holdem"))
    for structure, letter in _STRUCTURE_LETTERS.items()
)
"""Every supported code, mapped to its :class:`Variant`."""


def variant_for_code(code: str) -> Variant:
    """The variant a PHH ``variant`` code names (exact, case-sensitive as in the standard).

    Raises:
        HistoryError: the code is not one of :data:`VARIANTS`.
    """
    if isinstance(code, str) and code in VARIANTS:
        return VARIANTS[code]
    known = ", ".join(sorted(VARIANTS))
    if isinstance(code, str) and code in STUD_CODES.values():
        raise HistoryError(f"{code} is a stud game: its history has stud fields (bring_in, no "
                           "blinds); read it with omaha.phh.stud.loads_stud", field="variant")
    if isinstance(code, str) and code in NOT_PLAYED:
        raise UnsupportedVariantError(
            f"{code} ({NOT_PLAYED[code]}) is a PHH game this package does not play (it plays "
            "Omaha and hold'em: omaha.phh.VARIANTS)", field="variant")
    raise HistoryError(f"unknown variant {safe_repr(code)}; known codes: {known}", field="variant")


NOT_PLAYED: dict[str, str] = {
    "NS": "no-limit short-deck hold'em",
    "N2L1D": "no-limit deuce-to-seven single draw",
    "F2L3D": "fixed-limit deuce-to-seven triple draw",
    "FB": "fixed-limit badugi",
}
"""The PHH standard's codes of games the engine does not play (a history of one is valid PHH:
replaying it reports the game as unsupported, not the file as broken). The stud codes
(``F7S``, ``F7S/8``, ``FR``) are played, through :mod:`omaha.phh.stud`."""


def find_variant(
    *, structure: Structure, hilo: bool, hole_cards: int = 4, game: str = "omaha"
) -> Variant:
    """The variant with these properties.

    Raises:
        HistoryError: no code exists for the combination (e.g. 7 hole cards, hi/lo Hold'em).
    """
    for variant in VARIANTS.values():
        if (variant.structure, variant.hilo, variant.hole_cards, variant.game) == (
            structure,
            hilo,
            hole_cards,
            game,
        ):
            return variant
    raise HistoryError(
        f"no PHH variant code for {structure}-limit {game} with {hole_cards} hole cards"
        f"{' hi/lo' if hilo else ''}"
    )


_PHH_STRUCTURES: dict[EngineStructure, Structure] = {
    EngineStructure.FIXED_LIMIT: "fixed",
    EngineStructure.POT_LIMIT: "pot",
    EngineStructure.NO_LIMIT: "no",
}
_ENGINE_STRUCTURES = {phh: engine for engine, phh in _PHH_STRUCTURES.items()}


def variant_for_name(text: str) -> Variant:
    """A variant from a PHH code or a common short name, for command lines.

    The names are those of :data:`omaha.config.VARIANT_NAMES`, the one alias table that
    :class:`~omaha.config.GameConfig` reads too: ``plo``, ``plo8``, ``flo8``, ``plo5`` or
    ``5plo``, ``nlo6-8``, ``nlhe``..., the PHH codes in any case, and names without a
    structure, which take their usual one (``holdem`` no limit, ``omaha8`` fixed limit,
    ``omaha`` pot limit).

    >>> variant_for_name("plo8").code
    'PO/8'
    >>> variant_for_name("flo8").code
    'FO/8'
    >>> variant_for_name("5nlo").code
    'N5O'
    >>> variant_for_name("holdem").code
    'NT'

    Raises:
        HistoryError: the text names no known variant (the message lists the accepted names).
    """
    if isinstance(text, str) and text in VARIANTS:
        return VARIANTS[text]
    try:
        meaning = parse_variant(text)
    except ConfigError as exc:
        raise HistoryError(str(exc)) from None
    game = meaning.variant
    return find_variant(
        structure=_PHH_STRUCTURES[meaning.structure or meaning.usual],
        hilo=game.hi_lo,
        hole_cards=game.hole_cards,
        game=game.hand_rule,
    )


def engine_variant(game: Variant) -> EngineVariant:
    """The engine's variant for a PHH variant (one of omaha.config.VARIANTS when it exists)."""
    for variant in ENGINE_VARIANTS:
        if (variant.hole_cards, variant.hand_rule, variant.hi_lo) == (
            game.hole_cards,
            game.game,
            game.hilo,
        ):
            return variant
    return EngineVariant(
        name=game.name, hole_cards=game.hole_cards, hand_rule=game.game, hi_lo=game.hilo
    )


def variant_for_config(config: GameConfig) -> Variant:
    """The PHH variant of an engine game.

    Raises:
        HistoryError: no code exists (hi/lo Hold'em).
    """
    variant = config.variant
    return find_variant(
        structure=_PHH_STRUCTURES[config.structure],
        hilo=variant.hi_lo,
        hole_cards=variant.hole_cards,
        game=variant.hand_rule,
    )
