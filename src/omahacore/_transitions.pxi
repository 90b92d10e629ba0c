# The betting rules (B1-B8) as pure transitions over the plain hand state (included by
# engine.pyx). Each takes the hand's fixed Rules and its State, changes nothing but that
# State, touches no Python object and runs without the GIL. An action is applied only after
# it was checked legal (legal_for); the round flow then reports what it reached.
#
# omaha/betting.py states the same rules in Python (BettingRound, for messages and tests);
# tests/test_engine_reference.py plays both against each other on random hands.

from libc.stdint cimport INT64_MAX

from omahacore.evaluator cimport omaha_high, omaha_low


cdef inline chips_t sat_add(chips_t a, chips_t b) noexcept nogil:
    """a + b for b >= 0, stopping at INT64_MAX (= MAX_CHIPS) instead of overflowing."""
    return a + b if a <= INT64_MAX - b else INT64_MAX


cdef inline chips_t reopening(const Rules* r, const State* s) noexcept nogil:
    """The rule of reopening (B6, B7): what a player who already acted must face before
    raising again. No and pot limit: a full raise (short all-ins add up); fixed limit: half a
    unit counts as full."""
    return (s.unit + 1) // 2 if r.limit else s.min_raise


cdef void legal_for(const Rules* r, const State* s, int i, Legal* out) noexcept nogil:
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
        if low > allin:
            low = allin
        high = low
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


cdef void start_round(const Rules* r, State* s, int street) noexcept nogil:
    """A new betting round for ``street``: nobody has bet (B3 cap per round)."""
    s.unit = r.units[street]
    s.cap = -1 if not r.limit or (r.uncapped_heads_up and s.live == 2) else r.max_raises
    s.current_bet = 0
    s.full_level = 0
    s.raises = 0
    s.min_raise = s.unit
    s.aggressor = -1
    s.reopen_at = reopening(r, s)


cdef void post(State* s, int i, chips_t amount, bint live, bint table) noexcept nogil:
    """A forced bet, all-in if short (B8); ``live`` ones count toward calling, ``table`` money
    (the big blind ante) is dead money, not the poster's own stake in side pots."""
    if amount > s.stacks[i]:
        amount = s.stacks[i]
    if amount <= 0:
        return
    s.stacks[i] -= amount
    if table:
        s.dead += amount
    else:
        s.contrib[i] += amount
    s.pot += amount
    if live:
        s.bets[i] += amount
    if s.stacks[i] == 0:
        s.status[i] = ALL_IN
        s.active -= 1


cdef Outcome end_round(const Rules* r, State* s) noexcept nogil:
    """Collect the round and open the next street; run the board out if nobody can bet."""
    cdef int k
    while True:
        for k in range(r.n):
            s.bets[k] = 0
            s.acted[k] = 0
        if s.street == RIVER:
            s.street = SHOWDOWN
            s.to_act = -1
            return TO_SHOWDOWN
        s.street += 1
        start_round(r, s, s.street)
        if s.active >= 2:
            return advance(r, s, r.button)


cdef Outcome advance(const Rules* r, State* s, int after) noexcept nogil:
    """Give the turn to the next player who must act after ``after`` (B1), or close the round."""
    cdef int n = r.n, j, k, alone
    cdef chips_t top
    if s.live == 1:
        s.to_act = -1
        return TO_AWARD
    if s.active <= 1:
        # Alone with chips (B8): act only to match a real bet, never to bet into nobody.
        alone = -1
        if s.active:
            for k in range(n):
                if s.status[k] == ACTIVE:
                    alone = k
                    break
        if alone < 0:
            return end_round(r, s)
        top = 0
        for k in range(n):
            if k != alone and s.bets[k] > top:
                top = s.bets[k]
        if s.bets[alone] >= top:
            return end_round(r, s)
    for k in range(1, n + 1):   # clockwise after `after`
        j = after + k
        if j >= n:
            j -= n
        if s.status[j] == ACTIVE and (s.bets[j] < s.current_bet or not s.acted[j]):
            s.to_act = j
            return TURN
    return end_round(r, s)


cdef Outcome apply_fold(const Rules* r, State* s, int i) noexcept nogil:
    """B2: a fold, allowed on any turn."""
    s.status[i] = FOLDED
    s.live -= 1
    s.active -= 1
    return advance(r, s, i)


cdef Outcome apply_check(const Rules* r, State* s, int i) noexcept nogil:
    """B2: a check (nothing owed; checked by the caller)."""
    s.acted[i] = 1
    return advance(r, s, i)


cdef Outcome apply_call(const Rules* r, State* s, int i) noexcept nogil:
    """A call of what is owed, all-in when the stack is short (B8)."""
    cdef chips_t stack = s.stacks[i], owed = s.current_bet - s.bets[i]
    cdef chips_t amount = owed if owed < stack else stack
    s.stacks[i] = stack - amount
    s.bets[i] += amount
    s.contrib[i] += amount
    s.pot += amount
    s.acted[i] = 1
    if amount == stack:
        s.status[i] = ALL_IN
        s.active -= 1
    return advance(r, s, i)


cdef Outcome apply_raise(const Rules* r, State* s, int i, chips_t to) noexcept nogil:
    """A bet or raise to ``to`` (checked legal): the chips, then the round's sizes (B3-B7)."""
    cdef chips_t stack = s.stacks[i], amount = to - s.bets[i]
    s.stacks[i] = stack - amount
    s.bets[i] = to
    s.contrib[i] += amount
    s.pot += amount
    s.acted[i] = 1
    if amount == stack:
        s.status[i] = ALL_IN
        s.active -= 1
    if r.limit:
        if to - s.full_level >= (s.unit + 1) // 2:   # full, or an all-in of half a unit (B7)
            s.full_level = to
            s.raises += 1
    elif to - s.current_bet >= s.min_raise:         # a full raise sets the next minimum (B4)
        s.min_raise = to - s.current_bet
        s.raises += 1
        s.reopen_at = s.min_raise
    s.current_bet = to
    s.aggressor = i
    return advance(r, s, i)


cdef Outcome apply_protect(const Rules* r, State* s, int i) noexcept nogil:
    """D2: all-in for what is in; the rest of the stack stays behind."""
    s.status[i] = PROTECTED
    s.active -= 1
    return advance(r, s, i)


cdef int show_down(const Rules* r, State* s, const card_t* deck, strength_t* high,
                   strength_t* low, int* order) noexcept nogil:
    """The automatic showdown of an Omaha hand (S1): every live hand's strengths (C3-C5),
    then in S1 order each hand is shown if it is all-in or could still win or tie part of a
    contested pot it is in (judged against the hands shown before it), else mucked.

    ``deck`` is the dealt sequence; ``high``/``low`` get each player's strengths (0 for a
    folded player, low 0 for no low); ``order`` gets the players in S1 order, a mucked one as
    ``-1 - player``. Returns how many. (omaha/showdown.py's ShowdownState states the same rule
    in Python, for the manual showdown.)
    """
    cdef int n = r.n, h = r.hole_cards, base = n * r.hole_cards
    cdef int i, j, k, start, count = 0, levels = 0, show
    cdef card_t hole[6]
    cdef card_t board[5]
    cdef chips_t level[MAX_PLAYERS]
    cdef chips_t c, top, second
    cdef int upto[MAX_PLAYERS]
    cdef strength_t best_high[MAX_PLAYERS]
    cdef strength_t best_low[MAX_PLAYERS]
    board[0], board[1], board[2] = deck[base + 1], deck[base + 2], deck[base + 3]
    board[3], board[4] = deck[base + 5], deck[base + 7]
    for i in range(n):
        high[i] = low[i] = 0
        if s.status[i] == FOLDED:
            continue
        j = i - r.sb
        if j < 0:
            j += n
        for k in range(h):              # hole card k of player i (T6: one at a time)
            hole[k] = deck[k * n + j]
        high[i] = omaha_high(hole, h, board, 5)
        if r.hi_lo:
            low[i] = omaha_low(hole, h, board, 5)
    # Contested levels (P1): the distinct live contributions up to the second largest; a
    # player is in the lowest upto[i] of them.
    top = second = -1
    for i in range(n):
        if s.status[i] != FOLDED:
            c = s.contrib[i]
            if c > top:
                second = top
                top = c
            elif c > second:
                second = c
    for i in range(n):
        if s.status[i] != FOLDED and s.contrib[i] <= second:
            c = s.contrib[i]
            k = levels
            while k > 0 and level[k - 1] > c:   # insertion into the sorted distinct levels
                k -= 1
            if k > 0 and level[k - 1] == c:
                continue
            for j in range(levels, k, -1):
                level[j] = level[j - 1]
            level[k] = c
            levels += 1
    for i in range(n):
        upto[i] = 0
        while upto[i] < levels and level[upto[i]] <= s.contrib[i]:
            upto[i] += 1
    for k in range(levels):
        best_high[k] = best_low[k] = -1
    # S1 order: from the last aggressor still in, else left of the button.
    start = s.aggressor if s.aggressor >= 0 and s.status[s.aggressor] != FOLDED else r.button + 1
    for j in range(n):
        i = (start + j) % n
        if s.status[i] == FOLDED:
            continue
        show = s.status[i] == ALL_IN or s.status[i] == PROTECTED
        if not show:
            for k in range(upto[i]):
                if (best_high[k] < 0 or high[i] >= best_high[k]
                        or (low[i] and low[i] >= best_low[k])):
                    show = True
                    break
        if show:
            for k in range(upto[i]):
                if high[i] > best_high[k]:
                    best_high[k] = high[i]
                if low[i] > best_low[k]:
                    best_low[k] = low[i]
            order[count] = i
        else:
            s.status[i] = MUCKED
            order[count] = -1 - i
        count += 1
    return count
