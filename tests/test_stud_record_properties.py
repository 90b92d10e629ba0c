"""Properties of stud records (issue 26; E1-E7, C1), with Hypothesis: any hand, stopped
anywhere, restores from its snapshot and round-trips through PHH; an edited snapshot either
restores to a hand that is its own record or is refused with SnapshotError, nothing else."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from omaha.errors import SnapshotError
from omaha.game.stud import StudHand
from omaha.game.studplay import random_stud
from omaha.history.sealing import seal
from omaha.phh.stud import dumps_stud, loads_stud, replay_stud_history, stud_history
from test_stud_record import random_hand


def played(seed: int, variant: str, steps: int) -> StudHand:
    hand, rng = random_hand(seed, variant)
    for _ in range(steps):
        if hand.is_over:
            break
        random_stud(hand, rng)
    return hand


@settings(max_examples=150)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["F7S", "F7S/8", "FR", "F5S"]),
       steps=st.integers(0, 40))
def test_any_stud_hand_restores_from_its_snapshot(seed, variant, steps):
    hand = played(seed, variant, steps)
    twin = StudHand.restore(json.loads(json.dumps(hand.snapshot())))
    assert twin.events == hand.events
    assert (twin.to_act, twin.stacks, twin.bets, twin.pot) == (hand.to_act, hand.stacks,
                                                              hand.bets, hand.pot)


@settings(max_examples=150)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["F7S", "F7S/8", "FR"]))
def test_any_finished_stud_hand_round_trips_through_phh(seed, variant):
    hand = played(seed, variant, 10_000)
    history = stud_history(hand)
    replay = replay_stud_history(loads_stud(dumps_stud(history)))
    assert replay.matches
    assert list(replay.stacks) == [hand.stacks[s - 1] for s in history.seats]


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


@settings(max_examples=300)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 12), data=st.data())
def test_an_edited_snapshot_is_refused_or_is_its_own_record(seed, steps, data):
    """C1: whatever a snapshot is edited into (and re-digested), restore gives a hand whose
    own snapshot is that data, or a SnapshotError; never another error, never a wrong hand."""
    body = played(seed, "F7S/8", steps).snapshot()
    del body["digest"]
    edited = copy.deepcopy(body)
    events = edited["events"]
    where = data.draw(st.integers(0, len(events)))
    if where == len(events):
        edited["deck"] = data.draw(st.text(max_size=110) | _JSON)
    else:
        event = events[where]
        key = data.draw(st.sampled_from(sorted(event)))
        event[key] = data.draw(_JSON)
    try:
        hand = StudHand.restore(seal(copy.deepcopy(edited), None))
    except SnapshotError:
        return
    again = hand.snapshot()
    del again["digest"]
    assert json.loads(json.dumps(again)) == json.loads(json.dumps(edited))
