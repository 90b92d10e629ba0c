# Included by solver.pyx: the leaf kernels. The opponent's reach folded into sums per card
# set (inclusion-exclusion gives each hand the mass it can meet), the showdown sweeps in
# order of strength, and the chunked sums the threads share.

cdef inline void _add(double* acc, const Side* s, const uint8_t* h, int j,
                      double x) noexcept nogil:
    """Add mass ``x`` of hand ``j`` (cards ``h``) to the sums of each of its proper subsets."""
    cdef const int32_t* sub
    cdef int q
    cdef int64_t a, b, c, d
    if s.k == 4:    # the slots of four-card hands, from the cards: no table per hand to read
        a = h[0]; b = h[1]; c = h[2]; d = h[3]
        acc[a] += x; acc[b] += x; acc[c] += x; acc[d] += x
        acc[P2 + a + B2[b]] += x; acc[P2 + a + B2[c]] += x; acc[P2 + a + B2[d]] += x
        acc[P2 + b + B2[c]] += x; acc[P2 + b + B2[d]] += x; acc[P2 + c + B2[d]] += x
        acc[P3 + a + B2[b] + B3[c]] += x; acc[P3 + a + B2[b] + B3[d]] += x
        acc[P3 + a + B2[c] + B3[d]] += x; acc[P3 + b + B2[c] + B3[d]] += x
        return
    sub = &s.subset[<int64_t>j * s.nsub]
    for q in range(s.nsub):
        acc[sub[q]] += x


cdef inline double _clash4(const double* acc, const uint8_t* h) noexcept nogil:
    """:func:`_clash` of a four-card hand, summed as a tree (short chains of additions)."""
    cdef int64_t a = h[0], b = h[1], c = h[2], d = h[3]
    return (((acc[a] + acc[b]) + (acc[c] + acc[d]))
            - (((acc[P2 + a + B2[b]] + acc[P2 + a + B2[c]]) + acc[P2 + a + B2[d]])
               + ((acc[P2 + b + B2[c]] + acc[P2 + b + B2[d]]) + acc[P2 + c + B2[d]]))
            + ((acc[P3 + a + B2[b] + B3[c]] + acc[P3 + a + B2[b] + B3[d]])
               + (acc[P3 + a + B2[c] + B3[d]] + acc[P3 + b + B2[c] + B3[d]])))


cdef inline double _clash(const double* acc, const Side* s, const uint8_t* h, int i,
                          const double* signs) noexcept nogil:
    """The opponent mass in ``acc`` on hands that share at least one card with hand ``i``
    (cards ``h``), less the hand of the very same cards (see ``_twin``)."""
    cdef const int32_t* sub
    cdef double x = 0.0
    cdef int q
    if s.k == 4:
        return _clash4(acc, h)
    sub = &s.subset[<int64_t>i * s.nsub]
    for q in range(s.nsub):
        x += signs[q] * acc[sub[q]]
    return x


cdef inline double _twin(const Side* me, int i, const row_t* m) noexcept nogil:
    """The mass of the opponent's hand made of the same cards as my hand i (0 if none): the
    one set of ``cards`` cards, kept out of ``acc``."""
    cdef int32_t t = me.twin[i]
    return m[t] if t >= 0 else 0.0


cdef void _fold_triples(double* acc) noexcept nogil:
    """Turn the finished sums of four-card hands into one term per three-card set, so that six
    times a hand's clash is the sum of the terms of its four three-card subsets
    (:func:`_clash_folded`): each of its pairs lies in two of them and each of its cards in
    three, so a set's term is six times its own sum, less three times its pairs' and plus
    twice its cards'. Whole multiples keep the sums as exact as the fourteen reads they
    replace (a clash of nothing is exactly 0); one pass over the 22,100 three-card sets saves
    ten reads per hand."""
    cdef int64_t a, b, c, base
    cdef double cards_bc, pair_bc
    for c in range(2, 52):
        for b in range(1, c):
            cards_bc = acc[b] + acc[c]
            pair_bc = acc[P2 + b + B2[c]]
            base = P3 + B2[b] + B3[c]
            for a in range(b):
                acc[base + a] = (6.0 * acc[base + a]
                                 - 3.0 * (acc[P2 + a + B2[b]] + acc[P2 + a + B2[c]] + pair_bc)
                                 + 2.0 * (acc[a] + cards_bc))


cdef inline double _clash_folded(const double* acc, const uint8_t* h) noexcept nogil:
    """Six times :func:`_clash` of a four-card hand, over sums turned by
    :func:`_fold_triples`."""
    cdef int64_t a = h[0], b = h[1], c = h[2], d = h[3]
    cdef int64_t cd = B2[c] + B3[d]
    return (acc[P3 + a + B2[b] + B3[c]] + acc[P3 + a + B2[b] + B3[d]] + acc[P3 + a + cd]
            + acc[P3 + b + cd])


cdef double _added(const Side* op, const row_t* m, double* acc) noexcept nogil:
    """Add every opponent hand's mass to ``acc``; the total mass."""
    cdef int j
    cdef double total = 0.0
    for j in range(op.n):
        if m[j] != 0.0:
            total += m[j]
            _add(acc, op, &op.cards[<int64_t>j * op.k], j, m[j])
    return total


cdef void _compatible_span(const Side* me, const row_t* m, const double* acc, double total,
                           int lo, int hi, const double* signs, double full,
                           row_t* out) noexcept nogil:
    """out[i] for my hands lo..hi-1: the mass in ``acc`` (``total``) that shares no card;
    four-card hands read sums turned by :func:`_fold_triples`."""
    cdef int i
    if me.k == 4:
        for i in range(lo, hi):
            out[i] = ((6.0 * total - _clash_folded(acc, &me.cards[<int64_t>i * 4])) / 6.0
                      - full * _twin(me, i, m))
        return
    for i in range(lo, hi):
        out[i] = (total - _clash(acc, me, &me.cards[<int64_t>i * me.k], i, signs)
                  - full * _twin(me, i, m))


cdef void _compatible(const Side* me, const Side* op, const row_t* m, double* acc,
                      int64_t slots, const double* signs, double full,
                      row_t* out) noexcept nogil:
    """out[i] = mass of the opponent's hands that share no card with my hand i."""
    cdef double total = _added(op, m, acc)
    if op.k == 4:
        _fold_triples(acc)
    _compatible_span(me, m, acc, total, 0, me.n, signs, full, out)
    memset(acc, 0, slots * sizeof(double))


cdef void _sweep(const Side* me, const Side* op, const row_t* m, bint low, bint low_only,
                 double* acc, int64_t slots, const double* signs, double full, row_t* out,
                 row_t* mass) noexcept nogil:
    """out[i] = the compatible opponent mass beaten by hand i plus half the mass it ties
    (by high, or by low with no low the weakest), over opponents with a low if ``low_only``;
    and, when ``mass`` is given (not ``low_only``), the compatible mass in all (see
    :func:`_sweep_span`). What a hi/lo leaf does not read is left unset: with ``low_only``
    the hands that have a low, in the low sweep the hands that have none."""
    cdef const int32_t* mine = me.by_low if low else me.by_high
    cdef const int32_t* theirs = op.by_low if low else op.by_high
    cdef const uint8_t* my_cards = me.cards_low if low else me.cards_high
    cdef const uint8_t* op_cards = op.cards_low if low else op.cards_high
    cdef const int32_t* my_sorted = me.low_sorted if low else me.high_sorted
    cdef const int32_t* op_sorted = op.low_sorted if low else op.high_sorted
    cdef int a, b, i, j, k = op.k, end = me.n, top
    cdef double total = 0.0
    if mass != NULL:
        # My hands stronger than every opponent hand with mass beat all of them (their twin
        # has no mass, or it would tie): their value is the compatible mass, no query.
        top = op.n
        while top > 0 and m[theirs[top - 1]] == 0.0:
            top -= 1
        end = _upper_bound(my_sorted, me.n, op_sorted[top - 1]) if top > 0 else 0
    b = _sweep_span(me, op, m, low, low_only, acc, 0, end, 0, &total, signs, full, out)
    if mass != NULL:
        while b < op.n:
            j = theirs[b]
            if m[j] != 0.0:
                total += m[j]
                _add(acc, op, &op_cards[<int64_t>b * k], j, m[j])
            b += 1
        if k == 4:
            _fold_triples(acc)
            for a in range(me.n):
                i = mine[a]
                mass[i] = ((6.0 * total - _clash_folded(acc, &my_cards[<int64_t>a * 4])) / 6.0
                           - full * _twin(me, i, m))
        else:
            for a in range(me.n):
                i = mine[a]
                mass[i] = (total - _clash(acc, me, &my_cards[<int64_t>a * k], i, signs)
                           - full * _twin(me, i, m))
        for a in range(end, me.n):
            out[mine[a]] = mass[mine[a]]
    memset(acc, 0, slots * sizeof(double))


cdef int _sweep_span(const Side* me, const Side* op, const row_t* m, bint low, bint low_only,
                     double* acc, int a, int end, int b, double* sum, const double* signs,
                     double full, row_t* out) noexcept nogil:
    """The sweep over my hands a..end-1 in order of strength, from the opponent's hand b
    in order with ``acc`` and ``sum[0]`` holding the mass of those before it; returns where
    the opponent's hands stop.

    Both sides are read in order of strength from copies sorted once (keys and cards), so
    the sweep reads them in sequence, once: each group of my hands of one strength is asked
    what it beats, then, if the opponent has hands of that strength, what it beats or ties.
    The opponent's hand of the same cards (the twin) is never in ``acc``: it is taken off
    directly when it is among the hands added."""
    cdef const int32_t* mine = me.by_low if low else me.by_high
    cdef const int32_t* theirs = op.by_low if low else op.by_high
    cdef const int32_t* op_key = op.low if low else op.high
    cdef const int32_t* my_sorted = me.low_sorted if low else me.high_sorted
    cdef const int32_t* op_sorted = op.low_sorted if low else op.high_sorted
    cdef const uint8_t* my_cards = me.cards_low if low else me.cards_high
    cdef const uint8_t* op_cards = op.cards_low if low else op.cards_high
    cdef int c, e, i, j, k = op.k
    cdef int32_t t, key
    cdef double total = sum[0], x
    cdef bint tied, skip
    while a < end:        # one group of my hands of equal strength at a time
        key = my_sorted[a]
        while b < op.n and op_sorted[b] < key:
            j = theirs[b]
            x = m[j]
            if x != 0.0 and (not low_only or op.low[j] > 0):
                total += x
                _add(acc, op, &op_cards[<int64_t>b * k], j, x)
            b += 1
        e = a
        while e < end and my_sorted[e] == key:
            e += 1
        # the leaf reads the low sweep only for hands with a low, and the sweep against lows
        # only for hands without one: the others are not asked
        skip = low and not low_only and key == 0
        if total == 0.0:                # nothing added yet: nothing beaten, no query
            for c in range(a, e):
                out[mine[c]] = 0.0
        elif k == 4 and not low_only and not skip:   # the common case: no checks below
            for c in range(a, e):
                i = mine[c]
                x = total - _clash4(acc, &my_cards[<int64_t>c * 4])
                t = me.twin[i]
                if t >= 0 and op_key[t] < key:
                    x -= full * m[t]
                out[i] = x
        elif not skip:
            for c in range(a, e):       # what each beats
                i = mine[c]
                if low_only and me.low[i] > 0:
                    continue
                x = total - _clash(acc, me, &my_cards[<int64_t>c * k], i, signs)
                t = me.twin[i]
                if t >= 0 and op_key[t] < key and (not low_only or op.low[t] > 0):
                    x -= full * m[t]            # the twin is among the hands added
                out[i] = x
        tied = False
        while b < op.n and op_sorted[b] == key:
            j = theirs[b]
            x = m[j]
            if x != 0.0 and (not low_only or op.low[j] > 0):
                total += x
                _add(acc, op, &op_cards[<int64_t>b * k], j, x)
                tied = True
            b += 1
        if tied and k == 4 and not low_only and not skip:
            for c in range(a, e):
                i = mine[c]
                x = total - _clash4(acc, &my_cards[<int64_t>c * 4])
                t = me.twin[i]
                if t >= 0 and op_key[t] <= key:
                    x -= full * m[t]
                out[i] = 0.5 * (out[i] + x)
            a = e
            continue
        for c in range(a, e):           # half of what each ties
            i = mine[c]
            if not tied or skip or (low_only and me.low[i] > 0):
                continue
            x = total - _clash(acc, me, &my_cards[<int64_t>c * k], i, signs)
            t = me.twin[i]
            if t >= 0 and op_key[t] <= key and (not low_only or op.low[t] > 0):
                x -= full * m[t]
            out[i] = 0.5 * (out[i] + x)
        a = e
    sum[0] = total
    return b


cdef int _upper_bound(const int32_t* keys, int n, int32_t key) noexcept nogil:
    """The first index whose key is more than ``key`` (keys ascending)."""
    cdef int lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] <= key:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef int _lower_bound(const int32_t* keys, int n, int32_t key) noexcept nogil:
    """The first index whose key is at least ``key`` (keys ascending)."""
    cdef int lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef void _chunk_sum(const Side* op, const row_t* m, bint low, bint low_only, double* acc,
                     int b, int end, double* sum) noexcept nogil:
    """The opponent's hands b..end-1 in order of strength added to ``acc`` (zeroed first)
    and their mass to ``sum[0]``."""
    cdef const int32_t* theirs = op.by_low if low else op.by_high
    cdef const uint8_t* op_cards = op.cards_low if low else op.cards_high
    cdef int j
    cdef double x, total = 0.0
    while b < end:
        j = theirs[b]
        x = m[j]
        if x != 0.0 and (not low_only or op.low[j] > 0):
            total += x
            _add(acc, op, &op_cards[<int64_t>b * op.k], j, x)
        b += 1
    sum[0] = total
