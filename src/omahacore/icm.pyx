# cython: freethreading_compatible=True
"""ICM (the Independent Chip Model, Malmuth-Harville), compiled: tournament equities.

A player's chance of finishing first is their share of the chips in play; given who finished
above, the chance of taking the next place is their share of the chips left (Harville). The
equity of a player is the sum over places of the chance of that place times its prize.

>>> equities, money = exact([50, 30, 20], [50, 30, 20])
>>> [round(e, 4) for e in equities], money
([38.3929, 32.75, 28.8571], 100)
>>> means, errors, money = sample([50, 30, 20], [50, 30, 20], 20_000, 1)
>>> all(abs(m - e) < 5 * s for m, e, s in zip(means, equities, errors)), money
(True, 100)

Readings (the public :mod:`omaha.icm` documents them for users):

* ``stacks`` are ints from 0 to 2**63-1 adding up to at most 2**63-1 (chips in play), at
  least one of them positive; ``prizes`` are ints from 0 to 2**63-1 by place (first place
  first; they need not decrease), adding up to at most 2**63-1. Neither may be empty.
  ``bool`` is never an int here.
* Prizes beyond the number of players are ignored; the prize money is the sum of the others.
* Players with a zero stack finish below every player with chips: they share the prizes of
  the last places (one per zero stack) equally.
* Equal stacks are equal players: their exact equities are equal to the last bit.
* :func:`exact` works for up to ``EXACT_MAX_PLAYERS`` (22) players with chips: a dynamic
  programme over the subsets of players already placed, O(2**n * n) time and 2**n doubles.
  Above that, :func:`sample` estimates the equities of any field.
"""

from cpython.list cimport PyList_CheckExact
from cpython.long cimport PyLong_AsLongLongAndOverflow, PyLong_AsUnsignedLongLong
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.tuple cimport PyTuple_CheckExact
from libc.math cimport sqrt
from libc.stdint cimport INT64_MAX, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from itertools import islice

from omahacore._input cimport exact_int, shown
from omahacore.errors import IcmError, IcmTypeError

cdef extern from "_bits.h":
    int omaha_popcount32(uint32_t x) nogil

__all__ = ["EXACT_MAX_PLAYERS", "MAX_ITEMS", "MAX_SAMPLES", "exact", "sample"]

EXACT_MAX_PLAYERS = EXACT_LIMIT  # players with chips that exact() takes
MAX_ITEMS = 1_000_000            # players, or prizes, in one call
MAX_SAMPLES = 10 ** 12
cdef Py_ssize_t _MAX_ITEMS = MAX_ITEMS
cdef int64_t _MAX_SAMPLES = MAX_SAMPLES


# ---------------------------------------------------------------- the kernels

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define omaha_icm_ctz32(x) __builtin_ctz(x)
    #else
    static inline int omaha_icm_ctz32(uint32_t x) {
        int i = 0;
        while (!(x & 1u)) { x >>= 1; ++i; }
        return i;
    }
    #endif
    """
    int omaha_icm_ctz32(uint32_t x) nogil


cdef void exact_kernel(int n, const double* w, int m, const double* prize, double* reach,
                       double* out) noexcept nogil:
    cdef uint32_t mask, full = ((<uint32_t>1) << n) - 1, bit, rest
    cdef int i, k
    cdef double p, left, q, t, x
    reach[0] = 1.0
    for mask in range(full + 1):
        p = reach[mask]
        if p == 0.0:        # never reached, or a set of players past the paid places
            continue
        k = omaha_popcount32(mask)
        left = 0.0
        rest = full & ~mask
        while rest:
            left += w[omaha_icm_ctz32(rest)]
            rest &= rest - 1
        q = p / left
        x = prize[k]
        rest = full & ~mask
        if k + 1 < m:
            while rest:
                i = omaha_icm_ctz32(rest)
                bit = rest & (~rest + 1)
                rest ^= bit
                t = q * w[i]
                out[i] += t * x
                reach[mask | bit] += t
        else:
            while rest:
                i = omaha_icm_ctz32(rest)
                rest &= rest - 1
                out[i] += q * w[i] * x


cdef struct Rng:
    uint64_t s[4]


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t _splitmix(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t _next64(Rng* r) noexcept nogil:
    """xoshiro256**."""
    cdef uint64_t result = _rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = _rotl(r.s[3], 45)
    return result


cdef inline int64_t _below(Rng* r, int64_t n) noexcept nogil:
    """Uniform in 0..n-1 (n >= 1): the bits below n's top bit, redrawn while >= n."""
    cdef uint64_t mask = <uint64_t>(n - 1), x
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    mask |= mask >> 32
    x = _next64(r) & mask
    while x >= <uint64_t>n:
        x = _next64(r) & mask
    return <int64_t>x


cdef void sample_kernel(Py_ssize_t n, const int64_t* w, Py_ssize_t m, const double* prize,
                        int64_t samples, uint64_t seed, double* total, double* squares,
                        int64_t* tree, int64_t* pristine, unsigned char* placed,
                        Py_ssize_t* chosen) noexcept nogil:
    # A Fenwick tree of the chips of the players not yet placed, in exact integers (the
    # stacks add up to at most 2**63-1): each place is drawn in O(log n) with chance exactly
    # proportional to the chips left (Plackett-Luce), and the tree is put back from
    # `pristine` along the paths a sample changed.
    cdef Py_ssize_t i, j, k, p, pos, step, top = 1
    cdef int64_t s, u, left
    cdef double x
    cdef Rng rng
    cdef uint64_t state = seed
    for k in range(4):
        rng.s[k] = _splitmix(&state)
    pristine[0] = 0
    for i in range(1, n + 1):
        pristine[i] = w[i - 1]
    for i in range(1, n + 1):
        j = i + (i & -i)
        if j <= n:
            pristine[j] += pristine[i]
    memcpy(tree, pristine, (n + 1) * sizeof(int64_t))
    while top * 2 <= n:
        top *= 2
    for s in range(samples):
        for k in range(m):
            left = 0
            i = n
            while i > 0:
                left += tree[i]
                i -= i & -i
            u = _below(&rng, left)
            pos = 0
            step = top
            while step:
                if pos + step <= n and tree[pos + step] <= u:
                    pos += step
                    u -= tree[pos]
                step >>= 1
            if pos >= n or placed[pos]:     # cannot happen in exact integers; kept safe
                pos = pos if pos < n else n - 1
                p = pos
                while p >= 0 and placed[p]:
                    p -= 1
                if p < 0:           # someone is left: fewer places drawn than players
                    p = pos
                    while placed[p]:
                        p += 1
                pos = p
            chosen[k] = pos
            placed[pos] = 1
            x = prize[k]
            total[pos] += x
            squares[pos] += x * x
            i = pos + 1
            while i <= n:
                tree[i] -= w[pos]
                i += i & -i
        for k in range(m):
            p = chosen[k]
            placed[p] = 0
            i = p + 1
            while i <= n:
                tree[i] = pristine[i]
                i += i & -i


# ---------------------------------------------------------------- reading Python input

cdef tuple _snapshot(object values, str name):
    """A fixed snapshot of ``values`` (an iterator is read one item past the limit at most)."""
    cdef tuple items
    if PyTuple_CheckExact(values):
        items = values
    elif PyList_CheckExact(values):
        items = tuple(values)
    else:
        items = None
        if not isinstance(values, (str, bytes, bytearray, memoryview, dict, set, frozenset,
                                   int, float)):
            try:  # numpy arrays convert to plain ints in one go
                if hasattr(values, "tolist"):
                    values = values.tolist()
                items = tuple(islice(values, _MAX_ITEMS + 1))
            except Exception:
                items = None
        if items is None:
            raise IcmTypeError(f"{name} must be a sequence of ints, got "
                               f"{type(values).__name__}")
    if len(items) == 0:
        raise IcmError(f"{name} is empty: it must list at least one "
                       f"{'player' if name == 'stacks' else 'prize'}")
    if len(items) > _MAX_ITEMS:
        raise IcmError(f"{name} lists more than {_MAX_ITEMS:,} entries")
    return items


cdef int64_t _amount(object item, str name, Py_ssize_t index) except -1:
    """``item`` as an int from 0 to 2**63-1, or an IcmError naming ``name[index]``."""
    cdef int overflow = 0
    cdef long long value
    cdef object exact = exact_int(item)
    if exact is None:
        raise IcmTypeError(f"{name}[{index}] must be an int, got {type(item).__name__} "
                           f"{shown(item)}")
    value = PyLong_AsLongLongAndOverflow(exact, &overflow)
    if overflow > 0:
        raise IcmError(f"{name}[{index}] = {shown(exact)} is above 2**63-1")
    if overflow < 0 or value < 0:
        raise IcmError(f"{name}[{index}] = {shown(exact)} is negative: "
                       f"{'stacks' if name == 'stacks' else 'prizes'} are >= 0")
    return value


cdef class _Field:
    """The checked input of one call, in C buffers: every stack, the players with chips and
    their weights, the prizes they play for and what each zero stack receives."""
    cdef Py_ssize_t n             # players
    cdef int64_t* stacks          # n stacks, in input order
    cdef Py_ssize_t npos          # players with chips
    cdef Py_ssize_t* index        # their positions in the input
    cdef double* w                # their stacks, as weights
    cdef Py_ssize_t m             # places they play for (trailing zero prizes dropped)
    cdef double* prize            # the prizes of those places
    cdef double zero_share        # each zero stack's equal share of the last places' prizes
    cdef object money             # the prize money: the prizes of the first n places

    def __dealloc__(self):
        PyMem_Free(self.stacks)
        PyMem_Free(self.index)
        PyMem_Free(self.w)
        PyMem_Free(self.prize)


cdef _Field _read(object stacks, object prizes):
    cdef tuple s_items = _snapshot(stacks, "stacks")
    cdef tuple p_items = _snapshot(prizes, "prizes")
    cdef Py_ssize_t n = len(s_items), L = len(p_items), i, j, paid
    cdef int64_t v, chips = 0, money = 0, paid_money = 0, zero_money = 0
    cdef _Field f = _Field.__new__(_Field)
    f.n = n
    f.stacks = <int64_t*>PyMem_Malloc(n * sizeof(int64_t))
    f.index = <Py_ssize_t*>PyMem_Malloc(n * sizeof(Py_ssize_t))
    f.w = <double*>PyMem_Malloc(n * sizeof(double))
    f.prize = <double*>PyMem_Malloc(n * sizeof(double))
    if not f.stacks or not f.index or not f.w or not f.prize:
        raise MemoryError()
    f.npos = 0
    for i in range(n):
        v = _amount(s_items[i], "stacks", i)
        if v > INT64_MAX - chips:
            raise IcmError("stacks add up to more than 2**63-1 chips")
        chips += v
        f.stacks[i] = v
        if v > 0:
            f.index[f.npos] = i
            f.w[f.npos] = <double>v
            f.npos += 1
    paid = n if L > n else L
    for i in range(L):
        v = _amount(p_items[i], "prizes", i)
        if v > INT64_MAX - money:
            raise IcmError("prizes add up to more than 2**63-1")
        money += v
        if i < paid:
            paid_money += v
            if i < f.npos:
                f.prize[i] = <double>v
            else:
                zero_money += v
    if f.npos == 0:
        raise IcmError(f"stacks: every one of the {n} stacks is 0; at least one player must "
                       f"have chips")
    f.money = paid_money
    f.m = paid if paid < f.npos else f.npos
    while f.m > 0 and f.prize[f.m - 1] == 0.0:
        f.m -= 1
    f.zero_share = (<double>zero_money / <double>(n - f.npos)) if n > f.npos else 0.0
    return f


cdef int64_t _index(object value, str name, int64_t low, int64_t high) except -1:
    cdef object exact = exact_int(value)
    if exact is None:
        raise IcmTypeError(f"{name} must be an int, got {type(value).__name__} {shown(value)}")
    if exact < low or exact > high:
        raise IcmError(f"{name} must be from {low} to {high:,}, got {shown(exact)}")
    return exact


cdef tuple _spread(_Field f, const double* values, double zero_value):
    """Per-player values of the players with chips back in input order; zero stacks get
    ``zero_value``."""
    cdef list out = [zero_value] * f.n
    cdef Py_ssize_t j
    for j in range(f.npos):
        out[f.index[j]] = values[j]
    return tuple(out)


# ---------------------------------------------------------------- the entry points

def exact(stacks, prizes):
    """Exact Malmuth-Harville equities: ``(equities, prize_money)``.

    ``equities`` has one float per player in input order, adding up to ``prize_money`` (the
    sum of the prizes of the first ``len(stacks)`` places) up to rounding. Raises
    :class:`~omahacore.errors.IcmError` for bad input, or for more than
    ``EXACT_MAX_PLAYERS`` players with chips (then use :func:`sample`).

    >>> exact([1, 1], [3, 1])
    ((2.0, 2.0), 4)
    >>> exact([10, 0, 0], [50, 30, 20, 10])
    ((50.0, 25.0, 25.0), 100)
    """
    cdef _Field f = _read(stacks, prizes)
    cdef int n = <int>f.npos, i, j, k
    cdef double* reach = NULL
    cdef double* out = NULL
    cdef double mean
    if f.npos > EXACT_LIMIT:
        raise IcmError(f"stacks: {f.npos} players with chips is above the exact limit of "
                       f"{EXACT_LIMIT} (2**n subsets); pass samples=N for a sampled "
                       f"estimate")
    try:
        out = <double*>calloc(n, sizeof(double))
        if f.m > 0:
            reach = <double*>calloc((<size_t>1) << n, sizeof(double))
        if not out or (f.m > 0 and not reach):
            raise MemoryError()
        if f.m > 0:
            with nogil:
                exact_kernel(n, f.w, <int>f.m, f.prize, reach, out)
        # equal stacks, equal equities: the mean of each group, to the last bit
        for i in range(n):
            if reach == NULL or f.w[i] < 0:    # w < 0 marks a player already in a group
                continue
            mean = out[i]
            k = 1
            for j in range(i + 1, n):
                if f.stacks[f.index[j]] == f.stacks[f.index[i]]:
                    mean += out[j]
                    k += 1
            if k > 1:
                mean /= k
                for j in range(i + 1, n):
                    if f.stacks[f.index[j]] == f.stacks[f.index[i]]:
                        out[j] = mean
                        f.w[j] = -1.0
                out[i] = mean
        return _spread(f, out, f.zero_share), f.money
    finally:
        free(reach)
        free(out)


def sample(stacks, prizes, samples, seed):
    """Sampled equities: ``(means, standard_errors, prize_money)``.

    Draws ``samples`` (2 to ``MAX_SAMPLES``) finishing orders of the players with chips, place
    by place with chances exactly proportional to the chips left (Plackett-Luce, drawn in
    integers from a Fenwick tree: O(places x log players) a sample), from xoshiro256**
    seeded by ``seed`` (0 to 2**64-1): the same input and seed give the same answer. A mean
    is a player's average prize; its standard error is the sample standard deviation over
    sqrt(samples). Zero stacks receive their share exactly (standard error 0). The GIL is
    released while sampling.

    >>> means, errors, money = sample([1, 0], [7, 3], 10, 5)
    >>> means, errors, money
    ((7.0, 3.0), (0.0, 0.0), 10)
    """
    cdef _Field f = _read(stacks, prizes)
    cdef int64_t count = _index(samples, "samples", 2, _MAX_SAMPLES)
    cdef object seed_int = exact_int(seed)
    cdef uint64_t c_seed
    cdef Py_ssize_t n = f.npos, i, m = f.m
    cdef double* buf = NULL
    cdef int64_t* ibuf = NULL
    cdef double* total
    cdef double* squares
    cdef double* scaled
    cdef unsigned char* placed = NULL
    cdef Py_ssize_t* chosen = NULL
    cdef double scale = 0.0, mean, var, N = <double>count
    if seed_int is None:
        raise IcmTypeError(f"seed must be an int, got {type(seed).__name__} {shown(seed)}")
    if seed_int < 0 or seed_int > 0xFFFFFFFFFFFFFFFF:
        raise IcmError(f"seed must be from 0 to 2**64-1, got {shown(seed_int)}")
    c_seed = PyLong_AsUnsignedLongLong(seed_int)
    try:
        buf = <double*>calloc(3 * n + 1, sizeof(double))
        ibuf = <int64_t*>calloc(3 * n + 2, sizeof(int64_t))
        placed = <unsigned char*>calloc(n, 1)
        chosen = <Py_ssize_t*>calloc(m + 1, sizeof(Py_ssize_t))
        if not buf or not ibuf or not placed or not chosen:
            raise MemoryError()
        total, squares, scaled = buf, buf + n, buf + 2 * n
        for i in range(n):
            ibuf[i] = f.stacks[f.index[i]]
        for i in range(m):   # prizes in units of the largest: squares stay near 1
            if f.prize[i] > scale:
                scale = f.prize[i]
        for i in range(m):
            scaled[i] = f.prize[i] / scale
        if m > 0:
            with nogil:
                sample_kernel(n, ibuf, m, scaled, count, c_seed, total, squares,
                              ibuf + n, ibuf + 2 * n + 1, placed, chosen)
        for i in range(n):
            mean = total[i] / N
            var = (squares[i] - total[i] * mean) / (N - 1.0)
            total[i] = mean * scale
            squares[i] = sqrt(var / N) * scale if var > 0.0 else 0.0
        return _spread(f, total, f.zero_share), _spread(f, squares, 0.0), f.money
    finally:
        free(buf)
        free(ibuf)
        free(placed)
        free(chosen)

