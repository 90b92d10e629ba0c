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

from omaha.arena.storage import LedgerEntry, Storage
from omaha.arena.tournament_store import TournamentStore
from omaha.game.events import HandEnded, HandStarted, PotAwarded
from omaha.game.studseats import StudHandStarted

__all__ = ["check_conservation", "export_phhs", "export_tournament"]


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


def export_tournament(store: TournamentStore, path: str | os.PathLike[str]) -> int:
    """Write every finished hand of a served tournament (``hand-H-table-T``, in hand order);
    returns how many."""
    count = 0
    with open(path, "w", encoding="utf-8", newline="\n") as file:
        for hand, table, phh in store.finished_hands():
            if count:
                file.write("\n")
            file.write(f"[hand-{hand}-table-{table}]\n{phh}")
            count += 1
    return count


def check_conservation(storage: Storage) -> list[str]:
    """Every chip accounted for, hand after hand: the problems found (empty when none).

    For each table, hands are numbered 1, 2, ... without a hole; the chip ledger is applied
    in order before the hand it precedes (a ``buy_in`` takes an empty seat, a ``rebuy`` adds
    to a seated stack, a ``cash_out`` pays out exactly the seat's stack and empties it);
    each seat starts a hand with the chips it finished its previous hand with plus what
    the ledger brought; a hand ends with the chips it started with, less the rake; and the
    cash-outs match the ledger's ``cash_out`` rows.
    """
    problems = []
    stacks: dict[tuple[int, int], int] = {}
    expected_hand: dict[int, int] = {}
    pending: dict[int, list[LedgerEntry]] = {}
    for entry in storage.ledger():
        pending.setdefault(entry.table, []).append(entry)
    paid = sorted((c.table, c.seat, c.amount, c.before_hand) for c in storage.cash_outs())
    booked = sorted((e.table, e.seat, e.amount, e.before_hand) for e in storage.ledger()
                    if e.kind == "cash_out")
    if paid != booked:
        problems.append(f"cash-outs {paid} do not match the ledger's {booked}")

    def apply(table: int, before: int | None) -> None:
        entries = pending.get(table, [])
        while entries and (before is None or entries[0].before_hand <= before):
            entry = entries.pop(0)
            key, held = (table, entry.seat), stacks.get((table, entry.seat))
            where = f"table {table} seat {entry.seat} before hand {entry.before_hand}"
            if entry.kind == "buy_in" and held is None:
                stacks[key] = entry.amount
            elif entry.kind == "rebuy" and held is not None:
                stacks[key] = held + entry.amount
            elif entry.kind == "cash_out" and held == entry.amount:
                del stacks[key]
            else:
                problems.append(f"{where}: {entry.kind} of {entry.amount} with {held} seated")

    for finished in storage.finished_hands():
        table, number = finished.table, finished.hand
        want = expected_hand.get(table, 1)
        if number != want:
            problems.append(f"table {table}: hand {number} follows hand {want - 1}")
        expected_hand[table] = number + 1
        apply(table, number)
        start, end = finished.events[0], finished.events[-1]
        if start.get("type") not in (HandStarted.kind, StudHandStarted.kind) \
                or end.get("type") != HandEnded.kind:
            problems.append(f"table {table} hand {number}: incomplete event log")
            continue
        for seat, chips in zip(start["seats"], start["stacks"]):
            if stacks.get((table, seat)) != chips:
                problems.append(f"table {table} hand {number} seat {seat}: starts with {chips}, "
                                f"had {stacks.get((table, seat))}")
        rake = sum(e["rake"] for e in finished.events if e["type"] == PotAwarded.kind)
        if sum(start["stacks"]) != sum(end["stacks"]) + rake:
            problems.append(f"table {table} hand {number}: {sum(start['stacks'])} chips in, "
                            f"{sum(end['stacks'])} out, rake {rake}")
        for seat, chips in zip(start["seats"], end["stacks"]):
            stacks[(table, seat)] = chips
    for table in list(pending):
        apply(table, None)   # what happened after the last finished hand
    return problems
