"""What the cash arena's server and the tournament server share: the connection limits, a
connection's outbox and rate-limit bucket, listening behind the web gate's Origin check, one
writer task per connection (so each client receives its messages in order), stopping, and
running until a signal.

``websockets`` is imported when a server starts, never when this module is imported.
"""

from __future__ import annotations

import asyncio
import gc
import json
import math
import signal
import time
from collections.abc import Callable
from typing import Any, Protocol

from omaha.arena.driver import ClockDriver
from omaha.arena.web import WebGate
from omaha.errors import OmahaError
from omaha.limits import ARENA_MAX_BURST as MAX_BURST
from omaha.limits import ARENA_MAX_FRAME as MAX_FRAME
from omaha.limits import ARENA_MAX_OPEN_TIMEOUT as MAX_OPEN_TIMEOUT
from omaha.limits import ARENA_MAX_RATE as MAX_RATE
from omaha.limits import as_int, safe_repr

__all__ = ["Connection", "WebSocketService", "import_websockets", "positive",
           "run_until_signalled"]

INSTALL_HINT = 'the arena needs the server extra: pip install "omaha-poker[server]"'
SLOW_CLIENT_BYTES = 4 << 20   # unsent bytes after which a client that does not read is dropped
_OPEN: Any = None             # websockets.protocol.State.OPEN, set when a server starts


def import_websockets() -> Any:
    """The ``websockets`` package, or :class:`ImportError` with the install hint."""
    try:
        import websockets
    except ImportError:
        raise ImportError(INSTALL_HINT) from None
    return websockets


def positive(value: object, what: str, high: float) -> float:
    """A finite number above 0 and at most ``high`` (NaN, 0 or infinity would switch the
    guard it sets off); :class:`~omaha.errors.OmahaError` names ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise OmahaError(f"{what} must be a number, got {safe_repr(value)}")
    number = float(value)
    if not (math.isfinite(number) and 0 < number <= high):
        raise OmahaError(f"{what} must be above 0 and at most {high:g}, got {safe_repr(value)}")
    return number


class Sent(Protocol):
    """Told when a queued frame has been written (the arena's latency counters)."""

    def sent(self) -> None: ...


class Connection:
    """One connection: its outbox and its rate-limit bucket."""

    def __init__(self, ws: Any, rate: float, burst: int) -> None:
        self.ws = ws
        self.outbox: asyncio.Queue[tuple[str, Sent | None] | None] = asyncio.Queue()
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.closing = False
        self.writer: asyncio.Task[None] | None = None
        # websockets >= 13 (the asyncio implementation): write frames synchronously
        self.direct = _OPEN is not None and hasattr(ws, "protocol") and hasattr(ws, "send_data")
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def push(self, message: dict[str, Any], pending: Any = None) -> None:
        self.push_text(json.dumps(message, separators=(",", ":")), pending)

    def push_text(self, text: str, pending: Any = None) -> None:
        if self.direct and self.outbox.empty():
            self._write_now(text)
            return
        if pending is not None:
            pending.left += 1
        self.outbox.put_nowait((text, pending))

    def _write_now(self, text: str) -> None:
        """Write one text frame to the socket at once, in call order, without awaiting.

        Awaiting ``send`` for every recipient would queue each write behind every other
        table's work; writing through the connection's protocol keeps each client's messages
        in order and puts them on the wire before the next action is read. A client that
        does not read has its unsent data capped: over ``SLOW_CLIENT_BYTES`` it is dropped.
        """
        ws = self.ws
        if ws.protocol.state is not _OPEN:
            return
        try:
            ws.protocol.send_text(text.encode())
            ws.send_data()
        except Exception:  # noqa: BLE001 - closing connection: its handler cleans up
            return
        if ws.transport.get_write_buffer_size() > SLOW_CLIENT_BYTES:
            ws.transport.abort()


class WebSocketService:
    """A WebSocket server's life: the connection limits (checked here, typed errors naming
    the field), listening behind ``gate`` (the page and the Origin check), one writer task per
    connection, and ``stop``/``close``. Subclasses handle the connections (``_handle``) and
    extend :meth:`close` with what they own."""

    def __init__(self, *, host: str, port: int, gate: WebGate, max_size: int, rate: float,
                 burst: int, open_timeout: float) -> None:
        self.host, self.port = host, port
        self.gate = gate
        self.max_size = as_int(max_size, "max_size", low=1, high=MAX_FRAME)
        self.rate = positive(rate, "rate", MAX_RATE)
        self.burst = as_int(burst, "burst", low=1, high=MAX_BURST)
        self.open_timeout = positive(open_timeout, "open_timeout", MAX_OPEN_TIMEOUT)
        self._drivers: dict[int, ClockDriver] = {}
        self._tasks: list[asyncio.Task[Any]] = []
        self._server: Any = None
        self._stop = asyncio.Event()   # needs no running loop since Python 3.10

    async def _handle(self, ws: Any) -> None:
        raise NotImplementedError

    async def _listen(self) -> int:
        """Listen on ``host:port``; the port bound (``port`` 0: the one drawn)."""
        global _OPEN
        websockets = import_websockets()
        try:
            from websockets.protocol import State
            _OPEN = State.OPEN
        except ImportError:   # pragma: no cover
            _OPEN = None
        extra: dict[str, Any] = {}
        try:
            from websockets.asyncio.server import serve as ws_serve
            extra["process_request"] = self.gate.process_request   # the page, Origin check
        except ImportError:   # websockets 12: no web client, no Origin check
            ws_serve = websockets.serve
        self._server = await ws_serve(self._handle, self.host, self.port,
                                      max_size=self.max_size, max_queue=16, compression=None,
                                      open_timeout=self.open_timeout, **extra)
        self.port = next(iter(self._server.sockets)).getsockname()[1]
        return self.port

    async def run_until_stopped(self) -> None:
        """Serve until :meth:`stop` (or SIGINT/SIGTERM when run by
        :func:`run_until_signalled`)."""
        await self._stop.wait()
        await self.close()

    def stop(self) -> None:
        self._stop.set()

    async def close(self) -> None:
        """Stop the clocks, stop listening, end the tasks."""
        for driver in self._drivers.values():
            driver.stop()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _writer(self, client: Connection) -> None:
        """Send ``client``'s queued frames in order until a ``None`` ends the queue."""
        from websockets.exceptions import ConnectionClosed

        while True:
            item = await client.outbox.get()
            if item is None:
                return
            text, pending = item
            try:
                await client.ws.send(text)
            except ConnectionClosed:
                pass
            if pending is not None:
                pending.sent()


class _Server(Protocol):
    async def start(self) -> int: ...
    def stop(self) -> None: ...
    async def run_until_stopped(self) -> None: ...


async def run_until_signalled(server: _Server, ready: Callable[[int], None] | None) -> None:
    """Start ``server``, call ``ready(port)``, and serve until SIGINT/SIGTERM (or ``stop``)."""
    bound = await server.start()
    # a long-running server: move start-up objects out of the collector's way (shorter
    # full collections, so fewer long pauses in the action latency's tail)
    gc.collect()
    gc.freeze()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, server.stop)
        except (NotImplementedError, RuntimeError):   # Windows
            pass
    if ready is not None:
        ready(bound)
    await server.run_until_stopped()
