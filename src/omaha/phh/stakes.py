"""Deprecated: the game of a history moved; this module goes in the next release.

:func:`config_for_history` is in :mod:`omaha.phh.replay`, :func:`forced_bet_fields` in
:mod:`omaha.phh.export`, :func:`engine_variant` and :func:`variant_for_config` in
:mod:`omaha.phh.variants`.
"""

import warnings

from omaha.phh.export import forced_bet_fields
from omaha.phh.replay import config_for_history
from omaha.phh.variants import engine_variant, variant_for_config

__all__ = ["config_for_history", "engine_variant", "forced_bet_fields", "variant_for_config"]

warnings.warn(
    "omaha.phh.stakes is deprecated; import from omaha.phh.replay, omaha.phh.export "
    "or omaha.phh.variants",
    DeprecationWarning,
    stacklevel=2,
)
