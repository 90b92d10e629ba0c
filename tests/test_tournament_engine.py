"""Whole tournaments between bots (issue 25): Hypothesis over field sizes, seats, structures
and seeds holds the invariants of N1-N8 — chips conserved (N1), every player placed exactly
once (N7), a table never left two players above the shortest after its hand (N4), tables
broken as soon as the field fits one fewer (N5), hand for hand dealing one hand per table
per round at the bubble (N6), prizes summing to the pool (N8) — and snapshots resume
exactly."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omaha.errors import TournamentError
from omaha.game.bots import BOTS
from omaha.tournament import Level, Payouts, Structure, Tournament
from omaha.tournament.seating import tables_needed


def structure(seats: int, stack: int = 300, shares=None, *, per_level: int = 3,
              ante: bool = False, variant: str = "plo") -> Structure:
    levels = tuple(Level(small_blind=5 * 2 ** i, big_blind=10 * 2 ** i, hands=per_level,
                         big_blind_ante=10 * 2 ** i if ante and i else 0)
                   for i in range(8))
    return Structure(levels=levels, starting_stack=stack, seats=seats, variant=variant,
                     payouts=None if shares is None else Payouts(shares=shares))


class Watched(Tournament):
    """A tournament that checks N4/N5 after every rearrangement and counts hands per round."""

    def _rearrange(self, table):
        super()._rearrange(table)
        counts = [len(t) for t in self.tables.values()]
        assert max(counts) <= min(counts) + 1, self.tables  # N4: after every round's hands
        remaining = len(self.remaining)
        assert len(self.tables) == tables_needed(remaining, self.structure.seats) or \
            len(self.tables) == 1  # N5: broken as soon as the field fits one fewer


def run(players: int, seats: int, seed: int, **options):
    dealt: Counter[tuple[int, int]] = Counter()
    tour: Watched

    def on_hand(table, hand):
        dealt[(tour.rounds, table)] += 1

    tour = Watched(structure(seats, **options), [f"p{i}" for i in range(players)],
                   rng=random.Random(seed), bots=BOTS["random"](), on_hand=on_hand)
    total = sum(tour.stacks.values())
    while not tour.is_over:
        tour.play_round()
        assert sum(tour.stacks.values()) == total                      # N1
        assert all(tour.stacks[p] > 0 for p in tour.remaining)         # N7
    return tour, dealt


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 40), seats=st.integers(2, 10), seed=st.integers(0, 2**32),
       stack=st.integers(50, 3000), per_level=st.integers(1, 6), ante=st.booleans(),
       variant=st.sampled_from(["plo", "plo8", "5plo"]),
       shares=st.sampled_from([None, (1000,), (650, 350), (500, 300, 200)]))
def test_tournaments_hold_every_invariant(players, seats, seed, stack, per_level, ante,
                                          variant, shares):
    if shares is not None and len(shares) > players or seats * 5 + 8 > 52 and variant == "5plo":
        return   # more places paid than players; a 5-card game deals 9 players at most
    tour, dealt = run(players, seats, seed, stack=stack, shares=shares, per_level=per_level,
                      ante=ante, variant=variant)
    assert max(dealt.values()) == 1          # N6: at most one hand per table per round
    # N7: every player placed once; the places, ties spread, are exactly 1..players
    covered = Counter()
    for high, low in tour.places.values():
        assert 1 <= high <= low <= players
        for place in range(high, low + 1):
            covered[place] += 1
    assert set(covered) == set(range(1, players + 1))
    ties = Counter(tour.places.values())
    assert all(count == low - high + 1 for (high, low), count in ties.items())
    assert sum(tour.prizes.values()) == tour.prize_pool                # N8
    winner = [p for p, (high, _) in tour.places.items() if high == 1]
    assert len(winner) == 1 and tour.stacks[winner[0]] == sum(tour.stacks.values())
    kinds = Counter(e["type"] for e in tour.events)
    assert kinds["seated"] == players and kinds["eliminated"] == players - 1


def test_n6_the_bubble_round_deals_every_table_once_and_its_eliminations_together():
    for seed in range(40):
        tour, dealt = run(30, 6, seed,   # ten paid: the bubble (11 left) is at two tables
                          shares=(200, 150, 120, 100, 90, 80, 70, 70, 60, 60))
        bubble = [e for e in tour.events if e["type"] == "hand_for_hand"]
        if bubble:
            rounds = {e["round"] for e in bubble}
            busted = [e for e in tour.events if e["type"] == "eliminated" and e["round"] in rounds]
            assert all(e["place"] <= 11 for e in busted)
            assert all(dealt[(r, t)] <= 1 for r in rounds for t in range(1, 6))
            return
    pytest.fail("no bubble reached hand for hand in 40 tournaments")


def test_a_snapshot_between_rounds_resumes_the_same_tournament():
    one = Tournament(structure(6), [f"p{i}" for i in range(20)], rng=random.Random(3),
                     bots=BOTS["random"]())
    for _ in range(7):
        one.play_round()
    saved = json.loads(json.dumps(one.snapshot()))
    two = Tournament.restore(saved, bots=BOTS["random"]())
    one.run()
    two.run()
    assert (one.places, one.prizes, one.hands) == (two.places, two.prizes, two.hands)


def test_a_snapshot_that_lost_chips_is_refused():
    tour = Tournament(structure(6), [f"p{i}" for i in range(8)], rng=random.Random(1),
                      bots=BOTS["random"]())
    data = tour.snapshot()
    data["stacks"]["p0"] -= 1
    with pytest.raises(TournamentError, match="stacks"):
        Tournament.restore(data)


@pytest.mark.parametrize("entrants", [[], ["solo"], ["a", "a"], ["a", ""]])
def test_entrants_are_checked(entrants):
    with pytest.raises(TournamentError, match="entrants"):
        Tournament(structure(6), entrants, rng=random.Random(1))


def test_n1_levels_in_seconds_follow_the_injected_clock_and_breaks_deal_nothing():
    now = [0.0]
    levels = (Level(10, 20, seconds=60), Level(0, 0, seconds=30, is_break=True),
              Level(20, 40, seconds=60))
    tour = Tournament(Structure(levels=levels, starting_stack=1000, seats=6),
                      [f"p{i}" for i in range(12)], rng=random.Random(4),
                      bots=BOTS["random"](), clock=lambda: now[0])
    tour.play_round()
    assert tour.level == 0 and tour.hands == 2
    now[0] = 70.0                                   # the break: a round deals no hand
    hands = tour.hands
    tour.play_round()
    assert tour.level == 1 and tour.hands == hands
    now[0] = 95.0
    tour.play_round()
    assert tour.level == 2
    levels_seen = [e["big_blind"] for e in tour.events if e["type"] == "level"]
    assert levels_seen == [20, 0, 40]


def test_n1_a_new_level_applies_from_the_next_hand_dealt():
    seen = []
    tour = Tournament(structure(6, stack=10**6), [f"p{i}" for i in range(2)],
                      rng=random.Random(2), bots={"p0": BOTS["random"](), "p1": _Caller()},
                      on_hand=lambda t, h: seen.append(h.config.big_blind))
    for _ in range(7):
        tour.play_round()
    assert seen == [10, 10, 10, 20, 20, 20, 40]   # three hands a level, from the next hand


class _Caller:
    """Checks or calls, never more: deep stacks last."""

    def decide(self, situation, rng):
        from omaha.game.bots import Decision
        legal = situation.legal
        return Decision("check" if legal.can_check else "call" if legal.can_call else "fold")


def test_a_snapshot_in_the_middle_of_a_round_resumes_with_the_hands_in_play():
    """What the server stores after each finished hand: the tournament mid-round, and each
    hand still in play as its own snapshot; both restored finish the round as the original."""
    from omaha.game.hand import Hand

    one = Tournament(structure(4), [f"p{i}" for i in range(11)], rng=random.Random(8),
                     bots=BOTS["random"]())
    for _ in range(3):
        one.play_round()
    hands = one.deal_round()
    assert len(hands) == 3
    first = min(hands)
    one.play_hand(first, hands[first])
    one.finish_hand(first, hands.pop(first))
    saved = json.loads(json.dumps(one.snapshot()))
    in_play = {t: json.loads(json.dumps(h.snapshot())) for t, h in hands.items()}
    two = Tournament.restore(saved, bots=BOTS["random"]())
    assert two.round_open and sorted(two.playing) == sorted(hands)
    with pytest.raises(TournamentError, match="still in a hand"):
        two.end_round()
    for table, data in in_play.items():
        mine, theirs = hands[table], Hand.restore(data)
        for hand in (mine, theirs):
            rng = random.Random(table)   # the same actions at both
            while not hand.is_over:
                hand.fold() if rng.random() < 0.3 and hand.legal_actions().can_fold \
                    else hand.check_or_call()
        assert mine.stacks == theirs.stacks
        one.finish_hand(table, mine)
        two.finish_hand(table, theirs)
    one.end_round()
    two.end_round()
    assert (one.stacks, one.places, one.tables) == (two.stacks, two.places, two.tables)


def test_a_round_is_dealt_once_and_finished_hands_are_checked():
    tour = Tournament(structure(6), [f"p{i}" for i in range(8)], rng=random.Random(2),
                      bots=BOTS["random"]())
    hands = tour.deal_round()
    with pytest.raises(TournamentError, match="round is in play"):
        tour.deal_round()
    table, hand = next(iter(hands.items()))
    with pytest.raises(TournamentError, match="not a finished hand"):
        tour.finish_hand(table, hand)   # still in play
    tour.play_hand(table, hand)
    tour.finish_hand(table, hand)
    with pytest.raises(TournamentError, match="not a finished hand"):
        tour.finish_hand(table, hand)   # twice


def test_a_finished_tournament_snapshot_restores():
    one = Tournament(structure(6), [f"p{i}" for i in range(7)], rng=random.Random(5),
                     bots=BOTS["random"]())
    one.run()
    two = Tournament.restore(json.loads(json.dumps(one.snapshot())))
    assert two.is_over and (two.places, two.prizes) == (one.places, one.prizes)


# --- N2: late entries and re-entries -------------------------------------------------------

def late_structure(seats: int, late: int, again: int, stack: int = 300) -> Structure:
    levels = tuple(Level(small_blind=5 * 2 ** i, big_blind=10 * 2 ** i, hands=2)
                   for i in range(8))
    return Structure(levels=levels, starting_stack=stack, seats=seats, late_entry_levels=late,
                     re_entries=again, payouts=Payouts(shares=(650, 350)))


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 14), seats=st.integers(2, 7), late=st.integers(1, 4),
       again=st.integers(0, 2), seed=st.integers(0, 2**32), newcomers=st.integers(0, 12))
def test_n2_late_entries_and_re_entries_keep_every_invariant(players, seats, late, again,
                                                             seed, newcomers):
    """Between rounds, while late entries are open, newcomers enter and busted players enter
    again (as ``name#2``, ...) when the structure allows; then chips are conserved over the
    grown field, every entry is placed once (1..N of the final field), entries busted
    during late entries are placed at the close in the order they busted, and the prizes
    are the final field's."""
    rng = random.Random(seed)
    tour = Tournament(late_structure(seats, late, again), [f"p{i}" for i in range(players)],
                      rng=random.Random(seed), bots=BOTS["random"]())
    waiting = [f"n{i}" for i in range(newcomers)]
    busted_groups: list[dict[str, int]] = []
    fresh_out: list[dict[str, int]] = []   # busted in the last round
    while not tour.is_over:
        if tour.late_open:
            if waiting and rng.random() < 0.6:
                tour.enter(waiting.pop())
            for entry in [p for group in fresh_out for p in sorted(group)]:
                base = entry.split("#")[0]
                if tour.entries_of[base] <= again and rng.random() < 0.7:
                    again_entry = tour.enter(base)
                    assert again_entry == f"{base}#{tour.entries_of[base]}"
        else:
            with pytest.raises(TournamentError, match="closed"):
                tour.enter("latecomer")
        before = len(tour.late_out)
        tour.play_round()
        fresh_out = tour.late_out[before:]
        busted_groups += fresh_out
        assert sum(tour.stacks.values()) == 300 * len(tour.entrants)               # N1
        counts = [len(t) for t in tour.tables.values()]
        assert max(counts) <= min(counts) + 1                                         # N4
    field = len(tour.entrants)
    groups = Counter(tour.places.values())
    assert all(count == low - high + 1 for (high, low), count in groups.items())     # N7
    covered = sorted(p for high, low in groups for p in range(high, low + 1))
    assert covered == list(range(1, field + 1))
    assert sum(tour.prizes.values()) == tour.prize_pool == 100 * field                # N8
    assert all(n <= again + 1 for n in tour.entries_of.values())
    # busted during late entries: placed at the close, a group busted earlier lower (N7)
    for earlier, later in zip(busted_groups, busted_groups[1:]):
        assert min(tour.places[p][0] for p in earlier) > max(tour.places[p][1] for p in later)


def test_n2_a_late_entry_sits_at_a_shortest_table_and_a_full_field_opens_a_table():
    tour = Tournament(late_structure(3, 2, 0), [f"p{i}" for i in range(5)],
                      rng=random.Random(1), bots=BOTS["random"]())
    sizes = sorted(len(t) for t in tour.tables.values())
    assert sizes == [2, 3]
    entry = tour.enter("ann")
    table, _ = tour.seat_of(entry)
    assert len(tour.tables[table]) == 3 and entry in tour.fresh   # the short table's seat
    tour.enter("bob")                                               # all full: a third table
    assert sorted(len(t) for t in tour.tables.values()) == [2, 2, 3]   # balanced at once (N4)
    kinds = [e["type"] for e in tour.events]
    assert "table_opened" in kinds and kinds.count("entered") == 2
    assert tour.prize_pool == 7 * 100


def test_n2_entries_refused_naming_why():
    tour = Tournament(late_structure(6, 1, 1), ["ann", "bob", "cy"], rng=random.Random(2),
                      bots=BOTS["random"]())
    with pytest.raises(TournamentError, match="still in"):
        tour.enter("ann")
    with pytest.raises(TournamentError, match="#"):
        tour.enter("d#2")
    with pytest.raises(TournamentError, match="entrants"):
        Tournament(late_structure(6, 1, 1), ["a#1", "b"], rng=random.Random(2))
    hands = tour.deal_round()
    with pytest.raises(TournamentError, match="between rounds"):
        tour.enter("dan")
    for table, hand in hands.items():
        tour.play_hand(table, hand)
        tour.finish_hand(table, hand)
    tour.end_round()
    while tour.late_open:
        tour.play_round()
    with pytest.raises(TournamentError, match="closed"):
        tour.enter("dan")
    with pytest.raises(TournamentError, match="N2: late_entry_levels"):
        late_structure(6, 9, 0)
    with pytest.raises(TournamentError, match="re-entries need late entries"):
        late_structure(6, 0, 1)


def test_n2_a_snapshot_during_late_entries_resumes_the_same_tournament():
    one = Tournament(late_structure(4, 3, 1, stack=120), [f"p{i}" for i in range(6)],
                     rng=random.Random(11), bots=BOTS["random"]())
    for i in range(3):
        one.enter(f"n{i}")
        one.play_round()
    saved = json.loads(json.dumps(one.snapshot()))
    two = Tournament.restore(saved, bots=BOTS["random"]())
    assert (two.late_out, two.entries_of, two.late_closed) == \
        (one.late_out, one.entries_of, one.late_closed)
    one.run()
    two.run()
    assert (one.places, one.prizes) == (two.places, two.prizes)
