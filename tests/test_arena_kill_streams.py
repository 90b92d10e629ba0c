"""Issue 21: ``omaha serve`` killed with SIGKILL mid-play twice and restarted on the same
database; every player's resumed stream repeats every event exactly once, in order, and
only what that player may see (a newcomer on a seat freed between hands included)."""

import asyncio
import json
import signal

import pytest

websockets = pytest.importorskip("websockets")

from omaha.arena.client import BotClient
from test_arena_server import free_port, start_server  # same folder


class _Spy:
    """A connection that records every message it delivers."""

    def __init__(self, ws, log):
        self.ws, self.log = ws, log

    async def send(self, text):
        await self.ws.send(text)

    def __aiter__(self):
        return self._frames()

    async def _frames(self):
        async for frame in self.ws:
            self.log.append(json.loads(frame))
            yield frame


class RecordingBot(BotClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.messages = []

    async def _session(self, ws, stop):
        return await super()._session(_Spy(ws, self.messages), stop)


def check_stream(bot):
    """Each event once, in order; never a card of another seat (nor of its seat from a hand
    the bot was not dealt into)."""
    seqs = [item["seq"] for m in bot.messages if m["type"] == "update" for item in m["events"]]
    assert seqs == sorted(set(seqs)), f"{bot.report.name}: repeated or reordered events"
    seat = bot.report.seat
    first_hand = None
    for message in bot.messages:
        if message["type"] != "update":
            continue
        first_hand = message["hand"] if first_hand is None else first_hand
        for item in message["events"]:
            event = item["event"]
            if event["type"] == "hole_dealt" and event["seat"] != seat:
                assert event["cards"] is None, (bot.report.name, event)
            if event["type"] == "card_burned":
                assert event["card"] is None
        view = message["view"]
        if view is None:
            continue
        for player in view["players"]:
            if player["seat"] != seat and not view["is_over"] and view["street"] != "showdown":
                assert player["cards"] is None, (bot.report.name, message["hand"], player)
            if player["seat"] == seat and message["hand"] == first_hand and bot.late \
                    and view["street"] != "showdown":
                # the hand in play (or the last) when a newcomer sat down is not its hand:
                # the previous occupant's cards, folded ones included, stay hidden
                assert player["cards"] is None, (bot.report.name, message["hand"])


def test_two_kill_9_resumed_streams_repeat_each_event_once_and_only_to_who_may_see(tmp_path):
    db, port = str(tmp_path / "arena.sqlite"), free_port()
    server = start_server(db, port)
    url = f"ws://127.0.0.1:{port}"
    try:
        async def main():
            nonlocal server
            bots = [RecordingBot(url, f"t1-{i}", hands=24, table=1) for i in range(2)]
            bots += [RecordingBot(url, f"t2-{i}", hands=24, table=2) for i in range(3)]
            leaver = RecordingBot(url, "leaver", hands=10**6, table=1, leave_after=2)
            for bot in [*bots, leaver]:
                bot.late = False
            tasks = [asyncio.create_task(b.run()) for b in [*bots, leaver]]
            await asyncio.wait_for(tasks[-1], 60)          # the leaver is cashed out
            newcomer = RecordingBot(url, "newcomer", hands=24, table=1)
            newcomer.late = True
            bots.append(newcomer)
            tasks.append(asyncio.create_task(newcomer.run()))
            for target in (40, 120):
                while min(b.report.last_seq for b in bots[2:5]) < target:
                    await asyncio.sleep(0.02)
                server.send_signal(signal.SIGKILL)         # kill -9 mid-play
                server.wait()
                server = start_server(db, port)
            await asyncio.wait_for(asyncio.gather(*tasks), 120)
            return [*bots, leaver]
        everyone = asyncio.run(asyncio.wait_for(main(), 200))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)
    assert sum(b.report.reconnects for b in everyone) >= 4
    for bot in everyone:
        assert bot.report.gaps == 0, (bot.report.name, bot.report.gaps)
        check_stream(bot)
    newcomer = everyone[-2]
    assert newcomer.report.seat == everyone[-1].report.seat   # the leaver's seat, taken again
