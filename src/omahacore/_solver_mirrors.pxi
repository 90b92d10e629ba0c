# Included by solver.pyx: suit isomorphism at chance nodes. Where a suit permutation sigma
# maps the board and both ranges to themselves, the child dealing sigma(c) is the child
# dealing c with every card's suit permuted: ``mirrors[k]`` names, for such a child k, the
# sibling m it mirrors (-1 elsewhere), and ``sigmas[k]`` its row of ``perms0``/``perms1``
# (one row per permutation, shared by the children it maps alike): per hand i, the hand
# sigma^-1(i) that i plays as below m. Nothing under k is
# walked or stored: its values are m's, read through the permutation. This is exact while
# both players' reaches into the chance node are sigma-symmetric, which DCFR keeps from the
# uniform start when the game is (the caller checks the board and the ranges; the core checks
# the permutations, the weights, the cards dealt and the two subtrees' shapes).


cdef int _read_mirrors(Game g, tuple mirrors, tuple sigmas) except -1:
    """The mirror of each node and its row of permutations (-1: none), read before the tree
    (the rows under a mirror are skipped)."""
    cdef int i, n = g.n_nodes
    g.mirrored = 0          # rows of permutations
    for i in range(n):
        g.mirror[i] = _small(mirrors[i], "mirrors", i, -1, n - 1)
        g.mirror_row[i] = _small(sigmas[i], "sigmas", i, -1, n - 1)
        if (g.mirror[i] >= 0) != (g.mirror_row[i] >= 0):
            raise SolverError(f"sigmas[{i}]: a node has a row of permutations exactly when "
                              "it mirrors another")
        if g.mirror_row[i] + 1 > g.mirrored:
            g.mirrored = g.mirror_row[i] + 1
    return 0


cdef int _check_mirrors(Game g) except -1:
    """Each mirrored node is a chance node's child whose mirror is an unmirrored sibling with
    a subtree of the same shape (kinds, players, actions and chips node for node)."""
    cdef int i, a, m, x, y, c, top
    cdef int32_t* stack
    cdef unsigned char* ok = <unsigned char*>calloc(g.n_nodes, 1)   # children of a chance
    if ok == NULL:
        raise MemoryError()
    try:
        for i in range(g.n_nodes):
            if g.kind[i] == K_CHANCE:
                for a in range(g.first[i], g.first[i] + g.count[i]):
                    m = g.mirror[a]
                    if m < 0:
                        continue
                    if not g.first[i] <= m < g.first[i] + g.count[i] or g.mirror[m] >= 0:
                        raise SolverError(f"mirrors[{a}]: node {m} is not an unmirrored "
                                          f"sibling under chance node {i}")
                    ok[a] = 1
        for i in range(g.n_nodes):
            if g.mirror[i] >= 0 and not ok[i]:
                raise SolverError(f"mirrors[{i}]: only the child of a chance node mirrors")
    finally:
        free(ok)
    stack = <int32_t*>malloc(2 * (<int64_t>g.n_nodes + 1) * sizeof(int32_t))
    if stack == NULL:
        raise MemoryError()
    try:
        for i in range(g.n_nodes):
            if g.mirror[i] < 0:
                continue
            stack[0] = i
            stack[1] = g.mirror[i]
            top = 1
            while top:
                top -= 1
                x = stack[2 * top]
                y = stack[2 * top + 1]
                if (g.kind[x] != g.kind[y] or g.count[x] != g.count[y]
                        or g.player[x] != g.player[y] or g.commit0[x] != g.commit0[y]
                        or g.commit1[x] != g.commit1[y]
                        or (x != i and g.deal[x] != g.deal[y])):
                    raise SolverError(f"mirrors[{i}]: node {x} differs from node {y} of the "
                                      f"subtree of node {g.mirror[i]}")
                for c in range(g.count[x]):
                    stack[2 * top] = g.first[x] + c
                    stack[2 * top + 1] = g.first[y] + c
                    top += 1
    finally:
        free(stack)
    return 0


cdef int _read_perms(Game g, int p, object perms) except -1:
    """Player ``p``'s permutations (one row of hands each): each row a permutation of the
    hands that keeps the weights, and for each child reading it, a hand holding the child's
    card exactly where its image holds the mirror's."""
    cdef int n = g.side[p].n, i, k, j
    cdef int64_t row
    cdef uint64_t bit, mbit
    cdef int32_t* out
    cdef unsigned char* seen
    cdef str name = f"perms{p}"
    if g.mirrored == 0:
        if perms is not None and len(_snapshot(perms, name, 0)):
            raise SolverError(f"{name}: permutations given but no node mirrors another")
        return 0
    if perms is None:
        raise SolverError(f"{name}: {g.mirrored} mirrored children need their permutations")
    perms = _snapshot(perms, name, <Py_ssize_t>g.mirrored * n)
    if len(perms) != <Py_ssize_t>g.mirrored * n:
        raise SolverError(f"{name}: {len(perms):,} entries for {g.mirrored} permutations "
                          f"x {n} hands")
    out = <int32_t*>malloc(<int64_t>g.mirrored * n * sizeof(int32_t))
    seen = <unsigned char*>malloc(n)
    if out == NULL or seen == NULL:
        free(out)
        free(seen)
        raise MemoryError()
    g.perm[p] = out
    try:
        for k in range(g.mirrored):
            row = <int64_t>k * n
            memset(seen, 0, n)
            for i in range(n):
                j = _small(perms[row + i], name, <int>(row + i), 0, n - 1)
                if seen[j]:
                    raise SolverError(f"{name}[{row + i}]: hand {j} comes twice in "
                                      f"permutation {k}")
                seen[j] = 1
                if g.side[p].weight[i] != g.side[p].weight[j]:
                    raise SolverError(f"{name}[{row + i}]: hands {i} and {j} have different "
                                      "weights, so the range is not symmetric")
                out[row + i] = j
        for k in range(g.n_nodes):
            if g.mirror[k] < 0:
                continue
            row = <int64_t>g.mirror_row[k] * n
            bit = (<uint64_t>1) << g.deal[k]
            mbit = (<uint64_t>1) << g.deal[g.mirror[k]]
            for i in range(n):
                j = out[row + i]
                if ((g.mask[p][i] & bit) != 0) != ((g.mask[p][j] & mbit) != 0):
                    raise SolverError(f"{name}[{row + i}]: hand {i} and hand {j} differ in "
                                      f"holding the card node {k} or its mirror deals")
    finally:
        free(seen)
    return 0


cdef void _add_mirrors(Game g, int node, int ch, int p, double share, const row_t* child,
                       row_t* out) noexcept nogil:
    """Add to ``out`` the values of ``node``'s children that mirror child ``ch``: ``ch``'s
    values (``child``) read through each one's permutation."""
    cdef int b, i, n = g.side[p].n
    cdef uint64_t bit
    cdef const uint64_t* mask = g.mask[p]
    cdef const int32_t* perm
    for b in range(g.first[node], g.first[node] + g.count[node]):
        if g.mirror[b] != ch:
            continue
        bit = (<uint64_t>1) << g.deal[b]
        perm = &g.perm[p][<int64_t>g.mirror_row[b] * n]
        for i in range(n):
            if not mask[i] & bit:
                out[i] += share * child[perm[i]]
