"""Snapshot and restore of hands and tables, replay from the event log, views (C2, S1)."""

from __future__ import annotations

import json
import random

import pytest

from engine_helpers import make_hand, random_action, random_hand
from omaha.config import OMAHA_HILO, GameConfig
from omaha.errors import SnapshotError
from omaha.game.events import EVENT_TYPES, HoleDealt, event_from_dict
from omaha.game.hand import Hand
from omaha.game.table import Table
from omaha.game.view import visible_events
from omaha.history.snapshot import replay
from omahacore.cards import format_card


def roundtrip(data: dict[str, object]) -> dict[str, object]:
    return json.loads(json.dumps(data))  # type: ignore[no-any-return]


def test_snapshot_at_every_decision_restores_a_hand_that_continues_identically() -> None:
    rng = random.Random(31)
    for _ in range(150):
        hand = random_hand(rng)
        copies: list[Hand] = []
        choices = random.Random(rng.random())
        while not hand.is_over:
            copy = Hand.restore(roundtrip(hand.snapshot()))
            assert copy.events == hand.events and copy.legal_actions() == hand.legal_actions()
            copies.append(copy)
            random_action(hand, choices)
        # continue some copies with the same decisions: same events, same final stacks
        for copy in rng.sample(copies, min(3, len(copies))):
            follow(copy, hand)
            assert copy.events == hand.events and copy.stacks == hand.stacks
        assert Hand.restore(roundtrip(hand.snapshot())).events == hand.events


def follow(copy: Hand, original: Hand) -> None:
    """Make ``copy`` take the decisions ``original`` took after the point ``copy`` is at."""
    rest = original.snapshot()["events"][len(copy.events):]    # type: ignore[index]
    for item in rest:
        event = event_from_dict(item)
        kind = type(event).__name__
        if copy.is_over:
            break
        seat = getattr(event, "seat", None)
        if kind == "Folded":
            copy.fold(seat=seat)
        elif kind == "Checked":
            copy.check(seat=seat)
        elif kind == "Called":
            copy.call(seat=seat)
        elif kind == "BetOrRaised":
            copy.bet_or_raise(event.to, seat=seat)  # type: ignore[attr-defined]
        elif kind in ("Shown", "Mucked") and copy.to_act == seat:
            copy.show(seat=seat) if kind == "Shown" else copy.muck(seat=seat)


def test_replay_of_a_finished_hand_from_its_log_alone() -> None:
    rng = random.Random(5)
    for _ in range(100):
        hand = random_hand(rng)
        while not hand.is_over:
            random_action(hand, rng)
        events = [event_from_dict(e) for e in roundtrip({"e": [e.to_dict() for e in hand.events]})["e"]]  # type: ignore[index]
        again = replay(events)
        assert again.events == hand.events and again.stacks == hand.stacks


def test_tampered_snapshots_are_refused() -> None:
    hand = make_hand(GameConfig.no_limit(small_blind=1, big_blind=2), {1: 50, 2: 50, 3: 50})
    hand.bet_or_raise(6)
    data = hand.snapshot()
    bad_amount = roundtrip(data)
    bad_amount["events"][-1]["to"] = 3                      # type: ignore[index]  # below B4
    with pytest.raises(SnapshotError):
        Hand.restore(bad_amount)
    bad_cards = roundtrip(data)
    bad_cards["events"][3]["cards"] = "AhAdAcAs"            # type: ignore[index]
    with pytest.raises(SnapshotError):
        Hand.restore(bad_cards)
    bad_post = roundtrip(data)
    bad_post["events"][1]["amount"] = 2                     # type: ignore[index]
    with pytest.raises(SnapshotError):
        Hand.restore(bad_post)
    for broken in ({}, {"format": "omaha-hand/1"}, {**data, "deck": "Zz"},
                   {**data, "events": [{"type": "nope"}]}, {**data, "manual_showdown": 1}):
        with pytest.raises(SnapshotError):
            Hand.restore(broken)


def test_every_event_type_round_trips() -> None:
    rng = random.Random(9)
    seen = set()
    for _ in range(300):
        hand = random_hand(rng)
        while not hand.is_over:
            if rng.random() < 0.05:
                hand.timeout()
            else:
                random_action(hand, rng)
        for event in hand.events:
            data = roundtrip(event.to_dict())
            assert event_from_dict(data) == event
            seen.add(event.kind)
    assert seen == set(EVENT_TYPES)


def test_table_snapshot_mid_hand_continues_identically_across_hands() -> None:
    def session(table: Table, rng: random.Random, hands: int) -> list[object]:
        log: list[object] = []
        for _ in range(hands):
            hand = table.hand if table.in_hand else table.start_hand()
            assert hand is not None
            while not hand.is_over:
                random_action(hand, rng)
            log.extend(hand.events)
            for seat, chips in table.stacks.items():
                if chips == 0:
                    table.rebuy(seat, 100)
        return log

    config = GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO)
    table = Table(config, seats=6, rng=random.Random(77))
    for seat in (1, 2, 4, 6):
        table.sit(seat, stack=150, name=f"p{seat}")
    session(table, random.Random(1), 3)
    table.sit(3, stack=100, post_big_blind=True)
    hand = table.start_hand()
    hand.check_or_call()
    data = roundtrip(table.snapshot())
    copy = Table.restore(data)
    assert copy.players() == table.players() and copy.button == table.button
    assert session(copy, random.Random(2), 4) == session(table, random.Random(2), 4)
    assert copy.stacks == table.stacks


def test_table_snapshot_with_a_busted_player_and_no_hand() -> None:
    table = Table(GameConfig.no_limit(small_blind=1, big_blind=2), seats=3, rng=random.Random(4))
    assert Table.restore(roundtrip(table.snapshot())).players() == []
    table.sit(1, stack=5); table.sit(2, stack=5); table.sit(3, stack=50)
    while all(chips for chips in table.stacks.values()):
        hand = table.start_hand()
        while not hand.is_over:
            hand.all_in() if hand.legal_actions().min_raise_to else hand.check_or_call()
    copy = Table.restore(roundtrip(table.snapshot()))
    assert copy.players() == table.players() and copy.hands_played == table.hands_played
    bad = roundtrip(table.snapshot())
    bad["seats"][0]["stack"] = -1                                  # type: ignore[index]
    with pytest.raises(SnapshotError):
        Table.restore(bad)


def test_views_never_show_hidden_cards() -> None:
    rng = random.Random(13)
    for _ in range(80):
        hand = random_hand(rng)
        while True:
            shown = {s for s, _ in hand.shown_hands()}
            for viewer in (None, *hand.seats):
                view = hand.view(viewer)
                data = json.dumps(view.to_dict())          # JSON-compatible
                for player in view.players:
                    visible = player.seat == viewer or player.seat in shown
                    assert (player.cards is not None) == visible
                for seat in hand.seats:
                    if seat != viewer and seat not in shown:
                        for card in hand.hole_cards(seat):
                            assert format_card(card) not in data
                assert "deck" not in data
                events = visible_events(hand, viewer)
                for item in events:
                    if item["type"] == "hole_dealt" and item["seat"] != viewer:
                        assert item["cards"] is None
                    if item["type"] == "card_burned":
                        assert item["card"] is None
                assert (view.legal is not None) == (viewer is not None and viewer == hand.to_act)
            if hand.is_over:
                break
            random_action(hand, rng)


def test_view_of_a_seat_not_dealt_in_is_refused() -> None:
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2), {1: 50, 2: 50})
    with pytest.raises(ValueError):
        hand.view(5)
    assert hand.view(1).hole_cards == hand.hole_cards(1)
    assert not any(isinstance(e, HoleDealt) and e.cards is None for e in hand.events)
