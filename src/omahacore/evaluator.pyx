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

cdef int count_pattern(const int* counts, int* order, int* n) noexcept nogil:
    """The values of five cards by count, then highest first, into ``order`` (``n`` of them),
    and their count pattern as digits (41 quads, 32 full house, 2111 one pair, ...): the one
    step the high and the razz ladders share."""
    cdef int c, v, pattern = 0
    for c in range(5, 0, -1):
        for v in range(12, -1, -1):
            if counts[v] == c:
                order[n[0]] = v
                n[0] += 1
                pattern = pattern * 10 + c
    return pattern


cdef inline uint32_t pack_key(uint32_t category, const int* order, int n) noexcept nogil:
    """A category above the values in ``order``, four bits each, first highest."""
    cdef uint32_t key = category << 20
    cdef int i
    for i in range(n):
        key |= order[i] << (16 - 4 * i)
    return key


cdef uint32_t nonflush_key(const int* r) noexcept nogil:
    """Ordering key of five ranks (any order) without a flush; 0 for five of a kind."""
    cdef int counts[13]
    cdef int order[5]
    cdef int n = 0, i, pattern
    cdef uint32_t category
    memset(counts, 0, sizeof(counts))
    for i in range(5):
        counts[r[i]] += 1
    pattern = count_pattern(counts, order, &n)
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
    return pack_key(category, order, n)


cdef uint32_t flush_key(uint32_t mask) noexcept nogil:
    """Ordering key of a 5-rank mask played as a flush (straight flush when connected)."""
    cdef int order[5]
    cdef int n = 0, rank
    for rank in range(12, -1, -1):
        if mask & (1u << rank):
            order[n] = rank
            n += 1
    if order[0] - order[4] == 4:
        return (8 << 20) | (order[0] << 16)
    if order[0] == 12 and order[1] == 3:
        return (8 << 20) | (3 << 16)
    return pack_key(5, order, 5)


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


cdef void fill_multisets(int* quints) noexcept nogil:
    """Every sorted 5-rank multiset, stored at its index (5 ints each)."""
    cdef int a, b, c, d, e
    cdef int* r
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    for e in range(d, 13):
                        r = &quints[5 * (a + C2[b] + C3[c] + C4[d] + C5[e])]
                        r[0] = a; r[1] = b; r[2] = c; r[3] = d; r[4] = e


cdef void build_high_tables() noexcept nogil:
    cdef int a, b, c, d, e, n, i, j, k, p, t, q
    cdef int r[5]
    cdef int tri[10]
    cdef int* quints = QUINTS
    cdef const int* qr
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
    fill_multisets(quints)
    # Collect every distinct key once (five of a kind has key 0), sort, number them 1..7462.
    HIGH_KEYS[0] = 0
    n = 1
    for mask in range(8192):
        if omaha_popcount32(mask) == 5:
            HIGH_KEYS[n] = flush_key(mask)
            n += 1
    for q in range(N_QUINT):
        key = nonflush_key(&quints[5 * q])
        if key:
            HIGH_KEYS[n] = key
            n += 1
    qsort(&HIGH_KEYS[1], N_HIGH, sizeof(uint32_t), compare_keys)
    memset(FLUSH5, 0, sizeof(FLUSH5))
    for mask in range(8192):
        if omaha_popcount32(mask) == 5:
            FLUSH5[mask] = strength_of_key(flush_key(mask))
    for q in range(N_QUINT):
        key = nonflush_key(&quints[5 * q])
        NONFLUSH5[q] = strength_of_key(key) if key else 0
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
    for q in range(N_QUINT):
        qr = &quints[5 * q]
        n = 0
        for i in range(5):
            for j in range(i + 1, 5):
                for k in range(j + 1, 5):
                    tri[n] = qr[i] + C2[qr[j]] + C3[qr[k]]
                    n += 1
        memset(best, 0, sizeof(best))
        for t in range(10):
            trow = &TRIPLE_PAIR[tri[t] * N_PAIR]
            for p in range(N_PAIR):
                v = trow[p]
                if v > best[p]:
                    best[p] = v
        row = &BOARD5[q * ROW]
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
    for card in range(256):
        CARD_INFO[card] = CARD_BIT[card] | (
            (<uint64_t>LOW_BIT[card]) << LOW_SHIFT if card < 52 else 0)
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


cdef uint32_t razz_key(const int* r) noexcept nogil:
    """Ordering key of five ranks as an ace-to-five low (E6), smaller is better: the pattern
    of pairs first (no pair, one pair, two pair, trips, full house, quads), then the values
    (ace 0 .. king 12) by count and then highest first; NO_RAZZ for five of a kind."""
    cdef int counts[13]
    cdef int order[5]
    cdef int n = 0, i, pattern
    cdef uint32_t category
    memset(counts, 0, sizeof(counts))
    for i in range(5):
        counts[(r[i] + 1) % 13] += 1       # rank 12 (the ace) plays as the lowest value
    pattern = count_pattern(counts, order, &n)
    if pattern == 5:
        return NO_RAZZ
    if pattern == 11111:
        category = 0
    elif pattern == 2111:
        category = 1
    elif pattern == 221:
        category = 2
    elif pattern == 311:
        category = 3
    elif pattern == 32:
        category = 4
    else:
        category = 5
    return pack_key(category, order, n)


cdef void build_razz_tables() noexcept:
    """RAZZ5: every rank multiset's razz strength, 1 (the worst: four kings and a queen) to
    N_RAZZ (5-4-3-2-A): the keys sorted best first, numbered down from N_RAZZ."""
    cdef uint64_t packed[N_QUINT]
    cdef int q, n = 0, k
    cdef uint32_t key
    for q in range(N_QUINT):
        RAZZ5[q] = 0
        key = razz_key(&QUINTS[5 * q])
        if key != NO_RAZZ:
            packed[n] = ((<uint64_t>key) << 16) | q
            n += 1
    qsort(packed, n, sizeof(uint64_t), compare_packed)
    RAZZ_KEYS[0] = NO_RAZZ
    for k in range(n):
        RAZZ5[packed[k] & 0xFFFF] = <uint16_t>(N_RAZZ - k)
        RAZZ_KEYS[N_RAZZ - k] = <uint32_t>(packed[k] >> 16)


cdef int compare_packed(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<const uint64_t*>a)[0], y = (<const uint64_t*>b)[0]
    return (x > y) - (x < y)


cdef void build_seven_table() noexcept nogil:
    """SEVEN: for each multiset of seven ranks (sorted r0 <= ... <= r6, index the sum of
    C(r_i + i, i + 1); C(19, 7) entries), the best high of any five of them without a flush,
    from the five-card table (about a million lookups, a few milliseconds at import)."""
    cdef int n, k, i, a, b, p, run, ok
    cdef int r[7]
    cdef card_t five[5]
    cdef uint16_t best, v
    for n in range(20):
        for k in range(8):
            BINOM[n][k] = 0
        BINOM[n][0] = 1
        for k in range(1, min(n, 7) + 1):
            BINOM[n][k] = BINOM[n - 1][k - 1] + (BINOM[n - 1][k] if k <= n - 1 else 0)
    memset(SEVEN, 0, sizeof(SEVEN))
    for i in range(7):
        r[i] = 0
    while True:
        ok = 1
        run = 1
        for i in range(1, 7):   # at most four cards of a rank
            run = run + 1 if r[i] == r[i - 1] else 1
            if run > 4:
                ok = 0
        if ok:
            best = 0
            for a in range(7):
                for b in range(a + 1, 7):   # leave out cards a and b
                    p = 0
                    for i in range(7):
                        if i != a and i != b:
                            five[p] = <card_t>(4 * r[i] + (p & 3))   # suits 0,1,2,3,0: no flush
                            p += 1
                    v = five_high(five)
                    if v > best:
                        best = v
            k = 0
            for i in range(7):
                k += BINOM[r[i] + i][i + 1]
            SEVEN[k] = best
        i = 6   # the next nondecreasing tuple
        while i >= 0 and r[i] == 12:
            i -= 1
        if i < 0:
            break
        r[i] += 1
        for k in range(i + 1, 7):
            r[k] = r[i]


cdef void build_tables() noexcept:
    """Build every lookup table; run exactly once, by the module's import (see the end)."""
    build_high_tables()
    build_low_tables()
    build_razz_tables()
    build_seven_table()
    TABLES.low_table = LOW_TABLE
    TABLES.low_bit = LOW_BIT
    TABLES.card_bit = CARD_BIT
    TABLES.card_info = CARD_INFO
    TABLES.board5 = BOARD5
    TABLES.flush5 = FLUSH5
    TABLES.c2 = C2
    TABLES.c3 = C3
    TABLES.c4 = C4
    TABLES.c5 = C5


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
