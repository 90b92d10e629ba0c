"""The game a history describes, as the engine's :class:`~omaha.config.GameConfig`, and back.

PHH writes forced bets as per-player arrays in blind order (index 0 the small blind, index 1
the big blind; heads-up the arrays are reversed onto the players, see
:meth:`~omaha.phh.HandHistory.posted_blinds`). The engine has a uniform ante, a big-blind
ante, the two blinds and live big blinds of new players (T3, T5), so these are the arrays it
replays:

* ``antes``: all equal (``[a, a, a]``), with possibly more at index 1 — the big-blind ante
  (``[0, 3, 0]`` is a big-blind ante of 3; ``[1, 4, 1]`` an ante of 1 and a big-blind ante
  of 3). A button ante and other patterns are refused.
* ``blinds_or_straddles``: ``[sb, bb, 0, ...]`` with ``sb`` at least 1; or, in pot and no
  limit, a single blind ``[b, 0, 0, ...]`` as some tournament files record it: the lone
  blind is the big blind (``GameConfig(small_blind=0, big_blind=b)``), posted by p1
  (heads-up by the button, the arrays being reversed) and the action starts after it; its
  big-blind ante is then at index 0 of ``antes``. A non-zero entry
  further on is accepted only as a T5 live big blind, listed in the user field
  ``_live_blinds`` (player numbers); the engine has no straddles.
* ``min_bet`` must equal the big blind (the engine's minimum bet, B4).

Extension user fields for engine options the standard cannot express: ``_max_raises`` (the
fixed-limit cap, B3; 0 for none) and ``_uncapped_heads_up`` (lift it on heads-up rounds).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from omaha.config import (
    FIXED_LIMIT,
    NO_LIMIT,
    POT_LIMIT,
    VARIANTS,
    GameConfig,
    Structure,
)
from omaha.config import Variant as EngineVariant
from omaha.errors import OmahaError
from omaha.phh.errors import HistoryError
from omaha.phh.history import HandHistory
from omaha.phh.variants import Structure as PhhStructure
from omaha.phh.variants import Variant, find_variant

__all__ = ["config_for_history", "engine_variant", "forced_bet_fields", "variant_for_config"]

_STRUCTURES: dict[PhhStructure, Structure] = {
    "fixed": FIXED_LIMIT,
    "pot": POT_LIMIT,
    "no": NO_LIMIT,
}
_PHH_STRUCTURES: dict[Structure, PhhStructure] = {v: k for k, v in _STRUCTURES.items()}


def engine_variant(game: Variant) -> EngineVariant:
    """The engine's variant for a PHH variant (one of omaha.config.VARIANTS when it exists)."""
    for variant in VARIANTS:
        if (variant.hole_cards, variant.hand_rule, variant.hi_lo) == (
            game.hole_cards,
            game.game,
            game.hilo,
        ):
            return variant
    return EngineVariant(
        name=game.name, hole_cards=game.hole_cards, hand_rule=game.game, hi_lo=game.hilo
    )


def config_for_history(history: HandHistory) -> tuple[GameConfig, tuple[int, ...]]:
    """The engine game of a history and the players (0-based, PHH order) posting live blinds.

    Raises:
        HistoryError: the forced bets or options are ones the engine does not play.
    """
    game = history.game
    blinds = history.blinds_or_straddles
    small_blind, big_blind = blinds[0], blinds[1]
    if small_blind >= 1 and big_blind == 0 and not game.fixed_limit:
        small_blind, big_blind = 0, blinds[0]   # a lone blind is the big blind (T3)
    elif small_blind < 1 or big_blind < small_blind:
        raise HistoryError(
            f"the engine needs a small blind of at least 1 and a big blind at least as large, "
            f"got {list(blinds[:2])}",
            field="blinds_or_straddles",
        )
    live = _live_blinds(history, big_blind)
    ante, big_blind_ante = _antes(history.antes, 1 if small_blind else 0)
    options: dict[str, Any] = {
        "variant": engine_variant(game),
        "structure": _STRUCTURES[game.structure],
        "small_blind": small_blind,
        "big_blind": big_blind,
        "ante": ante,
        "big_blind_ante": big_blind_ante,
    }
    if game.fixed_limit:
        options.update(small_bet=history.small_bet, big_bet=history.big_bet)
    elif history.min_bet != big_blind:
        raise HistoryError(
            f"min_bet {history.min_bet} differs from the big blind {big_blind}; the engine's "
            "minimum bet is the big blind (rule B4)",
            field="min_bet",
        )
    options.update(_cap_options(history.user_fields))
    try:
        return GameConfig(**options), live
    except OmahaError as exc:
        raise HistoryError(f"the engine refuses this game: {exc}") from None


def _live_blinds(history: HandHistory, big_blind: int) -> tuple[int, ...]:
    listed = history.user_fields.get("_live_blinds", [])
    if not isinstance(listed, list) or not all(type(p) is int for p in listed):
        raise HistoryError("expected a list of player numbers", field="_live_blinds")
    live = []
    for index, amount in enumerate(history.blinds_or_straddles[2:], start=2):
        if amount == 0:
            continue
        if index + 1 not in listed or amount != big_blind:
            raise HistoryError(
                f"p{index + 1} posts {amount}: straddles are not played by the engine (a live "
                f"big blind of {big_blind} is, when _live_blinds lists the player)",
                field="blinds_or_straddles",
            )
        live.append(index)
    if sorted(p - 1 for p in listed) != live:
        raise HistoryError(
            "must list exactly the players with a live blind in blinds_or_straddles",
            field="_live_blinds",
        )
    return tuple(live)


def _antes(antes: Sequence[int], big: int) -> tuple[int, int]:
    """``(ante, big_blind_ante)`` of an antes array whose big blind is at index ``big``
    (1, or 0 with a single blind), or HistoryError."""
    others = [a for i, a in enumerate(antes) if i != big]
    ante = others[0]
    if any(a != ante for a in others) or antes[big] < ante:
        raise HistoryError(
            f"{list(antes)}: the engine plays equal antes and a big-blind ante (index {big}) "
            "only",
            field="antes",
        )
    return ante, antes[big] - ante


def _cap_options(user_fields: Any) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if "_max_raises" in user_fields:
        cap = user_fields["_max_raises"]
        if type(cap) is not int or cap < 0:
            raise HistoryError(
                f"expected a whole number (0: no cap), got {cap!r}", field="_max_raises"
            )
        options["max_raises"] = cap or None
    if "_uncapped_heads_up" in user_fields:
        flag = user_fields["_uncapped_heads_up"]
        if type(flag) is not bool:
            raise HistoryError(f"expected true or false, got {flag!r}", field="_uncapped_heads_up")
        options["uncapped_heads_up"] = flag
    return options


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


def forced_bet_fields(
    config: GameConfig, players: int, live_players: Sequence[int] = ()
) -> dict[str, Any]:
    """The PHH fields for an engine game with ``players`` dealt in: variant, antes, blinds,
    bet sizes, and the extension user fields it needs (the inverse of
    :func:`config_for_history`). ``live_players`` are 0-based PHH indices of live blinds."""
    game = variant_for_config(config)
    antes = [config.ante] * players
    antes[1 if config.small_blind else 0] += config.big_blind_ante   # the big blind's index
    blinds = [config.small_blind, config.big_blind] + [0] * (players - 2)
    if not config.small_blind:   # a single blind, posted where the small blind would be
        blinds[:2] = [config.big_blind, 0]
    for player in live_players:
        blinds[player] = config.big_blind
    fields: dict[str, Any] = {"variant": game.code, "antes": antes, "blinds_or_straddles": blinds}
    if game.fixed_limit:
        fields.update(small_bet=config.small_bet, big_bet=config.big_bet)
    else:
        fields["min_bet"] = config.big_blind
    user: dict[str, Any] = {}
    if live_players:
        user["_live_blinds"] = sorted(p + 1 for p in live_players)
    if game.fixed_limit and config.max_raises != 4:
        user["_max_raises"] = config.max_raises or 0
    if game.fixed_limit and config.uncapped_heads_up:
        user["_uncapped_heads_up"] = True
    fields["user_fields"] = user
    return fields
