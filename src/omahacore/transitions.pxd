# The hand's state as plain C numbers and the pure transitions over it: the one statement of
# the betting rules B1-B8 (and D2's protected all-in), cimported by every compiled module that
# plays hands (the engine, the batched vector kernel). Players are indices 0..n-1 in seat
# order (clockwise); amounts are chips_t (int64): every amount entering is at most MAX_CHIPS
# and the stacks' total at most MAX_CHIPS, so every sum of chips in play fits; sums that could
# pass that (a pot-limit bound) saturate.
from libc.stdint cimport INT64_MAX, int8_t, int32_t, int64_t

from omahacore._types cimport card_t, chips_t, strength_t

cdef enum:
    MAX_PLAYERS = 10

# Player states (omaha.game.status) and streets.
cdef enum:
    ACTIVE = 0
    FOLDED = 1
    ALL_IN = 2
    PROTECTED = 3
    MUCKED = 4

cdef enum:
    PREFLOP = 0
    RIVER = 3
    SHOWDOWN = 5        # past every betting street: seven-card stud's seventh street is 4
    SHOWDOWN_NAME = 4   # what Python calls the showdown in a flop game (omaha.game.status)

# The stud games (E1); 0 is a flop game.
cdef enum:
    FLOP_GAME = 0
    STUD_HIGH = 1
    STUD_HILO = 2
    STUD_RAZZ = 3
    STUD_FIVE = 4
    STUD_CARDS = 7      # the most cards a stud player holds
    NO_CARD = 255

# What the round flow reached after an action.
cdef enum Outcome:
    TURN = 0        # someone is to act
    TO_SHOWDOWN = 1 # the river betting closed with two or more players left (S1)
    TO_AWARD = 2    # one player left (S4)

# Why an action is refused: the checks below return one of these (OK: allowed), and
# omahacore.refusals words each one, with its rule, for IllegalActionError.
cpdef enum Reason:
    OK = 0
    HAND_OVER = 1           # B1: nobody is to act
    AT_SHOWDOWN = 2         # B1: the betting is over, hands are being shown
    NOT_YOUR_TURN = 3       # B1
    CHECK_OWES = 4          # B2: a check only when nothing is owed
    CALL_OWES_NOTHING = 5   # B2: nothing to call; check instead
    NOT_AN_AMOUNT = 6       # B2: a bet is a whole number of chips
    BEYOND_ANY_STACK = 7    # B8: a total past MAX_CHIPS
    TOO_SHORT_TO_RAISE = 8  # B8: the stack only covers a call
    NOBODY_TO_CALL = 9      # B8: every other player is all-in
    NOT_REOPENED = 10       # B6/B7: acted already, faces less than a full raise
    CAPPED = 11             # B3: the fixed-limit cap is reached
    LIMIT_EXACT = 12        # B3: fixed limit allows one total
    ALL_IN_ONLY = 13        # B8: short of a full raise: only all-in
    BELOW_MINIMUM = 14      # B4
    ABOVE_POT = 15          # B5
    ABOVE_STACK = 16        # B8
    PROTECT_CAN_CHECK = 17  # D2: a timeout with a free check checks
    PROTECT_NO_CHIPS = 18   # D2: a timeout with no chips in folds
    NOTHING_TO_UNDO = 19    # no action taken yet
    NO_SHOWDOWN_TURN = 20   # S1: no show/muck decision is pending
    NOT_YOUR_SHOW = 21      # S1: another seat shows or mucks next
    BRING_IN_DUE = 22       # E3: the bring-in posts it (a call) or completes, never folds
    OPEN_PAIR_SIZES = 23    # E5: with an open pair, a bet is the small or the big bet

ctypedef struct Rules:
    # Fixed for the whole hand once the blinds are posted.
    int32_t n, button, sb, bb
    int8_t limit, pot_limit, uncapped_heads_up
    int8_t hole_cards, hi_lo, omaha_rule   # omaha_rule: exactly 2 hole + 3 board cards (C3)
    int32_t max_raises          # fixed-limit cap on bets per round (B3); -1: none
    chips_t units[5]            # bet unit per street (B3), the big blind in pot/no limit (B4)
    # Stud (E1-E5): 0 for a flop game. The deal reads the cards from `deck` in the order they
    # come off it (burns included), which the engine keeps alive for the whole hand.
    int8_t stud
    int32_t last_street         # the last betting street: RIVER, or 4 in seven-card stud
    chips_t bring_in
    const card_t* deck

ctypedef struct StudCards:
    # Each player's cards in the order dealt, the deck's next card, the shared last card
    # when the deck ran short (NO_CARD: none).
    card_t cards[MAX_PLAYERS * STUD_CARDS]
    int8_t ncards[MAX_PLAYERS]
    int32_t dealt
    card_t community

ctypedef struct State:
    # Everything an action can change: copied whole for copy and stud's undo.
    chips_t stacks[MAX_PLAYERS]    # behind
    chips_t bets[MAX_PLAYERS]      # this round
    chips_t contrib[MAX_PLAYERS]   # this hand (the big blind ante is `dead`, not here)
    int8_t status[MAX_PLAYERS]
    int8_t acted[MAX_PLAYERS]      # this round
    chips_t pot                    # every chip put in, bets in front included
    chips_t dead                   # the big blind ante: dead money in the main pot
    int32_t street, to_act, live, active   # to_act -1: nobody
    # The betting round (B3-B7).
    chips_t unit, current_bet, min_raise, full_level, reopen_at
    int32_t raises, cap, aggressor  # cap -1: uncapped; aggressor -1: nobody bet
    int32_t log_length              # the event log's length (for undo)
    # Stud (E3, E5): the bring-in still to post (-1: none), and the big bet a bet may
    # instead be when an open pair shows (0: no option).
    int32_t bring_in_seat
    chips_t big_option
    # Stud's cards (E2), last: a flop hand never changes them, so its undo records stop
    # before them (omahacore.engine).
    StudCards stud

ctypedef struct Legal:
    chips_t call          # chips a call adds (0: nothing owed)
    bint can_check
    bint can_raise
    chips_t low, high     # the bet/raise-to bounds when can_raise

# The facts of a refusal, for its wording (omahacore.refusals).
ctypedef struct Refusal:
    Reason reason
    int32_t player        # who asked
    chips_t owed, stack, low, high
    int32_t cap

# One forced bet as posted (the engine logs it): who, which kind, how much went in.
cdef enum PostKind:
    POST_ANTE = 0
    POST_SMALL_BLIND = 1
    POST_BIG_BLIND = 2
    POST_BIG_BLIND_ANTE = 3
    POST_LIVE_BLIND = 4

ctypedef struct Posted:
    int32_t player
    int32_t kind
    chips_t amount

# A shuffled deck's top `count` cards from random bytes (C2); false when the bytes ran out.
cdef bint shuffle_deck(const unsigned char* entropy, Py_ssize_t size, Py_ssize_t* used,
                       card_t* out, int count) noexcept nogil

# Who posts the blinds (T3, T4): sets r.button, r.sb and r.bb for a button at `button`.
cdef void seat_blinds(Rules* r, int button, bint single_blind) noexcept nogil

# The dealt sequence (T6): hole cards one at a time clockwise from the small blind, then,
# counted from the end of the hole cards: burn, flop, flop, flop, burn, turn, burn, river.
# STREET_CARDS (this module's Python table, read by omaha.game.dealing) is built from these.
cdef enum:
    BURN_FLOP = 0
    FLOP_AT = 1
    BURN_TURN = 4
    TURN_AT = 5
    BURN_RIVER = 6
    RIVER_AT = 7
    AFTER_HOLES = 8     # cards dealt after the hole cards

cdef int board_range(int street, int* burn, int* first, int* end) noexcept nogil


cdef inline card_t hole_card(const Rules* r, const card_t* deck, int i, int k) noexcept nogil:
    """Player ``i``'s hole card ``k`` (inline: the observation reads it every decision)."""
    cdef int j = i - r.sb
    if j < 0:
        j += r.n
    return deck[k * r.n + j]


cdef inline void board_cards(const Rules* r, const card_t* deck, card_t* out) noexcept nogil:
    """The five board cards, flop to river."""
    cdef const card_t* after = deck + r.n * r.hole_cards
    out[0], out[1], out[2] = after[FLOP_AT], after[FLOP_AT + 1], after[FLOP_AT + 2]
    out[3], out[4] = after[TURN_AT], after[RIVER_AT]


cdef inline void odd_chip_order(const Rules* r, int64_t* order) noexcept nogil:
    """The award order (S2, S3): odd chips go clockwise from the first player left of the
    button. Every settlement (the engine's award, the batched kernel, PHH replay) asks here."""
    cdef int k
    for k in range(r.n):
        order[k] = (r.button + 1 + k) % r.n


# Checks: OK, or why not (filling `out` with the numbers a message needs).
cdef Reason turn_reason(const State* s, int i) noexcept nogil
cdef Reason check_reason(const State* s, int i, Refusal* out) noexcept nogil
cdef Reason call_reason(const State* s, int i, Refusal* out) noexcept nogil
cdef Reason raise_reason(const Rules* r, const State* s, int i, chips_t to,
                         Refusal* out) noexcept nogil
cdef Reason protect_reason(const State* s, int i, Refusal* out) noexcept nogil
cdef Reason fold_reason(const State* s, int i, Refusal* out) noexcept nogil

# The rules and the round flow.
cdef void start_round(const Rules* r, State* s, int street) noexcept nogil
cdef void post(State* s, int i, chips_t amount, bint live, bint table) noexcept nogil
cdef int post_forced(const Rules* r, State* s, chips_t ante, chips_t small, chips_t big,
                     chips_t big_blind_ante, const int* live, int live_count,
                     Posted* out) noexcept nogil
cdef Outcome open_preflop(const Rules* r, State* s, chips_t big) noexcept nogil
cdef Outcome advance(const Rules* r, State* s, int after) noexcept nogil
cdef Outcome apply_fold(const Rules* r, State* s, int i) noexcept nogil
cdef Outcome apply_check(const Rules* r, State* s, int i) noexcept nogil
cdef Outcome apply_call(const Rules* r, State* s, int i) noexcept nogil
cdef Outcome apply_raise(const Rules* r, State* s, int i, chips_t to) noexcept nogil
cdef Outcome apply_protect(const Rules* r, State* s, int i) noexcept nogil
cdef void strengths(const Rules* r, const State* s, const card_t* deck, strength_t* high,
                    strength_t* low) noexcept nogil
cdef int show_down(const Rules* r, State* s, const card_t* deck, strength_t* high,
                   strength_t* low, int* order) noexcept nogil

# Stud (E1-E5), beside the betting rules: the deal of a street, who brings in, who opens a
# street, and the opening of third street once the antes are in.
cdef bint stud_up(const Rules* r, int k) noexcept nogil
cdef void stud_deal(const Rules* r, State* s) noexcept nogil
cdef int stud_bring_in_seat(const Rules* r, const State* s) noexcept nogil
cdef int64_t stud_showing(const Rules* r, const State* s, int i) noexcept nogil
cdef int stud_opener(const Rules* r, const State* s) noexcept nogil
cdef Outcome open_stud(const Rules* r, State* s) noexcept nogil


# --- what the player to act may do (B2-B8): inline, asked before every decision ------------

cdef inline chips_t sat_add(chips_t a, chips_t b) noexcept nogil:
    """a + b for b >= 0, stopping at INT64_MAX (= MAX_CHIPS) instead of overflowing."""
    return a + b if a <= INT64_MAX - b else INT64_MAX


cdef inline chips_t reopening(const Rules* r, const State* s) noexcept nogil:
    """The rule of reopening (B6, B7): what a player who already acted must face before
    raising again. No and pot limit: a full raise (short all-ins add up); fixed limit: half a
    unit counts as full."""
    return (s.unit + 1) // 2 if r.limit else s.min_raise


cdef inline void legal_for(const Rules* r, const State* s, int i, Legal* out) noexcept nogil:
    """What player ``i`` may do (B2-B8): the call, and the bet/raise-to bounds if any.

    A player who cannot make a full raise may still raise all-in for less (B7, B8).
    """
    cdef chips_t current = s.current_bet, bet = s.bets[i], stack = s.stacks[i]
    cdef chips_t owed = current - bet          # >= 0: nobody has more in than the bet to call
    cdef chips_t allin = bet + stack           # <= the stacks' total
    cdef chips_t low, high
    out.call = (owed if owed < stack else stack) if owed > 0 else 0
    out.can_check = owed <= 0
    out.can_raise = False
    out.low = out.high = 0
    if allin <= current or s.active <= 1 or (s.acted[i] and owed < s.reopen_at):
        return                                  # B8, nobody to call, or not reopened (B6/B7)
    if r.limit:
        if s.cap >= 0 and s.raises >= s.cap:   # B3: capped
            return
        low = sat_add(s.full_level, s.unit)
        high = sat_add(s.full_level, s.big_option) if s.big_option else low   # E5: open pair
        if low > allin:
            low = allin
        if high > allin:
            high = allin
    else:
        low = sat_add(current, s.min_raise)   # B4
        high = sat_add(sat_add(current, s.pot), owed) if r.pot_limit else allin   # B5
        if high < low:
            high = low
        if low > allin:
            low = allin
        if high > allin:
            high = allin
    out.can_raise = True
    out.low = low
    out.high = high
