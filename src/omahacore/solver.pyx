# cython: freethreading_compatible=True
"""Discounted CFR over a two-player, constant-sum game tree, compiled (issue 29).

The game: chance deals each player one *hand* (a set of 1 to 4 cards out of 52) from their
range, with probability proportional to the product of the two hands' weights, over the pairs
of hands that share no card. Then both players walk a public betting tree whose leaves are a
fold (the other player takes the pot) or a showdown (hand strengths decide; for hi/lo the pot
is split between the best high and the best 8-or-better low). A *chance* node deals one public
card: its children are one per card it may deal (``deals``), each equally likely given both
hands, so each counts ``1 / (children - 2 * cards)``; hands holding the dealt card are out of
that child's subtree, and the strengths below it are read from the row ``boards[child]``.

Values are chips won from the final pot less the chips put in since the spot began, so the
two players' values always add up to ``pot`` (the chips in the middle before the spot).

A one-card game: player 0 may fold (node 1) or show down (node 2) a card of three, the
higher card winning a pot of 2. Folding gives the pot away, so showing down is best:

>>> g = Game(2, [0, 1, 2], [0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 0, 0], [0, 0, 0], 1,
...          bytes([0, 1, 2]), bytes([0, 1, 2]), [1, 1, 1], [1, 1, 1], [0, 1, 2], [0, 1, 2])
>>> g.run(50)
>>> [round(v, 2) for v in g.values()], round(g.exploitability(), 2)
([1.0, 1.0], 0.0)

The arrays describe the tree node by node (node 0 is the root; the children of a node are
``counts[n]`` consecutive nodes starting at ``firsts[n] > n``): ``kinds`` (0 a decision of
``players[n]``, 1 a fold by ``players[n]``, 2 a showdown, 3 a chance node) and the chips each
player has put in since the spot began (``commits0``, ``commits1``). Hands are bytes,
``cards`` card indices each (0..51); strengths are ints where larger wins and equal ties
(``lows`` 0 = no low). With chance nodes, ``deals[n]`` is the card the child ``n`` of a
chance node deals (-1 for every other node) and ``boards[n]`` the row of strengths node
``n``'s showdowns read: ``highs0`` then holds ``hands x (max(boards) + 1)`` entries, row by
row (every hand's strength on board 0, then on board 1, ...). Every hand must hold only cards
a chance node it can reach may deal, so that the cards left are the same in number for every
pair of hands.
Suit isomorphism: ``mirrors[k]`` names the sibling whose subtree a chance node's child ``k``
plays as (-1 elsewhere) and ``sigmas[k]`` its row of ``perms0``/``perms1`` (per hand, the
hand it plays as there); nothing under ``k`` is stored or walked (see ``_solver_mirrors.pxi``).

How it is fast: regrets and strategy sums are flat float32 (or 16-bit) arrays, one row per
action and one column per hand, and the whole range walks the tree at once, its reaches and
values float32 rows; in 16 bits, regret matching and the update are vectorized C passes over
chunks of hands (``_solver_update.h``). At a leaf the opponent's reach is
folded into sums per card, per two, three and four cards, so the mass of the opponent's hands
that share no card with a hand is the total less an inclusion-exclusion over the hand's
subsets; at a showdown both ranges are swept once in order of strength. A leaf costs time
linear in the two range sizes.
"""

# A map of this file, in order: limits and the C declarations (the 16-bit passes of
# _solver_update.h among them); the Side struct (one player's hands, weights and strength
# orders); the leaf kernels (_solver_leaves.pxi: subset sums, compatible mass, the showdown
# sweeps); the Game: its arrays, then the walk, where _iterate runs one DCFR iteration as
# _root -> _walk, and _walk sends each node to _chance, _leaf, or a decision (the
# opponent's: _split; mine: each child walked from my reach, then _settle in float32 or
# _reach16/_update16 in 16 bits); then the Python face (run, values, best_responses,
# strategy). Reading and checking every input is _solver_input.pxi, suit isomorphism
# _solver_mirrors.pxi, both included at the end.

cimport cython
from cython.parallel cimport prange
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_CheckExact, PyBytes_GET_SIZE
from cpython.float cimport PyFloat_AsDouble, PyFloat_Check
from libc.math cimport fabs, isfinite, pow
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t
from libc.stdlib cimport calloc, free, malloc, qsort
from libc.string cimport memcpy, memset
from libc.stdint cimport uint64_t     # a hand's cards as bits (chance nodes)

from omahacore._input cimport exact_int, shown
from omahacore.errors import SolverError, SolverTypeError

# The per-hand rows the walk passes around (reaches, strategies, values, the leaves' temp
# rows) are float32: the passes over them are bound by memory traffic, which this halves
# (postflop-solver stores its per-hand values in f32 too). Sums and accumulators stay double
# and each entry is computed in double, rounded only when stored. Switch back to double here
# and in ``omaha_row_t`` (_solver_update.h) together: the two must agree.
ctypedef float row_t

__all__ = ["CHANCE", "DECISION", "FOLD", "MAX_ACTIONS", "MAX_CARDS", "MAX_HANDS", "MAX_NODES",
           "MAX_THREADS", "SHOWDOWN", "Game", "parallel"]

DECISION = 0
FOLD = 1
SHOWDOWN = 2
CHANCE = 3
MAX_ACTIONS = 16
MAX_CARDS = 4          # cards in a hand: the subset sums index up to four-card sets
MAX_HANDS = 270_725    # C(52, 4): every four-card hand
MAX_NODES = 1_000_000
MAX_CHIPS = 2 ** 53    # commits and the pot stay exact in a double
MAX_THREADS = 256

cdef extern from *:
    """
    #ifdef _OPENMP
    #define OMAHA_SOLVER_OPENMP 1
    #else
    #define OMAHA_SOLVER_OPENMP 0
    #endif
    """
    int OMAHA_SOLVER_OPENMP

cdef extern from "_solver_update.h":
    # Regret matching's (or the average's) probability of an action: its positive part x
    # times the hand's inv (one over the sum), or uniform where that sum is 0; the one
    # statement, which the 16-bit passes use too (here in double).
    double _share "OMAHA_SHARE"(double x, double inv, double uniform) noexcept nogil
    void omaha_update16_first(int c, const int16_t* const* q, const uint16_t* const* u,
                              row_t* const* rows, const row_t* own, row_t* out, double ss,
                              double pos, double neg, int lo, int hi, double* top_r,
                              double* top_s) noexcept nogil
    void omaha_update16_second(int c, int16_t* const* q, uint16_t* const* u,
                               const row_t* const* rows, const row_t* own, double ss,
                               double per_s, double per_r, int lo, int hi) noexcept nogil
    void omaha_split16(int c, const int16_t* const* q, const row_t* reach,
                       row_t* const* rows, int lo, int hi) noexcept nogil
    void omaha_norms16(int c, const int16_t* const* q, row_t* inv, int lo,
                       int hi) noexcept nogil
    void omaha_times16(const int16_t* q, const row_t* inv, const row_t* times, row_t* dst,
                       double uniform, int lo, int hi) noexcept nogil

parallel = bool(OMAHA_SOLVER_OPENMP)
"""Whether the core was built with OpenMP: without it, ``threads`` run one after another."""

cdef enum:
    K_DECISION = 0
    K_FOLD = 1
    K_SHOWDOWN = 2
    K_CHANCE = 3
    C_MAX_ACTIONS = 16
    C_MAX_CARDS = 4
    N_SUBSETS = 52 + 1326 + 22100 + 270725   # card sets of 1..4 cards, one slot each

cdef int64_t BINOM[53][5]       # BINOM[n][k] = C(n, k), built at import
cdef int64_t OFFSET[5]          # first slot of the sets of k cards
cdef int64_t B2[52]             # C(n, 2) and C(n, 3): the slot terms of four-card hands
cdef int64_t B3[52]
cdef int64_t P2, P3             # OFFSET[2], OFFSET[3]


cdef void _build_tables() noexcept nogil:
    cdef int n, k
    for n in range(53):
        BINOM[n][0] = 1
        for k in range(1, 5):
            BINOM[n][k] = 0 if n == 0 else BINOM[n - 1][k - 1] + BINOM[n - 1][k]
    OFFSET[0] = 0
    OFFSET[1] = 0
    for k in range(2, 5):
        OFFSET[k] = OFFSET[k - 1] + BINOM[52][k - 1]
    for n in range(52):
        B2[n] = BINOM[n][2]
        B3[n] = BINOM[n][3]
    global P2, P3
    P2 = OFFSET[2]
    P3 = OFFSET[3]

_build_tables()


cdef struct Side:
    int n                 # hands
    int k                 # cards per hand
    int nsub              # proper subsets per hand: 2**cards - 2
    uint8_t* cards        # n x k, ascending in a hand
    uint8_t* cards_high   # the same rows in increasing high strength (by_high order)
    uint8_t* cards_low    # ... in increasing low strength
    int32_t* high_sorted  # the high strengths in increasing order
    int32_t* low_sorted
    double* weight        # range weight of each hand
    row_t* reach          # the root reach: weight / top (a row: in float32's range)
    double top            # the largest weight
    int32_t* subset       # n x nsub slots of the hand's card sets (hands under 4 cards)
    int32_t* high
    int32_t* low
    int32_t* by_high      # hand indices in increasing high strength
    int32_t* by_low       # hand indices in increasing low strength
    int32_t* twin         # the other side's hand of the same cards, or -1
    int64_t* key          # the hand's cards packed, to find twins


cdef struct KeyIndex:
    int32_t key
    int32_t index


cdef struct KeyIndex64:
    int64_t key
    int32_t index


cdef int _compare_key64(const void* a, const void* b) noexcept nogil:
    cdef const KeyIndex64* x = <const KeyIndex64*>a
    cdef const KeyIndex64* y = <const KeyIndex64*>b
    return (x.key > y.key) - (x.key < y.key)


cdef int _compare_key(const void* a, const void* b) noexcept nogil:
    cdef const KeyIndex* x = <const KeyIndex*>a
    cdef const KeyIndex* y = <const KeyIndex*>b
    if x.key != y.key:
        return -1 if x.key < y.key else 1
    return (x.index > y.index) - (x.index < y.index)


cdef int _sort_by(const int32_t* key, int n, int32_t* out) noexcept nogil:
    cdef KeyIndex* tmp = <KeyIndex*>malloc(n * sizeof(KeyIndex))
    cdef int i
    if tmp == NULL:
        return -1
    for i in range(n):
        tmp[i].key = key[i]
        tmp[i].index = i
    qsort(tmp, n, sizeof(KeyIndex), _compare_key)
    for i in range(n):
        out[i] = tmp[i].index
    free(tmp)
    return 0


cdef void _fill_subsets(const uint8_t* cards, int k, int32_t* out) noexcept nogil:
    """The slot of every non-empty proper subset of ``k`` ascending cards, in bitmask order
    (the whole hand is matched through ``twin`` instead: no slot per hand)."""
    cdef int mask, i, size
    cdef int64_t slot
    for mask in range(1, (1 << k) - 1):
        size = 0
        slot = 0
        for i in range(k):
            if mask & (1 << i):
                size += 1
                slot += BINOM[cards[i]][size]
        out[mask - 1] = <int32_t>(OFFSET[size] + slot)


cdef inline double _since_restart(int64_t t, int base) noexcept nogil:
    """Iterations since the strategy sums last restarted: at t = base**k (k >= 0; never
    with base 0)."""
    cdef int64_t p = 1
    if base == 0:
        return <double>t
    while p * base <= t:
        p *= base
    return <double>(t - p) if t > 0 else 0.0


cdef inline double _sign(int mask) noexcept nogil:
    # inclusion-exclusion: sets of an odd number of cards count, even ones are taken back
    cdef int bits = 0
    while mask:
        bits += mask & 1
        mask >>= 1
    return 1.0 if bits & 1 else -1.0


# ---------------------------------------------------------------- the leaf kernels

include "_solver_leaves.pxi"


# ---------------------------------------------------------------- the game

cdef enum Mode:
    TRAIN = 0          # one DCFR iteration for the traverser
    BEST = 1           # the traverser's best response to the other's average strategy
    AVERAGE = 2        # both play their average strategies


@cython.final
cdef class Game:
    """A two-player game tree over two ranges, solved by discounted CFR (see the module)."""

    cdef int n_nodes, depth, cards, widest, actions
    cdef bint hilo
    cdef double pot, total_weight
    cdef int32_t* kind
    cdef int32_t* player
    cdef int32_t* first
    cdef int32_t* count
    cdef int32_t* level
    cdef double* commit0
    cdef double* commit1
    cdef int64_t* offset          # first entry of a decision node's rows; -1 for leaves
    cdef int64_t entries
    cdef float* regret            # float32 storage; NULL with 16-bit storage
    cdef float* average
    cdef int16_t* regret16        # 16-bit storage: entries times one scale per node array
    cdef uint16_t* average16
    cdef double* regret_scale     # per node: chips per unit of regret16
    cdef double* average_scale
    cdef bint compact             # 16-bit storage
    cdef bint released
    cdef int threads              # the hands of each node and leaf split among them
    cdef double* accs             # with threads: 2 x threads subset sums (chunks, work)
    cdef double* sums             # with threads: 2 x threads masses
    cdef int32_t* bounds          # with threads: the chunks' first hands, mine and theirs
    cdef double* tops             # with threads: 2 x threads largest regrets and sums
    cdef Side side[2]
    cdef double* acc              # the sums per proper subset of a hand's cards
    cdef int64_t slots            # the length of acc
    cdef row_t* scratch           # per decision level: actions + 1 rows of `widest` entries
    cdef row_t* temp              # three rows of `widest` entries for the leaves
    cdef double signs[15]
    cdef double full              # the inclusion-exclusion sign of the whole hand
    cdef int64_t done
    cdef double pos_discount, neg_discount, sum_discount
    cdef double alpha, beta, gamma  # the DCFR discount exponents
    cdef int restart                # the strategy sums restart at restart**k iterations
    cdef bint reuse_mass          # the next leaf is my fold right after my call's showdown
    cdef int32_t* deal            # per node: the card a chance node's child deals, else -1
    cdef int32_t* board           # per node: the row of strengths its showdowns read
    cdef uint64_t* dealt          # per node while building: the cards dealt on the way to it
    cdef int boards               # rows of strengths: one per board the tree can reach
    cdef int row                  # the row the sides' strength pointers are at now
    cdef int rows                 # scratch rows per level: actions + 1, at least 3 (chance)
    cdef bint chance              # the tree has chance nodes
    cdef uint64_t* mask[2]        # per hand: its cards as bits, to drop hands holding a deal
    cdef int32_t* mirror          # per node: the chance sibling it mirrors, else -1 (_mirrors)
    cdef int32_t* mirror_row      # per node: its row of hand permutations, else -1
    cdef int32_t* perm[2]         # per row and hand: the hand it plays as under the mirror
    cdef int mirrored             # rows of hand permutations (one per suit permutation)

    def __cinit__(self):
        self.kind = self.player = self.first = self.count = self.level = NULL
        self.actions = 0
        self.reuse_mass = False
        self.commit0 = self.commit1 = NULL
        self.offset = NULL
        self.regret = self.average = NULL
        self.regret16 = NULL
        self.average16 = NULL
        self.regret_scale = self.average_scale = NULL
        self.compact = self.released = False
        self.threads = 1
        self.accs = self.sums = self.tops = NULL
        self.bounds = NULL
        self.acc = self.scratch = self.temp = NULL
        memset(self.side, 0, sizeof(self.side))
        self.deal = self.board = NULL
        self.dealt = NULL
        self.mask[0] = self.mask[1] = NULL
        self.mirror = self.mirror_row = NULL
        self.perm[0] = self.perm[1] = NULL
        self.mirrored = 0
        self.boards = 1
        self.row = 0
        self.rows = 1
        self.chance = False

    def __dealloc__(self):
        cdef int p
        self._point(0)              # the rows' pointers back at their allocations
        free(self.deal); free(self.board); free(self.dealt); free(self.mask[0])
        free(self.mask[1])
        free(self.mirror); free(self.mirror_row); free(self.perm[0]); free(self.perm[1])
        free(self.kind); free(self.player); free(self.first); free(self.count)
        free(self.level); free(self.commit0); free(self.commit1); free(self.offset)
        free(self.regret); free(self.average); free(self.acc); free(self.scratch)
        free(self.regret16); free(self.average16); free(self.regret_scale)
        free(self.average_scale); free(self.accs); free(self.sums); free(self.bounds)
        free(self.tops)
        free(self.temp)
        for p in range(2):
            free(self.side[p].weight); free(self.side[p].reach); free(self.side[p].subset)
            free(self.side[p].high); free(self.side[p].low); free(self.side[p].by_high)
            free(self.side[p].by_low)
            free(self.side[p].twin); free(self.side[p].key); free(self.side[p].cards)
            free(self.side[p].cards_high); free(self.side[p].cards_low)
            free(self.side[p].high_sorted); free(self.side[p].low_sorted)

    def __init__(self, pot, kinds, players, firsts, counts, commits0, commits1, cards,
                 hands0, hands1, weights0, weights1, highs0, highs1, lows0=None, lows1=None,
                 max_bytes=None, bits=32, alpha=1.5, beta=0.0, gamma=3.0, threads=1,
                 deals=None, boards=None, mirrors=None, sigmas=None, perms0=None,
                 perms1=None, restart=0):
        # every argument checked and copied into C arrays (_solver_input.pxi)
        _read_input(self, pot, kinds, players, firsts, counts, commits0, commits1, cards,
                    hands0, hands1, weights0, weights1, highs0, highs1, lows0, lows1,
                    max_bytes, bits, alpha, beta, gamma, threads, deals, boards, mirrors,
                    sigmas, perms0, perms1, restart)

    cdef void _point(self, int row) noexcept nogil:
        """Point both sides' strengths and orders at the given row (a board)."""
        cdef int p
        cdef int64_t d
        cdef Side* s
        if row == self.row:
            return
        for p in range(2):
            s = &self.side[p]
            if s.high == NULL:
                continue
            d = <int64_t>(row - self.row) * s.n
            s.high += d; s.by_high += d; s.high_sorted += d; s.cards_high += d * s.k
            if self.hilo:       # else one row of lows (none), never read by a sweep
                s.low += d; s.by_low += d; s.low_sorted += d; s.cards_low += d * s.k
        self.row = row

    # ------------------------------------------------------------ walking the tree

    cdef void _compatible(self, const Side* me, const Side* op, const row_t* m,
                          row_t* out) noexcept nogil:
        """:func:`_compatible`, my hands split among the threads (the same sums)."""
        cdef int t, n = self.threads
        cdef double total
        cdef const double* acc = self.acc
        cdef const double* signs = self.signs
        cdef double full = self.full
        if n == 1:
            _compatible(me, op, m, self.acc, self.slots, self.signs, self.full, out)
            return
        total = _added(op, m, self.acc)
        if op.k == 4:
            _fold_triples(self.acc)
        for t in prange(n, num_threads=n, schedule="static", chunksize=1):
            _compatible_span(me, m, acc, total, <int>((<int64_t>me.n * t) // n),
                             <int>((<int64_t>me.n * (t + 1)) // n), signs, full, out)
        memset(self.acc, 0, self.slots * sizeof(double))

    cdef void _sweep(self, const Side* me, const Side* op, const row_t* m, bint low,
                     bint low_only, row_t* out, row_t* mass) noexcept nogil:
        """:func:`_sweep`; with threads, my hands cut into one run of strengths per thread:
        each chunk of the opponent's hands is summed apart, the sums are added up in order,
        and each thread sweeps its run from the sums below it (float rounding differs)."""
        cdef int n = self.threads, t, q
        cdef int64_t L = self.slots
        cdef const int32_t* my_sorted = me.low_sorted if low else me.high_sorted
        cdef const int32_t* op_sorted = op.low_sorted if low else op.high_sorted
        cdef int32_t* mine = self.bounds
        cdef int32_t* theirs = self.bounds + n + 1
        cdef double* accs = self.accs
        cdef double* sums = self.sums
        cdef const double* signs = self.signs
        cdef double full = self.full
        cdef int32_t key
        if n == 1:
            _sweep(me, op, m, low, low_only, self.acc, self.slots, self.signs, self.full, out,
                   mass)
            return
        mine[0] = theirs[0] = 0
        for t in range(1, n):
            key = my_sorted[(<int64_t>me.n * t) // n]
            mine[t] = _lower_bound(my_sorted, me.n, key)
            theirs[t] = _lower_bound(op_sorted, op.n, key)
        mine[n] = me.n
        theirs[n] = op.n
        for t in prange(n, num_threads=n, schedule="static", chunksize=1):
            memset(&accs[t * L], 0, L * sizeof(double))
            _chunk_sum(op, m, low, low_only, &accs[t * L], theirs[t], theirs[t + 1], &sums[t])
        for t in range(1, n):           # chunk t becomes the sum of chunks 0..t
            for q in range(L):
                accs[t * L + q] += accs[(t - 1) * L + q]
            sums[t] += sums[t - 1]
        for t in prange(n, num_threads=n, schedule="static", chunksize=1):
            if t == 0:
                memset(&accs[n * L], 0, L * sizeof(double))
                sums[n] = 0.0
            else:
                memcpy(&accs[(n + t) * L], &accs[(t - 1) * L], L * sizeof(double))
                sums[n + t] = sums[t - 1]
            _sweep_span(me, op, m, low, low_only, &accs[(n + t) * L], mine[t], mine[t + 1],
                        theirs[t], &sums[n + t], signs, full, out)
        if mass != NULL:
            if op.k == 4:
                _fold_triples(&accs[(n - 1) * L])
            for t in prange(n, num_threads=n, schedule="static", chunksize=1):
                _compatible_span(me, m, &accs[(n - 1) * L], sums[n - 1],
                                 <int>((<int64_t>me.n * t) // n),
                                 <int>((<int64_t>me.n * (t + 1)) // n), signs, full, mass)

    cdef void _leaf(self, int node, int p, const row_t* opp, row_t* out) noexcept nogil:
        cdef const Side* me = &self.side[p]
        cdef const Side* op = &self.side[1 - p]
        cdef double mine = self.commit0[node] if p == 0 else self.commit1[node]
        cdef double theirs = self.commit1[node] if p == 0 else self.commit0[node]
        cdef row_t* mass = self.temp
        cdef row_t* high = self.temp + self.widest
        cdef row_t* other = self.temp + 2 * self.widest
        cdef int i
        cdef bint reuse = self.reuse_mass
        self.reuse_mass = False
        if self.kind[node] == K_FOLD:
            if not reuse:   # else the showdown just before, on the same reach, left it here
                self._compatible(me, op, opp, mass)
            if self.player[node] == p:
                for i in range(me.n):
                    out[i] = -mine * mass[i]
            else:
                for i in range(me.n):
                    out[i] = (self.pot + theirs) * mass[i]
            return
        self._sweep(me, op, opp, False, False, high, mass)
        if self.hilo:
            self._sweep(me, op, opp, False, True, other, NULL)
            for i in range(me.n):   # no low of my own: half the high where they have a low
                if me.low[i] == 0:
                    high[i] -= 0.5 * other[i]
            self._sweep(me, op, opp, True, False, other, NULL)
            for i in range(me.n):   # a low of my own: every pot is split high and low
                if me.low[i] > 0:
                    high[i] = 0.5 * high[i] + 0.5 * other[i]
        for i in range(me.n):
            out[i] = high[i] * (self.pot + mine + theirs) - mine * mass[i]

    cdef inline void _current(self, int node, int i, int n, double* sigma) noexcept nogil:
        """Regret matching: the current strategy of hand ``i`` (of ``n``) at ``node`` (the
        16-bit scale is one per node array: it cancels)."""
        cdef int a, c = self.count[node]
        cdef const float* r
        cdef const int16_t* q
        cdef double total = 0.0, x
        if self.compact:
            q = &self.regret16[self.offset[node]]
            for a in range(c):
                x = q[<int64_t>a * n + i]
                sigma[a] = x if x > 0.0 else 0.0
                total += sigma[a]
        else:
            r = &self.regret[self.offset[node]]
            for a in range(c):
                x = r[<int64_t>a * n + i]
                sigma[a] = x if x > 0.0 else 0.0
                total += sigma[a]
        for a in range(c):
            sigma[a] = sigma[a] / total if total > 0.0 else 1.0 / c

    cdef inline void _averaged(self, int node, int i, int n, double* sigma) noexcept nogil:
        cdef int a, c = self.count[node]
        cdef const float* s
        cdef const uint16_t* q
        cdef double total = 0.0
        if self.compact:
            q = &self.average16[self.offset[node]]
            for a in range(c):
                sigma[a] = q[<int64_t>a * n + i]
                total += sigma[a]
        else:
            s = &self.average[self.offset[node]]
            for a in range(c):
                sigma[a] = s[<int64_t>a * n + i]
                total += sigma[a]
        for a in range(c):
            sigma[a] = sigma[a] / total if total > 0.0 else 1.0 / c

    cdef void _walk(self, int node, int p, const row_t* own, const row_t* opp, row_t* out,
                    Mode mode) noexcept nogil:
        # This level's scratch: rows 0..actions-1 hold a row per action (the reach or the
        # strategy, then the child's values), then one row: my reach to a child at my
        # decisions, a child's values at the opponent's.
        cdef int c = self.count[node], a, d, i
        cdef bint swap
        cdef int n_me = self.side[p].n, n_op = self.side[1 - p].n
        cdef int64_t w = self.widest
        cdef row_t* block
        cdef row_t* reach
        cdef row_t* child
        cdef row_t* inv
        cdef double best, x
        if self.kind[node] == K_CHANCE:
            self._chance(node, p, own, opp, out, mode)
            return
        if self.kind[node] != K_DECISION:
            self._leaf(node, p, opp, out)
            return
        block = &self.scratch[<int64_t>self.level[node] * self.rows * w]
        reach = block + self.actions * w    # my reach to a child, at my decisions
        child = reach                       # a child's values, at the opponent's
        if self.player[node] != p:      # the opponent acts: their reach splits
            self._split(node, n_op, mode, opp, block)
            for i in range(n_me):
                out[i] = 0.0
            for a in range(c):
                self._walk(self.first[node] + a, p, own, &block[a * w], child, mode)
                for i in range(n_me):
                    out[i] += child[i]
            return
        # My fold and my call see the same opponent reach: the call's showdown (child 1) goes
        # first and leaves the compatible mass that the fold (child 0) needs.
        swap = (c >= 2 and self.kind[self.first[node]] == K_FOLD
                and self.player[self.first[node]] == p
                and self.kind[self.first[node] + 1] == K_SHOWDOWN)
        if mode == BEST:
            for d in range(c):
                a = (1 - d) if swap and d < 2 else d
                self.reuse_mass = swap and d == 1
                self._walk(self.first[node] + a, p, own, opp, &block[a * w], mode)
            for i in range(n_me):
                best = block[i]
                for a in range(1, c):
                    x = block[a * w + i]
                    if x > best:
                        best = x
                out[i] = best
            return
        if mode == TRAIN and self.compact:
            # Regret matching's normalizers wait in the row of the action walked last (free
            # until then); each action's reach is formed from them just before its walk.
            inv = &block[(0 if swap and c == 2 else c - 1) * w]
            self._reach16(node, -1, n_me, NULL, inv, NULL)
            for d in range(c):
                a = (1 - d) if swap and d < 2 else d
                self._reach16(node, a, n_me, own, inv, reach)
                self.reuse_mass = swap and d == 1
                self._walk(self.first[node] + a, p, reach, opp, &block[a * w], mode)
            self._update16(node, n_me, own, block, out)
            return
        self._split(node, n_me, mode, NULL, block)
        for d in range(c):
            a = (1 - d) if swap and d < 2 else d
            for i in range(n_me):
                reach[i] = own[i] * block[a * w + i]
            self.reuse_mass = swap and d == 1
            self._walk(self.first[node] + a, p, reach, opp, &block[a * w], mode)
        self._settle(node, n_me, mode, own, block, out)

    cdef void _reach16(self, int node, int a, int n, const row_t* own, row_t* inv,
                       row_t* reach) noexcept nogil:
        """16-bit training at my ``node``: with ``a`` -1, ``inv`` from the regrets (see
        :meth:`_norms`); else my reach to action ``a``'s child, ``own`` times its
        probability, into ``reach``. Hands split among the threads."""
        cdef int t, k = self.threads, lo, hi
        cdef const float* f[C_MAX_ACTIONS]
        cdef const int16_t* q[C_MAX_ACTIONS]
        cdef const uint16_t* u[C_MAX_ACTIONS]
        cdef double uniform = 1.0 / self.count[node]
        self._rows(node, n, TRAIN, f, q, u)
        for t in prange(k, num_threads=k, schedule="static", chunksize=1):
            lo = <int>((<int64_t>n * t) // k)
            hi = <int>((<int64_t>n * (t + 1)) // k)
            if a < 0:
                omaha_norms16(self.count[node], q, inv, lo, hi)
            else:
                omaha_times16(q[a], inv, own, reach, uniform, lo, hi)

    # The strategy and the updates are passes over the hands that read each action's row at
    # the hand (plain array loops the compiler can vectorize; 16-bit training's are in
    # _solver_update.h); each hand's normalizer is kept as its inverse in ``inv``, 0 where
    # the strategy is uniform. ``inv`` is the leaves' second temp row (a
    # showdown's high share): free while a decision is split or settled, and already in
    # memory (the first row keeps the mass that a fold right after a showdown reuses).

    cdef void _chance(self, int node, int p, const row_t* own, const row_t* opp,
                      row_t* out, Mode mode) noexcept nogil:
        """A chance node: each child's card comes with one chance in (children - both hands'
        cards) for every pair of hands holding neither it nor a card dealt before; hands
        holding it leave that child's subtree (no reach) and get nothing from it."""
        cdef int a, i, j, ch, back = self.row
        cdef int n_me = self.side[p].n, n_op = self.side[1 - p].n
        cdef int64_t w = self.widest
        cdef row_t* mine = &self.scratch[<int64_t>self.level[node] * self.rows * w]
        cdef row_t* theirs = mine + w
        cdef row_t* child = mine + 2 * w
        cdef double share = 1.0 / (self.count[node] - 2 * self.cards)
        cdef const uint64_t* my_mask = self.mask[p]
        cdef const uint64_t* op_mask = self.mask[1 - p]
        cdef uint64_t bit
        for i in range(n_me):
            out[i] = 0.0
        for a in range(self.count[node]):
            ch = self.first[node] + a
            bit = (<uint64_t>1) << self.deal[ch]
            if self.mirror[ch] >= 0:    # played as its mirror's values, permuted (below)
                continue
            if mode == TRAIN:   # my reach weighs only my strategy sums: else never read
                for i in range(n_me):
                    mine[i] = 0.0 if my_mask[i] & bit else own[i]
            for j in range(n_op):
                theirs[j] = 0.0 if op_mask[j] & bit else opp[j]
            self._point(self.board[ch])
            self._walk(ch, p, mine if mode == TRAIN else own, theirs, child, mode)
            for i in range(n_me):
                if not my_mask[i] & bit:
                    out[i] += share * child[i]
            if self.mirrored:
                _add_mirrors(self, node, ch, p, share, child, out)
        self._point(back)

    cdef void _split(self, int node, int n, Mode mode, const row_t* reach,
                     row_t* block) noexcept nogil:
        """Each hand's strategy at ``node`` into ``block``'s rows, times ``reach`` if given."""
        cdef int t, k = self.threads
        cdef row_t* inv = self.temp + self.widest
        if k == 1:
            self._split_span(node, 0, n, n, mode, reach, block, inv)
        else:
            for t in prange(k, num_threads=k, schedule="static", chunksize=1):
                self._split_span(node, <int>((<int64_t>n * t) // k),
                                 <int>((<int64_t>n * (t + 1)) // k), n, mode, reach, block,
                                 inv)

    cdef inline void _rows(self, int node, int n, Mode mode, const float** f,
                           const int16_t** q, const uint16_t** u) noexcept nogil:
        """Point f (float32 storage: regrets when training, else strategy sums) or q and u
        (16-bit storage: both) at each action's row of ``node``."""
        cdef int a
        cdef int64_t o = self.offset[node]
        for a in range(self.count[node]):
            if self.compact:
                q[a] = &self.regret16[o + <int64_t>a * n]
                u[a] = &self.average16[o + <int64_t>a * n]
            else:
                f[a] = &(self.regret if mode == TRAIN else self.average)[o + <int64_t>a * n]

    cdef void _norms(self, int node, int lo, int hi, int n, Mode mode,
                     row_t* inv) noexcept nogil:
        """inv[i] for hands lo..hi-1: one over the sum of hand i's positive regrets
        (training) or of its strategy sums (otherwise), 0 where that sum is 0. One pass:
        each hand reads its entry of every action's row. (Training in 16 bits goes through
        ``_solver_update.h`` instead: never here.)"""
        cdef int a, c = self.count[node], i
        cdef const float* f[C_MAX_ACTIONS]
        cdef const int16_t* q[C_MAX_ACTIONS]
        cdef const uint16_t* u[C_MAX_ACTIONS]
        cdef double x, total
        self._rows(node, n, mode, f, q, u)
        if self.compact:
            for i in range(lo, hi):
                total = 0.0
                for a in range(c):
                    total += u[a][i]
                inv[i] = 1.0 / total if total > 0.0 else 0.0
        else:
            for i in range(lo, hi):
                total = 0.0
                for a in range(c):
                    x = f[a][i]
                    total += x if x > 0.0 else 0.0
                inv[i] = 1.0 / total if total > 0.0 else 0.0

    cdef void _shares(self, int node, int a, int lo, int hi, int n, Mode mode,
                      const row_t* inv, const row_t* times, row_t* dst) noexcept nogil:
        """dst[i] = the probability of action ``a`` for hands lo..hi-1 (see :meth:`_norms`),
        times ``times[i]`` if given."""
        cdef int i, c = self.count[node]
        cdef int64_t row = self.offset[node] + <int64_t>a * n
        cdef double uniform = 1.0 / c, x
        cdef const float* f
        cdef const uint16_t* u
        if self.compact and mode != TRAIN:   # 16-bit training: _solver_update.h
            u = &self.average16[row]
            if times == NULL:
                for i in range(lo, hi):
                    x = u[i]
                    dst[i] = _share(x, inv[i], uniform)
            else:
                for i in range(lo, hi):
                    x = u[i]
                    dst[i] = _share(x, inv[i], uniform) * times[i]
            return
        f = &(self.regret if mode == TRAIN else self.average)[row]
        if times == NULL:
            for i in range(lo, hi):
                x = f[i]
                dst[i] = _share(x, inv[i], uniform)
        else:
            for i in range(lo, hi):
                x = f[i]
                dst[i] = _share(x, inv[i], uniform) * times[i]

    cdef void _split_span(self, int node, int lo, int hi, int n, Mode mode,
                          const row_t* reach, row_t* block, row_t* inv) noexcept nogil:
        cdef int a, c = self.count[node]
        cdef int64_t w = self.widest
        cdef const float* f[C_MAX_ACTIONS]
        cdef const int16_t* q[C_MAX_ACTIONS]
        cdef const uint16_t* u[C_MAX_ACTIONS]
        cdef row_t* rows[C_MAX_ACTIONS]
        if mode == TRAIN and self.compact:
            self._rows(node, n, mode, f, q, u)
            for a in range(c):
                rows[a] = &block[a * w]
            omaha_split16(c, q, reach, rows, lo, hi)
            return
        self._norms(node, lo, hi, n, mode, inv)
        for a in range(c):
            self._shares(node, a, lo, hi, n, mode, inv, reach, &block[a * w])

    cdef void _value_span(self, int node, int lo, int hi, int n, Mode mode, const row_t* inv,
                          const row_t* block, row_t* out) noexcept nogil:
        """out[i] for hands lo..hi-1: the strategy's mean of the children's values (one pass,
        as :meth:`_norms`)."""
        cdef int a, i, c = self.count[node]
        cdef int64_t w = self.widest
        cdef double uniform = 1.0 / c, x, v
        cdef const float* f[C_MAX_ACTIONS]
        cdef const int16_t* q[C_MAX_ACTIONS]
        cdef const uint16_t* u[C_MAX_ACTIONS]
        self._rows(node, n, mode, f, q, u)
        if self.compact:
            for i in range(lo, hi):
                v = 0.0
                for a in range(c):
                    x = u[a][i]
                    v += _share(x, inv[i], uniform) * block[a * w + i]
                out[i] = v
        else:
            for i in range(lo, hi):
                v = 0.0
                for a in range(c):
                    x = f[a][i]
                    v += _share(x, inv[i], uniform) * block[a * w + i]
                out[i] = v

    cdef void _settle(self, int node, int n, Mode mode, const row_t* own,
                      const row_t* block, row_t* out) noexcept nogil:
        """The values at my ``node`` from its children's (``block``) and, training, the
        regrets and strategy sums updated (float32)."""
        cdef int t, k = self.threads
        cdef row_t* inv = self.temp + self.widest
        if k == 1:
            self._settle_span(node, 0, n, n, mode, own, block, out, inv)
        else:
            for t in prange(k, num_threads=k, schedule="static", chunksize=1):
                self._settle_span(node, <int>((<int64_t>n * t) // k),
                                  <int>((<int64_t>n * (t + 1)) // k), n, mode, own, block,
                                  out, inv)

    cdef void _settle_span(self, int node, int lo, int hi, int n, Mode mode, const row_t* own,
                           const row_t* block, row_t* out, row_t* inv) noexcept nogil:
        cdef int a, i, c = self.count[node]
        cdef int64_t w = self.widest, row
        cdef double uniform = 1.0 / c, x, pos = self.pos_discount, neg = self.neg_discount
        cdef double sd = self.sum_discount
        cdef const row_t* b
        cdef float* r
        cdef float* s
        self._norms(node, lo, hi, n, mode, inv)   # the regrets are not changed yet
        self._value_span(node, lo, hi, n, mode, inv, block, out)
        if mode != TRAIN:
            return
        for a in range(c):
            row = self.offset[node] + <int64_t>a * n
            r = &self.regret[row]
            s = &self.average[row]
            b = &block[a * w]
            for i in range(lo, hi):
                x = r[i]
                s[i] = <float>(s[i] * sd + own[i] * _share(x, inv[i], uniform))
                r[i] = <float>(x * (pos if x > 0.0 else neg) + b[i] - out[i])

    cdef void _update16(self, int node, int n, const row_t* own, row_t* block,
                        row_t* out) noexcept nogil:
        """The DCFR update of a node in 16-bit storage. The new regrets go to ``block`` (over
        the children's values) and the largest new regret and strategy sum set the node's two
        scales; then both are rounded to the nearest step of their scale. The largest are
        exact whatever the threads, so the result is too."""
        cdef int t, k = self.threads
        cdef double top_r = 0.0, top_s = 0.0, step_r, step_s
        cdef double* tops = self.tops
        if k == 1:
            self._update16_first(node, 0, n, n, own, block, out, &top_r, &top_s)
        else:
            for t in prange(k, num_threads=k, schedule="static", chunksize=1):
                self._update16_first(node, <int>((<int64_t>n * t) // k),
                                     <int>((<int64_t>n * (t + 1)) // k), n, own, block, out,
                                     &tops[2 * t], &tops[2 * t + 1])
            for t in range(k):
                top_r = tops[2 * t] if tops[2 * t] > top_r else top_r
                top_s = tops[2 * t + 1] if tops[2 * t + 1] > top_s else top_s
        step_r = top_r / 32767.0
        step_s = top_s / 65535.0
        if k == 1:
            self._update16_second(node, 0, n, n, own, block, step_r, step_s)
        else:
            for t in prange(k, num_threads=k, schedule="static", chunksize=1):
                self._update16_second(node, <int>((<int64_t>n * t) // k),
                                      <int>((<int64_t>n * (t + 1)) // k), n, own, block,
                                      step_r, step_s)
        self.regret_scale[node] = step_r
        self.average_scale[node] = step_s

    cdef void _update16_first(self, int node, int lo, int hi, int n, const row_t* own,
                              row_t* block, row_t* out, double* top_r,
                              double* top_s) noexcept nogil:
        """Hands lo..hi-1: values into ``out``, new regrets into ``block``, the largest
        new regret and strategy sum into ``top_r`` and ``top_s`` (``_solver_update.h``)."""
        cdef int a, c = self.count[node]
        cdef const float* f[C_MAX_ACTIONS]
        cdef const int16_t* q[C_MAX_ACTIONS]
        cdef const uint16_t* u[C_MAX_ACTIONS]
        cdef row_t* b[C_MAX_ACTIONS]
        cdef double rs = self.regret_scale[node]
        self._rows(node, n, TRAIN, f, q, u)
        for a in range(c):
            b[a] = &block[a * self.widest]
        omaha_update16_first(c, q, u, b, own, out,
                             self.average_scale[node] * self.sum_discount,
                             self.pos_discount * rs, self.neg_discount * rs, lo, hi, top_r,
                             top_s)

    cdef void _update16_second(self, int node, int lo, int hi, int n, const row_t* own,
                               const row_t* block, double step_r,
                               double step_s) noexcept nogil:
        """Hands lo..hi-1: the new regrets and strategy sums rounded to their steps."""
        cdef int a, c = self.count[node]
        cdef int16_t* q[C_MAX_ACTIONS]
        cdef uint16_t* u[C_MAX_ACTIONS]
        cdef const row_t* b[C_MAX_ACTIONS]
        cdef int64_t row
        for a in range(c):
            row = self.offset[node] + <int64_t>a * n
            q[a] = &self.regret16[row]
            u[a] = &self.average16[row]
            b[a] = &block[a * self.widest]
        omaha_update16_second(c, q, u, b, own,
                              self.average_scale[node] * self.sum_discount,
                              1.0 / step_s if step_s > 0.0 else 0.0,
                              1.0 / step_r if step_r > 0.0 else 0.0, lo, hi)

    cdef double _root(self, int p, Mode mode) noexcept nogil:
        """Player ``p``'s value at the root, in chips, weighted over the deals (the walk's
        values are per unit of the opponent's root reach, its weights over their largest)."""
        cdef row_t* out = <row_t*>malloc(self.widest * sizeof(row_t))
        cdef double total = 0.0
        cdef int i
        if out == NULL:
            return 0.0 / 0.0
        self._walk(0, p, self.side[p].reach, self.side[1 - p].reach, out, mode)
        for i in range(self.side[p].n):
            total += self.side[p].weight[i] * out[i]
        free(out)
        return total * self.side[1 - p].top / self.total_weight

    cdef void _iterate(self) noexcept nogil:
        cdef double t = <double>self.done, ta = pow(t, self.alpha), tb = pow(t, self.beta)
        cdef int p
        self.pos_discount = ta / (ta + 1.0) if t > 0 else 0.0
        self.neg_discount = tb / (tb + 1.0) if t > 0 else 0.0
        t = _since_restart(self.done, self.restart)
        self.sum_discount = pow(t / (t + 1.0), self.gamma)
        for p in range(2):
            self._root(p, TRAIN)
        self.done += 1

    # ------------------------------------------------------------ the Python face

    def run(self, iterations):
        """Run ``iterations`` more DCFR iterations (by default alpha 1.5, beta 0, gamma 3),
        without the GIL. With ``restart`` the strategy sums start again at iterations
        restart**k."""
        cdef object count = exact_int(iterations)
        cdef int64_t k, n
        if count is None:
            raise SolverTypeError(f"iterations must be an int, got {shown(iterations)}")
        if count < 0 or count > 10 ** 9:
            raise SolverError(f"iterations: {count} is not in 0..1,000,000,000")
        n = count
        self._working()
        with nogil:
            for k in range(n):
                self._iterate()

    @property
    def iterations(self):
        """The iterations run so far."""
        return self.done

    @property
    def nodes(self):
        """The number of nodes of the tree."""
        return self.n_nodes

    @property
    def hands(self):
        """The number of hands of each player."""
        return (self.side[0].n, self.side[1].n)

    cdef int _working(self) except -1:
        if self.released:
            raise SolverError("the game was released: only its strategy can be read")
        return 0

    def values(self):
        """Each player's value in chips when both play their average strategies (one walk:
        the two add up to the pot)."""
        cdef double v0
        self._working()
        with nogil:
            v0 = self._root(0, AVERAGE)
        return (v0, self.pot - v0)

    def best_responses(self):
        """Each player's value in chips when they best-respond to the other's average."""
        cdef double v0, v1
        self._working()
        with nogil:
            v0 = self._root(0, BEST)
            v1 = self._root(1, BEST)
        return (v0, v1)

    def exploitability(self):
        """The mean of the two best-response gains in chips: (br0 + br1 - pot) / 2."""
        b0, b1 = self.best_responses()
        return (b0 + b1 - self.pot) / 2.0

    def strategy(self, node):
        """The average strategy at a decision node: for each action in order, the
        probability of each of the acting player's hands (a flat tuple, action-major)."""
        cdef int k = self._decision(node), a, i, n = self.side[self.player[k]].n
        cdef double sigma[C_MAX_ACTIONS]
        out = [0.0] * (self.count[k] * n)
        for i in range(n):
            self._averaged(k, i, n, sigma)
            for a in range(self.count[k]):
                out[a * n + i] = sigma[a]
        return tuple(out)

    def strategy_into(self, node, float[::1] out not None):
        """:meth:`strategy` written into ``out``, a writable float32 buffer of exactly
        actions x hands entries (a NumPy array): no Python float per entry."""
        cdef int k = self._decision(node), a, i, n = self.side[self.player[k]].n
        cdef double sigma[C_MAX_ACTIONS]
        if out.shape[0] != <Py_ssize_t>self.count[k] * n:
            raise SolverError(f"out: {out.shape[0]} entries for {self.count[k]} actions x "
                              f"{n} hands")
        with nogil:
            for i in range(n):
                self._averaged(k, i, n, sigma)
                for a in range(self.count[k]):
                    out[<Py_ssize_t>a * n + i] = <float>sigma[a]

    def release(self):
        """Free the regrets and the scratch rows (the average strategy stays readable);
        :meth:`run` refuses afterwards."""
        free(self.regret); free(self.regret16); free(self.scratch); free(self.temp)
        self.regret = NULL
        self.regret16 = NULL
        self.released = True
        self.scratch = NULL
        self.temp = NULL

    cdef int _decision(self, object node) except -1:
        cdef int k = _small(node, "node", -1, 0, self.n_nodes - 1)
        if self.kind[k] != K_DECISION:
            raise SolverError(f"node: {k} is a fold, showdown or chance node, not a decision")
        if self.offset[k] < 0:
            raise SolverError(f"node: {k} lies under a mirrored chance child: its strategy is "
                              "its mirror's, with the hands permuted")
        return k


# ---------------------------------------------------------------- reading Python input

include "_solver_input.pxi"


# ---------------------------------------------------------------- suit isomorphism

include "_solver_mirrors.pxi"
