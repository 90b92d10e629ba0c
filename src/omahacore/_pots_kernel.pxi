# The side-pot kernel (rules P1, P2, S2-S4, K1): plain C over arrays, no Python objects, so it
# runs without the GIL. Included by pots.pyx (the declarations it uses are in pots.pxd).
from libc.stdint cimport INT32_MIN, INT64_MAX, int64_t, uint8_t, uint64_t

from omahacore._types cimport chips_t, strength_t


cdef inline int _popcount(uint64_t x) noexcept nogil:
    # Portable SWAR popcount: MSVC has no __builtin_popcountll.
    x = x - ((x >> 1) & 0x5555555555555555ULL)
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((x * 0x0101010101010101ULL) >> 56)


cdef inline chips_t _mul_div(chips_t a, chips_t b, chips_t c) noexcept nogil:
    """floor(a * b / c) exactly, for 0 <= a, b <= c, c > 0, without 128-bit integers."""
    cdef uint64_t ua = <uint64_t>a, ub = <uint64_t>b, uc = <uint64_t>c, q = 0, r = 0
    cdef int bit
    if ua == 0 or ub == 0:
        return 0
    if ua <= 0xFFFFFFFFFFFFFFFFULL // ub:
        return <chips_t>((ua * ub) // uc)
    # Long multiplication by b's bits, keeping q * c + r == a * (bits of b seen) with r < c;
    # r < c < 2**63 and a <= c keep every step inside 64 bits.
    for bit in range(63, -1, -1):
        q <<= 1
        r <<= 1
        if r >= uc:
            q += 1
            r -= uc
        if (ub >> bit) & 1:
            r += ua
            if r >= uc:
                q += 1
                r -= uc
    return <chips_t>q


cdef inline int build_layers(Py_ssize_t n, const chips_t* contributions, const uint8_t* folded,
                             chips_t dead, chips_t* returned, PotRecord* pots, int* npots,
                             Py_ssize_t* where) noexcept nogil:
    """P1: return the uncalled bet, then cut the rest into pots at the live levels.

    `dead` (table money such as the big blind ante) is nobody's contribution: it goes into
    the main pot, the first pot with chips in it. It is never returned and cuts no level.
    With no other chips in the pots it is the main pot alone, contested by every live player.
    """
    cdef chips_t total = 0, top = -1, second = -1, v, level, prev = 0, amount
    cdef chips_t matched[MAX_PLAYERS]
    cdef chips_t levels[MAX_PLAYERS]
    cdef Py_ssize_t i, j, s, k = 0, arg = 0
    cdef uint64_t eligible, live = 0
    cdef int out = 0
    npots[0] = 0
    if dead < 0:
        return POT_NEGATIVE_DEAD
    for i in range(n):
        v = contributions[i]
        if v < 0:
            where[0] = i
            return POT_NEGATIVE
        if v > INT64_MAX - total:
            return POT_OVERFLOW
        total += v
        returned[i] = 0
        if v > top:
            second = top
            top = v
            arg = i
        elif v > second:
            second = v
    if dead > INT64_MAX - total:
        return POT_OVERFLOW
    returned[arg] = top - (second if second > 0 else 0)
    for i in range(n):
        matched[i] = contributions[i] - returned[i]
        if folded[i]:
            continue
        live |= (<uint64_t>1) << i
        # insertion into the sorted distinct live levels
        j = k
        while j > 0 and levels[j - 1] > matched[i]:
            j -= 1
        if j > 0 and levels[j - 1] == matched[i]:
            continue
        for s in range(k, j, -1):
            levels[s] = levels[s - 1]
        levels[j] = matched[i]
        k += 1
    if k == 0:
        return POT_ALL_FOLDED if total - returned[arg] + dead > 0 else POT_OK
    for j in range(k):
        level = levels[j]
        amount = 0
        eligible = 0
        for i in range(n):
            amount += min(matched[i], level) - min(matched[i], prev)
            if not folded[i] and matched[i] >= level:
                eligible |= (<uint64_t>1) << i
        if j == k - 1:  # folded chips above the highest live level (odd input)
            for i in range(n):
                if matched[i] > level:
                    amount += matched[i] - level
        if amount > 0:
            pots[out].amount = amount
            pots[out].rake = 0
            pots[out].eligible = eligible
            out += 1
        prev = level
    if out > 0:
        pots[0].amount += dead
    elif dead > 0:  # nothing else in the pots: the dead money alone is the main pot
        pots[0].amount = dead
        pots[0].rake = 0
        pots[0].eligible = live
        out = 1
    npots[0] = out
    return POT_OK


cdef inline int _take_rake(chips_t rake, PotRecord* pots, int npots) noexcept nogil:
    """K1: proportional rake per pot, rounded down; the remainder from the main pot onward."""
    cdef chips_t in_pots = 0, taken = 0, room
    cdef int j
    for j in range(npots):
        in_pots += pots[j].amount
    if rake < 0 or rake > in_pots:
        return POT_BAD_RAKE
    if rake == 0:
        return POT_OK
    for j in range(npots):
        pots[j].rake = _mul_div(rake, pots[j].amount, in_pots)
        taken += pots[j].rake
    rake -= taken
    for j in range(npots):
        if rake == 0:
            break
        room = min(pots[j].amount - pots[j].rake, rake)
        pots[j].rake += room
        rake -= room
    return POT_OK


cdef inline void _split(chips_t half, uint64_t winners, uint64_t had_odd, Py_ssize_t n,
                        const int64_t* order, chips_t* base, uint64_t* odd) noexcept nogil:
    """S2/S3: equal shares; odd chips one each in `order`, winners without one first."""
    cdef int count = _popcount(winners), rounds
    cdef chips_t left
    cdef Py_ssize_t t
    cdef uint64_t bit
    odd[0] = 0
    if count == 0:
        base[0] = 0
        return
    base[0] = half // count
    left = half % count
    for rounds in range(2):
        for t in range(n):
            if left == 0:
                return
            bit = (<uint64_t>1) << (order[t] if order != NULL else t)
            if (winners & bit) and ((had_odd & bit) != 0) == (rounds == 1):
                odd[0] |= bit
                left -= 1


cdef inline void _pay(uint64_t winners, uint64_t odd, chips_t base, Py_ssize_t n,
                      chips_t* payouts) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if (winners >> i) & 1:
            payouts[i] += base + <chips_t>((odd >> i) & 1)


cdef inline void _award(PotRecord* pot, Py_ssize_t n, const strength_t* high, const strength_t* low,
                 const int64_t* order, chips_t* payouts) noexcept nogil:
    """P2/S2/S3/S4: award one pot on its own."""
    cdef chips_t net = pot.amount - pot.rake, low_half = 0
    cdef uint64_t eligible = pot.eligible, high_winners = 0, low_winners = 0, bit
    cdef strength_t best_high = INT32_MIN, best_low = 0
    cdef Py_ssize_t i
    if (eligible & (eligible - 1)) == 0:  # S4: one eligible player, nothing to compare
        high_winners = eligible
    else:
        for i in range(n):
            bit = (<uint64_t>1) << i
            if not (eligible & bit):
                continue
            if high[i] > best_high:
                best_high = high[i]
                high_winners = bit
            elif high[i] == best_high:
                high_winners |= bit
            if low != NULL and low[i] > 0:
                if low[i] > best_low:
                    best_low = low[i]
                    low_winners = bit
                elif low[i] == best_low:
                    low_winners |= bit
        if low_winners:
            low_half = net // 2  # the halving chip stays with the high half
    _split(net - low_half, high_winners, 0, n, order, &pot.high_base, &pot.high_odd)
    _split(low_half, low_winners, pot.high_odd, n, order, &pot.low_base, &pot.low_odd)
    pot.high_winners = high_winners
    pot.low_winners = low_winners
    _pay(high_winners, pot.high_odd, pot.high_base, n, payouts)
    _pay(low_winners, pot.low_odd, pot.low_base, n, payouts)


cdef int settle_kernel(Py_ssize_t n, const chips_t* contributions, const uint8_t* folded,
                       const strength_t* high, const strength_t* low,
                       const int64_t* order, chips_t rake, chips_t dead,
                       chips_t* payouts, chips_t* returned, PotRecord* pots, int* npots,
                       Py_ssize_t* where) noexcept nogil:
    """Whole settlement of one hand; `order` and `low` may be NULL (identity, high-only);
    `dead` is table money for the main pot (see build_layers)."""
    cdef int status, j
    cdef Py_ssize_t i
    cdef uint64_t seen = 0, bit
    if order != NULL:
        for i in range(n):
            if order[i] < 0 or order[i] >= n:
                where[0] = i
                return POT_BAD_ORDER
            bit = (<uint64_t>1) << order[i]
            if seen & bit:
                where[0] = i
                return POT_BAD_ORDER
            seen |= bit
    if low != NULL:
        for i in range(n):
            if low[i] < 0:
                where[0] = i
                return POT_NEGATIVE_LOW
    status = build_layers(n, contributions, folded, dead, returned, pots, npots, where)
    if status != POT_OK:
        return status
    status = _take_rake(rake, pots, npots[0])
    if status != POT_OK:
        return status
    for i in range(n):
        payouts[i] = returned[i]
    for j in range(npots[0]):
        _award(&pots[j], n, high, low, order, payouts)
    return POT_OK
