# Monte Carlo sampling: included by equity.pyx (one module; split for reading).
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


cdef inline void deal(Rng* r, card_t* deck, uint32_t left, uint32_t k) noexcept nogil:
    """Partial Fisher-Yates shuffle of the ``left`` cards in ``deck``: ``deck[0..k-1]``
    become ``k`` uniform distinct cards, drawn as sample_counts' general loop draws them."""
    cdef uint32_t t, x
    cdef card_t c
    for t in range(k):
        x = t + below(r, left - t)
        c = deck[x]; deck[x] = deck[t]; deck[t] = c


cdef void seed_stream(Rng* r, uint64_t seed, uint64_t chunk) noexcept nogil:
    cdef uint64_t x = seed ^ (chunk * CHUNK_MIX)
    cdef int i
    splitmix(&x)
    for i in range(4):
        r.s[i] = splitmix(&x)
    r.spare = 0
    r.has_spare = False


# ---------------------------------------------------------------- a known hand vs any hand
# Heads-up, a known hand against a random one: the random hand's non-flush high only matters
# as beating, tying or losing to the known hand's on the board's rank multiset, so it is
# whether some hole rank pair of the random hand beats or ties it. Two 91-bit masks per
# multiset (32 bytes, one cache line) answer that for every pair at once: 198 KB that stay
# in L2 where the evaluator's 2 MB board rows do not, and no per-deal hand preparation. A
# random flush is compared on its own; a deal where the known hand's high is a flush (the
# masks compare with its non-flush high) is evaluated in full.

cdef struct PairMasks:
    uint64_t beats[2]              # bit k: unordered rank pair k beats the known hand
    uint64_t ties[2]               # ... ties it

cdef uint64_t PAIR_BIT[2][169]     # rank pair (either order) -> its bit in a 91-bit mask


cdef void build_pair_bits() noexcept nogil:
    cdef int a, b, k = 0
    for a in range(13):
        for b in range(a, 13):
            PAIR_BIT[0][a * 13 + b] = PAIR_BIT[0][b * 13 + a] = (
                (<uint64_t>1) << k if k < 64 else 0)
            PAIR_BIT[1][a * 13 + b] = PAIR_BIT[1][b * 13 + a] = (
                (<uint64_t>1) << (k - 64) if k >= 64 else 0)
            k += 1


build_pair_bits()


cdef void build_pair_masks(const Game* g, const uint16_t* nf, int known,
                           PairMasks* masks) noexcept nogil:
    """``masks[q]``: which rank pairs' non-flush high on multiset ``q`` beat or tie the known
    hand's (``nf[q * 2 + known]``). A Hold'em pair's high also takes each card alone (H1)."""
    cdef int q, a, b, off
    cdef uint16_t v, hv
    cdef const uint16_t* row
    memset(masks, 0, N_QUINT * sizeof(PairMasks))
    for q in range(N_QUINT):
        if not QVALID[q]:
            continue
        hv = nf[q * 2 + known]
        row = T.board5 + q * ROW
        for a in range(13):
            for b in range(a, 13):
                off = a * 13 + b
                v = row[off]
                if g.holdem:
                    if H1[q * 13 + a] > v:
                        v = H1[q * 13 + a]
                    if H1[q * 13 + b] > v:
                        v = H1[q * 13 + b]
                if v > hv:
                    masks[q].beats[0] |= PAIR_BIT[0][off]
                    masks[q].beats[1] |= PAIR_BIT[1][off]
                elif v == hv:
                    masks[q].ties[0] |= PAIR_BIT[0][off]
                    masks[q].ties[1] |= PAIR_BIT[1][off]


cdef inline bint can_flush(bint holdem, int in_hand, int on_board) noexcept nogil:
    """Whether a hand with ``in_hand`` cards of a suit flushes with ``on_board`` (3+) of it:
    Omaha plays exactly two hole cards (C4), Hold'em any number."""
    return in_hand + on_board >= 5 if holdem else in_hand >= 2


cdef struct VsAny:
    int q                          # the board's rank multiset
    uint32_t lowmask               # the random hand's low ranks
    int flush                      # the random hand's flush, 0 if none
    uint64_t pairs[2]              # the random hand's rank pairs, as PAIR_BIT masks


cdef inline bint read_vs_any(const Game* g, const card_t* drawn, const card_t* bb, int nb,
                             const Hand* known, const uint16_t* nf, int k,
                             const PairMasks* masks, VsAny* out) noexcept nogil:
    """Read a heads-up deal of the known hand (player ``k``) against the random hand
    ``drawn[0..nh-1]``, the board being ``bb`` then ``drawn[nh..]``, and start loading its
    mask and low cells. Returns False when the known hand's high is a flush (the masks
    compare with its non-flush high): the caller then evaluates the deal in full."""
    cdef int r[5]
    cdef int hr[6]
    cdef uint32_t triples[10]
    cdef int i, j, q, nh = g.nh, suit, count, nt = 0
    cdef uint32_t c, lanes = 0, three, lowmask = 0, smask
    cdef uint64_t pb0 = 0, pb1 = 0, board_ranks = 0, hand_ranks = 0
    for i in range(5):
        c = bb[i] if i < nb else drawn[nh + i - nb]
        r[i] = c >> 2
        lanes += 1u << ((c & 3) * 8)
        board_ranks |= (<uint64_t>1) << ((c & 3) * 16 + (c >> 2))
    for i in range(nh):
        c = drawn[i]
        hr[i] = c >> 2
        hand_ranks |= (<uint64_t>1) << ((c & 3) * 16 + (c >> 2))
        lowmask |= T.low_bit[c]
    sort5(r)
    q = quint(r)
    omaha_prefetch(&masks[q])
    if g.hilo and not g.holdem:
        omaha_prefetch(T.low_table + QLOW[q] * 256 + lowmask)
    out.flush = 0
    three = (lanes + 0x05050505u) & 0x08080808u   # the suit lane (at most one) with 3+ cards
    if three:
        suit = (three > 0xFF) + (three > 0xFFFF) + (three > 0xFFFFFF)
        count = (lanes >> (8 * suit)) & 0xFF
        smask = <uint32_t>(board_ranks >> (16 * suit)) & 0x1FFF
        if not g.holdem:
            nt = board_triples(smask, triples)
        if can_flush(g.holdem, known.suit_count[suit], count) and flush_high(
                g, known, suit, smask, triples, nt) > nf[q * 2 + k]:
            return False
        c = <uint32_t>(hand_ranks >> (16 * suit)) & 0x1FFF
        if can_flush(g.holdem, omaha_popcount32(c), count):
            out.flush = suited_high(g.holdem, c, smask, triples, nt)
    for i in range(nh):
        for j in range(i + 1, nh):
            pb0 |= PAIR_BIT[0][hr[i] * 13 + hr[j]]
            pb1 |= PAIR_BIT[1][hr[i] * 13 + hr[j]]
    out.q = q
    out.lowmask = lowmask
    out.pairs[0] = pb0
    out.pairs[1] = pb1
    return True


cdef inline void count_vs_any(const Game* g, const VsAny* d, int known,
                              const PairMasks* masks, const uint16_t* nf, const uint8_t* lows,
                              int64_t* tally) noexcept nogil:
    """Tally a deal read by ``read_vs_any`` by the known hand's outcome ``high * 4 + low``
    (add_deal's numbering); the random hand's outcome mirrors it. Branch-free: who wins is
    a coin flip the branch predictor cannot learn."""
    cdef int q = d.q, hv = nf[q * 2 + known], lo_known, lo_any
    cdef const PairMasks* m = &masks[q]
    # the random hand's high is the larger of its non-flush high (the masks) and its flush
    cdef bint beats = (((d.pairs[0] & m.beats[0]) | (d.pairs[1] & m.beats[1])) != 0
                       ) | (d.flush > hv)
    cdef bint ties = (((d.pairs[0] & m.ties[0]) | (d.pairs[1] & m.ties[1])) != 0
                      ) | (d.flush == hv)
    cdef int ih = (1 + ties) * (1 - beats)       # 0 lost, 1 won, 2 tied
    cdef int il = 3                              # no low
    if g.hilo:
        lo_known = lows[q * 2 + known]
        lo_any = (HLOW[QLOW[q] | d.lowmask] if g.holdem
                  else T.low_table[QLOW[q] * 256 + d.lowmask])
        il = (lo_known > lo_any) + 2 * (lo_known == lo_any) + ((lo_known | lo_any) == 0)
    tally[ih * 4 + il] += 1


cdef void sample_vs_any(const Game* g, Rng* rng, card_t* deck,
                        uint32_t left, int64_t todo, const card_t* bb, int nb, int known,
                        const Hand* hands, const PairMasks* masks, const uint16_t* nf,
                        const uint8_t* lows, int64_t* tally, int64_t* counts, int* hi,
                        int* lo) noexcept nogil:
    """``todo`` heads-up deals of the known hand (player ``known``) against any hand, dealt
    as the general loop deals them (the random hand, then the board): read a batch (starting
    its mask loads), then tally it."""
    cdef VsAny fast[C_BATCH]
    cdef Hand hs[2]
    cdef card_t full[5]
    cdef int64_t s = 0
    cdef int fj, i, nh = g.nh
    hs[known] = hands[known]
    while s < todo:
        fj = 0
        while fj < C_BATCH and s < todo:
            deal(rng, deck, left, nh + 5 - nb)
            s += 1
            if read_vs_any(g, deck, bb, nb, &hands[known], nf, known, masks, &fast[fj]):
                fj += 1
                continue
            # the known hand's high is a flush: evaluate the deal in full (eval_board, not
            # eval_sampled: a second call site keeps eval_sampled out of sample_counts' loop)
            prepare(&hs[1 - known], deck, nh)
            for i in range(5):
                full[i] = bb[i] if i < nb else deck[nh + i - nb]
            eval_board(g, hs, full, counts, hi, lo)
        for i in range(fj):
            count_vs_any(g, &fast[i], known, masks, nf, lows, tally)


cdef void add_tally(const Game* g, const int64_t* tally, int known, int64_t* counts) noexcept nogil:
    """Add the known hand's outcome tally to both players' counts (heads-up: mirrored)."""
    cdef int ih, il
    for ih in range(3):
        for il in range(4):
            counts[known * g.stride + ih * 4 + il] += tally[ih * 4 + il]
            counts[(1 - known) * g.stride + (2 if ih == 2 else 1 - ih) * 4
                   + (il if il >= 2 else 1 - il)] += tally[ih * 4 + il]


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
    threads. Heads-up, a known hand against any hand, a call of ``VS_ANY_MIN`` deals or more
    counts them with pair masks (see ``read_vs_any``): the same cards, the same counts.
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
    cdef int n_any = 0, known = -1
    for p in range(n):
        if sizes[p] == 0:
            n_any += 1
        else:
            known = p
    # Heads-up, a known hand vs any hand: the pair masks cost about a millisecond to build,
    # worth it from a few tens of thousands of deals on.
    cdef bint vs_any = no_ranges and n == 2 and n_any == 1 and (
        min(samples, chunk_end * <int64_t>C_CHUNK) - chunk_begin * <int64_t>C_CHUNK >= C_VS_ANY_MIN)
    cdef void* masks_mem = NULL
    cdef PairMasks* masks = NULL
    cdef int64_t tally[12]
    memset(tally, 0, sizeof(tally))
    if vs_any:
        masks_mem = malloc(N_QUINT * sizeof(PairMasks) + 64)
        if not masks_mem:
            free(nf); free(lows); free(outcome); free(batch); free(boards)
            raise MemoryError()
        masks = <PairMasks*>((<size_t>masks_mem + 63) & ~(<size_t>63))   # each in one line
        build_pair_masks(&g, nf, known, masks)
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
                if vs_any:
                    sample_vs_any(&g, &rng, deck, left, todo, bb, nb, known, hands,
                                  masks, nf, lows, tally, cp, hi, lo)
                    s = todo
                    break
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
    if vs_any:
        add_tally(&g, tally, known, cp)
    free(nf); free(lows); free(outcome); free(batch); free(boards); free(masks_mem)
    if failed:
        raise OmahaError("the entries almost never fit together without sharing a card")
    return counts, deals, rejected
