"""Seat mapping between a table and PHH player numbers (rules T1-T4).

PHH numbers players by position, not by chair: ``p1`` is the first player dealt in left of
the button and the last player is the button. With three or more players p1 posts the
small blind and p2 the big blind; heads-up the button posts the small blind (rule T4), so
p1 posts the big blind and p2, the button, the small blind.

>>> phh_order([0, 2, 5, 7], button=5)
[7, 0, 2, 5]
>>> blind_players(4), blind_players(2)
((0, 1), (1, 0))
"""

from __future__ import annotations

from collections.abc import Sequence

from omaha.phh.errors import HistoryError

__all__ = ["blind_players", "phh_order", "table_seats"]


def phh_order(seats: Sequence[int], button: int) -> list[int]:
    """The table seats of the players dealt in, in PHH order (p1 first, the button last).

    Args:
        seats: the seat numbers dealt in, any order; seat numbers increase clockwise.
        button: the button's seat, one of ``seats`` (rule T2 puts it on a dealt-in player).

    Raises:
        ValueError: the button is not among the seats, or a seat repeats.
    """
    ordered = sorted(seats)
    if len(set(ordered)) != len(ordered):
        raise ValueError(f"repeated seat in {list(seats)}")
    if button not in ordered:
        raise ValueError(f"button seat {button} is not among the seats dealt in {ordered}")
    cut = ordered.index(button) + 1
    return ordered[cut:] + ordered[:cut]


def blind_players(players: int) -> tuple[int, int]:
    """The 0-based PHH player indices of the (small blind, big blind) posters."""
    if players < 2:
        raise ValueError(f"a hand needs at least 2 players, got {players}")
    return (1, 0) if players == 2 else (0, 1)


def table_seats(seats: Sequence[int] | None, players: int) -> tuple[list[int], int]:
    """The table seats for a history's players and the button's seat.

    With the optional PHH ``seats`` field the recorded seat numbers are used; without it the
    players sit in seats 1..N. Either way the button is the last player's seat.

    >>> table_seats([3, 6, 1], 3)
    ([3, 6, 1], 1)
    >>> table_seats(None, 2)
    ([1, 2], 2)

    Raises:
        HistoryError: the recorded seats are not clockwise from the button, which PHH
            order requires (p1 left of the button, ..., the button last).
    """
    numbers = list(seats) if seats is not None else list(range(1, players + 1))
    button = numbers[-1]
    try:
        ordered = phh_order(numbers, button)
    except ValueError as exc:
        raise HistoryError(str(exc), field="seats") from None
    if ordered != numbers:
        raise HistoryError(
            f"seats {numbers} are not in PHH order (clockwise from the seat left of the "
            f"button, the button last)",
            field="seats",
        )
    return numbers, button
