# cython: freethreading_compatible=True
"""The betting rules (B1-B8) and the round flow as pure transitions over the plain hand state
(issue 20: the one statement of them, cimported by the engine and the batched vector kernel).

Each function takes the hand's fixed ``Rules`` and its ``State`` (``transitions.pxd``),
changes nothing but that State, touches no Python object and runs without the GIL. An action
is applied only after its check said OK; a check that refuses returns a :class:`Reason` and
fills a ``Refusal`` with the numbers :mod:`omahacore.refusals` words it with.

From Python this module gives the reason codes (:class:`Reason`) and the dealt sequence's
street offsets (:data:`STREET_CARDS`, T6).

>>> Reason.BELOW_MINIMUM > Reason.OK, STREET_CARDS[0]
(True, (0, 1, 4))
"""

from libc.stdint cimport uint32_t

from omahacore.evaluator cimport any_low, best_high, best_razz, omaha_high, omaha_low

cdef extern from "_bits.h":
    int omaha_highest_bit32(uint32_t x) nogil


# Per street after preflop: (burn, first board card, end of board cards) as offsets from the
# end of the hole cards in the dealt sequence (T6). The C arrays below, indexed by street
# (1 flop .. 3 river), are read from it at import.
STREET_CARDS = ((BURN_FLOP, FLOP_AT, FLOP_AT + 3), (BURN_TURN, TURN_AT, TURN_AT + 1),
                (BURN_RIVER, RIVER_AT, RIVER_AT + 1))
cdef int BURN_AT[4]
cdef int BOARD_FROM[4]
cdef int BOARD_TO[4]
BURN_AT[0] = BOARD_FROM[0] = BOARD_TO[0] = 0
for _street, (_burn, _first, _end) in enumerate(STREET_CARDS, 1):
    BURN_AT[_street], BOARD_FROM[_street], BOARD_TO[_street] = _burn, _first, _end


# Lemire's rejection threshold for a draw below m from one byte: 256 mod m (built at import).
cdef int SHUFFLE_THRESHOLD[53]
SHUFFLE_THRESHOLD[0] = 0
for _m in range(1, 53):
    SHUFFLE_THRESHOLD[_m] = 256 % _m


cdef bint shuffle_deck(const unsigned char* entropy, Py_ssize_t size, Py_ssize_t* used,
                       card_t* out, int count) noexcept nogil:
    """Fisher-Yates from ``entropy[used[0]:size]``: each swap position below ``m`` is
    ``byte * m >> 8``, the byte redrawn when the low part of the product falls below
    ``256 mod m`` (Lemire's method: no division, every position equally likely, C2). Writes
    the top ``count`` cards to ``out``."""
    cdef card_t deck[52]
    cdef card_t card
    cdef int i, j, m, threshold, product
    for i in range(52):
        deck[i] = i
    for i in range(count):
        m = 52 - i
        threshold = SHUFFLE_THRESHOLD[m]
        while True:
            if used[0] >= size:
                return False
            product = entropy[used[0]] * m
            used[0] += 1
            if (product & 255) >= threshold:
                break
        j = i + (product >> 8)
        card = deck[i]
        deck[i] = deck[j]
        deck[j] = card
    for i in range(count):
        out[i] = deck[i]
    return True


cdef void seat_blinds(Rules* r, int button, bint single_blind) noexcept nogil:
    """The small blind sits left of the button, heads-up on it (T3, T4); the big blind left
    of the small blind. A single blind (no small blind) is posted where the small blind
    would sit, and is the big blind."""
    r.button = button
    r.sb = button if r.n == 2 else (button + 1) % r.n
    r.bb = r.sb if single_blind else (r.sb + 1) % r.n


cdef tuple _odd_chip_orders(int players):
    cdef Rules r
    cdef int64_t order[MAX_PLAYERS]
    cdef int button, k
    rows = []
    r.n = players
    for button in range(players):
        r.button = button
        odd_chip_order(&r, order)
        rows.append(tuple([order[k] for k in range(players)]))
    return tuple(rows)


# ODD_CHIP_ORDERS[n][button]: the award order of n players with the button at `button` (S2,
# S3), for the award in Python (omaha.game.award); built at import from odd_chip_order.
ODD_CHIP_ORDERS = tuple([_odd_chip_orders(n) if n >= 2 else () for n in range(MAX_PLAYERS + 1)])


def blind_positions(int players, int button, bint single_blind=False):
    """``(small blind, big blind)`` player indices for a button at player ``button`` (T3, T4).

    >>> blind_positions(6, 5), blind_positions(2, 1), blind_positions(3, 0, True)
    ((0, 1), (1, 0), (1, 1))
    """
    cdef Rules r
    if not 2 <= players <= MAX_PLAYERS or not 0 <= button < players:
        raise ValueError(f"a button among 2 to {MAX_PLAYERS} players, got {button} of {players}")
    r.n = players
    seat_blinds(&r, button, single_blind)
    return r.sb, r.bb


cdef int board_range(int street, int* burn, int* first, int* end) noexcept nogil:
    """Street ``street``'s burn and board cards as offsets after the hole cards (T6)."""
    burn[0], first[0], end[0] = BURN_AT[street], BOARD_FROM[street], BOARD_TO[street]
    return 0


# --- checks: OK, or why not (the wording is omahacore.refusals') -------------------------

cdef Reason turn_reason(const State* s, int i) noexcept nogil:
    """B1: whether player ``i`` may make a betting action now (-1: whoever is to act; any
    other number that is not the player to act, one not dealt in included, is refused)."""
    if s.to_act < 0:
        return HAND_OVER
    if s.street == SHOWDOWN:
        return AT_SHOWDOWN
    if i != -1 and i != s.to_act:
        return NOT_YOUR_TURN
    return OK


cdef inline void facts(const State* s, int i, Reason reason, Refusal* out) noexcept nogil:
    cdef chips_t owed = s.current_bet - s.bets[i]
    out.reason = reason
    out.player = i
    out.stack = s.stacks[i]
    out.owed = (owed if owed < s.stacks[i] else s.stacks[i]) if owed > 0 else 0
    out.low = out.high = 0
    out.cap = s.cap


cdef Reason check_reason(const State* s, int i, Refusal* out) noexcept nogil:
    """B2: a check only when nothing is owed."""
    facts(s, i, CHECK_OWES if s.current_bet > s.bets[i] else OK, out)
    return out.reason


cdef Reason call_reason(const State* s, int i, Refusal* out) noexcept nogil:
    """B2: a call only when something is owed (else it is a check)."""
    facts(s, i, CALL_OWES_NOTHING if s.current_bet <= s.bets[i] else OK, out)
    return out.reason


cdef Reason raise_reason(const Rules* r, const State* s, int i, chips_t to,
                         Refusal* out) noexcept nogil:
    """B3-B8: whether player ``i`` may bet or raise to a total of ``to``, and if not, the
    rule it breaks (the first that applies, in the order legal_for checks them)."""
    cdef Legal legal
    cdef chips_t allin = s.bets[i] + s.stacks[i]
    legal_for(r, s, i, &legal)
    facts(s, i, OK, out)
    if not legal.can_raise:
        if allin <= s.current_bet:
            out.reason = TOO_SHORT_TO_RAISE
        elif s.active <= 1:
            out.reason = NOBODY_TO_CALL
        elif s.acted[i] and s.current_bet - s.bets[i] < s.reopen_at:
            out.reason = NOT_REOPENED
        else:
            out.reason = CAPPED
        return out.reason
    out.low, out.high = legal.low, legal.high
    if r.limit and legal.low != legal.high:   # E5: the small or the big bet, nothing between
        if to != legal.low and to != legal.high:
            out.reason = OPEN_PAIR_SIZES
        return out.reason
    if legal.low <= to <= legal.high:
        return OK
    if legal.low == legal.high and r.limit:
        out.reason = LIMIT_EXACT
    elif to < legal.low:
        out.reason = ALL_IN_ONLY if legal.low == allin else BELOW_MINIMUM
    elif legal.high < allin and r.pot_limit:
        out.reason = ABOVE_POT
    else:
        out.reason = ABOVE_STACK
    return out.reason


cdef Reason protect_reason(const State* s, int i, Refusal* out) noexcept nogil:
    """D2: a protected all-in only when a check is not free and chips are already in."""
    facts(s, i, OK, out)
    if s.bets[i] >= s.current_bet:
        out.reason = PROTECT_CAN_CHECK
    elif s.contrib[i] == 0:
        out.reason = PROTECT_NO_CHIPS
    return out.reason


cdef Reason fold_reason(const State* s, int i, Refusal* out) noexcept nogil:
    """B2, E3: a fold on any turn, except the bring-in's, who posts it or completes."""
    facts(s, i, BRING_IN_DUE if i == s.bring_in_seat else OK, out)
    return out.reason


cdef void start_round(const Rules* r, State* s, int street) noexcept nogil:
    """A new betting round for ``street``: nobody has bet (B3 cap per round)."""
    s.unit = r.units[street]
    s.big_option = 0
    s.bring_in_seat = -1
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



cdef inline int post_one(State* s, int i, int kind, chips_t amount, bint live, bint table,
                         Posted* out, int count) noexcept nogil:
    cdef chips_t before = s.stacks[i]
    post(s, i, amount, live, table)
    if s.stacks[i] != before:
        out[count].player, out[count].kind, out[count].amount = i, kind, before - s.stacks[i]
        count += 1
    return count


cdef int post_forced(const Rules* r, State* s, chips_t ante, chips_t small, chips_t big,
                     chips_t big_blind_ante, const int* live, int live_count,
                     Posted* out) noexcept nogil:
    """The forced bets (T3-T5, B8): antes from the small blind round, the small and big
    blinds, the big blind's ante (dead money) and the extra live big blinds. Writes what each
    put in (all-in when short) to ``out`` (room for 2n + 2) and returns how many posted."""
    cdef int n = r.n, k, count = 0
    if ante:
        for k in range(n):
            count = post_one(s, (r.sb + k) % n, POST_ANTE, ante, False, False, out, count)
    count = post_one(s, r.sb, POST_SMALL_BLIND, small, True, False, out, count)
    count = post_one(s, r.bb, POST_BIG_BLIND, big, True, False, out, count)
    if big_blind_ante:
        count = post_one(s, r.bb, POST_BIG_BLIND_ANTE, big_blind_ante, False, True, out, count)
    for k in range(live_count):
        count = post_one(s, live[k], POST_LIVE_BLIND, big, True, False, out, count)
    return count


cdef Outcome open_preflop(const Rules* r, State* s, chips_t big) noexcept nogil:
    """The preflop round once the blinds are in: the big blind is the bet to call (and, in
    fixed limit, the first bet toward the cap, B3); the turn passes from the big blind."""
    start_round(r, s, PREFLOP)
    s.current_bet = s.full_level = big
    s.raises = 1 if r.limit else 0
    return advance(r, s, r.bb)


cdef Outcome end_round(const Rules* r, State* s) noexcept nogil:
    """Collect the round and open the next street; run the board out if nobody can bet."""
    cdef int k
    while True:
        for k in range(r.n):
            s.bets[k] = 0
            s.acted[k] = 0
        if s.street == (r.last_street if r.stud else RIVER):
            s.street = SHOWDOWN
            s.to_act = -1
            return TO_SHOWDOWN
        s.street += 1
        start_round(r, s, s.street)
        if r.stud:
            stud_deal(r, s)
            if r.stud == STUD_HIGH and s.street == 1 and open_pair(r, s):
                s.big_option = r.units[2]      # E5: the big bet may be made on fourth street
            if s.active >= 2:
                return advance(r, s, (stud_opener(r, s) + r.n - 1) % r.n)
        elif s.active >= 2:
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


cdef inline void put_in(State* s, int i, chips_t amount) noexcept nogil:
    """Player ``i`` acts by putting ``amount`` more in front (at most the stack): all-in
    when that is the whole stack (B8)."""
    s.stacks[i] -= amount
    s.bets[i] += amount
    s.contrib[i] += amount
    s.pot += amount
    s.acted[i] = 1
    if s.stacks[i] == 0:
        s.status[i] = ALL_IN
        s.active -= 1


cdef Outcome apply_call(const Rules* r, State* s, int i) noexcept nogil:
    """A call of what is owed, all-in when the stack is short (B8); the bring-in seat's call
    posts the bring-in (E3)."""
    cdef chips_t stack = s.stacks[i], owed = s.current_bet - s.bets[i]
    s.bring_in_seat = -1
    put_in(s, i, owed if owed < stack else stack)
    return advance(r, s, i)


cdef Outcome apply_raise(const Rules* r, State* s, int i, chips_t to) noexcept nogil:
    """A bet or raise to ``to`` (checked legal): the chips, then the round's sizes (B3-B7).

    Stud adds two rules: the completion of a bring-in is the street's first bet, so everyone
    may raise after it (E3); and a big bet made on an open pair makes the rest of the
    street's raises big bets (E5)."""
    cdef int k
    s.bring_in_seat = -1
    if r.stud and s.full_level == 0 and s.current_bet > 0:
        for k in range(r.n):             # E3: completing the bring-in opens the betting
            s.acted[k] = 0
    if s.big_option and to - s.full_level == s.big_option:
        s.unit = s.big_option            # E5: the big bet is made
        s.big_option = 0
        s.reopen_at = reopening(r, s)
    put_in(s, i, to - s.bets[i])
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


cdef void strengths(const Rules* r, const State* s, const card_t* deck, strength_t* high,
                    strength_t* low) noexcept nogil:
    """Every live hand's high and low strengths (0 for a folded player, low 0 for no low or
    a high-only game): Omaha plays exactly two hole cards and three of the board (C3-C5),
    Hold'em the best five of all seven (C6)."""
    cdef card_t cards[11]
    cdef int i, k, h = r.hole_cards
    for i in range(r.n):
        high[i] = low[i] = 0
        if s.status[i] == FOLDED:
            continue
        if r.stud:
            h = stud_hand(s, i, cards)
            if r.stud == STUD_RAZZ:
                high[i] = best_razz(cards, h)       # E6: the razz low is the hand's only value
            else:
                high[i] = best_high(cards, h)
                if r.stud == STUD_HILO:
                    low[i] = any_low(cards, h)
            continue
        for k in range(h):
            cards[k] = hole_card(r, deck, i, k)
        board_cards(r, deck, &cards[h])
        if r.omaha_rule:
            high[i] = omaha_high(cards, h, &cards[h], 5)
            if r.hi_lo:
                low[i] = omaha_low(cards, h, &cards[h], 5)
        else:
            high[i] = best_high(cards, h + 5)
            if r.hi_lo:
                low[i] = any_low(cards, h + 5)


cdef int stud_hand(const State* s, int i, card_t* out) noexcept nogil:
    """Player ``i``'s stud cards, with the shared last card when the deck ran short (E2)."""
    cdef int k, m = s.stud.ncards[i]
    for k in range(m):
        out[k] = s.stud.cards[i * STUD_CARDS + k]
    if s.stud.community != NO_CARD:
        out[m] = s.stud.community
        m += 1
    return m


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
    cdef int n = r.n
    cdef int i, j, k, start, count = 0, levels = 0, show
    cdef chips_t level[MAX_PLAYERS]
    cdef chips_t c, top, second
    cdef int upto[MAX_PLAYERS]
    cdef strength_t best_high[MAX_PLAYERS]
    cdef strength_t best_low[MAX_PLAYERS]
    strengths(r, s, deck, high, low)
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


# --- stud (E1-E5): the rules stud adds beside the betting rules ----------------------------

cdef bint stud_up(const Rules* r, int k) noexcept nogil:
    """E2: whether a player's card ``k`` (in the order dealt) is face up: seven-card games
    deal down, down, up, up, up, up, down; five-card stud down, then up."""
    if r.stud == STUD_FIVE:
        return k >= 1
    return 2 <= k <= 5


cdef inline void give(const Rules* r, State* s, int i) noexcept nogil:
    s.stud.cards[i * STUD_CARDS + s.stud.ncards[i]] = r.deck[s.stud.dealt]
    s.stud.ncards[i] += 1
    s.stud.dealt += 1


cdef void stud_deal(const Rules* r, State* s) noexcept nogil:
    """E2: deal ``s.street``'s cards to every player still in, one at a time clockwise from
    the dealer's left: two down and one up on third street (five-card stud: one of each),
    after a burn one card on each later street; when the deck cannot give every player still
    in a card after the burn, one card face up in the centre is everyone's (burned first
    when a card is left for it)."""
    cdef int n = r.n, k, j, rounds, need = 0
    if s.street == 0:
        rounds = 2 if r.stud == STUD_FIVE else 3
        for k in range(rounds):
            for j in range(1, n + 1):
                if s.status[(r.button + j) % n] != FOLDED:
                    give(r, s, (r.button + j) % n)
        return
    for j in range(n):
        if s.status[j] != FOLDED:
            need += 1
    if 52 - s.stud.dealt >= need + 1:
        s.stud.dealt += 1                        # the burn
        for j in range(1, n + 1):
            if s.status[(r.button + j) % n] != FOLDED:
                give(r, s, (r.button + j) % n)
    else:
        if 52 - s.stud.dealt >= 2:
            s.stud.dealt += 1
        s.stud.community = r.deck[s.stud.dealt]
        s.stud.dealt += 1


cdef int stud_bring_in_seat(const Rules* r, const State* s) noexcept nogil:
    """E3: the lowest up card brings in, clubs < diamonds < hearts < spades between equal
    ranks (a card's index orders it so); razz: the highest, ace low, the higher suit."""
    cdef int i, best = -1, key, best_key = -1000, slot = 1 if r.stud == STUD_FIVE else 2
    cdef card_t card
    for i in range(r.n):
        if s.status[i] == FOLDED:
            continue
        card = s.stud.cards[i * STUD_CARDS + slot]
        key = (((card >> 2) + 1) % 13) * 4 + (card & 3) if r.stud == STUD_RAZZ else -card
        if key > best_key:
            best, best_key = i, key
    return best


cdef int64_t stud_showing(const Rules* r, const State* s, int i) noexcept nogil:
    """E4: how good player ``i``'s up cards look, larger first to act: quads, trips, two
    pair, a pair, then the values, highest first (straights and flushes do not count).
    Razz reads them as lows (ace low, the lowest showing first): the key is negated.

    Each distinct value showing is a group (count, value), ordered by count then value, both
    descending: the counts fill the key's top nibbles, the values the low ones. (At most four
    up cards, asked for every player still in on every street: the values seen once, twice,
    three and four times are bit sets, read off highest bit first.)"""
    cdef uint32_t once = 0, twice = 0, thrice = 0, four = 0, bit, group
    cdef int k, v, count, slot = 0
    cdef int64_t key = 0
    cdef bint razz = r.stud == STUD_RAZZ
    for k in range(s.stud.ncards[i]):
        if not stud_up(r, k):
            continue
        v = s.stud.cards[i * STUD_CARDS + k] >> 2
        if razz:
            v = 0 if v == 12 else v + 1     # ace low
        bit = (<uint32_t>1) << v
        four |= thrice & bit
        thrice |= twice & bit
        twice |= once & bit
        once |= bit
    for count in range(4, 0, -1):
        if count == 4:
            group = four
        elif count == 3:
            group = thrice & ~four
        elif count == 2:
            group = twice & ~thrice
        else:
            group = once & ~twice
        while group:
            v = omaha_highest_bit32(group)
            group &= ~((<uint32_t>1) << v)
            key |= (<int64_t>count << (28 - 4 * slot)) | (<int64_t>v << (12 - 4 * slot))
            slot += 1
    return -key if razz else key


cdef int stud_opener(const Rules* r, const State* s) noexcept nogil:
    """E4: the player still in with the best hand showing (razz: the lowest); between equal
    ones the first clockwise from the dealer's left."""
    cdef int j, i, best = -1
    cdef int64_t key, best_key = 0
    for j in range(1, r.n + 1):
        i = (r.button + j) % r.n
        if s.status[i] == FOLDED:
            continue
        key = stud_showing(r, s, i)
        if best < 0 or key > best_key:
            best, best_key = i, key
    return best


cdef bint open_pair(const Rules* r, const State* s) noexcept nogil:
    """E5: whether a player still in shows a pair on fourth street."""
    cdef int i
    for i in range(r.n):
        if s.status[i] != FOLDED and s.stud.ncards[i] >= 4 and (
                s.stud.cards[i * STUD_CARDS + 2] >> 2) == (s.stud.cards[i * STUD_CARDS + 3] >> 2):
            return True
    return False


cdef Outcome open_stud(const Rules* r, State* s) noexcept nogil:
    """Third street once the antes are in (E2, E3): the deal, then the bring-in's turn with
    the bring-in as the amount to call (not a bet: the completion to the small bet is the
    first bet toward the cap), or, with no bring-in, the lowest card opens the betting."""
    cdef int b, k
    start_round(r, s, 0)
    s.stud.dealt = 0
    s.stud.community = NO_CARD
    for k in range(r.n):
        s.stud.ncards[k] = 0
    stud_deal(r, s)
    b = stud_bring_in_seat(r, s)
    if r.bring_in > 0:
        s.current_bet = r.bring_in
        if r.bring_in >= s.unit:             # a bring-in of a full small bet is the bet
            s.full_level = r.bring_in
            s.raises = 1
        s.bring_in_seat = b
    return advance(r, s, (b + r.n - 1) % r.n)
