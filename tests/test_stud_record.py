"""Stud hands' events, snapshots and restore (issue 26; E1-E7, C1): the flop Hand's surface.

The events are checked against the engine's own state (every card a player holds is in the
deal events, in order, up and down as the engine says; the antes, the bring-in and the
actions add up to the contributions); a snapshot taken anywhere restores to the same hand,
which continues identically; and anything a snapshot could be edited into is refused with a
SnapshotError that names the fault, the hand untouched.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from omaha.errors import OmahaError, SnapshotError, TableError
from omaha.game.events import BetOrRaised, BoardDealt, Called, HandEnded, Posted, Shown
from omaha.game.stud import StudConfig, StudHand
from omaha.game.studevents import StudDealt, StudStarted, stud_event_from_dict
from omaha.game.studplay import random_stud
from omaha.history.sealing import seal

VARIANTS = ("F7S", "F7S/8", "FR", "F5S")


def random_hand(seed: int, variant: str | None = None) -> tuple[StudHand, random.Random]:
    rng = random.Random(seed)
    variant = variant or rng.choice(VARIANTS)
    small = rng.choice([2, 4, 10])
    config = StudConfig(variant=variant, ante=rng.choice([0, 1, 2]),
                        bring_in=rng.randint(1, small), small_bet=small)
    n = rng.randint(2, 8)
    stacks = [rng.choice([rng.randint(1, 30), rng.randint(30, 300)]) for _ in range(n)]
    return StudHand(config, stacks, dealer=rng.randrange(n), rng=rng), rng


def check_events_match_engine(hand: StudHand) -> None:
    events = hand.events
    start = events[0]
    assert isinstance(start, StudStarted) and start.config == hand.config
    dealt: dict[int, list[tuple[int, bool]]] = {i: [] for i in range(hand.players)}
    paid = [0] * hand.players
    streets: list[int] = []
    for ev in events:
        if isinstance(ev, StudDealt):
            dealt[ev.seat] += [(c, False) for c in ev.down] + [(c, True) for c in ev.up]
            streets.append(ev.street)
        elif isinstance(ev, (Posted, Called)):
            paid[ev.seat] += ev.amount
    assert streets == sorted(streets)   # streets dealt in order (E2)
    for i in range(hand.players):
        assert dealt[i] == hand.cards(i)   # every card, up or down as the engine dealt it
    boards = [ev for ev in events if isinstance(ev, BoardDealt)]
    assert [c for ev in boards for c in ev.cards] == ([] if hand.community is None
                                                      else [hand.community])
    if not hand.is_over:
        # antes, bring-ins and calls are chips; a raise's total is the round's bet
        assert sum(paid) <= sum(hand.contributions)
    else:
        assert isinstance(events[-1], HandEnded) and list(events[-1].stacks) == hand.stacks
        shown = [ev.seat for ev in events if isinstance(ev, Shown)]
        n, dealer = hand.players, hand.dealer
        order = [(dealer + 1 + k) % n for k in range(n)]
        assert shown == ([] if hand.strengths is None
                         else [i for i in order if not hand.folded[i]])


@pytest.mark.parametrize("variant", VARIANTS)
def test_e2_e3_events_say_what_the_engine_did(variant):
    """E2 (up and down cards by street), E3 (antes and the bring-in): the events agree with
    the engine's state after every action, and round-trip through JSON dicts."""
    for seed in range(60):
        hand, rng = random_hand(seed, variant)
        while True:
            check_events_match_engine(hand)
            if hand.is_over:
                break
            random_stud(hand, rng)
        for ev in hand.events:
            assert stud_event_from_dict(json.loads(json.dumps(ev.to_dict()))) == ev


def test_e3_bring_in_and_completion_are_their_events():
    hand = StudHand(StudConfig(variant="F7S", ante=1, bring_in=2, small_bet=4), [50, 50, 50],
                    rng=random.Random(3))
    bring = hand.bring_in_seat
    hand.post_bring_in()
    hand.bet_or_raise(4)
    assert hand.events[-2:] == (Posted(bring, "bring_in", 2), BetOrRaised(hand.events[-1].seat, 4))


def test_e2_short_deck_deals_a_shared_card_as_a_board_event():
    """E2: eight players to seventh street need 56 cards; the last is one shared card."""
    config = StudConfig(variant="F7S", ante=1, small_bet=2)
    hand = StudHand(config, [100] * 8, rng=random.Random(1))
    while not hand.is_over:
        hand.check_or_call()
    boards = [ev for ev in hand.events if isinstance(ev, BoardDealt)]
    assert len(boards) == 1 and boards[0].street == 4 and boards[0].cards == (hand.community,)
    check_events_match_engine(hand)
    assert StudHand.restore(hand.snapshot()).events == hand.events


def test_snapshot_restores_anywhere_and_continues_identically():
    """A snapshot at any point, through JSON, restores to a hand that plays on identically."""
    for seed in range(150):
        hand, rng = random_hand(seed)
        stop = rng.randrange(12)
        for _ in range(stop):
            if hand.is_over:
                break
            random_stud(hand, rng)
        data = json.loads(json.dumps(hand.snapshot()))
        copy_ = StudHand.restore(data)
        assert copy_.events == hand.events and copy_.deck == hand.deck
        assert (copy_.to_act, copy_.stacks, copy_.pot) == (hand.to_act, hand.stacks, hand.pot)
        rng_copy = copy.deepcopy(rng)
        while not hand.is_over:
            random_stud(hand, rng)
            random_stud(copy_, rng_copy)
        assert copy_.events == hand.events and copy_.stacks == hand.stacks


def test_snapshot_signed_with_a_key():
    hand, _ = random_hand(5)
    signed = hand.snapshot(key=b"secret")
    assert signed["digest"].startswith("hmac-sha256:")
    assert StudHand.restore(signed, key=b"secret").events == hand.events
    with pytest.raises(SnapshotError, match="digest"):
        StudHand.restore(signed, key=b"other")
    with pytest.raises(SnapshotError, match="signed"):
        StudHand.restore(signed)


def edited(data: dict, change) -> dict:
    """``data`` changed by ``change`` and re-digested (so only the content checks refuse)."""
    body = copy.deepcopy(data)
    del body["digest"]
    change(body)
    return seal(body, None)


def _set_event(index: int, **values):
    def change(body):
        body["events"][index].update(values)
    return change


BAD = {
    "deck not text": (lambda b: b.__setitem__("deck", [1, 2]), "deck"),
    "deck short": (lambda b: b.__setitem__("deck", b["deck"][:-2]), "52 cards"),
    "deck twice": (lambda b: b.__setitem__("deck", b["deck"][:2] + b["deck"][:-2]), "deck.*duplicate"),
    "no events": (lambda b: b.__setitem__("events", []), "events"),
    "flop start": (lambda b: b["events"].__setitem__(0, {"type": "folded", "seat": 0}),
                   "stud_started"),
    "unknown type": (_set_event(1, type="dealt_blind"), "not a stud event"),
    "extra field": (_set_event(0, colour="red"), "fields"),
    "bad config": (lambda b: b["events"][0]["config"].__setitem__("small_bet", -4),
                   "small_bet"),
    "bool dealer": (_set_event(0, dealer=True), "dealer"),
    "string stacks": (_set_event(0, stacks="100"), "stacks"),
    "nine players": (_set_event(0, stacks=[100] * 9), "2 to 8"),
    "cards swapped": (lambda b: next(ev for ev in b["events"] if ev["type"] == "stud_dealt")
                      .update(down="AsKs", up="Qs"), "differs"),
    "wrong seat acts": (lambda b: b["events"].append({"type": "folded", "seat": 99}),
                        "replay"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_c1_edited_snapshots_are_refused_naming_the_fault(name):
    hand = StudHand(StudConfig(variant="F7S/8", ante=1, bring_in=2, small_bet=4), [80] * 3,
                    rng=random.Random(11))
    data = hand.snapshot()
    change = BAD[name][0]
    with pytest.raises(SnapshotError, match=BAD[name][1]):
        StudHand.restore(edited(data, change))
    with pytest.raises(SnapshotError, match="digest"):   # an edit not re-digested
        body = copy.deepcopy(data)
        change(body)
        StudHand.restore(body)


def test_c1_a_given_deck_is_checked_naming_the_field():
    config = StudConfig(variant="FR", ante=1, small_bet=2)
    with pytest.raises(TableError, match="deck"):
        StudHand(config, [10, 10], deck=list(range(51)) + [0])
    with pytest.raises(TableError, match="deck"):
        StudHand(config, [10, 10], deck="AsKs")
    with pytest.raises(OmahaError, match="deck"):
        StudHand(config, [10, 10], deck=[True] + list(range(1, 52)))
    assert StudHand(config, [10, 10], deck=range(52)).deck == bytes(range(52))
