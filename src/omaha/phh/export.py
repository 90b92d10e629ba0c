"""Writing PHH: an engine hand as a history, and a history other readers (PokerKit) load.

:func:`history_from_events` turns the engine's event log (:attr:`omaha.game.hand.Hand.events`)
into a :class:`~omaha.phh.HandHistory`: players in PHH order (p1 left of the button, the
button last), the forced bets as PHH arrays (:func:`forced_bet_fields`, the inverse of
:func:`omaha.phh.replay.config_for_history`), every card dealt (``d dh`` in player order,
``d db`` per street), every action (``f``, ``cc``, ``cbr`` to a total) and the showdown
(``sm`` with the cards, or alone for a muck), the table seats in ``seats`` and the final
stacks in ``finishing_stacks``. Replaying the result gives the same final stacks.

What the standard cannot say is written in documented extensions (see
:mod:`omaha.phh.replay`): live blinds, the fixed-limit cap options, the rake (``_rake``),
and a D2 protected all-in as the no-op ``"# pN protected all-in (D2)"``. A timed-out action
carries the commentary ``timed out (D2)``.

>>> import random
>>> from omaha.config import GameConfig
>>> from omaha.game.hand import Hand
>>> hand = Hand(GameConfig.pot_limit(small_blind=1, big_blind=2), stacks={1: 50, 4: 80, 6: 60},
...             button=4, rng=random.Random(1))
>>> hand.fold(); hand.fold()
>>> hh = history_from_events(hand.events)
>>> hh.metadata["seats"], hh.starting_stacks, hh.actions[-2:], hh.finishing_stacks
((6, 1, 4), (60, 50, 80), ('p3 f', 'p1 f'), (59, 51, 80))

**PokerKit-compatible histories** (:func:`pokerkit_compatible`). The package writes
extension codes for games the PHH standard does not name (see :mod:`omaha.phh.variants`).
PokerKit knows only the standard's codes, so it fails on them (``KeyError: 'PO/8'``). A
compatible export writes, in place of an extension code, the standard code whose deal and
betting are the same (:data:`~omaha.phh.variants.PORTABLE_CODES`) and keeps the real code in
the user field ``_variant``, which PokerKit ignores and this package reads back:

========  ===========  ==================================================================
code      written as   what PokerKit replays
========  ===========  ==================================================================
``PO``    ``PO``       the same hand (standard code)
``FO/8``  ``FO/8``     the same hand (standard code)
``FT``    ``FT``       the same hand (standard code)
``NT``    ``NT``       the same hand (standard code)
``PT``    ``NT``       the same hand: every pot-limit bet is a legal no-limit bet
``PO/8``  ``PO``       the same deal and bets; at a showdown it awards the whole pot high
``FO``    ``FO/8``     the same deal and bets; at a showdown it splits for a qualifying low
others    refused      no-limit Omaha and 5/6-card Omaha: no standard game deals or bets so
========  ===========  ==================================================================

The export also writes as a call (``cc``) a raise that no opponent can call any part of (each
other player still in is all-in or has less behind than the bet already made): the engine
takes it and returns the uncalled chips (P-rules), PokerKit refuses it; the chips are the same.

PokerKit also ignores the package's other user fields (``_rake``: its stacks are before
rake; ``_live_blinds``, ``_max_raises``...). ``finishing_stacks`` stays the package's result.

>>> from omaha.phh import loads, dumps
>>> hh = loads('variant = "PO/8"\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\n'
...            'min_bet = 2\\nstarting_stacks = [100, 100]\\nactions = ["p2 f"]\\n')
>>> text = dumps(hh, compatible=True)
>>> print(text.splitlines()[0], text.splitlines()[-1])
variant = "PO" _variant = "PO/8"
>>> loads(text) == hh
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from omaha.config import GameConfig
from omaha.errors import HistoryError
from omaha.game.events import (
    BetOrRaised,
    BoardDealt,
    Called,
    Checked,
    Event,
    Folded,
    HandEnded,
    HandStarted,
    HoleDealt,
    Mucked,
    PotAwarded,
    ProtectedAllIn,
    Shown,
    TimedOut,
)
from omaha.phh.history import HandHistory
from omaha.phh.notation import (
    Action,
    BetOrRaiseTo,
    CheckOrCall,
    DealBoard,
    DealHole,
    Fold,
    NoOp,
    ShowOrMuck,
    format_action,
    phh_order,
)
from omaha.phh.variants import PORTABLE_CODES, STANDARD_CODES, variant_for_config

__all__ = ["forced_bet_fields", "history_from_events", "pokerkit_compatible"]


def history_from_events(
    events: Iterable[Event],
    *,
    metadata: Mapping[str, Any] | None = None,
    user_fields: Mapping[str, Any] | None = None,
) -> HandHistory:
    """The PHH history of one engine hand, from its event log.

    Args:
        events: the hand's events, starting with :class:`~omaha.game.events.HandStarted`.
        metadata: optional PHH fields to add (``players``, ``hand``, ``table``,
            ``seat_count``...); ``seats`` defaults to the table seats.
        user_fields: ``_name`` fields to add.

    Raises:
        HistoryError: the log does not start with HandStarted, or the game has no PHH code.
    """
    events = list(events)
    if not events or not isinstance(events[0], HandStarted):
        raise HistoryError("an engine event log starts with HandStarted")
    start = events[0]
    order = phh_order(start.seats, start.button)
    player = {seat: index for index, seat in enumerate(order)}
    stacks = dict(zip(start.seats, start.stacks))
    fields = forced_bet_fields(start.config, len(order), [player[s] for s in start.live_blinds])
    extra = dict(fields.pop("user_fields"))
    actions: list[str] = []
    holes: dict[int, tuple[int, ...]] = {}
    note: str | None = None
    rake = 0
    finishing: tuple[int, ...] | None = None
    for event in events[1:]:
        action: Action | None = None
        if isinstance(event, HoleDealt):
            holes[player[event.seat]] = tuple(event.cards)
            if len(holes) == len(order):  # all dealt: write them in player order
                actions.extend(format_action(DealHole(p, holes[p])) for p in sorted(holes))
        elif isinstance(event, BoardDealt):
            action = DealBoard(tuple(event.cards))
        elif isinstance(event, Folded):
            action = Fold(player[event.seat])
        elif isinstance(event, (Checked, Called)):
            action = CheckOrCall(player[event.seat])
        elif isinstance(event, BetOrRaised):
            action = BetOrRaiseTo(player[event.seat], event.to)
        elif isinstance(event, Shown):
            action = ShowOrMuck(player[event.seat], tuple(event.cards))
        elif isinstance(event, Mucked):
            action = ShowOrMuck(player[event.seat])
        elif isinstance(event, ProtectedAllIn):
            action = NoOp(f"p{player[event.seat] + 1} protected all-in (D2)")
        elif isinstance(event, TimedOut):
            note = "timed out (D2)"
        elif isinstance(event, PotAwarded):
            rake += event.rake
        elif isinstance(event, HandEnded):
            ended = dict(zip(start.seats, event.stacks))
            finishing = tuple(ended[s] for s in order)
        if action is not None:
            if note is not None and not isinstance(action, NoOp):  # the timeout's consequence
                action, note = replace(action, commentary=note), None
            actions.append(format_action(action))
    if rake:
        extra["_rake"] = rake
    extra.update(user_fields or {})
    return HandHistory(
        **fields,
        starting_stacks=[stacks[s] for s in order],
        actions=actions,
        finishing_stacks=finishing,
        metadata={"seats": list(order), **(metadata or {})},
        user_fields=extra,
    )


def forced_bet_fields(
    config: GameConfig, players: int, live_players: Sequence[int] = ()
) -> dict[str, Any]:
    """The PHH fields for an engine game with ``players`` dealt in: variant, antes, blinds,
    bet sizes, and the extension user fields it needs (the inverse of
    :func:`~omaha.phh.replay.config_for_history`, which documents the arrays). ``live_players``
    are 0-based PHH indices of live blinds."""
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


def pokerkit_compatible(history: HandHistory) -> HandHistory:
    """The history with a standard variant code PokerKit reads (the real one in ``_variant``).

    Raises:
        HistoryError: the game has no faithful standard encoding (no-limit Omaha, 5/6-card).
    """
    code = history.variant
    history = _calls_for_uncallable_raises(history)
    if code in STANDARD_CODES:
        return history
    standard = PORTABLE_CODES.get(code)
    if standard is None:
        accepted = ", ".join([*sorted(STANDARD_CODES), *PORTABLE_CODES])
        raise HistoryError(
            f"{code} ({history.game.name}) has no PHH standard code and PokerKit has no game "
            f"that deals and bets the same way, so no compatible export exists; "
            f"compatible exports are for {accepted}",
            field="variant",
        )
    return replace(history, variant=standard,
                   user_fields={**history.user_fields, "_variant": code})


def _calls_for_uncallable_raises(history: HandHistory) -> HandHistory:
    """The history with each raise nobody can call written as a call (same chips)."""
    stacks = [s - a for s, a in zip(history.starting_stacks, history.posted_antes())]
    bets = list(history.posted_blinds())
    stacks = [max(0, s - b) for s, b in zip(stacks, bets)]
    folded: set[int] = set()
    actions = list(history.actions)
    changed = False
    for index, action in enumerate(history.parsed_actions):
        if isinstance(action, DealBoard):
            bets = [0] * len(bets)
        elif isinstance(action, Fold):
            folded.add(action.player)
        elif isinstance(action, (CheckOrCall, BetOrRaiseTo)):
            player, current = action.player, max(bets)
            others = [o for o in range(len(bets)) if o != player and o not in folded]
            reach = max((bets[o] + stacks[o] for o in others), default=0)
            if isinstance(action, BetOrRaiseTo) and reach <= current:
                actions[index] = format_action(CheckOrCall(player, commentary=action.commentary))
                changed = True
                action = CheckOrCall(player)
            to = action.amount if isinstance(action, BetOrRaiseTo) else current
            paid = min(max(0, to - bets[player]), stacks[player])
            stacks[player] -= paid
            bets[player] += paid
    return replace(history, actions=actions) if changed else history
