"""Hand histories in the PHH standard (the TOML format of PokerKit and its data sets).

Read, write, check, replay and export Omaha hands:

* :class:`HandHistory` — one hand, checked on construction (:mod:`.history`);
* :func:`loads` / :func:`dumps`, :func:`load` / :func:`dump` — one ``.phh`` hand;
  :func:`loads_all` / :func:`dumps_all`, :func:`load_all` / :func:`dump_all` — ``.phhs``
  collections (:mod:`.io`);
* :func:`parse_action` / :func:`format_action` and the action classes (:mod:`.actions`);
* :data:`VARIANTS` — the standard codes ``PO`` and ``FO/8`` and the documented extension
  codes for the other Omaha games (:mod:`.variants`);
* :func:`phh_order` — seat mapping, p1 left of the button, the button last (:mod:`.seats`);
* :func:`replay_history` — play a history through the engine, same checks as live play
  (:mod:`.replay`); :func:`history_from_events` — write an engine hand as PHH (:mod:`.export`);
* :func:`pokerkit_compatible` / ``dumps(..., compatible=True)`` — standard codes PokerKit
  reads in place of the extension codes where the game deals and bets the same (:mod:`.compat`);
* :class:`HistoryError` — every fault, naming the field or the action's index and text.

>>> hh = loads('''
... variant = "FO/8"
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... small_bet = 2
... big_bet = 4
... starting_stacks = [50, 50, 50]
... actions = ["d dh p1 ????????", "d dh p2 ????????", "d dh p3 ????????", "p3 f", "p1 f"]
... ''')
>>> hh.game.name, hh.players
('fixed-limit Omaha hi/lo 8-or-better', 3)
>>> loads(dumps(hh)) == hh
True
"""

from omaha.phh.actions import (
    Action,
    BetOrRaiseTo,
    CheckOrCall,
    DealBoard,
    DealHole,
    Fold,
    NoOp,
    ShowOrMuck,
    format_action,
    parse_action,
)
from omaha.phh.cards import format_phh_cards, parse_phh_cards
from omaha.phh.compat import pokerkit_compatible
from omaha.phh.errors import HistoryError
from omaha.phh.export import history_from_events
from omaha.phh.history import HandHistory, UnknownFieldWarning
from omaha.phh.io import (
    dump,
    dump_all,
    dumps,
    dumps_all,
    load,
    load_all,
    loads,
    loads_all,
    read_histories,
)
from omaha.phh.replay import ReplayResult, replay_history
from omaha.phh.seats import blind_players, phh_order, table_seats
from omaha.phh.variants import (
    PORTABLE_CODES,
    STANDARD_CODES,
    VARIANTS,
    Variant,
    find_variant,
    variant_for_code,
    variant_for_name,
)

__all__ = [
    "PORTABLE_CODES",
    "STANDARD_CODES",
    "VARIANTS",
    "Action",
    "BetOrRaiseTo",
    "CheckOrCall",
    "DealBoard",
    "DealHole",
    "Fold",
    "HandHistory",
    "HistoryError",
    "NoOp",
    "ReplayResult",
    "ShowOrMuck",
    "UnknownFieldWarning",
    "Variant",
    "blind_players",
    "dump",
    "dump_all",
    "dumps",
    "dumps_all",
    "find_variant",
    "format_action",
    "format_phh_cards",
    "history_from_events",
    "load",
    "load_all",
    "loads",
    "loads_all",
    "parse_action",
    "parse_phh_cards",
    "phh_order",
    "pokerkit_compatible",
    "read_histories",
    "replay_history",
    "table_seats",
    "variant_for_code",
    "variant_for_name",
]
