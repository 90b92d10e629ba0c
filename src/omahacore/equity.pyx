# cython: language_level=3
"""Compiled equity kernels: exact enumeration and Monte Carlo over the evaluator's tables.

Results are integer **outcome counts**, never float sums: ``counts[p * (n + 1) * (n + 2) +
kh * (n + 2) + kl]`` (a flat ``array.array("q")``)
is the number of deals in which player ``p`` shared the high among ``kh`` players (0: did
not win it) and the low among ``kl`` players (0: did not win it, ``n + 1``: no low
qualified, or a high-only game). Every share of the pot is a rational function of
``(kh, kl)``, so the caller gets exact equities (``omaha.equity`` does this with
``fractions.Fraction``).

How the exact enumeration is fast:

* Without a flush, the high (C4) and the low (C5) depend only on the board's rank multiset:
  each hand's strengths on each of the 6,188 multisets are computed once per call, so a board
  without a possible flush costs one counter increment (``qcount[q] += 1``), its multiset
  index built incrementally in five nested loops (cards ascending means ranks ascending).
* Only a board with three or more cards of one suit, where some hand holds enough cards of
  that suit, is evaluated again, and then only the flush part.

Layout: this file holds the tables built at import, the per-hand work and the input checks;
the exact enumeration is in ``_equity_exact.pxi`` and the Monte Carlo sampler in
``_equity_sample.pxi``, both included here (one compiled module).

>>> counts, deals = exact_counts(bytes([48, 49, 0, 1, 44, 45, 4, 5]), 2, 4,
...                              bytes([8, 12, 16, 20, 30]), b"", False, True)
>>> deals, sum(counts)
(1, 2)
"""

import array

from cpython cimport array as carray

from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from omahacore._types cimport card_t
from omahacore.evaluator cimport N_QUINT, ROW, Tables, five_high, sort5, tables
from omahacore.errors import OmahaError

cdef extern from "_bits.h":
    int omaha_popcount32(uint32_t x) nogil
    void omaha_prefetch(const void* p) nogil

cdef carray.array COUNTS_TEMPLATE = array.array("q")   # itemsize 8 (checked at import)
if COUNTS_TEMPLATE.itemsize != sizeof(int64_t):
    raise ImportError("array 'q' items are not 64-bit here")

MAX_PLAYERS = 25          # 52 cards: 25 two-card hands and a board
CHUNK = 16384             # Monte Carlo samples per random stream (see sample_counts)
VS_ANY_MIN = 32768        # a known hand vs any hand: deals in a call from which the pair
                          # masks are built (below, the general evaluation; same counts)

cdef enum:
    C_CHUNK = 16384
    C_BATCH = 16          # Monte Carlo deals drawn before they are evaluated
    C_MAX_PLAYERS = 25
    C_VS_ANY_MIN = 32768
    MAX_PAIRS = 15        # C(6, 2) hole pairs


cdef struct Hand:
    int npairs
    uint16_t pair_off[MAX_PAIRS]   # rank_i * 13 + rank_j into a BOARD5 row
    uint32_t lowmask               # the hand's low-rank bits
    uint32_t suit_ranks[4]         # 13-bit rank mask per suit
    int suit_count[4]
    int r0, r1                     # Hold'em: the two ranks
    uint64_t bits                  # card bits


cdef struct Game:
    int n                          # players
    int nh                         # hole cards
    bint holdem
    bint hilo
    int stride                     # (n + 1) * (n + 2) counters per player


# ---------------------------------------------------------------- tables built at import

cdef const Tables* T = tables()            # the evaluator's tables, built at its import
cdef uint32_t QLOW[N_QUINT]                # multiset -> its low-rank mask
cdef uint16_t H1[N_QUINT * 13]             # Hold'em: best non-flush with 0 or 1 hole card
cdef uint8_t HLOW[256]                     # Hold'em: 7-card low mask -> best low (C5, C6)
cdef uint8_t QVALID[N_QUINT]               # 0 for five of a kind
cdef uint16_t F4[1820 * 13]                # Hold'em: 4 board ranks + 1 hole rank -> non-flush


cdef int QC[4][13]                         # T.c2..T.c5 copied: no pointer chase per board


cdef inline int quint(const int* r) noexcept nogil:
    return r[0] + QC[0][r[1]] + QC[1][r[2]] + QC[2][r[3]] + QC[3][r[4]]


cdef uint16_t nonflush_of(const int* r) noexcept nogil:
    """Non-flush high of five ranks: synthetic cards with mixed suits."""
    cdef card_t five[5]
    cdef int i
    for i in range(5):
        five[i] = <card_t>(4 * r[i] + (i & 3))
    return <uint16_t>five_high(five)


cdef void build_tables() noexcept nogil:
    cdef int a, b, c, d, e, q, i, j, k, rank, mask, low5, bit, n
    cdef int r[5]
    cdef int s[5]
    cdef uint16_t best, v, alone
    cdef int drop[5]
    cdef uint32_t lm
    for rank in range(13):
        QC[0][rank] = T.c2[rank]
        QC[1][rank] = T.c3[rank]
        QC[2][rank] = T.c4[rank]
        QC[3][rank] = T.c5[rank]
    # F4: best non-flush of four board ranks (a multiset, indexed like the evaluator's) and
    # one hole rank; H1 then takes the best over the board's five 4-subsets.
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    s[0] = a; s[1] = b; s[2] = c; s[3] = d
                    for rank in range(13):
                        s[4] = rank
                        F4[(a + T.c2[b] + T.c3[c] + T.c4[d]) * 13 + rank] = nonflush_of(s)
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    for e in range(d, 13):
                        r[0] = a; r[1] = b; r[2] = c; r[3] = d; r[4] = e
                        q = quint(r)
                        QVALID[q] = 0 if a == e else 1
                        lm = 0
                        for i in range(5):
                            lm |= T.low_bit[4 * r[i]]
                        QLOW[q] = lm
                        alone = nonflush_of(r) if a != e else 0
                        for i in range(5):
                            k = 0
                            for j in range(5):
                                if j != i:
                                    s[k] = r[j]
                                    k += 1
                            drop[i] = (s[0] + T.c2[s[1]] + T.c3[s[2]] + T.c4[s[3]]) * 13
                        for rank in range(13):
                            best = alone
                            for i in range(5):
                                v = F4[drop[i] + rank]
                                if v > best:
                                    best = v
                            H1[q * 13 + rank] = best
    # The best low of any five of seven cards takes the five lowest distinct low ranks; the
    # Omaha table scores that set when it is split as 3 "board" + 2 "hole" ranks.
    for mask in range(256):
        HLOW[mask] = 0
        if omaha_popcount32(mask) >= 5:
            low5 = 0
            n = 0
            for bit in range(8):
                if n < 5 and mask & (1 << bit):
                    low5 |= 1 << bit
                    n += 1
            # lowest two bits to the hole part, the other three to the board part
            a = low5 & -low5
            b = (low5 & ~a) & -(low5 & ~a)
            HLOW[mask] = T.low_table[(low5 & ~(a | b)) * 256 + (a | b)]


build_tables()


# ---------------------------------------------------------------- per-hand work

cdef inline void prepare(Hand* h, const card_t* cards, int nh) noexcept nogil:
    cdef int i, j, n = 0, rank, suit, row
    cdef int ranks[6]
    cdef uint32_t lowmask = 0
    cdef uint64_t bits = 0
    cdef const uint8_t* low_bit = T.low_bit
    h.suit_ranks[0] = h.suit_ranks[1] = h.suit_ranks[2] = h.suit_ranks[3] = 0
    h.suit_count[0] = h.suit_count[1] = h.suit_count[2] = h.suit_count[3] = 0
    for i in range(nh):
        rank = cards[i] >> 2
        suit = cards[i] & 3
        ranks[i] = rank
        lowmask |= low_bit[cards[i]]
        bits |= (<uint64_t>1) << cards[i]
        h.suit_ranks[suit] |= 1u << rank
        h.suit_count[suit] += 1
    for i in range(nh):
        row = ranks[i] * 13
        for j in range(i + 1, nh):
            h.pair_off[n] = <uint16_t>(row + ranks[j])
            n += 1
    h.npairs = n
    h.lowmask = lowmask
    h.bits = bits
    h.r0 = ranks[0]
    h.r1 = ranks[1] if nh > 1 else ranks[0]


cdef inline int nonflush_high(const Game* g, const Hand* h, int q) noexcept nogil:
    cdef const uint16_t* row = T.board5 + q * ROW
    cdef int best = 0, v, i
    if g.holdem:
        best = row[h.r0 * 13 + h.r1]
        v = H1[q * 13 + h.r0]
        if v > best:
            best = v
        v = H1[q * 13 + h.r1]
        return v if v > best else best
    for i in range(h.npairs):
        v = row[h.pair_off[i]]
        if v > best:
            best = v
    return best


cdef inline int low_of(const Game* g, const Hand* h, int q) noexcept nogil:
    if g.holdem:
        return HLOW[QLOW[q] | h.lowmask]
    return T.low_table[QLOW[q] * 256 + h.lowmask]


cdef int best_flush5(uint32_t mask) noexcept nogil:
    """Best flush of a suited rank mask of 5-7 ranks (Hold'em)."""
    cdef int n = omaha_popcount32(mask), best = 0, v
    cdef uint32_t x, y, rest
    if n == 5:
        return T.flush5[mask]
    x = mask
    while x:
        rest = mask & ~(x & -x)
        if n == 6:
            v = T.flush5[rest]
            if v > best:
                best = v
        else:
            y = rest
            while y:
                v = T.flush5[rest & ~(y & -y)]
                if v > best:
                    best = v
                y &= y - 1
        x &= x - 1
    return best


cdef int flush_high(const Game* g, const Hand* h, int suit, uint32_t board_mask,
                    const uint32_t* triples, int n_triples) noexcept nogil:
    """Best flush of a hand on a board with 3+ cards of ``suit``, 0 if none."""
    if not g.holdem and h.suit_count[suit] < 2:
        return 0
    return suited_high(g.holdem, h.suit_ranks[suit], board_mask, triples, n_triples)


cdef int suited_high(bint holdem, uint32_t hm, uint32_t board_mask, const uint32_t* triples,
                     int n_triples) noexcept nogil:
    """Best flush from hole ranks ``hm`` of the board's flush suit (``board_mask``: its ranks
    on the board, ``triples``: their 3-subsets, Omaha only), 0 if none."""
    cdef uint32_t x, y, pair
    cdef int best = 0, v, t
    if holdem:
        x = hm | board_mask
        return best_flush5(x) if omaha_popcount32(x) >= 5 else 0
    x = hm
    while x:
        y = x & (x - 1)
        while y:
            pair = (x & -x) | (y & -y)
            for t in range(n_triples):
                v = T.flush5[pair | triples[t]]
                if v > best:
                    best = v
            y &= y - 1
        x &= x - 1
    return best


cdef int board_triples(uint32_t mask, uint32_t* out) noexcept nogil:
    cdef uint32_t bits[5]
    cdef int n = 0, i, j, k, t = 0
    while mask and n < 5:
        bits[n] = mask & -mask
        mask &= mask - 1
        n += 1
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                out[t] = bits[i] | bits[j] | bits[k]
                t += 1
    return t


cdef inline void add_deal(const Game* g, const int* hi, const int* lo, int64_t* counts,
                          int64_t mult) noexcept nogil:
    """Count one outcome (``mult`` deals) given every player's high and low strengths."""
    cdef int p, best_h = 0, best_l = 0, kh = 0, kl = 0, n = g.n, ih, il
    if n == 2:      # heads-up, the common case, without the loops
        ih = 1 if hi[0] > hi[1] else (2 if hi[0] == hi[1] else 0)
        il = 3      # no low
        if g.hilo and (lo[0] or lo[1]):
            il = 1 if lo[0] > lo[1] else (2 if lo[0] == lo[1] else 0)
        counts[ih * 4 + il] += mult
        ih = 2 if ih == 2 else 1 - ih
        il = il if il >= 2 else 1 - il
        counts[g.stride + ih * 4 + il] += mult
        return
    for p in range(n):
        if hi[p] > best_h:
            best_h = hi[p]
            kh = 1
        elif hi[p] == best_h:
            kh += 1
        if g.hilo:
            if lo[p] > best_l:
                best_l = lo[p]
                kl = 1
            elif lo[p] == best_l:
                kl += 1
    for p in range(n):
        ih = kh if hi[p] == best_h else 0
        if best_l > 0:
            il = kl if lo[p] == best_l else 0
        else:
            il = n + 1
        counts[p * g.stride + ih * (n + 2) + il] += mult


cdef void eval_board(const Game* g, const Hand* hands, const card_t* board, int64_t* counts,
                     int* hi, int* lo) noexcept nogil:
    """Evaluate every hand on one complete board and count the outcome."""
    cdef int r[5]
    cdef int cnt[4]
    cdef uint32_t sm[4]
    cdef uint32_t triples[10]
    cdef int i, p, q, suit = -1, nt = 0, v
    cnt[0] = cnt[1] = cnt[2] = cnt[3] = 0
    sm[0] = sm[1] = sm[2] = sm[3] = 0
    for i in range(5):
        r[i] = board[i] >> 2
        cnt[board[i] & 3] += 1
        sm[board[i] & 3] |= 1u << r[i]
    for i in range(4):
        if cnt[i] >= 3:
            suit = i
    sort5(r)
    q = quint(r)
    if suit >= 0 and not g.holdem:
        nt = board_triples(sm[suit], triples)
    for p in range(g.n):
        hi[p] = nonflush_high(g, &hands[p], q)
        if suit >= 0:
            v = flush_high(g, &hands[p], suit, sm[suit], triples, nt)
            if v > hi[p]:
                hi[p] = v
        lo[p] = low_of(g, &hands[p], q) if g.hilo else 0
    add_deal(g, hi, lo, counts, 1)


cdef void eval_sampled(const Game* g, const Hand* hands, const bint* fixed,
                       const card_t* board, int q, const uint16_t* nf, const uint8_t* lows,
                       const int* outcome, const int* need_suit, bint all_fixed,
                       int64_t* counts, int* hi, int* lo) noexcept nogil:
    """One complete board: fixed hands read their per-multiset strengths; when every hand
    is fixed and none can flush, the outcome itself is read."""
    cdef uint32_t triples[10]
    cdef int i, p, suit = -1, nt = 0, v, n = g.n, count = 0
    cdef uint32_t c, lanes = 0, three, smask = 0
    cdef uint64_t packed = 0
    # Suit counts in 8-bit lanes and suited rank masks in 16-bit lanes, all in registers.
    for i in range(5):
        c = board[i]
        packed |= (<uint64_t>1) << ((c & 3) * 16 + (c >> 2))
        lanes += 1u << ((c & 3) * 8)
    three = (lanes + 0x05050505u) & 0x08080808u   # the lane (at most one) with 3+ cards
    if three:
        suit = (three > 0xFF) + (three > 0xFFFF) + (three > 0xFFFFFF)
        count = (lanes >> (8 * suit)) & 0xFF
        smask = <uint32_t>(packed >> (16 * suit)) & 0x1FFF
    if all_fixed and (suit < 0 or count < need_suit[suit]):
        for p in range(n):
            counts[outcome[q * n + p]] += 1
        return
    nt = -1         # the board's suited triples, listed once some hand can use them
    for p in range(n):
        if fixed[p]:
            hi[p] = nf[q * n + p]
            lo[p] = lows[q * n + p]
        else:
            hi[p] = nonflush_high(g, &hands[p], q)
            lo[p] = low_of(g, &hands[p], q) if g.hilo else 0
        if suit >= 0 and (g.holdem or hands[p].suit_count[suit] >= 2):
            if nt < 0:
                nt = 0 if g.holdem else board_triples(smask, triples)
            v = flush_high(g, &hands[p], suit, smask, triples, nt)
            if v > hi[p]:
                hi[p] = v
    add_deal(g, hi, lo, counts, 1)


cdef inline int prefetch_row(const card_t* board) noexcept nogil:
    """Start loading the board's table row; returns its rank multiset index. (The index is
    used by the caller: a call with no result would count as dead code, prefetch and all.)"""
    cdef int r[5]
    cdef int i, q
    for i in range(5):
        r[i] = board[i] >> 2
    sort5(r)
    q = quint(r)
    cdef const uint16_t* row = T.board5 + q * ROW
    for i in range(0, ROW, 32):
        omaha_prefetch(row + i)
    return q


cdef inline int prefetch_reads(const Game* g, const Hand* hs, const uint32_t* sizes,
                               const card_t* board, const uint16_t* nf,
                               const uint8_t* lows, const int* outcome,
                               bint all_fixed) noexcept nogil:
    """Start loading just what evaluating this deal reads: the random hands' table entries
    (their hole pairs' cells of the board's row, their low cell) and the fixed hands'
    per-multiset strengths. Returns the board's rank multiset index."""
    cdef int r[5]
    cdef int i, p, q
    for i in range(5):
        r[i] = board[i] >> 2
    sort5(r)
    q = quint(r)
    cdef const uint16_t* row = T.board5 + q * ROW
    cdef bint any_fixed = False
    for p in range(g.n):
        if sizes[p] == 0:
            for i in range(hs[p].npairs):
                omaha_prefetch(row + hs[p].pair_off[i])
            if g.hilo and not g.holdem:
                omaha_prefetch(T.low_table + QLOW[q] * 256 + hs[p].lowmask)
        else:
            any_fixed = True
    if all_fixed:
        omaha_prefetch(outcome + q * g.n)
    elif any_fixed:
        omaha_prefetch(nf + q * g.n)
        omaha_prefetch(lows + q * g.n)
    return q


cdef void suit_needs(const Game* g, const Hand* hands, int* need_suit) noexcept nogil:
    """need_suit[s]: board cards of suit s from which some hand can flush (6 = never)."""
    cdef int s, p, need
    for s in range(4):
        need_suit[s] = 6
        for p in range(g.n):
            need = (5 - hands[p].suit_count[s]) if g.holdem else (3 if hands[p].suit_count[s] >= 2 else 6)
            if need < 3:
                need = 3
            if need < need_suit[s]:
                need_suit[s] = need


# ---------------------------------------------------------------- input checks (GIL held)

cdef int read_bytes(object data, str what) except -1:
    if type(data) is not bytes:
        raise TypeError(f"{what} must be bytes of card indices, got {type(data).__name__}")
    cdef const unsigned char* view = <const unsigned char*><const char*>data
    cdef Py_ssize_t i
    for i in range(len(<bytes>data)):
        if view[i] > 51:
            raise OmahaError(f"{what}: card index must be 0..51, got {view[i]}")
    return 0


cdef uint64_t bits_of(const unsigned char* cards, Py_ssize_t n, str what) except? 1:
    cdef uint64_t bits = 0, b
    cdef Py_ssize_t i
    for i in range(n):
        b = (<uint64_t>1) << cards[i]
        if bits & b:
            raise OmahaError(f"{what}: card {cards[i]} appears twice")
        bits |= b
    return bits


cdef int check_game(int n, int nh, bint holdem, Py_ssize_t n_board) except -1:
    if holdem and nh != 2:
        raise OmahaError(f"Hold'em deals 2 hole cards, got {nh}")
    if not holdem and nh not in (4, 5, 6):
        raise OmahaError(f"Omaha deals 4, 5 or 6 hole cards, got {nh}")
    if n < 1 or n > C_MAX_PLAYERS or n * nh + 5 > 52:
        raise OmahaError(f"{n} players with {nh} hole cards do not fit one deck with a board")
    if n_board not in (0, 3, 4, 5):
        raise OmahaError(f"the board must have 0, 3, 4 or 5 cards, got {n_board}")
    return 0


include "_equity_exact.pxi"
include "_equity_sample.pxi"
