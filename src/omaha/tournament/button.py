"""N3, the dead button: where the big blind, the small blind and the button go between hands.

The big blind moves to the next player clockwise; the small blind goes to the seat that had
the big blind, the button to the seat that had the small blind, whether or not someone still
sits there (a *dead* small blind or a *dead* button). So nobody pays the big blind twice in a
row, and nobody skips it. Heads-up (T4) the player who is not the big blind has the button
and posts the small blind.

The hand engine knows a button that is a player and one or two blinds left of it;
:func:`engine_positions` says which player to give the engine's button, and whether the hand
has a small blind, so that the engine's order of play is the dead-button order: with a dead
button the last player before it acts last after the flop, as a live button would; with a
dead small blind the hand has a big blind only.

>>> plan = next_positions({1, 3, 5, 6}, last=Positions(button=1, small=3, big=5))
>>> plan
Positions(button=3, small=5, big=6)
>>> next_positions({1, 5, 6}, last=plan)            # seat 3's player busted
Positions(button=5, small=6, big=1)
>>> next_positions({1, 6}, last=Positions(button=3, small=5, big=6))   # heads-up (T4)
Positions(button=6, small=6, big=1)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

__all__ = ["Positions", "engine_positions", "first_positions", "next_positions"]


@dataclass(frozen=True, slots=True)
class Positions:
    """The seats of the button, the small blind and the big blind of one hand (the button
    and the small blind may be empty seats: dead)."""

    button: int
    small: int
    big: int


def _after(seat: int, occupied: Collection[int]) -> int:
    """The first occupied seat clockwise strictly after ``seat`` (seat numbers grow
    clockwise and wrap)."""
    later = [s for s in occupied if s > seat]
    return min(later) if later else min(occupied)


def _before(seat: int, occupied: Collection[int]) -> int:
    """The first occupied seat counter-clockwise strictly before ``seat``."""
    earlier = [s for s in occupied if s < seat]
    return max(earlier) if earlier else max(occupied)


def first_positions(occupied: Collection[int], button: int) -> Positions:
    """The first hand of a table, the button on ``button`` (an occupied seat): the blinds
    on the next two players (heads-up: the button is the small blind, T4)."""
    if len(occupied) < 2:
        raise ValueError("a hand needs two players")
    if len(occupied) == 2:
        return Positions(button, button, _after(button, occupied))
    small = _after(button, occupied)
    return Positions(button, small, _after(small, occupied))


def next_positions(occupied: Collection[int], last: Positions) -> Positions:
    """The next hand's positions after ``last`` with the players now on ``occupied`` (N3)."""
    if len(occupied) < 2:
        raise ValueError("a hand needs two players")
    big = _after(last.big, occupied)
    if len(occupied) == 2:   # heads-up: the other player has the button and the small blind
        other = next(s for s in occupied if s != big)
        return Positions(other, other, big)
    return Positions(button=last.small, small=last.big, big=big)


def engine_positions(positions: Positions,
                     dealt: Sequence[int]) -> tuple[int, bool]:
    """(the player the engine's button goes to, whether the hand has a small blind) for
    ``positions`` and the seats ``dealt`` in.

    A live small blind: the engine's button is the dealt player just before it (the dead
    button's place in the order of play). A dead small blind: a single-blind hand whose
    engine button is the dealt player just before the big blind.
    """
    if positions.big not in dealt:
        raise ValueError(f"the big blind's seat {positions.big} is not dealt in")
    if len(dealt) == 2:
        return next(s for s in dealt if s != positions.big), True
    if positions.small in dealt and positions.small != positions.big:
        return _before(positions.small, dealt), True
    return _before(positions.big, dealt), False
