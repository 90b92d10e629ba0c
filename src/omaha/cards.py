"""Cards (rule C1): small ``Card`` objects over the compiled parser.

A card is an ``int`` 0..51 equal to ``4 * rank + suit`` (rank 0..12 for 2..A, suit 0..3 for
c, d, h, s), so it can be passed anywhere an index is expected, JSON-encodes as a number and
sorts by rank.

>>> Card("Ah")
Card('Ah')
>>> Card("Ah").rank, Card("Ah").suit, int(Card("Ah"))
(12, 2, 50)
>>> parse_cards("AhKs 10d")
[Card('Ah'), Card('Ks'), Card('Td')]
>>> format_cards(parse_cards("ahks"))
'AhKs'

Suit symbols parse too (♣ ♦ ♥ ♠, or the white ♧ ♢ ♡ ♤) and can be printed; ``str`` and
``repr`` stay ASCII so they paste back anywhere:

>>> Card("A♠"), Card("A♠").symbol
(Card('As'), 'A♠')
>>> format_cards(parse_cards("A♤ 10♡"), " ", symbols=True)
'A♠ T♥'
"""

from __future__ import annotations

from collections.abc import Iterable

from omahacore import cards as _core

RANKS = _core.RANKS
SUITS = _core.SUITS
#: Suit symbols in suit order (clubs, diamonds, hearts, spades), as ``symbols=True`` prints them.
SUIT_SYMBOLS = _core.SUIT_SYMBOLS

CardLike = int | str
CardsLike = str | Iterable[CardLike]


class Card(int):
    """One playing card; ``Card("Ah")``, ``Card("10d")``, ``Card("A♥")`` or ``Card(50)``.

    Anything else raises :class:`omaha.CardError` (``CardTypeError``, also a ``TypeError``,
    for a bool, float, bytes or None: ``bool`` is never a card).
    """

    __slots__ = ()

    def __new__(cls, card: CardLike) -> Card:  # noqa: PYI034 - Card(...) is always a Card
        return super().__new__(cls, _core.parse_card(card))

    @property
    def rank(self) -> int:
        """Rank 0..12 for 2..A."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """Suit 0..3 for clubs, diamonds, hearts, spades."""
        return int(self) & 3

    @property
    def symbol(self) -> str:
        """The card with its suit symbol: ``Card("Ah").symbol == "A♥"``."""
        return _core.CARD_SYMBOLS[int(self)]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __str__(self) -> str:
        return _core.CARD_TEXT[int(self)]

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))


def parse_cards(cards: CardsLike) -> list[Card]:
    """``Card`` objects from text (``"AhKs2c"``, ``"Ah Ks"``) or a sequence of cards.

    Raises :class:`omaha.CardError` for a bad token or a duplicated card (C1).
    """
    return [DECK[i] for i in _core.parse_cards(cards)]


def format_cards(cards: CardsLike, sep: str = "", *, symbols: bool = False) -> str:
    """Text of cards: ``format_cards([Card("Ah"), 47]) == "AhKs"``.

    ``symbols=True`` writes suit symbols instead of letters: ``"A♥K♠"``. Both forms parse.
    """
    return _core.format_cards(cards, sep, symbols=symbols)
