# The scanner of the compiled PHH fast path (included in phhfast.pyx, one compiled module):
# the TOML subset PHH files are written in, amounts scaled to exact chips, and the optional
# metadata fields checked as the general path checks them. Every function answers False for
# anything outside what it reads, so the caller falls back to the general path.

# --- the TOML subset ---------------------------------------------------------------------

cdef inline int utf8_length(const unsigned char* p, Py_ssize_t i, Py_ssize_t end) noexcept nogil:
    """The length of the valid UTF-8 sequence at p[i] (a byte >= 0x80), or 0: the general
    path decodes the text strictly, so overlongs, surrogates and stray bytes must fall back."""
    cdef unsigned char c = p[i], c1
    cdef int k, n
    if 0xC2 <= c <= 0xDF:
        n = 2
    elif 0xE0 <= c <= 0xEF:
        n = 3
    elif 0xF0 <= c <= 0xF4:
        n = 4
    else:
        return 0
    if i + n > end:
        return 0
    c1 = p[i + 1]
    if (c == 0xE0 and c1 < 0xA0) or (c == 0xED and c1 > 0x9F) or (c == 0xF0 and c1 < 0x90) \
            or (c == 0xF4 and c1 > 0x8F):
        return 0
    for k in range(1, n):
        if p[i + k] & 0xC0 != 0x80:
            return 0
    return n


cdef inline bint text_byte_ok(const unsigned char* p, Py_ssize_t* i, Py_ssize_t end) noexcept nogil:
    """Step over one character of a string or comment (TOML: no control character but tab)."""
    cdef unsigned char c = p[i[0]]
    cdef int k
    if c >= 0x80:
        k = utf8_length(p, i[0], end)
        if k == 0:
            return False
        i[0] += k
        return True
    if (c < 0x20 and c != 9) or c == 0x7F:
        return False
    i[0] += 1
    return True


cdef inline bint skip_comment(Scan* S) noexcept nogil:
    """From a '#' to the end of its line (not past it)."""
    cdef const unsigned char* p = S.p
    S.i += 1
    while S.i < S.end and p[S.i] != 10:
        if p[S.i] == 13:   # only as part of \r\n
            return S.i + 1 < S.end and p[S.i + 1] == 10
        if not text_byte_ok(p, &S.i, S.end):
            return False
    return True


cdef inline bint end_of_line(Scan* S) noexcept nogil:
    """Step over a newline (\\n or \\r\\n) or stay at the end of the text."""
    if S.i >= S.end:
        return True
    if S.p[S.i] == 10:
        S.i += 1
        return True
    if S.p[S.i] == 13 and S.i + 1 < S.end and S.p[S.i + 1] == 10:
        S.i += 2
        return True
    return False


cdef inline void skip_blanks(Scan* S) noexcept nogil:
    while S.i < S.end and (S.p[S.i] == 32 or S.p[S.i] == 9):
        S.i += 1


cdef inline bint word_at(Scan* S, const char* word, int n) noexcept nogil:
    if S.i + n <= S.end and memcmp(S.p + S.i, word, n) == 0:
        S.i += n
        return True
    return False


cdef bint scan_digits(const unsigned char* p, Py_ssize_t* at, Py_ssize_t end, Val* v,
                     bint toml) noexcept nogil:
    """Digits, maybe '.' and at least one digit, exactly: the magnitude (at most 2**63-1) and,
    with a fraction, the mantissa with its trailing zeros dropped. ``toml``: no leading zero
    (TOML's rule; Decimal, which reads ``cbr`` amounts, allows them)."""
    cdef uint64_t num = 0, digit
    cdef Py_ssize_t i = at[0], zeros = 0, digits = 0
    v.kind, v.frac = V_INT, 0
    if i >= end or not 48 <= p[i] <= 57 or (toml and p[i] == 48 and i + 1 < end
                                            and 48 <= p[i + 1] <= 57):
        return False
    while i < end and 48 <= p[i] <= 57:
        digit = p[i] - 48
        if num > (<uint64_t>INT64_MAX - digit) // 10:
            return False
        num = num * 10 + digit
        i += 1
    if i < end and p[i] == 46:   # '.'
        i += 1
        v.kind = V_DEC
        while i < end and 48 <= p[i] <= 57:
            digit = p[i] - 48
            digits += 1
            if digits > 100000:
                return False
            if digit == 0:
                zeros += 1   # held back until a non-zero digit follows
            else:
                while zeros >= 0:
                    if num > (<uint64_t>INT64_MAX - (digit if zeros == 0 else 0)) // 10:
                        return False
                    num = num * 10 + (digit if zeros == 0 else 0)
                    zeros -= 1
                zeros = 0
                v.frac = <int32_t>digits
            i += 1
        if digits == 0:
            return False
    v.num = num
    at[0] = i
    return True


cdef inline bint two_digits(const unsigned char* p, Py_ssize_t i, int high) noexcept nogil:
    return 48 <= p[i] <= 57 and 48 <= p[i + 1] <= 57 and (p[i] - 48) * 10 + p[i + 1] - 48 <= high


cdef bint scan_time(Scan* S) noexcept nogil:
    """A TOML local time as tomllib reads it: HH:MM:SS (00-23, 00-59, 00-59), maybe '.' and
    digits (HandHQ files record the time of day this way)."""
    cdef const unsigned char* p = S.p
    cdef Py_ssize_t i = S.i
    if not (i + 8 <= S.end and p[i + 2] == 58 and p[i + 5] == 58 and two_digits(p, i, 23)
            and two_digits(p, i + 3, 59) and two_digits(p, i + 6, 59)):
        return False
    i += 8
    if i < S.end and p[i] == 46:
        i += 1
        if i >= S.end or not 48 <= p[i] <= 57:
            return False
        while i < S.end and 48 <= p[i] <= 57:
            i += 1
    S.i = i
    return True


cdef bint scan_scalar(Scan* S, Val* v) noexcept nogil:
    """One value other than an array, and the character after it must end it."""
    cdef const unsigned char* p = S.p
    cdef unsigned char c, quote
    if S.i >= S.end:
        return False
    c = p[S.i]
    v.neg = v.frac = 0
    v.num = 0
    if c == 34 or c == 39:   # "basic" or 'literal' (no escapes read: a backslash falls back)
        quote = c
        S.i += 1
        v.kind = V_STR
        v.a = S.i
        while True:
            if S.i >= S.end:
                return False
            c = p[S.i]
            if c == quote:
                break
            if c == 92 and quote == 34:
                return False
            if not text_byte_ok(p, &S.i, S.end):
                return False
        v.b = S.i
        S.i += 1
    elif word_at(S, b"true", 4):
        v.kind, v.num = V_BOOL, 1
    elif word_at(S, b"false", 5):
        v.kind = V_BOOL
    elif word_at(S, b"inf", 3) or word_at(S, b"+inf", 4):
        v.kind = V_INF
    elif scan_time(S):
        v.kind = V_TIME
    elif c == 43 or c == 45 or 48 <= c <= 57:
        if c == 43 or c == 45:
            v.neg = c == 45
            S.i += 1
        if not scan_digits(p, &S.i, S.end, v, True):
            return False
    else:
        return False
    if S.i >= S.end:
        return True
    c = p[S.i]
    return c == 32 or c == 9 or c == 10 or c == 13 or c == 35 or c == 44 or c == 93


cdef bint skip_space(Scan* S) noexcept nogil:
    """Blanks, newlines and comments between array items."""
    cdef unsigned char c
    while S.i < S.end:
        c = S.p[S.i]
        if c == 32 or c == 9:
            S.i += 1
        elif c == 35:
            if not skip_comment(S):
                return False
        elif c == 10 or c == 13:
            if not end_of_line(S):
                return False
        else:
            break
    return True


cdef bint scan_value(Scan* S, Val* v) noexcept nogil:
    """A scalar, or an array of scalars (items in S.items) spanning lines, trailing comma
    allowed."""
    if S.i < S.end and S.p[S.i] == 91:   # [
        S.i += 1
        v.kind = V_ARRAY
        v.a = S.nitems
        v.b = 0
        while True:
            if not skip_space(S) or S.i >= S.end:
                return False
            if S.p[S.i] == 93:
                break
            if S.p[S.i] == 91 or S.nitems >= MAX_ITEMS:   # no nested arrays
                return False
            if not scan_scalar(S, &S.items[S.nitems]):
                return False
            S.nitems += 1
            v.b += 1
            if not skip_space(S) or S.i >= S.end:
                return False
            if S.p[S.i] == 44:
                S.i += 1
            elif S.p[S.i] != 93:
                return False
        S.i += 1
        return True
    return scan_scalar(S, v)


cdef bint scan_text(Scan* S) noexcept nogil:
    """``key = value`` lines, comments and blank lines; every key one of FIELDS, once."""
    cdef const unsigned char* p = S.p
    cdef Py_ssize_t k0
    cdef int f, n
    cdef unsigned char c
    cdef Val v
    while S.i < S.end:
        skip_blanks(S)
        if S.i >= S.end:
            break
        c = p[S.i]
        if c == 35:
            if not skip_comment(S):
                return False
        elif c != 10 and c != 13:
            k0 = S.i
            while S.i < S.end and (48 <= p[S.i] <= 57 or 65 <= p[S.i] <= 90
                                   or 97 <= p[S.i] <= 122 or p[S.i] == 95 or p[S.i] == 45):
                S.i += 1
            n = <int>(S.i - k0)
            for f in range(NFIELDS):
                if KEY_AT[f + 1] - KEY_AT[f] == n and memcmp(p + k0, KEY_TEXT + KEY_AT[f], n) == 0:
                    break
            else:
                return False
            if S.fields[f].kind != V_NONE:   # a key twice
                return False
            skip_blanks(S)
            if S.i >= S.end or p[S.i] != 61:   # =
                return False
            S.i += 1
            skip_blanks(S)
            if not scan_value(S, &v):
                return False
            S.fields[f] = v
            skip_blanks(S)
            if S.i < S.end and p[S.i] == 35 and not skip_comment(S):
                return False
        if not end_of_line(S):
            return False
    return True


# --- amounts -----------------------------------------------------------------------------

cdef inline bint is_amount(const Val* v, bint inf_ok) noexcept nogil:
    """A non-negative number of chips (the general path's whole_chips, with decimals)."""
    if v.kind == V_INF:
        return inf_ok
    return (v.kind == V_INT or v.kind == V_DEC) and not v.neg


cdef inline void note_frac(const Val* v, int32_t* decimals) noexcept nogil:
    if v.kind == V_DEC and v.num and v.frac > decimals[0]:
        decimals[0] = v.frac


cdef bint scaled(const Val* v, int32_t decimals, chips_t* out) noexcept nogil:
    """The amount in units of 10**-decimals, or False past MAX_CHIPS."""
    cdef uint64_t num = v.num
    cdef int32_t shift = decimals - (v.frac if v.kind == V_DEC else 0)
    while shift > 0 and num:
        if num > <uint64_t>INT64_MAX // 10:
            return False
        num *= 10
        shift -= 1
    out[0] = <chips_t>num
    return True


cdef bint scaled_list(Scan* S, const Val* arr, int n, int32_t decimals, bint positive,
                      chips_t* out, uint32_t* inf_mask) noexcept nogil:
    """A per-player array of amounts, scaled; the finite ones total at most MAX_CHIPS."""
    cdef chips_t total = 0
    cdef int k
    cdef const Val* v
    for k in range(n):
        v = &S.items[arr.a + k]
        if v.kind == V_INF:
            inf_mask[0] |= (<uint32_t>1) << k
            out[k] = 0
            continue
        if not scaled(v, decimals, &out[k]) or (positive and out[k] == 0):
            return False
        if out[k] > INT64_MAX - total:
            return False
        total += out[k]
    return True


cdef bint per_player(Scan* S, int f, int n, bint inf_ok, int32_t* decimals) noexcept nogil:
    """Field f is absent or an array of n amounts (inf only where inf_ok)."""
    cdef const Val* arr = &S.fields[f]
    cdef int k
    if arr.kind == V_NONE:
        return True
    if arr.kind != V_ARRAY or arr.b != n:
        return False
    for k in range(n):
        if not is_amount(&S.items[arr.a + k], inf_ok):
            return False
        note_frac(&S.items[arr.a + k], decimals)
    return True


# --- metadata: the general path's checks of the optional fields (omaha.phh.history) --------

cdef inline bint int_in(const Val* v, int64_t low, int64_t high) noexcept nogil:
    """A TOML integer (not a bool, not a float) from low to high."""
    cdef int64_t x
    if v.kind != V_INT:
        return False
    x = -<int64_t>v.num if v.neg else <int64_t>v.num
    return low <= x <= high


cdef inline bint absent_or(const Val* v, int64_t low, int64_t high) noexcept nogil:
    return v.kind == V_NONE or int_in(v, low, high)


cdef bint metadata_ok(Scan* S, int n) noexcept nogil:
    cdef const Val* F = S.fields
    cdef const Val* v
    cdef int f, k, j, count, descents, days
    cdef int64_t seat[MAX_PLAYERS]
    cdef int64_t year, month
    for f in range(F_AUTHOR, NFIELDS):
        if F[f].kind != V_NONE and F[f].kind != V_STR:
            return False
    if F[F_TIME].kind != V_NONE and F[F_TIME].kind != V_TIME:
        return False
    for f in range(F_HAND, F_TABLE + 1):   # a name or an int64 number
        if F[f].kind != V_NONE and F[f].kind != V_STR and not int_in(&F[f], -INT64_MAX, INT64_MAX):
            return False
    if F[F_TRIM].kind != V_NONE and F[F_TRIM].kind != V_BOOL:
        return False
    if not (absent_or(&F[F_DAY], 1, 31) and absent_or(&F[F_MONTH], 1, 12)
            and absent_or(&F[F_YEAR], 1, 9999) and absent_or(&F[F_LEVEL], 0, INT64_MAX)
            and absent_or(&F[F_SEAT_COUNT], 2, MAX_SEATS)):
        return False
    if F[F_SEAT_COUNT].kind != V_NONE and <int>F[F_SEAT_COUNT].num < n:
        return False
    if F[F_PLAYERS].kind != V_NONE:
        if F[F_PLAYERS].kind != V_ARRAY or F[F_PLAYERS].b != n:
            return False
        for k in range(n):
            if S.items[F[F_PLAYERS].a + k].kind != V_STR:
                return False
    if F[F_SEATS].kind != V_NONE:
        # 1..seat_count (10 without it), distinct, and in PHH order (table_seats): a rotation
        # of the sorted seats, i.e. exactly one descent going once round.
        count = <int>F[F_SEAT_COUNT].num if F[F_SEAT_COUNT].kind != V_NONE else MAX_SEATS
        if F[F_SEATS].kind != V_ARRAY or F[F_SEATS].b != n:
            return False
        for k in range(n):
            v = &S.items[F[F_SEATS].a + k]
            if not int_in(v, 1, MAX_SEATS) or <int>v.num > count:
                return False
            seat[k] = <int64_t>v.num
            for j in range(k):
                if seat[j] == seat[k]:
                    return False
        descents = 0
        for k in range(n):
            if seat[k] > seat[(k + 1) % n]:
                descents += 1
        if descents != 1:
            return False
    if F[F_DAY].kind != V_NONE and F[F_MONTH].kind != V_NONE and F[F_YEAR].kind != V_NONE:
        year, month = <int64_t>F[F_YEAR].num, <int64_t>F[F_MONTH].num
        days = 31
        if month == 4 or month == 6 or month == 9 or month == 11:
            days = 30
        elif month == 2:
            days = 29 if (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)) else 28
        if <int64_t>F[F_DAY].num > days:
            return False
    return True
