"""Hand histories in the PHH standard (the TOML format of PokerKit and its data sets).

Read, write, check, replay and export Omaha hands, one at a time or whole corpora. Ten
modules, each one concern, each importing only those listed before it:

* :mod:`.variants` — the variant codes: :data:`VARIANTS`, the standard ``PO`` and ``FO/8``
  and the documented extension codes for the other games, and the engine game of each;
* :mod:`.amounts` — money in a history's own units: decimal amounts scaled to whole chips
  by the hand's smallest unit and back, ``inf`` stacks;
* :mod:`.notation` — how PHH writes a hand: cards (:func:`parse_phh_cards`), actions
  (:func:`parse_action` / :func:`format_action` and the action classes), and player order
  (:func:`phh_order`: p1 left of the button, the button last);
* :mod:`.history` — :class:`HandHistory`, one hand, every field checked on construction;
* :mod:`.export` — writing: :func:`history_from_events` (an engine hand as PHH) and
  :func:`pokerkit_compatible` (standard codes PokerKit reads in place of the extension
  codes where the game deals and bets the same);
* :mod:`.toml` — the TOML underneath: reading with exact decimals, and the one emitter;
* :mod:`.io` — text and files: :func:`loads` / :func:`dumps`, :func:`load` / :func:`dump`
  for one ``.phh`` hand, :func:`loads_all` / :func:`dumps_all`, :func:`load_all` /
  :func:`dump_all` for ``.phhs`` collections, and the TOML underneath;
* :mod:`.replay` — :func:`replay_history`: play a history through the engine, with the
  checks of live play, and the engine game a history's forced bets describe;
* :mod:`.stud` — stud histories (``F7S``, ``F7S/8``, ``FR``): :class:`StudHistory`,
  :func:`stud_history` (a :class:`~omaha.game.stud.StudHand` as PHH), :func:`loads_stud` /
  :func:`dumps_stud` and :func:`replay_stud_history`;
* :mod:`.corpus` — :func:`replay_files`: whole corpora hand by hand, one
  :class:`HandReport` each (matched, mismatched, replayed, unevaluable, unsupported,
  invalid), through the compiled fast path where it applies, stud hands through :mod:`.stud`.

Every fault raises :class:`HistoryError`, naming the field or the action's index and text.

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

from omaha.errors import HistoryError
from omaha.phh.corpus import HandReport, replay_files
from omaha.phh.export import history_from_events, pokerkit_compatible
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
from omaha.phh.notation import (
    Action,
    BetOrRaiseTo,
    CheckOrCall,
    DealBoard,
    DealHole,
    Fold,
    NoOp,
    ShowOrMuck,
    blind_players,
    format_action,
    format_phh_cards,
    parse_action,
    parse_phh_cards,
    phh_order,
    table_seats,
)
from omaha.phh.replay import ReplayResult, replay_history
from omaha.phh.stud import (
    StudHistory,
    StudReplay,
    dumps_stud,
    loads_stud,
    replay_stud_history,
    stud_history,
)
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
    "HandReport",
    "HistoryError",
    "NoOp",
    "ReplayResult",
    "ShowOrMuck",
    "StudHistory",
    "StudReplay",
    "UnknownFieldWarning",
    "Variant",
    "blind_players",
    "dump",
    "dump_all",
    "dumps",
    "dumps_all",
    "dumps_stud",
    "find_variant",
    "format_action",
    "format_phh_cards",
    "history_from_events",
    "load",
    "load_all",
    "loads",
    "loads_all",
    "loads_stud",
    "parse_action",
    "parse_phh_cards",
    "phh_order",
    "pokerkit_compatible",
    "read_histories",
    "replay_files",
    "replay_history",
    "replay_stud_history",
    "stud_history",
    "table_seats",
    "variant_for_code",
    "variant_for_name",
]
