"""Stud games (E1-E7): the configuration and one hand, over the compiled stud engine.

:class:`StudConfig` is a fixed-limit stud game: the variant (seven-card stud ``F7S``, stud
hi/lo ``F7S/8``, razz ``FR``, five-card stud ``F5S``; any name of
:data:`~omaha.config.VARIANT_NAMES`), the ante, the bring-in and the small and big bets.
:class:`StudHand` deals one hand from a shuffled deck (the OS generator, or a seeded
:class:`random.Random`) and plays it through :class:`omahacore.stud.StudCore`, whose betting
rules are the flop games' own transitions.

>>> import random
>>> config = StudConfig(variant="razz", ante=1, bring_in=2, small_bet=10)
>>> hand = StudHand(config, [500] * 4, rng=random.Random(26))
>>> hand.to_act == hand.bring_in_seat, config.big_bet
(True, 20)
>>> view = hand.view(0)          # player 0 sees their own down cards, only up cards of others
>>> len(view["players"][0]["down"]), view["players"][1]["down"]
(2, None)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from omaha.config import (
    FIVE_CARD_STUD,
    RAZZ,
    SEVEN_CARD_STUD,
    SEVEN_CARD_STUD_HILO,
    STUD_VARIANTS,
    Variant,
    parse_variant,
)
from omaha.errors import ConfigError, TableError
from omaha.game.deck import shuffled_cards
from omaha.limits import as_amount, safe_repr
from omahacore.cards import format_card
from omahacore.stud import (
    GAME_FIVE,
    GAME_HIGH,
    GAME_HILO,
    GAME_RAZZ,
    MAX_STUD_PLAYERS,
    StudCore,
    os_deck,
)

__all__ = ["STUD_CODES", "StudConfig", "StudHand", "game_code"]


def _deck(rng: random.Random | None) -> bytes:
    """52 shuffled cards (C2): the compiled shuffle from OS bytes, or the seeded generator's."""
    if rng is None:
        return os_deck()
    return bytes(shuffled_cards(52, rng))


def game_code(variant: Variant) -> int:
    """The compiled engine's game number of a stud variant (E1)."""
    if variant.hand_rule == "razz":
        return GAME_RAZZ
    if variant.hole_cards == 5:
        return GAME_FIVE
    return GAME_HILO if variant.hi_lo else GAME_HIGH


_GAMES = {variant: game_code(variant) for variant in STUD_VARIANTS}
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


class StudHand(StudCore):
    """One stud hand: the antes and the third-street deal happen on creation (E2, E3).

    ``stacks`` are the players' chips in seat order (2 to 8, E1); ``dealer`` the dealer
    position (default the last player, so the deal starts with player 0); ``rng`` a seeded
    :class:`random.Random` for a repeatable deal, else the OS generator (C2). The state and
    the actions (``legal_actions``, ``fold``, ``check_or_call``, ``post_bring_in``,
    ``bet_or_raise``, ...) are :class:`~omahacore.stud.StudCore`'s, compiled.
    """

    config: StudConfig

    def __init__(self, config: StudConfig, stacks: Sequence[int], *, dealer: int | None = None,
                 rng: random.Random | None = None) -> None:
        if not isinstance(config, StudConfig):
            raise ConfigError("E1", f"config must be a StudConfig, got {safe_repr(config)}")
        if not 2 <= len(stacks) <= MAX_STUD_PLAYERS:
            raise TableError("E1", f"stud is for 2 to {MAX_STUD_PLAYERS} players, got "
                             f"{len(stacks)}")
        self.config = config
        super().__init__(_GAMES[config.variant], stacks, _deck(rng), ante=config.ante,
                         bring_in=config.bring_in, small_bet=config.small_bet,
                         big_bet=config.big_bet, dealer=dealer, max_raises=config.max_raises)

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` sees (None: a spectator): every player's up cards, and down cards
        only their own (E2). Cards as text; ``down`` is None where hidden."""
        core = self
        players = []
        for i in range(core.players):
            mine = player == i
            players.append({
                "up": [format_card(c) for c in core.up_cards(i)],
                "down": [format_card(c) for c in core.down_cards(i)] if mine else None,
                "stack": core.stacks[i], "bet": core.bets[i], "folded": core.folded[i],
            })
        community = core.community
        return {"variant": self.config.variant.name, "street": core.street,
                "to_act": core.to_act, "pot": core.pot, "players": players,
                "community": None if community is None else format_card(community)}
