# Included by evaluator.pyx: the lookup tables, built once at import under the GIL
# (C2-C5 multiset indices, the flush and non-flush five-card ladders, Omaha's board x
# pair table, the eight-or-better low tables, razz and the seven-card high table).

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
