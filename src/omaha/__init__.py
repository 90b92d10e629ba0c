"""omaha-poker: fast, rule-exact Omaha High and Omaha Hi/Lo 8-or-better.

The rule numbers quoted throughout (C1, B5, S3, ...) refer to the project's rule book.

Evaluate hands:

>>> import omaha
>>> omaha.evaluate_high("AhKhQdJd", "ThJhQc2s3s") > omaha.evaluate_high("2c2d7h8h", "ThJhQc2s3s")
True
>>> omaha.describe(omaha.evaluate_low("As2d9h9c", "3c4d5hKsKd"), low=True)
'5-4-3-2-A low'

Play a hand (a seeded generator makes it reproducible; the default is the OS's):

>>> import random
>>> config = omaha.GameConfig.pot_limit(variant=omaha.OMAHA_HILO, small_blind=1, big_blind=2)
>>> hand = omaha.Hand(config, stacks={1: 200, 2: 200, 3: 200}, button=1, rng=random.Random(7))
>>> hand.to_act, hand.legal_actions().call_amount
(1, 2)
>>> hand.fold()
>>> hand.fold()
>>> hand.is_over, hand.stacks
(True, {1: 200, 2: 199, 3: 201})

The package in layers (``docs/architecture.md``): this front door and the foundations
everything imports (:mod:`omaha.errors`, :mod:`omaha.limits`, :mod:`omaha.cards`,
:mod:`omaha.config`); :mod:`omaha.game` (the hand, the table and the clock over the compiled
core :mod:`omahacore`); :mod:`omaha.history` (snapshots) and :mod:`omaha.phh` (hand
histories); :mod:`omaha.analysis` (evaluation, equity, ranges, preflop); and on top the
server :mod:`omaha.arena`, learning (:mod:`omaha.rl`, :mod:`omaha.distributed`) and the
command line :mod:`omaha.cli`.
"""

import sys
import types
from typing import TYPE_CHECKING, Any

from omaha._version import __version__ as __version__  # written once, in _version.py
from omaha.analysis.equity import EquityResult, equity
from omaha.analysis.evaluation import (
    best_hand,
    category,
    describe,
    describe_low,
    evaluate_best,
    evaluate_best_low,
    evaluate_five,
    evaluate_five_batch,
    evaluate_five_low,
    evaluate_high,
    evaluate_high_batch,
    evaluate_hilo,
    evaluate_hilo_batch,
    evaluate_low,
    evaluate_low_batch,
    explain,
)
from omaha.analysis.ranges import Range, RangeError
from omaha.cards import DECK, Card, format_cards, parse_cards
from omaha.config import (
    FIVE_CARD_OMAHA,
    FIVE_CARD_OMAHA_HILO,
    FIXED_LIMIT,
    HOLDEM,
    NO_LIMIT,
    OMAHA_HIGH,
    OMAHA_HILO,
    POT_LIMIT,
    SIX_CARD_OMAHA,
    SIX_CARD_OMAHA_HILO,
    VARIANTS,
    GameConfig,
    Structure,
    Variant,
)
from omaha.errors import (
    ArrayError,
    CardError,
    ClockError,
    ConfigError,
    HistoryError,
    IllegalActionError,
    LimitError,
    OmahaError,
    OmahaTypeError,
    PotError,
    RakeError,
    RuleError,
    SnapshotError,
    StrengthError,
    TableError,
)
from omaha.game.hand import Hand, RakeRule, Street
from omaha.game.table import Table
from omaha.game.view import visible_events
from omaha.limits import MAX_CHIPS
from omahacore.actions import LegalActions
from omahacore.pots import PotAward, PotLayer, Settlement, build_pots, settle
from omahacore.transitions import Reason

__all__ = [
    "DECK",
    "FIVE_CARD_OMAHA",
    "FIVE_CARD_OMAHA_HILO",
    "FIXED_LIMIT",
    "HOLDEM",
    "MAX_CHIPS",
    "NO_LIMIT",
    "OMAHA_HIGH",
    "OMAHA_HILO",
    "POT_LIMIT",
    "SIX_CARD_OMAHA",
    "SIX_CARD_OMAHA_HILO",
    "VARIANTS",
    "ArrayError",
    "Card",
    "CardError",
    "ClockError",
    "ConfigError",
    "EquityResult",
    "GameConfig",
    "Hand",
    "HistoryError",
    "IllegalActionError",
    "LegalActions",
    "LimitError",
    "OmahaError",
    "OmahaTypeError",
    "PotAward",
    "PotError",
    "PotLayer",
    "RakeError",
    "RakeRule",
    "Range",
    "RangeError",
    "Reason",
    "RuleError",
    "Settlement",
    "SnapshotError",
    "Street",
    "StrengthError",
    "Structure",
    "Table",
    "TableError",
    "Variant",
    "best_hand",
    "build_pots",
    "category",
    "describe",
    "describe_low",
    "equity",
    "evaluate_best",
    "evaluate_best_low",
    "evaluate_five",
    "evaluate_five_batch",
    "evaluate_five_low",
    "evaluate_high",
    "evaluate_high_batch",
    "evaluate_hilo",
    "evaluate_hilo_batch",
    "evaluate_low",
    "evaluate_low_batch",
    "explain",
    "format_cards",
    "parse_cards",
    "settle",
    "visible_events",
]

# --- the module paths before the packages (issue 20), kept for one release -----------------
# ``omaha.hand``, ``omaha.table``, ... are small modules that warn and re-export. ``import
# omaha`` used to load most of them, so code may read them as attributes: they load then.
_MOVED_MODULES = frozenset({
    "award", "bots", "cli_args", "cli_arena", "cli_equity", "cli_scale", "clock", "clocked",
    "dealing", "deck", "evaluation", "events", "hand", "preflop", "progress", "rake", "ranges",
    "record", "sealing", "showdown", "snapshot", "state", "states", "table", "view",
})

if not TYPE_CHECKING:   # hidden from type checkers, which would read any name as valid
    def __getattr__(name: str) -> Any:
        """An old module path read as an attribute (``omaha.hand``): the module, which warns."""
        if name in _MOVED_MODULES:
            import importlib

            return importlib.import_module(f"{__name__}.{name}")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Package(types.ModuleType):
    """The ``omaha`` module, which keeps ``omaha.equity`` the function.

    Importing the old module path ``omaha.equity`` would otherwise bind the module over the
    function here (the import system sets each submodule on its package).
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "equity" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
