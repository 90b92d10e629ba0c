# cython: freethreading_compatible=True
"""Side pots and awarding, compiled (rules P1, P2, S2, S3, S4, K1).

Turns what each player put in, who folded and the hand strengths into main and side pots and
exact integer payouts:

>>> s = settle([100, 300, 300], [False, False, False], high=[9, 5, 1])
>>> s.payouts
(300, 400, 0)
>>> [(p.amount, p.eligible, p.high_winners) for p in s.pots]
[(300, (0, 1, 2), (0,)), (400, (1, 2), (1,))]

Players are indices ``0..n-1`` (1 <= n <= 64). Strengths are plain ints, larger wins, equal
ties; a low strength of 0 means "no qualifying low". Readings of the rules chosen here:

* P1: the largest contributor's excess over the second-largest contribution (folded players
  included) is an uncalled bet, returned before anything else and never raked. Layers are
  cut at the distinct contribution levels of the players who did not fold; a pot is
  contested by the live players who reached its top level. Folded chips stay in the layers
  they reached; folded chips above the highest live level go into the top pot.
* S4: a pot with a single eligible player is theirs, whatever the strengths say. If every
  player folded, chips left in the pots are an error.
* S2/S3: each half is split equally among its tied winners; the odd chips of a half go one
  each to those winners in ``order`` (clockwise from the first seat left of the button),
  first to winners who have not yet had an odd chip from this pot. The chip left over from
  halving goes to the high half and counts for nobody. With no qualifying low among a pot's
  eligible players the best high takes the whole pot.
* Dead money (``dead=``, e.g. the big blind ante) is table money, not any player's
  contribution: it goes into the main pot (the first pot with chips in it), creates no
  level, is never returned as an uncalled bet, and is raked like any pot chip. So a live
  player who put in nothing still wins nothing, unless nobody put anything in the pots:
  then the dead money alone is the main pot, contested by every live player. Dead money
  with every player folded is an error.
* K1: pot ``i`` pays ``rake * amount_i // total_in_pots``; what is left of the rake comes from
  the main pot, then from the next pots if the main pot runs dry. Rake is taken before
  awarding.

>>> s = settle([10, 10, 10], [False, False, False], high=[1, 2, 3], dead=10)  # a BB ante
>>> [(p.amount, p.eligible) for p in s.pots], s.payouts, s.total
([(40, (0, 1, 2))], (0, 0, 40), 40)
"""

cimport cython
from cpython.long cimport (PyLong_AsLongLongAndOverflow, PyLong_CheckExact, PyLong_FromLongLong,
                          PyLong_FromSsize_t)
from cpython.list cimport PyList_CheckExact
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_CheckExact, PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport INT32_MAX, INT32_MIN, INT64_MAX, int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy

from omahacore._types cimport chips_t, strength_t

from itertools import islice

from omahacore._input cimport exact_int, is_numpy_bool, shown
from omahacore.errors import ArrayError, ArrayTypeError, PotError, PotTypeError

include "_pots_kernel.pxi"

__all__ = ["PotAward", "PotLayer", "Settlement", "build_pots", "settle", "settle_batch"]


# ---------------------------------------------------------------- reading Python input

cdef tuple _as_sequence(object values, str name):
    """A fixed snapshot of ``values`` (an iterator stops after MAX_ITEMS): every reader below
    works on this tuple, so a list that changes while its items are read changes nothing."""
    if PyTuple_CheckExact(values):
        return values
    if PyList_CheckExact(values):
        return tuple(values)
    if not isinstance(values, (str, bytes, bytearray, memoryview, dict, set, frozenset, int)):
        try:  # numpy arrays convert to plain ints/bools in one go
            if hasattr(values, "tolist"):
                values = values.tolist()
            return tuple(islice(values, MAX_ITEMS))
        except Exception:
            pass
    raise PotTypeError(f"{name} must be a sequence with one entry per player, "
                       f"got {type(values).__name__}")


cdef Py_ssize_t MAX_ITEMS = 4096   # far above any count a pot argument may have


cdef str _count(Py_ssize_t n):
    return str(n) if n < MAX_ITEMS else f"{MAX_ITEMS} or more"


cdef str _entry(str name, Py_ssize_t index):
    return name if index < 0 else f"{name}[{index}]"


cdef int64_t _as_int64(object item, str name, Py_ssize_t index) except? -1:
    """`item` as a C int64 (index < 0: a scalar argument), or PotError naming it.

    One ``__index__`` call at most, whose result must be an exact int; bool is never an int
    here."""
    cdef int overflow = 0
    cdef long long value
    cdef object exact = exact_int(item)
    if exact is None:
        raise PotTypeError(f"{_entry(name, index)} must be an int, "
                           f"got {type(item).__name__} {shown(item)}")
    value = PyLong_AsLongLongAndOverflow(exact, &overflow)
    if overflow:
        raise PotError(f"{_entry(name, index)} = {shown(exact)} does not fit in a "
                       f"signed 64-bit int")
    return value


cdef Py_ssize_t _checked_count(tuple values, str name, Py_ssize_t n) except -1:
    if len(values) != n:
        raise PotError(f"{name} has {_count(len(values))} entries but contributions has {n}")
    return n


cdef Py_ssize_t _player_count(tuple contributions) except -1:
    cdef Py_ssize_t n = len(contributions)
    if n < 1 or n > MAX_PLAYERS:
        raise PotError(f"contributions must list 1 to {MAX_PLAYERS} players, got {_count(n)}")
    return n


cdef int _read_ints(object values, str name, Py_ssize_t n, int64_t* out) except -1:
    cdef Py_ssize_t i
    cdef tuple items = _as_sequence(values, name)
    _checked_count(items, name, n)
    for i in range(n):
        out[i] = _as_int64(items[i], name, i)
    return 0


cdef int _read_strengths(object values, str name, Py_ssize_t n, strength_t* out) except -1:
    cdef Py_ssize_t i
    cdef int64_t v
    cdef tuple items = _as_sequence(values, name)
    _checked_count(items, name, n)
    for i in range(n):
        v = _as_int64(items[i], name, i)
        if v < INT32_MIN or v > INT32_MAX:
            raise PotError(f"{name}[{i}] = {v} does not fit in a signed 32-bit strength")
        out[i] = <strength_t>v
    return 0


cdef int _read_flags(object values, Py_ssize_t n, uint8_t* out) except -1:
    cdef Py_ssize_t i
    cdef object item
    cdef tuple items = _as_sequence(values, "folded")
    _checked_count(items, "folded", n)
    for i in range(n):
        item = items[i]
        if item is True or item is False:
            out[i] = item is True
        elif PyLong_CheckExact(item) and (item == 0 or item == 1):
            out[i] = item == 1
        elif is_numpy_bool(item):
            out[i] = bool(item)
        else:
            raise PotTypeError(f"folded[{i}] must be a bool, got {type(item).__name__} "
                               f"{shown(item)}")
    return 0


cdef str _status_message(int status, Py_ssize_t where, Py_ssize_t n, const chips_t* contributions,
                         const strength_t* low, const int64_t* order, chips_t rake, chips_t dead,
                         const chips_t* returned, const PotRecord* pots, int npots):
    cdef Py_ssize_t i
    if status == POT_NEGATIVE:
        return (f"contributions[{where}] = {contributions[where]} is negative: "
                f"chip amounts are >= 0")
    if status == POT_OVERFLOW:
        return (f"the contributions{' and the dead money' if dead else ''} add up to more "
                f"than 2**63 - 1 chips")
    if status == POT_NEGATIVE_DEAD:
        return f"dead = {dead} is negative: dead money is a chip amount >= 0"
    if status == POT_BAD_ORDER:
        return (f"order must be a permutation of range({n}) listing players clockwise from "
                f"the first seat left of the button, got {[order[i] for i in range(n)]}")
    if status == POT_NEGATIVE_LOW:
        return (f"low[{where}] = {low[where]} is negative: lows are >= 0, "
                f"0 meaning no qualifying low")
    if status == POT_BAD_RAKE:
        return (f"rake {rake} must be between 0 and the "
                f"{sum([pots[i].amount for i in range(npots)])} chips in the pots (K1)")
    if status == POT_ALL_FOLDED:
        return (f"every player folded, so nobody can win the "
                f"{sum([contributions[i] - returned[i] for i in range(n)]) + dead} chips in "
                f"the pots{f' ({dead} of them dead money)' if dead else ''}")
    return f"unknown pot status {status}"


# ---------------------------------------------------------------- result objects

cdef inline void _set_item(tuple out, Py_ssize_t i, object item):
    Py_INCREF(item)  # PyTuple_SET_ITEM steals a reference
    PyTuple_SET_ITEM(out, i, item)


cdef tuple _chips_tuple(const chips_t* values, Py_ssize_t n):
    cdef tuple out = PyTuple_New(n)
    cdef Py_ssize_t i
    for i in range(n):
        _set_item(out, i, PyLong_FromLongLong(values[i]))
    return out


cdef tuple _players(uint64_t mask):
    """The players in `mask`, ascending."""
    cdef tuple out = PyTuple_New(_popcount(mask))
    cdef Py_ssize_t player = 0, k = 0
    while mask:
        if mask & 1:
            _set_item(out, k, PyLong_FromSsize_t(player))
            k += 1
        mask >>= 1
        player += 1
    return out


cdef tuple _shares(uint64_t winners, uint64_t odd, chips_t base):
    """Each winner's share, in the order of _players(winners)."""
    cdef tuple out = PyTuple_New(_popcount(winners))
    cdef Py_ssize_t k = 0
    while winners:
        if winners & 1:
            _set_item(out, k, PyLong_FromLongLong(base + <chips_t>(odd & 1)))
            k += 1
        winners >>= 1
        odd >>= 1
    return out


cdef object _chip(object value, str name):
    """A Python int in 0..2**63-1 (a chip count), or PotError naming `name`."""
    cdef object exact = exact_int(value)
    if exact is None:
        raise PotTypeError(f"{name} must be an int, got {type(value).__name__} {shown(value)}")
    if exact < 0 or exact > INT64_MAX:
        raise PotError(f"{name} = {shown(exact)} must be between 0 and 2**63 - 1")
    return exact


cdef tuple _chip_tuple(object values, str name):
    cdef tuple items = _as_sequence(values, name)
    return tuple([_chip(v, f"{name}[{i}]") for i, v in enumerate(items)])


cdef tuple _player_tuple(object values, str name, bint nonempty):
    cdef tuple players = _chip_tuple(values, name)
    if nonempty and not players:
        raise PotError(f"{name} must name at least one player")
    for i in range(len(players)):
        if players[i] >= MAX_PLAYERS or (i and players[i] <= players[i - 1]):
            raise PotError(f"{name} must list distinct players below {MAX_PLAYERS} in "
                           f"increasing order, got {players}")
    return players


cdef dict _checked_mapping(object data, tuple required, str kind):
    """A plain-dict copy of ``data`` holding exactly the ``required`` keys, or PotError.

    Read through ``dict.items`` so a dict subclass's overrides never run; keys that are not
    exact ``str`` are unknown keys."""
    if not isinstance(data, dict):
        raise PotTypeError(f"{kind}.from_dict needs a dict, got {type(data).__name__}")
    cdef list items = list(dict.items(data))
    cdef dict copy = {k: v for k, v in items if type(k) is str}
    missing = [k for k in required if k not in copy]
    unknown = [shown(k) for k, _ in items if type(k) is not str or k not in required]
    if missing or unknown:
        raise PotError(f"{kind}.from_dict: missing keys {missing}, unknown keys {unknown}")
    return copy


# The result classes' docstrings open with a text signature (the line `--` ends it) so that
# inspect, help() and stubtest see the keyword-only constructors.

@cython.final
@cython.no_gc
@cython.embedsignature(False)
cdef class PotLayer:
    """PotLayer(*, amount, eligible)
--

    One pot as the chips stand (P1): its amount and who can win it, players ascending.

    >>> PotLayer(amount=30, eligible=(0, 2))
    PotLayer(amount=30, eligible=(0, 2))
    """

    def __init__(self, *, amount, eligible):
        eligible = _player_tuple(eligible, "eligible", True)
        amount = _chip(amount, "amount")
        with cython.critical_section(self):   # check-then-set, atomic on free-threaded Python
            if self.eligible is not None:
                raise TypeError("PotLayer is immutable")
            self.eligible = eligible
            self.amount = amount

    def __repr__(self):
        return f"PotLayer(amount={self.amount!r}, eligible={self.eligible!r})"

    def __eq__(self, other):
        if not isinstance(other, PotLayer):
            return NotImplemented
        return self.amount == other.amount and self.eligible == (<PotLayer>other).eligible

    def __hash__(self):
        return hash(("PotLayer", self.amount, self.eligible))

    def __reduce__(self):
        return (_rebuild, (PotLayer, self.to_dict()))

    def to_dict(self):
        """Plain JSON-ready form; :meth:`from_dict` reads it back."""
        return {"amount": self.amount, "eligible": list(self.eligible)}

    @classmethod
    def from_dict(cls, data):
        """Inverse of :meth:`to_dict`; a malformed mapping raises PotError."""
        data = _checked_mapping(data, ("amount", "eligible"), "PotLayer")
        return PotLayer(amount=data["amount"], eligible=data["eligible"])


@cython.final
@cython.no_gc
@cython.embedsignature(False)
cdef class PotAward:
    """PotAward(*, amount, rake, eligible, high_winners, high_shares, low_winners=(), low_shares=())
--

    How one pot was split (P2, S2-S4): chips before rake, rake, and who won what.

    Winners are listed in increasing player order, each share beside its winner; the low
    tuples are empty in high-only pots and when nobody eligible has a qualifying low.

    >>> a = PotAward(amount=66, rake=0, eligible=(0, 1), high_winners=(0, 1),
    ...              high_shares=(17, 16), low_winners=(0, 1), low_shares=(16, 17))
    >>> a.share_of(0), a.share_of(1)
    (33, 33)
    """

    def __init__(self, *, amount, rake, eligible, high_winners, high_shares,
                 low_winners=(), low_shares=()):
        if self.eligible is not None:
            raise TypeError("PotAward is immutable")
        amount = _chip(amount, "amount")
        rake = _chip(rake, "rake")
        eligible = _player_tuple(eligible, "eligible", True)
        high_winners = _player_tuple(high_winners, "high_winners", True)
        low_winners = _player_tuple(low_winners, "low_winners", False)
        high_shares = _chip_tuple(high_shares, "high_shares")
        low_shares = _chip_tuple(low_shares, "low_shares")
        if rake > amount:
            raise PotError(f"rake {rake} exceeds the pot amount {amount}")
        if not set(high_winners + low_winners) <= set(eligible):
            raise PotError(f"winners {high_winners} / {low_winners} must be among the "
                           f"eligible players {eligible}")
        if len(high_shares) != len(high_winners) or len(low_shares) != len(low_winners):
            raise PotError("each winner needs exactly one share")
        if sum(high_shares) + sum(low_shares) != amount - rake:
            raise PotError(f"shares add up to {sum(high_shares) + sum(low_shares)}, "
                           f"not the {amount - rake} chips left after rake")
        with cython.critical_section(self):   # check-then-set, atomic on free-threaded Python
            if self.eligible is not None:
                raise TypeError("PotAward is immutable")
            self.amount, self.rake, self.eligible = amount, rake, eligible
            self.high_winners, self.high_shares = high_winners, high_shares
            self.low_winners, self.low_shares = low_winners, low_shares

    def share_of(self, player):
        """Chips `player` won from this pot, both halves together (0 if none)."""
        player = exact_int(player)
        if player is None:
            raise PotTypeError("share_of: player must be an int (a player index)")
        won = 0
        for winners, shares in ((self.high_winners, self.high_shares),
                                (self.low_winners, self.low_shares)):
            if player in winners:
                won += shares[winners.index(player)]
        return won

    def _key(self):
        return (self.amount, self.rake, self.eligible, self.high_winners, self.high_shares,
                self.low_winners, self.low_shares)

    def __repr__(self):
        return ("PotAward(amount={!r}, rake={!r}, eligible={!r}, high_winners={!r}, "
                "high_shares={!r}, low_winners={!r}, low_shares={!r})".format(*self._key()))

    def __eq__(self, other):
        if not isinstance(other, PotAward):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(("PotAward",) + self._key())

    def __reduce__(self):
        return (_rebuild, (PotAward, self.to_dict()))

    def to_dict(self):
        """Plain JSON-ready form; :meth:`from_dict` reads it back."""
        return {"amount": self.amount, "rake": self.rake, "eligible": list(self.eligible),
                "high_winners": list(self.high_winners), "high_shares": list(self.high_shares),
                "low_winners": list(self.low_winners), "low_shares": list(self.low_shares)}

    @classmethod
    def from_dict(cls, data):
        """Inverse of :meth:`to_dict`; a malformed or inconsistent mapping raises PotError."""
        return PotAward(**_checked_mapping(data, _AWARD_KEYS, "PotAward"))


cdef tuple _AWARD_KEYS = ("amount", "rake", "eligible", "high_winners", "high_shares",
                          "low_winners", "low_shares")


cdef PotAward _award_from_record(const PotRecord* r):
    cdef PotAward a = PotAward.__new__(PotAward)
    a.amount = r.amount
    a.rake = r.rake
    a.eligible = _players(r.eligible)
    a.high_winners = _players(r.high_winners)
    a.high_shares = _shares(r.high_winners, r.high_odd, r.high_base)
    a.low_winners = _players(r.low_winners)
    a.low_shares = _shares(r.low_winners, r.low_odd, r.low_base)
    return a


def _rebuild(cls, data):
    """Unpickling helper: rebuild a result object from its to_dict() form."""
    return cls.from_dict(data)


@cython.final
@cython.no_gc
@cython.freelist(8)
@cython.embedsignature(False)
cdef class Settlement:
    """Settlement(*, pots, payouts, returned, rake, total)
--

    The money side of a finished hand: every pot's award, payouts, returns and rake.

    ``payouts[i]`` is everything player ``i`` receives, their returned uncalled chips
    included, so ``sum(payouts) + rake == total`` (the chips everyone put in, plus any dead
    money). Built by :func:`settle`; building one by hand checks that the numbers add up.

    >>> s = settle([50, 50], [False, False], high=[3, 3], rake=1)
    >>> s
    Settlement(pots=(PotAward(amount=100, rake=1, eligible=(0, 1), high_winners=(0, 1), \
high_shares=(50, 49), low_winners=(), low_shares=()),), payouts=(50, 49), returned=(0, 0), \
rake=1, total=100)
    >>> Settlement.from_dict(s.to_dict()) == s
    True
    """

    def __init__(self, *, pots, payouts, returned, rake, total):
        cdef Py_ssize_t i, n
        if self._payouts != NULL:
            raise TypeError("Settlement is immutable")
        payouts = _chip_tuple(payouts, "payouts")
        returned = _chip_tuple(returned, "returned")
        pots = tuple(_as_sequence(pots, "pots"))
        rake, total = _chip(rake, "rake"), _chip(total, "total")
        n = len(payouts)
        if n < 1 or n > MAX_PLAYERS or len(returned) != n:
            raise PotError(f"payouts and returned need the same length, 1 to {MAX_PLAYERS}")
        for pot in pots:
            if not isinstance(pot, PotAward):
                raise PotTypeError(f"pots must hold PotAward objects, got {type(pot).__name__}")
            if max(pot.eligible) >= n:
                raise PotError(f"{pot!r} names a player beyond the {n} in payouts")
        if rake != sum([pot.rake for pot in pots]) or total != sum(payouts) + rake:
            raise PotError("rake must be the pots' rakes and total must be payouts + rake")
        for i in range(n):
            if payouts[i] != returned[i] + sum([pot.share_of(i) for pot in pots]):
                raise PotError(f"payouts[{i}] is not returned[{i}] plus player {i}'s shares")
        with cython.critical_section(self):   # check-then-set, atomic on free-threaded Python
            if self._payouts != NULL:
                raise TypeError("Settlement is immutable")
            self._alloc(n, 0)
            for i in range(n):
                self._payouts[i] = payouts[i]
                self._returned[i] = returned[i]
            self._pots, self._npots, self._rake, self._total = pots, len(pots), rake, total

    cdef int _alloc(self, Py_ssize_t n, int npots) except -1:
        cdef size_t size = 2 * n * sizeof(chips_t) + npots * sizeof(PotRecord)
        self._payouts = <chips_t*>PyMem_Malloc(size)
        if self._payouts == NULL:
            raise MemoryError()
        self._returned = self._payouts + n
        self._records = <PotRecord*>(self._payouts + 2 * n) if npots else NULL
        self._n = n
        self._npots = npots
        return 0

    def __dealloc__(self):
        PyMem_Free(self._payouts)

    @property
    def pots(self):
        """tuple[PotAward, ...]: main pot first, then the side pots in order (P1)."""
        cdef int j
        # Built on first access (most callers only want payouts); the critical section makes
        # the check-then-set atomic on free-threaded Python (a no-op elsewhere).
        with cython.critical_section(self):
            if self._pots is None:
                self._pots = tuple([_award_from_record(&self._records[j])
                                    for j in range(self._npots)])
            return self._pots

    @property
    def payouts(self):
        """tuple[int, ...]: chips each player receives, returned uncalled chips included."""
        with cython.critical_section(self):
            if self._payouts_t is None:
                self._payouts_t = _chips_tuple(self._payouts, self._n)
            return self._payouts_t

    @property
    def returned(self):
        """tuple[int, ...]: the uncalled bet handed back to its owner (P1), per player."""
        with cython.critical_section(self):
            if self._returned_t is None:
                self._returned_t = _chips_tuple(self._returned, self._n)
            return self._returned_t

    @property
    def rake(self):
        """int: chips taken by the house from the pots (K1)."""
        return self._rake

    @property
    def total(self):
        """int: chips put in by all players plus dead money, ``sum(payouts) + rake``."""
        return self._total

    def _key(self):
        return (self.pots, self.payouts, self.returned, self._rake, self._total)

    def __repr__(self):
        return ("Settlement(pots={!r}, payouts={!r}, returned={!r}, rake={!r}, "
                "total={!r})".format(*self._key()))

    def __eq__(self, other):
        if not isinstance(other, Settlement):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(("Settlement",) + self._key())

    def __reduce__(self):
        return (_rebuild, (Settlement, self.to_dict()))

    def to_dict(self):
        """Plain JSON-ready form (lists and ints); :meth:`from_dict` reads it back."""
        return {"pots": [pot.to_dict() for pot in self.pots], "payouts": list(self.payouts),
                "returned": list(self.returned), "rake": self._rake, "total": self._total}

    @classmethod
    def from_dict(cls, data):
        """Inverse of :meth:`to_dict`; numbers that do not add up raise PotError."""
        data = _checked_mapping(data, ("pots", "payouts", "returned", "rake", "total"),
                                "Settlement")
        pots = _as_sequence(data["pots"], "pots")
        return Settlement(pots=[PotAward.from_dict(p) for p in pots], payouts=data["payouts"],
                          returned=data["returned"], rake=data["rake"], total=data["total"])


# ---------------------------------------------------------------- public entry points

def build_pots(contributions, folded, *, dead=0):
    """Pots as the chips stand (P1), for showing pot sizes mid-hand.

    Returns ``(layers, returned)``: the pots main first, and per player the uncalled chips
    that would go back to their owner. ``dead``: table money (the big blind ante) added to
    the main pot, as in :func:`settle`. Raises PotError on bad input.

    >>> layers, returned = build_pots([20, 60, 100, 100], [True, False, False, False])
    >>> layers
    (PotLayer(amount=200, eligible=(1, 2, 3)), PotLayer(amount=80, eligible=(2, 3)))
    >>> returned
    (0, 0, 0, 0)

    The big blind (player 2) is all-in for a blind of 5 plus a 10 ante; the ante is dead
    money in the main pot, which the big blind contests, while it makes no side-pot level:

    >>> build_pots([20, 20, 5], [False, False, False], dead=10)[0]
    (PotLayer(amount=25, eligible=(0, 1, 2)), PotLayer(amount=30, eligible=(0, 1)))
    """
    cdef chips_t c[MAX_PLAYERS]
    cdef chips_t ret[MAX_PLAYERS]
    cdef uint8_t f[MAX_PLAYERS]
    cdef PotRecord recs[MAX_PLAYERS]
    cdef int npots = 0, j, status
    cdef Py_ssize_t where = -1
    contributions = _as_sequence(contributions, "contributions")
    cdef Py_ssize_t n = _player_count(contributions)
    cdef PotLayer layer
    cdef chips_t d
    _read_ints(contributions, "contributions", n, c)
    _read_flags(folded, n, f)
    d = _as_int64(dead, "dead", -1)
    status = build_layers(n, c, f, d, ret, recs, &npots, &where)
    if status != POT_OK:
        raise PotError(_status_message(status, where, n, c, NULL, NULL, 0, d, ret, recs, npots))
    layers = []
    for j in range(npots):
        layer = PotLayer.__new__(PotLayer)
        layer.amount = recs[j].amount
        layer.eligible = _players(recs[j].eligible)
        layers.append(layer)
    return tuple(layers), _chips_tuple(ret, n)


def settle(contributions, folded, high, low=None, *, order=None, rake=0, dead=0):
    """Build the pots of a finished hand and award each one (P1, P2, S2-S4, K1).

    ``contributions[i]``: chips player i put in; ``folded[i]``: whether they folded;
    ``high[i]``: high strength (larger wins, equal ties; folded players' values are
    ignored); ``low``: None for high-only games, else low strengths with 0 meaning no
    qualifying low; ``order``: players clockwise from the first seat left of the button,
    who receive odd chips first (default ``range(n)``); ``rake``: total rake, taken from the
    pots before awarding; ``dead``: table money that is nobody's contribution (the big
    blind ante), added to the main pot and included in ``total``. Bad input raises PotError.

    >>> s = settle([66, 66], [False, False], high=[7, 7], low=[5, 5], order=[1, 0])
    >>> s.payouts
    (66, 66)
    >>> s = settle([33, 33], [False, False], high=[7, 7], low=[5, 5], order=[1, 0])
    >>> s.payouts, s.pots[0].high_shares, s.pots[0].low_shares
    ((33, 33), (16, 17), (17, 16))

    Dead money goes to the main pot only: the short big blind (player 0, all-in for a 10
    blind plus a 20 ante) wins the 20 dead chips and 10 from each caller, nothing more.

    >>> s = settle([10, 50, 50], [False, False, False], high=[9, 1, 2], dead=20)
    >>> [(p.amount, p.eligible) for p in s.pots], s.payouts, s.total
    ([(50, (0, 1, 2)), (80, (1, 2))], (50, 0, 80), 130)
    """
    cdef chips_t c[MAX_PLAYERS]
    cdef chips_t pay[MAX_PLAYERS]
    cdef chips_t ret[MAX_PLAYERS]
    cdef uint8_t f[MAX_PLAYERS]
    cdef strength_t h[MAX_PLAYERS]
    cdef strength_t lo[MAX_PLAYERS]
    cdef int64_t o[MAX_PLAYERS]
    cdef PotRecord recs[MAX_PLAYERS]
    cdef const strength_t* low_ptr = NULL
    cdef const int64_t* order_ptr = NULL
    cdef int npots = 0, status
    cdef Py_ssize_t i, where = -1
    contributions = _as_sequence(contributions, "contributions")
    cdef Py_ssize_t n = _player_count(contributions)
    cdef chips_t r, d
    _read_ints(contributions, "contributions", n, c)
    cdef Settlement s
    _read_flags(folded, n, f)
    _read_strengths(high, "high", n, h)
    if low is not None:
        _read_strengths(low, "low", n, lo)
        low_ptr = lo
    if order is not None:
        _read_ints(order, "order", n, o)
        order_ptr = o
    r = _as_int64(rake, "rake", -1)
    d = _as_int64(dead, "dead", -1)
    status = settle_kernel(n, c, f, h, low_ptr, order_ptr, r, d, pay, ret, recs, &npots, &where)
    if status != POT_OK:
        raise PotError(_status_message(status, where, n, c, low_ptr, order_ptr, r, d, ret, recs,
                                       npots))
    s = Settlement.__new__(Settlement)
    s._alloc(n, npots)
    memcpy(s._payouts, pay, n * sizeof(chips_t))
    memcpy(s._returned, ret, n * sizeof(chips_t))
    if npots:
        memcpy(s._records, recs, npots * sizeof(PotRecord))
    s._rake = r
    s._total = r
    for i in range(n):
        s._total += pay[i]
    return s


# ---------------------------------------------------------------- NumPy batch (simulations)

cdef object _batch_array(object np, object value, str name, object dtype, tuple shape):
    """A private C-contiguous copy of a numpy array of the given dtype and shape.

    Checked on a base-class view (a subclass's properties cannot lie about shape or dtype),
    and copied so that no other thread's writes reach the kernel while it runs without the
    GIL."""
    if not isinstance(value, np.ndarray):
        raise ArrayTypeError(f"{name} must be a numpy array, got {type(value).__name__}")
    value = np.asarray(value)
    if value.dtype != dtype:
        raise ArrayError(f"{name} must have dtype {np.dtype(dtype)}, got {value.dtype}")
    if value.shape != shape:
        raise ArrayError(f"{name} must have shape {shape}, got {value.shape}")
    return np.array(value, order="C", copy=True)


def settle_batch(contributions, folded, high, low=None, *, order=None, rake=None, dead=None):
    """:func:`settle` for M hands of N players at once, without the GIL: payouts only.

    ``contributions`` (M, N) int64, ``folded`` (M, N) bool, ``high`` and ``low`` (M, N)
    int32 (``low`` None for high-only), ``order`` (N,) or (M, N) integers (default
    ``range(N)``), ``rake`` (M,) int64 (default 0), ``dead`` (M,) int64 dead money for each
    hand's main pot (default 0). Returns ``(payouts, rake)``: (M, N)
    int64 chips received per player (returned uncalled chips included) and the (M,) int64
    rake taken. Wrong shapes, dtypes or values raise ArrayError naming the first bad row.

    >>> import numpy as np
    >>> pay, taken = settle_batch(np.array([[10, 30, 30]]), np.zeros((1, 3), bool),
    ...                           np.array([[5, 4, 4]], np.int32), rake=np.array([2]))
    >>> pay.tolist(), taken.tolist()  # rake 1 + 1 from the pots of 30 and 40 (K1)
    ([[29, 20, 19]], [2])
    """
    import numpy as np  # lazily: `import omahacore.pots` stays free of numpy
    cdef Py_ssize_t m, n, row = 0, where = -1, order_step
    cdef int status = POT_OK, npots = 0
    cdef chips_t ret[MAX_PLAYERS]
    cdef PotRecord recs[MAX_PLAYERS]
    if not isinstance(contributions, np.ndarray) or np.asarray(contributions).ndim != 2:
        raise ArrayError("contributions must be a 2-D numpy array (hands, players)")
    m, n = np.asarray(contributions).shape
    if n < 1 or n > MAX_PLAYERS:
        raise ArrayError(f"contributions must have 1 to {MAX_PLAYERS} columns, got {n}")
    cdef const int64_t[:, ::1] c = _batch_array(np, contributions, "contributions", np.int64,
                                                (m, n))
    cdef const uint8_t[:, ::1] f = _batch_array(np, folded, "folded", np.bool_,
                                                (m, n)).view(np.uint8)
    cdef const int32_t[:, ::1] h = _batch_array(np, high, "high", np.int32, (m, n))
    cdef const int32_t[:, ::1] lo = None
    if low is not None:
        lo = _batch_array(np, low, "low", np.int32, (m, n))
    if order is None:
        order = np.arange(n, dtype=np.int64)
    order = np.asarray(order) if isinstance(order, np.ndarray) else None
    if order is None or order.dtype.kind not in "iu" or order.shape not in ((n,), (m, n)):
        raise ArrayError(f"order must be an integer numpy array of shape ({n},) or ({m}, {n})")
    cdef const int64_t[:, ::1] o = np.array(order.reshape(-1, n), np.int64, order="C", copy=True)
    order_step = n if order.ndim == 2 else 0
    rake = np.zeros(m, np.int64) if rake is None else rake
    cdef const int64_t[::1] r = _batch_array(np, rake, "rake", np.int64, (m,))
    dead = np.zeros(m, np.int64) if dead is None else dead
    cdef const int64_t[::1] d = _batch_array(np, dead, "dead", np.int64, (m,))
    payouts = np.empty((m, n), np.int64)
    cdef int64_t[:, ::1] p = payouts
    with nogil:
        for row in range(m):
            status = settle_kernel(n, &c[row, 0], &f[row, 0], &h[row, 0],
                                   &lo[row, 0] if lo is not None else NULL,
                                   &o[0, 0] + row * order_step, r[row], d[row], &p[row, 0],
                                   ret, recs, &npots, &where)
            if status != POT_OK:
                break
    if status != POT_OK:
        raise ArrayError(f"row {row}: " + _status_message(
            status, where, n, &c[row, 0], &lo[row, 0] if lo is not None else NULL,
            &o[0, 0] + row * order_step, r[row], d[row], ret, recs, npots))
    return payouts, np.array(r, np.int64)
