"""Suit isomorphism at a turn spot's chance node (issue 29): where a suit permutation keeps
the board and both ranges, a river it maps onto a smaller one is played as that river with
the hands permuted. The mirrors against a slow search over the 24 suit permutations; the
solve with and without isomorphism (values, best responses, strategies at every node);
against the brute force over the rivers (C1: a card is dealt once); threads; save/load; the
memory it saves; the core's checks of what it is given; 16-bit strategies in the solution."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from omaha.cards import format_cards, parse_cards
from omaha.errors import SolverError
from omaha.solver import Spot, load, solve
from omaha.solver.isomorphism import river_mirrors
from omaha.solver.solution import STEPS
from omahacore.solver import Game
from reference_solver import value
from test_solver import permute, reference_of

TWO_TONE = "Ah Kh 7c 5c"        # d and s swap: 13 rivers mirror others
MONOTONE = "Ah Kh 7h 5h"        # c, d and s permute: 26 rivers mirror others
RAINBOW = "Ah Kd 7c 5s"


def suit_group(board: list[int]) -> list[list[int]]:
    """The card maps of the suit permutations that keep ``board``."""
    out = []
    for suits in itertools.permutations(range(4)):
        sigma = [c - c % 4 + suits[c % 4] for c in range(52)]
        if {sigma[c] for c in board} == set(board):
            out.append(sigma)
    return out


def symmetric_ranges(board: str, n: int, seed: int) -> tuple[dict[str, float], dict[str, float]]:
    """Two ranges each closed under the suit permutations that keep ``board``: ``n`` random
    hands and their images, an image with its hand's weight."""
    cards = [int(c) for c in parse_cards(board)]
    group = suit_group(cards)
    rng = random.Random(seed)
    left = [c for c in range(52) if c not in cards]
    out = []
    for _ in range(2):
        hands: dict[str, float] = {}
        while len(hands) < n:
            hand = rng.sample(left, 4)
            weight = rng.choice([1.0, 0.5, 2.0])
            for sigma in group:
                hands.setdefault(format_cards(sorted(sigma[c] for c in hand)), weight)
        out.append(hands)
    return out[0], out[1]


def spot_of(board: str, ranges: tuple[dict[str, float], dict[str, float]], variant: str = "plo",
            **options: object) -> Spot:
    settings: dict[str, object] = {"pot": 100, "stack": 150, "bets": "pot", "raises": "pot",
                                   "max_raises": 1}
    settings.update(options)
    return Spot(board, ranges[0], ranges[1], variant=variant, **settings)  # type: ignore[arg-type]


def slow_mirrors(spot: Spot) -> dict[int, int]:
    """river -> its canonical river: the smallest card a suit permutation keeping the board
    and both weighted ranges maps it to."""
    keeps = []
    for sigma in suit_group([int(c) for c in spot.board]):
        same = True
        for p in (0, 1):
            have = {tuple(int(c) for c in row): w for row, w in
                    zip(spot.cards(p), spot.weights(p))}
            moved = {tuple(sorted(sigma[c] for c in h)): w for h, w in have.items()}
            same = same and moved == have
        if same:
            keeps.append(sigma)
    canon = {r: min(sigma[r] for sigma in keeps) for r in spot.rivers}
    return {r: c for r, c in canon.items() if c != r}


@pytest.mark.parametrize(("board", "mirrored"), [(TWO_TONE, 13), (MONOTONE, 26), (RAINBOW, 0)])
def test_mirrors_match_a_search_over_the_suit_permutations(board, mirrored):
    spot = spot_of(board, symmetric_ranges(board, 6, 1))
    mirrors = river_mirrors(spot)
    assert {r: m.canon for r, m in mirrors.items()} == slow_mirrors(spot)
    assert len(mirrors) == mirrored
    cards = [spot.cards(p) for p in (0, 1)]
    group = suit_group([int(c) for c in spot.board])
    for river, (canon, perms) in mirrors.items():
        # some sigma taking the canonical river here maps hand perm[i] to hand i, both sides
        assert any(sigma[canon] == river and all(
            sorted(sigma[c] for c in cards[p][perms[p][i]]) == list(cards[p][i])
            for p in (0, 1) for i in range(len(cards[p]))) for sigma in group)
    assert river_mirrors(spot_of(board, symmetric_ranges(board, 6, 1), isomorphism=False)) \
        == {}


def test_ranges_that_are_not_symmetric_get_no_mirrors():
    oop, ip = symmetric_ranges(MONOTONE, 6, 2)
    assert len(river_mirrors(spot_of(MONOTONE, (oop, ip)))) == 26
    lopsided = dict(ip)
    first = next(iter(lopsided))
    lopsided[first] *= 3                    # one hand weighs more than its images
    assert river_mirrors(spot_of(MONOTONE, (oop, lopsided))) == {}
    del lopsided[first]                     # or is missing
    assert river_mirrors(spot_of(MONOTONE, (oop, lopsided))) == {}
    # ranges kept only by the swap of diamonds and spades: on the monotone board that one
    # permutation is left, so only the spade rivers mirror (the diamond ones)
    only = symmetric_ranges(TWO_TONE, 6, 3)
    spot = spot_of(MONOTONE, only)
    assert {r: m.canon for r, m in river_mirrors(spot).items()} == slow_mirrors(spot)
    assert sorted(river_mirrors(spot)) == [c for c in spot.rivers if c % 4 == 3]


def strategies_agree(a, b, tol: float) -> None:  # type: ignore[no-untyped-def]
    for x, y in zip(a.nodes(), b.nodes(), strict=True):
        assert x.history == y.history
        s, t = x.strategy_table(), y.strategy_table()
        assert np.array_equal(np.isnan(s), np.isnan(t)), x.history
        assert np.nanmax(np.abs(s - t), initial=0.0) <= tol, x.history


@pytest.mark.parametrize("variant", ["plo", "plo8"])
@pytest.mark.parametrize("board", [TWO_TONE, MONOTONE])
def test_the_isomorphic_solve_is_the_full_solve(board, variant):
    """The same iterations with and without isomorphism: the same values, exploitability and
    strategy at every node to float rounding (a few iterations: later, a hand whose actions
    are worth the same may tip either way on rounding, see test_solver_turn)."""
    ranges = symmetric_ranges(board, 5, 4)
    on, off = (spot_of(board, ranges, variant, isomorphism=flag) for flag in (True, False))
    assert river_mirrors(on) and not river_mirrors(off)
    a = solve(on, target=0, max_iterations=5)
    b = solve(off, target=0, max_iterations=5)
    # float32 rows: values agree to rounding of about 1e-6 of the pot (100), not 1e-9
    assert a.ev == pytest.approx(b.ev, abs=1e-4)
    assert a.exploitability == pytest.approx(b.exploitability, abs=1e-4)
    strategies_agree(a, b, 1e-5)    # float32 rows: a few roundings of 6e-8 per iteration
    # 10 iterations, not 40: with float32 rows the two walks' roundings (1e-7 of a value, not
    # 1e-16) tip a 16-bit rounding of a tied hand by iteration 20 and the iterates part
    # (the "later" of the docstring comes sooner); values to 1e-6 of the pot (100)
    a = solve(on, target=0, max_iterations=10, storage="16bit")
    b = solve(off, target=0, max_iterations=10, storage="16bit")
    assert a.ev == pytest.approx(b.ev, abs=1e-4)
    assert a.exploitability == pytest.approx(b.exploitability, abs=1e-4)
    strategies_agree(a, b, 2 / STEPS)


def test_permuting_suits_keeps_the_mirrors_and_the_values():
    """Renaming the suits of the board and both ranges: the rivers mirrored are the renamed
    ones, and the values are the same (a few iterations: to float rounding)."""
    perm = {"h": "s", "c": "d", "d": "h", "s": "c"}
    oop, ip = symmetric_ranges(TWO_TONE, 5, 9)
    base = spot_of(TWO_TONE, (oop, ip), "plo8")
    moved = spot_of(permute(TWO_TONE, perm), ({permute(h, perm): w for h, w in oop.items()},
                                               {permute(h, perm): w for h, w in ip.items()}),
                    "plo8")
    assert len(river_mirrors(base)) == len(river_mirrors(moved)) == 13
    a = solve(base, target=0, max_iterations=5)
    b = solve(moved, target=0, max_iterations=5)
    # float32 rows: values agree to rounding of about 1e-6 of the pot (100), not 1e-9
    assert a.ev == pytest.approx(b.ev, abs=1e-4)
    assert a.exploitability == pytest.approx(b.exploitability, abs=1e-4)


def test_the_isomorphic_solve_matches_the_brute_force_over_every_river():
    """The reference plays every river with the solution's strategies (a mirroring river's
    read through its permutation): the same values and best responses."""
    ranges = symmetric_ranges(TWO_TONE, 6, 5)
    spot = spot_of(TWO_TONE, ranges, "plo8")
    solution = solve(spot, target=0, max_iterations=12)
    ref = reference_of(spot, True)
    tables = {n.index: list(np.nan_to_num(n.strategy_table().astype(np.float64)).ravel())
              for n in solution.nodes()}
    ev = [value(ref, p, tables, False) for p in (0, 1)]
    best = [value(ref, p, tables, True) for p in (0, 1)]
    assert solution.ev == pytest.approx(ev, rel=1e-6)
    assert solution.exploitability == pytest.approx((sum(best) - spot.pot) / 2, abs=1e-5)


def test_threads_and_save_load_with_mirrors(tmp_path):
    ranges = symmetric_ranges(MONOTONE, 3, 6)
    spot = spot_of(MONOTONE, ranges)
    one = solve(spot, target=0, max_iterations=5)
    two = solve(spot, target=0, max_iterations=5, threads=2)
    assert one.ev == pytest.approx(two.ev, abs=1e-9)
    strategies_agree(one, two, 1e-6)
    one = solve(spot, target=0, max_iterations=8, storage="16bit")
    river = one.node(("check", "check", "river 2s"))        # 2s mirrors 2c
    assert one.tree.twins[river.index] != river.index
    hand = next(h for h in river.hands if "2s" not in h)
    assert river.strategy(hand) == pytest.approx(
        [float(x) for x in river.strategy_table()[:, river.hands.index(hand)]], abs=1e-7)
    canon = one.node(("check", "check", "river 2c"))         # by symmetry, the same mix
    assert river.frequencies() == pytest.approx(canon.frequencies(), abs=1e-6)
    path = tmp_path / "mono.npz"
    one.save(path)
    again = load(path)
    assert again.spot.isomorphism and len(again._strategies) < sum(1 for _ in one.nodes())
    strategies_agree(one, again, 0.0)


def test_mirrors_save_the_memory_of_their_rivers():
    ranges = symmetric_ranges(MONOTONE, 5, 7)
    needs = []
    for flag in (True, False):
        with pytest.raises(SolverError, match="max_bytes") as info:
            solve(spot_of(MONOTONE, ranges, isomorphism=flag), max_bytes=1000)
        needs.append(int(str(info.value).split("needs ")[1].split(" bytes")[0]
                         .replace(",", "")))
    assert needs[0] < needs[1]


def core_game(weights0: tuple[float, float] = (1.0, 1.0), **options: object) -> Game:
    """A decision (node 0) to a chance node (1) dealing card 0, 1, 4 or 5 (nodes 2-5), each
    a decision of one action to a showdown (6-9); one-card hands 4 and 5 a side. Cards 0
    and 1 are alike for both hands: node 3 may mirror node 2 with the identity."""
    return Game(10, [0, 3, 0, 0, 0, 0, 2, 2, 2, 2], [0] * 10, [1, 2, 6, 7, 8, 9, 0, 0, 0, 0],
                [1, 4, 1, 1, 1, 1, 0, 0, 0, 0], [0] * 10, [0] * 10, 1, bytes([4, 5]),
                bytes([4, 5]), list(weights0), [1, 1], [1, 2], [1, 2],
                deals=[-1, -1, 0, 1, 4, 5, -1, -1, -1, -1], boards=[0] * 10,
                **options)  # type: ignore[arg-type]


MIRROR = {"mirrors": [-1, -1, -1, 2] + [-1] * 6, "sigmas": [-1, -1, -1, 0] + [-1] * 6}


def test_the_core_checks_what_it_is_given():
    plain = core_game()
    plain.run(3)
    good = core_game(**MIRROR, perms0=[0, 1], perms1=[0, 1])
    good.run(3)
    assert good.values() == pytest.approx(plain.values(), abs=1e-12)
    assert good.exploitability() == pytest.approx(plain.exploitability(), abs=1e-12)
    assert good.strategy(2) == plain.strategy(2)
    with pytest.raises(SolverError, match="node: 3 lies under a mirrored"):
        good.strategy(3)
    bad: list[tuple[dict[str, object], str]] = [
        ({"mirrors": [-1, -1, 3, 2] + [-1] * 6, "sigmas": [-1, -1, 0, 0] + [-1] * 6,
          "perms0": [0, 1], "perms1": [0, 1]}, "not an unmirrored sibling"),
        ({"mirrors": [-1] * 6 + [7, -1, -1, -1], "sigmas": [-1] * 6 + [0, -1, -1, -1],
          "perms0": [0, 1], "perms1": [0, 1]}, "only the child of a chance node"),
        ({"mirrors": MIRROR["mirrors"], "sigmas": [-1] * 10}, "sigmas\\[3\\]"),
        ({**MIRROR, "perms0": [0, 0], "perms1": [0, 1]}, "comes twice"),
        ({**MIRROR, "perms0": [0, 1]}, "perms1"),
        ({**MIRROR, "perms0": [0, 1, 0], "perms1": [0, 1]}, "perms0"),
        ({"mirrors": [-1, -1, -1, -1, 2] + [-1] * 5, "sigmas": [-1, -1, -1, -1, 0] + [-1] * 5,
          "perms0": [0, 1], "perms1": [0, 1]}, "differ in holding the card"),
    ]
    for options, match in bad:
        with pytest.raises(SolverError, match=match):
            core_game(**options)
    with pytest.raises(SolverError, match="different weights"):
        core_game((1.0, 2.0), **MIRROR, perms0=[1, 0], perms1=[0, 1])


def test_16bit_solutions_keep_16bit_strategies_that_the_reference_agrees_with():
    """Solved in 16 bits, the solution keeps each probability in 16 bits; the brute force
    playing those strategies finds the values the core reported, to that precision."""
    ranges = symmetric_ranges(RAINBOW, 8, 8)
    spot = spot_of(RAINBOW, ranges)
    solution = solve(spot, target=0, max_iterations=20, storage="16bit")
    assert all(t.dtype == np.uint16 for t in solution._strategies.values())
    ref = reference_of(spot, False)
    tables = {n.index: list(np.nan_to_num(n.strategy_table().astype(np.float64)).ravel())
              for n in solution.nodes()}
    assert solution.ev == pytest.approx([value(ref, p, tables, False) for p in (0, 1)],
                                        abs=1e-3)
    for node in solution.nodes():          # NaN: the hands holding the river card
        table = node.strategy_table()
        live = ~np.isnan(table).any(axis=0)
        assert np.abs(table[:, live].sum(axis=0) - 1).max() <= node.strategy_table().shape[0] \
            / STEPS


def test_a_solution_saved_before_isomorphism_still_loads(tmp_path):
    """Format 1 (no ``isomorphism`` setting, every node's table in float32) reads as a spot
    solved without isomorphism."""
    import json

    spot = spot_of(TWO_TONE, symmetric_ranges(TWO_TONE, 3, 10), isomorphism=False)
    solution = solve(spot, target=0, max_iterations=3)
    path = tmp_path / "new.npz"
    solution.save(path)
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    meta = json.loads(str(arrays["meta"][()]))
    assert meta.pop("format") == "omaha-solution-2" and meta.pop("isomorphism") is False
    arrays["meta"] = np.array(json.dumps({"format": "omaha-solution-1", **meta}))
    old = tmp_path / "old.npz"
    np.savez_compressed(old, **arrays)
    again = load(old)
    assert not again.spot.isomorphism and not river_mirrors(again.spot)
    strategies_agree(solution, again, 0.0)
