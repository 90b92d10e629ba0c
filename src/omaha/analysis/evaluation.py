"""Hand evaluation for Omaha (rules C3-C6): the compiled evaluator plus words for people.

Strengths are plain ``int``: for high and for low, **larger wins and equal ties**. High runs
1..7462; low runs 1..56 (56 is the wheel 5-4-3-2-A) and 0 means no qualifying low.

>>> high, low = evaluate_hilo("As2dKhKc", "3c4dKs9h8c")
>>> describe(high), describe_low(low)
('Three of a kind, kings', '8-4-3-2-A low')
"""

from __future__ import annotations

from omaha.cards import DECK, Card, CardsLike
from omahacore.batch import (
    evaluate_best_batch,
    evaluate_best_low_batch,
    evaluate_five_batch,
    evaluate_high_batch,
    evaluate_hilo_batch,
    evaluate_low_batch,
    evaluate_razz_batch,
)
from omahacore.errors import OmahaTypeError
from omahacore.evaluator import (
    HIGH_STRENGTHS,
    LOW_STRENGTHS,
    RAZZ_STRENGTHS,
    evaluate_best,
    evaluate_best_low,
    evaluate_five,
    evaluate_five_low,
    evaluate_high,
    evaluate_hilo,
    evaluate_low,
    evaluate_razz,
    high_key,
    low_ranks,
    razz_ranks,
)
from omahacore.evaluator import best_hand as _best_hand

__all__ = [
    "CATEGORIES",
    "HIGH_STRENGTHS",
    "LOW_STRENGTHS",
    "RAZZ_STRENGTHS",
    "best_hand",
    "category",
    "describe",
    "describe_low",
    "evaluate_best",
    "evaluate_best_batch",
    "evaluate_best_low",
    "evaluate_best_low_batch",
    "evaluate_five",
    "evaluate_five_batch",
    "evaluate_five_low",
    "evaluate_high",
    "evaluate_high_batch",
    "evaluate_hilo",
    "evaluate_hilo_batch",
    "evaluate_low",
    "evaluate_low_batch",
    "evaluate_razz",
    "evaluate_razz_batch",
    "explain",
    "razz_ranks",
]

#: High-hand categories, worst (0) to best (8), as rule C4 lists them in reverse.
CATEGORIES = (
    "High card",
    "Pair",
    "Two pair",
    "Three of a kind",
    "Straight",
    "Flush",
    "Full house",
    "Four of a kind",
    "Straight flush",
)

_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "jack", "queen", "king", "ace")
_PLURALS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
            "jacks", "queens", "kings", "aces")
_SHORT = "23456789TJQKA"


def category(strength: int) -> str:
    """Category name of a high strength: ``category(7462) == "Straight flush"``.

    A strength that is not an ``int`` 1..7462 (a bool, float, text, a huge int) raises
    :class:`~omahacore.errors.StrengthError` naming it.
    """
    return CATEGORIES[high_key(strength)[0]]


def describe(strength: int, *, low: bool = False) -> str:
    """Words for a strength: ``describe(high)`` or ``describe(low, low=True)``.

    >>> describe(evaluate_five("KhKdKs7c7d"))
    'Full house, kings full of sevens'
    >>> describe(evaluate_five("8h6d4s2cAd"))
    'High card, A-8-6-4-2'
    >>> describe(evaluate_five_low("8h6d4s2cAd"), low=True)
    '8-6-4-2-A low'

    A strength that is not an ``int`` in range raises
    :class:`~omahacore.errors.StrengthError` (``StrengthTypeError``, also a ``TypeError``, for
    a bool, float or text).
    """
    if low is not True and low is not False:
        raise OmahaTypeError(f"describe: low must be True or False, got {type(low).__name__}")
    if low:
        return describe_low(strength)
    cat, ranks = high_key(strength)
    names = [_NAMES[r] for r in ranks]
    plural = [_PLURALS[r] for r in ranks]
    short = "-".join(_SHORT[r] for r in ranks)
    if cat == 8:
        return "Royal flush" if ranks[0] == 12 else f"Straight flush, {names[0]} high"
    if cat == 7:
        return f"Four of a kind, {plural[0]}"
    if cat == 6:
        return f"Full house, {plural[0]} full of {plural[1]}"
    if cat == 5:
        return f"Flush, {short}"
    if cat == 4:
        return f"Straight, {names[0]} high"
    if cat == 3:
        return f"Three of a kind, {plural[0]}"
    if cat == 2:
        return f"Two pair, {plural[0]} and {plural[1]}"
    if cat == 1:
        return f"Pair of {plural[0]}"
    return f"High card, {short}"


def describe_low(strength: int) -> str:
    """Words for a low strength: ``"8-6-4-2-A low"``, or ``"No low"`` for 0 (rule C5).

    >>> describe_low(56), describe_low(0)
    ('5-4-3-2-A low', 'No low')
    """
    ranks = low_ranks(strength)  # checks the strength: an int 0..56, never a bool
    if not ranks:
        return "No low"
    return "-".join("A" if v == 1 else str(v) for v in ranks) + " low"


def explain(hole: CardsLike, board: CardsLike) -> dict[str, object]:
    """Everything about one Omaha hand, for people and logs: strengths, words, cards used.

    >>> sorted(explain("AhKh2c3d", "QhJh4s5s6c"))
    ['high', 'high_cards', 'high_text', 'low', 'low_cards', 'low_text']
    """
    high, low = evaluate_hilo(hole, board)
    high_cards, low_cards = best_hand(hole, board)
    return {
        "high": high,
        "high_text": describe(high),
        "high_cards": list(high_cards),
        "low": low,
        "low_text": describe_low(low),
        "low_cards": list(low_cards) if low_cards else None,
    }


def best_hand(hole: CardsLike, board: CardsLike) -> tuple[tuple[Card, ...], tuple[Card, ...] | None]:
    """The five :class:`Card` s played for high and for low (None: no qualifying low), C3.

    Each is the two hole cards followed by the three board cards.

    >>> high, low = best_hand("AhKh2c3d", "QhJh4s5s6c")
    >>> high
    (Card('2c'), Card('3d'), Card('4s'), Card('5s'), Card('6c'))
    >>> low
    (Card('Ah'), Card('2c'), Card('4s'), Card('5s'), Card('6c'))
    """
    high_cards, low_cards = _best_hand(hole, board)
    return (tuple([DECK[c] for c in high_cards]),
            None if low_cards is None else tuple([DECK[c] for c in low_cards]))
