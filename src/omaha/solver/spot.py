"""A river or turn spot to solve: the variant, the board (5 cards, or 4 for a turn spot whose
river is dealt by the solver), both ranges, the pot, the stack, the sizes.

Player 0 is out of position (acts first), player 1 in position. Hands that hold a board card
are dropped (card removal, RULES.md C1); a range left empty is an error.

>>> spot = Spot("Ah Kd 7c 5s 2h", {"AsAdQcJc": 1, "9h9d8c8s": 2.5}, "QQ**:$ds",
...             variant="plo8", pot=100, stack=300, bets="50%,pot", raises="pot")
>>> spot.hands(0), len(spot.hands(1)), spot.bets, spot.raises
(('JcQcAdAs', '8c8s9d9h'), 693, (0.5, 1.0), (1.0,))
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Union

from omaha.analysis.ranges import Range
from omaha.cards import Card, CardsLike, format_cards, parse_cards
from omaha.config import Variant, variant_of
from omaha.errors import OmahaError, SolverError, SolverTypeError
from omaha.limits import safe_repr

if TYPE_CHECKING:   # NumPy is imported when a spot is built, not with omaha.solver
    import numpy as np
    import numpy.typing as npt

__all__ = ["RangeLike", "SizesLike", "Spot", "parse_sizes"]

RangeLike = Union[Range, str, Mapping[str, float]]
"""A range: an :class:`omaha.Range`, its text, or ``{hand text: weight}``."""
SizesLike = Union[str, float, Sequence[float]]
"""Bet or raise sizes as fractions of the pot: ``0.5``, ``[0.5, 1]`` or ``"50%,pot"``."""

MAX_SIZES = 8
MAX_SPOT_CHIPS = 2**50   # pot + both stacks stay exact in the core's doubles


def parse_sizes(sizes: SizesLike, field: str = "sizes") -> tuple[float, ...]:
    """Sizes as fractions of the pot, ascending, each positive: ``"50%,pot"`` is
    ``(0.5, 1.0)``; a number is one size; ``""`` or ``[]`` is none.

    >>> parse_sizes("33%, 75%,pot"), parse_sizes(0.5), parse_sizes("")
    ((0.33, 0.75, 1.0), (0.5,), ())
    """
    if isinstance(sizes, str):
        items: list[object] = [t.strip() for t in sizes.split(",") if t.strip()]
    elif isinstance(sizes, (int, float)) and not isinstance(sizes, bool):
        items = [sizes]
    elif isinstance(sizes, Sequence):
        items = list(sizes)
    else:
        raise SolverTypeError(f"{field}: sizes are a fraction of the pot, a list of them or "
                              f"text like '50%,pot', got {safe_repr(sizes)}")
    if len(items) > MAX_SIZES:
        raise SolverError(f"{field}: at most {MAX_SIZES} sizes, got {len(items)}")
    out = []
    for item in items:
        out.append(_size(item, field))
    return tuple(sorted(set(out)))


def _size(item: object, field: str) -> float:
    if isinstance(item, str):
        text = item.lower()
        try:
            value = 1.0 if text == "pot" else float(text[:-1]) / 100 if text.endswith("%") \
                else float(text)
        except ValueError:
            raise SolverError(f"{field}: {item!r} is not a size (write 50%, 0.5 or pot)") \
                from None
    elif isinstance(item, (int, float)) and not isinstance(item, bool):
        value = float(item)
    else:
        raise SolverTypeError(f"{field}: a size is a number or text, got {safe_repr(item)}")
    if not math.isfinite(value) or value <= 0 or value > 100:
        raise SolverError(f"{field}: a size is a positive fraction of the pot (at most 100), "
                          f"got {safe_repr(item)}")
    return value


def _chips(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SolverTypeError(f"{field} must be a whole number of chips, got {safe_repr(value)}")
    if not 1 <= value <= MAX_SPOT_CHIPS:
        raise SolverError(f"{field} must be from 1 to {MAX_SPOT_CHIPS:,} chips, got {value}")
    return int(value)


class Spot:
    """A heads-up river or turn spot (see the module). ``bets`` and ``raises`` are fractions of the
    pot (a pot-size raise is a raise of the pot after calling), capped by the pot limit;
    all-in is added wherever the cap reaches the stack. ``max_raises`` bounds the raises after
    a bet. On a turn spot, ``isomorphism`` (the default) solves only one river of each class
    that a permutation of the suits keeping the board and both ranges maps onto each other
    (see :mod:`omaha.solver.isomorphism`); ``False`` solves every river apart."""

    __slots__ = ("_hands", "_weights", "bets", "board", "isomorphism", "max_raises", "pot",
                 "raises", "stack", "variant")

    def __init__(self, board: CardsLike, oop: RangeLike, ip: RangeLike, *,
                 variant: Variant | str = "plo", pot: int, stack: int,
                 bets: SizesLike = (0.5, 1.0), raises: SizesLike = (1.0,),
                 max_raises: int = 3, isomorphism: bool = True) -> None:
        try:
            self.variant = variant_of(variant)
        except OmahaError as exc:
            raise SolverError(f"variant: {exc}") from None
        if self.variant.hole_cards != 4 or self.variant.hand_rule != "omaha":
            raise SolverError(f"variant: the solver plays 4-card Omaha (plo, plo8), got "
                              f"{self.variant.name}")
        try:
            cards = parse_cards(board)
        except OmahaError as exc:
            raise SolverError(f"board: {exc}") from None
        if len(set(cards)) != len(cards):
            raise SolverError(f"board: {format_cards(cards)} repeats a card")
        if len(cards) not in (4, 5):
            raise SolverError(f"board: a turn board has 4 cards and a river board 5, got "
                              f"{len(cards)}")
        self.board: tuple[Card, ...] = tuple(cards)
        self.pot = _chips(pot, "pot")
        self.stack = _chips(stack, "stack")
        self.bets = parse_sizes(bets, "bets")
        self.raises = parse_sizes(raises, "raises")
        if isinstance(max_raises, bool) or not isinstance(max_raises, int):
            raise SolverTypeError(f"max_raises must be an int, got {safe_repr(max_raises)}")
        if not 0 <= max_raises <= 8:
            raise SolverError(f"max_raises must be from 0 to 8, got {max_raises}")
        self.max_raises = int(max_raises)
        if not isinstance(isomorphism, bool):
            raise SolverTypeError(f"isomorphism must be True or False, got "
                                  f"{safe_repr(isomorphism)}")
        self.isomorphism = isomorphism
        blocked = 0
        for c in self.board:
            blocked |= 1 << int(c)
        hands, weights = [], []
        for field, entry in (("oop", oop), ("ip", ip)):
            h, w = _listed(entry, self.variant, blocked, field)
            hands.append(h)
            weights.append(w)
        self._hands: tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]] = (hands[0], hands[1])
        self._weights: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] = \
            (weights[0], weights[1])

    @property
    def rivers(self) -> tuple[int, ...]:
        """The river cards a turn spot deals (card indices, ascending); ``()`` on a river.

        >>> len(Spot("Ah Kd 7c 5s", "AA**", "KK**", pot=10, stack=10).rivers)
        48
        """
        if len(self.board) == 5:
            return ()
        on_board = {int(c) for c in self.board}
        return tuple(c for c in range(52) if c not in on_board)

    def hands(self, player: int) -> tuple[str, ...]:
        """The hands of ``player`` (0 out of position, 1 in position) after card removal, as
        text with the cards in ascending order (2c first, As last)."""
        return tuple(format_cards([Card(int(c)) for c in row]) for row in
                     self.cards(player))

    def cards(self, player: int) -> npt.NDArray[np.uint8]:
        """The hands of ``player`` as an (N, 4) array of card indices, ascending in a hand."""
        return self._hands[_player(player)]

    def weights(self, player: int) -> npt.NDArray[np.float64]:
        """The range weight of each hand of ``player``."""
        return self._weights[_player(player)]

    def to_dict(self) -> dict[str, object]:
        """The settings (not the ranges) as plain data."""
        return {"variant": self.variant.name, "board": format_cards(self.board),
                "pot": self.pot, "stack": self.stack, "bets": list(self.bets),
                "raises": list(self.raises), "max_raises": self.max_raises,
                "isomorphism": self.isomorphism,
                "hands": [len(self._hands[0]), len(self._hands[1])]}

    def __repr__(self) -> str:
        return (f"Spot({format_cards(self.board)!r}, {len(self._hands[0])} vs "
                f"{len(self._hands[1])} hands, variant={self.variant.name!r}, pot={self.pot}, "
                f"stack={self.stack}, bets={self.bets}, raises={self.raises})")


def _player(player: object) -> int:
    if isinstance(player, bool) or not isinstance(player, int) or player not in (0, 1):
        raise SolverError(f"player must be 0 (out of position) or 1, got {safe_repr(player)}")
    return int(player)


def _listed(entry: RangeLike, variant: Variant, blocked: int,
            field: str) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
    """A range's hands less those holding a ``blocked`` card, and their weights."""
    import numpy as np

    if isinstance(entry, str):
        try:
            entry = Range(entry, variant)
        except OmahaError as exc:
            raise SolverError(f"{field}: {exc}") from None
    if isinstance(entry, Range):
        if entry.variant.hole_cards != 4:
            raise SolverError(f"{field}: a range of {entry.variant.hole_cards}-card hands; "
                              "the solver plays 4-card Omaha")
        if entry.is_any:
            left = [c for c in range(52) if not blocked >> c & 1]
            count = math.comb(len(left), 4)     # one tuple at a time: no list of them
            cards = np.fromiter(itertools.chain.from_iterable(itertools.combinations(left, 4)),
                                dtype=np.uint8, count=4 * count).reshape(count, 4)
        else:
            data = entry.without(blocked)
            cards = np.frombuffer(data, dtype=np.uint8).reshape(-1, 4).copy()
        weights = np.ones(len(cards), dtype=np.float64)
    elif isinstance(entry, Mapping):
        rows, ws, seen = [], [], set()
        for hand, weight in entry.items():
            try:
                parsed = sorted(int(c) for c in parse_cards(hand))
            except (OmahaError, TypeError) as exc:
                raise SolverError(f"{field}: hand {safe_repr(hand)}: {exc}") from None
            if len(parsed) != 4 or len(set(parsed)) != 4:
                raise SolverError(f"{field}: hand {safe_repr(hand)} is not 4 different cards")
            if isinstance(weight, bool) or not isinstance(weight, (int, float)):
                raise SolverTypeError(f"{field}: the weight of {hand} must be a number, got "
                                      f"{safe_repr(weight)}")
            if not math.isfinite(weight) or weight < 0:
                raise SolverError(f"{field}: the weight of {hand} must be finite and >= 0, "
                                  f"got {weight}")
            key = tuple(parsed)
            if key in seen:
                raise SolverError(f"{field}: hand {hand} is listed twice")
            seen.add(key)
            if weight > 0 and not any(blocked >> c & 1 for c in parsed):
                rows.append(parsed)
                ws.append(float(weight))
        cards = np.array(rows, dtype=np.uint8).reshape(-1, 4)
        weights = np.array(ws, dtype=np.float64)
    else:
        raise SolverTypeError(f"{field}: a range is an omaha.Range, its text or a dict of "
                              f"hand: weight, got {type(entry).__name__}")
    if len(cards) == 0:
        raise SolverError(f"{field}: the range is empty once the hands holding a board card "
                          "are removed")
    return cards, weights
