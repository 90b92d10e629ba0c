# Declarations of the side-pot module (rules P1, P2, S2-S4, K1): the status codes, the pot
# record and the result classes. Declarations only: the kernel itself (plain C over arrays,
# no Python objects, run without the GIL) is in _pots_kernel.pxi, included by pots.pyx,
# which wraps it for Python (argument checks, result objects, the NumPy batch entry point).
# Players are bits of a uint64, hence MAX_PLAYERS.
from libc.stdint cimport INT32_MIN, INT64_MAX, int64_t, uint8_t, uint64_t
from omahacore._types cimport chips_t, strength_t

cdef enum:
    MAX_PLAYERS = 64

# Kernel status codes; `where` names the offending player / position when it applies.
cdef enum:
    POT_OK = 0
    POT_NEGATIVE = 1        # contributions[where] < 0
    POT_OVERFLOW = 2        # the contributions plus the dead money add up past int64
    POT_BAD_ORDER = 3       # order is not a permutation of range(n); where = position
    POT_NEGATIVE_LOW = 4    # low[where] < 0
    POT_BAD_RAKE = 5        # rake < 0 or above the chips in the pots
    POT_ALL_FOLDED = 6      # chips in the pots but no live player to win them
    POT_NEGATIVE_DEAD = 7   # dead money < 0

ctypedef struct PotRecord:
    chips_t amount          # chips in the pot before rake
    chips_t rake            # part of `amount` taken by the house (K1)
    uint64_t eligible       # bit i set: player i can win this pot (P1)
    uint64_t high_winners
    uint64_t high_odd       # high winners who got one odd chip (S2/S3)
    chips_t high_base       # each high winner gets this, plus 1 if in high_odd
    uint64_t low_winners    # 0 when the pot has no qualifying low
    uint64_t low_odd
    chips_t low_base


# The whole settlement of one hand (P1, P2, S2-S4, K1), for other compiled modules: `order`
# and `low` may be NULL; `pots` needs room for n records. Returns a POT_* status.
cdef int settle_kernel(Py_ssize_t n, const chips_t* contributions, const uint8_t* folded,
                       const strength_t* high, const strength_t* low,
                       const int64_t* order, chips_t rake, chips_t dead,
                       chips_t* payouts, chips_t* returned, PotRecord* pots, int* npots,
                       Py_ssize_t* where) noexcept nogil


cdef class PotLayer:
    cdef readonly object amount
    cdef readonly tuple eligible


cdef class PotAward:
    cdef readonly object amount
    cdef readonly object rake
    cdef readonly tuple eligible
    cdef readonly tuple high_winners
    cdef readonly tuple high_shares
    cdef readonly tuple low_winners
    cdef readonly tuple low_shares


cdef class Settlement:
    cdef Py_ssize_t _n
    cdef int _npots
    cdef chips_t _rake
    cdef chips_t _total
    cdef chips_t* _payouts      # one PyMem block: _n payouts, _n returned, then the records
    cdef chips_t* _returned
    cdef PotRecord* _records    # NULL when built from Python (then _pots is set)
    cdef tuple _pots
    cdef tuple _payouts_t
    cdef tuple _returned_t
    cdef int _alloc(self, Py_ssize_t n, int npots) except -1
