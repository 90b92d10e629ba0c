"""Issue 27, the protocol the web client needs: players' names in every ``update`` and the
``history`` request (finished hands in bounded pages, filtered for the viewer: a spectator
sees only the cards shown at showdown, S1/S4, a player also its own, and a newcomer never
what the previous occupant of its seat held)."""

import json
import random

import pytest

jsonschema = pytest.importorskip("jsonschema")

from omaha.arena import ArenaSettings, load_schema
from omaha.arena.house import Arena
from omaha.arena.messages import HISTORY_PAGE, Act, History, ProtocolError, parse_client_message
from omaha.arena.storage import SqliteStorage

SERVER_MESSAGE = jsonschema.Draft202012Validator(
    {**{k: v for k, v in load_schema().items() if k != "oneOf"}, "$ref": "#/$defs/server_message"})
CLIENT_MESSAGE = jsonschema.Draft202012Validator(
    {**{k: v for k, v in load_schema().items() if k != "oneOf"}, "$ref": "#/$defs/client_message"})


def play(arena, room, hands, rng):
    """Play ``hands`` hands with random calls, folds and raises (many reach showdown)."""
    for _ in range(hands):
        room.start_hand()
        while room.game is not None and not room.game.hand.is_over:
            hand = room.game.hand
            legal = hand.legal_actions()
            roll = rng.random()
            if roll < 0.1 and legal.can_fold:
                room.act(hand.to_act, Act("fold"))
            elif roll < 0.2 and legal.min_raise_to is not None:
                room.act(hand.to_act, Act("bet_or_raise", to=legal.min_raise_to))
            elif legal.can_show and roll < 0.7:
                room.act(hand.to_act, Act("show"))
            elif legal.can_muck:
                room.act(hand.to_act, Act("muck"))
            else:
                room.act(hand.to_act, Act("check_or_call"))


def reference_filter(event, seat):
    """The slow statement of what ``seat`` (None: a spectator) may see of a stored event."""
    event = dict(event)
    if event["type"] == "hole_dealt" and event["seat"] != seat:
        event["cards"] = None
    if event["type"] == "card_burned":
        event["card"] = None
    return event


@pytest.fixture
def table():
    sent = []
    arena = Arena.open(SqliteStorage(":memory:"), ArenaSettings(tables=1, seats=3),
                       emit=lambda room, seat, message: sent.append((seat, message)),
                       now=lambda: 0)
    tokens = {}
    for name in ("ann", "bob", "cy"):
        room, seat, token = arena.join(name)
        tokens[name] = (seat, token)
    return arena, room, tokens, sent


def all_pages(room, seat, limit):
    pages, before = [], None
    while True:
        page = room.history(seat, before, limit)
        SERVER_MESSAGE.validate(page)
        pages.append(page)
        before = page["before"]
        if before is None:
            return pages


def test_every_update_names_the_seated_players_never_their_tokens(table):
    arena, room, tokens, sent = table
    room.start_hand()
    updates = [m for _, m in sent if m["type"] == "update"]
    assert updates
    for message in updates:
        SERVER_MESSAGE.validate(message)
        assert message["names"] == {"1": "ann", "2": "bob", "3": "cy"}
        text = json.dumps(message)
        assert all(token not in text for _, token in tokens.values())
    assert room.update(None, [])["names"] == {"1": "ann", "2": "bob", "3": "cy"}


def test_history_pages_cover_every_finished_hand_once_newest_first(table):
    arena, room, _, _ = table
    play(arena, room, 23, random.Random(5))
    for limit in (1, 7, 10, HISTORY_PAGE):
        pages = all_pages(room, None, limit)
        numbers = [h["hand"] for page in pages for h in page["hands"]]
        assert numbers == list(range(23, 0, -1))
        assert all(len(page["hands"]) <= limit for page in pages)
    assert room.history(None, 1, 10)["hands"] == []
    assert [h["hand"] for h in room.history(None, 5, 2)["hands"]] == [4, 3]


def test_a_spectator_sees_only_what_was_shown_and_a_player_its_own_cards(table):
    """S1/S4: the cards shown at showdown are public, the rest of the hole cards are not;
    the history equals the stored omniscient events filtered by the reference rule."""
    arena, room, tokens, _ = table
    play(arena, room, 30, random.Random(11))
    stored = {f.hand: f for f in arena.storage.finished_hands(1)}
    shown_somewhere = 0
    for viewer in (None, 1, 2, 3):
        for page in all_pages(room, viewer, HISTORY_PAGE):
            for hand in page["hands"]:
                finished = stored[hand["hand"]]
                assert hand["events"] == [reference_filter(e, viewer) for e in finished.events]
                text = json.dumps(hand)
                shown = {e["seat"] for e in finished.events if e["type"] == "shown"}
                shown_somewhere += len(shown)
                for event in finished.events:   # no hidden hole cards anywhere in the text
                    if event["type"] == "hole_dealt" and event["seat"] not in shown \
                            and event["seat"] != viewer:
                        assert event["cards"] not in text
                assert hand["names"] == {"1": "ann", "2": "bob", "3": "cy"}
    assert shown_somewhere > 0   # the random play reached showdowns


def test_a_newcomer_never_sees_the_previous_occupants_cards_in_the_history(table):
    arena, room, tokens, _ = table
    rng = random.Random(3)
    play(arena, room, 6, rng)
    seat, token = tokens["ann"]
    assert arena.leave(token)[2] is not None   # between hands: cashed out at once
    room2, seat2, _ = arena.join("dee")
    assert (room2, seat2) == (room, seat)
    play(arena, room, 4, rng)
    stored = {f.hand: f for f in arena.storage.finished_hands(1)}
    for page in all_pages(room, seat, 10):
        for hand in page["hands"]:
            mine = [e for e in hand["events"] if e["type"] == "hole_dealt" and e["seat"] == seat]
            original = [e for e in stored[hand["hand"]].events
                        if e["type"] == "hole_dealt" and e["seat"] == seat][0]
            shown = any(e["type"] == "shown" and e["seat"] == seat
                        for e in stored[hand["hand"]].events)
            if hand["hand"] <= 6:   # ann's hands: dee sees them as a spectator does
                assert mine[0]["cards"] is None
                assert shown or original["cards"] not in json.dumps(hand)
                assert hand["names"][str(seat)] == "ann"
            else:
                assert mine[0]["cards"] == original["cards"]
                assert hand["names"][str(seat)] == "dee"


def test_the_history_request_is_parsed_and_bounded_as_the_schema_says():
    assert parse_client_message('{"type": "history", "table": 2}') == History(table=2)
    assert parse_client_message(
        '{"type": "history", "table": 2, "before": 9, "limit": 20}') == History(2, 9, 20)
    for bad in ({"type": "history"}, {"type": "history", "table": 0},
                {"type": "history", "table": 1, "limit": HISTORY_PAGE + 1},
                {"type": "history", "table": 1, "limit": 0},
                {"type": "history", "table": 1, "before": True},
                {"type": "history", "table": 1, "token": "x"}):
        with pytest.raises(ProtocolError):
            parse_client_message(json.dumps(bad))
        assert not CLIENT_MESSAGE.is_valid(bad)
    assert CLIENT_MESSAGE.is_valid({"type": "history", "table": 1, "before": None,
                                    "limit": HISTORY_PAGE})
