"""The end of a hand: showdown (S1), uncontested pots (S4), rake (K1) and the award.

:class:`ShowdownAndAward` is the part of :class:`~omaha.hand.Hand` that runs once the
betting is over; the rules it applies (S1 order, who may muck) are the pure functions and
:class:`~omaha.showdown.ShowdownState` of :mod:`omaha.showdown`, and the chips go through the
compiled splitter :func:`omahacore.pots.settle`.
"""

from __future__ import annotations

from omaha.cards import DECK
from omaha.errors import IllegalActionError, TableError
from omaha.events import HandEnded, Mucked, Returned, Shown
from omaha.showdown import (
    RINGS,
    HandResult,
    ShowdownState,
    pot_awarded,
    showdown_order,
    strengths,
    uncalled,
)
from omaha.states import ALL_IN, FOLDED, MUCKED, PROTECTED, SHOWDOWN, HandState
from omahacore.pots import PotAward, Settlement, settle

__all__ = ["ShowdownAndAward"]


class ShowdownAndAward(HandState):
    """Showdown and awarding for :class:`~omaha.hand.Hand` (whose state is a HandState)."""

    __slots__ = ()

    def _pot_inputs(self) -> tuple[list[int], list[bool]]:
        """Contributions and folds for the splitter: the big blind ante, dead money, is put in
        by a folded phantom player after the real ones, so it lands in the main pot (as long
        as it is no more than the smallest stake of a live player)."""
        contrib = self._contrib
        folded = [s == FOLDED for s in self._status]
        if self._dead:
            return [*contrib, self._dead], [*folded, True]
        return contrib, folded

    def _showdown(self) -> None:
        """Compare hands in S1 order; all-in hands and hands that could win are shown."""
        self._street = SHOWDOWN
        self._to_act = -1
        n = self._n
        live = [s != FOLDED for s in self._status]
        high, low = strengths(self.config.variant, self._holes, self._board,
                              [i for i in range(n) if live[i]])
        self._strengths = (high, low)
        self._showdown_state = ShowdownState(contrib=self._contrib, live=live, high=high, low=low)
        self._shown = [False] * n
        self._order = showdown_order(live=live, button=self._button, aggressor=self._round.aggressor)
        self._resolve_showdown()

    def _resolve_showdown(self) -> None:
        """Show or muck in order until a free choice (manual mode) or the end."""
        state, status, log, seats = self._showdown_state, self._status, self._log, self.seats
        assert state is not None
        forced = [s == ALL_IN or s == PROTECTED for s in status]
        for i, shown in state.decide(self._order, forced, stop_at_choice=self._manual):
            if shown:
                self._shown[i] = True
                log.append((Shown, seats[i], self._holes[i]))
            else:
                status[i] = MUCKED
                log.append((Mucked, seats[i]))
        if self._order:
            self._to_act = self._order[0]
            return
        self._to_act = -1
        self._finish()

    def _showdown_turn(self, seat: int | None) -> int:
        i = self._to_act
        if i < 0 or self._street != SHOWDOWN:
            raise IllegalActionError("S1", "no showdown decision is pending")
        if seat is not None and seat != self.seats[i]:
            raise IllegalActionError("S1", f"seat {self.seats[i]} shows or mucks next, not seat {seat}")
        return i

    def show(self, *, seat: int | None = None) -> None:
        """Show the hand at showdown (S1)."""
        i = self._showdown_turn(seat)
        del self._order[0]
        self._shown[i] = True
        self._showdown_state.reveal(i)  # type: ignore[union-attr]
        self._log.append((Shown, self.seats[i], self._holes[i]))
        self._resolve_showdown()

    def muck(self, *, seat: int | None = None) -> None:
        """Muck at showdown: offered only for a hand that cannot win (S1)."""
        i = self._showdown_turn(seat)
        del self._order[0]
        self._status[i] = MUCKED
        self._log.append((Mucked, self.seats[i]))
        self._resolve_showdown()

    def _finish(self) -> None:
        """Award every pot through the splitter (S4 when one player is left) and close."""
        n = self._n
        self._to_act = -1
        contrib, folded = self._pot_inputs()
        high, low = self._strengths if self._strengths is not None else ([0] * n, None)
        rake = 0
        if self._rake is not None:
            total = self._pot - uncalled(self._contrib)
            rake = self._rake.rake_for(total, n, len(self._board) >= 3)
            if type(rake) is not int or not 0 <= rake <= total:
                raise TableError("K1", f"the rake rule returned {rake!r} for a pot of {total}")
        order = RINGS[n][self._button + 1:self._button + n + 1]   # odd chips (S2, S3)
        if self._dead and self._live == 1:
            settlement = settle(self._contrib, folded[:n], high, low, order=order, rake=rake)
            settlement = _with_dead_money(settlement, self._dead)
        elif self._dead:
            settlement = settle(contrib, folded, [*high, 0], None if low is None else [*low, 0],
                                order=(*order, n), rake=rake)
        else:
            settlement = settle(contrib, folded, high, low, order=order, rake=rake)
        payouts, returned = list(settlement.payouts), list(settlement.returned)
        if len(payouts) > n:   # the phantom's chips above every live stake: the big blind's
            back = returned.pop()
            payouts.pop()
            payouts[self._bb] += back
            returned[self._bb] += back
        seats, log = self.seats, self._log
        final = [stack + paid for stack, paid in zip(self._stacks, payouts)]
        if any(returned):
            for i, back in enumerate(returned):
                if back:
                    log.append((Returned, seats[i], back))
        for k in range(len(settlement.pots)):   # built into PotAwarded when the log is read
            log.append((pot_awarded, settlement, k, seats))
        log.append((HandEnded, tuple(final)))
        self._stacks = final
        self._payouts = (payouts, returned)
        self._settlement = settlement

    def _build_result(self, settlement: Settlement) -> HandResult:
        seats, n = self.seats, self._n
        start, final = self._log[0][3], self._stacks
        shown = self._shown or [False] * n
        return HandResult(
            seats=seats,
            pots=tuple(pot_awarded(settlement, k, seats) for k in range(len(settlement.pots))),
            payouts=dict(zip(seats, self._payouts[0])),
            returned={seats[i]: r for i, r in enumerate(self._payouts[1]) if r},
            stacks=dict(zip(seats, final)),
            net={seats[i]: final[i] - start[i] for i in range(n)},
            shown={seats[i]: tuple([DECK[c] for c in self._holes[i]]) for i in range(n) if shown[i]},
            mucked=tuple(seats[i] for i in range(n) if self._status[i] == MUCKED),
            rake=settlement.rake, settlement=settlement,
        )


def _with_dead_money(settlement: Settlement, dead: int) -> Settlement:
    """An uncontested hand's settlement (S4) with the big blind ante added to its one pot."""
    pot = settlement.pots[0]
    winner = pot.high_winners[0]
    payouts = list(settlement.payouts)
    payouts[winner] += dead
    award = PotAward(amount=pot.amount + dead, rake=pot.rake, eligible=pot.eligible,
                     high_winners=pot.high_winners, high_shares=(pot.high_shares[0] + dead,))
    return Settlement(pots=(award, *settlement.pots[1:]), payouts=payouts,
                      returned=settlement.returned, rake=settlement.rake,
                      total=settlement.total + dead)


