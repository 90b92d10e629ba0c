"""Issue 21, class 1: no frame stops the server. Hostile frames go to a real ``omaha serve``
on 127.0.0.1 over real WebSockets; each offending connection gets an ``error`` (or a close
with a reason) while another connection's table goes on."""

import asyncio
import json
import signal

import pytest

websockets = pytest.importorskip("websockets")
jsonschema = pytest.importorskip("jsonschema")

from test_arena_server import connect, free_port, receive, start_server  # same folder

HOSTILE = [
    # strings that cannot be encoded (lone UTF-16 surrogates, sent as JSON escapes)
    '{"type": "resume", "token": "\\ud800", "last_seq": 0}',
    '{"type": "leave", "token": "\\udfff"}',
    '{"type": "leave", "token": "' + "a" * 40 + '\\ud800"}',
    '{"type": "join", "name": "\\ud800"}',
    '{"type": "join", "name": "ann", "token": "\\ud800' + "a" * 40 + '"}',
    '{"type": "act", "action": "\\ud800"}',
    '{"type": "\\ud800"}',
    '{"type": "ping", "\\ud800": 1}',
    '{"\\ud800": "\\udc00"}',
    # not an object, huge numbers, deep nesting, odd JSON
    "[]", "null", "1", '"x"', "1" * 3000, '{"type": "watch", "table": ' + "9" * 400 + "}",
    '{"type": "watch", "table": 1e999}', '{"type": "watch", "table": NaN}',
    '{"type": "watch", "table": -Infinity}',
    "[" * 1500 + "]" * 1500, '{"a":' * 800 + "1" + "}" * 800,
    '{"type": "act", "action": "bet_or_raise", "to": 1e308}',
    '{"type": "resume", "token": "x", "last_seq": -1}',
    "\x00", "", "{" * 3,
]


async def _table_goes_on(url):
    """Two players at table 1; returns their sockets once a hand is dealt."""
    a = await connect(url).__aenter__()
    b = await connect(url).__aenter__()
    await a.send(json.dumps({"type": "join", "name": "ann", "table": 1}))
    await b.send(json.dumps({"type": "join", "name": "bob", "table": 1}))
    await receive(a, "joined")
    await receive(b, "joined")
    return a, b


async def _ping(ws):
    await ws.send(json.dumps({"type": "ping"}))
    await receive(ws, "pong")


def test_hostile_frames_get_an_error_and_the_server_keeps_serving(tmp_path):
    db, port = str(tmp_path / "arena.sqlite"), free_port()
    server = start_server(db, port)
    url = f"ws://127.0.0.1:{port}"
    try:
        async def main():
            a, b = await _table_goes_on(url)
            for text in HOSTILE:
                async with connect(url) as hostile:
                    await hostile.send(text)
                    try:
                        reply = json.loads(await asyncio.wait_for(hostile.recv(), 5))
                        assert reply["type"] == "error", (text[:60], reply)
                        await _ping(hostile)    # the offender's own connection is still served
                    except websockets.exceptions.ConnectionClosed as exc:
                        # a close with a reason is allowed, never an internal error (1011)
                        assert exc.rcvd is not None and exc.rcvd.code != 1011, text[:60]
                assert server.poll() is None, f"the server exited after {text[:60]!r}"
                await _ping(a)
                await _ping(b)
            async with connect(url) as binary:
                await binary.send(b"\xff\xfe\x00binary")
                reply = json.loads(await asyncio.wait_for(binary.recv(), 5))
                assert reply["type"] == "error"
            await _ping(a)
            # the table still plays: the newcomer can still sit at table 2
            async with connect(url) as late:
                await late.send(json.dumps({"type": "join", "name": "cy", "table": 2}))
                assert (await receive(late, "joined"))[-1]["table"] == 2
            await a.close()
            await b.close()
        asyncio.run(asyncio.wait_for(main(), 120))
        assert server.poll() is None
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)
