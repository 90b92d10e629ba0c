# cython: freethreading_compatible=True
"""The hand engine's compiled centre: one hand's state as plain C numbers, its copy and undo,
and the actions, each a pure transition over that state (issue 12).

:class:`HandCore` is the base of :class:`omaha.game.hand.Hand`. It holds two small C structs
(``engine.pxd``): the hand's fixed :c:type:`Rules` (players, button, blinds, structure, bet
units) and its :c:type:`State` (stacks, bets, contributions, player states, street, turn, the
betting round). The betting rules B1-B8 are the transitions of :mod:`omahacore.transitions`
(``apply_fold``, ``apply_check``, ``apply_call``, ``apply_raise``, ``apply_protect`` and the
round flow ``advance``), each with its check (``raise_reason`` and the others): this class
asks the check, words a refusal through :mod:`omahacore.refusals`, records the State for
undo, runs the transition, and writes the event log.

Undo is by saved state: before an action the whole State (a few hundred bytes) is copied onto
an undo stack, and :meth:`HandCore._pop` copies it back. :meth:`HandCore.copy` copies the
structs and the log.

The event log holds tuples ``(code, *fields)`` with the ``EV_*`` codes below;
:attr:`omaha.game.hand.Hand.events` turns them into :mod:`omaha.game.events` objects when read.

What happens once the betting is over (the showdown, S1, and the award, P1-S4, K1) is asked of
the subclass through ``self._showdown()`` and ``self._finish()`` (:mod:`omaha.game.award`).
"""

cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from libc.string cimport memcpy, memset

from libc.stdint cimport INT64_MAX

from omahacore._input cimport exact_int, shown
from omahacore._types cimport chips_t, strength_t
from omahacore.transitions cimport (
    ACTIVE, AFTER_HOLES, MAX_PLAYERS, MUCKED, OK, POST_ANTE, PREFLOP, RIVER, SHOWDOWN,
    SHOWDOWN_NAME, TO_AWARD,
    TO_SHOWDOWN, Legal, Outcome, Posted, Reason, Refusal, advance, apply_call, apply_check,
    apply_fold, apply_protect, apply_raise, board_range, hole_card, call_reason, check_reason, legal_for,
    open_preflop, post_forced, protect_reason, raise_reason, show_down, shuffle_deck,
    turn_reason)

from omahacore.actions import LegalActions
from omahacore.errors import TableError
from omahacore.refusals import refused
from omahacore.transitions import STREET_CARDS

# Event log codes: entry[0] of every log tuple.
EV_STARTED, EV_POSTED, EV_HOLES, EV_BURNED, EV_BOARD = 0, 1, 2, 3, 4
EV_FOLDED, EV_CHECKED, EV_CALLED, EV_RAISED, EV_TIMED_OUT = 5, 6, 7, 8, 9
EV_PROTECTED, EV_SHOWN, EV_MUCKED, EV_RETURNED, EV_POT_AWARDED, EV_ENDED = 10, 11, 12, 13, 14, 15

# Log entries that are the same in every hand, shared to keep live hands small.
cdef tuple FOLDED_ENTRIES = tuple([(EV_FOLDED, seat) for seat in range(MAX_PLAYERS + 1)])
cdef tuple CHECKED_ENTRIES = tuple([(EV_CHECKED, seat) for seat in range(MAX_PLAYERS + 1)])
HOLES_ENTRY = (EV_HOLES,)   # one entry for every player's HoleDealt event
cdef tuple HOLES = HOLES_ENTRY
cdef object NEW_TUPLE = tuple.__new__

# The names of the forced bets in the log, by transitions.PostKind.
cdef tuple POST_NAMES = ("ante", "small_blind", "big_blind", "big_blind_ante", "live_blind")

# An undo record is a State up to its stud cards: a flop hand never changes them (they stay
# zero), and leaving them out keeps a live hand small. The size is read from the layout once.
cdef State _LAYOUT
cdef Py_ssize_t RECORD = <char*>&_LAYOUT.stud - <char*>&_LAYOUT


cdef enum Act:
    FOLD = 0
    CHECK = 1
    CALL = 2
    PROTECT = 3

ACT_FOLD, ACT_CHECK, ACT_CALL, ACT_PROTECT = FOLD, CHECK, CALL, PROTECT
NOT_YET = []   # the showdown order and shown hands before the showdown: shared, never edited


cdef inline object entry_for(tuple shared, object seat):
    """The shared ``(code, seat)`` entry, or a new one for a seat number past the table."""
    cdef Py_ssize_t k = seat
    return shared[k] if 0 <= k <= MAX_PLAYERS else (shared[0][0], seat)


def shuffle_with(bytes entropy, int count):
    """The top ``count`` cards of a 52-card deck shuffled by Fisher-Yates from ``entropy``
    (random bytes), as bytes; None if the bytes ran out (ask again with more).

    Each swap position below ``m`` comes from one byte (Lemire's method, see
    ``transitions.shuffle_deck``), so every order is equally likely (C2).
    """
    cdef unsigned char deck[52]
    cdef Py_ssize_t used = 0
    if not 0 <= count <= 52:
        raise ValueError(f"cannot draw {count} cards from 52")
    if not shuffle_deck(entropy, len(entropy), &used, deck, count):
        return None
    return deck[:count]


cdef class HandCore:
    """One hand's state in C structs, with the actions as checked transitions over it.

    Not made directly: :class:`omaha.game.hand.Hand` checks the arguments and calls
    :meth:`_start`.
    """

    def __cinit__(self):
        self.undo_stack = NULL
        self.undo_length = self.undo_capacity = 0
        memset(&self.rules, 0, sizeof(Rules))
        memset(&self.state, 0, sizeof(State))
        self.state.to_act = -1
        self._log = []
        self._order = self._shown = NOT_YET
        self._strengths = self._showdown_state = self._settlement = self._result = None
        self._undo_extra = None
        self._manual = False

    def __dealloc__(self):
        PyMem_Free(self.undo_stack)

    # --- the deal ----------------------------------------------------------------------

    def _start(self, tuple seats, int button, int sb, int bb, list stacks, bytes deck,
               int hole_cards, tuple blinds, tuple live_blinds, bint limit, bint pot_limit,
               tuple units, max_raises, bint uncapped_heads_up, bint hi_lo, bint omaha_rule):
        """Post the forced bets, deal the hole cards and open the preflop round (T3-T6).

        ``blinds`` is ``(ante, small blind, big blind, big blind ante)``; ``live_blinds`` the
        indices posting a live big blind (T5); ``units`` the bet unit per street. The caller
        (:class:`omaha.game.hand.Hand`) has checked every argument; these checks only keep the C
        state in bounds.
        """
        cdef int n = len(seats), k, count, street = self.state.street
        cdef chips_t total = 0, ante, small, big, bb_ante
        cdef int live[MAX_PLAYERS]
        cdef Posted posted[2 * MAX_PLAYERS + 2]
        if not 2 <= n <= MAX_PLAYERS or len(stacks) != n or len(units) != 4:
            raise ValueError("a hand has 2 to 10 players, one stack each, and 4 bet units")
        if not (0 <= button < n and 0 <= sb < n and 0 <= bb < n):
            raise ValueError("the button and blinds must be players of the hand")
        if not 2 <= hole_cards <= 6 or (omaha_rule and hole_cards < 4):
            raise ValueError("Omaha deals 4 to 6 hole cards, Hold'em 2")
        if len(deck) != n * hole_cards + AFTER_HOLES or any(c >= 52 for c in deck):
            raise ValueError("the dealt sequence must hold n * hole_cards + 8 cards 0..51")
        with cython.critical_section(self):
            memset(&self.rules, 0, sizeof(Rules))   # a second __init__ starts afresh
            memset(&self.state, 0, sizeof(State))
            self.undo_length = 0
            self._undo_extra = None
            self._order = self._shown = NOT_YET
            self._strengths = self._showdown_state = self._settlement = self._result = None
            self.seats = seats
            self._deck = deck
            r = &self.rules
            s = &self.state
            r.n, r.button, r.sb, r.bb = n, button, sb, bb
            r.limit, r.pot_limit, r.uncapped_heads_up = limit, pot_limit, uncapped_heads_up
            r.hole_cards, r.hi_lo, r.omaha_rule = hole_cards, hi_lo, omaha_rule
            r.max_raises = -1 if max_raises is None else min(max_raises, 1 << 30)
            for k in range(4):
                r.units[k] = units[k]
            for k in range(n):
                s.stacks[k] = stacks[k]
                if s.stacks[k] <= 0 or s.stacks[k] > INT64_MAX - total:
                    raise ValueError("stacks must be positive and total at most MAX_CHIPS")
                total += s.stacks[k]
                s.status[k] = ACTIVE
            s.live = s.active = n
            s.to_act = -1
            ante, small, big, bb_ante = blinds
            if len(live_blinds) > n:
                raise ValueError("at most one live blind per player")
            for k in range(len(live_blinds)):
                live[k] = live_blinds[k]
                if not 0 <= live[k] < n:
                    raise ValueError("no such player")
            count = post_forced(r, s, ante, small, big, bb_ante, live, len(live_blinds), posted)
            log = self._log
            for k in range(count):
                log.append((EV_POSTED, seats[posted[k].player], POST_NAMES[posted[k].kind],
                            posted[k].amount))
            log.append(HOLES)
            self._after(street, open_preflop(r, s, big))

    # --- the state, read (and written by the showdown) --------------------------------

    @property
    def _n(self):
        return self.rules.n

    @property
    def _button(self):
        return self.rules.button

    @property
    def _sb(self):
        return self.rules.sb

    @property
    def _bb(self):
        return self.rules.bb

    @property
    def _street(self):
        return SHOWDOWN_NAME if self.state.street == SHOWDOWN else self.state.street

    @property
    def _to_act(self):
        return self.state.to_act

    @_to_act.setter
    def _to_act(self, int i):
        if not -1 <= i < self.rules.n:
            raise ValueError("no such player")
        self.state.to_act = i

    @property
    def _pot(self):
        return self.state.pot

    @property
    def _dead(self):
        return self.state.dead

    @property
    def _live(self):
        return self.state.live

    @property
    def _active(self):
        return self.state.active

    @property
    def _current_bet(self):
        return self.state.current_bet

    @property
    def _aggressor(self):
        return self.state.aggressor

    @property
    def _stacks(self):
        return [self.state.stacks[k] for k in range(self.rules.n)]

    @property
    def _bets(self):
        return [self.state.bets[k] for k in range(self.rules.n)]

    @property
    def _contrib(self):
        return [self.state.contrib[k] for k in range(self.rules.n)]

    @property
    def _status(self):
        return [self.state.status[k] for k in range(self.rules.n)]

    @property
    def _acted(self):
        return [bool(self.state.acted[k]) for k in range(self.rules.n)]

    @property
    def _board(self):
        """The board cards dealt so far, as card indices."""
        cdef int street = self.state.street if self.state.street <= RIVER else RIVER
        cdef int burn, first, end, k, s
        cdef Py_ssize_t base = len(self._deck) - AFTER_HOLES
        cdef const unsigned char* deck = self._deck
        cards = []
        for s in range(1, street + 1):
            board_range(s, &burn, &first, &end)
            for k in range(first, end):
                cards.append(deck[base + k])
        return tuple(cards)

    def _hole(self, int i):
        """Player ``i``'s hole cards as card indices (dealt one at a time from the small
        blind, T6)."""
        cdef const unsigned char* deck
        cdef unsigned char cards[6]
        cdef int k
        if not 0 <= i < self.rules.n:
            raise ValueError("no such player")
        deck = self._deck
        for k in range(self.rules.hole_cards):
            cards[k] = hole_card(&self.rules, deck, i, k)
        return tuple(cards[:self.rules.hole_cards])   # bytes, read as card indices

    @property
    def _holes(self):
        return [self._hole(i) for i in range(self.rules.n)]

    def _set_status(self, int i, int status):
        """Set player ``i``'s state (the showdown mucks hands, S1)."""
        if not 0 <= i < self.rules.n or not ACTIVE <= status <= MUCKED:
            raise ValueError("no such player or state")
        self.state.status[i] = status

    def _set_final_stacks(self, list final):
        """The stacks after the award (chips paid back to each player)."""
        cdef int k
        if len(final) != self.rules.n:
            raise ValueError("one stack per player")
        for k in range(self.rules.n):
            self.state.stacks[k] = final[k]

    # --- queries -----------------------------------------------------------------------

    @property
    def undo_depth(self):
        """How many actions :meth:`undo` can take back."""
        return self.undo_length

    def legal_actions(self):
        """What the player to act may do: fold/check/call amounts and raise bounds (B1-B8).

        At showdown only ``can_show``/``can_muck`` are set (S1). Raises
        :class:`~omaha.errors.IllegalActionError` when nobody is to act.
        """
        cdef Legal legal
        cdef int i = self.state.to_act
        if i < 0:
            raise refused(Reason.HAND_OVER)
        seat = self.seats[i]
        if self.state.street == SHOWDOWN:
            return LegalActions(seat, False, False, 0, None, None, True, True)
        legal_for(&self.rules, &self.state, i, &legal)
        if legal.can_raise:
            return NEW_TUPLE(LegalActions, (seat, True, legal.can_check, legal.call, legal.low,
                                            legal.high, False, False))
        return NEW_TUPLE(LegalActions, (seat, True, legal.can_check, legal.call, None, None,
                                        False, False))

    @property
    def is_over(self):
        """Whether the hand is finished and awarded."""
        return self._settlement is not None

    @property
    def to_act(self):
        """The seat whose decision is pending (a bet, or show/muck at showdown), else None."""
        return self.seats[self.state.to_act] if self.state.to_act >= 0 else None

    @property
    def pot_total(self):
        """Every chip put in this hand, bets in front of players included."""
        return self.state.pot

    def current_bet(self):
        """The total a player must have in this round to stay in (0 when nobody bet)."""
        return self.state.current_bet if self.state.street < SHOWDOWN else 0

    # --- actions (B1-B8) ---------------------------------------------------------------

    cdef int _turn_index(self, object seat) except -2:
        """The player to act, checking ``seat`` when given (B1)."""
        cdef int i = self.state.to_act
        if seat is not None or i < 0 or self.state.street == SHOWDOWN:
            i = self._turn(seat)
        return i

    def _turn(self, seat):
        """The index of the player to act, checking ``seat`` (a seat number, or None for
        whoever is to act) against the turn (B1)."""
        cdef int i = -1
        cdef Reason reason
        cdef object number = None
        if seat is not None:
            number = exact_int(seat)   # the one integer rule: bool (equal to 1) is no seat
            if number is None:
                raise TableError("T1", "seat must be a seat number (int) or None, got "
                                 f"{shown(seat)}")
            i = self.seats.index(number) if number in self.seats else -2
        reason = turn_reason(&self.state, i)
        if reason != OK:
            turn = self.seats[self.state.to_act] if self.state.to_act >= 0 else None
            raise refused(reason, seat=shown(number), turn=turn)
        return self.state.to_act

    cdef object _refused(self, void* refusal, object to):
        """The error for a refused action (its facts in ``refusal``, a Refusal)."""
        cdef Refusal* f = <Refusal*>refusal
        return refused(f.reason, seat=self.seats[f.player], to=shown(to), owed=f.owed,
                       stack=f.stack, low=f.low, high=f.high, cap=f.cap,
                       word="raise" if self.state.current_bet else "bet")

    def fold(self, *, seat=None):
        """Fold (B2: allowed on any turn, even when a check is free)."""
        with cython.critical_section(self):
            i = self._turn_index(seat)
            self._push_state()
            self._act_at(FOLD, i)

    def check(self, *, seat=None):
        """Check: only when nothing is owed (B2)."""
        cdef Refusal refusal
        with cython.critical_section(self):
            i = self._turn_index(seat)
            if check_reason(&self.state, i, &refusal) != OK:
                raise self._refused(&refusal, None)
            self._push_state()
            self._act_at(CHECK, i)

    def call(self, *, seat=None):
        """Call the current bet, all-in if the stack is short (B8)."""
        cdef Refusal refusal
        with cython.critical_section(self):
            i = self._turn_index(seat)
            if call_reason(&self.state, i, &refusal) != OK:
                raise self._refused(&refusal, None)
            self._push_state()
            self._act_at(CALL, i)

    def check_or_call(self, *, seat=None):
        """Check when nothing is owed, else call (PHH ``cc``)."""
        with cython.critical_section(self):
            i = self._turn_index(seat)
            self._push_state()
            self._act_at(CALL if self.state.current_bet > self.state.bets[i] else CHECK, i)

    def bet_or_raise(self, to, *, seat=None):
        """Bet, or raise, to a total of ``to`` this round (B3-B8)."""
        cdef Refusal refusal
        cdef chips_t total
        with cython.critical_section(self):
            i = self._turn_index(seat)
            if type(to) is not int:
                to_int = exact_int(to)   # the one integer rule: NumPy ints count, bool not
                if to_int is None:
                    raise refused(Reason.NOT_AN_AMOUNT, to=shown(to))
                to = to_int
            s = &self.state
            if not -INT64_MAX <= to <= INT64_MAX:
                raise refused(Reason.BEYOND_ANY_STACK, to=shown(to))
            total = to
            if raise_reason(&self.rules, s, i, total, &refusal) != OK:
                raise self._refused(&refusal, to)
            self._push_state()
            street = s.street
            self._log.append((EV_RAISED, self.seats[i], to))
            self._after(street, apply_raise(&self.rules, s, i, total))

    def protect_all_in(self, *, seat=None):
        """Treat the player to act as all-in for what they put in (D2).

        They keep the rest of their stack, take no further action, and can win only the
        pots formed up to their contribution. Only when a check is not free and the player
        already has chips in the pot this hand (D2: otherwise a timeout checks or folds).
        """
        cdef Refusal refusal
        with cython.critical_section(self):
            i = self._turn_index(seat)
            if protect_reason(&self.state, i, &refusal) != OK:
                raise self._refused(&refusal, None)
            self._push_state()
            self._act_at(PROTECT, i)

    def _act(self, int act, int i):
        """Apply a checked fold, check, call or protected all-in (``ACT_*``) by player ``i``,
        its undo record already pushed (timeouts, all-in calls)."""
        with cython.critical_section(self):
            self._act_at(act, i)

    cdef int _act_at(self, int act, int i) except -1:
        """Log the action, run its transition, then what the flow reached."""
        cdef Outcome outcome
        s = &self.state
        r = &self.rules
        if not 0 <= i < r.n or i != s.to_act or s.street >= SHOWDOWN:
            raise ValueError("only the player to act acts")
        street = s.street
        seat = self.seats[i]
        if act == FOLD:
            self._log.append(entry_for(FOLDED_ENTRIES, seat))
            outcome = apply_fold(r, s, i)
        elif act == CHECK:
            if s.current_bet > s.bets[i]:
                raise ValueError("a check owes nothing")
            self._log.append(entry_for(CHECKED_ENTRIES, seat))
            outcome = apply_check(r, s, i)
        elif act == CALL:
            owed = s.current_bet - s.bets[i]
            if owed <= 0:
                raise ValueError("a call owes something")
            self._log.append((EV_CALLED, seat, owed if owed < s.stacks[i] else s.stacks[i]))
            outcome = apply_call(r, s, i)
        elif act == PROTECT:
            self._log.append((EV_PROTECTED, seat))
            outcome = apply_protect(r, s, i)
        else:
            raise ValueError("no such action")
        return self._after(street, outcome)

    cdef int _after(self, int street, Outcome outcome) except -1:
        """Log the board cards the flow dealt since ``street`` (T6), then the showdown or
        the award when the flow reached them."""
        cdef int last = self.state.street if self.state.street <= RIVER else RIVER
        cdef int base = len(self._deck) - AFTER_HOLES, burn, first, end
        cdef const unsigned char* deck = self._deck
        log = self._log
        while street < last:
            street += 1
            board_range(street, &burn, &first, &end)
            log.append((EV_BURNED, deck[base + burn]))
            log.append((EV_BOARD, street, tuple([deck[base + k] for k in range(first, end)])))
        if outcome == TO_SHOWDOWN:
            if self.rules.omaha_rule and not self._manual:
                self._show_down()
            else:
                self._showdown()
        elif outcome == TO_AWARD:
            self._finish()
        return 0

    cdef int _show_down(self) except -1:
        """The automatic Omaha showdown (S1) in C, logged; then the award (``_finish``)."""
        cdef strength_t high[MAX_PLAYERS]
        cdef strength_t low[MAX_PLAYERS]
        cdef int order[MAX_PLAYERS]
        cdef int n = self.rules.n, k, i
        cdef const unsigned char* deck = self._deck
        cdef int count = show_down(&self.rules, &self.state, deck, high, low, order)
        shown_hands = [False] * n
        log, seats = self._log, self.seats
        for k in range(count):
            i = order[k]
            if i >= 0:
                shown_hands[i] = True
                log.append((EV_SHOWN, seats[i], self._hole(i)))
            else:
                log.append((EV_MUCKED, seats[-1 - i]))
        self._shown = shown_hands
        self._order = []
        self._showdown_state = None
        self._strengths = ([high[k] for k in range(n)],
                           [low[k] for k in range(n)] if self.rules.hi_lo else None)
        self._finish()
        return 0

    # --- undo and copy -----------------------------------------------------------------

    cdef int _push_state(self) except -1:
        """Save the State (and the log's length) before an action."""
        cdef char* grown
        cdef Py_ssize_t capacity
        if self.undo_length == self.undo_capacity:
            capacity = self.undo_capacity + 2   # small steps: live hands stay small
            grown = <char*>PyMem_Realloc(self.undo_stack, capacity * RECORD)
            if grown == NULL:
                raise MemoryError()
            self.undo_stack = grown
            self.undo_capacity = capacity
        self.state.log_length = len(self._log)
        memcpy(self.undo_stack + self.undo_length * RECORD, &self.state, RECORD)
        self.undo_length += 1
        if self.state.street == SHOWDOWN:   # the showdown's progress lives in Python objects
            if self._undo_extra is None:
                self._undo_extra = []
            self._undo_extra.append((self._order, self._shown, self._showdown_state,
                                     self._strengths))
        return 0

    def _push(self, int i=-1):
        """Save the state before an action (:meth:`_pop` puts it back)."""
        with cython.critical_section(self):
            self._push_state()

    def _pop(self):
        """Put the state back as it was before the last action (its record is removed)."""
        with cython.critical_section(self):
            if self.undo_length == 0:
                raise refused(Reason.NOTHING_TO_UNDO)
            self.undo_length -= 1
            memcpy(&self.state, self.undo_stack + self.undo_length * RECORD, RECORD)
            del self._log[self.state.log_length:]
            if self.state.street == SHOWDOWN:
                (self._order, self._shown, self._showdown_state,
                 self._strengths) = self._undo_extra.pop()
            else:
                self._order = self._shown = NOT_YET
                self._showdown_state = self._strengths = None
            self._settlement = self._result = None

    def copy(self):
        """An independent copy of this hand in its current state, without the undo history
        (its :meth:`undo` can take back only actions made on the copy).

        The two structs are copied whole; what never changes after the deal (the dealt
        sequence, the config) and what the showdown replaces rather than edits is shared.
        """
        cdef HandCore other = type(self).__new__(type(self))
        with cython.critical_section(self):
            other.rules = self.rules
            other.state = self.state
            other.config, other.seats, other._deck = self.config, self.seats, self._deck
            other._rake, other._manual = self._rake, self._manual
            other._order, other._shown = self._order, self._shown
            other._strengths, other._showdown_state = self._strengths, self._showdown_state
            other._settlement, other._result = self._settlement, self._result
            other._log = self._log[:]
        return other
