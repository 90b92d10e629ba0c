"""The PHH text the arena stores for each finished hand, flop or stud, and the names it holds.

A flop hand is written by :func:`omaha.phh.history_from_events` with the table, the hand
number and the players' names as metadata (``seats`` and ``players`` in PHH order). A stud
hand (E1-E7) is written by :func:`omaha.phh.stud.stud_history`, its ``seats`` the table's
seats, with the same three facts as user fields (``_table``, ``_hand``, ``_players``). Five-card
stud has no PHH code: its text is empty (the events are stored all the same).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from omaha.errors import HistoryError
from omaha.game.hand import Hand
from omaha.game.studseats import SeatedStudHand

__all__ = ["finished_phh", "stored_names"]


def finished_phh(hand: Hand | SeatedStudHand, names: Mapping[int, str],
                 metadata: Mapping[str, Any]) -> str:
    """The PHH text of the finished ``hand``; ``names`` by seat, ``metadata`` the table and
    the hand number (``{"table": 1, "hand": 7}``)."""
    if isinstance(hand, SeatedStudHand):
        from omaha.phh.stud import dumps_stud, stud_history

        try:
            history = stud_history(hand.stud)
        except HistoryError:   # five-card stud: PHH has no code for it
            return ""
        order = [hand.seats[i - 1] for i in history.seats or ()]
        return dumps_stud(dataclasses.replace(history, seats=order, user_fields={
            **history.user_fields, "_table": metadata["table"], "_hand": metadata["hand"],
            "_players": [names.get(s, f"seat {s}") for s in order]}))
    from omaha.phh import dumps, history_from_events, phh_order

    order = phh_order(hand.seats, hand.button)
    return dumps(history_from_events(hand.events, metadata={
        **metadata, "players": [names.get(s, f"seat {s}") for s in order]}))


def stored_names(phh: str) -> dict[str, str]:
    """The players' names a :func:`finished_phh` text holds, by seat (as text)."""
    if not phh:
        return {}
    from omaha.phh.stud import is_stud_code, loads_stud

    if any(is_stud_code(line.partition("=")[2].strip().strip('"'))
           for line in phh.splitlines() if line.startswith("variant")):
        stud = loads_stud(phh)
        return {str(s): str(n) for s, n in zip(stud.seats or (),
                                               stud.user_fields.get("_players", ()))}
    from omaha.phh import loads

    stored_as = loads(phh).metadata
    return {str(s): str(n) for s, n in zip(stored_as.get("seats", ()),
                                           stored_as.get("players", ()))}
