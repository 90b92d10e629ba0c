"""Mixed-game rotations (E8): a table that plays a list of games in turn, a fixed number of
hands each or an orbit each, flop games and stud games alike.

A rotation is written as a known name (``HORSE``: fixed-limit hold'em, Omaha hi/lo, razz,
seven-card stud, stud hi/lo; ``HOSE``; ``HA``...) or a comma-separated list of variant names,
optionally followed by ``:N`` (N hands per game) or ``:orbit`` (one hand per player, the
default). The button moves one seat every hand, stud hands included, so when a flop game
follows a stud game it resumes where it would have been had the flop game gone on (E8).

>>> horse = Rotation.parse("HORSE:2")
>>> [STUD_OR_FLOP_CODE[horse.game_at(h, 6)] for h in range(0, 10, 2)]
['FT', 'FO/8', 'FR', 'F7S', 'F7S/8']
>>> horse.button_at(7, 6)
1
>>> Rotation.parse("FT,FR").game_at(5, players=3) == Rotation.parse("FT,FR").games[1]
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from omaha.config import (
    FIVE_CARD_STUD,
    FIXED_LIMIT,
    HOLDEM,
    OMAHA_HIGH,
    OMAHA_HILO,
    RAZZ,
    SEVEN_CARD_STUD,
    SEVEN_CARD_STUD_HILO,
    GameConfig,
    Variant,
    parse_variant,
)
from omaha.errors import ConfigError, OmahaError
from omaha.game.bots import Bot, act, situation
from omaha.game.hand import Hand
from omaha.game.stud import StudConfig, StudHand
from omaha.game.studplay import STUD_BOTS
from omaha.limits import safe_repr

__all__ = ["ROTATIONS", "STUD_OR_FLOP_CODE", "Rotation", "RotationConfig", "RotationResult",
           "play_rotation"]

ROTATIONS: dict[str, tuple[str, ...]] = {
    "HORSE": ("FT", "FO/8", "FR", "F7S", "F7S/8"),
    "HOSE": ("FT", "FO/8", "F7S", "F7S/8"),
    "HORS": ("FT", "FO/8", "FR", "F7S"),
    "SHOE": ("F7S", "FT", "FO/8", "F7S/8"),
    "HA": ("FT", "FO"),
}
"""The named rotations: each a list of fixed-limit games in the order played (E8)."""

STUD_OR_FLOP_CODE: dict[Variant, str] = {
    HOLDEM: "FT", OMAHA_HIGH: "FO", OMAHA_HILO: "FO/8", SEVEN_CARD_STUD: "F7S",
    SEVEN_CARD_STUD_HILO: "F7S/8", RAZZ: "FR", FIVE_CARD_STUD: "F5S",
}
"""The fixed-limit code of each game a rotation may hold."""


@dataclass(frozen=True, slots=True)
class Rotation:
    """The games in turn and how long each lasts: ``hands_per_game`` hands, or an orbit
    (one hand per player) when it is None."""

    games: tuple[Variant, ...]
    hands_per_game: int | None = None

    @classmethod
    def parse(cls, text: str) -> Rotation:
        """A rotation from its text (module docstring); a typed error names what is wrong.

        >>> Rotation.parse("FT,stud9")
        Traceback (most recent call last):
        ...
        omaha.errors.ConfigError: E8: rotation: unknown variant 'stud9'
        """
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise ConfigError("E8", f"rotation must be a name or a list of games, got "
                              f"{safe_repr(text)}")
        body, _, length = text.strip().partition(":")
        names = ROTATIONS.get(body.strip().upper()) or tuple(
            name.strip() for name in body.split(","))
        games = []
        for name in names:
            try:
                meaning = parse_variant(name)
            except OmahaError:
                raise ConfigError("E8", f"rotation: unknown variant {safe_repr(name)}") from None
            if meaning.structure not in (None, FIXED_LIMIT):
                raise ConfigError("E8", f"rotation: every game is fixed limit; {safe_repr(name)} "
                                  f"is {meaning.structure.value}")
            variant = meaning.variant
            if variant not in STUD_OR_FLOP_CODE:
                raise ConfigError("E8", f"rotation: {variant.name} has no fixed-limit game here")
            games.append(variant)
        hands: int | None = None
        if length.strip() and length.strip().lower() != "orbit":
            if not length.strip().isdigit() or not 1 <= int(length) <= 10_000:
                raise ConfigError("E8", "rotation: hands per game must be 1..10000 or 'orbit', "
                                  f"got {safe_repr(length)}")
            hands = int(length)
        return cls(tuple(games), hands)

    @property
    def text(self) -> str:
        """The rotation as :meth:`parse` reads it (the games' codes and the length).

        >>> Rotation.parse("HORSE").text, Rotation.parse(Rotation.parse("HA:3").text).text
        ('FT,FO/8,FR,F7S,F7S/8:orbit', 'FT,FO:3')
        """
        length = "orbit" if self.hands_per_game is None else str(self.hands_per_game)
        return ",".join(STUD_OR_FLOP_CODE[game] for game in self.games) + ":" + length

    def length(self, players: int) -> int:
        """Hands each game lasts at a table of ``players``."""
        return self.hands_per_game if self.hands_per_game is not None else players

    def game_at(self, hand: int, players: int) -> Variant:
        """The game of the table's hand number ``hand`` (from 0)."""
        return self.games[(hand // self.length(players)) % len(self.games)]

    def step(self, game: int, played: int, players: int) -> tuple[int, int]:
        """Where the rotation stands after one more hand, from index ``game`` of
        :attr:`games` with ``played`` of its hands played: (the next hand's game index, its
        hands played counting that one). A table whose player count changes (an orbit is one
        hand per player dealt in) moves on by this; at a fixed count it is :meth:`game_at`.

        >>> Rotation.parse("FT,FR:2").step(0, 1, 6), Rotation.parse("FT,FR:2").step(0, 2, 6)
        ((0, 2), (1, 1))
        """
        if played >= self.length(players):
            game, played = (game + 1) % len(self.games), 0
        return game, played + 1

    def button_at(self, hand: int, players: int) -> int:
        """The button's (stud: the dealer position's) player index for hand ``hand`` (E8: it
        moves every hand whatever the game, so a flop game resumes where it would have been)."""
        return hand % players


@dataclass(frozen=True, slots=True, init=False)
class RotationConfig:
    """A mixed game a :class:`~omaha.game.table.Table` plays: a :class:`Rotation` and one
    set of stakes for all its games (E8): every game fixed limit at ``small_bet`` and
    ``big_bet`` (default twice the small bet), the flop games with the blinds those bets imply
    (T3), the stud games with ``ante`` and ``bring_in`` (E3).

    >>> mixed = RotationConfig(Rotation.parse("HORSE"), small_bet=4, ante=1, bring_in=2)
    >>> [type(mixed.config_for(game)).__name__ for game in mixed.rotation.games]
    ['GameConfig', 'GameConfig', 'StudConfig', 'StudConfig', 'StudConfig']
    >>> RotationConfig.from_dict(mixed.to_dict()) == mixed
    True
    """

    rotation: Rotation
    small_bet: int
    big_bet: int
    ante: int
    bring_in: int
    configs: tuple[GameConfig | StudConfig, ...]

    def __init__(self, rotation: Rotation, *, small_bet: int, big_bet: int = 0, ante: int = 0,
                 bring_in: int = 0) -> None:
        if not isinstance(rotation, Rotation):
            raise ConfigError("E8", f"rotation must be a Rotation, got {safe_repr(rotation)}")
        configs: dict[Variant, GameConfig | StudConfig] = {}
        for game in rotation.games:   # each config checks the stakes (E3, E5, T3)
            if game.is_stud:
                configs[game] = StudConfig(variant=game, ante=ante, bring_in=bring_in,
                                           small_bet=small_bet, big_bet=big_bet)
            else:
                configs[game] = GameConfig.fixed_limit(small_bet=small_bet,
                                                       big_bet=big_bet or 2 * small_bet,
                                                       variant=game)
        first = next(iter(configs.values()))
        values = (("rotation", rotation), ("small_bet", first.small_bet),
                  ("big_bet", first.big_bet), ("ante", ante), ("bring_in", bring_in),
                  ("configs", tuple(configs[game] for game in rotation.games)))
        for name, value in values:
            object.__setattr__(self, name, value)

    def config_for(self, game: Variant) -> GameConfig | StudConfig:
        """The configuration ``game`` (one of the rotation's) is played with."""
        return self.configs[self.rotation.games.index(game)]

    @property
    def max_players(self) -> int:
        """The most players every game of the rotation deals to (stud: 8)."""
        return min(game.max_players for game in self.rotation.games)

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible fields (the rotation as its :attr:`Rotation.text`)."""
        return {"rotation": self.rotation.text, "small_bet": self.small_bet,
                "big_bet": self.big_bet, "ante": self.ante, "bring_in": self.bring_in}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RotationConfig:
        """Inverse of :meth:`to_dict`; a typed error names a bad or missing field."""
        if not isinstance(data, Mapping) or set(data) != {"rotation", "small_bet", "big_bet",
                                                          "ante", "bring_in"}:
            raise ConfigError("E8", "a rotation config has the fields rotation, small_bet, "
                              f"big_bet, ante and bring_in, got {safe_repr(data)}")
        return cls(Rotation.parse(data["rotation"]), small_bet=data["small_bet"],
                   big_bet=data["big_bet"], ante=data["ante"], bring_in=data["bring_in"])


@dataclass
class RotationResult:
    """A rotation session's result: hands played (per game code) and each seat's net."""

    hands: int = 0
    per_game: dict[str, int] = field(default_factory=dict)
    nets: list[int] = field(default_factory=list)


def play_rotation(rotation: Rotation, bots: Sequence[Bot], stud_bots: Sequence[str], *,
                  hands: int, small_bet: int, big_bet: int, ante: int, bring_in: int,
                  stack: int, seed: int | None = None,
                  on_hand: Callable[[int, Hand | StudHand], None] | None = None) -> RotationResult:
    """Play ``hands`` hands of ``rotation`` with one flop bot and one stud bot per seat:
    every stack starts every hand at ``stack`` (as ``omaha play`` scores), fixed limit with
    the same bets in every game, the flop games with the blinds the bets imply (T3), the
    stud games with ``ante`` and ``bring_in``. ``on_hand(number, hand)`` gets every finished
    hand."""
    players = len(bots)
    if len(stud_bots) != players or not 2 <= players <= 8:
        raise ConfigError("E8", "a rotation needs one flop bot and one stud bot per seat, 2 to 8")
    unknown = [name for name in stud_bots if name not in STUD_BOTS]
    if unknown:
        raise ConfigError("E8", f"unknown stud bot {unknown[0]!r}")
    mixed = RotationConfig(rotation, small_bet=small_bet, big_bet=big_bet, ante=ante,
                           bring_in=bring_in)
    rng = random.Random(seed)
    deal = random.Random(seed) if seed is not None else None
    result = RotationResult(nets=[0] * players)
    seats = list(range(1, players + 1))
    for number in range(hands):
        game = rotation.game_at(number, players)
        button = rotation.button_at(number, players)
        config = mixed.config_for(game)
        if isinstance(config, StudConfig):
            stud = StudHand(config, [stack] * players, dealer=button, rng=deal)
            while not stud.is_over:
                player = stud.to_act
                assert player is not None
                STUD_BOTS[stud_bots[player]](stud, rng)
            finals = stud.stacks
        else:
            hand = Hand(config, stacks=dict.fromkeys(seats, stack), button=seats[button],
                        rng=deal)
            while not hand.is_over:
                actor = hand.to_act
                assert actor is not None
                act(hand, bots[actor - 1].decide(situation(hand), rng))
            assert hand.result is not None
            finals = [stack + hand.result.net[seat] for seat in seats]
        if on_hand is not None:
            on_hand(number, stud if isinstance(config, StudConfig) else hand)
        for i, final in enumerate(finals):
            result.nets[i] += final - stack
        code = STUD_OR_FLOP_CODE[game]
        result.per_game[code] = result.per_game.get(code, 0) + 1
        result.hands += 1
    return result
