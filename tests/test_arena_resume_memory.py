"""Issue 21, class 3: resume and watch from sequence 0 read storage in bounded pages, never
the table's whole history (a real server over WebSockets on a table of many stored hands)."""

import json
import sqlite3
import tracemalloc

import pytest

websockets = pytest.importorskip("websockets")

from omaha.arena import Arena, ArenaSettings, SqliteStorage
from omaha.arena.messages import Act
from omaha.arena.server import ArenaServer
from test_arena_server import connect, receive, run  # same folder

HANDS = 260            # more than a resume replays (RESUME_HANDS): the client gets a gap
PAD = 100_000          # bytes added to each stored hand's PHH text (26 MB in all)


def old_table(path):
    """A table with HANDS finished hands; returns the two players' tokens."""
    arena = Arena.open(SqliteStorage(path), ArenaSettings(tables=1, seats=2),
                       emit=lambda *_: None)
    tokens = [arena.join("ann")[2], arena.join("bob")[2]]
    room = arena.rooms[1]
    for _ in range(HANDS):
        room.start_hand()
        room.act(room.hand.to_act, Act("fold"))
    arena.storage.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE hands SET phh = phh || ?", ("%" * PAD,))
    return tokens


async def peak_during(ws, message, kind):
    """Peak traced memory (bytes) while the server answers ``message`` up to ``kind`` and
    the update after it."""
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    await ws.send(json.dumps(message))
    seen = await receive(ws, kind, timeout=30)
    seen += await receive(ws, "update", timeout=30)
    return tracemalloc.get_traced_memory()[1] - before, seen


def test_resume_and_watch_from_zero_hold_a_bounded_page_not_the_history(tmp_path):
    path = str(tmp_path / "old.sqlite")
    tokens = old_table(path)

    async def main():
        server = ArenaServer(path, port=0)
        port = await server.start()
        url = f"ws://127.0.0.1:{port}"
        tracemalloc.start()
        try:
            async with connect(url) as player, connect(url) as watcher:
                resume_peak, resumed = await peak_during(
                    player, {"type": "resume", "token": tokens[0], "last_seq": 0}, "resumed")
                watch_peak, watched = await peak_during(
                    watcher, {"type": "watch", "table": 1, "last_seq": 0}, "watching")
        finally:
            tracemalloc.stop()
        await server.close()
        return resume_peak, resumed, watch_peak, watched
    resume_peak, resumed, watch_peak, watched = run(main())
    assert resumed[0]["gap"] is True and watched[0]["gap"] is True
    assert resume_peak < 8 * 2**20, resume_peak      # the history is HANDS * PAD = 26 MB
    assert watch_peak < 8 * 2**20, watch_peak


def test_stored_hands_are_read_in_pages_in_order(tmp_path):
    path = str(tmp_path / "old.sqlite")
    old_table(path)
    storage = SqliteStorage(path)
    hands = [(h.table, h.hand) for h in storage.finished_hands()]
    assert hands == [(1, n) for n in range(1, HANDS + 1)]
    later = [h.hand for h in storage.finished_hands(1, after_seq=50)]
    assert later[0] > 1 and later == sorted(later) and later[-1] == HANDS
    events = list(storage.hand_events(1, after_seq=0, before_seq=10**9, limit=40))
    assert [e.hand for e in events] == list(range(1, 41))
    storage.close()
