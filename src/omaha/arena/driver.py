"""An asyncio driver for :class:`~omaha.game.clocked.ClockedHand`: sleeps until the next deadline.

The clock (D1-D4) never reads the time by itself; :class:`ClockDriver` is the loop that
does, for a server running on asyncio. It sleeps until the acting player's deadline (or
until :meth:`ClockDriver.wake` says the hand changed), then calls
:meth:`~omaha.game.clocked.ClockedHand.advance` and hands the timeouts that fired to a callback.
Timeouts fire at their deadlines in virtual time, so a late wake-up changes nothing.

>>> import asyncio, random
>>> from omaha.game.clock import ClockConfig, ManualClock
>>> from omaha.game.clocked import ClockedHand
>>> from omaha.config import GameConfig
>>> from omaha.game.hand import Hand
>>> async def demo():
...     clock = ManualClock(0)
...     hand = Hand(GameConfig.pot_limit(small_blind=1, big_blind=2),
...                 stacks={1: 100, 2: 100}, button=1, rng=random.Random(1))
...     game = ClockedHand(hand, now=0, config=ClockConfig(base_ms=10, countdown_ms=10))
...     fired = []
...     driver = ClockDriver(lambda timeouts: fired.extend(timeouts), time_source=clock)
...     driver.attach(game)
...     task = asyncio.create_task(driver.run())
...     clock.set(25); driver.wake()      # seat 1 (button, small blind) runs out at 20 ms
...     await asyncio.sleep(0.01)
...     driver.stop(); await task
...     return [t.to_dict() for t in fired], hand.is_over
>>> asyncio.run(demo())
([{'type': 'time_ran_out', 'seat': 1, 'at_ms': 20, 'action': 'all_in'}], True)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from omaha.game.clock import MonotonicClock, TimeSource
from omaha.game.clocked import ClockedHand, TimeRanOut

__all__ = ["ClockDriver"]


class ClockDriver:
    """Fires the timeouts of the attached :class:`ClockedHand` when they fall due.

    ``on_timeouts`` receives each non-empty list of :class:`TimeRanOut` (it runs in the
    loop, so it may persist and broadcast before the next decision). ``time_source`` gives
    integer milliseconds (default :class:`~omaha.game.clock.MonotonicClock`); with a source that
    does not follow real time (tests), call :meth:`wake` after moving it.
    """

    def __init__(self, on_timeouts: Callable[[list[TimeRanOut]], None], *,
                 time_source: TimeSource | None = None) -> None:
        self._on_timeouts = on_timeouts
        self._source = time_source if time_source is not None else MonotonicClock()
        self._game: ClockedHand | None = None
        self._wake = asyncio.Event()
        self._stopped = False

    def now(self) -> int:
        """The current time in integer milliseconds, from the time source."""
        return self._source.now()

    @property
    def game(self) -> ClockedHand | None:
        """The clocked hand being driven (None between hands)."""
        return self._game

    def attach(self, game: ClockedHand | None) -> None:
        """Drive ``game`` from now on (None: nothing to drive) and re-read its deadline."""
        self._game = game
        self._wake.set()

    def wake(self) -> None:
        """The hand changed (or the time source moved): re-read the deadline now."""
        self._wake.set()

    def stop(self) -> None:
        """End :meth:`run` at its next wake-up."""
        self._stopped = True
        self._wake.set()

    def _delay(self) -> float | None:
        game = self._game
        if game is None or game.clock.deadline_ms is None:
            return None
        return max(0.0, (game.clock.deadline_ms - self.now()) / 1000)

    def poll(self) -> list[TimeRanOut]:
        """Fire what is due now and report it; returns the timeouts fired."""
        game = self._game
        if game is None or game.hand.is_over:
            return []
        fired = game.advance(self.now())
        if fired:
            self._on_timeouts(fired)
        return fired

    async def run(self) -> None:
        """Loop until :meth:`stop`: sleep to the next deadline or wake-up, then :meth:`poll`."""
        while not self._stopped:
            self._wake.clear()
            self.poll()
            delay = self._delay()
            if delay is not None and delay <= 0:
                continue
            try:
                await asyncio.wait_for(self._wake.wait(), delay)
            except asyncio.TimeoutError:
                pass
