# Type names shared by the compiled modules (pandas _libs style: one place to change them).
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

ctypedef uint8_t card_t        # card index 0..51 = 4 * rank + suit
ctypedef int32_t strength_t    # hand strength: larger wins, equal ties
ctypedef int64_t chips_t       # money: an integer count of the smallest unit
