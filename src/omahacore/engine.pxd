# The hand engine's state as plain C numbers, and the pure transitions over it (issue 12).
# Players are indices 0..n-1 in seat order (clockwise); amounts are chips_t (int64), and every
# amount entering is at most MAX_CHIPS with the stacks' total at most MAX_CHIPS, so every sum
# of chips in play fits; sums that could pass that (a pot-limit bound) saturate.
from libc.stdint cimport int8_t, int32_t

from omahacore._types cimport card_t, chips_t, strength_t

cdef enum:
    MAX_PLAYERS = 10

# Player states (omaha.states) and streets.
cdef enum:
    ACTIVE = 0
    FOLDED = 1
    ALL_IN = 2
    PROTECTED = 3
    MUCKED = 4

cdef enum:
    PREFLOP = 0
    RIVER = 3
    SHOWDOWN = 4

# What the round flow reached after an action.
cdef enum Outcome:
    TURN = 0        # someone is to act
    TO_SHOWDOWN = 1 # the river betting closed with two or more players left (S1)
    TO_AWARD = 2    # one player left (S4)

ctypedef struct Rules:
    # Fixed for the whole hand once the blinds are posted.
    int32_t n, button, sb, bb
    int8_t limit, pot_limit, uncapped_heads_up
    int8_t hole_cards, hi_lo, omaha_rule   # omaha_rule: exactly 2 hole + 3 board cards (C3)
    int32_t max_raises          # fixed-limit cap on bets per round (B3); -1: none
    chips_t units[4]            # bet unit per street (B3), the big blind in pot/no limit (B4)

ctypedef struct State:
    # Everything an action can change: copied whole for undo and copy.
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

ctypedef struct Legal:
    chips_t call          # chips a call adds (0: nothing owed)
    bint can_check
    bint can_raise
    chips_t low, high     # the bet/raise-to bounds when can_raise

cdef void legal_for(const Rules* r, const State* s, int i, Legal* out) noexcept nogil
cdef void start_round(const Rules* r, State* s, int street) noexcept nogil
cdef void post(State* s, int i, chips_t amount, bint live, bint table) noexcept nogil
cdef Outcome advance(const Rules* r, State* s, int after) noexcept nogil
cdef Outcome apply_fold(const Rules* r, State* s, int i) noexcept nogil
cdef Outcome apply_check(const Rules* r, State* s, int i) noexcept nogil
cdef Outcome apply_call(const Rules* r, State* s, int i) noexcept nogil
cdef Outcome apply_raise(const Rules* r, State* s, int i, chips_t to) noexcept nogil
cdef Outcome apply_protect(const Rules* r, State* s, int i) noexcept nogil
cdef int show_down(const Rules* r, State* s, const card_t* deck, strength_t* high,
                   strength_t* low, int* order) noexcept nogil


cdef class HandCore:
    cdef Rules rules
    cdef State state
    cdef State* undo_stack
    cdef Py_ssize_t undo_length, undo_capacity
    cdef public object config, seats, _log, _deck, _rake, _undo_extra
    cdef public object _order, _shown, _strengths, _showdown_state, _settlement, _result
    cdef public bint _manual

    cdef int _post_at(self, int i, str what, chips_t amount, bint live, bint table) except -1
    cdef int _act_at(self, int act, int i) except -1
    cdef int _after(self, int street, Outcome outcome) except -1
    cdef int _show_down(self) except -1
    cdef int _push_state(self) except -1
    cdef int _turn_index(self, object seat) except -2
