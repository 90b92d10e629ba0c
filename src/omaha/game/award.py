"""The end of a hand: showdown (S1), uncontested pots (S4), rake (K1) and the award.

:class:`ShowdownAndAward` is the part of :class:`~omaha.game.hand.Hand` that runs once the
betting is over; the rules it applies (S1 order, who may muck) are the pure functions and
:class:`~omaha.game.showdown.ShowdownState` of :mod:`omaha.game.showdown`, and the chips go through the
compiled splitter :func:`omahacore.pots.settle`, the big blind ante as its dead money.

The award is computed in full (rake asked and checked, pots settled) before anything of it
is applied. If that fails (a rake rule answering nonsense, K1), the hand is put back exactly
as it was before the action that ended it, from that action's undo record (kept by the
compiled core, :class:`omahacore.engine.HandCore`), and the error is raised: nothing is lost, and the action can be made
again once the cause is fixed.
"""

from __future__ import annotations

from typing import Any

from omaha.cards import DECK, Card
from omaha.errors import TableError
from omaha.game.showdown import (
    HandResult,
    ShowdownState,
    pot_awarded,
    showdown_order,
    strengths,
    uncalled,
)
from omaha.game.status import ALL_IN, FOLDED, MUCKED, PROTECTED, SHOWDOWN
from omaha.limits import as_int, safe_repr
from omahacore.engine import EV_ENDED, EV_MUCKED, EV_POT_AWARDED, EV_RETURNED, EV_SHOWN, HandCore
from omahacore.errors import PotError
from omahacore.pots import Settlement, build_pots, settle
from omahacore.refusals import Reason, refused
from omahacore.transitions import ODD_CHIP_ORDERS

__all__ = ["ShowdownAndAward"]


class ShowdownAndAward(HandCore):
    """Showdown and awarding for :class:`~omaha.game.hand.Hand`, over the compiled hand.

    The state is :class:`omahacore.engine.HandCore`'s: two small C structs hold the numbers
    of the hand (the fixed ``Rules``: players, button, blinds, structure; the ``State``:
    stacks, bets, contributions, player states, street, whose turn it is, the betting
    round's facts), beside the dealt sequence and the event log. Undo works by saved state,
    the way python-chess keeps a move stack: before each action the whole ``State`` is
    pushed, and ``_pop`` copies it back and cuts the log.

    Players are indices 0..n-1 in seat order (clockwise). Read as Python: ``_stacks``,
    ``_bets``, ``_contrib``, ``_status``, ``_acted`` (lists, one item per player), ``_board``,
    ``_holes``, ``_pot``, ``_dead`` (the big blind ante), ``_live``/``_active`` (how many have
    not folded / can still act), ``_to_act`` (-1: nobody), ``_street``, ``_current_bet``,
    ``_aggressor``; ``_log`` is the event log as ``(code, *fields)`` tuples.
    """

    __slots__ = ()

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        """The pots as they stand: ``(amount, eligible seats)``, main pot first (P1).

        Bets not matched by anyone are left out (they go back to their owner); the big blind
        ante is dead money in the main pot.
        """
        layers, _ = build_pots(self._contrib, [s == FOLDED for s in self._status],
                               dead=self._dead)
        return [(layer.amount, tuple(self.seats[j] for j in layer.eligible)) for layer in layers]

    def shown_hands(self) -> list[tuple[int, tuple[Card, ...]]]:
        """``(seat, hole cards)`` of every hand shown at showdown so far (public, S1)."""
        return [(self.seats[i], tuple([DECK[c] for c in self._hole(i)]))
                for i, up in enumerate(self._shown) if up]

    def _showdown(self) -> None:
        """Compare hands in S1 order; all-in hands and hands that could win are shown.

        The compiled round flow has set the street to SHOWDOWN and nobody to act.
        """
        n = self._n
        status = self._status
        live = [s != FOLDED for s in status]
        high, low = strengths(self.config.variant, self._holes, self._board,
                              [i for i in range(n) if live[i]])
        self._strengths = (high, low)
        state = self._showdown_state = ShowdownState(contrib=self._contrib, live=live,
                                                     high=high, low=low)
        shown = self._shown = [False] * n
        order = self._order = showdown_order(live=live, button=self._button,
                                             aggressor=self._aggressor)
        self._decide(state, order, shown, status)

    def _resolve_showdown(self) -> None:
        """Show or muck in order until a free choice (manual mode) or the end.

        The showdown's Python objects are replaced, not edited, so undo records keep the old
        ones (the player states are in the saved C state).
        """
        assert self._showdown_state is not None
        state = self._showdown_state = self._showdown_state.copy()
        order = self._order = self._order[:]
        shown = self._shown = self._shown[:]
        self._decide(state, order, shown, self._status)

    def _decide(self, state: ShowdownState, order: list[int], shown_list: list[bool],
                status: list[int]) -> None:
        log, seats = self._log, self.seats
        forced = [s == ALL_IN or s == PROTECTED for s in status]
        for i, shown in state.decide(order, forced, stop_at_choice=self._manual):
            if shown:
                shown_list[i] = True
                log.append((EV_SHOWN, seats[i], self._hole(i)))
            else:
                self._set_status(i, MUCKED)
                status[i] = MUCKED
                log.append((EV_MUCKED, seats[i]))
        if order:
            self._to_act = order[0]
            return
        self._to_act = -1
        self._finish(status)

    def _showdown_turn(self, seat: int | None) -> int:
        # bool and 1.0 compare equal to 1: the seat is read by the one validator first
        number = None if seat is None else as_int(seat, "seat", error=TableError, rule="T1")
        i = self._to_act
        if i < 0 or self._street != SHOWDOWN:
            raise refused(Reason.NO_SHOWDOWN_TURN)
        if number is not None and number != self.seats[i]:
            raise refused(Reason.NOT_YOUR_SHOW, turn=self.seats[i], seat=safe_repr(number))
        return i

    def show(self, *, seat: int | None = None) -> None:
        """Show the hand at showdown (S1)."""
        i = self._showdown_turn(seat)
        self._push(i)
        self._order = self._order[1:]
        self._shown = self._shown[:]
        self._shown[i] = True
        assert self._showdown_state is not None
        self._showdown_state = self._showdown_state.copy()
        self._showdown_state.reveal(i)
        self._log.append((EV_SHOWN, self.seats[i], self._hole(i)))
        self._resolve_showdown()

    def muck(self, *, seat: int | None = None) -> None:
        """Muck at showdown: offered only for a hand that cannot win (S1)."""
        i = self._showdown_turn(seat)
        self._push(i)
        self._muck(i)

    def _muck(self, i: int) -> None:
        self._order = self._order[1:]
        self._set_status(i, MUCKED)
        self._log.append((EV_MUCKED, self.seats[i]))
        self._resolve_showdown()

    def _finish(self, status: list[int] | None = None) -> None:
        """Award every pot through the splitter (S4 when one player is left) and close.

        Everything that can fail is done first; on failure the hand goes back to how it was
        before the action that ended it (:meth:`_take_back`). ``status``: the player states,
        when the caller has them.
        """
        n = self._n
        if status is None:
            status = self._status
        rake = self._asked_rake()
        high, low = self._strengths if self._strengths is not None else ([0] * n, None)
        order = ODD_CHIP_ORDERS[n][self._button]   # odd chips (S2, S3)
        try:
            settlement = settle(self._contrib, [s == FOLDED for s in status], high, low,
                                order=order, rake=rake, dead=self._dead)
        except PotError:
            self._take_back()
            raise
        payouts, returned = list(settlement.payouts), list(settlement.returned)
        seats, log = self.seats, self._log
        final = [stack + paid for stack, paid in zip(self._stacks, payouts)]
        self._to_act = -1
        if any(returned):
            for i, back in enumerate(returned):
                if back:
                    log.append((EV_RETURNED, seats[i], back))
        for k in range(len(settlement.pots)):   # built into PotAwarded when the log is read
            log.append((EV_POT_AWARDED, settlement, k, seats))
        log.append((EV_ENDED, tuple(final)))
        self._set_final_stacks(final)
        self._settlement = settlement

    def _asked_rake(self) -> int:
        """K1: the rake rule's answer for the chips in the pots, checked.

        The pots hold every chip put in (the big blind ante, dead money, once) less the
        uncalled bet that goes back. A rule that raises, or answers anything but an int
        from 0 to that total, leaves the hand as it was before this action.
        """
        if self._rake is None:
            return 0
        total = self._pot - uncalled(self._contrib)
        try:
            answer: Any = self._rake.rake_for(total, self._n, self._street >= 1)
        except Exception:
            self._take_back()
            raise
        try:   # the one validator: a NumPy int is its value, a bool or 1.5 is no amount
            return as_int(answer, "the rake", low=0, high=total, error=TableError, rule="K1")
        except TableError as exc:
            where = ("the hand is back as it was before the last action" if self.undo_depth
                     else "no hand was dealt")
            self._take_back()
            raise type(exc)("K1", f"the rake rule returned {safe_repr(answer)} for a pot of "
                            f"{total}; it must be a whole number of chips from 0 to {total}, "
                            f"so {where}") from None

    def _take_back(self) -> None:
        """Put the hand back exactly as it was before the action now ending it, from its
        undo record. A hand that ends as it is dealt (everyone all-in from the blinds) has
        no earlier state: the error leaves the constructor and no hand is made.
        """
        if self.undo_depth:
            self._pop()

    def _build_result(self, settlement: Settlement) -> HandResult:
        seats, n = self.seats, self._n
        start, final = self._log[0][3], self._stacks
        shown = self._shown or [False] * n
        return HandResult(
            seats=seats,
            pots=tuple(pot_awarded(settlement, k, seats) for k in range(len(settlement.pots))),
            payouts=dict(zip(seats, settlement.payouts)),
            returned={seats[i]: r for i, r in enumerate(settlement.returned) if r},
            stacks=dict(zip(seats, final)),
            net={seats[i]: final[i] - start[i] for i in range(n)},
            shown={seats[i]: tuple([DECK[c] for c in self._hole(i)]) for i in range(n) if shown[i]},
            mucked=tuple(seats[i] for i in range(n) if self._status[i] == MUCKED),
            rake=settlement.rake, settlement=settlement,
        )
