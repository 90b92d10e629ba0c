"""Export every finished hand of an arena database as one ``.phhs`` file (``omaha export``).

Each hand is a PHH table named ``table-T-hand-H`` carrying ``table``, ``hand``, ``players``
(the names, in PHH order) and ``seats``, so ``omaha replay`` checks every one of them.

>>> import os, tempfile
>>> from omaha.arena.storage import SqliteStorage
>>> folder = tempfile.mkdtemp()
>>> export_phhs(SqliteStorage(":memory:"), os.path.join(folder, "none.phhs"))
0
"""

from __future__ import annotations

import os

from omaha.arena.storage import Storage

__all__ = ["export_phhs"]


def export_phhs(storage: Storage, path: str | os.PathLike[str]) -> int:
    """Write every finished hand, by table and hand number; returns how many."""
    count = 0
    with open(path, "w", encoding="utf-8", newline="\n") as file:
        for finished in storage.finished_hands():
            if count:
                file.write("\n")
            file.write(f"[table-{finished.table}-hand-{finished.hand}]\n{finished.phh}")
            count += 1
    return count
