"""Property tests: compiled pots against the reference on random tables (P1, P2, S2-S4, K1).

Random tables of 2-10 players with contributions drawn from a few shared levels (so side
pots and equal stacks are common), random folds, strengths from tiny ranges (so ties are
common), lows that are often absent and dead money (a big blind ante) that is often there. Every case is checked against the pure-Python
reference and against the invariants money code must keep.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import reference_pots
from omahacore import ArrayError, PotError
from omahacore.pots import Settlement, settle, settle_batch

INT64_MAX = 2**63 - 1


@st.composite
def tables(draw: st.DrawFn, *, max_chips: int = 1000, hilo: bool | None = None,
           n: int | None = None) -> dict[str, Any]:
    n = draw(st.integers(2, 10)) if n is None else n
    levels = draw(st.lists(st.integers(0, max_chips), min_size=1, max_size=4))
    chips = st.one_of(st.sampled_from(levels), st.integers(0, max_chips))
    contributions = draw(st.lists(chips, min_size=n, max_size=n))
    folded = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    folded[draw(st.integers(0, n - 1))] = False  # somebody is left to win
    high = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    use_low = draw(st.booleans()) if hilo is None else hilo
    lows = st.lists(st.sampled_from([0, 0, 1, 2, 3]), min_size=n, max_size=n)
    low = draw(lows) if use_low else None
    order = draw(st.permutations(range(n)))
    dead = draw(st.one_of(st.just(0), st.sampled_from(levels), st.integers(0, max_chips)))
    pots, _ = reference_pots.peel_pots(contributions, folded, dead)
    in_pots = sum(p.amount for p in pots)
    rake = draw(st.one_of(st.just(0), st.integers(0, in_pots))) if in_pots else 0
    return {"contributions": contributions, "folded": folded, "high": high, "low": low,
            "order": list(order), "rake": rake, "dead": dead}


def as_plain(result: Any) -> tuple[Any, ...]:
    pots = tuple((p.amount, p.rake, p.eligible, p.high_winners, p.high_shares, p.low_winners,
                  p.low_shares) for p in result.pots)
    return pots, result.payouts, result.returned, result.rake, result.total


def odd_chips(shares: tuple[int, ...]) -> list[bool]:
    return [s > min(shares) for s in shares] if shares else []


def check_invariants(table: dict[str, Any], s: Settlement) -> None:
    n = len(table["contributions"])
    live = {i for i in range(n) if not table["folded"][i]}
    # chips are conserved exactly: payouts + rake = contributions + dead money
    assert sum(s.payouts) + s.rake == s.total == sum(table["contributions"]) + table["dead"]
    assert s.rake == sum(p.rake for p in s.pots) == table["rake"]
    for i in range(n):
        assert s.payouts[i] == s.returned[i] + sum(p.share_of(i) for p in s.pots)
    for pot in s.pots:
        net = pot.amount - pot.rake
        assert sum(pot.high_shares) + sum(pot.low_shares) == net
        # nobody ineligible wins; nobody wins more than the pot holds
        assert set(pot.eligible) <= live
        assert set(pot.high_winners) | set(pot.low_winners) <= set(pot.eligible)
        assert all(0 <= pot.share_of(p) <= net for p in pot.eligible)
        # each half is split as evenly as chips allow
        for shares in (pot.high_shares, pot.low_shares):
            assert not shares or max(shares) - min(shares) <= 1
        # odd chips: a second one from the same pot only once every low winner has one
        high_odd = {w for w, o in zip(pot.high_winners, odd_chips(pot.high_shares)) if o}
        low_odd = {w for w, o in zip(pot.low_winners, odd_chips(pot.low_shares)) if o}
        if high_odd & low_odd:
            assert set(pot.low_winners) <= high_odd | low_odd
        if pot.low_winners:
            assert sum(pot.high_shares) - sum(pot.low_shares) in (0, 1)


@settings(max_examples=1500, deadline=None)
@given(tables())
def test_compiled_matches_reference_on_random_tables(table: dict[str, Any]) -> None:
    s = settle(**table)
    assert as_plain(s) == as_plain(reference_pots.settle(**table))
    check_invariants(table, s)


@settings(max_examples=300, deadline=None)
@given(tables(max_chips=8, hilo=True))
def test_compiled_matches_reference_with_many_ties(table: dict[str, Any]) -> None:
    s = settle(**table)
    assert as_plain(s) == as_plain(reference_pots.settle(**table))
    check_invariants(table, s)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_compiled_exact_near_the_int64_limit(data: st.DataObject) -> None:
    table = data.draw(tables(max_chips=10))
    n = len(table["contributions"])
    scale = data.draw(st.integers(1, INT64_MAX // (11 * (n + 1))))  # dead money: one more
    table["contributions"] = [c * scale + data.draw(st.integers(0, 9))
                              for c in table["contributions"]]
    table["dead"] *= scale
    pots, _ = reference_pots.peel_pots(table["contributions"], table["folded"], table["dead"])
    in_pots = sum(p.amount for p in pots)
    table["rake"] = data.draw(st.integers(0, in_pots)) if in_pots else 0
    s = settle(**table)
    assert as_plain(s) == as_plain(reference_pots.settle(**table))
    check_invariants(table, s)


@settings(max_examples=500, deadline=None)
@given(tables())
def test_dead_money_only_grows_the_main_pot(table: dict[str, Any]) -> None:
    """Dead money is never returned, cuts no level and lands in the main pot: the pots with
    it are the pots without it, the main pot grown by it (or, with no pots at all, a main
    pot of just the dead money that every live player contests)."""
    with_dead = settle(**{**table, "rake": 0})
    without = settle(**{**table, "rake": 0, "dead": 0})
    live = tuple(i for i, f in enumerate(table["folded"]) if not f)
    assert with_dead.returned == without.returned
    assert with_dead.total == without.total + table["dead"]
    got = [(p.amount, p.eligible) for p in with_dead.pots]
    before = [(p.amount, p.eligible) for p in without.pots]
    if table["dead"] == 0:
        assert got == before
    elif before:
        assert got == [(before[0][0] + table["dead"], before[0][1]), *before[1:]]
    else:
        assert got == [(table["dead"], live)]


@settings(max_examples=200, deadline=None)
@given(tables(), st.integers(0, 10))
def test_order_only_moves_odd_chips(table: dict[str, Any], shift: int) -> None:
    s = settle(**table)
    cut = shift % len(table["order"])
    order = table["order"][cut:] + table["order"][:cut]
    moved = settle(**{**table, "order": order})
    assert [(p.amount, p.eligible, p.high_winners, p.low_winners) for p in s.pots] == \
        [(p.amount, p.eligible, p.high_winners, p.low_winners) for p in moved.pots]
    assert all(abs(a - b) <= 2 * len(s.pots) for a, b in zip(s.payouts, moved.payouts))


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_batch_matches_settle_row_by_row(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 10))
    rows = [data.draw(tables(n=n, hilo=True)) for _ in range(data.draw(st.integers(1, 6)))]
    pay, taken = settle_batch(
        np.array([r["contributions"] for r in rows], np.int64),
        np.array([r["folded"] for r in rows], np.bool_),
        np.array([r["high"] for r in rows], np.int32),
        np.array([r["low"] for r in rows], np.int32),
        order=np.array([r["order"] for r in rows], np.int64),
        rake=np.array([r["rake"] for r in rows], np.int64),
        dead=np.array([r["dead"] for r in rows], np.int64),
    )
    assert pay.shape == (len(rows), n) and taken.tolist() == [r["rake"] for r in rows]
    assert pay.tolist() == [list(settle(**r).payouts) for r in rows]


JUNK = st.one_of(st.integers(-(2**70), 2**70), st.booleans(), st.none(), st.floats(),
                 st.text(max_size=2), st.lists(st.integers(0, 3), max_size=2))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.lists(JUNK, max_size=12), st.lists(st.integers(-3, 70), max_size=12),
                          JUNK), min_size=5, max_size=5),
       st.one_of(st.integers(-5, 2**64), JUNK), st.one_of(st.integers(-5, 2**64), JUNK))
def test_any_input_gives_a_settlement_or_a_pot_error(parts: list[Any], rake: Any,
                                                     dead: Any) -> None:
    contributions, folded, high, low, order = parts
    try:
        s = settle(contributions, folded, high, low, order=order, rake=rake, dead=dead)
    except PotError:
        return
    assert sum(s.payouts) + s.rake == s.total == sum(contributions) + dead


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 4), st.integers(1, 64), st.randoms(use_true_random=False),
       st.sampled_from([10, 2**40, 2**62]))
def test_any_batch_values_give_payouts_or_an_array_error(m: int, n: int, rnd: Any,
                                                         top: int) -> None:
    gen = np.random.default_rng(rnd.getrandbits(32))
    contributions = gen.integers(-1 if rnd.random() < 0.2 else 0, top, (m, n), np.int64)
    folded = gen.random((m, n)) < 0.5
    high = gen.integers(-(2**31), 2**31, (m, n), np.int64).astype(np.int32)
    low = gen.integers(-1 if rnd.random() < 0.2 else 0, 4, (m, n), np.int64).astype(np.int32)
    order = np.array([gen.permutation(n) for _ in range(m)]).reshape(m, n)
    if rnd.random() < 0.2 and m:
        order[0, 0] = gen.integers(-2, n + 2)
    rake = gen.integers(0, 3, m, np.int64)
    dead = gen.integers(-1 if rnd.random() < 0.2 else 0, top, m, np.int64)
    try:
        pay, taken = settle_batch(contributions, folded, high, low, order=order, rake=rake,
                                  dead=dead)
    except ArrayError:
        return
    assert (pay.sum(axis=1) + taken).tolist() == (contributions.sum(axis=1) + dead).tolist()
