# C-level card reading, cimported by the evaluator.
from omahacore._types cimport card_t

cdef card_t card_value(object item) except? 255
cdef int read_cards(object cards, card_t* out, int low, int high, str what) except -1
cdef int check_distinct(const card_t* cards, int n) except -1
