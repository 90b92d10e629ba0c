# cython: language_level=3
"""Cards (rule C1): index = 4 * rank + suit, rank 0..12 = 2..A, suit 0..3 = c, d, h, s.

Parsing accepts indices, ``Card`` objects (int subclasses), numpy integers and text such as
``"AhKs2c3d"``, ``"Ah Ks"`` or ``"10h"`` in upper or lower case; anything else, and any
duplicated card, raises :class:`omahacore.errors.CardError` naming the offending token.
"""

from cpython.list cimport PyList_GET_ITEM
from cpython.tuple cimport PyTuple_GET_ITEM
from libc.stdint cimport uint64_t

from omahacore._types cimport card_t
from omahacore.errors import CardError

RANKS = "23456789TJQKA"
SUITS = "cdhs"

cdef extern from "Python.h":
    long PyLong_AsLongAndOverflow(object obj, int* overflow) except? -1

cdef dict RANK_OF_CHAR = {ch: i for i, ch in enumerate(RANKS)}
cdef dict SUIT_OF_CHAR = {ch: i for i, ch in enumerate(SUITS)}
CARD_TEXT = tuple(r + s for r in RANKS for s in SUITS)
cdef str SEPARATORS = " ,;\t\n"


def parse_card(token):
    """Card index of one card: an index 0..51, a ``Card`` or text like ``"Ah"``/``"10d"``.

    >>> parse_card("Ah"), parse_card("2c"), parse_card("10d")
    (50, 0, 33)
    """
    return card_value(token)


cdef int token_to_card(str token) except -1:
    """Card index of a two-character (or ``10`` + suit) token; CardError naming it otherwise."""
    cdef str rank_text = token[:-1]
    if rank_text == "10":
        rank_text = "T"
    rank = RANK_OF_CHAR.get(rank_text.upper()) if len(rank_text) == 1 else None
    suit = SUIT_OF_CHAR.get(token[-1:].lower()) if len(token) >= 2 else None
    if rank is None or suit is None:
        raise CardError(f"bad card token {token!r}: expected rank 2-9/T/J/Q/K/A (or 10) then suit c/d/h/s")
    return 4 * <int>rank + <int>suit


cdef list text_to_cards(str text):
    """Split ``"AhKs2c3d"``, ``"Ah Ks 2c"`` or ``"Ah,10s"`` into card indices."""
    cdef list out = []
    cdef Py_ssize_t i = 0, n = len(text), width
    while i < n:
        if text[i] in SEPARATORS:
            i += 1
            continue
        width = 3 if text[i:i + 2] == "10" else 2
        out.append(token_to_card(text[i:i + width]))
        i += width
    return out


cdef inline card_t exact_int_card(object item) except? 255:
    """The fast path of card_value for plain ints (the common case from hot loops)."""
    cdef int overflow = 0
    cdef long v = PyLong_AsLongAndOverflow(item, &overflow)
    if overflow or v < 0 or v > 51:
        raise CardError(f"card index {item!r} is out of range 0..51")
    return <card_t>v


cdef card_t card_value(object item) except? 255:
    """Card index of one item (int, Card, numpy integer or one-card text)."""
    cdef int overflow = 0
    cdef long v
    if type(item) is int:
        return exact_int_card(item)
    if isinstance(item, int) and not isinstance(item, bool):
        v = PyLong_AsLongAndOverflow(item, &overflow)
        if overflow or v < 0 or v > 51:
            raise CardError(f"card index {item!r} is out of range 0..51")
        return <card_t>v
    if isinstance(item, str):
        cards = text_to_cards(item)
        if len(cards) != 1:
            raise CardError(f"expected one card, got {item!r}")
        return <card_t>cards[0]
    if hasattr(item, "__index__") and not isinstance(item, bool):
        return card_value(item.__index__())
    raise CardError(f"cannot read {item!r} as a card: use an index 0..51, a Card or text like 'Ah'")


cdef int read_cards(object cards, card_t* out, int low, int high, str what) except -1:
    """Fill ``out`` from ``cards``; the count must be within [low, high]. Returns the count."""
    cdef Py_ssize_t n, i
    if isinstance(cards, str):
        cards = text_to_cards(cards)
    elif not (type(cards) is list or type(cards) is tuple):
        try:
            cards = list(cards)
        except TypeError:
            raise CardError(f"{what} must be a sequence of cards or card text, got {cards!r}") from None
    n = len(cards)
    if n < low or n > high:
        expected = str(low) if low == high else f"{low} to {high}"
        raise CardError(f"{what} must have {expected} cards, got {n}")
    for i in range(n):
        item = <object>(PyList_GET_ITEM(cards, i) if type(cards) is list
                        else PyTuple_GET_ITEM(cards, i))
        out[i] = exact_int_card(item) if type(item) is int else card_value(item)
    return <int>n


cdef int check_distinct(const card_t* cards, int n) except -1:
    cdef uint64_t seen = 0, bit
    cdef int i
    for i in range(n):
        bit = (<uint64_t>1) << cards[i]
        if seen & bit:
            raise CardError(f"duplicate card {CARD_TEXT[cards[i]]}")
        seen |= bit
    return 0


def parse_cards(cards):
    """Card indices of text (``"AhKs2c3d"``, ``"Ah Ks"``, ``"10h"``) or a sequence of cards.

    Rejects duplicates (C1).

    >>> parse_cards("AhKs2c")
    [50, 47, 0]
    """
    cdef card_t buf[52]
    cdef int n = read_cards(cards, buf, 0, 52, "card list")
    check_distinct(buf, n)
    return [buf[i] for i in range(n)]


def format_card(index):
    """Text of one card index: ``format_card(50) == "Ah"``."""
    return CARD_TEXT[card_value(index)]


def format_cards(cards, sep=""):
    """Text of card indices: ``format_cards([50, 47]) == "AhKs"``."""
    return sep.join([CARD_TEXT[card_value(c)] for c in cards])
