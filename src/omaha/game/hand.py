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

from omaha.cards import DECK, Card, CardsLike
from omaha.config import FIXED_LIMIT, POT_LIMIT, GameConfig
from omaha.errors import TableError
from omaha.game.award import ShowdownAndAward
from omaha.game.clock import TimeoutAction, TimeoutPolicy
from omaha.game.dealing import (
    blind_positions,
    check_options,
    check_setup,
    dealing_order,
    dealt_sequence,
    live_seats,
)
from omaha.game.events import EVENT_OF_CODE, Event, HandStarted, HoleDealt, PotAwarded
from omaha.game.rake import RakeRule
from omaha.game.render import render_view
from omaha.game.showdown import HandResult, pot_awarded
from omaha.game.status import SHOWDOWN, STATE_NAMES, PlayerState, Street
from omaha.game.view import HandView, hand_view
from omaha.history.record import hand_body, restore_with
from omaha.history.sealing import Key
from omaha.limits import as_int, safe_repr
from omahacore.engine import (
    ACT_CALL,
    ACT_CHECK,
    ACT_FOLD,
    ACT_PROTECT,
    EV_STARTED,
    EV_TIMED_OUT,
    HOLES_ENTRY,
    HandCore,
)

__all__ = ["Hand", "RakeRule", "Street"]

# What each event log code is read as: omaha.game.events' table, except that a pot's entry holds
# the splitter's result, which pot_awarded turns into the event.
_EVENT_OF_CODE: tuple[Any, ...] = tuple([pot_awarded if cls is PotAwarded else cls
                                         for cls in EVENT_OF_CODE])


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
        seats, start, button = check_setup(config, stacks, button)
        n = len(seats)
        check_options(rng, rake, manual_showdown)
        self.config = config
        self._rake = rake
        self._manual = manual_showdown
        b = seats.index(button)
        sb, bb = blind_positions(n, b, single_blind=not config.small_blind)   # T3, T4
        live = live_seats(live_blinds)
        for seat in live:
            if seat not in seats or seats.index(seat) in (sb, bb):
                raise TableError("T5", f"seat {safe_repr(seat)} cannot post a live big blind "
                                 "this hand")
        deck_bytes = bytes(dealt_sequence(config, seats, sb, rng, hole_cards, board, deck))
        self._log = [(EV_STARTED, config, seats, start, button, seats[sb], seats[bb], live)]
        limit = config.structure is FIXED_LIMIT
        units = (config.bet_unit(0), config.bet_unit(1), config.bet_unit(2),   # B3, B4
                 config.bet_unit(3))
        self._start(seats, b, sb, bb, list(start), deck_bytes, config.variant.hole_cards,
                    (config.ante, config.small_blind, config.big_blind, config.big_blind_ante),
                    tuple([seats.index(seat) for seat in live]), limit,
                    config.structure is POT_LIMIT, units, config.max_raises,
                    config.uncapped_heads_up, config.variant.hi_lo,
                    config.variant.hand_rule == "omaha")

    # --- queries -----------------------------------------------------------------------

    def __repr__(self) -> str:
        """What the hand is and where it stands, e.g. ``<Hand Omaha Hi/Lo 8-or-better ...>``."""
        game = f"{self.config.variant.name} {self.config.structure.value}"
        state = "over" if self.is_over else f"{self.street.name.lower()}, to act {self.to_act}"
        return (f"<Hand {game} seats={self.seats} button={self.button} {state} "
                f"pot={self.pot_total}>")

    def __str__(self) -> str:
        """A spectator's picture of the hand (no hidden card): :meth:`render` with no seat."""
        return self.render()

    def render(self, seat: int | None = None) -> str:
        """The hand as a compact text picture, as ``seat`` sees it (None: a spectator).

        Drawn from :meth:`view` alone (see :mod:`omaha.game.render`), so it shows ``seat``'s
        own hole cards and the hands shown at showdown, never another seat's hidden cards.
        """
        config = self.config
        blinds = f"{config.small_blind or 0}/{config.big_blind}"
        title = f"{config.variant.name} {config.structure.value} {blinds}"
        return render_view(self.view(seat), title=title)

    @property
    def street(self) -> Street:
        """The current street (SHOWDOWN once hands are compared)."""
        return Street(self._street)

    @property
    def result(self) -> HandResult | None:
        """The pots, winners, payouts and showdown once the hand is over, else None."""
        result: HandResult | None = self._result
        if result is None and self._settlement is not None:
            result = self._result = self._build_result(self._settlement)
        return result

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
    def events(self) -> tuple[Event, ...]:
        """The event log so far (the omniscient record: hole cards and burns included)."""
        out: list[Event] = []
        for entry in self._log:
            if entry is HOLES_ENTRY:
                seats, holes = self.seats, self._holes
                out.extend([HoleDealt(seats[i], holes[i])  # type: ignore[arg-type]
                            for i in dealing_order(self._n, self._sb)])
            else:
                out.append(_EVENT_OF_CODE[entry[0]](*entry[1:]))
        return tuple(out)

    @property
    def event_count(self) -> int:
        """``len(hand.events)`` in O(1), without building the events (for drivers that
        mark positions in the log, such as :class:`~omaha.game.clocked.ClockedHand`)."""
        return len(self._log) + self._n - 1   # the hole cards are one entry for n events

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s hole cards (server side; players see only :meth:`view`)."""
        return tuple([DECK[c] for c in self._hole(self._index(seat))])

    def view(self, seat: int | None = None) -> HandView:
        """What ``seat`` may see (None: a spectator); never others' hidden cards or the deck."""
        return hand_view(self, seat)

    def snapshot(self, *, key: Key = None) -> dict[str, Any]:
        """JSON-compatible data from which :meth:`restore` rebuilds this hand exactly.

        It holds the dealt sequence (future cards included), so it stays on the server.
        It carries a digest of its content; with ``key`` an HMAC-SHA256 signature instead
        (see :mod:`omaha.history.snapshot`).
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
        :mod:`omaha.history.record`'s replay, which then sets the showdown mode it read)."""
        return cls(start.config, stacks=dict(zip(start.seats, start.stacks)),
                   button=start.button, live_blinds=start.live_blinds, deck=deck, rake=rake,
                   manual_showdown=True)

    def state(self, seat: int) -> PlayerState:
        """``seat``'s state: ``active``, ``folded``, ``all_in``, ``protected`` or ``mucked``."""
        return STATE_NAMES[self._status[self._index(seat)]]

    # --- betting actions (B1-B8) -------------------------------------------------------
    # legal_actions(), fold(), check(), call(), check_or_call() and bet_or_raise() are the
    # compiled ones of omahacore.engine.HandCore, which checks each with the compiled rules
    # (omahacore.transitions) and words a refusal with omahacore.refusals; here are the
    # actions made of them.

    bet = HandCore.bet_or_raise
    raise_to = HandCore.bet_or_raise

    def _index(self, seat: int) -> int:
        number = as_int(seat, "seat", error=TableError, rule="T1")
        try:
            return self.seats.index(number)
        except ValueError:
            raise TableError("T1", f"seat {safe_repr(number)} is not dealt into this "
                             "hand") from None

    def all_in(self, *, seat: int | None = None) -> None:
        """Put in the whole stack: a call when that is all it covers, else a bet or raise."""
        i = self._turn(seat)
        total = self._bets[i] + self._stacks[i]
        if total <= self._current_bet:
            self._push(i)
            self._act(ACT_CALL, i)
        else:
            self.bet_or_raise(total, seat=seat)

    # --- timeouts (D2): protect_all_in() is the compiled one ----------------------------

    def timeout(self, *, seat: int | None = None,
                policy: TimeoutPolicy = TimeoutPolicy.CHECK_PROTECT_FOLD) -> TimeoutAction:
        """The player to act ran out of time: log :class:`~omaha.game.events.TimedOut`, then apply
        ``policy`` (D2 by default: check if free, else protected all-in with chips in, else
        fold; see :class:`~omaha.game.clock.TimeoutPolicy`). Returns what it did, a
        :class:`~omaha.game.clock.TimeoutAction` (equal to ``"check"``, ``"all_in"`` or
        ``"fold"``); at a manual showdown (where only a hand that cannot win is asked) the
        hand is mucked whatever the policy: ``MUCK``.
        """
        if not isinstance(policy, TimeoutPolicy):
            raise TableError("D2", f"policy must be a TimeoutPolicy, got {safe_repr(policy)}")
        if self._street == SHOWDOWN and self._to_act >= 0:
            i = self._showdown_turn(seat)
            self._push(i)
            self._log.append((EV_TIMED_OUT, self.seats[i]))
            self._muck(i)
            return TimeoutAction.MUCK
        i = self._turn(seat)
        action = policy.decide(can_check=self._bets[i] >= self._current_bet,
                               has_chips_in=self._contrib[i] > 0)
        self._push(i)   # one record: the TimedOut entry goes with its consequence
        self._log.append((EV_TIMED_OUT, self.seats[i]))
        if action is TimeoutAction.CHECK:
            self._act(ACT_CHECK, i)
        elif action is TimeoutAction.ALL_IN:
            self._act(ACT_PROTECT, i)
        else:
            self._act(ACT_FOLD, i)
        return action

    # --- search: copy and undo ---------------------------------------------------------

    def __copy__(self) -> Hand:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Hand:
        """``copy.deepcopy(hand)`` is :meth:`copy` (the immutable parts are shared)."""
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its :meth:`snapshot` (and rake rule); unpickling is :meth:`restore`,
        which checks the data and replays the actions (so they can be undone again)."""
        return (_unpickled, (type(self), self.snapshot(), self._rake))

    def undo(self) -> None:
        """Take back the last action (a bet, a fold, a timeout, a show or a muck), putting
        the hand exactly as it was before it: stacks, board, log, turn and all.

        Bots that search the game tree pair it with :meth:`copy` (python-chess's
        ``push``/``pop``): ``hand.call(); ...; hand.undo()``. Posting and dealing are not
        actions; a hand with no action to take back raises :class:`IllegalActionError`. (A
        :class:`~omaha.game.table.Table` takes a finished hand's stacks when next asked, so
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
        self._pop()


def _unpickled(cls: type[Hand], data: dict[str, Any], rake: RakeRule | None) -> Hand:
    return cls.restore(data, rake=rake)
