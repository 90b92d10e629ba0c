"""One hand, from the blinds to the award (T3, T4, T6, B1-B8, S1, S4, D2).

>>> import random
>>> from omaha.config import GameConfig, OMAHA_HILO
>>> hand = Hand(GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO),
...             stacks={1: 200, 2: 200, 3: 200}, button=1, rng=random.Random(5))
>>> hand.to_act, hand.legal_actions().call_amount, hand.legal_actions().max_raise_to
(1, 2, 7)
>>> hand.bet_or_raise(to=7); hand.fold(); hand.call()
>>> hand.street.name, hand.pot_total, hand.to_act
('FLOP', 15, 3)
>>> hand.check(); hand.check(); hand.check(); hand.check(); hand.check(); hand.check()
>>> hand.is_over, sum(hand.stacks.values())
(True, 600)

Players are kept in seat order (clockwise); the hand refers to them by table seat number
in every public method and by index internally. Every action is checked completely before
anything changes, so an :class:`~omaha.errors.IllegalActionError` leaves the hand as it was.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from omaha.award import ShowdownAndAward
from omaha.betting import BettingRound, LegalActions
from omaha.cards import DECK, Card, CardsLike
from omaha.clock import TimeoutPolicy
from omaha.config import FIXED_LIMIT, POT_LIMIT, GameConfig
from omaha.deck import STREET_CARDS, cards_needed, shuffled_cards, stacked_cards
from omaha.errors import CardError, IllegalActionError, TableError
from omaha.events import (
    BetOrRaised,
    BoardDealt,
    Called,
    CardBurned,
    Checked,
    Event,
    Folded,
    HandStarted,
    HoleDealt,
    Posted,
    ProtectedAllIn,
    TimedOut,
)
from omaha.limits import MAX_CHIPS, check_total, shown
from omaha.showdown import RINGS, HandResult
from omaha.states import (
    ACTIVE,
    ALL_IN,
    FOLDED,
    PREFLOP,
    PROTECTED,
    RIVER,
    SHOWDOWN,
    STATE_NAMES,
    RakeRule,
    Street,
)
from omahacore.cards import format_cards, parse_cards

if TYPE_CHECKING:
    from omaha.view import HandView

__all__ = ["Hand", "RakeRule", "Street"]

_NOT_ASKED = (-1, LegalActions(0, False, False, 0, None, None))
_TIMEOUT_METHODS = {"check": "check", "all_in": "protect_all_in", "fold": "fold"}


class Hand(ShowdownAndAward):
    """A hand in play. Create it with the dealt-in seats and their stacks, then drive it.

    ``stacks`` maps each dealt-in seat to its chips (B8: only these play); ``button`` is a
    dealt-in seat. The small and big blind follow the button (T3; heads-up the button posts
    the small blind, T4) and ``live_blinds`` seats post an extra live big blind (T5). Cards
    come from ``rng`` (a seeded :class:`random.Random` reproduces the hand; default the OS
    generator, C2), or are given: ``hole_cards`` (seat to cards) and ``board`` fix some
    cards and the rest are shuffled; ``deck`` fixes the whole dealt sequence. ``rake`` is
    asked for the rake before awarding (default none). With ``manual_showdown`` players who
    may muck are asked (``show()``/``muck()``); otherwise the showdown resolves itself.
    """

    __slots__ = ()

    def __init__(self, config: GameConfig, *, stacks: Mapping[int, int], button: int,
                 rng: random.Random | None = None, rake: RakeRule | None = None,
                 manual_showdown: bool = False, live_blinds: Iterable[int] = (),
                 hole_cards: Mapping[int, CardsLike] | None = None, board: CardsLike | None = None,
                 deck: Iterable[int] | None = None) -> None:
        seats = _check_setup(config, stacks, button)
        n = len(seats)
        if rng is not None and not isinstance(rng, random.Random):
            raise TableError("C2", f"rng must be a random.Random or None, got {shown(rng)}")
        if rake is not None and not callable(getattr(rake, "rake_for", None)):
            raise TableError("K1", f"rake must have a rake_for method or be None, got {shown(rake)}")
        if type(manual_showdown) is not bool:
            raise TableError("S1", f"manual_showdown must be a bool, got {shown(manual_showdown)}")
        self.config = config
        self.seats = seats
        self._n = n
        self._button = seats.index(button)
        self._sb = self._button if n == 2 else (self._button + 1) % n      # T3, T4
        # A single blind is the big blind, posted where the small blind would be (T3).
        self._bb = (self._sb + 1) % n if config.small_blind else self._sb
        live = _live_seats(live_blinds)
        for seat in live:
            if seat not in stacks or seats.index(seat) in (self._sb, self._bb):
                raise TableError("T5", f"seat {shown(seat)} cannot post a live big blind this hand")
        self._deck = self._cards(rng, hole_cards, board, deck)
        self._stacks = [stacks[s] for s in seats]
        self._bets = [0] * n
        self._contrib = [0] * n
        self._dead = 0
        self._status = [ACTIVE] * n
        self._acted = [False] * n
        self._holes = []
        self._board = []
        self._street = PREFLOP
        self._to_act = -1
        self._pot = 0
        self._live = n
        self._active = n
        self._rake = rake
        self._manual = manual_showdown
        self._order = []
        self._shown = []
        self._strengths = None
        self._showdown_state = None
        self._settlement = None
        self._legal = _NOT_ASKED
        self._payouts = ([], [])
        self._result = None
        self._mark = -1
        self._log = [(HandStarted, config, seats, tuple(self._stacks), button, seats[self._sb],
                      seats[self._bb], live)]
        self._post_forced_bets(live)
        self._deal_holes()
        self._round = BettingRound(config.structure, config.bet_unit(PREFLOP), self._cap(),
                                   current_bet=config.big_blind,
                                   raises=1 if config.structure is FIXED_LIMIT else 0)
        self._advance(self._bb)

    # --- setup -------------------------------------------------------------------------

    def _cards(self, rng: random.Random | None, hole_cards: Mapping[int, CardsLike] | None,
               board: CardsLike | None, deck: Iterable[int] | None) -> list[int]:
        """The dealt sequence (T6 layout): given whole, stacked around fixed cards, or shuffled."""
        n, h = self._n, self.config.variant.hole_cards
        count = cards_needed(n, h)
        if deck is not None:
            if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
                raise TableError("T6", f"deck must be a sequence of card indices, got {shown(deck)}")
            cards = _parsed(list(deck), "deck")
            if len(cards) != count:
                raise TableError("T6", f"a {n}-player hand deals {count} cards, got {len(cards)}")
            _distinct(cards, "deck")
            return cards
        if hole_cards is None and board is None:
            return shuffled_cards(count, rng)
        if hole_cards is not None and not isinstance(hole_cards, Mapping):
            raise TableError("T6", f"hole_cards must map seats to cards, got {shown(hole_cards)}")
        holes = {}
        for seat, cards_like in (hole_cards or {}).items():
            if type(seat) is not int or seat not in self.seats:
                raise TableError("T6", f"hole_cards for seat {shown(seat)}, which is not dealt in")
            cards = _parsed(cards_like, f"hole_cards[{seat}]")
            if len(cards) > h:
                raise TableError("T6", f"hole_cards[{seat}]: seat {seat} is dealt {h} hole "
                                 f"cards, got {len(cards)}")
            _distinct(cards, f"hole_cards[{seat}]")
            holes[(self.seats.index(seat) - self._sb) % n] = cards
        board_cards = _parsed(board, "board") if board is not None else []
        if len(board_cards) > 5:
            raise TableError("T6", f"board: at most 5 board cards, got {len(board_cards)}")
        return stacked_cards(players=n, hole_cards=h, holes=holes, board=board_cards, rng=rng)

    def _cap(self) -> int | None:
        """The fixed-limit cap for a round starting now (B3, with the heads-up option)."""
        if self.config.uncapped_heads_up and self._live == 2:
            return None
        return self.config.max_raises

    def _post(self, i: int, what: str, amount: int, live: bool, table: bool = False) -> None:
        """Post a forced bet (all-in if short, B8); ``live`` bets count toward calling.

        ``table`` money (the big blind ante) is dead money for the main pot: it does not
        raise the poster's own stake in the side pots.
        """
        amount = min(amount, self._stacks[i])
        if amount <= 0:
            return
        self._stacks[i] -= amount
        if table:
            self._dead += amount
        else:
            self._contrib[i] += amount
        self._pot += amount
        if live:
            self._bets[i] += amount
        if self._stacks[i] == 0:
            self._status[i] = ALL_IN
            self._active -= 1
        self._log.append((Posted, self.seats[i], what, amount))

    def _post_forced_bets(self, live_blinds: tuple[int, ...]) -> None:
        """Antes, then the blinds; the big blind's ante after the blind (which has priority)."""
        config = self.config
        if config.ante:
            for k in range(self._n):
                self._post((self._sb + k) % self._n, "ante", config.ante, False)
        self._post(self._sb, "small_blind", config.small_blind, True)
        self._post(self._bb, "big_blind", config.big_blind, True)
        if config.big_blind_ante:
            self._post(self._bb, "big_blind_ante", config.big_blind_ante, False, table=True)
        for seat in live_blinds:
            self._post(self.seats.index(seat), "live_blind", config.big_blind, True)

    def _deal_holes(self) -> None:
        """Hole cards one at a time clockwise from the small blind (T6)."""
        n, deck, seats, log, sb = self._n, self._deck, self.seats, self._log, self._sb
        end = n * self.config.variant.hole_cards
        holes: list[tuple[int, ...]] = [()] * n
        for p in range(n):
            i = sb + p if sb + p < n else sb + p - n
            cards = holes[i] = tuple(deck[p:end:n])   # hole_position(r, p) = r * n + p
            log.append((HoleDealt, seats[i], cards))
        self._holes = holes

    # --- queries -----------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is pending (a bet, or show/muck at showdown), else None."""
        return self.seats[self._to_act] if self._to_act >= 0 else None

    @property
    def street(self) -> Street:
        """The current street (SHOWDOWN once hands are compared)."""
        return Street(self._street)

    @property
    def is_over(self) -> bool:
        """Whether the hand is finished and awarded."""
        return self._settlement is not None

    @property
    def result(self) -> HandResult | None:
        """The pots, winners, payouts and showdown once the hand is over, else None."""
        if self._result is None and self._settlement is not None:
            self._result = self._build_result(self._settlement)
        return self._result

    @property
    def button(self) -> int:
        """The button's seat."""
        return self.seats[self._button]

    @property
    def small_blind_seat(self) -> int:
        """The seat that posts the small blind (T3; the button heads-up, T4)."""
        return self.seats[self._sb]

    @property
    def big_blind_seat(self) -> int:
        """The seat that posts the big blind (T3)."""
        return self.seats[self._bb]

    @property
    def board(self) -> tuple[Card, ...]:
        """The board cards dealt so far."""
        return tuple([DECK[c] for c in self._board])

    @property
    def stacks(self) -> dict[int, int]:
        """Chips behind (not yet in the pot) by seat; final stacks once the hand is over."""
        return dict(zip(self.seats, self._stacks))

    @property
    def bets(self) -> dict[int, int]:
        """Chips each seat has put in during the current betting round."""
        return dict(zip(self.seats, self._bets))

    @property
    def contributions(self) -> dict[int, int]:
        """Chips each seat has put in the pot this hand (antes and blinds included)."""
        out = dict(zip(self.seats, self._contrib))
        out[self.seats[self._bb]] += self._dead
        return out

    @property
    def pot_total(self) -> int:
        """Every chip put in this hand, bets in front of players included."""
        return self._pot

    @property
    def events(self) -> tuple[Event, ...]:
        """The event log so far (the omniscient record: hole cards and burns included)."""
        return tuple(entry[0](*entry[1:]) for entry in self._log)

    @property
    def event_count(self) -> int:
        """``len(hand.events)`` in O(1), without building the events (for drivers that
        mark positions in the log, such as :class:`~omaha.clocked.ClockedHand`)."""
        return len(self._log)

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s hole cards (server side; players see only :meth:`view`)."""
        return tuple([DECK[c] for c in self._holes[self._index(seat)]])

    def view(self, seat: int | None = None) -> HandView:
        """What ``seat`` may see (None: a spectator); never others' hidden cards or the deck."""
        from omaha.view import hand_view
        return hand_view(self, seat)

    def snapshot(self, *, key: bytes | str | None = None) -> dict[str, Any]:
        """JSON-compatible data from which :meth:`restore` rebuilds this hand exactly.

        It holds the dealt sequence (future cards included), so it stays on the server.
        It carries a digest of its content; with ``key`` an HMAC-SHA256 signature instead
        (see :mod:`omaha.snapshot`).
        """
        from omaha.snapshot import snapshot_hand
        return snapshot_hand(self, key=key)

    @classmethod
    def restore(cls, data: Mapping[str, Any], *, rake: RakeRule | None = None,
                key: bytes | str | None = None) -> Hand:
        """The hand a :meth:`snapshot` describes, ready to continue (``rake`` as at creation;
        ``key`` as at the snapshot). Anything else is refused with SnapshotError."""
        from omaha.snapshot import restore_hand
        return restore_hand(data, rake=rake, key=key)

    def state(self, seat: int) -> str:
        """``seat``'s state: ``active``, ``folded``, ``all_in``, ``protected`` or ``mucked``."""
        return STATE_NAMES[self._status[self._index(seat)]]

    def current_bet(self) -> int:
        """The total a player must have in this round to stay in (0 when nobody bet)."""
        return self._round.current_bet if self._street < SHOWDOWN else 0

    def legal_actions(self) -> LegalActions:
        """What the player to act may do: fold/check/call amounts and raise bounds (B1-B8).

        At showdown only ``can_show``/``can_muck`` are set (S1). Raises
        :class:`IllegalActionError` when nobody is to act.
        """
        i = self._to_act
        if i < 0:
            raise IllegalActionError("B1", "the hand is over; nobody is to act")
        if self._street == SHOWDOWN:
            return LegalActions(self.seats[i], False, False, 0, None, None, True, True)
        legal = self._round.legal(self.seats[i], self._bets[i], self._stacks[i], self._pot,
                                  self._acted[i], self._active > 1)
        self._legal = (len(self._log), legal)   # every change appends to the log
        return legal

    # --- betting actions (B1-B8) -------------------------------------------------------

    def _index(self, seat: int) -> int:
        if type(seat) is not int:
            raise TableError("T1", f"seat must be a seat number (int), got {shown(seat)}")
        try:
            return self.seats.index(seat)
        except ValueError:
            raise TableError("T1", f"seat {shown(seat)} is not dealt into this hand") from None

    def _turn(self, seat: int | None) -> int:
        """The index of the player to act, checking ``seat`` when given (B1).

        The action methods inline the common case (no seat given, betting in progress).
        """
        if seat is not None and type(seat) is not int:   # bool and 1.0 compare equal to 1
            raise TableError("T1", f"seat must be a seat number (int) or None, got {shown(seat)}")
        i = self._to_act
        if i < 0 or self._street == SHOWDOWN:
            what = "the hand is over" if i < 0 else "the hand is at showdown"
            raise IllegalActionError("B1", f"{what}; no betting action is possible")
        if seat is not None and seat != self.seats[i]:
            raise IllegalActionError("B1", f"it is seat {self.seats[i]}'s turn, not seat {shown(seat)}'s")
        return i

    def fold(self, *, seat: int | None = None) -> None:
        """Fold (B2: allowed on any turn, even when a check is free)."""
        i = self._to_act
        if seat is not None or i < 0 or self._street == SHOWDOWN:
            i = self._turn(seat)
        self._mark = len(self._log)
        self._status[i] = FOLDED
        self._live -= 1
        self._active -= 1
        self._log.append((Folded, self.seats[i]))
        self._advance(i)

    def check(self, *, seat: int | None = None) -> None:
        """Check: only when nothing is owed (B2)."""
        i = self._to_act
        if seat is not None or i < 0 or self._street == SHOWDOWN:
            i = self._turn(seat)
        owed = self._round.current_bet - self._bets[i]
        if owed > 0:
            raise IllegalActionError("B2", f"seat {self.seats[i]} owes {min(owed, self._stacks[i])}; "
                                     "check is only possible when nothing is owed")
        self._mark = len(self._log)
        self._acted[i] = True
        self._log.append((Checked, self.seats[i]))
        self._advance(i)

    def call(self, *, seat: int | None = None) -> None:
        """Call the current bet, all-in if the stack is short (B8)."""
        i = self._to_act
        if seat is not None or i < 0 or self._street == SHOWDOWN:
            i = self._turn(seat)
        owed = self._round.current_bet - self._bets[i]
        if owed <= 0:
            raise IllegalActionError("B2", f"seat {self.seats[i]} owes nothing; check instead")
        self._call(i, owed)

    def check_or_call(self, *, seat: int | None = None) -> None:
        """Check when nothing is owed, else call (PHH ``cc``)."""
        i = self._to_act
        if seat is not None or i < 0 or self._street == SHOWDOWN:
            i = self._turn(seat)
        owed = self._round.current_bet - self._bets[i]
        if owed > 0:
            self._call(i, owed)
        else:
            self._mark = len(self._log)
            self._acted[i] = True
            self._log.append((Checked, self.seats[i]))
            self._advance(i)

    def _call(self, i: int, owed: int) -> None:
        self._mark = len(self._log)
        stack = self._stacks[i]
        amount = owed if owed < stack else stack  # noqa: FURB136 (hot path)
        self._stacks[i] = stack - amount
        self._bets[i] += amount
        self._contrib[i] += amount
        self._pot += amount
        self._acted[i] = True
        if amount == stack:
            self._status[i] = ALL_IN
            self._active -= 1
        self._log.append((Called, self.seats[i], amount))
        self._advance(i)

    def bet_or_raise(self, to: int, *, seat: int | None = None) -> None:
        """Bet, or raise, to a total of ``to`` this round (B3-B8)."""
        i = self._to_act
        if seat is not None or i < 0 or self._street == SHOWDOWN:
            i = self._turn(seat)
        if type(to) is not int:
            if isinstance(to, bool) or not isinstance(to, int):
                raise IllegalActionError("B2", f"a bet is a whole number of chips, got {shown(to)}")
            to = int(to)
        bet, stack = self._bets[i], self._stacks[i]
        version, legal = self._legal
        if version != len(self._log):   # not asked since the last change
            legal = self._round.legal(0, bet, stack, self._pot, self._acted[i], self._active > 1)
        low, high = legal.min_raise_to, legal.max_raise_to
        if low is None or high is None or not low <= to <= high:
            raise self._raise_error(i, to, None if low is None or high is None else (low, high))
        amount = to - bet
        self._mark = len(self._log)
        self._stacks[i] = stack - amount
        self._bets[i] = to
        self._contrib[i] += amount
        self._pot += amount
        self._acted[i] = True
        if amount == stack:
            self._status[i] = ALL_IN
            self._active -= 1
        self._round.apply_raise(to, player=i)
        self._log.append((BetOrRaised, self.seats[i], to))
        self._advance(i)

    bet = bet_or_raise
    raise_to = bet_or_raise

    def all_in(self, *, seat: int | None = None) -> None:
        """Put in the whole stack: a call when that is all it covers, else a bet or raise."""
        i = self._turn(seat)
        total = self._bets[i] + self._stacks[i]
        if total <= self._round.current_bet:
            self._call(i, self._round.current_bet - self._bets[i])
        else:
            self.bet_or_raise(total, seat=seat)

    def _raise_error(self, i: int, to: int, span: tuple[int, int] | None) -> IllegalActionError:
        """The rule a refused bet or raise to ``to`` breaks, with the limits."""
        seat, rnd = self.seats[i], self._round
        if not -MAX_CHIPS <= to <= MAX_CHIPS:
            return IllegalActionError("B8", f"a bet to {shown(to)} is beyond any stack (the "
                                      "limit is MAX_CHIPS = 2**63-1)")
        bet, stack, current = self._bets[i], self._stacks[i], rnd.current_bet
        word = "raise" if current else "bet"
        if span is None:
            if bet + stack <= current:
                return IllegalActionError("B8", f"seat {seat} has {stack} chips, not enough to "
                                          "raise; call (all-in) or fold")
            if self._active <= 1:
                return IllegalActionError("B8", "every other player is all-in; nobody could "
                                          "call a raise, so call or fold")
            if self._acted[i] and not rnd.reopened_for(bet):
                return IllegalActionError("B7", f"seat {seat} already acted and faces less than "
                                          "a full raise; only call or fold")
            return IllegalActionError("B3", f"the betting is capped at {rnd.cap} bets this "
                                      "round; only call or fold")
        low, high = span
        if low == high and rnd.limit:
            return IllegalActionError("B3", f"the {word} must be to exactly {low}, got {to}")
        if to < low:
            if low == bet + stack:
                return IllegalActionError("B8", f"seat {seat} can only {word} all-in to {low}, got {to}")
            return IllegalActionError("B4", f"minimum {word} is to {low}, got {to}")
        if high < bet + stack and self.config.structure is POT_LIMIT:
            return IllegalActionError("B5", f"maximum {word} is to {high} (the pot), got {to}")
        return IllegalActionError("B8", f"seat {seat} has {stack} chips; maximum {word} is to "
                                  f"{high}, got {to}")

    # --- timeouts (D2) -----------------------------------------------------------------

    def protect_all_in(self, *, seat: int | None = None) -> None:
        """Treat the player to act as all-in for what they put in (D2).

        They keep the rest of their stack, take no further action, and can win only the
        pots formed up to their contribution. Only when a check is not free and the player
        already has chips in the pot this hand (D2: otherwise a timeout checks or folds).
        """
        i = self._turn(seat)
        if self._bets[i] >= self._round.current_bet:
            raise IllegalActionError("D2", f"seat {self.seats[i]} can check for free; a timeout "
                                     "checks instead")
        if self._contrib[i] == 0:
            raise IllegalActionError("D2", f"seat {self.seats[i]} has put no chips in this hand; "
                                     "a timeout folds instead")
        self._mark = len(self._log)
        self._status[i] = PROTECTED
        self._active -= 1
        self._log.append((ProtectedAllIn, self.seats[i]))
        self._advance(i)

    def timeout(self, *, seat: int | None = None,
                policy: TimeoutPolicy = TimeoutPolicy.CHECK_PROTECT_FOLD) -> str:
        """The player to act ran out of time: log :class:`~omaha.events.TimedOut`, then apply
        ``policy`` (D2 by default: check if free, else protected all-in with chips in, else
        fold; see :class:`~omaha.clock.TimeoutPolicy`). Returns what it did: ``"check"``,
        ``"all_in"`` or ``"fold"``; at a manual showdown (where only a hand that cannot win
        is asked) the hand is mucked whatever the policy: ``"muck"``.
        """
        if not isinstance(policy, TimeoutPolicy):
            raise TableError("D2", f"policy must be a TimeoutPolicy, got {shown(policy)}")
        if self._street == SHOWDOWN and self._to_act >= 0:
            i = self._showdown_turn(seat)
            self._log.append((TimedOut, self.seats[i]))
            self.muck()
            return "muck"
        i = self._turn(seat)
        action = policy.decide(can_check=self._bets[i] >= self._round.current_bet,
                               has_chips_in=self._contrib[i] > 0).value
        self._log.append((TimedOut, self.seats[i]))
        getattr(self, _TIMEOUT_METHODS[action])()
        return action

    # --- round flow (B1) ---------------------------------------------------------------

    def _advance(self, after: int) -> None:
        """Give the turn to the next player who must act after ``after``, or close the round."""
        if self._live == 1:
            self._finish()
            return
        status, bets = self._status, self._bets
        if self._active <= 1:
            # Alone with chips (B8): act only to match a real bet, never to bet into nobody.
            j = status.index(ACTIVE) if self._active else -1
            if j < 0 or bets[j] >= max(b for k, b in enumerate(bets) if k != j):
                self._end_round()
                return
        acted, current = self._acted, self._round.current_bet
        for j in RINGS[self._n][after + 1:after + self._n + 1]:   # clockwise after `after`
            if status[j] == ACTIVE and (bets[j] < current or not acted[j]):
                self._to_act = j
                return
        self._end_round()

    def _end_round(self) -> None:
        """Collect the round and deal the next street; run the board out if nobody can bet."""
        while True:
            n = self._n
            self._bets = [0] * n
            self._acted = [False] * n
            if self._street == RIVER:
                self._showdown()
                return
            self._street += 1
            self._deal_board(self._street)
            self._round.next_street(self.config.bet_unit(self._street), self._cap())
            if self._active >= 2:
                self._advance(self._button)
                return

    def _deal_board(self, street: int) -> None:
        """Burn one, then the flop (3), turn or river (1) (T6)."""
        base = self._n * self.config.variant.hole_cards
        burn, first, end = STREET_CARDS[street - 1]
        cards = tuple(self._deck[base + first:base + end])
        self._board.extend(cards)
        self._log.append((CardBurned, self._deck[base + burn]))
        self._log.append((BoardDealt, street, cards))


def _check_setup(config: GameConfig, stacks: Mapping[int, int], button: int) -> tuple[int, ...]:
    """The dealt-in seats, in order, of a hand that can be dealt; else refuse it (T1, B8, C1)."""
    if not isinstance(config, GameConfig):
        raise TableError(None, f"config must be a GameConfig, got {shown(config)}")
    if not isinstance(stacks, Mapping):
        raise TableError("B8", f"stacks must map seat numbers to chips, got {shown(stacks)}")
    for seat, chips in stacks.items():
        if type(seat) is not int or seat < 1:
            raise TableError("T1", f"stacks: seats are numbered from 1, got {shown(seat)}")
        if type(chips) is not int or chips <= 0:
            raise TableError("B8", f"stacks: seat {seat} must bring a positive whole number of "
                             f"chips, got {shown(chips)}")
    most = config.variant.max_players
    if not 2 <= len(stacks) <= most:
        raise TableError("T1", f"a hand of {config.variant.name} needs 2 to {most} players, "
                         f"got {len(stacks)}")
    check_total(stacks.values(), "stacks")
    if type(button) is not int or button not in stacks:
        raise TableError("T2", f"the button must be on a dealt-in seat, got {shown(button)}")
    return tuple(sorted(stacks))


def _live_seats(live_blinds: Iterable[int]) -> tuple[int, ...]:
    """The seats posting a live big blind (T5), checked to be seat numbers."""
    if not live_blinds:
        return ()
    if isinstance(live_blinds, (str, bytes)) or not isinstance(live_blinds, Iterable):
        raise TableError("T5", f"live_blinds must be seat numbers, got {shown(live_blinds)}")
    seats = tuple(live_blinds)
    for seat in seats:
        if type(seat) is not int:
            raise TableError("T5", f"live_blinds: a seat is an int, got {shown(seat)}")
    return tuple(sorted(set(seats)))


def _parsed(cards: object, what: str) -> list[int]:
    """``cards`` parsed, a card error naming the argument (and the seat) it came from.

    Anything but text is first copied item by item into exact ints (one ``__index__`` call
    each, its result checked), so the compiled parser reads a list no caller can change.
    """
    try:
        if not isinstance(cards, str):
            if not isinstance(cards, Iterable):
                raise TypeError(f"expected cards, got {shown(cards)}")
            cards = [_card_item(item) for item in list(cards)]
        return parse_cards(cards)
    except (CardError, TypeError, ValueError) as exc:
        raise TableError("T6", f"{what}: {exc}") from None


def _card_item(item: object) -> int | str:
    if isinstance(item, str):
        return item
    if isinstance(item, bool):
        raise TypeError(f"a card is not a bool, got {shown(item)}")
    value = operator.index(item)  # type: ignore[arg-type]
    if type(value) is not int:
        raise TypeError(f"a card's __index__ must return an int, got {type(value).__name__}")
    return value


def _distinct(cards: list[int], what: str) -> None:
    if len(set(cards)) != len(cards):
        raise TableError("C1", f"{what}: a card is used twice in {format_cards(cards)}")
