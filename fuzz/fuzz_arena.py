"""Fuzz the arena server over real sockets (issue 21): hostile frames against ``omaha serve``.

A real ``omaha serve`` runs on 127.0.0.1 (or ``--url`` points at one already running). Two
witness players sit at table 1 and are served throughout; fuzzing connections send valid
and mutated client frames: fields replaced by odd values (wrong types, huge and fractional
numbers, NaN, lone UTF-16 surrogates, control characters, long text), binary frames, deep
JSON, truncated and spliced text, raw garbage.

Invariants, checked after every frame:

* each fuzz frame gets a reply (a message, or a close with a reason other than 1011 —
  an internal error); the server process never exits;
* the witnesses keep being served (a ``ping`` answered), their table keeps dealing hands,
  and no message to a witness shows another player's hole card before the showdown.

Run for a chosen time::

    PYTHONPATH=src python3 fuzz/fuzz_arena.py --seconds 600
    PYTHONPATH=src python3 fuzz/fuzz_arena.py --seconds 30 --seed 7

The test suite runs a few seconds of it (``tests/test_arena_fuzz.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

VALID: list[dict[str, Any]] = [
    {"type": "join", "name": "fuzz"},
    {"type": "join", "name": "fuzz", "table": 2, "token": "f" * 40},
    {"type": "resume", "token": "t" * 43, "last_seq": 0},
    {"type": "act", "action": "fold"},
    {"type": "act", "action": "bet_or_raise", "to": 12, "hand": 3, "seat": 2},
    {"type": "act", "action": "check_or_call", "hand": 1},
    {"type": "leave", "token": "forged"},
    {"type": "watch", "table": 1, "last_seq": 0},
    {"type": "watch", "table": 2},
    {"type": "ping"},
]
ODD: list[Any] = [None, True, False, 0, -1, 1, 2, 1.0, 2.5, -0.0, 1e308, 10**30, 2**53,
                  2**63, "", "x", "\ud800", "a\udfffb", "\udc00\ud800", "\x00", "\n", "\u202e",
                  "\u200b", "😀" * 40, "k" * 200, "é" * 33, [], {}, [[[]]], {"type": "ping"},
                  "fold", "bet_or_raise", "join", "ping"]
KEYS = ["type", "name", "table", "token", "last_seq", "action", "to", "hand", "seat",
        "\ud800", "", "extra"]


def _dumps(value: Any) -> str:
    # ensure_ascii: lone surrogates go out as \\ud800 escapes (what a hostile client sends)
    return json.dumps(value, ensure_ascii=True, allow_nan=True)


def frame(rng: random.Random) -> str | bytes:
    """One fuzz frame: valid, mutated, or garbage."""
    kind = rng.randrange(12)
    message = dict(rng.choice(VALID))
    if kind == 0:
        return _dumps(message)
    if kind <= 4:   # a field replaced, added or dropped
        for _ in range(rng.randint(1, 3)):
            key = rng.choice(KEYS)
            if rng.random() < 0.2:
                message.pop(key, None)
            else:
                message[key] = rng.choice(ODD)
        return _dumps(message)
    if kind == 5:   # binary
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
    if kind == 6:   # deep JSON
        depth = rng.choice([50, 500, 1000, 1500, 2000])
        opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
        return opener * depth + "1" + closer * depth
    if kind == 7:   # huge numbers
        digits = rng.choice([20, 400, 1500, 3000])
        return _dumps({**message, "table": 1}).replace('"table": 1',
                                                       '"table": ' + "9" * digits)
    if kind == 8:   # non-object JSON
        return rng.choice(["[]", "null", "1", '"x"', "true", "NaN", "-Infinity", "1e999"])
    text = _dumps(message)
    if kind == 9:   # truncated
        return text[:rng.randrange(len(text) + 1)]
    if kind == 10:  # spliced with another
        other = _dumps(rng.choice(VALID))
        return text[:rng.randrange(len(text))] + other[rng.randrange(len(other)):]
    return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0xD800, 0xE000),
                                   rng.randrange(0x110000)]))
                   for _ in range(rng.randint(0, 40))).encode("utf-8", "replace").decode()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def omaha_serve(folder: str) -> Any:
    """A real ``omaha serve`` on a free port; yields its URL and process."""
    port = free_port()
    # The server imports the package this process imported (the installed one in CI, the
    # in-place build under PYTHONPATH=src), never a source tree without its compiled modules.
    import omaha

    home = str(Path(omaha.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": home + os.pathsep + os.environ.get("PYTHONPATH", "")}
    log = open(os.path.join(folder, "serve.log"), "a")   # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [sys.executable, "-m", "omaha", "serve", "--db", os.path.join(folder, "fuzz.sqlite"),
         "--port", str(port), "--tables", "2", "--seats", "3", "--base-ms", "300",
         "--countdown-ms", "300", "--rate", "2000", "--burst", "2000"],
        stdout=subprocess.PIPE, stderr=log, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if "listening" not in line:
            raise RuntimeError("omaha serve did not start: " +
                               Path(folder, "serve.log").read_text()[-2000:])
        yield f"ws://127.0.0.1:{port}", process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def _connect(url: str) -> Any:
    try:
        from websockets.asyncio.client import connect
    except ImportError:   # websockets 12
        from websockets import connect
    return connect(url, max_size=2**22, max_queue=None, open_timeout=10)


class Failure(AssertionError):
    """An invariant broke."""


class Witness:
    """A player at table 1 who checks everything it is sent."""

    def __init__(self, ws: Any, seat: int) -> None:
        self.ws, self.seat, self.hand = ws, seat, 0

    def check(self, message: dict[str, Any]) -> None:
        if message.get("type") != "update":
            return
        self.hand = max(self.hand, int(message["hand"]))
        for item in message["events"]:
            event = item["event"]
            if event["type"] == "hole_dealt" and event["seat"] != self.seat \
                    and event["cards"] is not None:
                raise Failure(f"seat {self.seat} was shown seat {event['seat']}'s cards")
        view = message["view"]
        if view is not None and not view["is_over"] and view["street"] != "showdown":
            for player in view["players"]:
                if player["seat"] != self.seat and player["cards"] is not None:
                    raise Failure(f"seat {self.seat}'s view shows seat {player['seat']}")

    async def ping(self, timeout: float = 10.0) -> None:
        await self.ws.send(json.dumps({"type": "ping"}))
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("a witness got no pong: the server stopped serving it")
            message = json.loads(await asyncio.wait_for(self.ws.recv(), left))
            self.check(message)
            if message["type"] == "pong":
                return


@contextlib.asynccontextmanager
async def witnesses(url: str) -> AsyncIterator[list[Witness]]:
    async with _connect(url) as a, _connect(url) as b:
        out = []
        for ws, name in ((a, "wit-a"), (b, "wit-b")):
            await ws.send(json.dumps({"type": "join", "name": name, "table": 1}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message["type"] == "joined":
                    out.append(Witness(ws, message["seat"]))
                    break
                if message["type"] == "error":
                    raise RuntimeError(f"a witness could not sit: {message}")
        yield out


async def fuzz(url: str, *, seconds: float, seed: int, process: Any = None) -> int:
    """Send fuzz frames for ``seconds``; returns how many. Raises :class:`Failure`."""
    from websockets.exceptions import ConnectionClosed

    rng = random.Random(seed)
    sent = 0
    deadline = time.monotonic() + seconds
    async with witnesses(url) as wits:
        start_hand = max(w.hand for w in wits)
        checked_hand = time.monotonic()
        while True:
            async with _connect(url) as ws:
                closed = False
                while not closed:
                    data = frame(rng)
                    sent += 1
                    try:
                        await ws.send(data)
                        reply = await asyncio.wait_for(ws.recv(), 10)
                        json.loads(reply)
                    except ConnectionClosed as exc:
                        code = exc.rcvd.code if exc.rcvd is not None else None
                        if code == 1011 or code is None and exc.sent is None:
                            raise Failure(f"frame {data[:80]!r} closed with {code}") from None
                        closed = True
                    except TimeoutError:
                        raise Failure(f"no reply to frame {data[:80]!r}") from None
                    if process is not None and process.poll() is not None:
                        raise Failure(f"the server exited after frame {data[:80]!r}")
                    if sent % 25 == 0:
                        for wit in wits:
                            await wit.ping()
                        if time.monotonic() - checked_hand > 15:   # the table still deals
                            if max(w.hand for w in wits) <= start_hand:
                                raise Failure("the witnesses' table stopped dealing hands")
                            start_hand, checked_hand = max(w.hand for w in wits), \
                                time.monotonic()
                    if time.monotonic() > deadline:
                        for wit in wits:
                            await wit.ping()
                        return sent


def run(seconds: float, seed: int = 0, url: str | None = None) -> int:
    """Fuzz for ``seconds`` against ``url`` or a fresh ``omaha serve``; frames sent."""
    if url is not None:
        return asyncio.run(fuzz(url, seconds=seconds, seed=seed))
    with tempfile.TemporaryDirectory() as folder, omaha_serve(folder) as (served, process):
        return asyncio.run(fuzz(served, seconds=seconds, seed=seed, process=process))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--url", default=None, help="a running server (default: start one)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        sent = run(args.seconds, args.seed, args.url)
    except Failure as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    print(f"{sent} frames in {time.monotonic() - started:.0f} s: the server kept serving")
    return 0


if __name__ == "__main__":
    sys.exit(main())
