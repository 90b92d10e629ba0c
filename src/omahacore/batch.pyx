# cython: language_level=3, freethreading_compatible=True
"""NumPy batch evaluation of Omaha hands (rules C3-C5), releasing the GIL.

The kernels and tables live in :mod:`omahacore.evaluator`; this module reads many hands at
once from arrays, validating every card (range and duplicates) on the way.
"""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy

from omahacore._types cimport card_t, strength_t
from omahacore.evaluator cimport (
    any_low,
    best_high,
    best_razz,
    MAX_BOARD,
    LOW_SHIFT,
    MAX_HOLE,
    ROW,
    Tables,
    five_high,
    flush_high,
    omaha_high,
    read_omaha,
    sort5,
    tables,
)
from omahacore._input cimport shown
from omahacore.errors import ArrayError, ArrayTypeError, OmahaError

cdef extern from "_bits.h":
    void omaha_prefetch(const void* p) nogil

# The evaluator's table pointers. Cimporting the evaluator imports it first, and its import
# builds every table, so they are complete here; T is set once, below, and only read after.
cdef Tables T = tables()[0]


cdef inline const uint16_t* board_row(int* r) noexcept nogil:
    """The evaluator's table row of a five-card board's ranks (sorted in place)."""
    sort5(r)
    return &T.board5[(r[0] + T.c2[r[1]] + T.c3[r[2]] + T.c4[r[3]] + T.c5[r[4]]) * ROW]


cdef object card_array(object values, str name):
    """``values`` as a C-contiguous uint8 array of card indices, or ArrayError.

    The result is a fresh or read-only-for-us copy: nothing the caller does later changes it,
    and its dtype, shape and contiguity are checked before any kernel runs without the GIL.
    """
    import numpy as np   # a function-level import: `import omaha` stays free of numpy
    if isinstance(values, (str, bytes, bytearray)) or values is None:
        raise ArrayTypeError(f"{name} must be an integer array of card indices, got {shown(values)}")
    try:
        arr = np.asarray(values)
    except Exception as exc:   # ragged nests, hostile __len__/__getitem__/__array__, ...
        raise ArrayError(f"{name} is not a rectangular array of card indices: "
                         f"{type(exc).__name__}: {shown(str(exc))}") from None
    if not isinstance(arr, np.ndarray):
        raise ArrayTypeError(f"{name} must be an integer array of card indices, got {shown(values)}")
    if arr.dtype.kind not in "ui":
        raise ArrayError(f"{name} must be an integer array of card indices (uint8), got dtype {arr.dtype}")
    if arr.dtype != np.uint8 and arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < 0 or hi > 51:
            raise ArrayError(f"{name} holds {lo if lo < 0 else hi}, not a card index 0..51")
    # Always a private copy: another thread may write the caller's array while the kernel
    # runs without the GIL, and a card must not change between its check and its use.
    return np.array(arr, dtype=np.uint8, order="C", copy=True)


cdef struct BoardInfo:
    const uint16_t* row      # BOARD5 row when the board has 5 cards, else NULL
    uint64_t mask            # cards on the board, for the duplicate check
    int flush_suit           # suit with 3+ board cards, or -1 (4 from read_board5: no card has it)
    uint32_t low_row         # board low mask * 256: its LOW_TABLE row (all zero without a low)
    int n_tri                # read_board5: triples of flush-suit board cards ...
    uint16_t tri[10]         # ... as rank masks, for the rare suited holes


cdef bint read_board(const uint8_t* b, int nb, BoardInfo* info) noexcept nogil:
    """Validate a board and precompute what its players share; False if it is invalid."""
    cdef int r[5]
    cdef int counts[4]
    cdef int i
    cdef uint64_t bit
    cdef uint32_t low = 0
    info.mask = (<uint64_t>1) << 63
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    for i in range(nb):
        bit = T.card_bit[b[i]]
        if info.mask & bit:
            return False
        info.mask |= bit
        r[i] = b[i] >> 2
        counts[b[i] & 3] += 1
        low |= T.low_bit[b[i]]
    info.flush_suit = -1
    for i in range(4):
        if counts[i] >= 3:
            info.flush_suit = i
    info.low_row = low * 256
    info.row = NULL
    if nb == 5:
        info.row = board_row(r)
    return True


cdef inline strength_t max6(const uint16_t* row, const uint8_t* h) noexcept nogil:
    """Best of the six hole pairs of a 4-card hole on one board row (the hot path)."""
    cdef uint32_t r0 = h[0] >> 2, r1 = h[1] >> 2, r2 = h[2] >> 2, r3 = h[3] >> 2
    cdef const uint16_t* row0 = row + 13 * r0
    cdef const uint16_t* row1 = row + 13 * r1
    cdef strength_t a = row0[r1]
    cdef strength_t b = row0[r2]
    cdef strength_t c = row0[r3]
    cdef strength_t d = row1[r2]
    cdef strength_t e = row1[r3]
    cdef strength_t f = row[13 * r2 + r3]
    a = a if a > b else b
    c = c if c > d else d
    e = e if e > f else f
    a = a if a > c else c
    return a if a > e else e


cdef enum:
    CHUNK = 128  # rows whose boards are read (and their table rows prefetched) together
    AHEAD = 3    # boards whose table rows are being fetched while one is evaluated


cdef inline void prefetch_board(const BoardInfo* info) noexcept nogil:
    cdef const char* row = <const char*>info.row
    cdef int offset
    for offset in range(0, 2 * ROW, 64):
        omaha_prefetch(row + offset)
    omaha_prefetch(row + 2 * ROW - 1)
    omaha_prefetch(&T.low_table[info.low_row])
    omaha_prefetch(&T.low_table[info.low_row + 128])


cdef void flush_triples(const uint8_t* b, BoardInfo* info) noexcept nogil:
    """The rank masks of every triple of the board's flush-suit cards (C3: 3 from the board)."""
    cdef uint16_t ranks[5]
    cdef int n = 0, i, j, k
    for i in range(5):
        if <int>(b[i] & 3) == info.flush_suit:
            ranks[n] = <uint16_t>(1u << (b[i] >> 2))
            n += 1
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                info.tri[info.n_tri] = ranks[i] | ranks[j] | ranks[k]
                info.n_tri += 1


cdef strength_t flush_best(const uint8_t* h, const BoardInfo* info) noexcept nogil:
    """Best flush from two suited hole cards and a precomputed board triple, 0 if none."""
    cdef uint16_t ranks[4]
    cdef int n = 0, i, j, t
    cdef uint32_t pair
    cdef strength_t best = 0, v
    cdef const uint16_t* flush5 = T.flush5
    for i in range(4):
        if <int>(h[i] & 3) == info.flush_suit:
            ranks[n] = <uint16_t>(1u << (h[i] >> 2))
            n += 1
    for i in range(n):
        for j in range(i + 1, n):
            pair = ranks[i] | ranks[j]
            for t in range(info.n_tri):
                v = flush5[pair | info.tri[t]]
                if v > best:
                    best = v
    return best


cdef inline bint read_board5(const uint8_t* b, BoardInfo* info) noexcept nogil:
    """read_board for five cards without data-dependent branches (the batch hot path)."""
    cdef uint64_t acc = (<uint64_t>1) << 63, bad = 0, x
    cdef uint32_t suits = 0, low = 0, flush
    cdef int r[5]
    cdef int i
    for i in range(5):
        x = T.card_bit[b[i]]
        bad |= acc & x
        acc |= x
        suits += 1u << ((b[i] & 3) << 3)   # one byte per suit counts its cards
        low |= T.low_bit[b[i]]
        r[i] = b[i] >> 2
    if bad:
        return False
    info.mask = acc
    info.low_row = low * 256
    flush = (suits + 0x7D7D7D7Du) & 0x80808080u  # a byte >= 3 gets its top bit set
    info.flush_suit = 4 if flush == 0 else (
        0 if flush & 0x80u else (1 if flush & 0x8000u else (2 if flush & 0x800000u else 3)))
    info.n_tri = 0
    if flush:
        flush_triples(b, info)
    info.row = board_row(r)
    return True


cdef inline Py_ssize_t check_low_run(const uint8_t* holes, Py_ssize_t start, Py_ssize_t stop,
                                     const BoardInfo* info, int32_t* low) noexcept nogil:
    """Validate 4-card holes [start, stop) on one board and, if ``low``, store their lows.

    Returns the first row with a bad or repeated card, else -1. One table load per card gives
    both its bit (for the duplicate test) and its low-rank bit (above the 52 card bits).
    """
    cdef Py_ssize_t row
    cdef const uint8_t* h
    cdef const uint64_t* info_of = T.card_info
    cdef const uint8_t* low_table = T.low_table + info.low_row
    cdef uint64_t board_mask = info.mask, acc, bad, x0, x1, x2, x3
    cdef uint64_t card_bits = (((<uint64_t>1) << LOW_SHIFT) - 1) | ((<uint64_t>1) << 63)
    for row in range(start, stop):
        h = holes + 4 * row
        x0 = info_of[h[0]]; x1 = info_of[h[1]]; x2 = info_of[h[2]]; x3 = info_of[h[3]]
        # Branch-free: a card bit seen twice is bad (every byte > 51 maps to bit 63, which
        # the board mask has set); shared low bits are masked off once at the end.
        acc = board_mask
        bad = acc & x0
        acc |= x0
        bad |= acc & x1
        acc |= x1
        bad |= acc & x2
        acc |= x2
        bad |= acc & x3
        if bad & card_bits:
            return row
        if low != NULL:
            low[row] = low_table[((acc | x3) >> LOW_SHIFT) & 0xFF]
    return -1


cdef inline void high_run(const uint8_t* holes, Py_ssize_t start, Py_ssize_t stop,
                          const BoardInfo* info, int32_t* high) noexcept nogil:
    """High strengths of validated 4-card holes [start, stop) on one 5-card board."""
    cdef Py_ssize_t row
    cdef const uint8_t* h
    cdef const uint16_t* board_row = info.row
    cdef uint32_t fs = <uint32_t>info.flush_suit
    cdef strength_t best, v
    if info.n_tri == 0:   # most boards: no three cards of a suit, no flush to look for
        for row in range(start, stop):
            high[row] = max6(board_row, holes + 4 * row)
        return
    for row in range(start, stop):
        h = holes + 4 * row
        best = max6(board_row, h)
        if ((h[0] & 3) == fs) + ((h[1] & 3) == fs) + ((h[2] & 3) == fs) + ((h[3] & 3) == fs) >= 2:
            v = flush_best(h, info)
            if v > best:
                best = v
        high[row] = best


cdef Py_ssize_t omaha4_kernel(const uint8_t* holes, Py_ssize_t n, const uint8_t* boards,
                              bint shared_board, Py_ssize_t group,
                              int32_t* high, int32_t* low) noexcept nogil:
    """The common case unrolled: 4 hole cards, 5 board cards. Same contract as batch_kernel.

    ``group`` > 0: rows ``g * group .. (g + 1) * group - 1`` share board ``g`` (a table of
    players); 0: one board per row (or one shared), runs of equal boards found on the way.
    Rows go in chunks: first every distinct board of the chunk is read and its table rows
    are prefetched, then the players are evaluated, so the cache misses of one board
    overlap the work on the others instead of stalling each board change.
    """
    cdef BoardInfo infos[CHUNK]
    cdef Py_ssize_t first[CHUNK + 1]   # first row of each board run in the chunk
    cdef Py_ssize_t start, row, stop
    cdef int k, n_infos
    cdef const uint8_t* b
    cdef uint32_t head, prev_head = 0
    cdef uint8_t prev_tail = 0
    cdef Py_ssize_t step = CHUNK if group == 0 else (CHUNK // group if group < CHUNK else 1) * group
    cdef Py_ssize_t g
    start = 0
    while start < n:
        stop = start + step if start + step < n else n
        n_infos = 0
        if group > 0:   # boards known to change every `group` rows: no comparisons
            for g in range(start // group, (stop + group - 1) // group):
                if not read_board5(boards + 5 * g, &infos[n_infos]):
                    return g * group
                if n_infos < AHEAD:
                    prefetch_board(&infos[n_infos])
                first[n_infos] = g * group if g * group > start else start
                n_infos += 1
        for row in range(start, stop if group == 0 else start):
            b = boards if shared_board else boards + 5 * row
            memcpy(&head, b, 4)
            if n_infos == 0 or head != prev_head or b[4] != prev_tail:
                if not read_board5(b, &infos[n_infos]):
                    return row
                if n_infos < AHEAD:
                    prefetch_board(&infos[n_infos])
                first[n_infos] = row
                n_infos += 1
                prev_head = head
                prev_tail = b[4]
        first[n_infos] = stop
        for k in range(n_infos):
            # A few boards ahead only: the core tracks a limited number of misses at once.
            if k + AHEAD < n_infos:
                prefetch_board(&infos[k + AHEAD])
            # One board's players, in three tight loops (few live registers in each).
            row = check_low_run(holes, first[k], first[k + 1], &infos[k], low)
            if row >= 0:
                return row
            if high != NULL:
                high_run(holes, first[k], first[k + 1], &infos[k], high)
        start = stop
    return -1


cdef Py_ssize_t batch_kernel(const uint8_t* holes, Py_ssize_t n, int nh,
                             const uint8_t* boards, int nb, bint shared_board,
                             int32_t* high, int32_t* low) noexcept nogil:
    """Evaluate every row; ``high``/``low`` may be NULL. Returns the first bad row or -1."""
    cdef Py_ssize_t row
    cdef int i, j, suited
    cdef const uint8_t* h
    cdef const uint8_t* b = boards
    cdef const uint8_t* prev = NULL
    cdef BoardInfo info
    cdef uint64_t mask, bit
    cdef uint32_t hl
    cdef strength_t best, v
    for row in range(n):
        h = holes + row * nh
        if not shared_board:
            b = boards + row * nb
        # Deals are often generated a board at a time: reuse the board work across rows.
        if prev == NULL or (b != prev and not same_cards(b, prev, nb)):
            if not read_board(b, nb, &info):
                return row
            prev = b
        mask = info.mask
        hl = 0
        for i in range(nh):
            bit = T.card_bit[h[i]]
            if mask & bit:
                return row
            mask |= bit
            hl |= T.low_bit[h[i]]
        if high != NULL:
            if info.row == NULL:
                best = omaha_high(h, nh, b, nb)
            else:
                if nh == 4:
                    best = max6(info.row, h)
                else:
                    best = 0
                    for i in range(nh):
                        for j in range(i + 1, nh):
                            v = info.row[(h[i] >> 2) * 13 + (h[j] >> 2)]
                            if v > best:
                                best = v
                if info.flush_suit >= 0:
                    suited = 0
                    for i in range(nh):
                        suited += (h[i] & 3) == info.flush_suit
                    if suited >= 2:
                        v = flush_high(h, nh, b, nb)
                        if v > best:
                            best = v
            high[row] = best
        if low != NULL:
            low[row] = T.low_table[info.low_row + hl]
    return -1


cdef inline bint same_cards(const uint8_t* a, const uint8_t* b, int n) noexcept nogil:
    cdef uint32_t x, y
    cdef int i
    if n == 5:  # one unaligned 4-byte load each instead of four byte compares
        memcpy(&x, a, 4)
        memcpy(&y, b, 4)
        return x == y and a[4] == b[4]
    for i in range(n):
        if a[i] != b[i]:
            return False
    return True


cdef tuple run_batch(object holes, object boards, bint want_high, bint want_low):
    import numpy as np
    cdef object h = card_array(holes, "holes")
    cdef object b = card_array(boards, "boards")
    cdef tuple hole_shape = h.shape, board_shape = b.shape
    cdef Py_ssize_t group = 0
    cdef tuple out_shape
    if h.ndim == 3:   # tables: (tables, players, hole cards) with one board per table
        if b.ndim != 2 or b.shape[0] != h.shape[0]:
            raise ArrayError(f"holes of shape (tables, players, cards) {h.shape} need boards of "
                             f"shape ({h.shape[0]}, 5), got {board_shape}")
        if h.shape[2] < 4 or h.shape[2] > MAX_HOLE:
            raise ArrayError(f"holes must have shape (tables, players, 4-6) with one board "
                             f"per table, got {hole_shape}")
        out_shape = (h.shape[0], h.shape[1])
        group = h.shape[1]
        h = h.reshape(-1, h.shape[2])
    else:
        out_shape = (h.shape[0],) if h.ndim == 2 else ()
    if h.ndim != 2 or h.shape[1] < 4 or h.shape[1] > MAX_HOLE:
        raise ArrayError(f"holes must have shape (N, 4), (N, 5) or (N, 6) (or (tables, players, "
                         f"4-6) with one board per table), got {hole_shape}")
    cdef bint shared = b.ndim == 1
    if shared:
        b = b.reshape(1, -1)
    if b.ndim != 2 or b.shape[1] < 3 or b.shape[1] > MAX_BOARD:
        raise ArrayError(f"boards must have shape (N, 5) or (5,) (3 or 4 columns also allowed), got {board_shape}")
    if group and b.shape[1] != 5 or group and h.shape[1] != 4:
        b = np.ascontiguousarray(np.repeat(b, group, axis=0))   # the general kernel, row by row
        group = 0
    if not shared and not group and b.shape[0] != h.shape[0]:
        raise ArrayError(f"holes has {h.shape[0]} rows but boards has {b.shape[0]}")
    cdef Py_ssize_t n = h.shape[0]
    high = np.empty(n, dtype=np.int32) if want_high else None
    low = np.empty(n, dtype=np.int32) if want_low else None
    cdef int32_t[::1] high_view
    cdef int32_t[::1] low_view
    cdef int32_t* high_ptr = NULL
    cdef int32_t* low_ptr = NULL
    if want_high and n:
        high_view = high
        high_ptr = &high_view[0]
    if want_low and n:
        low_view = low
        low_ptr = &low_view[0]
    cdef const uint8_t[:, ::1] hv = h
    cdef const uint8_t[:, ::1] bv = b
    cdef int nh = h.shape[1], nb = b.shape[1]
    cdef Py_ssize_t bad = -1
    if n and bv.shape[0]:
        with nogil:
            if nh == 4 and nb == 5:
                bad = omaha4_kernel(&hv[0, 0], n, &bv[0, 0], shared, group, high_ptr, low_ptr)
            else:
                bad = batch_kernel(&hv[0, 0], n, nh, &bv[0, 0], nb, shared, high_ptr, low_ptr)
    if bad >= 0:
        if group:
            raise ArrayError(f"table {bad // group}, player {bad % group}: "
                             f"{row_problem(h[bad], b[bad // group])}")
        raise ArrayError(f"row {bad}: {row_problem(h[bad], b[0 if shared else bad])}")
    if high is not None:
        high = high.reshape(out_shape)
    if low is not None:
        low = low.reshape(out_shape)
    return high, low


cdef str row_problem(object hole, object board):
    """Why a row was refused, in the words of the single-hand reader."""
    cdef card_t hb[MAX_HOLE]
    cdef card_t bb[MAX_BOARD]
    cdef int nb
    try:
        read_omaha(hole.tolist(), board.tolist(), hb, bb, &nb)
    except OmahaError as exc:
        return str(exc)
    return "invalid cards"


def evaluate_high_batch(holes, boards):
    """High strengths of many Omaha hands, releasing the GIL.

    ``holes``: integer array (N, 4) (or 5/6 columns) of card indices; ``boards``: (N, 5) or one
    (5,) board shared by every row. Returns an int32 array of length N.

    >>> import numpy as np
    >>> evaluate_high_batch(np.array([[48, 49, 0, 1]], np.uint8), np.array([50, 51, 44, 45, 8], np.uint8))
    array([7452], dtype=int32)
    """
    return run_batch(holes, boards, True, False)[0]


def evaluate_low_batch(holes, boards):
    """Eight-or-better low strengths (0 for none) of many Omaha hands; see evaluate_high_batch."""
    return run_batch(holes, boards, False, True)[1]


def evaluate_hilo_batch(holes, boards):
    """``(high, low)`` int32 arrays for many Omaha hands in one pass."""
    return run_batch(holes, boards, True, True)


def evaluate_five_batch(cards):
    """High strengths of an (N, 5) array of five-card hands."""
    import numpy as np
    cdef object c = card_array(cards, "cards")
    if c.ndim != 2 or c.shape[1] != 5:
        raise ArrayError(f"cards must have shape (N, 5), got {c.shape}")
    cdef Py_ssize_t n = c.shape[0], i, bad = -1
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] ov = out
    cdef const uint8_t[:, ::1] cv = c
    with nogil:
        for i in range(n):
            if not valid_five(&cv[i, 0]):
                bad = i
                break
            ov[i] = five_high(&cv[i, 0])
    if bad >= 0:
        raise ArrayError(f"row {bad}: cards {c[bad].tolist()} are not five distinct card indices 0..51")
    return out


cdef enum BestOf:
    BEST_HIGH = 0
    BEST_LOW = 1
    BEST_RAZZ = 2


cdef object run_best(object cards, int kind):
    """One strength per row of an (N, k) array, 5 <= k <= 7: the best five of the row's cards
    for high, eight-or-better low or razz (E6)."""
    import numpy as np
    cdef object c = card_array(cards, "cards")
    if c.ndim != 2 or not 5 <= c.shape[1] <= 7:
        raise ArrayError(f"cards must have shape (N, 5..7), got {c.shape}")
    cdef Py_ssize_t n = c.shape[0], i, bad = -1
    cdef int k = c.shape[1]
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] ov = out
    cdef const uint8_t[:, ::1] cv = c
    with nogil:
        for i in range(n):
            if not valid_cards(&cv[i, 0], k):
                bad = i
                break
            if kind == BEST_HIGH:
                ov[i] = best_high(&cv[i, 0], k)
            elif kind == BEST_LOW:
                ov[i] = any_low(&cv[i, 0], k)
            else:
                ov[i] = best_razz(&cv[i, 0], k)
    if bad >= 0:
        raise ArrayError(f"row {bad}: cards {c[bad].tolist()} are not {k} distinct card indices 0..51")
    return out


def evaluate_best_batch(cards):
    """Best high strength (C4) of any five of each row's 5-7 cards: seven-card stud and the
    high half of stud hi/lo (E6). ``cards`` has shape (N, 5..7).

    >>> int(evaluate_best_batch([[48, 49, 50, 51, 0, 1, 2]])[0]) > 7000
    True
    """
    return run_best(cards, BEST_HIGH)


def evaluate_best_low_batch(cards):
    """Best eight-or-better low (C5) of any five of each row's 5-7 cards, 0 for none: the low
    half of stud hi/lo (E6)."""
    return run_best(cards, BEST_LOW)


def evaluate_razz_batch(cards):
    """Best ace-to-five low of any five of each row's 5-7 cards, 1..6175: razz (E6)."""
    return run_best(cards, BEST_RAZZ)


cdef bint valid_five(const uint8_t* c) noexcept nogil:
    return valid_cards(c, 5)


cdef bint valid_cards(const uint8_t* c, int k) noexcept nogil:
    cdef uint64_t seen = 0, bit
    cdef int i
    for i in range(k):
        if c[i] > 51:
            return False
        bit = (<uint64_t>1) << c[i]
        if seen & bit:
            return False
        seen |= bit
    return True
