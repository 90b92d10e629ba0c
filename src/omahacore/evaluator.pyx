# cython: language_level=3
"""Compiled Omaha hand evaluator: high (rule C4) and eight-or-better low (rule C5).

Cards are indices ``4 * rank + suit`` (rank 0..12 = 2..A, suit 0..3 = c, d, h, s, rule C1).
A strength is an ``int``: for both high and low **a larger value wins and equal values tie**.
High strengths run 1 (7-5-4-3-2 high) to 7462 (royal flush); low strengths run 1
(8-7-6-5-4) to 56 (the wheel), 0 meaning no qualifying low.

How it is fast (all tables are built on first use, in a few milliseconds):

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
from libc.string cimport memcpy, memset

from omahacore._types cimport card_t, strength_t
from omahacore.cards cimport check_distinct, read_cards
from omahacore.cards import RANKS, SUITS, format_card, format_cards, parse_card, parse_cards
from omahacore.errors import ArrayError, OmahaError

cdef extern from "_bits.h":
    int omaha_popcount32(uint32_t x) nogil
    void omaha_prefetch(const void* p) nogil

HIGH_STRENGTHS = 7462
LOW_STRENGTHS = 56

cdef enum:
    N_QUINT = 6188      # rank multisets of size 5 (C(17, 5), 13 of them impossible)
    N_TRIPLE = 455      # rank multisets of size 3
    N_PAIR = 91         # rank multisets of size 2
    N_HIGH = 7462       # distinct high strengths (C4)
    N_LOW = 56          # distinct lows (C5)
    MAX_HOLE = 6
    MAX_BOARD = 5
    ROW = 169           # a board row holds both orders of each hole rank pair: no pair lookup

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
cdef uint64_t CARD_BIT[256]             # byte -> its card bit; bytes > 51 all map to bit 63
cdef bint tables_ready = False


# ---------------------------------------------------------------- table building

cdef uint32_t nonflush_key(const int* r) noexcept nogil:
    """Ordering key of five ranks (any order) without a flush; 0 for five of a kind."""
    cdef int counts[13]
    cdef int order[5]
    cdef int n = 0, c, rank, i, pattern = 0
    cdef uint32_t key, category
    memset(counts, 0, sizeof(counts))
    for i in range(5):
        counts[r[i]] += 1
    for c in range(5, 0, -1):
        for rank in range(12, -1, -1):
            if counts[rank] == c:
                order[n] = rank
                n += 1
                pattern = pattern * 10 + c
    if pattern == 5:
        return 0
    if pattern == 41:
        category = 7
    elif pattern == 32:
        category = 6
    elif pattern == 311:
        category = 3
    elif pattern == 221:
        category = 2
    elif pattern == 2111:
        category = 1
    elif order[0] - order[4] == 4:
        return (4 << 20) | (order[0] << 16)          # straight
    elif order[0] == 12 and order[1] == 3:
        return (4 << 20) | (3 << 16)                 # wheel: a five-high straight
    else:
        category = 0
    key = category << 20
    for i in range(n):
        key |= order[i] << (16 - 4 * i)
    return key


cdef uint32_t flush_key(uint32_t mask) noexcept nogil:
    """Ordering key of a 5-rank mask played as a flush (straight flush when connected)."""
    cdef int order[5]
    cdef int n = 0, rank, i
    cdef uint32_t key
    for rank in range(12, -1, -1):
        if mask & (1u << rank):
            order[n] = rank
            n += 1
    if order[0] - order[4] == 4:
        return (8 << 20) | (order[0] << 16)
    if order[0] == 12 and order[1] == 3:
        return (8 << 20) | (3 << 16)
    key = 5 << 20
    for i in range(5):
        key |= order[i] << (16 - 4 * i)
    return key


cdef int compare_keys(const void* a, const void* b) noexcept nogil:
    cdef uint32_t x = (<const uint32_t*>a)[0], y = (<const uint32_t*>b)[0]
    return (x > y) - (x < y)


cdef uint16_t strength_of_key(uint32_t key) noexcept nogil:
    """Dense strength 1..7462 of a key, by binary search in the sorted keys."""
    cdef int lo = 1, hi = N_HIGH, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if HIGH_KEYS[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return <uint16_t>lo


cdef inline int quint_index(const int* r) noexcept nogil:
    return r[0] + C2[r[1]] + C3[r[2]] + C4[r[3]] + C5[r[4]]


cdef void build_high_tables() noexcept nogil:
    cdef int a, b, c, d, e, n = 0, i, j, k, p, t
    cdef int r[5]
    cdef int tri[10]
    cdef uint32_t mask, key
    cdef uint16_t* row
    cdef const uint16_t* trow
    cdef uint16_t v
    cdef uint16_t best[N_PAIR]
    for a in range(13):
        C2[a] = (a + 1) * a // 2
        C3[a] = (a + 2) * (a + 1) * a // 6
        C4[a] = (a + 3) * (a + 2) * (a + 1) * a // 24
        C5[a] = (a + 4) * (a + 3) * (a + 2) * (a + 1) * a // 120
    for a in range(13):
        for b in range(13):
            RANK_PAIR[(a << 4) | b] = (a + C2[b]) if a <= b else (b + C2[a])
    # A byte that is not a card maps to bit 63, which every validity mask starts with set,
    # so the duplicate test also catches out-of-range bytes.
    for a in range(256):
        CARD_BIT[a] = ((<uint64_t>1) << a) if a < 52 else ((<uint64_t>1) << 63)
    # Collect every distinct key once, sort, and number them 1..7462.
    HIGH_KEYS[0] = 0
    n = 1
    for mask in range(8192):
        if omaha_popcount32(mask) == 5:
            HIGH_KEYS[n] = flush_key(mask)
            n += 1
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    for e in range(d, 13):
                        r[0] = a; r[1] = b; r[2] = c; r[3] = d; r[4] = e
                        key = nonflush_key(r)
                        if key:
                            HIGH_KEYS[n] = key
                            n += 1
    qsort(&HIGH_KEYS[1], N_HIGH, sizeof(uint32_t), compare_keys)
    memset(FLUSH5, 0, sizeof(FLUSH5))
    for mask in range(8192):
        if omaha_popcount32(mask) == 5:
            FLUSH5[mask] = strength_of_key(flush_key(mask))
    memset(NONFLUSH5, 0, sizeof(NONFLUSH5))
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    for e in range(d, 13):
                        r[0] = a; r[1] = b; r[2] = c; r[3] = d; r[4] = e
                        key = nonflush_key(r)
                        if key:
                            NONFLUSH5[quint_index(r)] = strength_of_key(key)
    # Triple x pair: merge the two sorted multisets and look the five ranks up.
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                t = a + C2[b] + C3[c]
                for d in range(13):
                    for e in range(d, 13):
                        merge_sorted(a, b, c, d, e, r)
                        TRIPLE_PAIR[t * N_PAIR + d + C2[e]] = NONFLUSH5[quint_index(r)]
    # Board rows: the best over the board's 10 triples for each hole rank pair.
    memset(BOARD5, 0, sizeof(BOARD5))
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    for e in range(d, 13):
                        r[0] = a; r[1] = b; r[2] = c; r[3] = d; r[4] = e
                        n = 0
                        for i in range(5):
                            for j in range(i + 1, 5):
                                for k in range(j + 1, 5):
                                    tri[n] = r[i] + C2[r[j]] + C3[r[k]]
                                    n += 1
                        memset(best, 0, sizeof(best))
                        for t in range(10):
                            trow = &TRIPLE_PAIR[tri[t] * N_PAIR]
                            for p in range(N_PAIR):
                                v = trow[p]
                                if v > best[p]:
                                    best[p] = v
                        row = &BOARD5[quint_index(r) * ROW]
                        for i in range(13):
                            for j in range(13):
                                row[i * 13 + j] = best[RANK_PAIR[(i << 4) | j]]


cdef void merge_sorted(int a, int b, int c, int d, int e, int* out) noexcept nogil:
    """Merge sorted (a, b, c) and sorted (d, e) into five sorted ranks."""
    cdef int x[3]
    cdef int y[2]
    cdef int i = 0, j = 0, k
    x[0] = a; x[1] = b; x[2] = c
    y[0] = d; y[1] = e
    for k in range(5):
        if j >= 2 or (i < 3 and x[i] <= y[j]):
            out[k] = x[i]
            i += 1
        else:
            out[k] = y[j]
            j += 1


cdef void build_low_tables() noexcept nogil:
    # Comparing two 5-rank masks as integers compares their highest card first, then the
    # next (C5), so ascending mask order is best-first.
    cdef int n = 0, b, h, s, mask, card, rank
    cdef int sets[N_LOW]
    memset(LOW_OF_SET, 0, sizeof(LOW_OF_SET))
    for mask in range(256):
        if omaha_popcount32(mask) == 5:
            sets[n] = mask
            LOW_SETS[N_LOW - n] = <uint8_t>mask
            LOW_OF_SET[mask] = <uint8_t>(N_LOW - n)
            n += 1
    LOW_SETS[0] = 0
    for card in range(52):
        rank = card >> 2
        LOW_BIT[card] = 1 if rank == 12 else ((1 << (rank + 1)) if rank <= 6 else 0)
    for b in range(256):
        for h in range(256):
            LOW_TABLE[b * 256 + h] = 0
            if omaha_popcount32(b) < 3 or omaha_popcount32(h) < 2:
                continue
            for s in range(N_LOW):
                mask = sets[s]
                # Feasible as 2 hole + 3 board distinct ranks: ranks only in the hole go to
                # the hole part (at most 2), ranks only on the board to the board part (at most 3).
                if (mask & ~(b | h)) == 0 and omaha_popcount32(mask & ~b) <= 2 \
                        and omaha_popcount32(mask & ~h) <= 3:
                    LOW_TABLE[b * 256 + h] = <uint8_t>(N_LOW - s)
                    break


cdef void ensure_tables() noexcept:
    """Build every lookup table once (a few milliseconds), on first use."""
    global tables_ready
    if not tables_ready:
        with nogil:
            build_high_tables()
            build_low_tables()
        tables_ready = True


# ---------------------------------------------------------------- kernels

cdef inline void order2(int* r, int i, int j) noexcept nogil:
    cdef int a = r[i], b = r[j]
    r[i] = a if a < b else b
    r[j] = b if a < b else a


cdef inline void sort5(int* r) noexcept nogil:
    # A 9-comparator sorting network: no data-dependent branches to mispredict.
    order2(r, 0, 1); order2(r, 3, 4); order2(r, 2, 4)
    order2(r, 2, 3); order2(r, 1, 4); order2(r, 0, 3)
    order2(r, 0, 2); order2(r, 1, 3); order2(r, 1, 2)


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
    ensure_tables()
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
    ensure_tables()
    return five_high(c)


def evaluate_five_low(cards):
    """Low strength of exactly five cards (C5), 0 when they are not an eight-or-better low."""
    cdef card_t c[5]
    read_cards(cards, c, 5, 5, "hand")
    check_distinct(c, 5)
    ensure_tables()
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


def evaluate_best(cards):
    """Best high strength of any five of 5-7 cards (Texas Hold'em, rule C6)."""
    cdef card_t c[7]
    cdef int n = read_cards(cards, c, 5, 7, "cards")
    check_distinct(c, n)
    ensure_tables()
    return best_of_any(c, n, False)


def evaluate_best_low(cards):
    """Best eight-or-better low of any five of 5-7 cards, 0 for none."""
    cdef card_t c[7]
    cdef int n = read_cards(cards, c, 5, 7, "cards")
    check_distinct(c, n)
    ensure_tables()
    return best_of_any(c, n, True)


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


cdef tuple SIGNIFICANT = (5, 4, 3, 3, 1, 5, 2, 2, 1)  # ranks that name each category


def high_key(strength):
    """``(category, ranks)`` of a high strength: category 0 (high card) .. 8 (straight flush)
    and the ranks (0..12 = 2..A) that make it, most significant first (a straight gives its top).

    >>> high_key(7462)
    (8, (12,))
    """
    cdef long s = strength
    if s < 1 or s > N_HIGH:
        raise OmahaError(f"high strength must be 1..{N_HIGH}, got {strength!r}")
    ensure_tables()
    cdef uint32_t key = HIGH_KEYS[s]
    cdef int category = key >> 20
    return category, tuple((key >> (16 - 4 * i)) & 15 for i in range(SIGNIFICANT[category]))


def low_ranks(strength):
    """The five card values of a low strength, highest first, ace as 1 (C5).

    >>> low_ranks(56)
    (5, 4, 3, 2, 1)
    """
    cdef long s = strength
    if s < 1 or s > N_LOW:
        raise OmahaError(f"low strength must be 1..{N_LOW}, got {strength!r}")
    ensure_tables()
    cdef int mask = LOW_SETS[s]
    return tuple(bit + 1 for bit in range(7, -1, -1) if mask & (1 << bit))


# ---------------------------------------------------------------- batches (NumPy)

cdef object np = None  # imported on first batch call: `import omaha` stays fast


cdef object card_array(object values, str name):
    """``values`` as a C-contiguous uint8 array of card indices, or ArrayError."""
    global np
    if np is None:
        import numpy
        np = numpy
    arr = np.asarray(values)
    if arr.dtype.kind not in "ui":
        raise ArrayError(f"{name} must be an integer array of card indices (uint8), got dtype {arr.dtype}")
    if arr.dtype != np.uint8 and arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < 0 or hi > 51:
            raise ArrayError(f"{name} holds {lo if lo < 0 else hi}, not a card index 0..51")
    return np.ascontiguousarray(arr, dtype=np.uint8)


cdef struct BoardInfo:
    const uint16_t* row      # BOARD5 row when the board has 5 cards, else NULL
    uint64_t mask            # cards on the board, for the duplicate check
    int flush_suit           # suit with 3+ board cards, or -1 (4 from read_board5: no card has it)
    uint32_t low_row         # board low mask * 256: its LOW_TABLE row (all zero without a low)


cdef bint read_board(const uint8_t* b, int nb, BoardInfo* info) noexcept nogil:
    """Validate a board and precompute what its players share; False if it is invalid."""
    cdef int r[5]
    cdef int counts[4]
    cdef int i
    cdef uint64_t bit
    cdef uint32_t low = 0
    info.mask = (<uint64_t>1) << 63
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    for i in range(nb):
        bit = CARD_BIT[b[i]]
        if info.mask & bit:
            return False
        info.mask |= bit
        r[i] = b[i] >> 2
        counts[b[i] & 3] += 1
        low |= LOW_BIT[b[i]]
    info.flush_suit = -1
    for i in range(4):
        if counts[i] >= 3:
            info.flush_suit = i
    info.low_row = low * 256
    info.row = NULL
    if nb == 5:
        sort5(r)
        info.row = &BOARD5[quint_index(r) * ROW]
    return True


cdef inline strength_t max6(const uint16_t* row, const uint8_t* h) noexcept nogil:
    """Best of the six hole pairs of a 4-card hole on one board row (the hot path)."""
    cdef uint32_t r0 = h[0] >> 2, r1 = h[1] >> 2, r2 = h[2] >> 2, r3 = h[3] >> 2
    cdef const uint16_t* row0 = row + 13 * r0
    cdef const uint16_t* row1 = row + 13 * r1
    cdef strength_t a = row0[r1]
    cdef strength_t b = row0[r2]
    cdef strength_t c = row0[r3]
    cdef strength_t d = row1[r2]
    cdef strength_t e = row1[r3]
    cdef strength_t f = row[13 * r2 + r3]
    a = a if a > b else b
    c = c if c > d else d
    e = e if e > f else f
    a = a if a > c else c
    return a if a > e else e


cdef enum:
    CHUNK = 128  # rows whose boards are read (and their table rows prefetched) together


cdef inline void prefetch_board(const BoardInfo* info) noexcept nogil:
    cdef const char* row = <const char*>info.row
    cdef int offset
    for offset in range(0, 2 * ROW, 64):
        omaha_prefetch(row + offset)
    omaha_prefetch(row + 2 * ROW - 1)
    omaha_prefetch(&LOW_TABLE[info.low_row])
    omaha_prefetch(&LOW_TABLE[info.low_row + 128])


cdef inline bint read_board5(const uint8_t* b, BoardInfo* info) noexcept nogil:
    """read_board for five cards without data-dependent branches (the batch hot path)."""
    cdef uint64_t acc = (<uint64_t>1) << 63, bad = 0, x
    cdef uint32_t suits = 0, low = 0, flush
    cdef int r[5]
    cdef int i
    for i in range(5):
        x = CARD_BIT[b[i]]
        bad |= acc & x
        acc |= x
        suits += 1u << ((b[i] & 3) << 3)   # one byte per suit counts its cards
        low |= LOW_BIT[b[i]]
        r[i] = b[i] >> 2
    if bad:
        return False
    info.mask = acc
    info.low_row = low * 256
    flush = (suits + 0x7D7D7D7Du) & 0x80808080u  # a byte >= 3 gets its top bit set
    info.flush_suit = 4 if flush == 0 else (
        0 if flush & 0x80u else (1 if flush & 0x8000u else (2 if flush & 0x800000u else 3)))
    sort5(r)
    info.row = &BOARD5[quint_index(r) * ROW]
    return True


cdef Py_ssize_t omaha4_kernel(const uint8_t* holes, Py_ssize_t n, const uint8_t* boards,
                              bint shared_board, int32_t* high, int32_t* low) noexcept nogil:
    """The common case unrolled: 4 hole cards, 5 board cards. Same contract as batch_kernel.

    Rows go in chunks: first every distinct board of the chunk is read and its table rows
    are prefetched, then the players are evaluated, so the cache misses of one board
    overlap the work on the others instead of stalling each board change.
    """
    cdef BoardInfo infos[CHUNK]
    cdef uint8_t board_of[CHUNK]
    cdef Py_ssize_t start, row, stop
    cdef int k, n_infos
    cdef const uint8_t* h
    cdef const uint8_t* b
    cdef uint32_t head, prev_head = 0
    cdef uint8_t prev_tail = 0
    cdef const BoardInfo* info
    cdef uint64_t acc, bad, b0, b1, b2, b3
    cdef uint32_t c0, c1, c2, c3, fs
    cdef strength_t best, v
    start = 0
    while start < n:
        stop = start + CHUNK if start + CHUNK < n else n
        n_infos = 0
        for row in range(start, stop):
            b = boards if shared_board else boards + 5 * row
            memcpy(&head, b, 4)
            if n_infos == 0 or head != prev_head or b[4] != prev_tail:
                if not read_board5(b, &infos[n_infos]):
                    return row
                prefetch_board(&infos[n_infos])
                n_infos += 1
                prev_head = head
                prev_tail = b[4]
            board_of[row - start] = n_infos - 1
        for row in range(start, stop):
            info = &infos[board_of[row - start]]
            h = holes + 4 * row
            c0 = h[0]; c1 = h[1]; c2 = h[2]; c3 = h[3]
            b0 = CARD_BIT[c0]; b1 = CARD_BIT[c1]; b2 = CARD_BIT[c2]; b3 = CARD_BIT[c3]
            # Branch-free duplicate / range test: a bit seen twice (bit 63 = not a card) is bad.
            acc = info.mask
            bad = acc & b0
            acc |= b0
            bad |= acc & b1
            acc |= b1
            bad |= acc & b2
            acc |= b2
            bad |= acc & b3
            if bad:
                return row
            if high != NULL:
                best = max6(info.row, h)
                # Count hole cards of the board's flush suit (suit 4 = none: counts 0), so the
                # only branch is the rare "two suited hole cards" one.
                fs = <uint32_t>info.flush_suit
                if ((c0 & 3) == fs) + ((c1 & 3) == fs) + ((c2 & 3) == fs) + ((c3 & 3) == fs) >= 2:
                    b = boards if shared_board else boards + 5 * row
                    v = flush_high(h, 4, b, 5)
                    if v > best:
                        best = v
                high[row] = best
            if low != NULL:
                low[row] = LOW_TABLE[info.low_row + (LOW_BIT[c0] | LOW_BIT[c1] | LOW_BIT[c2] | LOW_BIT[c3])]
        start = stop
    return -1


cdef Py_ssize_t batch_kernel(const uint8_t* holes, Py_ssize_t n, int nh,
                             const uint8_t* boards, int nb, bint shared_board,
                             int32_t* high, int32_t* low) noexcept nogil:
    """Evaluate every row; ``high``/``low`` may be NULL. Returns the first bad row or -1."""
    cdef Py_ssize_t row
    cdef int i, j, suited
    cdef const uint8_t* h
    cdef const uint8_t* b = boards
    cdef const uint8_t* prev = NULL
    cdef BoardInfo info
    cdef uint64_t mask, bit
    cdef uint32_t hl
    cdef strength_t best, v
    for row in range(n):
        h = holes + row * nh
        if not shared_board:
            b = boards + row * nb
        # Deals are often generated a board at a time: reuse the board work across rows.
        if prev == NULL or (b != prev and not same_cards(b, prev, nb)):
            if not read_board(b, nb, &info):
                return row
            prev = b
        mask = info.mask
        hl = 0
        for i in range(nh):
            bit = CARD_BIT[h[i]]
            if mask & bit:
                return row
            mask |= bit
            hl |= LOW_BIT[h[i]]
        if high != NULL:
            if info.row == NULL:
                best = omaha_high(h, nh, b, nb)
            else:
                if nh == 4:
                    best = max6(info.row, h)
                else:
                    best = 0
                    for i in range(nh):
                        for j in range(i + 1, nh):
                            v = info.row[(h[i] >> 2) * 13 + (h[j] >> 2)]
                            if v > best:
                                best = v
                if info.flush_suit >= 0:
                    suited = 0
                    for i in range(nh):
                        suited += (h[i] & 3) == info.flush_suit
                    if suited >= 2:
                        v = flush_high(h, nh, b, nb)
                        if v > best:
                            best = v
            high[row] = best
        if low != NULL:
            low[row] = LOW_TABLE[info.low_row + hl]
    return -1


cdef inline bint same_cards(const uint8_t* a, const uint8_t* b, int n) noexcept nogil:
    cdef uint32_t x, y
    cdef int i
    if n == 5:  # one unaligned 4-byte load each instead of four byte compares
        memcpy(&x, a, 4)
        memcpy(&y, b, 4)
        return x == y and a[4] == b[4]
    for i in range(n):
        if a[i] != b[i]:
            return False
    return True


cdef tuple run_batch(object holes, object boards, bint want_high, bint want_low):
    cdef object h = card_array(holes, "holes")
    cdef object b = card_array(boards, "boards")
    if h.ndim != 2 or h.shape[1] < 4 or h.shape[1] > MAX_HOLE:
        raise ArrayError(f"holes must have shape (N, 4), (N, 5) or (N, 6), got {h.shape}")
    cdef bint shared = b.ndim == 1
    if shared:
        b = b.reshape(1, -1)
    if b.ndim != 2 or b.shape[1] < 3 or b.shape[1] > MAX_BOARD:
        raise ArrayError(f"boards must have shape (N, 5) or (5,) (3 or 4 columns also allowed), got {boards_shape(boards)}")
    if not shared and b.shape[0] != h.shape[0]:
        raise ArrayError(f"holes has {h.shape[0]} rows but boards has {b.shape[0]}")
    cdef Py_ssize_t n = h.shape[0]
    high = np.empty(n, dtype=np.int32) if want_high else None
    low = np.empty(n, dtype=np.int32) if want_low else None
    cdef int32_t[::1] high_view
    cdef int32_t[::1] low_view
    cdef int32_t* high_ptr = NULL
    cdef int32_t* low_ptr = NULL
    if want_high and n:
        high_view = high
        high_ptr = &high_view[0]
    if want_low and n:
        low_view = low
        low_ptr = &low_view[0]
    cdef const uint8_t[:, ::1] hv = h
    cdef const uint8_t[:, ::1] bv = b
    cdef int nh = h.shape[1], nb = b.shape[1]
    cdef Py_ssize_t bad = -1
    ensure_tables()
    if n and bv.shape[0]:
        with nogil:
            if nh == 4 and nb == 5:
                bad = omaha4_kernel(&hv[0, 0], n, &bv[0, 0], shared, high_ptr, low_ptr)
            else:
                bad = batch_kernel(&hv[0, 0], n, nh, &bv[0, 0], nb, shared, high_ptr, low_ptr)
    if bad >= 0:
        raise ArrayError(f"row {bad}: {row_problem(h[bad], b[0 if shared else bad])}")
    return high, low


cdef str row_problem(object hole, object board):
    """Why a row was refused, in the words of the single-hand reader."""
    cdef card_t hb[MAX_HOLE]
    cdef card_t bb[MAX_BOARD]
    cdef int nb
    try:
        read_omaha(hole.tolist(), board.tolist(), hb, bb, &nb)
    except OmahaError as exc:
        return str(exc)
    return "invalid cards"


cdef object boards_shape(object boards):
    return getattr(boards, "shape", None) or np.shape(boards)


def evaluate_high_batch(holes, boards):
    """High strengths of many Omaha hands, releasing the GIL.

    ``holes``: integer array (N, 4) (or 5/6 columns) of card indices; ``boards``: (N, 5) or one
    (5,) board shared by every row. Returns an int32 array of length N.

    >>> import numpy as np
    >>> evaluate_high_batch(np.array([[48, 49, 0, 1]], np.uint8), np.array([50, 51, 44, 45, 8], np.uint8))
    array([7284], dtype=int32)
    """
    return run_batch(holes, boards, True, False)[0]


def evaluate_low_batch(holes, boards):
    """Eight-or-better low strengths (0 for none) of many Omaha hands; see evaluate_high_batch."""
    return run_batch(holes, boards, False, True)[1]


def evaluate_hilo_batch(holes, boards):
    """``(high, low)`` int32 arrays for many Omaha hands in one pass."""
    return run_batch(holes, boards, True, True)


def evaluate_five_batch(cards):
    """High strengths of an (N, 5) array of five-card hands."""
    cdef object c = card_array(cards, "cards")
    if c.ndim != 2 or c.shape[1] != 5:
        raise ArrayError(f"cards must have shape (N, 5), got {c.shape}")
    cdef Py_ssize_t n = c.shape[0], i, bad = -1
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] ov = out
    cdef const uint8_t[:, ::1] cv = c
    ensure_tables()
    with nogil:
        for i in range(n):
            if not valid_five(&cv[i, 0]):
                bad = i
                break
            ov[i] = five_high(&cv[i, 0])
    if bad >= 0:
        raise ArrayError(f"row {bad}: cards {c[bad].tolist()} are not five distinct card indices 0..51")
    return out


cdef bint valid_five(const uint8_t* c) noexcept nogil:
    cdef uint64_t seen = 0, bit
    cdef int i
    for i in range(5):
        if c[i] > 51:
            return False
        bit = (<uint64_t>1) << c[i]
        if seen & bit:
            return False
        seen |= bit
    return True
