"""Places and prizes of eliminated players (N7, N8): omaha.tournament.places.

Players eliminated in one hand are placed by their stacks at the start of it, more chips
placing higher; equal stacks tie and share the tied places' prizes, the odd chips one each in
the caller's (seating-draw) order; the prizes paid sum to the prize table.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omaha.errors import TournamentError, TournamentTypeError
from omaha.tournament import Payouts, award, place_eliminations


def test_n7_one_player_takes_the_worst_open_place():
    assert place_eliminations({"a": 100}, next_place=9) == {"a": (9, 9)}
    assert place_eliminations({"a": 100}, next_place=2) == {"a": (2, 2)}
    assert place_eliminations({}, next_place=5) == {}


def test_n7_players_busted_together_are_placed_by_starting_stack():
    # 5 players remain; 2 bust in the same hand: they take places 5 and 4, more chips higher.
    assert place_eliminations({"short": 50, "tall": 80}, next_place=5) == {
        "tall": (4, 4), "short": (5, 5)}
    got = place_eliminations({"a": 10, "b": 30, "c": 20}, next_place=3)
    assert got == {"b": (1, 1), "c": (2, 2), "a": (3, 3)}
    assert list(got) == ["b", "c", "a"]   # best first


def test_n7_equal_stacks_tie_and_share_the_range():
    got = place_eliminations({"a": 300, "b": 120, "c": 300, "d": 500}, next_place=10)
    assert got == {"d": (7, 7), "a": (8, 9), "c": (8, 9), "b": (10, 10)}
    assert place_eliminations({"x": 5, "y": 5, "z": 5}, next_place=3) == {
        "x": (1, 3), "y": (1, 3), "z": (1, 3)}


@given(st.dictionaries(st.integers(0, 50), st.integers(1, 6), max_size=12), st.integers(0, 30))
def test_n7_places_fill_the_worst_open_range_exactly(busted, extra):
    next_place = len(busted) + extra
    places = place_eliminations(busted, next_place)
    assert set(places) == set(busted)
    counted = sorted(p for lo, hi in set(places.values()) for p in range(lo, hi + 1))
    assert counted == list(range(next_place - len(busted) + 1, next_place + 1))
    for a in busted:
        for b in busted:
            if busted[a] > busted[b]:
                assert places[a][1] < places[b][0]
            if busted[a] == busted[b]:
                assert places[a] == places[b]
            if places[a] == places[b]:
                lo, hi = places[a]
                assert hi - lo + 1 == sum(1 for s in busted.values() if s == busted[a])


@pytest.mark.parametrize(("busted", "next_place", "match", "error"), [
    ({"a": 0}, 5, r"busted\['a'\] must be at least 1", TournamentError),
    ({"a": -3}, 5, r"busted\['a'\] must be at least 1", TournamentError),
    ({"a": 1.5}, 5, r"busted\['a'\] must be an integer", TournamentTypeError),
    ({"a": True}, 5, r"busted\['a'\] must be an integer", TournamentTypeError),
    ({"a": 10, "b": 20}, 1, "next_place must be at least 2", TournamentError),
    ({"a": 10}, 0, "next_place must be at least 1", TournamentError),
    ({"a": 10}, 2.0, "next_place must be an integer", TournamentTypeError),
    ([("a", 10)], 2, "busted: must map players to stacks", TournamentError),
])
def test_n7_bad_eliminations_are_refused(busted, next_place, match, error):
    with pytest.raises(error, match=match) as info:
        place_eliminations(busted, next_place)
    assert info.value.rule == "N7"


def test_n8_award_pays_each_place_and_zero_past_the_paid_places():
    places = {"w": (1, 1), "x": (2, 2), "y": (3, 3), "z": (4, 4)}
    assert award(places, [500, 300, 200], order=[]) == {"w": 500, "x": 300, "y": 200, "z": 0}
    assert award({"z": (40, 40)}, [500, 300, 200], order=[]) == {"z": 0}


def test_n7_tied_players_share_the_tied_places_prizes_odd_chips_in_draw_order():
    # Places 2 and 3 tie: (300 + 201) = 501 split two ways: 250 each, one odd chip.
    places = {"w": (1, 1), "x": (2, 3), "y": (2, 3)}
    assert award(places, [500, 300, 201], order=["y", "w", "x"]) == {
        "w": 500, "x": 250, "y": 251}
    assert award(places, [500, 300, 201], order=["x", "y"]) == {"w": 500, "x": 251, "y": 250}
    # Three tied for 2-4 sharing 300 + 200 + 101 = 601 -> 200 each and one odd chip.
    places = {"w": (1, 1), "a": (2, 4), "b": (2, 4), "c": (2, 4)}
    assert award(places, [1000, 300, 200, 101], order=["c", "b", "a"]) == {
        "w": 1000, "a": 200, "b": 200, "c": 201}
    # Two odd chips: the first two in the order get one each.
    assert award({"a": (1, 3), "b": (1, 3), "c": (1, 3)}, [5, 3, 1],
                 order=["b", "c", "a"]) == {"a": 3, "b": 3, "c": 3}
    assert award({"a": (1, 3), "b": (1, 3), "c": (1, 3)}, [6, 3, 1],
                 order=["b", "c", "a"]) == {"a": 3, "b": 4, "c": 3}


def test_n7_a_tie_straddling_the_bubble_shares_what_the_paid_places_pay():
    # Places 3 and 4 tie and only 3 places pay: they share place 3's prize.
    places = {"a": (3, 4), "b": (3, 4)}
    assert award(places, [600, 300, 101], order=["b", "a"]) == {"a": 50, "b": 51}


@given(st.lists(st.integers(1, 4), min_size=1, max_size=20), st.data())
def test_n7_n8_every_place_awarded_pays_exactly_the_prize_table(stacks, data):
    # A whole tournament's eliminations: one hand at a time, all placed; prizes sum exactly.
    players = [f"p{k}" for k in range(len(stacks) + 1)]
    draw = data.draw(st.permutations(players))
    places: dict[str, tuple[int, int]] = {}
    remaining = list(players)
    next_place = len(players)
    while len(remaining) > 1:
        count = data.draw(st.integers(1, len(remaining) - 1))
        busted = {p: data.draw(st.integers(1, 4)) for p in remaining[:count]}
        places.update(place_eliminations(busted, next_place))
        remaining = remaining[count:]
        next_place -= count
    places[remaining[0]] = (1, 1)
    pool = data.draw(st.integers(0, 10**6))
    tables = [(1000,), (650, 350), (500, 300, 200), (400, 250, 150, 100, 100)]
    shares = data.draw(st.sampled_from([t for t in tables if len(t) <= len(players)]))
    prizes = Payouts(shares=shares).prizes(pool)
    paid = award(places, prizes, order=draw)
    assert sum(paid.values()) == pool
    assert set(paid) == set(players)
    for a in players:   # a better place never wins less; tied players differ by at most 1
        for b in players:
            if places[a][1] < places[b][0]:
                assert paid[a] >= paid[b]
            if places[a] == places[b]:
                assert abs(paid[a] - paid[b]) <= 1
                if draw.index(a) < draw.index(b):
                    assert paid[a] >= paid[b]


@pytest.mark.parametrize(("places", "prizes", "order", "match", "rule"), [
    ({"a": (1, 2)}, [10, 5], ["a"], "places: 1 players share places 1-2, which is 2", "N7"),
    ({"a": (1, 1), "b": (1, 2), "c": (1, 2)}, [10, 5], ["b", "c"], "overlap", "N7"),
    ({"a": (2, 1)}, [10], [], r"places\['a'\]\[1\] must be at least 2", "N7"),
    ({"a": (0, 0)}, [10], [], r"places\['a'\]\[0\] must be at least 1", "N7"),
    ({"a": 1}, [10], [], r"places\['a'\]: must be \(best, worst\)", "N7"),
    ({"a": (1, 2, 3)}, [10], [], r"places\['a'\]: must be \(best, worst\)", "N7"),
    ({"a": (1, 2), "b": (1, 2)}, [3, 2], ["a"], "order: tied player 'b' is not in it", "N7"),
    ({"a": (1, 1)}, [-1], [], r"prizes\[0\] must be at least 0", "N8"),
    ({"a": (1, 1)}, "10", [], "prizes: must be a list", "N8"),
    ({"a": (1, 1)}, [2**62, 2**62], [], "prizes: sum to", "N8"),
    ([("a", (1, 1))], [10], [], "places: must map players", "N7"),
])
def test_n7_bad_awards_are_refused(places, prizes, order, match, rule):
    with pytest.raises(TournamentError, match=match) as info:
        award(places, prizes, order)
    assert info.value.rule == rule


def test_n8_prizes_must_be_ints():
    with pytest.raises(TournamentTypeError, match=r"prizes\[1\] must be an integer"):
        award({"a": (1, 1)}, [10, 2.5], [])
    with pytest.raises(TournamentTypeError, match=r"places\['a'\]\[0\] must be an integer"):
        award({"a": (True, 1)}, [10], [])
