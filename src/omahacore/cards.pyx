# cython: language_level=3, freethreading_compatible=True
"""Cards (rule C1): index = 4 * rank + suit, rank 0..12 = 2..A, suit 0..3 = c, d, h, s.

Parsing accepts indices, ``Card`` objects (int subclasses), numpy integers and text such as
``"AhKs2c3d"``, ``"Ah Ks"``, ``"10h"`` or ``"A♠ K♥"`` (suit letters in either case, or the
suit symbols ♣ ♦ ♥ ♠ and their white forms ♧ ♢ ♡ ♤); anything else, and any duplicated
card, raises :class:`omahacore.errors.CardError` (:class:`~omahacore.errors.CardTypeError`,
also a ``TypeError``, for things that are not cards at all: bools, floats, bytes, None).

Every reader takes a fixed-length snapshot of the caller's sequence, turns each item into an
exact ``int`` with at most one ``__index__`` call, and only then fills its C buffer, so an
object that mutates the list, or whose ``__index__`` misbehaves, gets a typed error.

>>> format_cards(parse_cards("A♠ k♥ 10♢"), " ", symbols=True)
'A♠ K♥ T♦'
"""

from cpython.bool cimport PyBool_Check
from cpython.bytes cimport PyBytes_Check
from cpython.long cimport PyLong_Check, PyLong_CheckExact
from cpython.list cimport PyList_AsTuple, PyList_CheckExact, PyList_GET_ITEM, PyList_GET_SIZE
from cpython.tuple cimport PyTuple_CheckExact
from cpython.unicode cimport PyUnicode_Check
from libc.stdint cimport uint64_t

from omahacore._input cimport exact_int, is_numpy_bool, shown
from omahacore._types cimport card_t

from itertools import islice

from omahacore.errors import CardError, CardTypeError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
WHITE_SUIT_SYMBOLS = "♧♢♡♤"

cdef extern from *:
    """
    #ifdef Py_GIL_DISABLED
    #define OMAHA_FREE_THREADED 1
    #else
    #define OMAHA_FREE_THREADED 0
    #endif
    """
    const bint FREE_THREADED "OMAHA_FREE_THREADED"

cdef extern from "Python.h":
    long PyLong_AsLongAndOverflow(object obj, int* overflow) except? -1
    object PyUnicode_FromObject(object obj)   # an exact str copy of a str subclass

cdef dict RANK_OF_CHAR = {ch: i for i, ch in enumerate(RANKS)}
cdef dict SUIT_OF_CHAR = {ch: i for text in (SUITS, SUIT_SYMBOLS, WHITE_SUIT_SYMBOLS)
                          for i, ch in enumerate(text)}
CARD_TEXT = tuple(r + s for r in RANKS for s in SUITS)
CARD_SYMBOLS = tuple(r + s for r in RANKS for s in SUIT_SYMBOLS)
# U+FE0F (emoji presentation) may follow a suit symbol: it separates like a space.
cdef str SEPARATORS = " ,;\t\n\r\ufe0f"
cdef enum:
    MAX_TEXT_CARDS = 100     # cards read from one text argument (a hand has at most 52)
    MAX_FORMAT = 100_000     # cards one format_cards call reads from text or an iterator
cdef str CARD_HELP = "use an index 0..51, a Card or text like 'Ah' or 'A♠'"


def parse_card(token):
    """Card index of one card: an index 0..51, a ``Card`` or text like ``"Ah"``/``"10d"``/``"A♥"``.

    >>> parse_card("Ah"), parse_card("2c"), parse_card("10d"), parse_card("A♥")
    (50, 0, 33, 50)
    """
    return card_value(token)


cdef int token_to_card(str token) except -1:
    """Card index of a two-character (or ``10`` + suit) token; CardError naming it otherwise."""
    cdef Py_ssize_t n = len(token)
    cdef str rank_text = token[:n - 1] if n >= 2 else ""
    if rank_text == "10":
        rank_text = "T"
    rank = RANK_OF_CHAR.get(rank_text.upper()) if len(rank_text) == 1 else None
    suit = SUIT_OF_CHAR.get(token[n - 1:].lower()) if n >= 2 else None
    if rank is None or suit is None:
        raise CardError(f"bad card token {shown(token)}: expected rank 2-9/T/J/Q/K/A (or 10) "
                        f"then suit c/d/h/s or ♣/♦/♥/♠")
    return 4 * <int>rank + <int>suit


cdef list text_to_cards(object text_in, Py_ssize_t limit=MAX_TEXT_CARDS):
    """Split ``"AhKs2c3d"``, ``"Ah Ks 2c"`` or ``"Ah,10s"`` into card indices.

    Stops after ``limit`` cards: a huge text costs no more than its first ``limit`` cards."""
    cdef str text = PyUnicode_FromObject(text_in)   # a str subclass's overrides never run
    cdef list out = []
    cdef Py_ssize_t i = 0, n = len(text), width
    while i < n:
        if text[i] in SEPARATORS:
            i += 1
            continue
        width = 3 if text[i:i + 2] == "10" else 2
        out.append(token_to_card(text[i:i + width]))
        if len(out) >= limit:
            break
        i += width
    return out


cdef card_t card_value(object item) except? 255:
    """Card index of one item (int, Card, numpy integer or one-card text), or a typed error.

    Int subclasses (``Card``) are read without running their code; any other object gets one
    ``__index__`` call whose result must be an exact int.
    """
    cdef int overflow = 0
    cdef long v
    cdef object value
    if PyLong_Check(item) and not PyBool_Check(item):
        # ints and int subclasses (Card): the value is read in C, none of their code runs
        v = PyLong_AsLongAndOverflow(item, &overflow)
        if overflow or v < 0 or v > 51:
            raise CardError(f"card index {shown(item)} is out of range 0..51")
        return <card_t>v
    if PyUnicode_Check(item):
        cards = text_to_cards(item, 2)
        if len(cards) != 1:
            raise CardError(f"expected one card, got {shown(item)}")
        return <card_t>cards[0]
    if PyBool_Check(item) or is_numpy_bool(item):
        raise CardTypeError(f"cannot read {shown(item)} as a card: a bool is never a card; "
                            f"{CARD_HELP}")
    value = exact_int(item)
    if value is None:
        raise CardTypeError(f"cannot read {shown(item)} as a card: {CARD_HELP}")
    v = PyLong_AsLongAndOverflow(value, &overflow)
    if overflow or v < 0 or v > 51:
        raise CardError(f"card index {shown(value)} is out of range 0..51")
    return <card_t>v


cdef tuple card_snapshot(object cards, Py_ssize_t limit, str what):
    """A tuple of the items of ``cards`` (at most ``limit``, so an endless iterator stops)."""
    if PyTuple_CheckExact(cards):
        return cards
    if PyList_CheckExact(cards):
        return PyList_AsTuple(cards)   # one atomic copy of the item pointers
    if PyBytes_Check(cards) or isinstance(cards, (bytearray, memoryview)) or PyLong_Check(cards):
        raise CardTypeError(f"{what} must be a sequence of cards or card text, got {shown(cards)}")
    try:
        return tuple(islice(cards, limit))
    except Exception:
        raise CardTypeError(f"{what} must be a sequence of cards or card text, "
                            f"got {shown(cards)}") from None


cdef int read_cards(object cards, card_t* out, int low, int high, str what) except -1:
    """Fill ``out`` from ``cards``; the count must be within [low, high]. Returns the count.

    ``out`` is written only from a snapshot of ``cards`` whose length was checked first.
    """
    cdef Py_ssize_t n, i
    cdef tuple items
    cdef list parsed
    if PyUnicode_Check(cards):
        parsed = text_to_cards(cards)
        n = len(parsed)
        if n < low or n > high:
            raise CardError(f"{what} must have {count_text(low, high)} cards, got "
                            f"{n if n < MAX_TEXT_CARDS else f'{n} or more'}")
        for i in range(n):
            out[i] = <card_t><long>parsed[i]
        return <int>n
    if PyList_CheckExact(cards) and not FREE_THREADED:
        n = list_of_ints(cards, out, high)
        if n >= 0:
            if n < low:
                raise CardError(f"{what} must have {count_text(low, high)} cards, got {n}")
            return <int>n
    items = card_snapshot(cards, high + 1, what)
    n = len(items)
    if n < low or n > high:
        raise CardError(f"{what} must have {count_text(low, high)} cards, got "
                        f"{n if type(cards) is list or type(cards) is tuple or n <= high else f'more than {high}'}")
    for i in range(n):
        out[i] = card_value(items[i])
    return <int>n


cdef Py_ssize_t list_of_ints(list cards, card_t* out, int high) except -2:
    """The fast path for a list of at most ``high`` valid card ints (or Cards): -1 otherwise.

    Only on builds with a GIL: no Python code runs between reading the size and the last
    item (int values are read in C), so no other code can change the list meanwhile. Any
    other item, or a count or value out of range, falls back to the snapshot reader.
    """
    cdef Py_ssize_t n = PyList_GET_SIZE(cards), i
    cdef object item
    cdef long v
    cdef int overflow = 0
    if n > high:
        return -1
    for i in range(n):
        item = <object>PyList_GET_ITEM(cards, i)
        if not PyLong_Check(item) or PyBool_Check(item):
            return -1
        v = PyLong_AsLongAndOverflow(item, &overflow)
        if overflow or v < 0 or v > 51:
            return -1
        out[i] = <card_t>v
    return n


cdef str count_text(int low, int high):
    return str(low) if low == high else f"{low} to {high}"


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
    """Card indices of text (``"AhKs2c3d"``, ``"Ah Ks"``, ``"10h"``, ``"A♠K♥"``) or a sequence
    of cards.

    Rejects duplicates (C1).

    >>> parse_cards("AhKs2c")
    [50, 47, 0]
    """
    cdef card_t buf[52]
    cdef int n = read_cards(cards, buf, 0, 52, "card list")
    check_distinct(buf, n)
    return [buf[i] for i in range(n)]


cdef bint read_flag(object value, str name) except -1:
    if value is True or value is False:
        return value is True
    raise CardTypeError(f"{name} must be True or False, got {shown(value)}")


def format_card(index, *, symbols=False):
    """Text of one card index: ``format_card(50) == "Ah"``; ``symbols=True`` gives ``"A♥"``."""
    cdef card_t c = card_value(index)
    return CARD_SYMBOLS[c] if read_flag(symbols, "symbols") else CARD_TEXT[c]


def format_cards(cards, sep="", *, symbols=False):
    """Text of cards: ``format_cards([50, 47]) == "AhKs"``; ``symbols=True`` gives ``"A♥K♠"``.

    ASCII letters are the default, so the text pastes back anywhere; both forms parse.

    >>> format_cards("AhKs", " ", symbols=True)
    'A♥ K♠'
    """
    if not PyUnicode_Check(sep):
        raise CardTypeError(f"sep must be a str, got {shown(sep)}")
    names = CARD_SYMBOLS if read_flag(symbols, "symbols") else CARD_TEXT
    if PyUnicode_Check(cards):
        parsed = text_to_cards(cards, MAX_FORMAT + 1)
        if len(parsed) > MAX_FORMAT:
            raise CardError(f"cards: more than {MAX_FORMAT} cards in one text")
        return PyUnicode_FromObject(sep).join([names[c] for c in parsed])
    items = card_snapshot_all(cards)
    return PyUnicode_FromObject(sep).join([names[card_value(c)] for c in items])


cdef tuple card_snapshot_all(object cards):
    """Every item of a list or tuple; at most MAX_FORMAT from any other iterable (an endless
    iterator gets a CardError instead of eating all memory)."""
    cdef tuple items
    if PyTuple_CheckExact(cards):
        return cards
    if type(cards) is list:
        return tuple(cards)
    items = card_snapshot(cards, MAX_FORMAT + 1, "cards")
    if len(items) > MAX_FORMAT:
        raise CardError(f"cards: more than {MAX_FORMAT} cards from one iterator")
    return items
