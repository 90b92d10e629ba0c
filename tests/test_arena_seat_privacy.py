"""Issue 21, class 2: views are per player, not per seat number. A newcomer who takes a
seat freed between hands sees nothing its previous occupant held (folded cards included),
in the join's update, a resumed stream or a replay; on a real server over WebSockets."""

import json

import pytest

websockets = pytest.importorskip("websockets")

from omaha.arena import ArenaSettings
from omaha.arena.server import ArenaServer
from test_arena_server import connect, receive, run  # same folder

SLOW_CLOCK = {"base_ms": 30_000, "countdown_ms": 30_000}


def hidden_cards_of(seat, messages):
    """Every hole card of ``seat`` some message shows."""
    shown = []
    for message in messages:
        if message["type"] != "update":
            continue
        for item in message["events"]:
            event = item["event"]
            if event["type"] == "hole_dealt" and event["seat"] == seat and event["cards"]:
                shown.append(event["cards"])
        view = message["view"]
        if view is not None:
            shown += [p["cards"] for p in view["players"] if p["seat"] == seat and p["cards"]]
    return shown


def test_a_newcomer_on_a_freed_seat_never_sees_the_previous_occupants_cards(tmp_path):
    async def main():
        server = ArenaServer(str(tmp_path / "a.sqlite"),
                             ArenaSettings(tables=1, seats=2, clock=SLOW_CLOCK), port=0)
        port = await server.start()
        url = f"ws://127.0.0.1:{port}"
        async with connect(url) as a, connect(url) as c:
            await a.send(json.dumps({"type": "join", "name": "ann"}))
            joined = (await receive(a, "joined"))[-1]
            await c.send(json.dumps({"type": "join", "name": "cy"}))
            await receive(c, "joined")
            seen = []
            while True:   # the first hand is dealt
                seen += await receive(a, "update")
                view = seen[-1]["view"]
                if view is not None and not view["is_over"]:
                    break
            seat = joined["seat"]
            cards = next(p["cards"] for p in view["players"] if p["seat"] == seat)
            assert cards
            await a.send(json.dumps({"type": "leave", "token": joined["token"]}))
            await receive(a, "leaving")
            actor = a if view["to_act"] == seat else c
            await actor.send(json.dumps({"type": "act", "action": "fold"}))
            await receive(a, "left")           # hand over, ann cashed out, her seat free
        # cy is gone too, so no new hand starts: the last hand is ann's
        async with connect(url) as b:
            await b.send(json.dumps({"type": "join", "name": "bo"}))
            got = await receive(b, "joined")
            assert got[-1]["seat"] == seat
            got += await receive(b, "update")
            token = next(m["token"] for m in got if m["type"] == "joined")
        async with connect(url) as again:
            await again.send(json.dumps({"type": "resume", "token": token, "last_seq": 0}))
            resumed = await receive(again, "resumed")
            resumed += await receive(again, "update")
        await server.close()
        return cards, seat, got, resumed
    cards, seat, joined, resumed = run(main())
    updates = [m for m in joined + resumed if m["type"] == "update"]
    assert updates and all(m["view"] is not None for m in updates)   # the last hand's view
    assert hidden_cards_of(seat, joined) == []
    assert hidden_cards_of(seat, resumed) == []
    assert cards not in json.dumps(joined + resumed)
