"""Places and prizes of eliminated players (N7, N8).

A player with no chips is eliminated (N7). The players eliminated in one hand (or one
hand-for-hand round, N6) take the worst places still open, ranked by their stacks at the
start of that hand, more chips placing higher; equal stacks tie and share the range of
places. :func:`place_eliminations` gives each such player the places they share, and
:func:`award` turns places into prizes:

>>> places = place_eliminations({"ann": 300, "bob": 120, "cy": 300}, next_place=5)
>>> places
{'ann': (3, 4), 'cy': (3, 4), 'bob': (5, 5)}
>>> award(places, prizes=[500, 300, 151, 49], order=["cy", "bob", "ann"])
{'ann': 100, 'cy': 100, 'bob': 0}
>>> award({"ann": (1, 2), "cy": (1, 2)}, prizes=[500, 301], order=["cy", "ann"])
{'ann': 400, 'cy': 401}

Reading of "odd chips to the higher place" (N7): the players of a tie share one range of
places, so none of them holds a higher place than another; the odd chips (what is left when
the tied places' prizes are split equally) go one each to the tied players in the order the
caller passes, which the engine makes the seating-draw order (N2): the player drawn first
ranks first among equals. Places beyond the paid ones win 0.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from omaha.errors import TournamentError
from omaha.limits import MAX_CHIPS, as_amount, as_int, safe_repr

__all__ = ["award", "place_eliminations"]

P = TypeVar("P", bound=Hashable)


def place_eliminations(busted: Mapping[P, int], next_place: int) -> dict[P, tuple[int, int]]:
    """The places of the players eliminated in one hand or hand-for-hand round (N7).

    ``busted`` maps each of them to their stack at the start of that hand; ``next_place`` is
    the worst place still open (the number of players left before the hand). They take the
    places ``next_place - len(busted) + 1`` to ``next_place``: more chips place higher (a
    lower number); equal stacks tie and each gets the same ``(best, worst)`` range. The
    result lists them best first; a player who placed alone has ``(p, p)``.

    >>> place_eliminations({"a": 50, "b": 80}, next_place=5)     # 5 left, 2 bust
    {'b': (4, 4), 'a': (5, 5)}

    Raises:
        TournamentError: a stack that is not an int above 0, or ``next_place`` below the
            number of players eliminated.
    """
    if not isinstance(busted, Mapping):
        raise TournamentError("N7", f"busted: must map players to stacks, got {safe_repr(busted)}")
    stacks = {player: as_amount(stack, lambda p=player: f"busted[{safe_repr(p)}]", low=1,  # type: ignore[misc]
                                error=TournamentError, rule="N7", above=TournamentError)
              for player, stack in busted.items()}
    worst = as_int(next_place, "next_place", low=len(stacks), error=TournamentError,
                   rule="N7")
    if not stacks:
        return {}
    order = sorted(stacks, key=lambda p: -stacks[p])   # stable: ties keep the caller's order
    places: dict[P, tuple[int, int]] = {}
    best = worst - len(order) + 1
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and stacks[order[end + 1]] == stacks[order[start]]:
            end += 1
        for player in order[start:end + 1]:
            places[player] = (best + start, best + end)
        start = end + 1
    return places


def award(places: Mapping[P, tuple[int, int]], prizes: Sequence[int],
          order: Sequence[P]) -> dict[P, int]:
    """Each placed player's prize (N7, N8).

    ``places`` maps each player to the ``(best, worst)`` places they share (as
    :func:`place_eliminations` gives, or ``(1, 1)`` for the winner); ``prizes[k]`` is the
    prize of place ``k + 1`` (a place past the list pays 0). Tied players share the sum of the
    tied places' prizes equally, in whole units; the odd units go one each to the tied
    players in the order they appear in ``order`` (the seating-draw order: see the module's
    reading of N7). When every place from 1 to ``len(prizes)`` is awarded, the prizes paid sum
    to ``sum(prizes)`` exactly.

    >>> award({"w": (1, 1), "x": (2, 3), "y": (2, 3)}, [600, 301, 100], order=["y", "x", "w"])
    {'w': 600, 'x': 200, 'y': 201}

    Raises:
        TournamentError: a bad place range, a range not held by as many players as it has
            places, two ranges that overlap, a bad prize, or a tied player missing from
            ``order``.
    """
    if not isinstance(places, Mapping):
        raise TournamentError("N7", f"places: must map players to (best, worst), got "
                              f"{safe_repr(places)}")
    if isinstance(prizes, (str, bytes)) or not isinstance(prizes, Sequence):
        raise TournamentError("N8", f"prizes: must be a list of ints by place, got "
                              f"{safe_repr(prizes)}")
    amounts = [as_amount(p, f"prizes[{k}]", error=TournamentError, rule="N8",
                         above=TournamentError) for k, p in enumerate(prizes)]
    if sum(amounts) > MAX_CHIPS:
        raise TournamentError("N8", f"prizes: sum to {sum(amounts)}, above MAX_CHIPS = 2**63-1")
    groups: dict[tuple[int, int], list[P]] = {}
    for player, span in places.items():
        where = f"places[{safe_repr(player)}]"
        if not isinstance(span, Sequence) or isinstance(span, (str, bytes)) or len(span) != 2:
            raise TournamentError("N7", f"{where}: must be (best, worst), got {safe_repr(span)}")
        best = as_int(span[0], f"{where}[0]", low=1, error=TournamentError, rule="N7")
        worst = as_int(span[1], f"{where}[1]", low=best, error=TournamentError, rule="N7")
        groups.setdefault((best, worst), []).append(player)
    taken: list[tuple[int, int]] = sorted(groups)
    for (best, worst), players in groups.items():
        if len(players) != worst - best + 1:
            raise TournamentError("N7", f"places: {len(players)} players share places "
                                  f"{best}-{worst}, which is {worst - best + 1}")
    for previous, span in itertools.pairwise(taken):
        if span[0] <= previous[1]:
            raise TournamentError("N7", f"places: the ranges {previous[0]}-{previous[1]} and "
                                  f"{span[0]}-{span[1]} overlap")
    rank: dict[P, int] = {}
    for index, player in enumerate(order):
        rank.setdefault(player, index)
    result: dict[P, int] = {}
    for (best, worst), players in groups.items():
        total = sum(amounts[best - 1:worst])
        if len(players) == 1:
            result[players[0]] = total
            continue
        missing = [p for p in players if p not in rank]
        if missing:
            raise TournamentError("N7", f"order: tied player {safe_repr(missing[0])} is not "
                                  "in it")
        share, odd = divmod(total, len(players))
        for index, player in enumerate(sorted(players, key=rank.__getitem__)):
            result[player] = share + (1 if index < odd else 0)
    return {player: result[player] for player in places}
