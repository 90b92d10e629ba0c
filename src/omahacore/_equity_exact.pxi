# Exact enumeration: included by equity.pyx (one module; split for reading).
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
