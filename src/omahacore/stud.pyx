# cython: freethreading_compatible=True
"""The stud hand engine (issue 26): seven-card stud, stud hi/lo, razz and five-card stud
(E1-E7) on the same compiled transitions as the flop games.

:class:`StudCore` holds one hand's ``Rules`` and ``State`` (``transitions.pxd``). Every
betting rule is the flop games' (``apply_call``, ``apply_raise``, ``legal_for`` and their
checks in :mod:`omahacore.transitions`); stud adds only its own rules beside them there: the
deal of each street with the deck running short (E2), the bring-in and its completion (E3),
the order of action from the up cards (E4) and the open-pair option (E5). The award is the
pots kernel's (P1-S4, E7).

Players are indices 0..n-1 clockwise; the dealer position (default the last player) orders
the deal and the odd chips. ``deck`` is the 52 cards in the order they come off the deck,
burns included: a seeded shuffle, or, for replay, the order another program dealt them; or
None, for the OS generator's shuffle (C2), made into the hand itself (``deck`` reads it).

>>> from omahacore.cards import parse_cards
>>> top = parse_cards("2c3c" "5c6c" "4cAs")   # two down cards each, then one up each
>>> deck = bytes(top) + bytes(c for c in range(52) if c not in top)
>>> hand = StudCore(GAME_HIGH, [100, 100], deck, ante=1, bring_in=2, small_bet=5, big_bet=10)
>>> hand.up_cards(0) == (top[4],), hand.to_act, hand.bring_in_seat   # the 4c brings in
(True, 0, 0)
"""

cimport cython
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_DECREF, Py_INCREF, Py_REFCNT
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_SET_ITEM
from libc.stdint cimport INT64_MAX, int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset

from omahacore._input cimport exact_int, shown
from omahacore._types cimport card_t, chips_t, strength_t
from omahacore.pots cimport POT_OK, PotRecord, settle_kernel
from omahacore.transitions cimport (
    ACTIVE, FOLDED, MAX_PLAYERS, NO_CARD, OK, SHOWDOWN, STUD_CARDS, STUD_FIVE, STUD_HIGH,
    STUD_HILO, STUD_RAZZ, TO_AWARD, TO_SHOWDOWN, Legal, Outcome, Posted, Reason, Refusal, Rules,
    State,
    apply_call, apply_check, apply_fold, apply_raise, call_reason, check_reason, fold_reason,
    legal_for, odd_chip_order, open_stud, post_forced, raise_reason, shuffle_deck, stud_up,
    strengths, turn_reason)

import os
import warnings

from omahacore.actions import LegalActions
from omahacore.errors import OmahaError, TableError
from omahacore.refusals import refused

cdef extern from "Python.h":
    object PyType_GenericAlloc(PyTypeObject* kind, Py_ssize_t items)


GAME_HIGH, GAME_HILO, GAME_RAZZ, GAME_FIVE = STUD_HIGH, STUD_HILO, STUD_RAZZ, STUD_FIVE
MAX_STUD_PLAYERS = 8    # E1
MAX_AMOUNT = 10 ** 15   # every amount at entry, so the stacks' total fits int64
cdef chips_t C_MAX_AMOUNT = MAX_AMOUNT


cdef extern from *:
    """
    /* A LegalActions nobody else holds may be refilled in place (as zip reuses its result
       tuple): only where a reference count of 1 proves it, with the GIL, and where tuples
       cache no hash (before 3.14). */
    #if !defined(Py_GIL_DISABLED) && PY_VERSION_HEX < 0x030E0000
    #define STUD_REFILL_LEGAL 1
    #else
    #define STUD_REFILL_LEGAL 0
    #endif
    """
    bint STUD_REFILL_LEGAL


cdef inline void put(object tup, Py_ssize_t pos, object item) noexcept:
    Py_INCREF(item)           # PyTuple_SET_ITEM steals a reference
    PyTuple_SET_ITEM(tup, pos, item)


cdef object legal_tuple(int seat, bint can_fold, bint can_check, chips_t call, object low,
                        object high):
    """A ``LegalActions`` built in place: one allocation of the named tuple (no argument tuple,
    no ``tuple.__new__`` call), since bots ask for it before every action."""
    cdef object out = PyType_GenericAlloc(<PyTypeObject*>LegalActions, 8)
    put(out, 0, seat)
    put(out, 1, can_fold)
    put(out, 2, can_check)
    put(out, 3, call)
    put(out, 4, low)
    put(out, 5, high)
    put(out, 6, False)
    put(out, 7, False)
    return out


cdef enum:
    SMALL_COUNT = 1024

cdef tuple SMALL_INTS = tuple(range(SMALL_COUNT))
"""The int objects an answer's fields take when small (built at import): a refill finds
them without making an int, and mostly finds them in place already."""
cdef PyObject* SMALL[SMALL_COUNT]   # SMALL_INTS's items (borrowed: the tuple keeps them)


cdef void point_small() noexcept:
    cdef Py_ssize_t k
    for k in range(SMALL_COUNT):
        SMALL[k] = PyTuple_GET_ITEM(SMALL_INTS, k)


point_small()


cdef extern from *:
    """
    /* Item ``pos`` of a tuple only this module holds set to ``item`` (borrowed), its old item
       (an int, a bool or None: dropping it runs no code) released; nothing done when it is
       the same object already, as it mostly is. */
    static inline void stud_swap(PyObject* tup, Py_ssize_t pos, PyObject* item) {
        PyObject* old = PyTuple_GET_ITEM(tup, pos);
        if (old != item) {
            Py_INCREF(item);
            PyTuple_SET_ITEM(tup, pos, item);
            Py_DECREF(old);
        }
    }
    static inline PyObject* stud_bool(int value) { return value ? Py_True : Py_False; }

    /* ``answer`` (borrowed from a hand's slot) added to ``spares`` when the slot is its only
       holder and there is room; the new count. */
    static inline int keep_spare(PyObject* answer, PyObject** spares, int count, int room) {
        if (answer != Py_None && Py_REFCNT(answer) == 1 && count < room) {
            Py_INCREF(answer);
            spares[count++] = answer;
        }
        return count;
    }
    """
    void stud_swap(PyObject* tup, Py_ssize_t pos, PyObject* item) noexcept
    PyObject* stud_bool(int value) noexcept
    int keep_spare(PyObject* answer, PyObject** spares, int count, int room) noexcept
    PyObject* STUD_NONE "Py_None"


cdef inline int swap_amount(PyObject* tup, Py_ssize_t pos, chips_t value) except -1:
    """Item ``pos`` set to the int ``value``: from ``SMALL_INTS`` when small, else made."""
    cdef object big
    if 0 <= value < SMALL_COUNT:
        stud_swap(tup, pos, SMALL[value])
    else:
        big = value
        stud_swap(tup, pos, <PyObject*>big)
    return 0


cdef object refill(object out, int seat, bint can_fold, const Legal* legal):
    """``legal_tuple``'s answer written over ``out``, a LegalActions only the hand holds."""
    cdef PyObject* tup = <PyObject*>out
    stud_swap(tup, 0, SMALL[seat])   # a seat is 0..7
    stud_swap(tup, 1, stud_bool(can_fold))
    stud_swap(tup, 2, stud_bool(legal.can_check))
    swap_amount(tup, 3, legal.call)
    if legal.can_raise:
        swap_amount(tup, 4, legal.low)
        swap_amount(tup, 5, legal.high)
    else:
        stud_swap(tup, 4, STUD_NONE)
        stud_swap(tup, 5, STUD_NONE)
    return out


cdef chips_t amount(object value, str name, chips_t low) except -1:
    """An exact int amount in [low, MAX_AMOUNT], or a typed error naming the field."""
    cdef object v = value if type(value) is int else exact_int(value)
    cdef int overflow = 0
    cdef long long c
    if v is None:
        raise TypeError(f"{name} must be an int, got {shown(value)}")
    c = PyLong_AsLongLongAndOverflow(v, &overflow)   # v is an exact int: no error, at most
    if overflow or not low <= c <= C_MAX_AMOUNT:      # an overflow (compared in C: hot)
        raise OmahaError(f"{name} must be {low}..{MAX_AMOUNT}, got {shown(v)}")
    return c


cdef bint full_deck(bytes deck):
    """Whether ``deck`` holds each of the 52 cards once."""
    cdef const unsigned char* p = deck
    cdef uint64_t seen = 0
    cdef int k
    if len(deck) != 52:
        return False
    for k in range(52):
        if p[k] > 51 or seen & ((<uint64_t>1) << p[k]):
            return False
        seen |= (<uint64_t>1) << p[k]
    return True


cdef enum:
    POOL_BYTES = 8192   # OS random bytes read at once: about 150 shuffles (about 55 bytes each)


cdef class _OsShuffles:
    """Decks shuffled from the OS generator (C2), reading its bytes a pool at a time: one
    system call per about 150 decks instead of one per deck. A forked child forgets the pool
    it inherited (``os.register_at_fork``), so parent and child never deal the same cards;
    threads take turns on it (a critical section)."""

    cdef unsigned char pool[POOL_BYTES]
    cdef Py_ssize_t used

    def __cinit__(self):
        self.refill()

    cdef int refill(self) except -1:
        cdef bytes fresh = os.urandom(POOL_BYTES)
        cdef const unsigned char* p = fresh
        cdef Py_ssize_t k
        for k in range(POOL_BYTES):
            self.pool[k] = p[k]
        self.used = 0
        return 0

    def forget(self):
        """Drop the bytes not used yet (the next deck reads fresh ones)."""
        with cython.critical_section(self):
            self.used = POOL_BYTES

    cdef int fill(self, card_t* cards) except -1:
        """``cards`` set to the 52 cards in a uniformly random order (Fisher-Yates,
        ``shuffle_deck``)."""
        with cython.critical_section(self):
            while True:
                if shuffle_deck(self.pool, POOL_BYTES, &self.used, cards, 52):
                    break
                self.refill()   # ran out part way: those bytes are dropped, a fresh pool
        return 0


cdef _OsShuffles OS_SHUFFLES = _OsShuffles()
os.register_at_fork(after_in_child=OS_SHUFFLES.forget)


cdef object _old_keyword(object seat, object player):
    """``player=``, the stud actions' old name for ``seat=`` (the flop ``Hand``'s): still
    taken, with a DeprecationWarning; both at once is a TypeError."""
    if seat is not None:
        raise TypeError("give seat= only (player= is its deprecated name)")
    warnings.warn("the stud actions' player= is deprecated: give seat=, as Hand's actions "
                  "take", DeprecationWarning, stacklevel=1)   # 1: the caller (no Python frames here)
    return player


def os_deck():
    """A deck of the 52 cards shuffled from the OS generator (C2), as bytes in dealing order.

    >>> sorted(os_deck()) == list(range(52))
    True
    """
    cdef card_t cards[52]
    OS_SHUFFLES.fill(cards)
    return (<char*>cards)[:52]


# The action log, kept as C records while the hand runs (the ``log`` property words them):
# one write per action instead of a tuple and a list append.
cdef enum LogKind:
    LOG_ANTE = 0
    LOG_BRING_IN = 1
    LOG_CALL = 2
    LOG_CHECK = 3
    LOG_FOLD = 4
    LOG_RAISE = 5

cdef tuple LOG_NAMES = ("ante", "bring_in", "call", "check", "fold", "raise")

ctypedef struct LogEntry:
    chips_t amount
    int32_t kind
    int32_t player

cdef enum:
    LOG_START = 48      # room in the hand itself for a typical hand's antes and actions
    SPARE_COUNT = 16    # answers kept from hands gone (``_answer``)

cdef PyObject* SPARES[SPARE_COUNT]
cdef int spare_count = 0
"""LegalActions tuples that only a deallocated hand held (owned references, GIL builds
only): a new hand's first answer refills one instead of allocating (as CPython keeps freed
tuples), so a bot's loop allocates no answer at all, hand after hand."""


cdef class StudCore:
    """One stud hand: antes and the third-street deal on creation, then the actions.

    ``game`` is one of ``GAME_HIGH``, ``GAME_HILO``, ``GAME_RAZZ``, ``GAME_FIVE``. The
    caller (:mod:`omaha.game.stud`) checks the structure; this class checks only what keeps the C
    state in bounds.

    Every action returns what the next player may do (``legal_actions()``), or None once the
    hand is over, so a bot's loop needs one call per decision::

        legal = hand.legal_actions()
        while legal is not None:
            legal = hand.check_or_call()   # or fold(), bet_or_raise(to), ... from ``legal``
    """

    cdef Rules rules
    cdef State state
    cdef card_t _cards[52]                 # the deck in dealing order (``rules.deck``)
    cdef LogEntry* _entries                # ``_first``, or an allocation once it is full
    cdef LogEntry _first[LOG_START]
    cdef Py_ssize_t _logged, _room
    cdef bint _over                        # the pots awarded: ``state.stacks`` are final
    cdef bint _shown                       # ... at a showdown, with these strengths (E6)
    cdef strength_t _high[MAX_PLAYERS]
    cdef strength_t _low[MAX_PLAYERS]
    cdef object _answer_a, _answer_b   # the last two LegalActions answered (``_answer``)

    def __init__(self, int game, stacks, deck, ante, bring_in, small_bet, big_bet,
                 dealer=None, max_raises=4):
        cdef Posted posted[2 * MAX_PLAYERS + 2]
        cdef int n, k, count
        cdef chips_t total = 0, v
        cdef tuple stack_tuple = tuple(stacks)
        n = len(stack_tuple)
        if not STUD_HIGH <= game <= STUD_FIVE:
            raise OmahaError(f"game must be 1..4 (GAME_HIGH..GAME_FIVE), got {game}")
        if not 2 <= n <= MAX_STUD_PLAYERS:
            raise OmahaError(f"E1: stud is for 2 to {MAX_STUD_PLAYERS} players, got {n}")
        if deck is not None:
            if not isinstance(deck, bytes):
                raise TypeError(f"deck must be bytes or None, got {shown(deck)}")
            if not full_deck(deck):
                raise OmahaError("deck must be the 52 distinct cards 0..51 in dealing order")
        dealer_index = n - 1 if dealer is None else exact_int(dealer)
        if dealer_index is None or not 0 <= dealer_index < n:
            raise OmahaError(f"dealer must be a player 0..{n - 1}, got {shown(dealer)}")
        cap = exact_int(max_raises) if max_raises is not None else -1
        if cap is None or not -1 <= cap <= 1000:
            raise OmahaError(f"max_raises must be an int 1..1000 or None, got {shown(max_raises)}")
        c_ante = amount(ante, "ante", 0)
        c_bring = amount(bring_in, "bring_in", 0)
        c_small = amount(small_bet, "small_bet", 1)
        c_big = amount(big_bet, "big_bet", 1)
        with cython.critical_section(self):
            memset(&self.rules, 0, sizeof(Rules))
            memset(&self.state, 0, sizeof(State))
            if deck is None:
                OS_SHUFFLES.fill(self._cards)   # C2: the OS generator's shuffle
            else:
                memcpy(self._cards, <const char*>deck, 52)
            self._logged = 0
            if self._entries == NULL:
                self._entries = self._first
                self._room = LOG_START
            self._over = self._shown = False
            r = &self.rules
            s = &self.state
            r.n = n
            r.button = dealer_index
            r.sb = (dealer_index + 1) % n      # the antes go round from the dealer's left
            r.bb = r.sb
            r.limit = True
            r.stud = game
            r.hi_lo = game == STUD_HILO
            r.max_raises = cap
            r.bring_in = c_bring
            r.last_street = 3 if game == STUD_FIVE else 4
            r.deck = self._cards
            for k in range(5):                 # E5: small bets, then big from fifth street
                r.units[k] = c_small if k < 2 else c_big
            for k in range(n):
                v = amount(stack_tuple[k], "stack", 1)
                if v > INT64_MAX - total:
                    raise OmahaError("the stacks' total must fit in 64 bits")
                total += v
                s.stacks[k] = v
                s.status[k] = ACTIVE
            s.live = s.active = n
            s.to_act = -1
            count = post_forced(r, s, c_ante, 0, 0, 0, NULL, 0, posted)
            for k in range(count):
                self._record(LOG_ANTE, posted[k].player, posted[k].amount)
            self._after(open_stud(r, s))

    # --- reading the hand ----------------------------------------------------------------

    @property
    def players(self):
        return self.rules.n

    @property
    def dealer(self):
        """The dealer position: the deal and the odd chips start on its left (E1, E7)."""
        return self.rules.button

    @property
    def street(self):
        """0 for third street (five-card stud: the first up card) .. the last betting street;
        -1 once the betting is over."""
        return -1 if self.state.street >= SHOWDOWN else self.state.street

    @property
    def to_act(self):
        """The player to act, else None."""
        return self.state.to_act if self.state.to_act >= 0 else None

    @property
    def bring_in_seat(self):
        """The player who must still bring in (E3), else None."""
        return self.state.bring_in_seat if self.state.bring_in_seat >= 0 else None

    @property
    def is_over(self):
        return self._over

    @property
    def pot(self):
        return self.state.pot

    @property
    def stacks(self):
        """Each player's chips behind (after the hand: their final stacks)."""
        return [self.state.stacks[k] for k in range(self.rules.n)]

    @property
    def bets(self):
        return [self.state.bets[k] for k in range(self.rules.n)]

    @property
    def contributions(self):
        return [self.state.contrib[k] for k in range(self.rules.n)]

    @property
    def folded(self):
        return [self.state.status[k] == FOLDED for k in range(self.rules.n)]

    @property
    def strengths(self):
        """``(high, low)`` strengths at the showdown (razz: its low is the high list, E6)."""
        cdef int k, n = self.rules.n
        if not self._shown:
            return None
        return (tuple([self._high[k] for k in range(n)]),
                tuple([self._low[k] for k in range(n)]) if self.rules.hi_lo else None)

    @property
    def log(self):
        """The actions so far: ``(kind, player, amount)`` tuples."""
        cdef Py_ssize_t k
        with cython.critical_section(self):
            return [(LOG_NAMES[self._entries[k].kind], self._entries[k].player,
                     self._entries[k].amount) for k in range(self._logged)]

    @property
    def deck(self):
        """The 52 cards in the order they come off, burns included (future cards too: keep it
        on the server)."""
        return (<char*>self._cards)[:52]

    @property
    def community(self):
        """The shared last card when the deck ran short (E2), else None."""
        return None if self.state.stud.community == NO_CARD else self.state.stud.community

    def cards(self, int i):
        """Player ``i``'s cards in the order dealt, as ``(card, face_up)`` pairs (E2)."""
        if not 0 <= i < self.rules.n:
            raise TableError("E1", f"no player {i}")
        return [(self.state.stud.cards[i * STUD_CARDS + k], bool(stud_up(&self.rules, k)))
                for k in range(self.state.stud.ncards[i])]

    def up_cards(self, int i):
        """What everyone sees of player ``i`` (E2)."""
        return tuple(c for c, up in self.cards(i) if up)

    def down_cards(self, int i):
        """What only player ``i`` sees (E2)."""
        return tuple(c for c, up in self.cards(i) if not up)

    def legal_actions(self):
        """What the player to act may do (B2-B8, E3, E5)."""
        with cython.critical_section(self):   # ``_answer`` turns the answers' slots over
            if self.state.to_act < 0:
                raise refused(Reason.HAND_OVER)
            return self._answer()

    cdef object _answer(self):
        """The player to act's ``LegalActions`` (None once the hand is over): the answer of
        ``legal_actions`` and of every action. The tuple is one of the last two answered
        when nobody holds it any more (so a bot's loop allocates none), else one a hand gone
        held (``SPARES``), else a new one."""
        global spare_count
        cdef Legal legal
        cdef int i = self.state.to_act
        cdef bint can_fold = i != self.state.bring_in_seat   # E3: the bring-in may not fold
        cdef object out
        if i < 0:
            return None
        legal_for(&self.rules, &self.state, i, &legal)
        if STUD_REFILL_LEGAL:   # held by its slot and ``out`` only: nobody else sees it
            out = self._answer_a
            if out is not None and Py_REFCNT(out) == 2:
                return refill(out, i, can_fold, &legal)
            out = self._answer_b
            if out is not None and Py_REFCNT(out) == 2:
                return refill(out, i, can_fold, &legal)
        if STUD_REFILL_LEGAL and spare_count:   # one a hand gone held
            spare_count -= 1
            out = <object>SPARES[spare_count]
            Py_DECREF(out)                        # the spares' reference, now ``out``'s
            refill(out, i, can_fold, &legal)
        elif legal.can_raise:
            out = legal_tuple(i, can_fold, legal.can_check, legal.call, legal.low, legal.high)
        else:
            out = legal_tuple(i, can_fold, legal.can_check, legal.call, None, None)
        self._answer_b = self._answer_a   # the newer two kept
        self._answer_a = out
        return out

    # --- actions -------------------------------------------------------------------------

    cdef int _turn(self, object seat, object player) except -1:
        """The index of the player to act, checking ``seat`` (a player number, or None for
        whoever is to act) against the turn (B1). ``player`` is its old name."""
        cdef int i = -1
        cdef Reason reason
        if player is not None:
            seat = _old_keyword(seat, player)
        if seat is not None:
            number = exact_int(seat)
            if number is None:
                raise TableError("E1", f"seat must be an int or None, got {shown(seat)}")
            i = number if 0 <= number < self.rules.n else -2
        reason = turn_reason(&self.state, i)
        if reason != OK:
            raise refused(reason, seat=shown(seat), turn=self.to_act)
        return self.state.to_act

    cdef object _refused(self, Refusal* f, object to):
        return refused(f.reason, seat=f.player, to=shown(to), owed=f.owed, stack=f.stack,
                       low=f.low, high=f.high, cap=f.cap,
                       word="raise" if self.state.current_bet else "bet")

    def fold(self, *, seat=None, player=None):
        """Fold (B2); the bring-in may not (E3)."""
        cdef Refusal refusal
        cdef int i
        with cython.critical_section(self):
            i = self._turn(seat, player)
            if fold_reason(&self.state, i, &refusal) != OK:
                raise self._refused(&refusal, None)
            self._record(LOG_FOLD, i, 0)
            self._after(apply_fold(&self.rules, &self.state, i))
            return self._answer()

    def check_or_call(self, *, seat=None, player=None):
        """Check when nothing is owed, else call (the bring-in's call posts it, E3)."""
        cdef int i
        cdef chips_t owed
        cdef State* s = &self.state
        with cython.critical_section(self):
            i = self._turn(seat, player)
            if s.current_bet > s.bets[i]:
                owed = s.current_bet - s.bets[i]
                self._record(LOG_BRING_IN if i == s.bring_in_seat else LOG_CALL, i,
                             owed if owed < s.stacks[i] else s.stacks[i])
                self._after(apply_call(&self.rules, s, i))
            else:
                self._record(LOG_CHECK, i, 0)
                self._after(apply_check(&self.rules, s, i))
            return self._answer()

    def check(self, *, seat=None, player=None):
        """Check: only when nothing is owed (B2)."""
        cdef Refusal refusal
        cdef int i
        with cython.critical_section(self):
            i = self._turn(seat, player)
            if check_reason(&self.state, i, &refusal) != OK:
                raise self._refused(&refusal, None)
            self._record(LOG_CHECK, i, 0)
            self._after(apply_check(&self.rules, &self.state, i))
            return self._answer()

    def call(self, *, seat=None, player=None):
        """Call what is owed (B2, B8); the bring-in's call posts the bring-in (E3)."""
        cdef Refusal refusal
        with cython.critical_section(self):
            i = self._turn(seat, player)
            if call_reason(&self.state, i, &refusal) != OK:
                raise self._refused(&refusal, None)
        return self.check_or_call(seat=i)

    def post_bring_in(self, *, seat=None, player=None):
        """The bring-in posts it (E3): the bring-in seat's call."""
        with cython.critical_section(self):
            i = self._turn(seat, player)
            if i != self.state.bring_in_seat:
                raise refused(Reason.CALL_OWES_NOTHING, seat=i)
        return self.check_or_call(seat=i)

    def bet_or_raise(self, to, *, seat=None, player=None):
        """Complete, bet or raise to a total of ``to`` this street (B3, E3, E5)."""
        cdef Refusal refusal
        cdef chips_t total
        cdef int i
        with cython.critical_section(self):
            i = self._turn(seat, player)
            value = to if type(to) is int else exact_int(to)
            if value is None:
                raise refused(Reason.NOT_AN_AMOUNT, to=shown(to))
            if not -INT64_MAX <= value <= INT64_MAX:
                raise refused(Reason.BEYOND_ANY_STACK, to=shown(to))
            total = value
            if raise_reason(&self.rules, &self.state, i, total, &refusal) != OK:
                raise self._refused(&refusal, to)
            self._record(LOG_RAISE, i, total)
            self._after(apply_raise(&self.rules, &self.state, i, total))
            return self._answer()

    cdef int _record(self, int kind, int player, chips_t amount) except -1:
        """Log one action (``LOG_*``), growing the log when it is full."""
        cdef LogEntry* grown
        if self._logged == self._room:
            if self._entries == self._first:
                grown = <LogEntry*>PyMem_Malloc(2 * self._room * sizeof(LogEntry))
                if grown != NULL:
                    memcpy(grown, self._first, self._room * sizeof(LogEntry))
            else:
                grown = <LogEntry*>PyMem_Realloc(self._entries, 2 * self._room * sizeof(LogEntry))
            if grown == NULL:
                raise MemoryError()
            self._entries = grown
            self._room *= 2
        self._entries[self._logged].kind = kind
        self._entries[self._logged].player = player
        self._entries[self._logged].amount = amount
        self._logged += 1
        return 0

    def __dealloc__(self):
        global spare_count
        if self._entries != self._first:
            PyMem_Free(self._entries)
        if STUD_REFILL_LEGAL:   # the answers nobody else holds kept for the next hands
            spare_count = keep_spare(<PyObject*>self._answer_a, SPARES, spare_count, SPARE_COUNT)
            spare_count = keep_spare(<PyObject*>self._answer_b, SPARES, spare_count, SPARE_COUNT)

    # --- the end -------------------------------------------------------------------------

    cdef int _after(self, Outcome outcome) except -1:
        """The award once the betting is over: at a showdown every live hand's strengths
        (E6), then the pots (P1-S4, E7) from the dealer's left."""
        cdef strength_t high[MAX_PLAYERS]
        cdef strength_t low[MAX_PLAYERS]
        cdef uint8_t folded[MAX_PLAYERS]
        cdef int64_t order[MAX_PLAYERS]
        cdef chips_t payouts[MAX_PLAYERS]
        cdef chips_t returned[MAX_PLAYERS]
        cdef PotRecord pots[MAX_PLAYERS + 1]
        cdef int k, npots = 0, status
        cdef Py_ssize_t where = -1
        r = &self.rules
        s = &self.state
        if outcome != TO_SHOWDOWN and outcome != TO_AWARD:
            return 0
        if outcome == TO_SHOWDOWN:
            strengths(r, s, NULL, high, low)
            for k in range(r.n):              # worded by ``strengths`` when asked
                self._high[k] = high[k]
                self._low[k] = low[k]
            self._shown = True
        else:
            for k in range(r.n):
                high[k] = low[k] = 0
        for k in range(r.n):
            folded[k] = s.status[k] == FOLDED
        odd_chip_order(r, order)
        status = settle_kernel(r.n, s.contrib, folded, high, low if r.hi_lo else NULL, order,
                               0, s.dead, payouts, returned, pots, &npots, &where)
        if status != POT_OK:
            raise RuntimeError(f"the pots could not be settled (status {status})")
        for k in range(r.n):
            s.stacks[k] += payouts[k]
        self._over = True
        s.to_act = -1
        return 0
