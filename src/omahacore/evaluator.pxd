# C-level interface of the evaluator, for other compiled modules to cimport.
from omahacore._types cimport card_t, strength_t

cdef void ensure_tables() noexcept
cdef strength_t omaha_high(const card_t* hole, int n_hole,
                           const card_t* board, int n_board) noexcept nogil
cdef strength_t omaha_low(const card_t* hole, int n_hole,
                          const card_t* board, int n_board) noexcept nogil
cdef strength_t five_high(const card_t* cards) noexcept nogil
cdef strength_t five_low(const card_t* cards) noexcept nogil
