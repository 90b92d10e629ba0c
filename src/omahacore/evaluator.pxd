# C-level interface of the evaluator, for other compiled modules to cimport.
from libc.stdint cimport uint8_t, uint16_t, uint64_t

from omahacore._types cimport card_t, strength_t

cdef enum:
    N_QUINT = 6188      # rank multisets of size 5 (C(17, 5), 13 of them impossible)
    N_TRIPLE = 455      # rank multisets of size 3
    N_PAIR = 91         # rank multisets of size 2
    N_HIGH = 7462       # distinct high strengths (C4)
    N_LOW = 56          # distinct lows (C5)
    MAX_HOLE = 6
    MAX_BOARD = 5
    ROW = 169           # a board row holds both orders of each hole rank pair: no pair lookup

cdef struct Tables:
    const uint8_t* low_table    # board low mask * 256 + hole low mask -> low strength
    const uint8_t* low_bit      # card -> its low-rank bit (0 for 9..K)
    const uint64_t* card_bit    # byte -> its card bit; bytes > 51 all map to bit 63

cdef void ensure_tables() noexcept
cdef const Tables* tables() noexcept
cdef const uint16_t* board_row(int* ranks) noexcept nogil
cdef void sort5(int* r) noexcept nogil
cdef int read_omaha(object hole, object board, card_t* h, card_t* b, int* n_board) except -1
cdef strength_t flush_high(const card_t* hole, int n_hole,
                           const card_t* board, int n_board) noexcept nogil
cdef strength_t omaha_high(const card_t* hole, int n_hole,
                           const card_t* board, int n_board) noexcept nogil
cdef strength_t omaha_low(const card_t* hole, int n_hole,
                          const card_t* board, int n_board) noexcept nogil
cdef strength_t five_high(const card_t* cards) noexcept nogil
cdef strength_t five_low(const card_t* cards) noexcept nogil
