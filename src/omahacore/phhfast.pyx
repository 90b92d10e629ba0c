# cython: freethreading_compatible=True
"""The compiled fast path of PHH replay (issue 22): one hand's text scanned and replayed in C.

:func:`replay_text` reads the TOML subset that PHH files are written in (the scanner is in
``_phh_scan.pxi``, included here) and replays the hand through the engine's own transitions
(:mod:`omahacore.transitions`) and side-pot splitter (``settle_kernel`` of
:mod:`omahacore.pots`), without building a Python object until the answer. It states no rule of its own: posting, turn order, what a bet may be, the showdown
strengths and the award are the cimported ones the engine runs.

It is a fast path, not a reader: it answers only for a hand it replays completely and
cleanly, and None for anything else (any syntax outside the subset, a field it does not
read, a refused action, a card contradiction, a showdown decided by unknown cards...). The
caller then runs the general path (:func:`omaha.phh.replay.replay_history`), which gives
the result or words the error. So every check below errs towards None: a None costs speed,
a wrong answer would be a bug.

>>> text = (b'variant = "PO"\\nantes = [0, 0, 0]\\nblinds_or_straddles = [1, 2, 0]\\n'
...         b'min_bet = 2\\nstarting_stacks = [100, 100, 100]\\n'
...         b'actions = ["p3 cbr 7", "p1 f", "p2 f"]\\nfinishing_stacks = [99, 98, 103]\\n')
>>> replay_text(text)
(0, (99, 98, 103), 0, (99, 98, 103), 0)
>>> replay_text(text.replace(b'"p1 f"', b'"p2 f"')) is None   # out of turn
True
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport INT64_MAX, int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcmp, memset

from omahacore._types cimport card_t, chips_t, strength_t
from omahacore.pots cimport POT_OK, PotRecord, settle_kernel
from omahacore.transitions cimport (
    ACTIVE, AFTER_HOLES, FOLDED, MAX_PLAYERS, OK, RIVER, TURN, Outcome, Posted,
    Refusal, Rules, State, apply_call, apply_check, apply_fold, apply_raise, board_range,
    odd_chip_order, open_preflop, post_forced, raise_reason, seat_blinds, strengths)

cdef enum:
    MAX_ITEMS = 1024        # array items in one hand (actions included)
    MAX_ACTIONS = 512
    MAX_SEATS = 10          # omaha.config.MAX_SEATS: seat numbers 1..10 (T1)
    UNKNOWN = 255           # a card not given (``??``)

# An `inf` starting stack (depth not recorded) plays as omaha.phh.amounts.DEEP_STACK; the
# finite stacks beside one total at most MAX_FINITE; at most MAX_DECIMALS fraction digits.
cdef chips_t DEEP = INT64_MAX // 32
cdef chips_t MAX_FINITE = INT64_MAX // 2
cdef enum:
    MAX_DECIMALS = 18
    MAX_PHH_BYTES = 64 << 20   # omaha.limits.MAX_PHH_BYTES

# Scanned value kinds.
cdef enum:
    V_NONE = 0      # the field is absent
    V_STR = 1
    V_INT = 2
    V_DEC = 3       # a TOML float: mantissa and fraction digits, exact
    V_INF = 4
    V_BOOL = 5
    V_ARRAY = 6
    V_TIME = 7      # a TOML local time (HH:MM:SS[.fraction]), only for `time`

ctypedef struct Val:
    int8_t kind
    int8_t neg
    int32_t frac            # V_DEC: fraction digits once trailing zeros are dropped
    uint64_t num            # V_INT magnitude, V_DEC mantissa, V_BOOL 0/1
    Py_ssize_t a, b         # V_STR: the content's bytes; V_ARRAY: first item, item count

# The fields read, in this order in FIELDS (anything else makes the hand fall back).
cdef enum:
    F_VARIANT, F_ANTES, F_BLINDS, F_MIN_BET, F_SMALL_BET, F_BIG_BET, F_STACKS, F_ACTIONS,
    F_FINISHING, F_TRIM, F_WINNINGS, F_HAND, F_TABLE, F_PLAYERS, F_SEATS, F_SEAT_COUNT,
    F_DAY, F_MONTH, F_YEAR, F_LEVEL,
    F_TIME, F_AUTHOR, F_EVENT, F_URL, F_CITY, F_REGION, F_COUNTRY, F_VENUE, F_CURRENCY,
    F_CURRENCY_SYMBOL, F_TZ_ABBREVIATION, F_TIME_ZONE, F_ADDRESS, F_POSTAL_CODE,
    NFIELDS

FIELDS = (b"variant", b"antes", b"blinds_or_straddles", b"min_bet", b"small_bet", b"big_bet",
          b"starting_stacks", b"actions", b"finishing_stacks", b"ante_trimming_status",
          b"winnings", b"hand", b"table", b"players", b"seats", b"seat_count", b"day",
          b"month", b"year", b"level", b"time", b"author", b"event", b"url", b"city",
          b"region", b"country", b"venue", b"currency", b"currency_symbol",
          b"time_zone_abbreviation", b"time_zone", b"address", b"postal_code")
cdef bytes KEY_BLOB = b"".join(FIELDS)
cdef const char* KEY_TEXT = KEY_BLOB
cdef int KEY_AT[NFIELDS + 1]
KEY_AT[0] = 0
for _k, _key in enumerate(FIELDS):
    KEY_AT[_k + 1] = KEY_AT[_k] + len(_key)
assert len(FIELDS) == NFIELDS
del _k, _key

# Action kinds.
cdef enum:
    A_NOOP, A_DEAL_HOLE, A_DEAL_BOARD, A_FOLD, A_CHECK_CALL, A_BET, A_SHOW, A_MUCK

ctypedef struct Act:
    int8_t kind, player, ncards
    card_t cards[6]
    Val amount              # A_BET: the total, scaled once the decimals are known

# Card characters (omaha.phh.notation: ranks 23456789TJQKA, suits cdhs; card 4 * rank + suit).
cdef int8_t RANK_OF[256]
cdef int8_t SUIT_OF[256]
for _c in range(256):
    RANK_OF[_c] = SUIT_OF[_c] = -1
for _k in range(13):
    RANK_OF[ord("23456789TJQKA"[_k])] = _k
for _k in range(4):
    SUIT_OF[ord("cdhs"[_k])] = _k
del _c, _k

ctypedef struct Scan:
    const unsigned char* p
    Py_ssize_t i, end
    int nitems
    Val fields[NFIELDS]
    Val items[MAX_ITEMS]
    Act acts[MAX_ACTIONS]

ctypedef struct Game:
    int8_t limit, pot_limit, hi_lo, omaha_rule, hole_cards

ctypedef struct Answer:           # what replay_text returns, before it is Python objects
    int32_t n, decimals
    uint32_t deep_mask, expected_inf_mask
    bint has_expected
    chips_t finishing[MAX_PLAYERS]
    chips_t expected[MAX_PLAYERS]


include "_phh_scan.pxi"


# --- actions -----------------------------------------------------------------------------

cdef int scan_cards(const unsigned char* p, Py_ssize_t a, Py_ssize_t b, Act* act) noexcept nogil:
    """PHH cards (two characters each, ``??`` unknown) into act.cards; False if malformed or
    more than six (no action of the games read holds more)."""
    cdef Py_ssize_t k
    cdef int rank, suit
    if b <= a or (b - a) % 2 or b - a > 12:
        return False
    act.ncards = 0
    for k in range(a, b, 2):
        if p[k] == 63 and p[k + 1] == 63:
            act.cards[act.ncards] = UNKNOWN
        else:
            rank, suit = RANK_OF[p[k]], SUIT_OF[p[k + 1]]
            if rank < 0 or suit < 0:
                return False
            act.cards[act.ncards] = 4 * rank + suit
        act.ncards += 1
    return True


cdef int scan_player(const unsigned char* p, Py_ssize_t a, Py_ssize_t b, int n) noexcept nogil:
    """``pN`` as 0..n-1, or -1."""
    cdef int number
    if b - a == 2 and p[a] == 112 and 49 <= p[a + 1] <= 57:
        number = p[a + 1] - 48
    elif b - a == 3 and p[a] == 112 and p[a + 1] == 49 and p[a + 2] == 48:
        number = 10
    else:
        return -1
    return number - 1 if number <= n else -1


cdef bint scan_action(const unsigned char* p, Py_ssize_t a, Py_ssize_t b, int n,
                      Act* act) noexcept nogil:
    """One action string: ``d dh pN CARDS``, ``d db CARDS``, ``pN f``, ``pN cc``,
    ``pN cbr X``, ``pN sm [CARDS|-]``, or blank, words split by spaces. Commentary (``#``),
    tabs (the general path finds the ``cbr`` amounts that set the decimals by `` cbr ``),
    other characters than printable ASCII and other actions fall back."""
    cdef Py_ssize_t ws[4]
    cdef Py_ssize_t we[4]
    cdef int nw = 0
    cdef Py_ssize_t k = a
    act.player = -1
    while True:
        while k < b and p[k] == 32:
            k += 1
        if k >= b:
            break
        if nw == 4:
            return False
        ws[nw] = k
        while k < b and p[k] != 32:
            if p[k] < 33 or p[k] > 126 or p[k] == 35:
                return False
            k += 1
        we[nw] = k
        nw += 1
    act.ncards = 0
    if nw == 0:
        act.kind = A_NOOP
        return True
    if we[0] - ws[0] == 1 and p[ws[0]] == 100:   # d
        if nw == 3 and we[1] - ws[1] == 2 and p[ws[1]] == 100 and p[ws[1] + 1] == 98:
            act.kind = A_DEAL_BOARD
            return scan_cards(p, ws[2], we[2], act)
        if nw == 4 and we[1] - ws[1] == 2 and p[ws[1]] == 100 and p[ws[1] + 1] == 104:
            act.kind = A_DEAL_HOLE
            act.player = scan_player(p, ws[2], we[2], n)
            return act.player >= 0 and scan_cards(p, ws[3], we[3], act)
        return False
    act.player = scan_player(p, ws[0], we[0], n)
    if act.player < 0 or nw < 2:
        return False
    k = we[1] - ws[1]
    if nw == 2 and k == 1 and p[ws[1]] == 102:
        act.kind = A_FOLD
    elif nw == 2 and k == 2 and p[ws[1]] == 99 and p[ws[1] + 1] == 99:
        act.kind = A_CHECK_CALL
    elif nw == 3 and k == 3 and memcmp(p + ws[1], b"cbr", 3) == 0:
        # The amount as Decimal reads it, in the plain form only: digits, maybe a fraction.
        act.kind = A_BET
        act.amount.neg = 0
        k = ws[2]
        return (scan_digits(p, &k, we[2], &act.amount, False) and k == we[2]
                and act.amount.num > 0)
    elif nw <= 3 and k == 2 and p[ws[1]] == 115 and p[ws[1] + 1] == 109:
        if nw == 2 or (we[2] - ws[2] == 1 and p[ws[2]] == 45):
            act.kind = A_MUCK   # a muck, or ``sm -`` (the cards dealt): nothing to merge
        else:
            act.kind = A_SHOW
            return scan_cards(p, ws[2], we[2], act)
    else:
        return False
    return True


# --- the replay ----------------------------------------------------------------------------

cdef bint variant_of(const unsigned char* p, Py_ssize_t a, Py_ssize_t b, Game* g) noexcept nogil:
    """The games of omaha.phh.variants: F/P/N + (5|6)? + O + (/8)?, and FT, NT, PT."""
    cdef Py_ssize_t k = a + 1
    if b - a < 2:
        return False
    if p[a] == 70:
        g.limit, g.pot_limit = 1, 0
    elif p[a] == 80:
        g.limit, g.pot_limit = 0, 1
    elif p[a] == 78:
        g.limit, g.pot_limit = 0, 0
    else:
        return False
    if b - a == 2 and p[k] == 84:   # Texas hold'em
        g.hi_lo, g.omaha_rule, g.hole_cards = 0, 0, 2
        return True
    g.omaha_rule, g.hole_cards, g.hi_lo = 1, 4, 0
    if p[k] == 53 or p[k] == 54:
        g.hole_cards = p[k] - 48
        k += 1
    if k >= b or p[k] != 79:
        return False
    k += 1
    if k == b:
        return True
    if b - k == 2 and p[k] == 47 and p[k + 1] == 56:
        g.hi_lo = 1
        return True
    return False


cdef inline bint claim(uint8_t* seen, const card_t* cards, int count) noexcept nogil:
    """C1: the known cards among these are new and distinct (the general path's _claim)."""
    cdef int k, j
    for k in range(count):
        if cards[k] == UNKNOWN:
            continue
        if seen[cards[k]]:
            return False
        for j in range(k):
            if cards[j] == cards[k]:
                return False
    for k in range(count):
        if cards[k] != UNKNOWN:
            seen[cards[k]] = 1
    return True


cdef inline int board_dealt(int street) noexcept nogil:
    """Board cards the engine has dealt by this street (the showdown: all five)."""
    return 0 if street == 0 else (street + 2 if street <= RIVER else 5)


cdef bint replay(Scan* S, Answer* out) noexcept nogil:
    """Check the fields, then play the hand; out gets the stacks. False: use the general path."""
    cdef Val* F = S.fields
    cdef const unsigned char* p = S.p
    cdef Game g
    cdef Rules r
    cdef State s
    cdef Refusal refusal
    cdef Posted posted[2 * MAX_PLAYERS + 2]
    cdef Act* acts = S.acts
    cdef Act* act
    cdef int n, k, k2, j, nacts, m, h, street, board_len = 0, board_seen = 0, live, big_index
    cdef int32_t decimals = 0
    cdef uint32_t dummy = 0
    cdef chips_t antes[MAX_PLAYERS]
    cdef chips_t blinds[MAX_PLAYERS]
    cdef chips_t winnings[MAX_PLAYERS]
    cdef chips_t small, big, ante, bb_ante, units0, units2, total, finite, to
    cdef bint over, single, started = False
    cdef Outcome outcome
    cdef uint8_t seen[52]
    cdef card_t hole[MAX_PLAYERS][6]
    cdef int hole_len[MAX_PLAYERS]
    cdef card_t board[5]
    cdef card_t deck[52]
    cdef uint8_t used[52]
    cdef int burn, first, end_
    cdef strength_t high[MAX_PLAYERS]
    cdef strength_t low[MAX_PLAYERS]
    cdef uint8_t folded[MAX_PLAYERS]
    cdef int64_t order[MAX_PLAYERS]
    cdef chips_t payouts[MAX_PLAYERS]
    cdef chips_t returned[MAX_PLAYERS]
    cdef PotRecord pots[MAX_PLAYERS + 1]
    cdef int npots = 0
    cdef Py_ssize_t where = -1

    # The required fields, the game and the player count.
    if (F[F_VARIANT].kind != V_STR or F[F_ANTES].kind != V_ARRAY or F[F_BLINDS].kind != V_ARRAY
            or F[F_STACKS].kind != V_ARRAY or F[F_ACTIONS].kind != V_ARRAY):
        return False
    if not variant_of(p, F[F_VARIANT].a, F[F_VARIANT].b, &g):
        return False
    if g.limit:
        if F[F_MIN_BET].kind != V_NONE or not is_amount(&F[F_SMALL_BET], False) \
                or not is_amount(&F[F_BIG_BET], False):
            return False
    elif (F[F_SMALL_BET].kind != V_NONE or F[F_BIG_BET].kind != V_NONE
            or not is_amount(&F[F_MIN_BET], False)):
        return False
    n = <int>F[F_STACKS].b
    h = g.hole_cards
    if not 2 <= n <= MAX_PLAYERS or n * h + AFTER_HOLES > 52:
        return False
    nacts = <int>F[F_ACTIONS].b
    if nacts > MAX_ACTIONS:
        return False
    if not (per_player(S, F_STACKS, n, True, &decimals) and per_player(S, F_ANTES, n, False, &decimals)
            and per_player(S, F_BLINDS, n, False, &decimals)
            and per_player(S, F_FINISHING, n, True, &decimals)
            and per_player(S, F_WINNINGS, n, False, &decimals)):
        return False
    note_frac(&F[F_MIN_BET], &decimals)
    note_frac(&F[F_SMALL_BET], &decimals)
    note_frac(&F[F_BIG_BET], &decimals)
    if not metadata_ok(S, n):
        return False
    for k in range(nacts):
        if S.items[F[F_ACTIONS].a + k].kind != V_STR:
            return False
        act = &acts[k]
        if not scan_action(p, S.items[F[F_ACTIONS].a + k].a, S.items[F[F_ACTIONS].a + k].b, n, act):
            return False
        if act.kind == A_BET:
            note_frac(&act.amount, &decimals)
    if decimals > MAX_DECIMALS:
        return False
    out.decimals = decimals
    out.n = n

    # Every amount in units of 10**-decimals (the general path's scaling).
    out.deep_mask = out.expected_inf_mask = 0
    memset(&s, 0, sizeof(State))
    if not (scaled_list(S, &F[F_STACKS], n, decimals, True, s.stacks, &out.deep_mask)
            and scaled_list(S, &F[F_ANTES], n, decimals, False, antes, &dummy)
            and scaled_list(S, &F[F_BLINDS], n, decimals, False, blinds, &dummy)):
        return False
    if F[F_WINNINGS].kind != V_NONE and not scaled_list(S, &F[F_WINNINGS], n, decimals, False,
                                                        winnings, &dummy):
        return False
    out.has_expected = F[F_FINISHING].kind != V_NONE
    if out.has_expected and not scaled_list(S, &F[F_FINISHING], n, decimals, False,
                                            out.expected, &out.expected_inf_mask):
        return False
    if out.has_expected and out.expected_inf_mask != out.deep_mask:
        return False   # an inf stack finishes inf, and only it
    finite = 0
    for k in range(n):
        finite += s.stacks[k]   # scaled_list bounded the finite total
    total = finite
    for k in range(n):
        if out.deep_mask >> k & 1:
            if finite > MAX_FINITE or total > INT64_MAX - DEEP:
                return False
            s.stacks[k] = DEEP
            total += DEEP
    for k in range(nacts):
        if acts[k].kind == A_BET:
            if not scaled(&acts[k].amount, decimals, &to):
                return False
            acts[k].amount.num = <uint64_t>to

    # The forced bets (omaha.phh.replay.config_for_history): [sb, bb, 0...] or a single blind
    # [b, 0, ...]; equal antes, more at the big blind's index (a big-blind ante).
    small, big = blinds[0], blinds[1]
    single = small >= 1 and big == 0
    if single:
        small, big = 0, blinds[0]
    elif small < 1 or big < small:
        return False
    for k in range(2, n):
        if blinds[k]:
            return False   # straddles and live blinds: the general path
    big_index = 0 if single else 1
    ante = antes[1 - big_index]
    for k in range(n):
        if k != big_index and antes[k] != ante:
            return False
    if antes[big_index] < ante:
        return False
    bb_ante = antes[big_index] - ante
    if g.limit:
        if not scaled(&F[F_SMALL_BET], decimals, &units0) or not scaled(&F[F_BIG_BET], decimals, &units2):
            return False
        if units0 < 1 or units2 < units0:
            return False
    else:
        if not scaled(&F[F_MIN_BET], decimals, &units0) or units0 != big:
            return False
        units2 = big

    # The engine's hand (HandCore._start): players in PHH order, the button last.
    memset(&r, 0, sizeof(Rules))
    r.n = n
    seat_blinds(&r, n - 1, single)
    r.limit, r.pot_limit, r.uncapped_heads_up = g.limit, g.pot_limit, 0
    r.hole_cards, r.hi_lo, r.omaha_rule = h, g.hi_lo, g.omaha_rule
    r.max_raises = 4   # GameConfig's default cap (B3)
    r.units[0] = r.units[1] = units0
    r.units[2] = r.units[3] = units2
    for k in range(n):
        s.status[k] = ACTIVE
    s.live = s.active = n
    s.to_act = -1
    post_forced(&r, &s, ante, small, big, bb_ante, NULL, 0, posted)
    outcome = open_preflop(&r, &s, big)
    over = outcome != TURN

    # The actions: the card plan (omaha.phh.replay._CardPlan) and the replay (_Replayer)
    # side by side; each refuses what the general path refuses.
    memset(seen, 0, sizeof(seen))
    for k in range(n):
        hole_len[k] = 0
    for k in range(nacts):
        act = &acts[k]
        j = act.player
        if act.kind == A_DEAL_HOLE:
            if started or hole_len[j] + act.ncards > h or not claim(seen, act.cards, act.ncards):
                return False
            for m in range(act.ncards):
                hole[j][hole_len[j]] = act.cards[m]
                hole_len[j] += 1
        elif act.kind == A_DEAL_BOARD:
            if board_len >= 5 or act.ncards != (3 if board_len == 0 else 1):
                return False
            if not claim(seen, act.cards, act.ncards):
                return False
            for m in range(act.ncards):
                board[board_len] = act.cards[m]
                board_len += 1
            if board_dealt(s.street) < board_seen + act.ncards:   # not due yet
                return False
            board_seen += act.ncards
        elif act.kind == A_SHOW or act.kind == A_MUCK:
            if act.kind == A_SHOW:   # _CardPlan._merge_shown: fill unknown cards in order
                if act.ncards > h:
                    return False
                while hole_len[j] < h:
                    hole[j][hole_len[j]] = UNKNOWN
                    hole_len[j] += 1
                for m in range(act.ncards):
                    if act.cards[m] == UNKNOWN:
                        continue
                    for k2 in range(h):
                        if hole[j][k2] == act.cards[m]:
                            break
                    else:
                        for k2 in range(h):
                            if hole[j][k2] == UNKNOWN:
                                break
                        else:
                            return False
                        if seen[act.cards[m]]:
                            return False
                        seen[act.cards[m]] = 1
                        hole[j][k2] = act.cards[m]
            if s.status[j] == FOLDED or not over:
                return False
        elif act.kind != A_NOOP:
            started = True
            if over or board_dealt(s.street) > board_seen or s.to_act != j:
                return False
            if act.kind == A_FOLD:
                outcome = apply_fold(&r, &s, j)
            elif act.kind == A_CHECK_CALL:
                if s.current_bet > s.bets[j]:
                    outcome = apply_call(&r, &s, j)
                else:
                    outcome = apply_check(&r, &s, j)
            else:
                to = <chips_t>act.amount.num
                if raise_reason(&r, &s, j, to, &refusal) != OK:
                    return False
                outcome = apply_raise(&r, &s, j, to)
            over = outcome != TURN
    if not over:
        return False   # a partial history: the general path reports where it stops

    # A showdown must be decided by cards the history gives (check_showdown).
    live = 0
    for k in range(n):
        folded[k] = s.status[k] == FOLDED
        live += not folded[k]
        high[k] = low[k] = 0
    odd_chip_order(&r, order)   # p1 first: the button is the last player
    if live >= 2:
        if board_len < 5:
            return False
        for k in range(5):
            if board[k] == UNKNOWN:
                return False
        for k in range(n):
            if folded[k]:
                continue
            if hole_len[k] < h:
                return False
            for m in range(h):
                if hole[k][m] == UNKNOWN:
                    return False
        # The dealt sequence (T6) with the known cards in place, the rest any unused ones.
        memset(used, 0, sizeof(used))
        m = n * h + AFTER_HOLES
        for k in range(m):
            deck[k] = UNKNOWN
        for k in range(n):
            for j in range(hole_len[k]):
                if hole[k][j] != UNKNOWN:
                    deck[j * n + (k - r.sb + n) % n] = hole[k][j]
                    used[hole[k][j]] = 1
        j = 0
        for street in range(1, 4):
            board_range(street, &burn, &first, &end_)
            for k in range(first, end_):
                deck[n * h + k] = board[j]
                used[board[j]] = 1
                j += 1
        j = 0
        for k in range(m):
            if deck[k] == UNKNOWN:
                while used[j]:
                    j += 1
                deck[k] = j
                used[j] = 1
        strengths(&r, &s, deck, high, low)
    if settle_kernel(n, s.contrib, folded, high, low if r.hi_lo else NULL, order, 0, s.dead,
                     payouts, returned, pots, &npots, &where) != POT_OK:
        return False
    for k in range(n):
        out.finishing[k] = s.stacks[k] + payouts[k]
    return True


def replay_text(bytes data not None, Py_ssize_t start=0, Py_ssize_t end=-1):
    """Scan and replay the hand in ``data[start:end]`` (``end`` -1: to the end).

    Returns None (use the general path) or ``(decimals, finishing, deep_mask, expected,
    expected_inf_mask)``: amounts are scaled by ``10**decimals`` to whole units;
    ``finishing`` is each player's final stack in PHH order; bit i of ``deep_mask`` is set
    when player i's starting stack was ``inf`` (its finishing value means nothing);
    ``expected`` is the file's ``finishing_stacks`` scaled the same way (None when absent),
    bit i of ``expected_inf_mask`` set where it is ``inf``.

    Raises ValueError for a range outside ``data``.
    """
    cdef Scan* S
    cdef Answer out
    cdef bint ok
    cdef Py_ssize_t size = len(data)
    cdef const unsigned char* p = data
    if end == -1:
        end = size
    if not 0 <= start <= end <= size:
        raise ValueError(f"the range {start}:{end} is outside the {size} bytes")
    if end - start > MAX_PHH_BYTES:   # the general path refuses such a text
        return None
    S = <Scan*>PyMem_Malloc(sizeof(Scan))
    if S == NULL:
        raise MemoryError()
    try:
        with nogil:
            memset(S.fields, 0, sizeof(S.fields))
            S.p, S.i, S.end, S.nitems = p, start, end, 0
            ok = scan_text(S) and replay(S, &out)
    finally:
        PyMem_Free(S)
    if not ok:
        return None
    n = out.n
    finishing = tuple([out.finishing[k] for k in range(n)])
    expected = tuple([out.expected[k] for k in range(n)]) if out.has_expected else None
    return (out.decimals, finishing, out.deep_mask, expected, out.expected_inf_mask)
