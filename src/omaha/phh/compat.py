"""Hand histories other PHH readers (PokerKit) can load: :func:`pokerkit_compatible`.

The package writes extension codes for games the PHH standard does not name (see
:mod:`omaha.phh.variants`). PokerKit knows only the standard's codes, so it fails on them
(``KeyError: 'PO/8'``). A compatible export writes, in place of an extension code, the
standard code whose deal and betting are the same (:data:`~omaha.phh.variants.PORTABLE_CODES`)
and keeps the real code in the user field ``_variant``, which PokerKit ignores and this
package reads back:

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

from dataclasses import replace

from omaha.phh.actions import BetOrRaiseTo, CheckOrCall, DealBoard, Fold, format_action
from omaha.phh.errors import HistoryError
from omaha.phh.history import HandHistory
from omaha.phh.variants import PORTABLE_CODES, STANDARD_CODES

__all__ = ["pokerkit_compatible"]


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
