"""The one wording table of refused actions: a reason code of the compiled rules, in words.

The compiled checks (:mod:`omahacore.transitions`) say *why* an action is refused with a
:class:`~omahacore.transitions.Reason`; this table turns the code and the numbers of the
refusal into the :class:`~omahacore.errors.IllegalActionError` every surface shows (the
hand, the table, the arena, the learning environments, PHH replay and the command line).
The error keeps the code in ``reason``, so programs can branch on it instead of the text.

>>> err = refused(Reason.BELOW_MINIMUM, seat=3, to=150, low=200, high=700, word="raise")
>>> str(err), err.rule, err.reason.name
('B4: minimum raise is to 200, got 150', 'B4', 'BELOW_MINIMUM')
"""

from __future__ import annotations

from typing import Any

from omahacore.errors import IllegalActionError
from omahacore.transitions import Reason

__all__ = ["WORDING", "Reason", "refused"]

# Reason -> (rule, message template); the template's fields are refused()'s keywords.
WORDING: dict[Reason, tuple[str | None, str]] = {
    Reason.HAND_OVER: ("B1", "the hand is over; no action is possible"),
    Reason.AT_SHOWDOWN: ("B1", "the hand is at showdown; no betting action is possible"),
    Reason.NOT_YOUR_TURN: ("B1", "it is seat {turn}'s turn, not seat {seat}'s"),
    Reason.CHECK_OWES: ("B2", ("seat {seat} owes {owed}; check is only possible when nothing "
                              "is owed")),
    Reason.CALL_OWES_NOTHING: ("B2", "seat {seat} owes nothing; check instead"),
    Reason.NOT_AN_AMOUNT: ("B2", "a bet is a whole number of chips, got {to}"),
    Reason.BEYOND_ANY_STACK: ("B8", ("a bet to {to} is beyond any stack (the limit is "
                                    "MAX_CHIPS = 2**63-1)")),
    Reason.TOO_SHORT_TO_RAISE: ("B8", ("seat {seat} has {stack} chips, not enough to raise; "
                                      "call (all-in) or fold")),
    Reason.NOBODY_TO_CALL: ("B8", ("every other player is all-in; nobody could call a raise, "
                                  "so call or fold")),
    Reason.NOT_REOPENED: ("B7", ("seat {seat} already acted and faces less than a full raise; "
                                "only call or fold")),
    Reason.CAPPED: ("B3", "the betting is capped at {cap} bets this round; only call or fold"),
    Reason.LIMIT_EXACT: ("B3", "the {word} must be to exactly {low}, got {to}"),
    Reason.ALL_IN_ONLY: ("B8", "seat {seat} can only {word} all-in to {low}, got {to}"),
    Reason.BELOW_MINIMUM: ("B4", "minimum {word} is to {low}, got {to}"),
    Reason.ABOVE_POT: ("B5", "maximum {word} is to {high} (the pot), got {to}"),
    Reason.ABOVE_STACK: ("B8", ("seat {seat} has {stack} chips; maximum {word} is to {high}, "
                               "got {to}")),
    Reason.PROTECT_CAN_CHECK: ("D2", ("seat {seat} can check for free; a timeout checks "
                                     "instead")),
    Reason.PROTECT_NO_CHIPS: ("D2", ("seat {seat} has put no chips in this hand; a timeout "
                                    "folds instead")),
    Reason.NOTHING_TO_UNDO: (None, "no action to undo: this hand (or copy) has taken none"),
    Reason.NO_SHOWDOWN_TURN: ("S1", "no showdown decision is pending"),
    Reason.NOT_YOUR_SHOW: ("S1", "seat {turn} shows or mucks next, not seat {seat}"),
    Reason.BRING_IN_DUE: ("E3", ("seat {seat} brings in: post the bring-in ({owed}) or "
                                 "complete; no fold")),
    Reason.OPEN_PAIR_SIZES: ("E5", ("with an open pair showing the {word} is to {low} or "
                                    "{high}, got {to}")),
}


def refused(reason: Reason | int, **facts: Any) -> IllegalActionError:
    """The error for an action refused for ``reason``, worded with ``facts`` (the seat, the
    amounts). Unknown codes and missing facts still give a readable error, never a crash."""
    code = Reason(reason) if reason in Reason._value2member_map_ else Reason.OK
    rule, template = WORDING.get(code, (None, "refused ({reason})"))
    try:
        message = template.format(reason=int(reason), **facts)
    except (KeyError, IndexError, ValueError):
        message = f"{template} (facts: {sorted(facts)})"
    return IllegalActionError(rule, message, reason=code)
