# C-level interface of the evaluator, for other compiled modules to cimport.
from libc.stdint cimport uint8_t, uint16_t, uint64_t

from omahacore._types cimport card_t, strength_t

cdef enum:
    N_QUINT = 6188      # rank multisets of size 5 (C(17, 5), 13 of them impossible)
    N_TRIPLE = 455      # rank multisets of size 3
    N_PAIR = 91         # rank multisets of size 2
    N_HIGH = 7462       # distinct high strengths (C4)
    N_LOW = 56          # distinct lows (C5)
    N_SEVEN = 50388     # C(19, 7): multisets of 7 ranks out of 13
    N_RAZZ = 6175       # distinct ace-to-five lows (E6): every rank multiset but five of a kind
    NO_RAZZ = 0xFFFFFFFF
    MAX_HOLE = 6
    MAX_BOARD = 5
    LOW_SHIFT = 52      # card_info keeps the low-rank bit above the 52 card bits
    ROW = 169           # a board row holds both orders of each hole rank pair: no pair lookup

cdef struct Tables:
    const uint8_t* low_table    # board low mask * 256 + hole low mask -> low strength
    const uint8_t* low_bit      # card -> its low-rank bit (0 for 9..K)
    const uint64_t* card_bit    # byte -> its card bit; bytes > 51 all map to bit 63
    const uint64_t* card_info   # card_bit | low_bit << LOW_SHIFT: validity and low in one load
    const uint16_t* board5      # ROW entries per 5-rank multiset: best non-flush strength
    const uint16_t* flush5      # 13-bit mask of 5 ranks -> flush / straight flush strength
    const uint16_t* c2          # multiset index terms C(r + i, i + 1) for i = 1..4
    const uint16_t* c3
    const uint16_t* c4
    const uint16_t* c5


cdef inline void order2(int* r, int i, int j) noexcept nogil:
    cdef int a = r[i], b = r[j]
    r[i] = a if a < b else b
    r[j] = b if a < b else a


cdef inline void sort5(int* r) noexcept nogil:
    # A 9-comparator sorting network: no data-dependent branches to mispredict.
    order2(r, 0, 1); order2(r, 3, 4); order2(r, 2, 4)
    order2(r, 2, 3); order2(r, 1, 4); order2(r, 0, 3)
    order2(r, 0, 2); order2(r, 1, 3); order2(r, 1, 2)

# The tables are built when the module is imported; tables() only hands out the pointers.
cdef const Tables* tables() noexcept nogil
cdef int read_omaha(object hole, object board, card_t* h, card_t* b, int* n_board) except -1
cdef strength_t flush_high(const card_t* hole, int n_hole,
                           const card_t* board, int n_board) noexcept nogil
cdef strength_t omaha_high(const card_t* hole, int n_hole,
                           const card_t* board, int n_board) noexcept nogil
cdef strength_t omaha_low(const card_t* hole, int n_hole,
                          const card_t* board, int n_board) noexcept nogil
cdef strength_t five_high(const card_t* cards) noexcept nogil
cdef strength_t five_low(const card_t* cards) noexcept nogil
cdef int best_of_any(const card_t* cards, int n, bint low) noexcept nogil
cdef strength_t any_low(const card_t* cards, int n) noexcept nogil
cdef strength_t five_razz(const card_t* cards) noexcept nogil
cdef strength_t best_razz(const card_t* cards, int n) noexcept nogil
cdef strength_t seven_high(const card_t* cards) noexcept nogil
cdef strength_t best_high(const card_t* cards, int n) noexcept nogil
