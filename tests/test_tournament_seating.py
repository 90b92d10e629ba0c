"""Seating (N2), the dead button (N3), balancing (N4) and breaking tables (N5), checked
against their rules on random tables (issue 25)."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from omaha.tournament.button import Positions, engine_positions, first_positions, next_positions
from omaha.tournament.seating import (
    balance_move,
    break_moves,
    draw_seats,
    table_to_break,
    tables_needed,
)


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 200), seats=st.integers(2, 10), seed=st.integers(0, 2**32))
def test_n2_the_draw_seats_everyone_once_over_the_fewest_even_tables(players, seats, seed):
    names = [f"p{i}" for i in range(players)]
    tables = draw_seats(names, seats=seats, rng=random.Random(seed))
    assert len(tables) == tables_needed(players, seats) == -(-players // seats)
    seated = [p for t in tables.values() for p in t.values()]
    assert sorted(seated) == sorted(names)
    sizes = [len(t) for t in tables.values()]
    assert max(sizes) - min(sizes) <= 1
    assert all(1 <= s <= seats for t in tables.values() for s in t)


def test_n2_the_draw_is_random_and_repeatable_with_a_seed():
    names = [f"p{i}" for i in range(20)]
    one = draw_seats(names, seats=9, rng=random.Random(5))
    assert one == draw_seats(names, seats=9, rng=random.Random(5))
    assert one != draw_seats(names, seats=9, rng=random.Random(6))


def walk(occupied_by_hand, start):
    """The positions hand after hand for the seats occupied at each hand."""
    positions = first_positions(occupied_by_hand[0], start)
    out = [positions]
    for occupied in occupied_by_hand[1:]:
        positions = next_positions(occupied, positions)
        out.append(positions)
    return out


def test_n3_the_big_blind_moves_one_player_and_the_blinds_follow_dead_or_not():
    seats = {1, 2, 4, 6}
    hands = walk([seats] * 5, 1)
    assert [p.big for p in hands] == [4, 6, 1, 2, 4]
    assert all(b.small == a.big and b.button == a.small for a, b in itertools.pairwise(hands))
    # the big blind busts: next hand has a dead small blind on its empty seat
    after = next_positions({1, 2, 6}, Positions(button=1, small=2, big=4))
    assert after == Positions(button=2, small=4, big=6) and 4 not in {1, 2, 6}
    # the small blind busts: a dead button
    after = next_positions({1, 4, 6}, Positions(button=1, small=2, big=4))
    assert after == Positions(button=2, small=4, big=6)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(3, 10))
def test_n3_nobody_pays_the_big_blind_twice_in_a_row_or_skips_it(seed, seats):
    rng = random.Random(seed)
    occupied = set(rng.sample(range(1, seats + 1), rng.randint(3, seats)))
    positions = first_positions(occupied, min(occupied))
    owed = set(occupied) - {positions.big}   # who has yet to pay since their last big blind
    for _ in range(30):
        if len(occupied) > 3 and rng.random() < 0.2:   # someone busts
            gone = rng.choice(sorted(occupied))
            occupied.discard(gone)
            owed.discard(gone)
        nxt = next_positions(occupied, positions)
        assert nxt.big != positions.big or positions.big not in occupied
        assert nxt.big in occupied
        # no one is skipped: the new big blind is the first occupied seat after the last
        later = [s for s in sorted(occupied) if s > positions.big] or sorted(occupied)
        assert nxt.big == later[0]
        positions = nxt


def test_n3_heads_up_the_button_posts_the_small_blind_and_the_big_blind_alternates():
    hands = walk([{2, 5, 7}, {2, 7}, {2, 7}, {2, 7}], 2)
    assert hands[0] == Positions(2, 5, 7)
    assert [(p.button, p.small, p.big) for p in hands[1:]] == [(7, 7, 2), (2, 2, 7), (7, 7, 2)]


def test_n3_the_engine_button_reproduces_the_dead_button_order():
    # a live small blind: the engine's button is the player just before it
    assert engine_positions(Positions(button=3, small=4, big=6), [1, 4, 6]) == (1, True)
    # a dead small blind: one blind, the engine's button just before the big blind
    assert engine_positions(Positions(button=2, small=4, big=6), [1, 2, 6]) == (2, False)
    assert engine_positions(Positions(button=7, small=7, big=2), [2, 7]) == (7, True)


def test_n4_the_next_big_blind_moves_to_the_worst_seat_of_the_shortest_table():
    tables = {1: {1: "a", 2: "b", 3: "c", 4: "d", 5: "e"}, 2: {1: "f", 5: "g", 6: "h"}}
    move = balance_move(tables, 1, seats=6, next_big={1: 3, 2: 5}.get)
    assert (move.player, move.to_table) == ("c", 2)
    assert move.to_seat == 2   # the first empty seat from the short table's next big blind
    assert balance_move({1: {1: "a", 2: "b"}, 2: {1: "c"}}, 1, seats=6,
                        next_big={1: 1, 2: None}.get) is None


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 10), tables=st.integers(2, 6))
def test_n5_breaking_a_table_keeps_the_others_within_one_player(seed, seats, tables):
    rng = random.Random(seed)
    players = rng.randint(tables, tables * seats)
    layout = draw_seats([f"p{i}" for i in range(players)], seats=seats, rng=rng)
    # thin the field until it fits one table fewer
    names = [p for t in layout.values() for p in t.values()]
    while len(layout) > 1 and table_to_break(layout, seats=seats) is None:
        victim = rng.choice(names)
        names.remove(victim)
        for seats_of in layout.values():
            for seat, player in list(seats_of.items()):
                if player == victim:
                    del seats_of[seat]
    broken = table_to_break(layout, seats=seats)
    if broken is None:
        return
    assert broken == max(layout)
    for move in break_moves(layout, broken, seats=seats, rng=rng):
        assert move.to_seat not in layout[move.to_table]
        layout[move.to_table][move.to_seat] = move.player
    del layout[broken]
    sizes = [len(t) for t in layout.values()]
    assert max(sizes) <= seats and sum(sizes) == len(names)
    assert table_to_break(layout, seats=seats, order="lowest") in (None, min(layout))
