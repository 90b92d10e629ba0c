"""Card notation inside PHH actions: two characters a card, ``??`` for an unknown card.

PHH is stricter than the package's general card parser (rule C1 accepts ``10`` and any
case): a PHH card is exactly a rank character from ``23456789TJQKA`` and a suit character
from ``cdhs``, and cards are written back to back with no separator. A known card is the
package's card index ``4 * rank + suit`` (rank 0..12 for 2..A, suit 0..3 for c, d, h, s);
an unknown card is ``None``.

>>> parse_phh_cards("Ac2d????")
(48, 1, None, None)
>>> format_phh_cards((48, 1, None, None))
'Ac2d????'
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["PhhCard", "format_phh_cards", "parse_phh_cards"]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
UNKNOWN = "??"

PhhCard = int | None
"""A card index 0..51, or None for an unknown card (``??``)."""


def parse_phh_cards(text: str) -> tuple[PhhCard, ...]:
    """Parse concatenated PHH cards.

    Raises:
        ValueError: the text is empty, has an odd length, or holds a token that is not a
            card; the message names the token. (Callers wrap it with the action's place.)
    """
    if not text or len(text) % 2:
        raise ValueError(f"bad cards {text!r}: cards are two characters each, like 'Ah' or '??'")
    cards: list[PhhCard] = []
    for start in range(0, len(text), 2):
        token = text[start : start + 2]
        if token == UNKNOWN:
            cards.append(None)
            continue
        rank, suit = RANKS.find(token[0]), SUITS.find(token[1])
        if rank < 0 or suit < 0:
            raise ValueError(
                f"bad card {token!r} in {text!r}: rank is one of {RANKS}, suit one of {SUITS}"
            )
        cards.append(4 * rank + suit)
    return tuple(cards)


def format_phh_cards(cards: Iterable[PhhCard]) -> str:
    """Write cards in PHH notation (the inverse of :func:`parse_phh_cards`)."""
    return "".join(
        UNKNOWN if card is None else RANKS[card // 4] + SUITS[card % 4] for card in cards
    )
