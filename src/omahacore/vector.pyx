# cython: freethreading_compatible=True
"""Many tables of one game stepped in one call: the compiled kernel of
:class:`omaha.rl.VectorTables` (issue 20).

Each table is a hand engine state (``omahacore.transitions``: the same ``Rules`` and
``State`` structs and the same transitions the hand engine runs), so the tables play exactly
the game :class:`omaha.game.hand.Hand` plays, for every configuration: blinds or a single blind,
antes and big blind antes, fixed, pot and no limit. A step takes one discrete action per
table (:class:`omaha.rl.ActionSet`: fold, check/call, raise sizes), checks every action
against its table's mask before any table changes, applies them without the GIL, awards
finished hands with the compiled evaluator and side-pot splitter, deals the next hands from
a pool of decks shuffled from random bytes the caller supplies (so the caller owns the
randomness, C2), and writes the next observations, masks, actors and rewards into the
caller's arrays.

The observation layout and the action mask are stated here once; :mod:`omaha.rl.game`
reads a single hand through :func:`observe_hand` and :func:`action_totals`.

>>> import numpy as np
>>> totals, mask = np.zeros(4, np.int64), np.zeros(6, np.int8)
>>> action_totals(2, 4, 200, 2, 3, np.array([0.5, 1.0]), True, True, totals, mask)
>>> totals.tolist(), mask.tolist()
([4, 7, 4, 200], [1, 1, 1, 1, 0, 1])
"""

cimport cython
from libc.stdint cimport INT64_MAX, int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memmove, memset

from omahacore._types cimport card_t, chips_t, strength_t
from omahacore.engine cimport HandCore
from omahacore.evaluator cimport seven_high
from omahacore.pots cimport POT_OK, PotRecord, settle_kernel
from omahacore.transitions cimport (
    ACTIVE, AFTER_HOLES, FOLDED, MAX_PLAYERS, RIVER, SHOWDOWN, SHOWDOWN_NAME, TO_AWARD, TO_SHOWDOWN, TURN, Legal, Outcome,
    Posted, Rules, State, apply_call, apply_check, apply_fold, apply_raise, board_cards,
    hole_card, legal_for, odd_chip_order, open_preflop, post_forced, seat_blinds, shuffle_deck,
    strengths)

import numpy as np

from omahacore.errors import ArrayError, ArrayTypeError, OmahaError

# The observation (omaha.rl.game's table): own hole cards one-hot [0, 52), board one-hot
# [52, 104), street one-hot [104, 108), pot / call / min raise / max raise [108, 112), then
# per player from the observer clockwise: stack, bet, chips in, active, all-in, folded, button.
cdef extern from "_bits.h":
    void omaha_zero_108_floats(float* p) noexcept nogil

cdef enum:
    DEF_TABLE = 112
    DEF_PLAYER = 7
    MAX_SIZES = 64          # raise sizes an action set may list
    FOLD_ACTION = 0
    CHECK_CALL_ACTION = 1

TABLE_FEATURES, PLAYER_FEATURES = DEF_TABLE, DEF_PLAYER


# --- Hold'em showdowns: the best five of seven by one lookup (C6): the evaluator's
# seven-rank table (omahacore.evaluator.seven_high).


def holdem_best(object cards):
    """The best high strength of seven distinct cards (indexes 0..51) by the Hold'em
    lookup (for the tests: it must equal :func:`omahacore.evaluator.evaluate_best`)."""
    cdef card_t c[7]
    cdef int i
    if type(cards) is not tuple or len(cards) != 7:
        raise ArrayTypeError("cards must be a tuple of 7 card indexes")
    for i in range(7):
        if type(cards[i]) is not int or not 0 <= cards[i] < 52:
            raise ArrayError("cards must be card indexes 0..51")
        c[i] = cards[i]
    if len(set(cards)) != 7:
        raise ArrayError("cards must be distinct")
    return seven_high(c)


cdef inline chips_t fraction_total(chips_t current, chips_t after_call, double f,
                                   chips_t low, chips_t high) noexcept nogil:
    """``current + int(f * after_call)`` clipped to [low, high] (saturating, never UB)."""
    cdef double extra = f * <double>after_call
    if extra >= <double>(INT64_MAX - current):
        return high
    cdef chips_t to = current + <chips_t>extra
    return low if to < low else (high if to > high else to)


cdef inline void set_actions(const Legal* legal, chips_t current, chips_t pot, const double* fractions,
                      int nf, bint min_raise, bint max_raise, chips_t* totals,
                      int8_t* mask) noexcept nogil:
    """The raise total of every raise action and the mask of legal, distinct actions
    (ActionSet): fold only when something is owed, check/call always, each raise size
    clipped to the legal range and masked when it repeats an earlier total."""
    cdef int k, j, count = nf + min_raise + max_raise
    cdef chips_t low = legal.low, high = legal.high, to
    cdef int8_t fresh
    mask[0] = legal.call > 0
    mask[1] = 1
    if not legal.can_raise:
        for k in range(count):   # a few entries: plain stores beat a memset call
            totals[k] = 0
            mask[2 + k] = 0
        return
    for k in range(nf):
        totals[k] = fraction_total(current, pot + legal.call, fractions[k], low, high)
    k = nf
    if min_raise:
        totals[k] = low
        k += 1
    if max_raise:
        totals[k] = high
    for k in range(count):
        to = totals[k]
        fresh = 1
        for j in range(k):
            if totals[j] == to:
                fresh = 0
                break
        mask[2 + k] = fresh


cdef inline void write_player(const Rules* r, const State* s, int i, double scale,
                              float* block) noexcept nogil:
    """Player ``i``'s seven features: stack, bet, chips in (big blinds), active, all-in,
    folded, button."""
    cdef int8_t status = s.status[i]
    block[0] = s.stacks[i] * scale
    block[1] = s.bets[i] * scale
    block[2] = s.contrib[i] * scale
    block[3] = 1.0 if status == ACTIVE else 0.0
    block[4] = 1.0 if status != ACTIVE and status != FOLDED else 0.0
    block[5] = 1.0 if status == FOLDED else 0.0
    block[6] = 1.0 if i == r.button else 0.0


cdef inline void observe(const Rules* r, const State* s, const card_t* deck, int player,
                  const Legal* legal, double scale, float* out) noexcept nogil:
    """``player``'s observation (the layout above); ``legal`` is theirs when they are to act,
    else NULL (call and raise bounds 0)."""
    cdef int n = r.n, k, i, street = s.street, shown_board
    cdef float* block
    cdef card_t board[5]
    omaha_zero_108_floats(out)   # the one-hot parts (cards, street); the rest is written whole
    for k in range(r.hole_cards):
        out[hole_card(r, deck, player, k)] = 1.0
    shown_board = 0 if street == 0 else (5 if street >= RIVER else street + 2)   # 3, 4, 5
    board_cards(r, deck, board)
    for k in range(shown_board):
        out[52 + board[k]] = 1.0
    if street < SHOWDOWN:
        out[104 + street] = 1.0
    out[108] = s.pot * scale
    out[109] = out[110] = out[111] = 0.0
    if legal != NULL:
        out[109] = legal.call * scale
        if legal.can_raise:
            out[110] = legal.low * scale
            out[111] = legal.high * scale
    block = out + DEF_TABLE
    for i in range(player, n):   # the observer first, then clockwise
        write_player(r, s, i, scale, block)
        block += DEF_PLAYER
    for i in range(player):
        write_player(r, s, i, scale, block)
        block += DEF_PLAYER


cdef object checked(object value, str name, object dtype, tuple shape, bint writable):
    """``value`` as the C-contiguous NumPy array of ``dtype`` and ``shape`` a compiled loop
    reads (and, ``writable``, writes) in place; anything else is refused before any work."""
    if not isinstance(value, np.ndarray):
        raise ArrayTypeError(f"{name} must be a numpy array, got {type(value).__name__}")
    if value.dtype != dtype or value.shape != shape or not value.flags.c_contiguous \
            or (writable and not value.flags.writeable):
        raise ArrayError(f"{name} must be a {'writable ' if writable else ''}C-contiguous "
                         f"{np.dtype(dtype)} array of shape {shape}, got {value.dtype} "
                         f"{value.shape}")
    return value


def observe_hand(HandCore hand, int player, object out, double scale):
    """Write ``player``'s observation of a hand (:class:`omaha.game.hand.Hand`) into ``out``, a
    float32 array of ``TABLE_FEATURES + PLAYER_FEATURES * players``."""
    cdef Legal legal
    cdef float[::1] row
    cdef const unsigned char* deck
    if not 0 <= player < hand.rules.n:
        raise ArrayError(f"player must be 0..{hand.rules.n - 1}, got {player}")
    row = checked(out, "out", np.float32, (DEF_TABLE + DEF_PLAYER * hand.rules.n,), True)
    deck = hand._deck
    acting = hand.state.to_act == player and hand.state.street < SHOWDOWN
    if acting:
        legal_for(&hand.rules, &hand.state, player, &legal)
    observe(&hand.rules, &hand.state, deck, player, &legal if acting else NULL, scale, &row[0])


def action_totals(chips_t call, chips_t low, chips_t high, chips_t current, chips_t pot,
                  object fractions, bint min_raise, bint max_raise, object totals,
                  object mask):
    """Fill ``totals`` (int64, one per raise action) and ``mask`` (int8, every action) for a
    player who owes ``call`` and may raise to ``low``..``high`` (``low`` 0: no raise), with
    ``current`` the bet to call and ``pot`` every chip in (see :class:`omaha.rl.ActionSet`);
    ``fractions`` (float64) are the pot fractions of the raise sizes."""
    cdef Legal legal
    cdef const double[::1] sizes
    cdef int64_t[::1] out_totals
    cdef int8_t[::1] out_mask
    cdef Py_ssize_t nf = len(fractions) if isinstance(fractions, np.ndarray) else -1
    if not 0 <= nf <= MAX_SIZES:
        raise ArrayError(f"fractions must be a numpy array of at most {MAX_SIZES} sizes")
    sizes = checked(fractions, "fractions", np.float64, (nf,), False)
    out_totals = checked(totals, "totals", np.int64, (nf + min_raise + max_raise,), True)
    out_mask = checked(mask, "mask", np.int8, (nf + min_raise + max_raise + 2,), True)
    legal.call, legal.can_check, legal.can_raise = call, call == 0, low > 0
    legal.low, legal.high = low, high
    set_actions(&legal, current, pot, &sizes[0] if nf else NULL, nf, min_raise, max_raise,
                &out_totals[0] if out_totals.shape[0] else NULL, &out_mask[0])


ctypedef struct Log:
    uint8_t* actions
    Py_ssize_t length, capacity


cdef inline int log_push(Log* log, uint8_t action) noexcept nogil:
    cdef Py_ssize_t capacity
    cdef uint8_t* grown
    if log.length == log.capacity:
        capacity = 2 * log.capacity + 16
        grown = <uint8_t*>realloc(log.actions, capacity)
        if grown == NULL:
            return -1
        log.actions, log.capacity = grown, capacity
    log.actions[log.length] = action
    log.length += 1
    return 0


@cython.final
cdef class VectorCore:
    """``tables`` tables of one game, each a hand engine state (see the module notes).

    Not for direct use: :class:`omaha.rl.VectorTables` checks the arguments, owns the decks'
    randomness and reads the results.
    """

    cdef Py_ssize_t m
    cdef int n, size, nraise, nf, needed
    cdef Rules game
    cdef State blank   # every field 0: a new hand's state before the deal
    cdef Rules* rules
    cdef State* states
    cdef card_t* decks
    cdef card_t* last_decks
    cdef card_t* pool             # shuffled decks for the hands to come: rows next..end
    cdef Py_ssize_t pool_rows, pool_next, pool_end
    cdef int32_t* last_button
    cdef int64_t* dealt
    cdef uint8_t* held            # 1: the table's hand ended and waits (step's ``hold``)
    cdef chips_t* totals
    cdef Log* logs
    cdef Log* last_logs
    cdef chips_t stack, ante, small, big, bb_ante
    cdef bint single_blind, min_raise, max_raise, seven
    cdef double scale
    cdef double fractions[MAX_SIZES]
    # The arrays every step writes (owned here, so they are checked once).
    cdef float[:, ::1] obs
    cdef int8_t[:, ::1] mask
    cdef int64_t[::1] actor
    cdef float[:, ::1] rewards
    cdef uint8_t[::1] done
    cdef readonly object observation, action_mask, actors, results, ended

    def __cinit__(self):
        self.rules = NULL
        self.states = NULL
        self.decks = self.last_decks = self.pool = NULL
        self.pool_rows = self.pool_next = self.pool_end = 0
        self.last_button = NULL
        self.dealt = NULL
        self.held = NULL
        self.totals = NULL
        self.logs = self.last_logs = NULL
        self.m = 0

    def __init__(self, Py_ssize_t tables, int players, int hole_cards, bint hi_lo,
                 bint omaha_rule, bint limit, bint pot_limit, tuple units, object max_raises,
                 bint uncapped_heads_up, chips_t ante, chips_t small, chips_t big,
                 chips_t big_blind_ante, chips_t stack, object fractions,
                 bint min_raise, bint max_raise):
        cdef Py_ssize_t t
        cdef int k
        cdef Py_ssize_t nf = len(fractions) if isinstance(fractions, np.ndarray) else -1
        if self.m:
            raise OmahaError("a VectorCore is set up once")
        if not 1 <= tables <= 1_000_000 or not 2 <= players <= MAX_PLAYERS:
            raise OmahaError("1 to 1,000,000 tables of 2 to 10 players")
        if not 2 <= hole_cards <= 6 or not 0 <= nf <= MAX_SIZES or len(units) != 4:
            raise OmahaError("2 to 6 hole cards, a numpy array of at most 64 raise sizes, "
                             "4 bet units")
        cdef const double[::1] sizes = checked(fractions, "fractions", np.float64, (nf,), False)
        if not (0 <= ante and 0 <= small and 0 < big and 0 <= big_blind_ante
                and ante + big + big_blind_ante < stack <= 10**15):
            raise OmahaError("every stack must cover the forced bets (and be at most 10**15)")
        for k in range(4):
            if not 0 < units[k] <= 10**15:
                raise OmahaError("the bet units must be 1..10**15")
        memset(&self.game, 0, sizeof(Rules))
        memset(&self.blank, 0, sizeof(State))
        self.game.n, self.game.hole_cards = players, hole_cards
        self.game.hi_lo, self.game.omaha_rule = hi_lo, omaha_rule
        self.game.limit, self.game.pot_limit = limit, pot_limit
        self.game.uncapped_heads_up = uncapped_heads_up
        self.game.max_raises = -1 if max_raises is None else min(max_raises, 1 << 30)
        for k in range(4):
            self.game.units[k] = units[k]
        self.n, self.needed = players, players * hole_cards + AFTER_HOLES
        self.ante, self.small, self.big, self.bb_ante = ante, small, big, big_blind_ante
        self.single_blind = small == 0
        self.seven = not omaha_rule and not hi_lo and hole_cards == 2
        self.stack, self.scale = stack, 1.0 / big
        self.nf = nf
        for k in range(self.nf):
            if not 0 < sizes[k] <= 100:
                raise OmahaError("a raise size is a pot fraction in (0, 100]")
            self.fractions[k] = sizes[k]
        self.min_raise, self.max_raise = min_raise, max_raise
        self.nraise = self.nf + min_raise + max_raise
        self.size = DEF_TABLE + DEF_PLAYER * players
        self.rules = <Rules*>malloc(tables * sizeof(Rules))
        self.states = <State*>malloc(tables * sizeof(State))
        self.decks = <card_t*>malloc(tables * self.needed)
        self.last_decks = <card_t*>malloc(tables * self.needed)
        self.pool = <card_t*>malloc(2 * tables * self.needed)
        self.last_button = <int32_t*>malloc(tables * sizeof(int32_t))
        self.dealt = <int64_t*>malloc(tables * sizeof(int64_t))
        self.held = <uint8_t*>malloc(tables)
        self.totals = <chips_t*>malloc(tables * (self.nraise + 1) * sizeof(chips_t))
        self.logs = <Log*>malloc(tables * sizeof(Log))
        self.last_logs = <Log*>malloc(tables * sizeof(Log))
        if (self.rules == NULL or self.states == NULL or self.decks == NULL
                or self.last_decks == NULL or self.pool == NULL or self.last_button == NULL
                or self.dealt == NULL or self.held == NULL
                or self.totals == NULL or self.logs == NULL or self.last_logs == NULL):
            raise MemoryError()
        for t in range(tables):
            self.logs[t].actions = self.last_logs[t].actions = NULL
            self.logs[t].length = self.logs[t].capacity = 0
            self.last_logs[t].length = self.last_logs[t].capacity = 0
            self.last_button[t] = -1
            self.dealt[t] = 0
            self.held[t] = 0
        self.pool_rows = 2 * tables
        self.observation = np.zeros((tables, self.size), np.float32)
        self.action_mask = np.zeros((tables, self.nraise + 2), np.int8)
        self.actors = np.zeros(tables, np.int64)
        self.results = np.zeros((tables, players), np.float32)
        self.ended = np.zeros(tables, np.bool_)
        self.obs, self.mask, self.actor = self.observation, self.action_mask, self.actors
        self.rewards, self.done = self.results, self.ended.view(np.uint8)
        self.m = tables

    def __dealloc__(self):
        cdef Py_ssize_t t
        if self.logs != NULL:
            for t in range(self.m):
                free(self.logs[t].actions)
        if self.last_logs != NULL:
            for t in range(self.m):
                free(self.last_logs[t].actions)
        free(self.rules)
        free(self.states)
        free(self.decks)
        free(self.last_decks)
        free(self.pool)
        free(self.last_button)
        free(self.dealt)
        free(self.held)
        free(self.totals)
        free(self.logs)
        free(self.last_logs)

    # --- one table, without the GIL -----------------------------------------------------

    cdef void deal(self, Py_ssize_t t, const card_t* deck) noexcept nogil:
        """Table ``t``'s next hand: the button moves one seat (seat 1 first after a reset),
        the forced bets are posted (T3-T5) and the preflop round opens."""
        cdef Rules* r = &self.rules[t]
        cdef State* s = &self.states[t]
        cdef Posted posted[2 * MAX_PLAYERS + 2]
        cdef int k
        memcpy(r, &self.game, sizeof(Rules))
        seat_blinds(r, self.dealt[t] % self.n, self.single_blind)
        self.dealt[t] += 1
        memcpy(s, &self.blank, sizeof(State))
        for k in range(self.n):
            s.stacks[k] = self.stack
            s.status[k] = ACTIVE
        s.live = s.active = self.n
        s.to_act = -1
        memcpy(&self.decks[t * self.needed], deck, self.needed)
        post_forced(r, s, self.ante, self.small, self.big, self.bb_ante, NULL, 0, posted)
        open_preflop(r, s, self.big)   # every stack covers the forced bets: someone acts
        self.logs[t].length = 0

    cdef void ready(self, Py_ssize_t t, float* obs, int8_t* mask, int64_t* actor) noexcept nogil:
        """The player to act's observation, mask and raise totals."""
        cdef Legal legal
        cdef const State* s = &self.states[t]
        legal_for(&self.rules[t], s, s.to_act, &legal)
        set_actions(&legal, s.current_bet, s.pot, self.fractions, self.nf, self.min_raise,
                    self.max_raise, &self.totals[t * (self.nraise + 1)], mask)
        observe(&self.rules[t], s, &self.decks[t * self.needed], s.to_act, &legal, self.scale,
                obs)
        actor[0] = s.to_act

    cdef int finish(self, Py_ssize_t t, bint showdown, float* rewards) noexcept nogil:
        """Award table ``t``'s hand (S1-S4, P1-P2) and write each player's result in big
        blinds; its deck, button and actions become the last hand's. -1 if the splitter
        refused (it cannot: the state is the engine's)."""
        cdef const Rules* r = &self.rules[t]
        cdef State* s = &self.states[t]
        cdef strength_t high[MAX_PLAYERS]
        cdef strength_t low[MAX_PLAYERS]
        cdef uint8_t folded[MAX_PLAYERS]
        cdef int64_t order[MAX_PLAYERS]
        cdef chips_t payouts[MAX_PLAYERS]
        cdef chips_t returned[MAX_PLAYERS]
        cdef PotRecord pots[MAX_PLAYERS + 1]
        cdef int k, npots = 0, status
        cdef Py_ssize_t where = -1
        cdef Log swap
        cdef card_t cards[7]
        if showdown and self.seven:   # Hold'em: the lookup (best_of_any's answers)
            for k in range(r.n):
                high[k] = low[k] = 0
                if s.status[k] != FOLDED:
                    cards[0] = hole_card(r, &self.decks[t * self.needed], k, 0)
                    cards[1] = hole_card(r, &self.decks[t * self.needed], k, 1)
                    board_cards(r, &self.decks[t * self.needed], &cards[2])
                    high[k] = seven_high(cards)
        elif showdown:
            strengths(r, s, &self.decks[t * self.needed], high, low)
        else:
            for k in range(r.n):
                high[k] = low[k] = 0
        for k in range(r.n):
            folded[k] = s.status[k] == FOLDED
        odd_chip_order(r, order)
        status = settle_kernel(r.n, s.contrib, folded, high, low if r.hi_lo else NULL, order,
                               0, s.dead, payouts, returned, pots, &npots, &where)
        if status != POT_OK:
            return -1
        for k in range(r.n):
            rewards[k] = (s.stacks[k] + payouts[k] - self.stack) * self.scale
        memcpy(&self.last_decks[t * self.needed], &self.decks[t * self.needed], self.needed)
        self.last_button[t] = r.button
        swap = self.last_logs[t]
        self.last_logs[t] = self.logs[t]
        self.logs[t] = swap
        return 0

    # --- Python entry points ------------------------------------------------------------

    def refill(self, object entropy):
        """Shuffle decks into the pool from the random bytes ``entropy`` (the caller's
        generator: the OS's, or a seeded one) until it is full or the bytes run out; returns
        how many decks the pool holds. A step deals at most one deck per table."""
        if type(entropy) is not bytes:
            raise ArrayTypeError(f"entropy must be bytes, got {type(entropy).__name__}")
        cdef const unsigned char* source = entropy
        cdef Py_ssize_t used = 0, size = len(entropy), rows = self.pool_end - self.pool_next
        cdef int needed = self.needed
        with nogil:
            if self.pool_next:
                memmove(self.pool, &self.pool[self.pool_next * needed], rows * needed)
                self.pool_next, self.pool_end = 0, rows
            while self.pool_end < self.pool_rows and shuffle_deck(
                    source, size, &used, &self.pool[self.pool_end * needed], needed):
                self.pool_end += 1
        return self.pool_end

    @property
    def pooled(self):
        """How many shuffled decks wait in the pool (see :meth:`refill`)."""
        return self.pool_end - self.pool_next

    @property
    def pool_size(self):
        """How many decks the pool holds when full (two per table)."""
        return self.pool_rows

    def discard_pool(self):
        """Empty the pool (a reset with a new seed must not deal the old decks)."""
        self.pool_next = self.pool_end = 0

    cdef inline const card_t* next_deck(self) noexcept nogil:
        cdef const card_t* deck = &self.pool[self.pool_next * self.needed]
        self.pool_next += 1
        return deck

    def reset(self):
        """Deal every table a hand from the pool, buttons on seat 1; results cleared."""
        cdef Py_ssize_t t
        self._check_pool()
        with nogil:
            for t in range(self.m):
                self.dealt[t] = 0
                self.held[t] = 0
                self.last_button[t] = -1
                self.last_logs[t].length = 0
                self.deal(t, self.next_deck())
                self.ready(t, &self.obs[t, 0], &self.mask[t, 0], &self.actor[t])
                memset(&self.rewards[t, 0], 0, self.n * sizeof(float))
                self.done[t] = 0

    cdef void wait(self, Py_ssize_t t, int player, float* obs, int8_t* mask,
                   int64_t* actor) noexcept nogil:
        """Table ``t``'s hand is over and waits (``hold``): ``player``'s view of the final
        state, a mask allowing only check/call (the next action is ignored), ``player`` as
        the actor."""
        cdef int k
        self.held[t] = 1
        observe(&self.rules[t], &self.states[t], &self.decks[t * self.needed], player, NULL,
                self.scale, obs)
        for k in range(self.nraise + 2):
            mask[k] = 0
        mask[CHECK_CALL_ACTION] = 1
        actor[0] = player

    def step(self, object actions, object illegal=None, bint hold=False, int view=-1,
             bint skip=False, object final=None, object gains=None):
        """Apply one action per table (``actions``: int64, one per table).

        Strict (``illegal`` None): every action is checked against :attr:`action_mask`
        first, and any masked or unknown action refuses the whole step, changing nothing.
        Lenient (``illegal`` a writable uint8 array, one per table): a masked action of the
        range is played as a fold (exactly the outcome of folding in that state: B2 allows
        a fold on any turn) and flagged 1 in ``illegal`` (else 0); an action of -1 leaves its
        table as it is (its rows unchanged); an unknown action still refuses the whole step.

        Hands that end are awarded, their results written to :attr:`results` and
        :attr:`ended` (a row of results is cleared when its table next moves on). Without
        ``hold`` the next hand is dealt at once from the pool (which must hold a deck per
        table: :meth:`refill`). With ``hold`` the finished table waits: its row shows the
        final state as player ``view`` sees it (the player who acted when -1), a mask with
        only check/call, and that player as the actor; its next action (any of the range,
        ignored, never flagged) deals the next hand (Gymnasium's next-step autoreset).
        ``final`` (a writable float32 array shaped like :attr:`observation`), without
        ``hold``: the final observation of each hand that ends, as ``view`` (or the player who
        acted) sees it, is written to its row before the next hand is dealt (Gymnasium's
        same-step autoreset); other rows are left as they were. ``gains`` (a writable
        float64 array, one per table): each table that moves gets the result in big blinds
        of ``view`` (or of the player who acted) when its hand ends, else 0.
        Returns how many hands ended; :attr:`observation`, :attr:`action_mask` and
        :attr:`actors` then describe every table's next decision."""
        cdef Py_ssize_t t, bad = -1, ended = 0
        cdef int64_t a, low
        cdef int i, k, failed = 0
        cdef bint lenient = illegal is not None
        cdef Outcome outcome
        cdef State* s
        cdef const Rules* r
        cdef const int64_t[::1] chosen = checked(actions, "actions", np.int64, (self.m,), False)
        cdef uint8_t[::1] flags
        cdef uint8_t* flag = NULL
        cdef float[:, ::1] last
        cdef bint keep = final is not None
        cdef double[::1] gained
        cdef double* gain = NULL
        cdef float[:, ::1] obs = self.obs
        cdef int8_t[:, ::1] mask = self.mask
        cdef int64_t[::1] actor = self.actor
        cdef float[:, ::1] rewards = self.rewards
        cdef uint8_t[::1] done = self.done
        if lenient:
            flags = checked(illegal, "illegal", np.uint8, (self.m,), True)
            flag = &flags[0]
        if keep:
            last = checked(final, "final", np.float32, (self.m, self.size), True)
        if gains is not None:
            gained = checked(gains, "gains", np.float64, (self.m,), True)
            gain = &gained[0]
        if skip and not lenient:
            raise ArrayError("skip needs the lenient mode (an illegal array)")
        if not -1 <= view < self.n:
            raise ArrayError(f"view must be -1..{self.n - 1}, got {view}")
        self._check_pool()
        low = -1 if skip else 0
        with nogil:
            for t in range(self.m):   # every action checked before any table changes
                a = chosen[t]
                if a < low or a >= self.nraise + 2 or not (
                        lenient or self.held[t] or mask[t, a]):
                    bad = t
                    break
            if bad < 0:
                for t in range(self.m):
                    a = chosen[t]
                    if lenient:
                        flag[t] = 0
                    if a < 0:   # skip: this table waits
                        continue
                    if gain != NULL:
                        gain[t] = 0.0
                    if done[t]:   # the row holds the last results: clear them
                        for k in range(self.n):
                            rewards[t, k] = 0.0
                        done[t] = 0
                    if self.held[t]:   # a finished hand waited: the next one is dealt
                        self.held[t] = 0
                        self.deal(t, self.next_deck())
                        self.ready(t, &obs[t, 0], &mask[t, 0], &actor[t])
                        continue
                    if lenient and not mask[t, a]:
                        flag[t] = 1
                        a = FOLD_ACTION
                    s = &self.states[t]
                    r = &self.rules[t]
                    i = s.to_act
                    if log_push(&self.logs[t], <uint8_t>a) != 0:
                        failed = 1
                        break
                    if a == FOLD_ACTION:
                        outcome = apply_fold(r, s, i)
                    elif a == CHECK_CALL_ACTION:
                        if s.current_bet > s.bets[i]:
                            outcome = apply_call(r, s, i)
                        else:
                            outcome = apply_check(r, s, i)
                    else:
                        outcome = apply_raise(r, s, i, self.totals[t * (self.nraise + 1) + a - 2])
                    if outcome != TURN:
                        done[t] = 1
                        if self.finish(t, outcome == TO_SHOWDOWN, &rewards[t, 0]) != 0:
                            failed = 2
                            break
                        ended += 1
                        if gain != NULL:
                            gain[t] = rewards[t, view if view >= 0 else i]
                        if hold:
                            self.wait(t, view if view >= 0 else i, &obs[t, 0], &mask[t, 0],
                                      &actor[t])
                            continue
                        if keep:
                            observe(r, s, &self.decks[t * self.needed],
                                    view if view >= 0 else i, NULL, self.scale, &last[t, 0])
                        self.deal(t, self.next_deck())
                    self.ready(t, &obs[t, 0], &mask[t, 0], &actor[t])
        if bad >= 0:
            a = chosen[bad]
            if not low <= a < self.nraise + 2:
                raise ArrayError(f"table {bad}: action {a} is not one of "
                                 f"{low}..{self.nraise + 1}")
            raise ArrayError(f"table {bad}: action {a} is masked (illegal now)")
        if failed:
            raise MemoryError() if failed == 1 else RuntimeError("the splitter refused a pot")
        return ended

    cdef int _check_pool(self) except -1:
        if self.m == 0:
            raise OmahaError("this VectorCore was not set up")
        if self.pool_end - self.pool_next < self.m:
            raise OmahaError(f"the pool holds {self.pool_end - self.pool_next} decks; a step "
                             f"needs one per table ({self.m}): refill() first")
        return 0

    def retarget(self, object observation):
        """Write the observations into ``observation`` (a writable C-contiguous float32
        array shaped like :attr:`observation`) from now on; it becomes :attr:`observation`.
        A step that moves every table rewrites every row, so a caller that wants each
        step's observations as its own array hands a fresh one before the step (no copy)."""
        self.obs = checked(observation, "observation", np.float32, (self.m, self.size), True)
        self.observation = observation

    @property
    def cards_needed(self):
        """Cards dealt per hand (T6)."""
        return self.needed

    def last_hand(self, Py_ssize_t t):
        """Table ``t``'s last finished hand: ``(deck bytes, button index, actions)``, or
        None before one ended."""
        if not 0 <= t < self.m:
            raise ArrayError(f"table must be 0..{self.m - 1}, got {t}")
        if self.last_button[t] < 0:
            return None
        log = self.last_logs[t]
        return (bytes(self.last_decks[t * self.needed:(t + 1) * self.needed]),
                self.last_button[t], [log.actions[k] for k in range(log.length)])

    def state(self, Py_ssize_t t):
        """Table ``t``'s state as the hand engine reads it (for the tests' cross-check):
        a dict of the street, the player to act, pot, stacks, bets, contributions, states."""
        if not 0 <= t < self.m:
            raise ArrayError(f"table must be 0..{self.m - 1}, got {t}")
        s = &self.states[t]
        n = self.n
        return {"street": SHOWDOWN_NAME if s.street == SHOWDOWN else s.street, "to_act": s.to_act, "pot": s.pot,
                "stacks": [s.stacks[k] for k in range(n)],
                "bets": [s.bets[k] for k in range(n)],
                "contrib": [s.contrib[k] for k in range(n)],
                "status": [s.status[k] for k in range(n)],
                "current_bet": s.current_bet, "button": self.rules[t].button,
                "deck": bytes(self.decks[t * self.needed:(t + 1) * self.needed])}
