# Declarations of the ICM module (issue 25): exact Malmuth-Harville equities by a dynamic
# programme over the subsets of players already placed, and a sampled estimate (Plackett-Luce
# finishing orders from a seeded xoshiro256** generator). The kernels are plain C over arrays
# of doubles, run without the GIL; icm.pyx reads and checks the Python input first.
from libc.stdint cimport int64_t, uint32_t, uint64_t

cdef enum:
    EXACT_LIMIT = 22            # players with chips for the exact answer: 2**22 doubles (32 MiB)


# Exact equities of the n (1..EXACT_LIMIT) players of weights `w` (all > 0) for the
# prizes `prize[0..m-1]` (1 <= m <= n), added into `out` (n doubles, zeroed by the caller).
# `reach` holds 2**n doubles, zeroed by the caller: reach[mask] ends as the probability that
# the players of `mask` take the first popcount(mask) places, for popcount(mask) < m.
cdef void exact_kernel(int n, const double* w, int m, const double* prize, double* reach,
                       double* out) noexcept nogil


# `samples` finishing orders of the n (>= 1) players with chips `w` (all > 0, adding up to at
# most 2**63-1), drawn place by place (Plackett-Luce / Harville) for the first m places
# (1 <= m <= n): player i's prize of each sample is added into total[i] and its square into
# squares[i] (n doubles each, zeroed by the caller). Scratch: `tree` and `pristine` n + 1
# int64s, `placed` n zeroed bytes, `chosen` m entries.
cdef void sample_kernel(Py_ssize_t n, const int64_t* w, Py_ssize_t m, const double* prize,
                        int64_t samples, uint64_t seed, double* total, double* squares,
                        int64_t* tree, int64_t* pristine, unsigned char* placed,
                        Py_ssize_t* chosen) noexcept nogil
