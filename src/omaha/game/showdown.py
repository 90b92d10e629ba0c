"""Showdown (S1) and the hand's result: who must show, who may muck, and what each player won.

Players show in S1 order: the last bettor or raiser of the river first, else the first
player left of the button, then clockwise. A player may muck only a hand that cannot win
or tie any part of a contested pot they are in, judged against the hands already shown;
a hand that could still win is shown, and so is every all-in hand. Awarding goes through
the compiled splitter (:func:`omahacore.pots.settle`), which also returns uncalled bets.
"""

# ruff: noqa: PLR1730 (hot paths: comparisons beat min()/max() calls here)

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from omaha.cards import Card
from omaha.config import Variant
from omaha.game.events import PotAwarded
from omahacore.cards import format_cards
from omahacore.evaluator import evaluate_best, evaluate_best_low, evaluate_high, evaluate_hilo
from omahacore.pots import Settlement

# Player indices 0..n-1 twice round, for slicing "clockwise from k": RINGS[n][k:k + n].
RINGS = [tuple(range(n)) * 2 for n in range(11)]

__all__ = ["RINGS", "HandResult", "ShowdownState", "pot_awarded", "showdown_order", "strengths", "uncalled"]


def strengths(variant: Variant, holes: Sequence[Sequence[int]], board: Sequence[int],
              players: Sequence[int]) -> tuple[list[int], list[int] | None]:
    """High and (for hi/lo) low strengths of ``players`` with the compiled evaluator.

    Others get 0. Omaha plays exactly 2 hole + 3 board cards (C3); Hold'em any 5 (C6).
    """
    n = len(holes)
    high = [0] * n
    low: list[int] | None = [0] * n if variant.hi_lo else None
    omaha = variant.hand_rule == "omaha"
    for i in players:
        if omaha:
            if low is None:
                high[i] = evaluate_high(holes[i], board)
            else:
                high[i], low[i] = evaluate_hilo(holes[i], board)
        else:
            cards = [*holes[i], *board]
            high[i] = evaluate_best(cards)
            if low is not None:
                low[i] = evaluate_best_low(cards)
    return high, low


def showdown_order(*, live: Sequence[bool], button: int, aggressor: int) -> list[int]:
    """Player indices in S1 order: from the river's last aggressor, else left of the button."""
    n = len(live)
    start = aggressor if aggressor >= 0 and live[aggressor] else button + 1
    return [j for j in RINGS[n][start:start + n] if live[j]]


class ShowdownState:
    """Who may still win what while hands are shown one by one (S1).

    Pots are layered by the contributions of live (unfolded) players (P1). A layer where
    one live player is left goes to them without a showdown, so only contested layers
    count; they are the lowest levels, and each player is in the lowest ``upto[i]`` of them.
    For each contested layer the best high and low shown so far are kept (-1: none shown).
    """

    __slots__ = ("best_high", "best_low", "high", "low", "upto")

    def __init__(self, *, contrib: Sequence[int], live: Sequence[bool], high: Sequence[int],
                 low: Sequence[int] | None) -> None:
        # A level is contested when two live players reach it: up to the second-largest
        # live contribution.
        reached = sorted([c for c, alive in zip(contrib, live) if alive])
        if len(reached) < 2:
            contested = []
            self.upto = [0] * len(contrib)
        elif reached[0] == reached[-1]:   # the usual case: one pot, every live player in it
            self.upto = [1 if c >= reached[0] else 0 for c in contrib]
            contested = reached[:1]
        else:
            second = reached[-2]
            contested = sorted({c for c in reached if c <= second})
            self.upto = [bisect_right(contested, c) for c in contrib]
        self.best_high = [-1] * len(contested)
        self.best_low = [-1] * len(contested)
        self.high = high
        self.low = low

    def copy(self) -> ShowdownState:
        """An independent copy: the hand replaces its showdown state rather than edit it,
        so that undo records and copies of the hand can share the old one."""
        other = object.__new__(ShowdownState)
        other.upto, other.high, other.low = self.upto, self.high, self.low
        other.best_high, other.best_low = self.best_high[:], self.best_low[:]
        return other

    def can_win(self, player: int) -> bool:
        """Whether ``player`` could still win or tie part of a contested pot they are in."""
        mine_high = self.high[player]
        mine_low = self.low[player] if self.low is not None else 0
        best_high, best_low = self.best_high, self.best_low
        for k in range(self.upto[player]):
            if best_high[k] < 0 or mine_high >= best_high[k]:
                return True
            if mine_low and mine_low >= best_low[k]:
                return True
        return False

    def decide(self, order: list[int], forced: Sequence[bool], *, stop_at_choice: bool
               ) -> list[tuple[int, bool]]:
        """Show or muck the players at the front of ``order`` (removing them), S1.

        A player shows when ``forced`` (all-in) or when they could win; otherwise they muck,
        or, with ``stop_at_choice``, the choice is theirs and they stay at the front.
        Returns ``(player, shown)`` in order. (:meth:`can_win` and :meth:`reveal`, inlined:
        this runs at almost every showdown.)
        """
        out = []
        high, low, upto = self.high, self.low, self.upto
        best_high, best_low = self.best_high, self.best_low
        while order:
            i = order[0]
            mine_high = high[i]
            mine_low = low[i] if low is not None else 0
            show = forced[i]
            if not show:
                for k in range(upto[i]):
                    top = best_high[k]
                    if top < 0 or mine_high >= top or (mine_low and mine_low >= best_low[k]):
                        show = True
                        break
            if show:
                for k in range(upto[i]):
                    if mine_high > best_high[k]:
                        best_high[k] = mine_high
                    if mine_low > best_low[k]:
                        best_low[k] = mine_low
            elif stop_at_choice:
                break
            del order[0]
            out.append((i, show))
        return out

    def reveal(self, player: int) -> None:
        """Record that ``player`` showed their hand."""
        mine_high = self.high[player]
        mine_low = self.low[player] if self.low is not None else 0
        best_high, best_low = self.best_high, self.best_low
        for k in range(self.upto[player]):
            best_high[k] = max(best_high[k], mine_high)
            best_low[k] = max(best_low[k], mine_low)


def uncalled(contrib: Sequence[int]) -> int:
    """Chips above the second-largest contribution: a bet nobody matched (P1)."""
    first = second = 0
    for c in contrib:
        if c > first:
            first, second = c, first
        elif c > second:
            second = c
    return first - second


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of a finished hand, by seat.

    ``pots`` are the awarded pots (main first) with their high and low shares; ``payouts``
    what each seat received (winnings plus returned uncalled chips); ``stacks`` the final
    stacks; ``net`` the change over the hand; ``shown``/``mucked`` the showdown; ``rake``
    what the house took. Every field is keyed by seat number, except ``settlement``: the raw
    splitter result (:mod:`omahacore.pots`, whose arrays are indexed by position in ``seats``),
    kept for low-level use and left out of the repr so that what is printed reads one way;
    a big blind ante is dead money in its main pot and its total.
    """

    seats: tuple[int, ...]
    pots: tuple[PotAwarded, ...]
    payouts: dict[int, int]
    returned: dict[int, int]
    stacks: dict[int, int]
    net: dict[int, int]
    shown: dict[int, tuple[Card, ...]]
    mucked: tuple[int, ...]
    rake: int
    settlement: Settlement = field(repr=False)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that won chips from some pot (not counting returned bets), in seat order."""
        won = {seat for pot in self.pots for seat, share in (*pot.high, *pot.low) if share}
        return tuple(seat for seat in self.seats if seat in won)

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form (string seat keys become ``[seat, value]`` pairs)."""
        return {
            "seats": list(self.seats),
            "pots": [pot.to_dict() for pot in self.pots],
            "payouts": [[s, v] for s, v in self.payouts.items()],
            "returned": [[s, v] for s, v in self.returned.items()],
            "stacks": [[s, v] for s, v in self.stacks.items()],
            "net": [[s, v] for s, v in self.net.items()],
            "shown": [[s, format_cards(c)] for s, c in self.shown.items()],
            "mucked": list(self.mucked),
            "rake": self.rake,
            "winners": list(self.winners),
        }


def pot_awarded(settlement: Settlement, index: int, seats: Sequence[int]) -> PotAwarded:
    """Pot ``index`` of the splitter's result as a :class:`PotAwarded` event, by seat."""
    pot = settlement.pots[index]
    return PotAwarded(
        pot=index, amount=pot.amount, rake=pot.rake,
        eligible=tuple([seats[j] for j in pot.eligible]),
        high=tuple([(seats[j], s) for j, s in zip(pot.high_winners, pot.high_shares)]),
        low=tuple([(seats[j], s) for j, s in zip(pot.low_winners, pot.low_shares)]),
    )
