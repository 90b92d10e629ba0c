"""Deprecated (kept for one release): moved to :mod:`omaha.history.snapshot` (issue 20).

Every name :mod:`omaha.snapshot` had is omaha.history.snapshot's; importing it warns.
"""

import warnings
from typing import Any

from omaha.history import snapshot as _moved
from omaha.history.snapshot import (
    HAND_FORMAT,
    MAX_SNAPSHOT_BYTES,
    SNAPSHOT_FORMATS,
    TABLE_FORMAT,
    SnapshotFormat,
    check_digest,
    check_shape,
    deck_from_events,
    dumps_snapshot,
    loads_snapshot,
    replay,
    restore_hand,
    restore_table,
    seal,
    snapshot_hand,
    snapshot_table,
)

__all__ = [
    "HAND_FORMAT", "MAX_SNAPSHOT_BYTES", "SNAPSHOT_FORMATS", "TABLE_FORMAT", "SnapshotFormat",
    "check_digest", "check_shape", "deck_from_events", "dumps_snapshot", "loads_snapshot",
    "replay", "restore_hand", "restore_table", "seal", "snapshot_hand", "snapshot_table",
]

warnings.warn("omaha.snapshot is deprecated; import from omaha.history.snapshot",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.history.snapshot's."""
    return getattr(_moved, name)
