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

import random
from collections.abc import Iterable, Mapping
from typing import Any

from omaha.award import ShowdownAndAward
from omaha.betting import BettingRound, LegalActions
from omaha.cards import DECK, Card, CardsLike
from omaha.clock import TimeoutAction, TimeoutPolicy
from omaha.config import FIXED_LIMIT, MAX_SEATS, GameConfig
from omaha.dealing import check_options, check_setup, dealt_sequence, live_seats
from omaha.deck import STREET_CARDS
from omaha.errors import IllegalActionError, TableError
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
from omaha.limits import shown
from omaha.record import hand_body, restore_with
from omaha.sealing import Key
from omaha.showdown import RINGS, HandResult
from omaha.state import NOT_YET
from omaha.states import (
    ACTIVE,
    ALL_IN,
    FOLDED,
    PREFLOP,
    PROTECTED,
    RIVER,
    SHOWDOWN,
    STATE_NAMES,
    PlayerState,
    RakeRule,
    Street,
)
from omaha.view import HandView, hand_view

__all__ = ["Hand", "RakeRule", "Street"]

_NOT_ASKED = (-1, LegalActions(0, False, False, 0, None, None))
# Log entries that are the same for every hand, shared to keep live hands small.
_CHECKED = [(Checked, seat) for seat in range(MAX_SEATS + 1)]
_FOLDED = [(Folded, seat) for seat in range(MAX_SEATS + 1)]
_HOLES_DEALT = (HoleDealt,)   # the log's one entry for every HoleDealt event (saves memory)


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
        seats = check_setup(config, stacks, button)
        n = len(seats)
        check_options(rng, rake, manual_showdown)
        self.config = config
        self.seats = seats
        self._n = n
        self._button = seats.index(button)
        self._sb = self._button if n == 2 else (self._button + 1) % n      # T3, T4
        # A single blind is the big blind, posted where the small blind would be (T3).
        self._bb = (self._sb + 1) % n if config.small_blind else self._sb
        live = live_seats(live_blinds)
        for seat in live:
            if seat not in stacks or seats.index(seat) in (self._sb, self._bb):
                raise TableError("T5", f"seat {shown(seat)} cannot post a live big blind this hand")
        self._deck = bytes(dealt_sequence(config, seats, self._sb, rng, hole_cards, board,
                                          deck))   # 0..51 each
        self._stacks = [stacks[s] for s in seats]
        self._bets = [0] * n
        self._contrib = [0] * n
        self._dead = 0
        self._status = [ACTIVE] * n
        self._acted = [False] * n
        self._holes = []
        self._board = ()
        self._street = PREFLOP
        self._to_act = -1
        self._pot = 0
        self._live = n
        self._active = n
        self._rake = rake
        self._manual = manual_showdown
        self._order = NOT_YET
        self._shown = NOT_YET   # type: ignore[assignment]
        self._strengths = None
        self._showdown_state = None
        self._settlement = None
        self._legal = _NOT_ASKED
        self._result = None
        self._undo = []
        self._log = [(HandStarted, config, seats, tuple(self._stacks), button, seats[self._sb],
                      seats[self._bb], live)]
        self._post_forced_bets(live)
        self._deal_holes()
        self._round = BettingRound(config.structure, config.bet_unit(PREFLOP), self._cap(),
                                   current_bet=config.big_blind,
                                   raises=1 if config.structure is FIXED_LIMIT else 0)
        self._advance(self._bb)

    # --- setup -------------------------------------------------------------------------

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
        n, deck, sb = self._n, self._deck, self._sb
        end = n * self.config.variant.hole_cards
        holes: list[tuple[int, ...]] = [()] * n
        for p in range(n):
            i = sb + p if sb + p < n else sb + p - n
            holes[i] = tuple(deck[p:end:n])   # hole_position(r, p) = r * n + p
        self._holes = holes
        self._log.append(_HOLES_DEALT)   # one HoleDealt event per player, built when read

    # --- queries -----------------------------------------------------------------------

    def __repr__(self) -> str:
        """What the hand is and where it stands, e.g. ``<Hand Omaha Hi/Lo 8-or-better ...>``."""
        game = f"{self.config.variant.name} {self.config.structure.value}"
        state = "over" if self.is_over else f"{self.street.name.lower()}, to act {self.to_act}"
        return (f"<Hand {game} seats={self.seats} button={self.button} {state} "
                f"pot={self.pot_total}>")

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
        out: list[Event] = []
        for entry in self._log:
            if entry is _HOLES_DEALT:
                seats, holes, n, sb = self.seats, self._holes, self._n, self._sb
                out.extend([HoleDealt(seats[i], holes[i])  # type: ignore[arg-type]
                            for i in RINGS[n][sb:sb + n]])   # clockwise from the small blind
            else:
                out.append(entry[0](*entry[1:]))
        return tuple(out)

    @property
    def event_count(self) -> int:
        """``len(hand.events)`` in O(1), without building the events (for drivers that
        mark positions in the log, such as :class:`~omaha.clocked.ClockedHand`)."""
        return len(self._log) + self._n - 1   # the hole cards are one entry for n events

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s hole cards (server side; players see only :meth:`view`)."""
        return tuple([DECK[c] for c in self._holes[self._index(seat)]])

    def view(self, seat: int | None = None) -> HandView:
        """What ``seat`` may see (None: a spectator); never others' hidden cards or the deck."""
        return hand_view(self, seat)

    def snapshot(self, *, key: Key = None) -> dict[str, Any]:
        """JSON-compatible data from which :meth:`restore` rebuilds this hand exactly.

        It holds the dealt sequence (future cards included), so it stays on the server.
        It carries a digest of its content; with ``key`` an HMAC-SHA256 signature instead
        (see :mod:`omaha.snapshot`).
        """
        return hand_body(self, key=key)

    @classmethod
    def restore(cls, data: Mapping[str, Any], *, rake: RakeRule | None = None,
                key: Key = None) -> Hand:
        """The hand a :meth:`snapshot` describes, ready to continue (``rake`` as at creation;
        ``key`` as at the snapshot). Anything else is refused with SnapshotError."""
        return restore_with(cls._dealt_for_replay, data, rake=rake, key=key)

    @classmethod
    def _dealt_for_replay(cls, start: HandStarted, deck: list[int],
                          rake: RakeRule | None) -> Hand:
        """The hand ``start`` began, dealt from ``deck``, showdown decisions left open (for
        :mod:`omaha.record`'s replay, which then sets the showdown mode it read)."""
        return cls(start.config, stacks=dict(zip(start.seats, start.stacks)),
                   button=start.button, live_blinds=start.live_blinds, deck=deck, rake=rake,
                   manual_showdown=True)

    def state(self, seat: int) -> PlayerState:
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
        self._push(i)
        self._fold(i)

    def _fold(self, i: int) -> None:
        self._status[i] = FOLDED
        self._live -= 1
        self._active -= 1
        self._log.append(_FOLDED[self.seats[i]])
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
        self._push(i)
        self._check(i)

    def _check(self, i: int) -> None:
        self._acted[i] = True
        self._log.append(_CHECKED[self.seats[i]])
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
            self._push(i)
            self._acted[i] = True
            self._log.append(_CHECKED[self.seats[i]])
            self._advance(i)

    def _call(self, i: int, owed: int) -> None:
        self._push(i)
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
            raise self._round.refusal(
                self.seats[i], to, bet=bet, stack=stack, acted=self._acted[i],
                others_can_act=self._active > 1,
                span=None if low is None or high is None else (low, high))
        amount = to - bet
        self._push(i)
        self._stacks[i] = stack - amount
        self._bets[i] = to
        self._contrib[i] += amount
        self._pot += amount
        self._acted[i] = True
        if amount == stack:
            self._status[i] = ALL_IN
            self._active -= 1
        self._round = self._round.raised(to, player=i)
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
        self._push(i)
        self._protect(i)

    def _protect(self, i: int) -> None:
        self._status[i] = PROTECTED
        self._active -= 1
        self._log.append((ProtectedAllIn, self.seats[i]))
        self._advance(i)

    def timeout(self, *, seat: int | None = None,
                policy: TimeoutPolicy = TimeoutPolicy.CHECK_PROTECT_FOLD) -> TimeoutAction:
        """The player to act ran out of time: log :class:`~omaha.events.TimedOut`, then apply
        ``policy`` (D2 by default: check if free, else protected all-in with chips in, else
        fold; see :class:`~omaha.clock.TimeoutPolicy`). Returns what it did, a
        :class:`~omaha.clock.TimeoutAction` (equal to ``"check"``, ``"all_in"`` or
        ``"fold"``); at a manual showdown (where only a hand that cannot win is asked) the
        hand is mucked whatever the policy: ``MUCK``.
        """
        if not isinstance(policy, TimeoutPolicy):
            raise TableError("D2", f"policy must be a TimeoutPolicy, got {shown(policy)}")
        if self._street == SHOWDOWN and self._to_act >= 0:
            i = self._showdown_turn(seat)
            self._push(i)
            self._log.append((TimedOut, self.seats[i]))
            self._muck(i)
            return TimeoutAction.MUCK
        i = self._turn(seat)
        action = policy.decide(can_check=self._bets[i] >= self._round.current_bet,
                               has_chips_in=self._contrib[i] > 0)
        self._push(i)   # one record: the TimedOut entry goes with its consequence
        self._log.append((TimedOut, self.seats[i]))
        if action is TimeoutAction.CHECK:
            self._check(i)
        elif action is TimeoutAction.ALL_IN:
            self._protect(i)
        else:
            self._fold(i)
        return action

    # --- search: copy and undo ---------------------------------------------------------

    def undo(self) -> None:
        """Take back the last action (a bet, a fold, a timeout, a show or a muck), putting
        the hand exactly as it was before it: stacks, board, log, turn and all.

        Bots that search the game tree pair it with :meth:`copy` (python-chess's
        ``push``/``pop``): ``hand.call(); ...; hand.undo()``. Posting and dealing are not
        actions; a hand with no action to take back raises :class:`IllegalActionError`. (A
        :class:`~omaha.table.Table` takes a finished hand's stacks when next asked, so
        take back a table's hand only while it is in progress.)

        >>> import random
        >>> from omaha.config import GameConfig
        >>> hand = Hand(GameConfig.no_limit(small_blind=1, big_blind=2),
        ...             stacks={1: 100, 2: 100, 3: 100}, button=1, rng=random.Random(9))
        >>> before = hand.events
        >>> hand.call(); hand.call(); hand.check()       # to the flop
        >>> hand.street.name, len(hand.board)
        ('FLOP', 3)
        >>> hand.undo(); hand.street.name, hand.board, hand.to_act
        ('PREFLOP', (), 3)
        >>> hand.undo(); hand.undo(); hand.events == before
        True
        """
        if not self._undo:
            raise IllegalActionError(None, "no action to undo: this hand (or copy) has taken none")
        self._pop()

    @property
    def undo_depth(self) -> int:
        """How many actions :meth:`undo` can take back."""
        return len(self._undo)

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
            self._round = self._round.next_round(self.config.bet_unit(self._street), self._cap())
            if self._active >= 2:
                self._advance(self._button)
                return

    def _deal_board(self, street: int) -> None:
        """Burn one, then the flop (3), turn or river (1) (T6)."""
        base = self._n * self.config.variant.hole_cards
        burn, first, end = STREET_CARDS[street - 1]
        cards = tuple(self._deck[base + first:base + end])
        self._board += cards   # a new tuple: undo records and copies keep the old one
        self._log.append((CardBurned, self._deck[base + burn]))
        self._log.append((BoardDealt, street, cards))
