"""Deprecated (kept for one release): moved to :mod:`omaha.history.sealing` (issue 20).

Every name :mod:`omaha.sealing` had is omaha.history.sealing's; importing it warns.
"""

import warnings
from typing import Any

from omaha.history import sealing as _moved
from omaha.history.sealing import (
    CLOCKED_HAND,
    HAND,
    HAND_FORMAT,
    MAX_SNAPSHOT_BYTES,
    REFUSALS,
    SNAPSHOT_FORMATS,
    TABLE,
    TABLE_FORMAT,
    Key,
    SnapshotFormat,
    check_digest,
    check_shape,
    dumps_snapshot,
    exact_keys,
    loads_snapshot,
    opened,
    refusal,
    seal,
    sealed,
    unsealed,
)

__all__ = [
    "CLOCKED_HAND", "HAND", "HAND_FORMAT", "MAX_SNAPSHOT_BYTES", "REFUSALS", "SNAPSHOT_FORMATS",
    "TABLE", "TABLE_FORMAT", "Key", "SnapshotFormat", "check_digest", "check_shape",
    "dumps_snapshot", "exact_keys", "loads_snapshot", "opened", "refusal", "seal", "sealed",
    "unsealed",
]

warnings.warn("omaha.sealing is deprecated; import from omaha.history.sealing",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.history.sealing's."""
    return getattr(_moved, name)
