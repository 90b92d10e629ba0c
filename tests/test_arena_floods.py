"""Issue 21, class 9: floods and slow clients on a real server over WebSockets. A join
repeated with the client's own token takes no second seat and no second buy-in; a flooding
client is closed (1008) while the others keep playing; a half-open handshake is dropped
within seconds; a rate that would switch the limit off is refused."""

import asyncio
import json
import math
import socket
import time

import pytest

websockets = pytest.importorskip("websockets")

from omaha.arena import ArenaSettings
from omaha.arena.server import ArenaServer
from omaha.errors import OmahaError
from test_arena_server import FAST_CLOCK, connect, receive, run  # same folder


def test_a_join_repeated_with_the_own_token_takes_no_second_seat_or_buy_in(tmp_path):
    token = "r" * 40

    async def main():
        server = ArenaServer(str(tmp_path / "a.sqlite"),
                             ArenaSettings(tables=2, seats=3, clock=FAST_CLOCK), port=0)
        port = await server.start()
        url = f"ws://127.0.0.1:{port}"
        join = {"type": "join", "name": "ann", "token": token}
        async with connect(url) as first:
            await first.send(json.dumps(join))
            one = (await receive(first, "joined"))[-1]
            await first.send(json.dumps(join))          # the same connection, again
            again = (await receive(first, "joined"))[-1]
            async with connect(url) as second:          # a new connection, other table asked
                await second.send(json.dumps({**join, "table": 2, "name": "ann2"}))
                other = (await receive(second, "joined"))[-1]
        ledger = server.storage.ledger()
        seats = server.storage.seats()
        await server.close()
        return one, again, other, ledger, seats
    one, again, other, ledger, seats = run(main())
    assert (one["table"], one["seat"]) == (again["table"], again["seat"]) \
        == (other["table"], other["seat"])
    assert len(seats) == 1 and [e.kind for e in ledger] == ["buy_in"]


def test_a_flooding_client_is_closed_while_the_others_keep_playing(tmp_path):
    async def main():
        server = ArenaServer(str(tmp_path / "a.sqlite"),
                             ArenaSettings(tables=1, seats=3, clock=FAST_CLOCK), port=0,
                             rate=20, burst=30)
        port = await server.start()
        url = f"ws://127.0.0.1:{port}"
        async with connect(url) as a, connect(url) as b, connect(url) as flood:
            await a.send(json.dumps({"type": "join", "name": "ann"}))
            await b.send(json.dumps({"type": "join", "name": "bob"}))
            await flood.send(json.dumps({"type": "join", "name": "flo"}))
            await receive(flood, "joined")
            hands = server.arena.rooms[1].hand_number
            for _ in range(200):
                await flood.send(json.dumps({"type": "act", "action": "check_or_call"}))
            with pytest.raises(websockets.exceptions.ConnectionClosed) as info:
                while True:
                    await asyncio.wait_for(flood.recv(), 5)
            assert info.value.rcvd is not None and info.value.rcvd.code == 1008
            # the others play on: the clock acts for the silent ones, hands keep coming
            deadline = time.monotonic() + 20
            while server.arena.rooms[1].hand_number < hands + 2 and time.monotonic() < deadline:
                await a.send(json.dumps({"type": "ping"}))
                await receive(a, "pong")
                await asyncio.sleep(0.05)
            assert server.arena.rooms[1].hand_number >= hands + 2
        await server.close()
    run(main())


def test_a_half_open_handshake_is_dropped_within_seconds(tmp_path):
    async def main():
        server = ArenaServer(str(tmp_path / "a.sqlite"), ArenaSettings(tables=1, seats=2),
                             port=0, open_timeout=0.5)
        port = await server.start()
        loop = asyncio.get_running_loop()

        def half_open():
            started = time.monotonic()
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")   # never finished
                try:
                    while sock.recv(4096):
                        pass
                except (ConnectionResetError, TimeoutError):
                    pass
            return time.monotonic() - started
        took = await loop.run_in_executor(None, half_open)
        await server.close()
        return took
    assert run(main()) < 5


@pytest.mark.parametrize("options", [{"rate": math.nan}, {"rate": 0}, {"rate": -1.0},
                                     {"rate": math.inf}, {"burst": 0}, {"burst": 2.5},
                                     {"open_timeout": math.nan}, {"open_timeout": 0},
                                     {"max_size": 0}])
def test_limits_that_would_switch_a_guard_off_are_refused(tmp_path, options):
    with pytest.raises(OmahaError):
        ArenaServer(str(tmp_path / "a.sqlite"), ArenaSettings(tables=1, seats=2), port=0,
                    **options)
