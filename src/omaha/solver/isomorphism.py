"""Suit isomorphism at a turn spot's chance node: where a permutation of the suits maps the
board to itself and each range to itself (every hand to a hand of the same weight), the
rivers it maps onto each other give the same game with the suits renamed. Only the smallest
card of each such class of rivers (its *canonical* river) is solved; another river's values
and strategies are the canonical river's, read through the permutation of the hands.

>>> from omaha.cards import Card
>>> from omaha.solver import Spot
>>> spot = Spot("Ah Kh 7c 5c", "AA**", "KK**", pot=10, stack=10)   # two-tone: d and s swap
>>> mirrors = river_mirrors(spot)
>>> len(spot.rivers) - len(mirrors), str(Card(next(iter(mirrors))))     # 13 rivers saved
(35, '2s')
>>> str(Card(mirrors[7].canon))                                         # 3s plays as 3d
'3d'
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from omaha.solver.spot import Spot

__all__ = ["Mirror", "river_mirrors"]


class Mirror(NamedTuple):
    """A mirroring river: the ``canon`` river card it is played as, and per player, for
    each hand (in the spot's order) the hand it plays as there: ``perms[p][i]`` is the index
    of sigma^-1(hand i), where sigma maps the canonical river to this one."""

    canon: int
    perms: tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]


def river_mirrors(spot: Spot) -> dict[int, Mirror]:
    """Each river card of ``spot`` that mirrors a smaller one (see the module), ascending:
    ``{card: Mirror(canonical card, (perm0, perm1))}``; empty on a river spot, where no permutation
    other than the identity keeps the board and both ranges, or with ``isomorphism=False``."""
    import numpy as np

    if not spot.rivers or not spot.isomorphism:
        return {}
    board = {int(c) for c in spot.board}
    group: list[tuple[list[int], list[npt.NDArray[np.int32]]]] = []
    for suits in itertools.permutations(range(4)):
        sigma = [c - c % 4 + suits[c % 4] for c in range(52)]
        if {sigma[c] for c in board} != board:
            continue
        images = [_image(spot, p, sigma) for p in (0, 1)]
        if images[0] is not None and images[1] is not None:
            group.append((sigma, [images[0], images[1]]))
    out: dict[int, Mirror] = {}
    inverses: dict[int, tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]] = {}
    for card in spot.rivers:
        canon = min(sigma[card] for sigma, _ in group)     # the smallest of its class
        if canon == card:
            continue
        which = next(k for k, (sigma, _) in enumerate(group) if sigma[canon] == card)
        if which not in inverses:   # one pair of permutations per sigma, shared by rivers
            perms = []
            for image in group[which][1]:      # image[j] = the index of sigma(hand j)
                perm = np.empty_like(image)
                perm[image] = np.arange(len(image), dtype=np.int32)
                perms.append(perm)
            inverses[which] = (perms[0], perms[1])
        out[card] = Mirror(canon, inverses[which])
    return out


def _image(spot: Spot, p: int, sigma: list[int]) -> npt.NDArray[np.int32] | None:
    """The index of sigma(hand) for each of player ``p``'s hands, or None where some image
    is not in the range or has another weight."""
    import numpy as np

    cards = spot.cards(p).astype(np.int64)
    keys = _keys(cards)
    order = np.argsort(keys)
    moved = _keys(np.asarray(sigma, dtype=np.int64)[cards])
    at = np.searchsorted(keys, moved, sorter=order)
    at = np.minimum(at, len(keys) - 1)
    image = order[at]
    weights = spot.weights(p)
    if not (keys[image] == moved).all() or not (weights[image] == weights).all():
        return None
    return image.astype(np.int32)


def _keys(cards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """One number per hand for its set of cards, whatever their order."""
    import numpy as np

    rows = np.sort(cards, axis=1)
    return ((rows[:, 0] * 52 + rows[:, 1]) * 52 + rows[:, 2]) * 52 + rows[:, 3]
