"""Equity (C3-C6, S3) against a slow, obviously-correct brute force over the evaluator.

The brute force walks every board completion (and every card-compatible combination of
range hands) in Python, asks the public evaluator for each hand's high and low, and splits
the pot with ``Fraction``s: halves when a low qualifies, each half evenly between its tied
winners. The compiled kernels must agree to 1e-9 on every reported number.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

import omaha
from omaha.analysis.equity import equity

VARIANTS = [omaha.OMAHA_HIGH, omaha.OMAHA_HILO, omaha.FIVE_CARD_OMAHA,
            omaha.FIVE_CARD_OMAHA_HILO, omaha.SIX_CARD_OMAHA, omaha.SIX_CARD_OMAHA_HILO,
            omaha.HOLDEM, omaha.Variant(name="Hold'em hi/lo", hole_cards=2, hand_rule="holdem",
                                        hi_lo=True)]


def strengths(variant, hole, board):
    if variant.hand_rule == "holdem":
        cards = list(hole) + list(board)
        high = omaha.evaluate_best(cards)
        low = omaha.evaluate_best_low(cards) if variant.hi_lo else 0
    else:
        high = omaha.evaluate_high(hole, board)
        low = omaha.evaluate_low(hole, board) if variant.hi_lo else 0
    return high, low


def brute_force(variant, combos, board, dead):
    """Exact (equity, high, low, win, tie, scoop) per player over every deal."""
    n = len(combos[0])
    tot = {k: [Fraction(0)] * n for k in ("equity", "high", "low", "win", "tie", "scoop")}
    deals = 0
    for hands in combos:
        used = set(board) | set(dead) | {c for h in hands for c in h}
        deck = [c for c in range(52) if c not in used]
        for extra in itertools.combinations(deck, 5 - len(board)):
            full = list(board) + list(extra)
            scores = [strengths(variant, h, full) for h in hands]
            best_h = max(s[0] for s in scores)
            best_l = max(s[1] for s in scores)
            hw = [p for p in range(n) if scores[p][0] == best_h]
            lw = [p for p in range(n) if best_l and scores[p][1] == best_l]
            deals += 1
            for p in range(n):
                high = Fraction(1, len(hw)) if p in hw else Fraction(0)
                low = Fraction(1, len(lw)) if p in lw else Fraction(0)
                share = (high + low) / 2 if lw else high
                tot["equity"][p] += share
                tot["high"][p] += high
                tot["low"][p] += low
                alone = hw == [p] or lw == [p]
                tot["win"][p] += alone
                tot["tie"][p] += bool(share) and not alone
                tot["scoop"][p] += hw == [p] and (not lw or lw == [p])
    return {k: [float(x / deals) for x in v] for k, v in tot.items()}, deals


def check(res, expected, deals):
    assert res.exact and res.deals == deals
    for key, values in expected.items():
        assert getattr(res, key) == pytest.approx(values, abs=1e-9), key
    assert sum(res.equity) == pytest.approx(1.0, abs=1e-12)
    assert res.std_error == (0.0,) * len(res.equity)


def random_spot(rng, variant, n, n_board, n_dead):
    deck = list(range(52))
    rng.shuffle(deck)
    nh = variant.hole_cards
    hands = [deck[i * nh:(i + 1) * nh] for i in range(n)]
    rest = deck[n * nh:]
    return hands, rest[:n_board], rest[n_board:n_board + n_dead]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_exact_random_postflop_spots_match_brute_force(variant):
    """C3-C6, S3: 2-6 players, boards of 3, 4 and 5 cards, dead cards."""
    rng = random.Random(hash(variant.name) & 0xFFFF)
    for trial in range(9):
        n = rng.randint(2, min(6, (47 - 4) // variant.hole_cards))
        n_board = (5, 4, 3)[trial % 3]
        n_dead = rng.randint(0, 3) if n_board > 3 else rng.randint(8, 16)
        n_dead = min(n_dead, 52 - n * variant.hole_cards - 5)
        hands, board, dead = random_spot(rng, variant, n, n_board, n_dead)
        expected, deals = brute_force(variant, [hands], board, dead)
        res = equity(hands, board=board, dead=dead, variant=variant)
        check(res, expected, deals)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_exact_preflop_spots_with_few_cards_left_match_brute_force(variant):
    """The five-level preflop enumeration (rank-multiset counting, flush re-evaluation)."""
    rng = random.Random(7 + variant.hole_cards)
    for _ in range(3):
        n = rng.randint(2, 4)
        left = rng.randint(7, 9)
        hands, _, dead = random_spot(rng, variant, n, 0, 52 - n * variant.hole_cards - left)
        expected, deals = brute_force(variant, [hands], [], dead)
        check(equity(hands, dead=dead, variant=variant), expected, deals)


def test_exact_preflop_flush_heavy_spot_matches_brute_force():
    """Only spades, hearts and a few low cards left: most boards need the flush path (C4)."""
    hands = [[omaha.Card(c) for c in ("As", "Ks", "2h", "3h")],
             [omaha.Card(c) for c in ("Qs", "Js", "Qh", "4d")]]
    keep = {int(omaha.Card(c)) for c in ("Ts", "9s", "8s", "5s", "Th", "5h", "6c", "7d", "Ah")}
    used = {int(c) for h in hands for c in h}
    dead = [c for c in range(52) if c not in keep and c not in used]
    for variant in (omaha.OMAHA_HIGH, omaha.OMAHA_HILO):
        expected, deals = brute_force(variant, [hands], [], dead)
        check(equity(hands, dead=dead, variant=variant), expected, deals)


@pytest.mark.parametrize("variant", [omaha.OMAHA_HILO, omaha.HOLDEM], ids=lambda v: v.name)
def test_exact_ranges_weigh_every_compatible_combination_equally(variant):
    """Range equity: every card-compatible combination of range hands, every board."""
    rng = random.Random(3)
    nh = variant.hole_cards
    deck = list(range(52))
    for _ in range(3):
        rng.shuffle(deck)
        board = deck[:4]
        pool = deck[4:4 + nh + 3]
        ranges = []
        for _ in range(2):
            hands = sorted({tuple(sorted(rng.sample(pool, nh))) for _ in range(4)})
            ranges.append(hands)
        text = [",".join(omaha.format_cards(h) for h in r) for r in ranges]
        combos = [c for c in itertools.product(*ranges)
                  if len({x for h in c for x in h}) == 2 * nh]
        if not combos:
            continue
        expected, deals = brute_force(variant, combos, board, [])
        res = equity(text, board=board, variant=variant)
        check(res, expected, deals)


def test_monte_carlo_is_within_a_few_standard_errors_of_exact():
    hands = ["AsAh2d3c", "KsKhQdJc", "9h8h7s6s"]
    exact = equity(hands, variant=omaha.OMAHA_HILO)
    sampled = equity(hands, variant=omaha.OMAHA_HILO, samples=300_000, seed=11)
    assert not sampled.exact and sampled.deals == 300_000
    for e, s, se in zip(exact.equity, sampled.equity, sampled.std_error):
        assert 0 < se < 0.002
        assert abs(e - s) < 4 * se


def test_monte_carlo_with_ranges_matches_exact_ranges():
    board = "Kd7c4h2s"
    entries = ["AA**:$ds", "KK**:$ds"]
    exact = equity(entries, board=board, variant=omaha.OMAHA_HILO, exact=True)
    sampled = equity(entries, board=board, variant=omaha.OMAHA_HILO, samples=200_000, seed=2)
    for e, s, se in zip(exact.equity, sampled.equity, sampled.std_error):
        assert abs(e - s) < 4 * se


def test_monte_carlo_any_hand_matches_exact_enumeration_of_all_hands():
    """'****' is dealt from the cards left: the same as enumerating every opponent hand."""
    board, hero = omaha.parse_cards("Kd7c4h2s9d"), omaha.parse_cards("AsAh2d3c")
    rng = random.Random(8)
    rest = [c for c in range(52) if c not in board + hero]
    rng.shuffle(rest)
    dead, left = rest[:30], rest[30:]
    sampled = equity([hero, "****"], board=board, dead=dead, variant=omaha.OMAHA_HILO,
                     samples=200_000, seed=4)
    opponents = ",".join(omaha.format_cards(h) for h in itertools.combinations(left, 4))
    exact = equity([hero, opponents], board=board, dead=dead, variant=omaha.OMAHA_HILO)
    assert exact.exact and exact.deals == 715
    assert abs(exact.equity[0] - sampled.equity[0]) < 4 * sampled.std_error[0]


def test_seeded_results_do_not_depend_on_threads():
    hands = ["AsAh2d3c", "****"]
    one = equity(hands, samples=100_000, seed=9, threads=1)
    three = equity(hands, samples=100_000, seed=9, threads=3)
    assert one == three
    assert equity(hands, samples=100_000, seed=10) != one
    ranges = ["AA**:$ds", "KK**", "****"]       # the rejection path for multi-hand ranges
    assert equity(ranges, samples=40_000, seed=9) == equity(ranges, samples=40_000, seed=9,
                                                             threads=2)


def test_exact_threads_split_range_combinations():
    entries = ["AKQ*:$ds", "T98*:$ds"]
    one = equity(entries, board="Qd7c4h2s", variant=omaha.OMAHA_HILO, exact=True)
    two = equity(entries, board="Qd7c4h2s", variant=omaha.OMAHA_HILO, exact=True, threads=2)
    assert one == two


def test_exact_agrees_with_poker_equity_when_installed():
    pe = pytest.importorskip("poker_equity")
    rng = random.Random(5)
    keys = {omaha.OMAHA_HIGH: "omaha", omaha.OMAHA_HILO: "omaha_hi_lo",
            omaha.FIVE_CARD_OMAHA: "omaha_five", omaha.HOLDEM: "holdem"}
    for variant, key in keys.items():
        for n_board in (3, 4, 5):
            hands, board, _ = random_spot(rng, variant, 3, n_board, 0)
            ours = equity(hands, board=board, variant=variant)
            theirs = pe.exact_from_text(key, [omaha.format_cards(h) for h in hands],
                                        board=omaha.format_cards(board))
            got = [p["equity"] for p in theirs["players"]]
            assert ours.equity == pytest.approx(got, abs=1e-9)
