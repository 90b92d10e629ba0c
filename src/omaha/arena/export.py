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

__all__ = ["check_conservation", "export_phhs"]


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


def check_conservation(storage: Storage) -> list[str]:
    """Every chip accounted for, hand after hand: the problems found (empty when none).

    For each table, hands are numbered 1, 2, ... without a hole; each seat starts a hand
    with the chips it finished its previous hand with, plus what it brought (buy-in, rebuy)
    before this hand; and a hand ends with the chips it started with, less the rake.
    """
    problems = []
    ledger = storage.ledger()
    stacks: dict[tuple[int, int], int] = {}
    expected_hand: dict[int, int] = {}
    brought: dict[tuple[int, int, int], int] = {}
    for entry in ledger:
        key = (entry.table, entry.before_hand, entry.seat)
        brought[key] = brought.get(key, 0) + entry.amount
    for finished in storage.finished_hands():
        table, number = finished.table, finished.hand
        want = expected_hand.get(table, 1)
        if number != want:
            problems.append(f"table {table}: hand {number} follows hand {want - 1}")
        expected_hand[table] = number + 1
        for (t, before, seat), amount in brought.items():
            if t == table and before == number:
                stacks[(table, seat)] = stacks.get((table, seat), 0) + amount
        start, end = finished.events[0], finished.events[-1]
        if start.get("type") != "hand_started" or end.get("type") != "hand_ended":
            problems.append(f"table {table} hand {number}: incomplete event log")
            continue
        for seat, chips in zip(start["seats"], start["stacks"]):
            if stacks.get((table, seat)) != chips:
                problems.append(f"table {table} hand {number} seat {seat}: starts with {chips}, "
                                f"had {stacks.get((table, seat))}")
        rake = sum(e["rake"] for e in finished.events if e["type"] == "pot_awarded")
        if sum(start["stacks"]) != sum(end["stacks"]) + rake:
            problems.append(f"table {table} hand {number}: {sum(start['stacks'])} chips in, "
                            f"{sum(end['stacks'])} out, rake {rake}")
        for seat, chips in zip(start["seats"], end["stacks"]):
            stacks[(table, seat)] = chips
    return problems
