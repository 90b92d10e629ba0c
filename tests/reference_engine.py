"""A slow, plain, pure-Python hand engine: the frozen reference for :class:`omaha.game.hand.Hand`.

Written for clarity, not speed, from the behaviour of the pure-Python ``Hand`` before its
betting core was compiled (issue 12). It keeps its state per player in plain lists indexed
0..n-1 in seat order, its log as a list of real :mod:`omaha.game.events` objects, and it has no
undo records, no copy and no caches. Every public action runs as a transaction: the state
is saved first and put back if anything raises (an illegal action, a rake rule that fails,
K1), which is the simplest way to be sure an error leaves the hand as it was.

It reuses only the stable lower layers: config, cards, events, dealing, deck, showdown,
betting (``BettingRound`` and ``LegalActions``: the round's rules stay Python), clock and the
compiled pot splitter. It never imports ``omaha.game.hand`` or ``omaha.game.award``.
Rules: T3-T6 (posting, dealing), B1-B8 (betting), D2 (timeouts), S1 and S4 (showdown), K1.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from omaha import LegalActions, Reason
from omaha.cards import DECK, Card, CardsLike
from omaha.config import FIXED_LIMIT, GameConfig
from omaha.errors import IllegalActionError, TableError
from omaha.game.clock import TimeoutAction, TimeoutPolicy
from omaha.game.dealing import STREET_CARDS, check_options, check_setup, dealt_sequence, live_seats
from omaha.game.events import (
    BetOrRaised,
    BoardDealt,
    Called,
    CardBurned,
    Checked,
    Event,
    Folded,
    HandEnded,
    HandStarted,
    HoleDealt,
    Mucked,
    Posted,
    ProtectedAllIn,
    Returned,
    Shown,
    TimedOut,
)
from omaha.game.showdown import (
    HandResult,
    ShowdownState,
    pot_awarded,
    showdown_order,
    strengths,
    uncalled,
)
from omaha.game.status import Street
from omaha.limits import as_int
from omahacore.pots import build_pots, settle
from reference_betting import BettingRound

PREFLOP, FLOP, TURN, RIVER, SHOWDOWN = 0, 1, 2, 3, 4
ACTIVE, FOLDED, ALL_IN, PROTECTED, MUCKED = "active", "folded", "all_in", "protected", "mucked"

# The fields that change during a hand: saved before each action, put back on any error.
_MUTABLE = ("chips", "round_bets", "contrib", "dead", "status", "acted", "board_ints",
            "street_no", "turn", "pot", "round", "events_list", "order", "shown", "showdown_state",
            "high", "low", "settlement", "over")


class ReferenceHand:
    """One hand, driven like :class:`omaha.game.hand.Hand` (same arguments, same public surface)."""

    def __init__(self, config: GameConfig, *, stacks: Mapping[int, int], button: int,
                 rng: random.Random | None = None, rake: Any = None,
                 manual_showdown: bool = False, live_blinds: Iterable[int] = (),
                 hole_cards: Mapping[int, CardsLike] | None = None,
                 board: CardsLike | None = None, deck: Iterable[int] | None = None) -> None:
        self.seats, start_stacks, button = check_setup(config, stacks, button)
        check_options(rng, rake, manual_showdown)
        n = len(self.seats)
        self.config = config
        self.n = n
        self.button_index = self.seats.index(button)
        # T3, T4: the small blind is left of the button, or the button itself heads-up.
        self.sb = self.button_index if n == 2 else (self.button_index + 1) % n
        # T3: a single blind (small_blind=0) is the big blind, posted where the small would be.
        self.bb = (self.sb + 1) % n if config.small_blind else self.sb
        live = live_seats(live_blinds)
        for seat in live:
            if seat not in self.seats or self.seats.index(seat) in (self.sb, self.bb):
                raise TableError("T5", f"seat {seat} cannot post a live big blind this hand")
        self.deck = list(dealt_sequence(config, self.seats, self.sb, rng, hole_cards, board,
                                        deck))
        self.rake_rule = rake
        self.manual = manual_showdown
        self.start_stacks = list(start_stacks)
        self.chips = list(self.start_stacks)
        self.round_bets = [0] * n
        self.contrib = [0] * n        # chips each player put in (the big blind ante excluded)
        self.dead = 0                 # the big blind ante: table money for the main pot
        self.status = [ACTIVE] * n
        self.acted = [False] * n
        self.board_ints: list[int] = []
        self.street_no = PREFLOP
        self.turn = -1
        self.pot = 0
        self.order: list[int] = []
        self.shown: list[bool] = []
        self.showdown_state: ShowdownState | None = None
        self.high: list[int] | None = None
        self.low: list[int] | None = None
        self.settlement: Any = None
        self.over = False
        self.events_list: list[Event] = [HandStarted(
            config, self.seats, tuple(self.start_stacks), button, self.seats[self.sb],
            self.seats[self.bb], live)]
        self.post_forced_bets(live)
        self.deal_hole_cards()
        self.round = BettingRound(config.structure, config.bet_unit(PREFLOP), self.cap(),
                                  current_bet=config.big_blind,
                                  raises=1 if config.structure is FIXED_LIMIT else 0)
        self.pass_turn(after=self.bb)

    # --- counting -------------------------------------------------------------------

    def live_count(self) -> int:
        """Players who have not folded (mucked hands are still live for the pots)."""
        return sum(1 for s in self.status if s != FOLDED)

    def active_count(self) -> int:
        """Players who can still act: not folded, all-in, protected or mucked."""
        return sum(1 for s in self.status if s == ACTIVE)

    def cap(self) -> int | None:
        """B3: the fixed-limit cap for a round starting now (lifted heads-up if so configured)."""
        if self.config.uncapped_heads_up and self.live_count() == 2:
            return None
        return self.config.max_raises

    def clockwise_after(self, i: int) -> list[int]:
        """Every player index once, starting left of ``i`` and ending with ``i``."""
        return [(i + k) % self.n for k in range(1, self.n + 1)]

    # --- posting and dealing (T3-T6, B8) --------------------------------------------

    def post(self, i: int, what: str, amount: int, *, live: bool, table: bool = False) -> None:
        amount = min(amount, self.chips[i])
        if amount <= 0:
            return
        self.chips[i] -= amount
        if table:
            self.dead += amount
        else:
            self.contrib[i] += amount
        self.pot += amount
        if live:
            self.round_bets[i] += amount
        if self.chips[i] == 0:
            self.status[i] = ALL_IN
        self.events_list.append(Posted(self.seats[i], what, amount))

    def post_forced_bets(self, live_blinds: tuple[int, ...]) -> None:
        config = self.config
        if config.ante:
            for k in range(self.n):
                self.post((self.sb + k) % self.n, "ante", config.ante, live=False)
        self.post(self.sb, "small_blind", config.small_blind, live=True)
        self.post(self.bb, "big_blind", config.big_blind, live=True)
        if config.big_blind_ante:
            self.post(self.bb, "big_blind_ante", config.big_blind_ante, live=False, table=True)
        for seat in live_blinds:
            self.post(self.seats.index(seat), "live_blind", config.big_blind, live=True)

    def hole_cards_of(self, i: int) -> tuple[int, ...]:
        """T6: one card at a time clockwise from the small blind: player at distance p from
        the small blind gets cards p, p + n, p + 2n, ... of the dealt sequence."""
        p = (i - self.sb) % self.n
        return tuple(self.deck[p + r * self.n] for r in range(self.config.variant.hole_cards))

    def deal_hole_cards(self) -> None:
        for k in range(self.n):
            i = (self.sb + k) % self.n
            self.events_list.append(HoleDealt(self.seats[i], self.hole_cards_of(i)))

    def deal_board(self, street: int) -> None:
        base = self.n * self.config.variant.hole_cards
        burn, first, end = STREET_CARDS[street - 1]
        cards = self.deck[base + first:base + end]
        self.board_ints.extend(cards)
        self.events_list.append(CardBurned(self.deck[base + burn]))
        self.events_list.append(BoardDealt(street, tuple(cards)))

    # --- the flow of rounds (B1) ----------------------------------------------------

    def pass_turn(self, after: int) -> None:
        """Give the turn to the next player who must act after ``after``, or close the round."""
        if self.live_count() == 1:
            self.finish()
            return
        if self.active_count() <= 1:
            # B8: a player alone with chips acts only to match a bet, never to bet into nobody.
            alone = [j for j in range(self.n) if self.status[j] == ACTIVE]
            if not alone:
                self.end_round()
                return
            j = alone[0]
            if self.round_bets[j] >= max(b for k, b in enumerate(self.round_bets) if k != j):
                self.end_round()
                return
        for j in self.clockwise_after(after):
            if self.status[j] == ACTIVE and (self.round_bets[j] < self.round.current_bet
                                             or not self.acted[j]):
                self.turn = j
                return
        self.end_round()

    def end_round(self) -> None:
        """Collect the bets and deal the next street, running the board out when fewer than
        two players can bet; after the river, the showdown."""
        while True:
            self.round_bets = [0] * self.n
            self.acted = [False] * self.n
            if self.street_no == RIVER:
                self.start_showdown()
                return
            self.street_no += 1
            self.deal_board(self.street_no)
            self.round = self.round.next_round(self.config.bet_unit(self.street_no), self.cap())
            if self.active_count() >= 2:
                self.pass_turn(after=self.button_index)
                return

    # --- showdown (S1) and award (S4, K1) -------------------------------------------

    def start_showdown(self) -> None:
        self.street_no = SHOWDOWN
        self.turn = -1
        live = [s != FOLDED for s in self.status]
        self.high, self.low = strengths(self.config.variant, [self.hole_cards_of(i) for i in range(self.n)],
                                        self.board_ints, [i for i in range(self.n) if live[i]])
        self.showdown_state = ShowdownState(contrib=list(self.contrib), live=live,
                                            high=self.high, low=self.low)
        self.shown = [False] * self.n
        self.order = showdown_order(live=live, button=self.button_index,
                                    aggressor=self.round.aggressor)
        self.resolve_showdown()

    def resolve_showdown(self) -> None:
        """Players show or muck in order until one may choose (manual showdown) or all did."""
        assert self.showdown_state is not None
        forced = [s in (ALL_IN, PROTECTED) for s in self.status]
        for i, shows in self.showdown_state.decide(self.order, forced,
                                                   stop_at_choice=self.manual):
            if shows:
                self.shown[i] = True
                self.events_list.append(Shown(self.seats[i], self.hole_cards_of(i)))
            else:
                self.status[i] = MUCKED
                self.events_list.append(Mucked(self.seats[i]))
        if self.order:
            self.turn = self.order[0]
            return
        self.turn = -1
        self.finish()

    def asked_rake(self) -> int:
        """K1: the rule's answer for the chips in the pots (uncalled chips left out)."""
        if self.rake_rule is None:
            return 0
        total = self.pot - uncalled(self.contrib)
        rake = self.rake_rule.rake_for(total, self.n, len(self.board_ints) >= 3)
        return as_int(rake, "the rake", low=0, high=total, error=TableError, rule="K1")

    def finish(self) -> None:
        rake = self.asked_rake()
        high = self.high if self.high is not None else [0] * self.n
        order = self.clockwise_after(self.button_index)   # odd chips from left of the button
        settlement = settle(list(self.contrib), [s == FOLDED for s in self.status], high,
                            self.low, order=order, rake=rake, dead=self.dead)
        self.turn = -1
        for i, back in enumerate(settlement.returned):
            if back:
                self.events_list.append(Returned(self.seats[i], back))
        for k in range(len(settlement.pots)):
            self.events_list.append(pot_awarded(settlement, k, self.seats))
        final = [stack + paid for stack, paid in zip(self.chips, settlement.payouts)]
        self.events_list.append(HandEnded(tuple(final)))
        self.chips = final
        self.settlement = settlement
        self.over = True

    # --- transactions -----------------------------------------------------------------

    def saved(self) -> dict[str, Any]:
        """The changing state, copied (containers copied; the values in them are immutable,
        except the showdown state, which is copied too)."""
        out = {}
        for name in _MUTABLE:
            value = getattr(self, name)
            if isinstance(value, list):
                value = list(value)
            elif isinstance(value, (ShowdownState, BettingRound)):
                value = value.copy()
            out[name] = value
        return out

    def restore(self, saved: dict[str, Any]) -> None:
        for name, value in saved.items():
            setattr(self, name, value)

    def transaction(self, action: Any) -> Any:
        saved = self.saved()
        try:
            return action()
        except BaseException:
            self.restore(saved)
            raise

    # --- queries -----------------------------------------------------------------------

    def index(self, seat: int) -> int:
        seat = as_int(seat, "seat", error=TableError, rule="T1")   # the one validator
        if seat not in self.seats:
            raise TableError("T1", f"seat {seat} is not dealt into this hand")
        return self.seats.index(seat)

    @property
    def to_act(self) -> int | None:
        return self.seats[self.turn] if self.turn >= 0 else None

    @property
    def street(self) -> Street:
        return Street(self.street_no)

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def result(self) -> HandResult | None:
        if not self.over:
            return None
        settlement, seats, n = self.settlement, self.seats, self.n
        shown = self.shown or [False] * n
        return HandResult(
            seats=seats,
            pots=tuple(pot_awarded(settlement, k, seats) for k in range(len(settlement.pots))),
            payouts=dict(zip(seats, settlement.payouts)),
            returned={seats[i]: r for i, r in enumerate(settlement.returned) if r},
            stacks=dict(zip(seats, self.chips)),
            net={seats[i]: self.chips[i] - self.start_stacks[i] for i in range(n)},
            shown={seats[i]: self.hole_cards(seats[i]) for i in range(n) if shown[i]},
            mucked=tuple(seats[i] for i in range(n) if self.status[i] == MUCKED),
            rake=settlement.rake, settlement=settlement,
        )

    @property
    def button(self) -> int:
        return self.seats[self.button_index]

    @property
    def small_blind_seat(self) -> int:
        return self.seats[self.sb]

    @property
    def big_blind_seat(self) -> int:
        return self.seats[self.bb]

    @property
    def board(self) -> tuple[Card, ...]:
        return tuple(DECK[c] for c in self.board_ints)

    @property
    def stacks(self) -> dict[int, int]:
        return dict(zip(self.seats, self.chips))

    @property
    def bets(self) -> dict[int, int]:
        return dict(zip(self.seats, self.round_bets))

    @property
    def contributions(self) -> dict[int, int]:
        """Chips each seat put in this hand; the big blind ante counts for the big blind."""
        out = dict(zip(self.seats, self.contrib))
        out[self.seats[self.bb]] += self.dead
        return out

    @property
    def pot_total(self) -> int:
        return self.pot

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self.events_list)

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        return tuple(DECK[c] for c in self.hole_cards_of(self.index(seat)))

    def state(self, seat: int) -> str:
        return self.status[self.index(seat)]

    def current_bet(self) -> int:
        return self.round.current_bet if self.street_no < SHOWDOWN else 0

    def legal_actions(self) -> LegalActions:
        i = self.turn
        if i < 0:
            raise IllegalActionError("B1", "the hand is over; nobody is to act",
                                     reason=Reason.HAND_OVER)
        if self.street_no == SHOWDOWN:
            return LegalActions(self.seats[i], False, False, 0, None, None, True, True)
        return self.round.legal(self.seats[i], self.round_bets[i], self.chips[i], self.pot,
                                self.acted[i], self.active_count() > 1)

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        layers, _ = build_pots(self.contrib, [s == FOLDED for s in self.status], dead=self.dead)
        return [(layer.amount, tuple(self.seats[j] for j in layer.eligible)) for layer in layers]

    def shown_hands(self) -> list[tuple[int, tuple[Card, ...]]]:
        return [(self.seats[i], self.hole_cards(self.seats[i]))
                for i, up in enumerate(self.shown) if up]

    # --- actions (B1-B8, D2, S1) ------------------------------------------------------

    def betting_turn(self, seat: int | None) -> int:
        """B1: the index of the player to act in a betting round, checking ``seat`` (an exact
        int, as the compiled engine's ``_turn`` checks it)."""
        if seat is not None and type(seat) is not int:
            raise TableError("T1", f"seat must be an int or None, got {seat!r}")
        if self.turn < 0 or self.street_no == SHOWDOWN:
            raise IllegalActionError("B1", "no betting action is possible",
                                     reason=Reason.HAND_OVER if self.turn < 0
                                     else Reason.AT_SHOWDOWN)
        if seat is not None and seat != self.seats[self.turn]:
            raise IllegalActionError("B1", f"it is not seat {seat}'s turn",
                                     reason=Reason.NOT_YOUR_TURN)
        return self.turn

    def showdown_turn(self, seat: int | None) -> int:
        if seat is not None:
            seat = as_int(seat, "seat", error=TableError, rule="T1")
        if self.turn < 0 or self.street_no != SHOWDOWN:
            raise IllegalActionError("S1", "no showdown decision is pending",
                                     reason=Reason.NO_SHOWDOWN_TURN)
        if seat is not None and seat != self.seats[self.turn]:
            raise IllegalActionError("S1", f"it is not seat {seat}'s turn to show",
                                     reason=Reason.NOT_YOUR_SHOW)
        return self.turn

    def owed(self, i: int) -> int:
        return self.round.current_bet - self.round_bets[i]

    def do_fold(self, i: int) -> None:
        self.status[i] = FOLDED
        self.events_list.append(Folded(self.seats[i]))
        self.pass_turn(after=i)

    def do_check(self, i: int) -> None:
        self.acted[i] = True
        self.events_list.append(Checked(self.seats[i]))
        self.pass_turn(after=i)

    def do_call(self, i: int) -> None:
        """B8: a call is all-in when the stack is short."""
        amount = min(self.owed(i), self.chips[i])
        self.chips[i] -= amount
        self.round_bets[i] += amount
        self.contrib[i] += amount
        self.pot += amount
        self.acted[i] = True
        if self.chips[i] == 0:
            self.status[i] = ALL_IN
        self.events_list.append(Called(self.seats[i], amount))
        self.pass_turn(after=i)

    def do_raise(self, i: int, to: Any) -> None:
        if isinstance(to, bool) or not isinstance(to, int):
            raise IllegalActionError("B2", f"a bet is a whole number of chips, got {to!r}",
                                     reason=Reason.NOT_AN_AMOUNT)
        to = int(to)
        bet, stack = self.round_bets[i], self.chips[i]
        others_can_act = self.active_count() > 1
        legal = self.round.legal(self.seats[i], bet, stack, self.pot, self.acted[i],
                                 others_can_act)
        low, high = legal.min_raise_to, legal.max_raise_to
        if low is None or high is None or not low <= to <= high:
            raise self.round.refusal(self.seats[i], to, bet=bet, stack=stack,
                                     acted=self.acted[i], others_can_act=others_can_act,
                                     span=None if low is None or high is None else (low, high))
        added = to - bet
        self.chips[i] -= added
        self.round_bets[i] = to
        self.contrib[i] += added
        self.pot += added
        self.acted[i] = True
        if self.chips[i] == 0:
            self.status[i] = ALL_IN
        self.round = self.round.raised(to, player=i)
        self.events_list.append(BetOrRaised(self.seats[i], to))
        self.pass_turn(after=i)

    def do_protect(self, i: int) -> None:
        self.status[i] = PROTECTED
        self.events_list.append(ProtectedAllIn(self.seats[i]))
        self.pass_turn(after=i)

    def do_muck(self, i: int) -> None:
        self.order = self.order[1:]
        self.status[i] = MUCKED
        self.events_list.append(Mucked(self.seats[i]))
        self.resolve_showdown()

    def fold(self, *, seat: int | None = None) -> None:
        """B2: a fold is allowed on any turn."""
        self.transaction(lambda: self.do_fold(self.betting_turn(seat)))

    def check(self, *, seat: int | None = None) -> None:
        def act() -> None:
            i = self.betting_turn(seat)
            if self.owed(i) > 0:
                raise IllegalActionError("B2", "check is only possible when nothing is owed",
                                         reason=Reason.CHECK_OWES)
            self.do_check(i)
        self.transaction(act)

    def call(self, *, seat: int | None = None) -> None:
        def act() -> None:
            i = self.betting_turn(seat)
            if self.owed(i) <= 0:
                raise IllegalActionError("B2", "nothing is owed; check instead",
                                         reason=Reason.CALL_OWES_NOTHING)
            self.do_call(i)
        self.transaction(act)

    def check_or_call(self, *, seat: int | None = None) -> None:
        def act() -> None:
            i = self.betting_turn(seat)
            if self.owed(i) > 0:
                self.do_call(i)
            else:
                self.do_check(i)
        self.transaction(act)

    def bet_or_raise(self, to: int, *, seat: int | None = None) -> None:
        self.transaction(lambda: self.do_raise(self.betting_turn(seat), to))

    def all_in(self, *, seat: int | None = None) -> None:
        """The whole stack: a call when that is all it covers, else a bet or raise to it."""
        def act() -> None:
            i = self.betting_turn(seat)
            total = self.round_bets[i] + self.chips[i]
            if total <= self.round.current_bet:
                self.do_call(i)
            else:
                self.do_raise(i, total)
        self.transaction(act)

    def protect_all_in(self, *, seat: int | None = None) -> None:
        """D2: only facing a bet, with chips already in the pot this hand."""
        def act() -> None:
            i = self.betting_turn(seat)
            if self.owed(i) <= 0:
                raise IllegalActionError("D2", "a check is free; a timeout checks instead",
                                         reason=Reason.PROTECT_CAN_CHECK)
            if self.contrib[i] == 0:
                raise IllegalActionError("D2", "no chips in; a timeout folds instead",
                                         reason=Reason.PROTECT_NO_CHIPS)
            self.do_protect(i)
        self.transaction(act)

    def timeout(self, *, seat: int | None = None,
                policy: TimeoutPolicy = TimeoutPolicy.CHECK_PROTECT_FOLD) -> TimeoutAction:
        """D2: log the timeout, then apply ``policy``; at a manual showdown, a muck."""
        if not isinstance(policy, TimeoutPolicy):
            raise TableError("D2", f"policy must be a TimeoutPolicy, got {policy!r}")

        def act() -> TimeoutAction:
            if self.street_no == SHOWDOWN and self.turn >= 0:
                i = self.showdown_turn(seat)
                self.events_list.append(TimedOut(self.seats[i]))
                self.do_muck(i)
                return TimeoutAction.MUCK
            i = self.betting_turn(seat)
            action = policy.decide(can_check=self.owed(i) <= 0, has_chips_in=self.contrib[i] > 0)
            self.events_list.append(TimedOut(self.seats[i]))
            if action is TimeoutAction.CHECK:
                self.do_check(i)
            elif action is TimeoutAction.ALL_IN:
                self.do_protect(i)
            else:
                self.do_fold(i)
            return action
        result: TimeoutAction = self.transaction(act)
        return result

    def show(self, *, seat: int | None = None) -> None:
        """S1: show at showdown."""
        def act() -> None:
            i = self.showdown_turn(seat)
            self.order = self.order[1:]
            self.shown[i] = True
            assert self.showdown_state is not None
            self.showdown_state.reveal(i)
            self.events_list.append(Shown(self.seats[i], self.hole_cards_of(i)))
            self.resolve_showdown()
        self.transaction(act)

    def muck(self, *, seat: int | None = None) -> None:
        """S1: muck at showdown (offered only to a hand that cannot win)."""
        self.transaction(lambda: self.do_muck(self.showdown_turn(seat)))


__all__ = ["ReferenceHand"]
