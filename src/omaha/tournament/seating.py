"""Where tournament players sit: the seating draw (N2), balancing (N4) and breaking tables (N5).

These are decisions only (which player goes where); :class:`~omaha.tournament.engine.Tournament`
applies them between hands. Tables are numbered from 1, seats from 1 to ``seats``; a
table's players are a ``{seat: player}`` mapping.

>>> import random
>>> tables = draw_seats([f"p{i}" for i in range(1, 12)], seats=9, rng=random.Random(1))
>>> sorted(len(t) for t in tables.values())          # 11 players: two tables of 6 and 5
[5, 6]
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Move", "balance_move", "break_moves", "draw_seats", "table_to_break", "tables_needed",
           "worst_seat"]


@dataclass(frozen=True, slots=True)
class Move:
    """``player`` goes from ``from_table`` to seat ``to_seat`` of ``to_table``."""

    player: str
    from_table: int
    to_table: int
    to_seat: int


def tables_needed(players: int, seats: int) -> int:
    """The fewest tables of ``seats`` seats that hold ``players`` (N2, N5)."""
    return max(1, -(-players // seats))


def draw_seats(players: Sequence[str], *, seats: int,
               rng: random.Random) -> dict[int, dict[int, str]]:
    """N2: every player draws a random seat over the fewest tables that hold the field, the
    tables as even as they can be (no two differ by more than one player)."""
    count = tables_needed(len(players), seats)
    places = []   # the seats to fill: table by table, as evenly as possible
    for i in range(len(players)):
        places.append((i % count) + 1)
    chosen: dict[int, list[int]] = {}
    for table in range(1, count + 1):
        wanted = places.count(table)
        chosen[table] = sorted(rng.sample(range(1, seats + 1), wanted))
    spots = [(table, seat) for table in range(1, count + 1) for seat in chosen[table]]
    order = list(players)
    rng.shuffle(order)
    tables: dict[int, dict[int, str]] = {table: {} for table in range(1, count + 1)}
    for (table, seat), player in zip(spots, order):
        tables[table][seat] = player
    return tables


def worst_seat(free: Sequence[int], next_big: int | None, seats: int) -> int:
    """The empty seat in the worst position at a table whose next big blind falls on
    ``next_big``: the first empty seat clockwise from it (there the newcomer is the big blind
    next, or the first to receive it). None: a table that has not dealt, the lowest seat."""
    if next_big is None:
        return min(free)
    return min(free, key=lambda seat: (seat - next_big) % seats)


def balance_move(tables: Mapping[int, Mapping[int, str]], table: int, *, seats: int,
                 next_big: Callable[[int], int | None]) -> Move | None:
    """N4: after a hand at ``table``, if it has at least two more players than the shortest
    table, its player who would be the big blind next (on seat ``next_big(table)``; None
    before a table's first hand) moves to the
    shortest table (the lowest-numbered of them), to its empty seat in the worst position
    (:func:`worst_seat`). None when no move is due."""
    here = tables[table]
    short = min(tables, key=lambda t: (len(tables[t]), t))
    if len(here) < len(tables[short]) + 2:
        return None
    big = next_big(table)
    player_seat = big if big is not None and big in here else min(here)
    free = [s for s in range(1, seats + 1) if s not in tables[short]]
    return Move(here[player_seat], table, short, worst_seat(free, next_big(short), seats))


def table_to_break(tables: Mapping[int, Mapping[int, str]], *, seats: int,
                   order: str = "highest") -> int | None:
    """N5: the table to break now (the players fit at one table fewer), by ``order``
    (``"highest"``: the highest-numbered first, the default; ``"lowest"``), or None."""
    players = sum(len(t) for t in tables.values())
    if len(tables) < 2 or players > (len(tables) - 1) * seats:
        return None
    return max(tables) if order == "highest" else min(tables)


def break_moves(tables: Mapping[int, Mapping[int, str]], broken: int, *, seats: int,
                rng: random.Random) -> list[Move]:
    """N5: the players of table ``broken``, in random order, each draw a random empty seat
    at the remaining tables; each draw is among the tables with the fewest players at that
    moment, so the tables stay within one player of each other."""
    players = list(tables[broken].values())
    rng.shuffle(players)
    fewest: dict[int, list[int]] = {}   # player count -> the tables with it, in order
    for number in sorted(tables):
        if number != broken:
            fewest.setdefault(len(tables[number]), []).append(number)
    added: dict[int, set[int]] = {}
    moves = []
    for player in players:
        # every table with the fewest players has as many empty seats: a random empty seat
        # among them is a random table of them, then a random empty seat of it
        count = min(fewest)
        table = fewest[count][rng.randrange(len(fewest[count]))]
        free = [s for s in range(1, seats + 1)
                if s not in tables[table] and s not in added.get(table, ())]
        seat = free[rng.randrange(len(free))]
        moves.append(Move(player, broken, table, seat))
        added.setdefault(table, set()).add(seat)
        fewest[count].remove(table)
        if not fewest[count]:
            del fewest[count]
        bisect.insort(fewest.setdefault(count + 1, []), table)
    return moves
