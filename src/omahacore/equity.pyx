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
from omahacore.evaluator cimport N_QUINT, ROW, Tables, five_high, tables
from omahacore.errors import OmahaError

cdef extern from "_bits.h":
    int omaha_popcount32(uint32_t x) nogil
    void omaha_prefetch(const void* p) nogil

cdef carray.array COUNTS_TEMPLATE = array.array("q")   # itemsize 8 (checked at import)
if COUNTS_TEMPLATE.itemsize != sizeof(int64_t):
    raise ImportError("array 'q' items are not 64-bit here")

MAX_PLAYERS = 25          # 52 cards: 25 two-card hands and a board
CHUNK = 16384             # Monte Carlo samples per random stream (see sample_counts)

cdef enum:
    C_CHUNK = 16384
    C_BATCH = 16          # Monte Carlo deals drawn before they are evaluated
    C_MAX_PLAYERS = 25
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
    cdef uint32_t hm = h.suit_ranks[suit], x, y, pair
    cdef int best = 0, v, t
    if g.holdem:
        x = hm | board_mask
        return best_flush5(x) if omaha_popcount32(x) >= 5 else 0
    if h.suit_count[suit] < 2:
        return 0
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


cdef inline void order2(int* r, int i, int j) noexcept nogil:
    cdef int a = r[i], b = r[j]
    r[i] = a if a < b else b
    r[j] = b if a < b else a


cdef inline void sort5(int* r) noexcept nogil:
    order2(r, 0, 1); order2(r, 3, 4); order2(r, 2, 4)
    order2(r, 2, 3); order2(r, 1, 4); order2(r, 0, 3)
    order2(r, 0, 2); order2(r, 1, 3); order2(r, 1, 2)


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


# ---------------------------------------------------------------- exact enumeration

cdef void precompute_q(const Game* g, const Hand* hands, int q, uint16_t* nf, uint8_t* lows,
                       int* outcome) noexcept nogil:
    """Every hand's non-flush high and low on rank multiset q, and the outcome index."""
    cdef int p, n = g.n, best_h = 0, best_l = 0, kh = 0, kl = 0
    for p in range(n):
        nf[q * n + p] = <uint16_t>nonflush_high(g, &hands[p], q)
        lows[q * n + p] = <uint8_t>(low_of(g, &hands[p], q) if g.hilo else 0)
        if nf[q * n + p] > best_h:
            best_h = nf[q * n + p]; kh = 1
        elif nf[q * n + p] == best_h:
            kh += 1
        if lows[q * n + p] > best_l:
            best_l = lows[q * n + p]; kl = 1
        elif lows[q * n + p] == best_l:
            kl += 1
    for p in range(n):
        outcome[q * n + p] = g.stride * p + (kh if nf[q * n + p] == best_h else 0) * (n + 2) + (
            (kl if lows[q * n + p] == best_l else 0) if best_l > 0 else n + 1)


cdef void precompute(const Game* g, const Hand* hands, uint16_t* nf, uint8_t* lows,
                     int* outcome) noexcept nogil:
    """Every hand's strengths and outcome on every (possible) rank multiset."""
    cdef int q
    for q in range(N_QUINT):
        if QVALID[q]:
            precompute_q(g, hands, q, nf, lows, outcome)


cdef void precompute_fixed(const Game* g, const Hand* hands, const bint* fixed,
                           uint16_t* nf, uint8_t* lows) noexcept nogil:
    cdef int q, p, n = g.n
    for q in range(N_QUINT):
        if QVALID[q]:
            for p in range(n):
                if fixed[p]:
                    nf[q * n + p] = <uint16_t>nonflush_high(g, &hands[p], q)
                    lows[q * n + p] = <uint8_t>(low_of(g, &hands[p], q) if g.hilo else 0)


cdef void flush_board(const Game* g, const Hand* hands, int q, int suit, uint32_t mask,
                      const uint16_t* nf, const uint8_t* lows, int64_t* counts,
                      int* hi, int* lo) noexcept nogil:
    cdef uint32_t triples[10]
    cdef int nt = 0, p, v
    if not g.holdem:
        nt = board_triples(mask, triples)
    for p in range(g.n):
        hi[p] = nf[q * g.n + p]
        v = flush_high(g, &hands[p], suit, mask, triples, nt)
        if v > hi[p]:
            hi[p] = v
        lo[p] = lows[q * g.n + p]
    add_deal(g, hi, lo, counts, 1)


cdef int64_t enumerate_combo(const Game* g, const Hand* hands, const card_t* board, int nb,
                             uint64_t used, uint16_t* nf, uint8_t* lows, int* outcome,
                             int64_t* qcount, int64_t* counts, int* hi, int* lo) noexcept nogil:
    """Count every completion of the board for one set of hands; returns the deals."""
    cdef card_t deck[52]
    cdef card_t full[5]
    cdef int m = 0, c, i, p, s, q, need
    cdef int need_suit[4]
    cdef int64_t deals = 0
    cdef int ia, ib, ic, id_, ie, ra, rb, rc, rd, re, qa, qb, qc, qd
    cdef int cnt[4]
    cdef uint32_t sm[4]
    cdef int idx[5]
    cdef int k = 5 - nb, level, flushy, four
    cdef int known[5]
    cdef int rr[5]
    cdef int qidx[13 * 13]
    for i in range(13 * 13):
        qidx[i] = -1
    for c in range(52):
        if not (used >> c) & 1:
            deck[m] = <card_t>c
            m += 1
    for s in range(4):
        cnt[s] = 0
        sm[s] = 0
    if k == 5:
        precompute(g, hands, nf, lows, outcome)
        memset(qcount, 0, N_QUINT * sizeof(int64_t))
        suit_needs(g, hands, need_suit)
        for ia in range(m):
            ra = deck[ia] >> 2; cnt[deck[ia] & 3] += 1; sm[deck[ia] & 3] |= 1u << ra
            qa = ra
            for ib in range(ia + 1, m):
                rb = deck[ib] >> 2; cnt[deck[ib] & 3] += 1; sm[deck[ib] & 3] |= 1u << rb
                qb = qa + T.c2[rb]
                for ic in range(ib + 1, m):
                    rc = deck[ic] >> 2; cnt[deck[ic] & 3] += 1; sm[deck[ic] & 3] |= 1u << rc
                    qc = qb + T.c3[rc]
                    for id_ in range(ic + 1, m):
                        rd = deck[id_] >> 2; cnt[deck[id_] & 3] += 1
                        sm[deck[id_] & 3] |= 1u << rd
                        qd = qc + T.c4[rd]
                        # A suit that already flushes with four cards; else only the fifth
                        # card's suit can reach its need (two suits cannot both hold three).
                        four = -1
                        for i in range(4):
                            if cnt[i] >= need_suit[i]:
                                four = i
                        for ie in range(id_ + 1, m):
                            re = deck[ie] >> 2
                            s = deck[ie] & 3
                            q = qd + T.c5[re]
                            flushy = four
                            if flushy < 0 and cnt[s] + 1 >= need_suit[s]:
                                flushy = s
                            if flushy < 0:
                                qcount[q] += 1
                            else:
                                flush_board(g, hands, q, flushy,
                                            sm[flushy] | ((1u << re) if flushy == s else 0),
                                            nf, lows, counts, hi, lo)
                                deals += 1
                        cnt[deck[id_] & 3] -= 1; sm[deck[id_] & 3] &= ~(1u << rd)
                    cnt[deck[ic] & 3] -= 1; sm[deck[ic] & 3] &= ~(1u << rc)
                cnt[deck[ib] & 3] -= 1; sm[deck[ib] & 3] &= ~(1u << rb)
            cnt[deck[ia] & 3] -= 1; sm[deck[ia] & 3] &= ~(1u << ra)
    elif k == 1 or k == 2:
        # Flop or turn: the board's rank multiset is the known ranks plus one or two more,
        # so only 13 or 91 multisets occur; precompute those and count boards per multiset.
        suit_needs(g, hands, need_suit)
        for i in range(nb):
            known[i] = board[i] >> 2
            cnt[board[i] & 3] += 1
            sm[board[i] & 3] |= 1u << (board[i] >> 2)
        for ra in range(13):
            for rb in range(ra if k == 2 else 12, 13):
                for i in range(nb):
                    rr[i] = known[i]
                rr[nb] = ra
                if k == 2:
                    rr[4] = rb
                sort5(rr)
                q = quint(rr)
                qidx[ra * 13 + rb] = q
                qcount[q] = 0
                if QVALID[q]:
                    precompute_q(g, hands, q, nf, lows, outcome)
        for ia in range(m):
            ra = deck[ia] >> 2
            s = deck[ia] & 3
            cnt[s] += 1
            sm[s] |= 1u << ra
            for ib in range(ia + 1 if k == 2 else m - 1, m):
                if k == 2:
                    rb = deck[ib] >> 2
                    cnt[deck[ib] & 3] += 1
                    sm[deck[ib] & 3] |= 1u << rb
                    q = qidx[ra * 13 + rb]          # ranks ascend with the cards
                else:
                    q = qidx[ra * 13 + 12]
                flushy = -1
                for i in range(4):
                    if cnt[i] >= need_suit[i]:
                        flushy = i
                if flushy < 0:
                    qcount[q] += 1
                else:
                    flush_board(g, hands, q, flushy, sm[flushy], nf, lows, counts, hi, lo)
                    deals += 1
                if k == 2:
                    cnt[deck[ib] & 3] -= 1
                    sm[deck[ib] & 3] &= ~(1u << rb)
            cnt[s] -= 1
            sm[s] &= ~(1u << ra)
        for i in range(13 * 13):
            if qidx[i] >= 0 and qcount[qidx[i]]:
                q = qidx[i]
                deals += qcount[q]
                for p in range(g.n):
                    counts[outcome[q * g.n + p]] += qcount[q]
                qcount[q] = 0
        return deals
    else:
        for i in range(nb):
            full[i] = board[i]
        for i in range(k):
            idx[i] = i
        while True:
            if k > m:
                break
            for i in range(k):
                full[nb + i] = deck[idx[i]]
            eval_board(g, hands, full, counts, hi, lo)
            deals += 1
            # next combination of k indices out of m
            level = k - 1
            while level >= 0 and idx[level] == m - k + level:
                level -= 1
            if level < 0:
                break
            idx[level] += 1
            for i in range(level + 1, k):
                idx[i] = idx[i - 1] + 1
        return deals
    # expand the rank-only boards
    for q in range(N_QUINT):
        if qcount[q]:
            deals += qcount[q]
            for p in range(g.n):
                counts[outcome[q * g.n + p]] += qcount[q]
    return deals


cdef int64_t count_combos(const Game* g, const unsigned char* cb, Py_ssize_t n_combos,
                          uint64_t base, Hand* hands, const card_t* board, int nb,
                          uint16_t* nf, uint8_t* lows, int* outcome, int64_t* qcount,
                          int64_t* counts, int* hi, int* lo) noexcept nogil:
    """Every set of hands in turn: prepare them, count every board completion."""
    cdef Py_ssize_t ci, per = g.n * g.nh
    cdef int p
    cdef uint64_t used
    cdef int64_t deals = 0
    for ci in range(n_combos):
        used = base
        for p in range(g.n):
            prepare(&hands[p], <const card_t*>(cb + ci * per + p * g.nh), g.nh)
            used |= hands[p].bits
        deals += enumerate_combo(g, hands, board, nb, used, nf, lows, outcome, qcount, counts,
                                 hi, lo)
    return deals


def exact_counts(combos, int n_players, int n_hole, board, dead, bint holdem, bint hilo):
    """Enumerate every board for each set of hands; ``(counts, deals)``.

    ``combos`` holds ``C`` sets of ``n_players`` hands of ``n_hole`` card indices, flat, as
    ``bytes``; ``board`` (0, 3, 4 or 5 cards) and ``dead`` are ``bytes`` too. Every set of
    hands must be disjoint from itself, the board and the dead cards.
    """
    read_bytes(combos, "hands")
    read_bytes(board, "board")
    read_bytes(dead, "dead cards")
    cdef Py_ssize_t nb = len(board), per = n_players * n_hole
    check_game(n_players, n_hole, holdem, nb)
    if len(combos) == 0 or len(combos) % per:
        raise OmahaError(f"hands must be a positive multiple of {per} cards, got {len(combos)}")
    cdef bytes cbytes = combos, bbytes = board, dbytes = dead
    cdef const unsigned char* cb = <const unsigned char*><const char*>cbytes
    cdef const unsigned char* bb = <const unsigned char*><const char*>bbytes
    cdef const unsigned char* db = <const unsigned char*><const char*>dbytes
    cdef uint64_t base = bits_of(bb, nb, "board"), dbits = bits_of(db, len(dead), "dead cards")
    if base & dbits:
        raise OmahaError("a dead card is on the board")
    base |= dbits
    cdef Py_ssize_t n_combos = len(combos) // per, ci
    cdef int p
    for ci in range(n_combos):
        if bits_of(cb + ci * per, per, "hands") & base:
            raise OmahaError("a hand holds a board or dead card")
    if 52 - omaha_popcount32(<uint32_t>(base & 0xFFFFFFFF)) - omaha_popcount32(
            <uint32_t>(base >> 32)) - per < 5 - nb:
        raise OmahaError("not enough cards left to complete the board")
    return exact_core(cb, n_combos, n_players, n_hole, bb, <int>nb, base, holdem, hilo)


cdef tuple exact_core(const unsigned char* cb, Py_ssize_t n_combos, int n_players,
                      int n_hole, const unsigned char* bb, int nb, uint64_t base,
                      bint holdem, bint hilo):
    """The count itself, on input already checked: ``(counts, deals)``."""
    cdef Game g
    g.n = n_players; g.nh = n_hole; g.holdem = holdem; g.hilo = hilo
    g.stride = (n_players + 1) * (n_players + 2)
    cdef carray.array counts = carray.clone(COUNTS_TEMPLATE, n_players * g.stride, True)
    cdef int64_t* cp = <int64_t*>counts.data.as_voidptr
    cdef Hand hands[C_MAX_PLAYERS]
    cdef card_t bcards[5]
    cdef int hi[C_MAX_PLAYERS]
    cdef int lo[C_MAX_PLAYERS]
    cdef int i
    cdef int64_t deals = 0
    for i in range(nb):
        bcards[i] = bb[i]
    cdef uint16_t* nf = <uint16_t*>malloc(N_QUINT * n_players * sizeof(uint16_t))
    cdef uint8_t* lows = <uint8_t*>malloc(N_QUINT * n_players * sizeof(uint8_t))
    cdef int* outcome = <int*>malloc(N_QUINT * n_players * sizeof(int))
    cdef int64_t* qcount = <int64_t*>malloc(N_QUINT * sizeof(int64_t))
    if not nf or not lows or not outcome or not qcount:
        free(nf); free(lows); free(outcome); free(qcount)
        raise MemoryError()
    try:
        # Releasing and retaking the GIL costs about as much as a turn spot's whole count.
        if nb < 4 or n_combos > 16:
            with nogil:
                deals = count_combos(&g, cb, n_combos, base, hands, bcards, nb, nf, lows,
                                     outcome, qcount, cp, hi, lo)
        else:
            deals = count_combos(&g, cb, n_combos, base, hands, bcards, nb, nf, lows,
                                 outcome, qcount, cp, hi, lo)
    finally:
        free(nf); free(lows); free(outcome); free(qcount)
    return counts, deals


cdef int cached_cards(object text, dict parsed, unsigned char* out, int room,
                      uint64_t* bits) except -2:
    """Copy the cached cards of ``text`` into ``out``; their count, or -1 when ``text`` is
    not a ``str`` in the cache or has more than ``room`` cards."""
    if type(text) is not str:
        return -1
    got = parsed.get(text)
    if type(got) is not tuple or len(<tuple>got) < 1 or type((<tuple>got)[0]) is not bytes:
        return -1
    cdef bytes data = (<tuple>got)[0]
    cdef Py_ssize_t m = len(data), i
    if m > room:
        return -1
    cdef const unsigned char* src = <const unsigned char*><const char*>data
    cdef uint64_t b, acc = 0         # recomputed here: the cache is not trusted
    for i in range(m):
        if src[i] > 51:
            return -1
        b = (<uint64_t>1) << src[i]
        if acc & b:
            return -1
        acc |= b
        out[i] = src[i]
    bits[0] = acc
    return <int>m


def exact_text(entries, board, dead, int n_hole, bint holdem, bint hilo, dict parsed):
    """``exact_counts`` for one set of hands given as text, or None to decline.

    ``parsed`` maps card text to ``(card bytes, bit mask)`` (``omaha.equity`` fills it).
    Declines (None) when an entry, the board or the dead cards are not text found there,
    or anything is unusual (counts, shared cards); the caller then takes its general path,
    which gives the answer or the error.
    """
    if type(entries) is not list and type(entries) is not tuple:
        return None
    cdef Py_ssize_t n = len(entries)
    if n < 2 or n > C_MAX_PLAYERS or not (holdem and n_hole == 2 or not holdem and 4 <= n_hole <= 6):
        return None
    cdef unsigned char bb[52]
    cdef unsigned char db[52]
    cdef unsigned char cb[C_MAX_PLAYERS * 6]
    cdef int nb = 0, nd = 0, m, p
    cdef uint64_t bbits = 0, dbits = 0, hbits = 0, used
    if board is not None:
        nb = cached_cards(board, parsed, bb, 5, &bbits)
        if nb < 0:
            return None
    if dead is not None:
        nd = cached_cards(dead, parsed, db, 52, &dbits)
        if nd < 0:
            return None
    if (nb != 0 and nb < 3) or n * n_hole + 5 + nd > 52 or bbits & dbits:
        return None
    used = bbits | dbits
    for p in range(n):
        m = cached_cards(entries[p], parsed, cb + p * n_hole, n_hole, &hbits)
        if m != n_hole or hbits & used:
            return None
        used |= hbits
    return exact_core(cb, 1, <int>n, n_hole, bb, nb, bbits | dbits, holdem, hilo)


# ---------------------------------------------------------------- Monte Carlo

cdef struct Rng:
    uint64_t s[4]
    uint64_t spare          # the low half of the last 64-bit output, not yet used
    bint has_spare


cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15     # splitmix64 constants
cdef uint64_t MIX1 = 0xBF58476D1CE4E5B9
cdef uint64_t MIX2 = 0x94D049BB133111EB
cdef uint64_t CHUNK_MIX = 0xD1B54A32D192ED03


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t splitmix(uint64_t* x) noexcept nogil:
    x[0] += GOLDEN
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * MIX1
    z = (z ^ (z >> 27)) * MIX2
    return z ^ (z >> 31)


cdef inline uint64_t next64(Rng* r) noexcept nogil:
    """xoshiro256**."""
    cdef uint64_t result = rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = rotl(r.s[3], 45)
    return result


cdef inline uint64_t next32(Rng* r) noexcept nogil:
    """32 random bits: each 64-bit output serves two draws."""
    cdef uint64_t x
    if r.has_spare:
        r.has_spare = False
        return r.spare
    x = next64(r)
    r.spare = <uint32_t>x
    r.has_spare = True
    return x >> 32


cdef inline uint32_t below(Rng* r, uint32_t n) noexcept nogil:
    """Uniform in 0..n-1 (Lemire's multiply with rejection: no modulo bias)."""
    cdef uint64_t m = next32(r) * n
    cdef uint32_t low = <uint32_t>m, t
    if low < n:
        t = (-n) % n
        while low < t:
            m = next32(r) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef void seed_stream(Rng* r, uint64_t seed, uint64_t chunk) noexcept nogil:
    cdef uint64_t x = seed ^ (chunk * CHUNK_MIX)
    cdef int i
    splitmix(&x)
    for i in range(4):
        r.s[i] = splitmix(&x)
    r.spare = 0
    r.has_spare = False


def sample_counts(entries, int n_hole, board, dead, bint holdem, bint hilo,
                  uint64_t seed, int64_t samples, int64_t chunk_begin, int64_t chunk_end):
    """Monte Carlo: ``(counts, deals, rejected)`` over chunks ``chunk_begin..chunk_end - 1``.

    ``entries`` is a sequence of ``bytes``, one per player: that player's possible hands,
    ``n_hole`` card indices each, or empty for any hand. A deal draws one hand per player
    uniformly from its entry and rejects the whole draw when two hands share a card (so every
    card-compatible combination is equally likely), then deals the "any hand" players and the
    rest of the board from the cards left (uniform too: as many cards are left every time). Chunk ``j`` draws
    ``min(CHUNK, samples - j * CHUNK)`` deals from its own xoshiro256** stream seeded from
    ``(seed, j)``, so the counts for a seed do not depend on how chunks are split between
    threads.
    """
    cdef tuple ents = tuple(entries)
    cdef int n = len(ents), p, i, k
    read_bytes(board, "board")
    read_bytes(dead, "dead cards")
    check_game(n, n_hole, holdem, len(board))
    if samples < 0 or chunk_begin < 0 or chunk_end < chunk_begin:
        raise OmahaError("bad sample or chunk counts")
    cdef bytes bbytes = board, dbytes = dead, eb
    cdef const unsigned char* bb = <const unsigned char*><const char*>bbytes
    cdef const unsigned char* db = <const unsigned char*><const char*>dbytes
    cdef int nb = len(board)
    cdef uint64_t base = bits_of(bb, nb, "board"), dbits = bits_of(db, len(dead), "dead cards")
    if base & dbits:
        raise OmahaError("a dead card is on the board")
    base |= dbits
    if omaha_popcount32(<uint32_t>(base & 0xFFFFFFFF)) + omaha_popcount32(
            <uint32_t>(base >> 32)) + n * n_hole + 5 - nb > 52:
        raise OmahaError("not enough cards left to deal every hand and the board")
    cdef const unsigned char* ptrs[C_MAX_PLAYERS]
    cdef uint32_t sizes[C_MAX_PLAYERS]
    cdef Py_ssize_t j, m
    for p in range(n):
        read_bytes(ents[p], f"hands of player {p + 1}")
        eb = ents[p]
        m = len(eb)
        if m % n_hole or m // n_hole >= 0xFFFFFFFF:
            raise OmahaError(f"player {p + 1} has a partial hand")
        ptrs[p] = <const unsigned char*><const char*>eb
        sizes[p] = <uint32_t>(m // n_hole)
        for j in range(sizes[p]):
            bits_of(ptrs[p] + j * n_hole, n_hole, f"a hand of player {p + 1}")
    cdef Game g
    g.n = n; g.nh = n_hole; g.holdem = holdem; g.hilo = hilo
    g.stride = (n + 1) * (n + 2)
    cdef carray.array counts = carray.clone(COUNTS_TEMPLATE, n * g.stride, True)
    cdef int64_t* cp = <int64_t*>counts.data.as_voidptr
    cdef Hand hands[C_MAX_PLAYERS]
    cdef Hand fixed[C_MAX_PLAYERS]
    cdef int hi[C_MAX_PLAYERS]
    cdef int lo[C_MAX_PLAYERS]
    cdef card_t cards[6]
    cdef const unsigned char* h
    cdef int64_t chunk, todo, s, deals = 0, rejected = 0, limit, rejected_here
    cdef uint64_t used, hb
    cdef Rng rng
    cdef bint ok, failed = False
    cdef uint32_t c
    cdef bint is_fixed[C_MAX_PLAYERS]
    cdef bint all_fixed = True
    cdef int need_suit[4]
    for p in range(n):
        is_fixed[p] = sizes[p] == 1
        all_fixed = all_fixed and is_fixed[p]
        if sizes[p]:
            for i in range(n_hole):
                cards[i] = ptrs[p][i]
            prepare(&fixed[p], cards, n_hole)
            hands[p] = fixed[p]
    cdef uint16_t* nf = <uint16_t*>malloc(N_QUINT * n * sizeof(uint16_t))
    cdef uint8_t* lows = <uint8_t*>malloc(N_QUINT * n * sizeof(uint8_t))
    cdef int* outcome = <int*>malloc(N_QUINT * n * sizeof(int))
    if not nf or not lows or not outcome:
        free(nf); free(lows); free(outcome)
        raise MemoryError()
    if all_fixed:
        precompute(&g, hands, nf, lows, outcome)
        suit_needs(&g, hands, need_suit)
    else:
        precompute_fixed(&g, hands, is_fixed, nf, lows)
    cdef Hand* batch = <Hand*>malloc(C_BATCH * n * sizeof(Hand))
    cdef card_t* boards = <card_t*>malloc(C_BATCH * 5 * sizeof(card_t))
    cdef Hand* hs
    cdef card_t* full
    cdef int64_t nbatch
    cdef int qs[C_BATCH]
    if not batch or not boards:
        free(nf); free(lows); free(outcome); free(batch); free(boards)
        raise MemoryError()
    for j in range(C_BATCH):
        for p in range(n):
            batch[j * n + p] = hands[p]
    # Without ranges of several hands, the cards left are the same on every deal.
    cdef bint no_ranges = True
    cdef uint64_t fixed_used = base
    cdef card_t deck[52]
    cdef uint32_t left = 0, t, x
    for p in range(n):
        if sizes[p] > 1:
            no_ranges = False
        elif sizes[p] == 1:
            if fixed_used & hands[p].bits:
                free(nf); free(lows); free(outcome); free(batch); free(boards)
                raise OmahaError(f"player {p + 1}'s hand shares a card with another hand, "
                                 "the board or the dead cards")
            fixed_used |= hands[p].bits
    cdef card_t deck0[52]
    for c in range(52):
        if not (fixed_used >> c) & 1:
            deck0[left] = <card_t>c
            left += 1
    if no_ranges and left < <uint32_t>((5 - nb) + n_hole * sum(1 for p in range(n) if sizes[p] == 0)):
        free(nf); free(lows); free(outcome); free(batch); free(boards)
        raise OmahaError("not enough cards left to deal every hand and the board")
    with nogil:
        for chunk in range(chunk_begin, chunk_end):
            todo = samples - chunk * C_CHUNK
            if todo > C_CHUNK:
                todo = C_CHUNK
            if todo <= 0:
                break
            seed_stream(&rng, seed, <uint64_t>chunk)
            for i in range(left):           # each chunk starts from the same deck order
                deck[i] = deck0[i]
            limit = 1000 * todo + 1000000
            rejected_here = 0
            s = 0
            while s < todo and not failed:
                # Draw a batch of deals and prefetch each board's table row, then evaluate:
                # the row reads of sampled hands overlap instead of waiting one by one.
                nbatch = todo - s if todo - s < C_BATCH else C_BATCH
                j = 0
                if no_ranges:
                    # Fixed hands and "any hand" players only: deal the unknown cards by a
                    # partial Fisher-Yates shuffle of the cards left (no rejections).
                    while j < nbatch:
                        hs = batch + j * n
                        full = boards + 5 * j
                        t = 0
                        for p in range(n):
                            if sizes[p] == 0:
                                for i in range(n_hole):
                                    x = t + below(&rng, left - t)
                                    c = deck[x]; deck[x] = deck[t]; deck[t] = <card_t>c
                                    cards[i] = <card_t>c
                                    t += 1
                                prepare(&hs[p], cards, n_hole)
                        for i in range(nb):
                            full[i] = bb[i]
                        for k in range(nb, 5):
                            x = t + below(&rng, left - t)
                            c = deck[x]; deck[x] = deck[t]; deck[t] = <card_t>c
                            full[k] = <card_t>c
                            t += 1
                        qs[j] = prefetch_reads(&g, hs, sizes, full, nf, lows, outcome, all_fixed)
                        j += 1
                while j < nbatch:
                    hs = batch + j * n
                    full = boards + 5 * j
                    used = base
                    ok = True
                    for p in range(n):
                        if sizes[p] == 0:
                            continue        # any hand: drawn below from the cards left
                        if sizes[p] == 1:
                            hb = hs[p].bits
                            if hb & used:
                                ok = False
                                break
                        else:
                            h = ptrs[p] + <Py_ssize_t>below(&rng, sizes[p]) * n_hole
                            hb = 0
                            for i in range(n_hole):
                                hb |= (<uint64_t>1) << h[i]
                            if hb & used:
                                ok = False
                                break
                            prepare(&hs[p], <const card_t*>h, n_hole)
                        used |= hb
                    if not ok:
                        rejected += 1
                        rejected_here += 1
                        if rejected_here > limit:
                            failed = True
                            break
                        continue
                    for p in range(n):
                        if sizes[p] == 0:
                            for i in range(n_hole):
                                c = below(&rng, 52)
                                while (used >> c) & 1:
                                    c = below(&rng, 52)
                                used |= (<uint64_t>1) << c
                                cards[i] = <card_t>c
                            prepare(&hs[p], cards, n_hole)
                    for i in range(nb):
                        full[i] = bb[i]
                    for k in range(nb, 5):
                        c = below(&rng, 52)
                        while (used >> c) & 1:
                            c = below(&rng, 52)
                        used |= (<uint64_t>1) << c
                        full[k] = <card_t>c
                    qs[j] = prefetch_row(full)
                    j += 1
                if failed:
                    break
                for j in range(nbatch):
                    eval_sampled(&g, batch + j * n, is_fixed, boards + 5 * j, qs[j], nf, lows,
                                 outcome, need_suit, all_fixed, cp, hi, lo)
                s += nbatch
            deals += s
            if failed:
                break
    free(nf); free(lows); free(outcome); free(batch); free(boards)
    if failed:
        raise OmahaError("the entries almost never fit together without sharing a card")
    return counts, deals, rejected
