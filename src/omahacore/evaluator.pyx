# cython: language_level=3, freethreading_compatible=True
"""Compiled Omaha hand evaluator: high (rule C4) and eight-or-better low (rule C5).

Cards are indices ``4 * rank + suit`` (rank 0..12 = 2..A, suit 0..3 = c, d, h, s, rule C1).
A strength is an ``int``: for both high and low **a larger value wins and equal values tie**.
High strengths run 1 (7-5-4-3-2 high) to 7462 (royal flush); low strengths run 1
(8-7-6-5-4) to 56 (the wheel), 0 meaning no qualifying low.

Every table is built once, when the module is imported (a few milliseconds, under the
import lock and the GIL), and only read afterwards: no caller can ever see a half-built
table, from any thread (issue 10), and the kernels share no mutable state.

How it is fast:

* Non-flush high strength depends only on rank multisets. The board's five ranks index one
  of 6,188 rows; each row holds, for each of the 91 hole rank pairs, the best non-flush
  strength over the board's 10 triples. An Omaha hand (rule C3: exactly 2 hole + 3 board)
  is then the maximum of 6 row lookups.
* A flush needs three board cards of one suit, so at most one suit can flush; the few
  suited hole pairs and board triples are enumerated directly.
* The low depends only on two 8-bit masks of distinct low ranks (hole and board), so one
  256 x 256 table is exact.
"""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport qsort
from libc.string cimport memset

from omahacore._types cimport card_t, strength_t
from omahacore.cards cimport check_distinct, read_cards
from omahacore.cards import RANKS, SUITS, format_card, format_cards, parse_card, parse_cards
from omahacore._input cimport exact_int, shown
from omahacore.errors import OmahaError, StrengthError, StrengthTypeError

cdef extern from "_bits.h":
    int omaha_popcount32(uint32_t x) nogil

HIGH_STRENGTHS = 7462
LOW_STRENGTHS = 56
RAZZ_STRENGTHS = 6175


# Multiset index terms: sorted ranks r0 <= r1 <= ... map to sum C(r_i + i, i + 1).
cdef uint16_t C2[13]
cdef uint16_t C3[13]
cdef uint16_t C4[13]
cdef uint16_t C5[13]
cdef uint8_t RANK_PAIR[16 * 16]          # (rank_a << 4 | rank_b) -> pair multiset index
cdef uint16_t FLUSH5[8192]              # 5-bit rank mask -> flush / straight flush strength
cdef uint16_t NONFLUSH5[N_QUINT]        # rank multiset -> strength
cdef uint16_t TRIPLE_PAIR[N_TRIPLE * N_PAIR]
cdef uint16_t BOARD5[N_QUINT * ROW]     # best non-flush strength: board multiset x (rank_a * 13 + rank_b)
cdef uint32_t HIGH_KEYS[N_HIGH + 1]     # strength -> category << 20 | ranks, for describe()
cdef uint8_t LOW_TABLE[256 * 256]       # board low mask * 256 + hole low mask -> low strength
cdef uint8_t LOW_SETS[N_LOW + 1]        # low strength -> its 5-rank mask (bit 0 = ace)
cdef uint8_t LOW_OF_SET[256]            # 5-rank low mask -> low strength (0 if not 5 ranks)
cdef uint8_t LOW_BIT[52]                # card -> its low-rank bit (0 for 9..K)
cdef int32_t BINOM[20][8]               # C(n, k) for the seven-rank multiset index
cdef uint16_t SEVEN[N_SEVEN]            # seven-rank multiset -> best non-flush high of any five
cdef uint16_t RAZZ5[N_QUINT]            # rank multiset -> ace-to-five low strength (E6), 0: five of a kind
cdef uint32_t RAZZ_KEYS[N_RAZZ + 1]     # razz strength -> its key (razz_ranks)
cdef int QUINTS[N_QUINT * 5]            # the sorted ranks of each multiset (table building)
cdef uint64_t CARD_INFO[256]            # CARD_BIT | LOW_BIT << LOW_SHIFT (batch hot loop)
cdef uint64_t CARD_BIT[256]             # byte -> its card bit; bytes > 51 all map to bit 63
cdef Tables TABLES                       # what other compiled modules may read


# ---------------------------------------------------------------- table building

include "_evaluator_tables.pxi"


# ---------------------------------------------------------------- kernels

cdef const Tables* tables() noexcept nogil:
    """Pointers to the lookup tables (built when this module was imported; read-only)."""
    return &TABLES


cdef strength_t flush_high(const card_t* hole, int n_hole,
                           const card_t* board, int n_board) noexcept nogil:
    """Best flush or straight flush using exactly 2 hole + 3 board cards, 0 if none."""
    cdef int counts[4]
    cdef int i, j, k, suit = -1, n_tri = 0
    cdef uint32_t bmask = 0, pair_mask
    cdef uint32_t ranks[MAX_BOARD]
    cdef uint32_t tri[10]
    cdef uint32_t hole_ranks[MAX_HOLE]
    cdef int n_suited = 0, n_b = 0
    cdef strength_t best = 0, v
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    for i in range(n_board):
        counts[board[i] & 3] += 1
    for i in range(4):
        if counts[i] >= 3:
            suit = i
    if suit < 0:
        return 0
    for i in range(n_hole):
        if (hole[i] & 3) == suit:
            hole_ranks[n_suited] = 1u << (hole[i] >> 2)
            n_suited += 1
    if n_suited < 2:
        return 0
    for i in range(n_board):
        if (board[i] & 3) == suit:
            ranks[n_b] = 1u << (board[i] >> 2)
            n_b += 1
    for i in range(n_b):
        for j in range(i + 1, n_b):
            for k in range(j + 1, n_b):
                tri[n_tri] = ranks[i] | ranks[j] | ranks[k]
                n_tri += 1
    for i in range(n_suited):
        for j in range(i + 1, n_suited):
            pair_mask = hole_ranks[i] | hole_ranks[j]
            for k in range(n_tri):
                v = FLUSH5[pair_mask | tri[k]]
                if v > best:
                    best = v
    return best


cdef strength_t omaha_high(const card_t* hole, int n_hole,
                           const card_t* board, int n_board) noexcept nogil:
    """High strength of an Omaha hand (C3, C4); inputs already validated."""
    cdef int r[5]
    cdef int tri[10]
    cdef int i, j, k, t, n_tri = 0, p
    cdef strength_t best = 0, v
    cdef const uint16_t* row
    for i in range(n_board):
        r[i] = board[i] >> 2
    if n_board == 5:
        sort5(r)
        row = &BOARD5[quint_index(r) * ROW]
        for i in range(n_hole):
            for j in range(i + 1, n_hole):
                v = row[(hole[i] >> 2) * 13 + (hole[j] >> 2)]
                if v > best:
                    best = v
    else:
        for i in range(n_board):
            for j in range(i + 1, n_board):
                for k in range(j + 1, n_board):
                    tri[n_tri] = triple_index(r[i], r[j], r[k])
                    n_tri += 1
        for i in range(n_hole):
            for j in range(i + 1, n_hole):
                p = RANK_PAIR[((hole[i] >> 2) << 4) | (hole[j] >> 2)]
                for t in range(n_tri):
                    v = TRIPLE_PAIR[tri[t] * N_PAIR + p]
                    if v > best:
                        best = v
    v = flush_high(hole, n_hole, board, n_board)
    return v if v > best else best


cdef inline int triple_index(int a, int b, int c) noexcept nogil:
    cdef int x
    if a > b:
        x = a; a = b; b = x
    if b > c:
        x = b; b = c; c = x
    if a > b:
        x = a; a = b; b = x
    return a + C2[b] + C3[c]


cdef strength_t omaha_low(const card_t* hole, int n_hole,
                          const card_t* board, int n_board) noexcept nogil:
    """Eight-or-better low strength (C5), 0 when there is none."""
    cdef uint32_t h = 0, b = 0
    cdef int i
    for i in range(n_hole):
        h |= LOW_BIT[hole[i]]
    for i in range(n_board):
        b |= LOW_BIT[board[i]]
    return LOW_TABLE[b * 256 + h]


cdef strength_t five_high(const card_t* cards) noexcept nogil:
    cdef int r[5]
    cdef int i
    cdef uint32_t mask = 0
    cdef bint suited = True
    for i in range(5):
        r[i] = cards[i] >> 2
        mask |= 1u << r[i]
        if (cards[i] & 3) != (cards[0] & 3):
            suited = False
    if suited:
        return FLUSH5[mask]
    sort5(r)
    return NONFLUSH5[quint_index(r)]


cdef strength_t five_low(const card_t* cards) noexcept nogil:
    cdef uint32_t mask = 0
    cdef int i
    for i in range(5):
        if not LOW_BIT[cards[i]]:
            return 0
        mask |= LOW_BIT[cards[i]]
    return LOW_OF_SET[mask]



# ---------------------------------------------------------------- single evaluations

cdef int read_omaha(object hole, object board, card_t* h, card_t* b, int* n_board) except -1:
    """Read and validate an Omaha hand (C3): 4-6 hole cards, 3-5 board cards, all distinct."""
    cdef card_t both[MAX_HOLE + MAX_BOARD]
    cdef int n_hole = read_cards(hole, h, 4, MAX_HOLE, "hole")
    cdef int i
    n_board[0] = read_cards(board, b, 3, MAX_BOARD, "board")
    for i in range(n_hole):
        both[i] = h[i]
    for i in range(n_board[0]):
        both[n_hole + i] = b[i]
    check_distinct(both, n_hole + n_board[0])
    return n_hole


def evaluate_high(hole, board):
    """High strength (C3, C4) of an Omaha hand: exactly 2 of the 4-6 hole cards and 3 of the
    3-5 board cards. Larger wins; 1..7462.

    >>> evaluate_high("AhKhQdJd", "ThJhQc2s3s") > evaluate_high("2c2d7h8h", "ThJhQc2s3s")
    True
    """
    cdef card_t h[MAX_HOLE]
    cdef card_t b[MAX_BOARD]
    cdef int nb
    cdef int nh = read_omaha(hole, board, h, b, &nb)
    return omaha_high(h, nh, b, nb)


def evaluate_low(hole, board):
    """Eight-or-better low strength (C5) of an Omaha hand, 1..56 (56 is the wheel), 0 for no low.

    >>> evaluate_low("As2d9h9c", "3c4d5hKsKd")
    56
    """
    cdef card_t h[MAX_HOLE]
    cdef card_t b[MAX_BOARD]
    cdef int nb
    cdef int nh = read_omaha(hole, board, h, b, &nb)
    return omaha_low(h, nh, b, nb)


def evaluate_hilo(hole, board):
    """``(high, low)`` strengths of an Omaha hand in one call."""
    cdef card_t h[MAX_HOLE]
    cdef card_t b[MAX_BOARD]
    cdef int nb
    cdef int nh = read_omaha(hole, board, h, b, &nb)
    return omaha_high(h, nh, b, nb), omaha_low(h, nh, b, nb)


def evaluate_five(cards):
    """High strength of exactly five cards (C4), 1..7462.

    >>> evaluate_five("AsKsQsJsTs")
    7462
    """
    cdef card_t c[5]
    read_cards(cards, c, 5, 5, "hand")
    check_distinct(c, 5)
    return five_high(c)


def evaluate_five_low(cards):
    """Low strength of exactly five cards (C5), 0 when they are not an eight-or-better low."""
    cdef card_t c[5]
    read_cards(cards, c, 5, 5, "hand")
    check_distinct(c, 5)
    return five_low(c)


cdef int best_of_any(const card_t* cards, int n, bint low) noexcept nogil:
    """Best five of n cards in any combination (Hold'em style, C6)."""
    cdef card_t five[5]
    cdef int best = 0, v, a, b, c, d, e
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                for d in range(c + 1, n):
                    for e in range(d + 1, n):
                        five[0] = cards[a]; five[1] = cards[b]; five[2] = cards[c]
                        five[3] = cards[d]; five[4] = cards[e]
                        v = five_low(five) if low else five_high(five)
                        if v > best:
                            best = v
    return best


cdef strength_t any_low(const card_t* cards, int n) noexcept nogil:
    """Best eight-or-better low of any five of ``n`` cards (E6, C5): the five lowest distinct
    low ranks, 0 when there are fewer than five."""
    cdef uint32_t mask = 0
    cdef int i
    for i in range(n):
        mask |= LOW_BIT[cards[i]]
    if omaha_popcount32(mask) < 5:
        return 0
    for i in range(7, -1, -1):          # drop the highest low ranks down to five
        if omaha_popcount32(mask) == 5:
            break
        mask &= ~(1u << i)
    return LOW_OF_SET[mask]


cdef strength_t five_razz(const card_t* cards) noexcept nogil:
    """Ace-to-five low strength of five cards (E6): suits never count."""
    cdef int r[5]
    cdef int i
    for i in range(5):
        r[i] = cards[i] >> 2
    sort5(r)
    return RAZZ5[quint_index(r)]


cdef strength_t best_razz(const card_t* cards, int n) noexcept nogil:
    """Best ace-to-five low of any five of ``n`` (5-7) cards (E6).

    With five distinct ranks or more the best is their five lowest, ace low (any unpaired
    five beats every paired one, and among them the lowest top card wins, then the next):
    read from the same table; otherwise every five of the ``n`` are tried."""
    cdef card_t five[5]
    cdef strength_t best = 0, v
    cdef int a, b, c, d, e
    cdef int r[5]
    cdef uint32_t ranks = 0
    for a in range(n):
        ranks |= 1u << (cards[a] >> 2)
    if omaha_popcount32(ranks) >= 5:
        b = 0
        for a in range(-1, 12):          # the ace (rank 12) first, then deuce upward
            c = 12 if a < 0 else a
            if ranks & (1u << c):
                r[b] = c
                b += 1
                if b == 5:
                    break
        sort5(r)
        return RAZZ5[quint_index(r)]
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                for d in range(c + 1, n):
                    for e in range(d + 1, n):
                        five[0] = cards[a]; five[1] = cards[b]; five[2] = cards[c]
                        five[3] = cards[d]; five[4] = cards[e]
                        v = five_razz(five)
                        if v > best:
                            best = v
    return best


def evaluate_razz(cards):
    """Best ace-to-five low (razz, E6) of any five of 5-7 cards, 1..6175: larger wins, 6175
    is 5-4-3-2-A; aces are low, straights and flushes do not count, pairs count against.

    >>> evaluate_razz("As2d3h4c5s9d9h") == RAZZ_STRENGTHS
    True
    >>> evaluate_razz("2c2d3h4c5s") > evaluate_razz("KcKdQhQcJs")
    True
    """
    cdef card_t c[7]
    cdef int n = read_cards(cards, c, 5, 7, "cards")
    check_distinct(c, n)
    return best_razz(c, n)


cdef strength_t seven_high(const card_t* cards) noexcept nogil:
    """``best_of_any(cards, 7, False)`` by one lookup unless five cards share a suit (C6,
    E6): without a flush the best five of seven depend only on the seven ranks."""
    cdef int counts[4]
    cdef int r[7]
    cdef int i, j, x, k = 0
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    for i in range(7):
        counts[cards[i] & 3] += 1
    if counts[0] >= 5 or counts[1] >= 5 or counts[2] >= 5 or counts[3] >= 5:
        return best_of_any(cards, 7, False)
    for i in range(7):   # insertion sort of the ranks
        x = cards[i] >> 2
        j = i
        while j > 0 and r[j - 1] > x:
            r[j] = r[j - 1]
            j -= 1
        r[j] = x
    for i in range(7):
        k += BINOM[r[i] + i][i + 1]
    return SEVEN[k]


cdef strength_t best_high(const card_t* cards, int n) noexcept nogil:
    """The best high of any five of ``n`` (5-7) cards: the seven-card lookup for seven."""
    return seven_high(cards) if n == 7 else best_of_any(cards, n, False)


def evaluate_best(cards):
    """Best high strength of any five of 5-7 cards (Texas Hold'em, rule C6)."""
    cdef card_t c[7]
    cdef int n = read_cards(cards, c, 5, 7, "cards")
    check_distinct(c, n)
    return best_high(c, n)


def evaluate_best_low(cards):
    """Best eight-or-better low of any five of 5-7 cards, 0 for none."""
    cdef card_t c[7]
    cdef int n = read_cards(cards, c, 5, 7, "cards")
    check_distinct(c, n)
    return any_low(c, n)


def best_hand(hole, board):
    """The five cards played for high and for low: ``(high_cards, low_cards or None)``.

    Each is the two hole cards followed by the three board cards (C3).

    >>> from omahacore.cards import format_cards
    >>> high, low = best_hand("AhKh2c3d", "QhJh4s5s6c")
    >>> format_cards(high), format_cards(low)
    ('2c3d4s5s6c', 'Ah2c4s5s6c')
    """
    cdef card_t h[MAX_HOLE]
    cdef card_t b[MAX_BOARD]
    cdef card_t five[5]
    cdef int nb, i, j, x, y, z, hv, lv, best_h = 0, best_l = 0
    cdef int nh = read_omaha(hole, board, h, b, &nb)
    high_cards = low_cards = None
    for i in range(nh):
        for j in range(i + 1, nh):
            for x in range(nb):
                for y in range(x + 1, nb):
                    for z in range(y + 1, nb):
                        five[0] = h[i]; five[1] = h[j]
                        five[2] = b[x]; five[3] = b[y]; five[4] = b[z]
                        hv = five_high(five)
                        lv = five_low(five)
                        if hv > best_h:
                            best_h = hv
                            high_cards = (five[0], five[1], five[2], five[3], five[4])
                        if lv > best_l:
                            best_l = lv
                            low_cards = (five[0], five[1], five[2], five[3], five[4])
    return high_cards, low_cards


cdef long read_strength(object strength, long low, long high, str what) except? -1:
    """A strength argument as a C long in [low, high], or StrengthError naming it.

    bool, float, text and objects whose ``__index__`` misbehaves are StrengthTypeError.
    """
    cdef object value = exact_int(strength)
    if value is None:
        raise StrengthTypeError(f"{what} must be an int {low}..{high}, got {shown(strength)}")
    if value < low or value > high:
        raise StrengthError(f"{what} must be {low}..{high}, got {shown(value)}")
    return <long>value


cdef tuple SIGNIFICANT = (5, 4, 3, 3, 1, 5, 2, 2, 1)  # ranks that name each category


def high_key(strength):
    """``(category, ranks)`` of a high strength: category 0 (high card) .. 8 (straight flush)
    and the ranks (0..12 = 2..A) that make it, most significant first (a straight gives its top).

    >>> high_key(7462)
    (8, (12,))
    """
    cdef long s = read_strength(strength, 1, N_HIGH, "high strength")
    cdef uint32_t key = HIGH_KEYS[s]
    cdef int category = key >> 20
    return category, tuple((key >> (16 - 4 * i)) & 15 for i in range(SIGNIFICANT[category]))


def low_ranks(strength):
    """The five card values of a low strength, highest first, ace as 1 (C5); ``()`` for 0
    (no qualifying low).

    >>> low_ranks(56), low_ranks(0)
    ((5, 4, 3, 2, 1), ())
    """
    cdef long s = read_strength(strength, 0, N_LOW, "low strength")
    cdef int mask = LOW_SETS[s]
    return tuple(bit + 1 for bit in range(7, -1, -1) if mask & (1 << bit))


def razz_ranks(strength):
    """The five card values of a razz strength (E6) as the hand is read, ace as 1: the pairs
    first, then the singles, highest first.

    >>> razz_ranks(RAZZ_STRENGTHS), razz_ranks(evaluate_razz("2c2d3h4c5s"))
    ((5, 4, 3, 2, 1), (2, 2, 5, 4, 3))
    """
    cdef long s = read_strength(strength, 1, N_RAZZ, "razz strength")
    cdef uint32_t key = RAZZ_KEYS[s]
    cdef int category = key >> 20, i
    cdef tuple groups = ((1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1))[category]
    values = []
    for i in range(len(groups)):
        values.extend([((key >> (16 - 4 * i)) & 15) + 1] * groups[i])
    return tuple(values)


# Last, so everything above exists: the tables are complete before `import` returns.
build_tables()
