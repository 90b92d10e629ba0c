# Included by solver.pyx: reading the input. ``Game.__init__`` hands its arguments to
# ``_read_input``, which copies each into the game's C arrays (one exact int or float per
# item, fixed lengths), checks the tree, the deals, both ranges and the memory they imply, and
# raises a SolverError or SolverTypeError naming the field before anything is walked. The
# helpers first: one item or sequence read exactly, each bad one named.


cdef tuple _snapshot(object values, str name, Py_ssize_t limit):
    cdef tuple items
    if isinstance(values, (str, bytes, bytearray, dict, set, frozenset, int, float)):
        raise SolverTypeError(f"{name} must be a sequence, got {type(values).__name__}")
    try:
        if hasattr(values, "tolist"):
            values = values.tolist()
        items = tuple(values)
    except Exception:
        raise SolverTypeError(f"{name} must be a sequence, got {type(values).__name__}") \
            from None
    if len(items) > limit:
        raise SolverError(f"{name}: {len(items):,} entries, more than {limit:,}")
    return items


cdef int _small(object item, str name, int index, int low, int high) except? -1:
    cdef object value = exact_int(item)
    if value is not None and low <= value <= high:
        return value
    where = name if index < 0 else f"{name}[{index}]"     # the text only for an error
    if value is None:
        raise SolverTypeError(f"{where} must be an int, got {shown(item)}")
    raise SolverError(f"{where} = {value} is not in {low}..{high}")


cdef int64_t _chips(object item, str where, bint positive) except? -1:
    cdef object value = exact_int(item)
    if value is None:
        raise SolverTypeError(f"{where} must be an int, got {shown(item)}")
    if value < (1 if positive else 0) or value > MAX_CHIPS:
        raise SolverError(f"{where} = {shown(value)} is not in "
                          f"{1 if positive else 0}..2**53")
    return value


cdef double _exponent(object item, str name, double low, double high) except? -1.0:
    if isinstance(item, bool) or not isinstance(item, (int, float)):
        raise SolverTypeError(f"{name} must be a number, got {shown(item)}")
    if not low <= item <= high:
        raise SolverError(f"{name} = {shown(item)} is not in {low:g}..{high:g}")
    return <double>item


cdef double _weight(object item, str name, int index) except? -1.0:
    cdef double x
    cdef object value
    if PyFloat_Check(item):
        x = PyFloat_AsDouble(item)
    else:
        value = exact_int(item)
        if value is None:
            raise SolverTypeError(f"{name}[{index}] must be a float or an int, got "
                                  f"{shown(item)}")
        x = float(value)
    if not isfinite(x) or x < 0.0 or x > 1e300:
        raise SolverError(f"{name}[{index}] = {shown(item)} is not a finite weight >= 0")
    return x


cdef int _read_input(Game g, pot, kinds, players, firsts, counts, commits0, commits1, cards,
                     hands0, hands1, weights0, weights1, highs0, highs1, lows0, lows1,
                     max_bytes, bits, alpha, beta, gamma, threads, deals, boards, mirrors,
                     sigmas, perms0, perms1, restart) except -1:
    """:meth:`Game.__init__`: every argument checked and copied into the game's C arrays
    (the tree first, so the memory it implies is known before the big arrays), then the
    arrays the walks need allocated; a bad argument raises before any walk."""
    cdef int n, i, c, p, d
    cdef int64_t need, limit
    cdef object hands, weights, highs, lows
    if g.kind != NULL:
        raise SolverError("a Game is built once")
    g.pot = <double>_chips(pot, "pot", True)
    if _small(bits, "bits", -1, 16, 32) not in (16, 32):
        raise SolverError(f"bits = {bits} is not 16 or 32")
    g.compact = bits == 16
    g.alpha = _exponent(alpha, "alpha", 0.0, 10.0)
    g.beta = _exponent(beta, "beta", -10.0, 10.0)
    g.gamma = _exponent(gamma, "gamma", 0.0, 10.0)
    g.restart = _small(restart, "restart", -1, 0, 1_000_000)
    if g.restart == 1:
        raise SolverError("restart = 1: give 0 (never) or a base of 2 or more")
    g.threads = _small(threads, "threads", -1, 1, MAX_THREADS)
    cards = _small(cards, "cards", -1, 1, C_MAX_CARDS)
    g.cards = cards
    g.hilo = lows0 is not None or lows1 is not None
    if g.hilo and (lows0 is None or lows1 is None):
        raise SolverError("lows0, lows1: give the low strengths of both ranges or neither")
    kinds = _snapshot(kinds, "kinds", MAX_NODES)
    n = len(kinds)
    players = _snapshot(players, "players", n)
    firsts = _snapshot(firsts, "firsts", n)
    counts = _snapshot(counts, "counts", n)
    commits0 = _snapshot(commits0, "commits0", n)
    commits1 = _snapshot(commits1, "commits1", n)
    deals = _snapshot(deals, "deals", n) if deals is not None else (-1,) * n
    boards = _snapshot(boards, "boards", n) if boards is not None else (0,) * n
    mirrors = _snapshot(mirrors, "mirrors", n) if mirrors is not None else (-1,) * n
    sigmas = _snapshot(sigmas, "sigmas", n) if sigmas is not None else (-1,) * n
    for name, seq in (("players", players), ("firsts", firsts), ("counts", counts),
                      ("commits0", commits0), ("commits1", commits1), ("deals", deals),
                      ("boards", boards), ("mirrors", mirrors),
                      ("sigmas", sigmas)):
        if len(seq) != n:
            raise SolverError(f"{name}: {len(seq)} entries for {n} nodes")
    sizes = []
    for p in range(2):
        hands = (hands0, hands1)[p]
        if not PyBytes_CheckExact(hands):
            raise SolverTypeError(f"hands{p} must be bytes, got {type(hands).__name__}")
        if PyBytes_GET_SIZE(hands) == 0 or PyBytes_GET_SIZE(hands) % cards:
            raise SolverError(f"hands{p}: {PyBytes_GET_SIZE(hands)} bytes is not a whole, "
                              f"non-zero number of {cards}-card hands")
        if PyBytes_GET_SIZE(hands) // cards > MAX_HANDS:
            raise SolverError(f"hands{p}: more than MAX_HANDS = {MAX_HANDS:,} hands")
        sizes.append(PyBytes_GET_SIZE(hands) // cards)
    g.n_nodes = n
    g.widest = max(sizes[0], sizes[1])
    # the tree first (small), so the memory it implies is known before the big arrays
    g.kind = <int32_t*>calloc(n, sizeof(int32_t))
    g.player = <int32_t*>calloc(n, sizeof(int32_t))
    g.first = <int32_t*>calloc(n, sizeof(int32_t))
    g.count = <int32_t*>calloc(n, sizeof(int32_t))
    g.level = <int32_t*>calloc(n, sizeof(int32_t))
    g.commit0 = <double*>calloc(n, sizeof(double))
    g.commit1 = <double*>calloc(n, sizeof(double))
    g.offset = <int64_t*>calloc(n, sizeof(int64_t))
    g.deal = <int32_t*>calloc(n, sizeof(int32_t))
    g.board = <int32_t*>calloc(n, sizeof(int32_t))
    g.dealt = <uint64_t*>calloc(n, sizeof(uint64_t))
    g.mirror = <int32_t*>calloc(n, sizeof(int32_t))
    g.mirror_row = <int32_t*>calloc(n, sizeof(int32_t))
    if (g.kind == NULL or g.player == NULL or g.first == NULL or g.count == NULL
            or g.level == NULL or g.commit0 == NULL or g.commit1 == NULL
            or g.offset == NULL or g.deal == NULL or g.board == NULL
            or g.dealt == NULL or g.mirror == NULL or g.mirror_row == NULL):
        raise MemoryError()
    _read_deals(g, deals, boards)
    _read_mirrors(g, mirrors, sigmas)
    _read_tree(g, kinds, players, firsts, counts, commits0, commits1, sizes)
    _check_mirrors(g)
    need = _bytes_needed(g, sizes[0], sizes[1])
    if max_bytes is not None:
        limit = _chips(max_bytes, "max_bytes", True)
        if need > limit:
            raise SolverError(f"max_bytes: the tree needs {need:,} bytes of solver arrays, "
                              f"more than the limit of {limit:,}")
    for p in range(2):
        _read_side(g, p, (hands0, hands1)[p], (weights0, weights1)[p],
                   (highs0, highs1)[p], (lows0, lows1)[p] if g.hilo else None,
                   sizes[p])
    _check_deals(g)
    _read_perms(g, 0, perms0)
    _read_perms(g, 1, perms1)
    free(g.dealt)
    g.dealt = NULL
    if g.compact:
        g.regret16 = <int16_t*>calloc(g.entries if g.entries else 1, 2)
        g.average16 = <uint16_t*>calloc(g.entries if g.entries else 1, 2)
        g.regret_scale = <double*>calloc(n, sizeof(double))
        g.average_scale = <double*>calloc(n, sizeof(double))
        if (g.regret16 == NULL or g.average16 == NULL or g.regret_scale == NULL
                or g.average_scale == NULL):
            raise MemoryError()
    else:
        g.regret = <float*>calloc(g.entries if g.entries else 1, sizeof(float))
        g.average = <float*>calloc(g.entries if g.entries else 1, sizeof(float))
        if g.regret == NULL or g.average == NULL:
            raise MemoryError()
    g.slots = OFFSET[cards] + 1
    g.acc = <double*>calloc(g.slots, sizeof(double))
    g.scratch = <row_t*>malloc((g.depth + 1) * g.rows * <int64_t>g.widest * sizeof(row_t))
    g.temp = <row_t*>malloc(3 * <int64_t>g.widest * sizeof(row_t))
    if g.threads > 1:
        g.accs = <double*>malloc(2 * g.threads * g.slots * sizeof(double))
        g.sums = <double*>malloc(2 * g.threads * sizeof(double))
        g.tops = <double*>malloc(2 * g.threads * sizeof(double))
        g.bounds = <int32_t*>malloc(2 * (g.threads + 1) * sizeof(int32_t))
        if (g.accs == NULL or g.sums == NULL or g.tops == NULL
                or g.bounds == NULL):
            raise MemoryError()
    if (g.acc == NULL
            or g.scratch == NULL or g.temp == NULL):
        raise MemoryError()
    for i in range(1, (1 << cards) - 1):
        g.signs[i - 1] = _sign(i)
    g.full = _sign((1 << cards) - 1)
    _pair_twins(g)
    g.done = 0
    with nogil:
        _compatible(&g.side[0], &g.side[1], g.side[1].reach, g.acc,
                    g.slots, g.signs, g.full, g.temp)
    g.total_weight = 0.0    # over the same root reach as the walk (see Game._root)
    for i in range(g.side[0].n):
        g.total_weight += g.side[0].weight[i] * g.temp[i]
    g.total_weight *= g.side[1].top
    if not g.total_weight > 0.0:
        raise SolverError("hands0, hands1: every pair of hands with positive weights "
                          "shares a card; no deal is possible")
    return 0


cdef int _read_tree(Game g, tuple kinds, tuple players, tuple firsts, tuple counts,
                    tuple commits0, tuple commits1, list sizes) except -1:
    cdef int n = g.n_nodes, i, c, k, f
    cdef int64_t entries = 0
    cdef unsigned char* parent = <unsigned char*>calloc(n, 1)
    cdef unsigned char* hidden = <unsigned char*>calloc(n, 1)   # under a mirror
    if parent == NULL or hidden == NULL:
        free(parent)
        free(hidden)
        raise MemoryError()
    try:
        g.depth = 0
        for i in range(n):
            k = _small(kinds[i], "kinds", i, 0, 3)
            c = _small(counts[i], "counts", i, 0, 52 if k == K_CHANCE else C_MAX_ACTIONS)
            f = _small(firsts[i], "firsts", i, 0, n)
            g.kind[i] = k
            g.count[i] = c
            g.first[i] = f
            g.commit0[i] = <double>_chips(commits0[i], f"commits0[{i}]", False)
            g.commit1[i] = <double>_chips(commits1[i], f"commits1[{i}]", False)
            g.player[i] = (_small(players[i], "players", i, 0, 1)
                              if k == K_DECISION or k == K_FOLD else 0)
            if g.deal[i] >= 0 and parent[i] != 2:
                raise SolverError(f"deals[{i}]: only the child of a chance node deals a card")
            if parent[i] == 2 and g.deal[i] < 0:
                raise SolverError(f"deals[{i}]: the child of a chance node deals a card")
            if k == K_DECISION or k == K_CHANCE:
                if c < 1:
                    raise SolverError(f"counts[{i}]: a decision or chance node needs at "
                                      "least one child")
                if f <= i or f + c > n:
                    raise SolverError(f"firsts[{i}]: children {f}..{f + c - 1} must come "
                                      f"after node {i} and inside the tree of {n} nodes")
                for k in range(f, f + c):
                    if parent[k]:
                        raise SolverError(f"firsts[{i}]: node {k} has two parents")
                    parent[k] = 2 if g.kind[i] == K_CHANCE else 1
                    hidden[k] = hidden[i] or g.mirror[k] >= 0
                    g.dealt[k] = g.dealt[i]
                    if g.kind[i] == K_CHANCE:
                        if g.deal[k] >= 0 and g.dealt[k] >> g.deal[k] & 1:
                            raise SolverError(f"deals[{k}]: card {g.deal[k]} is dealt "
                                              "twice on the way to this node")
                        if g.deal[k] >= 0:
                            g.dealt[k] |= (<uint64_t>1) << g.deal[k]
                    g.level[k] = g.level[i] + 1
                    if g.level[k] > g.depth:
                        g.depth = g.level[k]
                if g.kind[i] == K_CHANCE:
                    g.chance = True
                    g.offset[i] = -1
                    continue
                if c > g.actions:
                    g.actions = c
                if hidden[i]:       # played through the mirrored sibling: no rows
                    g.offset[i] = -1
                    continue
                g.offset[i] = entries
                entries += <int64_t>c * sizes[g.player[i]]
            else:
                if c != 0:
                    raise SolverError(f"counts[{i}]: a fold or showdown has no actions")
                g.offset[i] = -1
        for i in range(1, n):
            if not parent[i]:
                raise SolverError(f"firsts: node {i} is not the child of any node")
        g.depth = 0          # scratch rows are per level of an inner node, not a leaf
        for i in range(n):
            if g.kind[i] in (K_DECISION, K_CHANCE) and g.level[i] > g.depth:
                g.depth = g.level[i]
        if g.kind[0] != K_DECISION and n > 1:
            raise SolverError("kinds[0]: the root of a tree of several nodes is a decision")
        g.rows = g.actions + 1
        if g.chance and g.rows < 3:     # a chance node: both reaches and a child's
            g.rows = 3
        g.entries = entries
    finally:
        free(parent)
        free(hidden)
    return 0


cdef int _read_deals(Game g, tuple deals, tuple boards) except -1:
    cdef int i
    g.boards = 1
    for i in range(g.n_nodes):
        g.deal[i] = _small(deals[i], "deals", i, -1, 51)
        g.board[i] = _small(boards[i], "boards", i, 0, 4095)
        if g.board[i] + 1 > g.boards:
            g.boards = g.board[i] + 1
    return 0


cdef int _check_deals(Game g) except -1:
    """Each chance node deals each card with one chance given both hands only if every
    hand that can reach it (holding no card dealt before) holds only cards it may deal:
    then the cards left are its children less both hands' cards."""
    cdef int i, a, p, h
    cdef uint64_t allowed
    for i in range(g.n_nodes):
        if g.kind[i] != K_CHANCE:
            continue
        allowed = 0
        for a in range(g.first[i], g.first[i] + g.count[i]):
            if allowed >> g.deal[a] & 1:
                raise SolverError(f"deals[{a}]: card {g.deal[a]} is dealt by two "
                                  f"children of chance node {i}")
            allowed |= (<uint64_t>1) << g.deal[a]
        if g.count[i] - 2 * g.cards < 1:
            raise SolverError(f"counts[{i}]: a chance node deals one of more cards than "
                              f"the two hands hold ({2 * g.cards})")
        for p in range(2):
            for h in range(g.side[p].n):
                if (g.mask[p][h] & ~allowed and not g.mask[p][h] & g.dealt[i]):
                    raise SolverError(f"deals: hand {h} of hands{p} holds a card chance "
                                      f"node {i} does not deal, so the chance of each "
                                      "card would differ by hand")
    return 0


cdef int64_t _bytes_needed(Game g, int n0, int n1):
    """What the arrays below take: regrets and strategy sums (float32, or 16-bit with a
    scale per node), the scratch rows per level, the subset sums, and per hand its weight,
    root reach, cards, strengths and orders."""
    cdef int64_t widest = max(n0, n1), k = g.cards
    cdef int64_t per_hand = (8 + <int64_t>sizeof(row_t) + 3 * k + 6 * 4 + 8
                             + (((1 << k) - 2) * 4 if k < 4 else 0)
                             + 8                                 # the card bits
                             + (g.boards - 1) * ((6 * 4 + 2 * k) if g.hilo
                                                    else (3 * 4 + k)))   # more rows
    return (2 * g.entries * (2 if g.compact else <int64_t>sizeof(float))
            + 2 * g.n_nodes * <int64_t>sizeof(double)
            + 4 * g.n_nodes * <int64_t>sizeof(int32_t)
            + g.mirrored * (<int64_t>n0 + n1) * <int64_t>sizeof(int32_t)
            + 2 * <int64_t>g.threads * (OFFSET[k] + 1) * <int64_t>sizeof(double)
            + (g.depth + 1) * g.rows * widest * <int64_t>sizeof(row_t)
            + 4 * widest * <int64_t>sizeof(row_t)
            + (OFFSET[k] + 1) * <int64_t>sizeof(double)
            + (<int64_t>n0 + n1) * per_hand)


cdef int _read_side(Game g, int p, bytes hands, object weights, object highs, object lows,
                    int n) except -1:
    cdef Side* s = &g.side[p]
    cdef const uint8_t* raw = <const uint8_t*>PyBytes_AS_STRING(hands)
    cdef uint8_t hand[C_MAX_CARDS]
    cdef int i, a, b, k = g.cards, r, rows = g.boards
    cdef int64_t m = <int64_t>n * rows, x
    cdef int64_t ml = m if g.hilo else n     # lows: one row of zeros without hi/lo
    cdef uint8_t t
    cdef bint positive = False
    s.n = n
    s.k = k
    s.nsub = (1 << k) - 2
    s.weight = <double*>malloc(n * sizeof(double))
    s.reach = <row_t*>malloc(n * sizeof(row_t))
    # hands of four cards find their slots from the cards (see _add)
    s.subset = <int32_t*>malloc((<int64_t>n * s.nsub if k < 4 else 1) * sizeof(int32_t))
    s.cards = <uint8_t*>malloc(<int64_t>n * k)
    # strengths, orders and sorted copies: one row of n per board (see _point)
    s.cards_high = <uint8_t*>malloc(m * k)
    s.cards_low = <uint8_t*>malloc(ml * k)
    s.high_sorted = <int32_t*>malloc(m * sizeof(int32_t))
    s.low_sorted = <int32_t*>malloc(ml * sizeof(int32_t))
    s.high = <int32_t*>malloc(m * sizeof(int32_t))
    s.low = <int32_t*>calloc(ml, sizeof(int32_t))
    s.by_high = <int32_t*>malloc(m * sizeof(int32_t))
    s.by_low = <int32_t*>malloc(ml * sizeof(int32_t))
    s.twin = <int32_t*>malloc(n * sizeof(int32_t))
    s.key = <int64_t*>malloc(n * sizeof(int64_t))
    g.mask[p] = <uint64_t*>malloc(n * sizeof(uint64_t))
    if (s.twin == NULL or s.key == NULL or s.weight == NULL or s.reach == NULL
            or s.subset == NULL
            or s.high == NULL or s.low == NULL or s.by_high == NULL or s.by_low == NULL
            or s.cards == NULL or s.cards_high == NULL or s.cards_low == NULL
            or s.high_sorted == NULL or s.low_sorted == NULL or g.mask[p] == NULL):
        raise MemoryError()
    wname, hname, lname = f"weights{p}", f"highs{p}", f"lows{p}"
    weights = _snapshot(weights, f"weights{p}", n)
    highs = _snapshot(highs, f"highs{p}", m)
    if len(weights) != n or len(highs) != m:
        raise SolverError(f"weights{p}, highs{p}: one weight per hand ({n}) and one "
                          f"strength per hand and board ({n} x {rows}), got "
                          f"{len(weights)} and {len(highs)}")
    if lows is not None:
        lows = _snapshot(lows, f"lows{p}", m)
        if len(lows) != m:
            raise SolverError(f"lows{p}: one entry per hand and board ({n} x {rows}), "
                              f"got {len(lows)}")
    for x in range(m):
        s.high[x] = _small(highs[x], hname, x, 0, 2 ** 31 - 1)
        if lows is not None:
            s.low[x] = _small(lows[x], lname, x, 0, 2 ** 31 - 1)
    for i in range(n):
        for a in range(k):
            hand[a] = raw[i * k + a]
            if hand[a] > 51:
                raise SolverError(f"hands{p}: hand {i} has card index {hand[a]}, not 0..51")
        for a in range(1, k):       # ascending, so each set of cards has one slot
            b = a
            while b > 0 and hand[b - 1] > hand[b]:
                t = hand[b]; hand[b] = hand[b - 1]; hand[b - 1] = t
                b -= 1
        for a in range(1, k):
            if hand[a] == hand[a - 1]:
                raise SolverError(f"hands{p}: hand {i} repeats card index {hand[a]}")
        if k < 4:
            _fill_subsets(hand, k, &s.subset[<int64_t>i * s.nsub])
        s.key[i] = 0
        g.mask[p][i] = 0
        for a in range(k):
            s.key[i] = s.key[i] * 64 + hand[a] + 1
            s.cards[<int64_t>i * k + a] = hand[a]
            g.mask[p][i] |= (<uint64_t>1) << hand[a]
        s.weight[i] = _weight(weights[i], wname, i)
        positive = positive or s.weight[i] > 0.0
    if not positive:
        raise SolverError(f"weights{p}: no hand has a positive weight")
    s.top = 0.0
    for i in range(n):
        s.top = s.weight[i] if s.weight[i] > s.top else s.top
    for i in range(n):      # over the largest: weights up to 1e300 fit a float32 row
        s.reach[i] = <row_t>(s.weight[i] / s.top)
    for r in range(rows):       # each board's orders, built here: none on first use
        x = <int64_t>r * n
        if _sort_by(&s.high[x], n, &s.by_high[x]):
            raise MemoryError()
        for i in range(n):      # the sweeps' copies, in order of strength
            s.high_sorted[x + i] = s.high[x + s.by_high[x + i]]
            for a in range(k):
                s.cards_high[(x + i) * k + a] = s.cards[<int64_t>s.by_high[x + i] * k + a]
        if not g.hilo:       # no low sweeps: the low rows are never read
            continue
        if _sort_by(&s.low[x], n, &s.by_low[x]):
            raise MemoryError()
        for i in range(n):
            s.low_sorted[x + i] = s.low[x + s.by_low[x + i]]
            for a in range(k):
                s.cards_low[(x + i) * k + a] = s.cards[<int64_t>s.by_low[x + i] * k + a]
    return 0


cdef int _pair_twins(Game g) except -1:
    """Each hand's twin: the other side's hand of the same cards (sorted keys, merged)."""
    cdef int32_t* order[2]
    cdef Side* s
    cdef int p, a, b
    cdef KeyIndex64* tmp
    for p in range(2):
        s = &g.side[p]
        order[p] = <int32_t*>malloc(s.n * sizeof(int32_t))
        tmp = <KeyIndex64*>malloc(s.n * sizeof(KeyIndex64))
        if order[p] == NULL or tmp == NULL:
            free(tmp)
            raise MemoryError()
        for a in range(s.n):
            tmp[a].key = s.key[a]
            tmp[a].index = a
            s.twin[a] = -1
        qsort(tmp, s.n, sizeof(KeyIndex64), _compare_key64)
        for a in range(s.n):
            order[p][a] = tmp[a].index
        free(tmp)
    a = b = 0
    while a < g.side[0].n and b < g.side[1].n:
        if g.side[0].key[order[0][a]] < g.side[1].key[order[1][b]]:
            a += 1
        elif g.side[0].key[order[0][a]] > g.side[1].key[order[1][b]]:
            b += 1
        else:
            g.side[0].twin[order[0][a]] = order[1][b]
            g.side[1].twin[order[1][b]] = order[0][a]
            a += 1
            b += 1
    free(order[0])
    free(order[1])
    return 0
