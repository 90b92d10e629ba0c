"""The arena: a crash-safe game server that bots play over WebSockets.

The library pieces work without the network and without the ``[server]`` extra:

* :mod:`omaha.arena.stream` — per-seat event streams with sequence numbers (resume from the
  last event seen);
* :mod:`omaha.arena.driver` — an asyncio driver for :class:`~omaha.game.clocked.ClockedHand` that
  wakes at the next deadline;
* :mod:`omaha.arena.messages` — the JSON messages and their JSON Schema (``schema.json``);
* :mod:`omaha.arena.storage` — the storage interface and its SQLite implementation;
* :mod:`omaha.arena.room` — tables that commit every change before announcing it;
* :mod:`omaha.arena.export` — every finished hand as PHH.

:mod:`omaha.arena.server` and :mod:`omaha.arena.client` need ``pip install
"omaha-poker[server]"`` (the ``websockets`` package), imported only when they run. The
protocol and the crash rules are in ``docs/arena.md``.

>>> from omaha.arena import EventLog, load_schema
>>> sorted(load_schema()["$defs"])[:3]
['client_message', 'clock_view', 'clocked_view']
"""

from omaha.arena.driver import ClockDriver
from omaha.arena.house import Arena
from omaha.arena.messages import ProtocolError, load_schema, parse_client_message
from omaha.arena.room import TableRoom
from omaha.arena.settings import ArenaSettings
from omaha.arena.storage import SqliteStorage, Storage, StorageError
from omaha.arena.stream import EventLog, event_for_seat

__all__ = [
    "Arena",
    "ArenaSettings",
    "ClockDriver",
    "EventLog",
    "ProtocolError",
    "SqliteStorage",
    "Storage",
    "StorageError",
    "TableRoom",
    "event_for_seat",
    "load_schema",
    "parse_client_message",
]
