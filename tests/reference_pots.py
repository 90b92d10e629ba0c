"""Slow, obviously-correct side pots and awarding, to check ``omahacore.pots`` against.

Written for clarity, not speed, and on purpose by a different route than the compiled
kernel: pots are peeled off one all-in level at a time, Python's big ints do the rake
arithmetic, and odd chips are handed out by sorting winners. Dead money (the big blind
ante) is put in afterwards, into the first pot. Rules: RULES.md P1,
P2, S2, S3, S4, K1, with the readings documented in ``omahacore.pots``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from omahacore.errors import PotError


@dataclass(frozen=True)
class RefPot:
    amount: int
    eligible: tuple[int, ...]
    rake: int = 0
    high_winners: tuple[int, ...] = ()
    high_shares: tuple[int, ...] = ()
    low_winners: tuple[int, ...] = ()
    low_shares: tuple[int, ...] = ()

    def share_of(self, player: int) -> int:
        won = 0
        for winners, shares in ((self.high_winners, self.high_shares),
                                (self.low_winners, self.low_shares)):
            if player in winners:
                won += shares[winners.index(player)]
        return won


@dataclass(frozen=True)
class RefSettlement:
    pots: tuple[RefPot, ...]
    payouts: tuple[int, ...]
    returned: tuple[int, ...]
    rake: int
    total: int


def uncalled_returns(contributions: Sequence[int]) -> list[int]:
    """P1: the top contributor gets back what nobody else matched."""
    returned = [0] * len(contributions)
    by_size = sorted(range(len(contributions)), key=lambda i: contributions[i], reverse=True)
    top = by_size[0]
    second_amount = contributions[by_size[1]] if len(by_size) > 1 else 0
    returned[top] = contributions[top] - second_amount
    return returned


def peel_pots(contributions: Sequence[int], folded: Sequence[bool],
              dead: int = 0) -> tuple[list[RefPot], list[int]]:
    """P1: peel pots off level by level, smallest live stack first; then add dead money."""
    if any(c < 0 for c in contributions):
        raise PotError("negative contribution")
    if dead < 0:
        raise PotError("negative dead money")
    if sum(contributions) + dead > 2**63 - 1:
        raise PotError("more than 2**63 - 1 chips")
    returned = uncalled_returns(contributions)
    remaining = [c - r for c, r in zip(contributions, returned)]
    live = [i for i in range(len(contributions)) if not folded[i]]
    pots: list[RefPot] = []
    if not live:
        if sum(remaining) + dead:
            raise PotError("everyone folded")
        return pots, returned
    while any(remaining[i] > 0 for i in live):
        step = min(remaining[i] for i in live if remaining[i] > 0)
        eligible = tuple(i for i in live if remaining[i] >= step)
        amount = 0
        for i in range(len(remaining)):
            put = min(remaining[i], step)
            amount += put
            remaining[i] -= put
        pots.append(RefPot(amount=amount, eligible=eligible))
    leftover = sum(remaining)  # folded chips above the top live level
    if leftover:
        if pots:
            last = pots[-1]
            pots[-1] = RefPot(amount=last.amount + leftover, eligible=last.eligible)
        else:  # every live player put in nothing: the folded chips are theirs
            pots.append(RefPot(amount=leftover, eligible=tuple(live)))
    return add_dead_money(pots, live, dead), returned


def add_dead_money(pots: list[RefPot], live: list[int], dead: int) -> list[RefPot]:
    """Dead money joins the main pot, the first one peeled off; with no pots at all it is
    the main pot by itself, open to every live player."""
    if not dead:
        return pots
    if pots:
        return [RefPot(amount=pots[0].amount + dead, eligible=pots[0].eligible), *pots[1:]]
    return [RefPot(amount=dead, eligible=tuple(live))]


def rake_per_pot(amounts: Sequence[int], rake: int) -> list[int]:
    """K1: proportional and rounded down, the rest from the main pot onward."""
    total = sum(amounts)
    if rake < 0 or rake > total:
        raise PotError("rake out of range")
    if rake == 0:
        return [0] * len(amounts)
    taken = [rake * amount // total for amount in amounts]
    left = rake - sum(taken)
    for j, amount in enumerate(amounts):
        extra = min(left, amount - taken[j])
        taken[j] += extra
        left -= extra
    assert left == 0
    return taken


def split_half(chips: int, winners: Sequence[int], order: Sequence[int],
               already_odd: set[int]) -> dict[int, int]:
    """S2/S3: equal shares, odd chips in seat order, players without an odd chip first."""
    shares = {w: chips // len(winners) for w in winners}
    in_order = [p for p in order if p in winners]
    in_order.sort(key=lambda p: p in already_odd)  # stable: keeps seat order in each group
    for p in in_order[: chips % len(winners)]:
        shares[p] += 1
    return shares


def award_pot(pot: RefPot, net: int, high: Sequence[int], low: Sequence[int] | None,
              order: Sequence[int]) -> RefPot:
    """S2-S4 for one pot on its own (P2)."""
    eligible = pot.eligible
    if len(eligible) == 1:
        high_shares, low_shares = {eligible[0]: net}, {}
    else:
        best_high = max(high[p] for p in eligible)
        high_winners = [p for p in eligible if high[p] == best_high]
        lows = [low[p] for p in eligible if low is not None and low[p] > 0]
        if lows:
            low_winners = [p for p in eligible if low is not None and low[p] == max(lows)]
            low_half = net // 2
            high_shares = split_half(net - low_half, high_winners, order, set())
            base = (net - low_half) // len(high_winners)
            got_odd = {p for p, share in high_shares.items() if share > base}
            low_shares = split_half(low_half, low_winners, order, got_odd)
        else:
            high_shares, low_shares = split_half(net, high_winners, order, set()), {}
    return RefPot(amount=pot.amount, eligible=eligible, rake=pot.amount - net,
                  high_winners=tuple(sorted(high_shares)),
                  high_shares=tuple(high_shares[p] for p in sorted(high_shares)),
                  low_winners=tuple(sorted(low_shares)),
                  low_shares=tuple(low_shares[p] for p in sorted(low_shares)))


def settle(contributions: Sequence[int], folded: Sequence[bool], high: Sequence[int],
           low: Sequence[int] | None = None, *, order: Sequence[int] | None = None,
           rake: int = 0, dead: int = 0) -> RefSettlement:
    """The whole hand: return, build, rake, award (P1, P2, S2-S4, K1)."""
    n = len(contributions)
    order = list(range(n)) if order is None else list(order)
    if sorted(order) != list(range(n)):
        raise PotError("order is not a permutation")
    if low is not None and any(v < 0 for v in low):
        raise PotError("negative low")
    pots, returned = peel_pots(contributions, folded, dead)
    rakes = rake_per_pot([p.amount for p in pots], rake)
    awarded = tuple(award_pot(p, p.amount - r, high, low, order) for p, r in zip(pots, rakes))
    payouts = tuple(returned[i] + sum(p.share_of(i) for p in awarded) for i in range(n))
    return RefSettlement(pots=awarded, payouts=payouts, returned=tuple(returned), rake=rake,
                         total=sum(contributions) + dead)
