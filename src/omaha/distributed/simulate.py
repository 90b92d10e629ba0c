"""Bot-vs-bot simulations in chunks with banked scoring, merged exactly (``omaha simulate``).

Every hand starts each seat with the same ``stack`` (banked scoring: the result of a hand
never carries into the next), and the button is on seat ``1 + h % players`` for hand ``h``
(numbered across the whole run), so every seat has the button equally often however the
run is cut. Chunk ``k`` draws its cards and the bots' choices from a generator seeded with
``(seed, k)`` (from the OS when ``seed`` is None, C2), so a seeded run gives the same
result in one process, on 2 local cores or on a cluster (for the same ``chunk_hands``). Per seat a chunk returns
integer sums (:class:`SeatStats`: hands, net chips, net squared), which add exactly; the
mean in big blinds per 100 hands and its 95% confidence interval come from those sums.

>>> from omaha.config import GameConfig
>>> config = GameConfig.pot_limit(small_blind=1, big_blind=2)
>>> result = run_play(config, ["strength", "random", "random"], hands=300, seed=1, chunk_hands=100)
>>> result.hands, sum(s.net for s in result.seats.values())
(300, 0)
>>> result == run_play(config, ["strength", "random", "random"], hands=300, seed=1, chunk_hands=100)
True
>>> row = result.summary()[0]
>>> row["bot"], row["hands"], row["ci95"] > 0
('strength', 300, True)
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from omaha.config import GameConfig
from omaha.distributed.runner import run_chunks
from omaha.errors import ConfigError

__all__ = ["SeatStats", "SimulationResult", "play_chunk", "run_play", "run_play_on_ray"]

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class SeatStats:
    """One seat's integer sums over some hands: count, net chips, net chips squared."""

    hands: int = 0
    net: int = 0
    net_squared: int = 0

    def __add__(self, other: SeatStats) -> SeatStats:
        return SeatStats(self.hands + other.hands, self.net + other.net,
                         self.net_squared + other.net_squared)

    def bb_per_100(self, big_blind: int) -> float:
        """The mean result in big blinds per 100 hands."""
        return 100 * self.net / big_blind / self.hands if self.hands else 0.0

    def ci95(self, big_blind: int) -> float:
        """Half the width of the 95% confidence interval of :meth:`bb_per_100` (normal)."""
        n = self.hands
        if n < 2:
            return math.inf
        variance = (self.net_squared - self.net * self.net / n) / (n - 1)
        return Z95 * math.sqrt(max(variance, 0.0) / n) * 100 / big_blind


@dataclass
class SimulationResult:
    """Hands played, each seat's bot and its :class:`SeatStats`."""

    config: GameConfig
    bots: dict[int, str]
    hands: int = 0
    seats: dict[int, SeatStats] = field(default_factory=dict)

    def merge(self, other: SimulationResult) -> None:
        """Add another result of the same game and bots in place (exact: integer sums)."""
        if other.config != self.config or other.bots != self.bots:
            raise ConfigError(None, "only results of the same game and bots merge")
        self.hands += other.hands
        for seat, stats in other.seats.items():
            self.seats[seat] = self.seats.get(seat, SeatStats()) + stats

    def summary(self) -> list[dict[str, Any]]:
        """Per seat: bot, hands, net chips, bb/100 and the 95% interval's half width."""
        bb = self.config.big_blind
        return [{"seat": seat, "bot": self.bots[seat], "hands": s.hands, "net": s.net,
                 "bb_per_100": s.bb_per_100(bb), "ci95": s.ci95(bb)}
                for seat, s in sorted(self.seats.items())]


def play_chunk(config: GameConfig, bots: Sequence[str], stack: int, first_hand: int,
               hands: int, seed: int | None, chunk: int,
               phh_dir: str | None = None) -> SimulationResult:
    """Play hands ``first_hand .. first_hand + hands - 1`` of a run (one task).

    With ``phh_dir`` the hands are written to ``phh_dir/shard-CHUNK.phhs`` (the folder must
    be reachable from every worker, e.g. a shared file system on a cluster).
    """
    from omaha.bots import BOTS, act, situation
    from omaha.hand import Hand

    if seed is None:
        rng = random.Random(int.from_bytes(os.urandom(16), "little"))
    else:
        rng = random.Random(f"omaha-simulate:{seed}:{chunk}")
    players = len(bots)
    by_seat = {seat: BOTS[name]() for seat, name in enumerate(bots, start=1)}
    stacks = dict.fromkeys(by_seat, stack)
    sums = dict.fromkeys(by_seat, (0, 0))
    histories: dict[str, Any] = {}
    for h in range(first_hand, first_hand + hands):
        hand = Hand(config, stacks=stacks, button=1 + h % players, rng=rng)
        while not hand.is_over:
            act(hand, by_seat[hand._to_act + 1].decide(situation(hand), rng))
        for i, chips in enumerate(hand._stacks):
            net = chips - stack
            total, squares = sums[i + 1]
            sums[i + 1] = (total + net, squares + net * net)
        if phh_dir is not None:
            from omaha.phh.export import history_from_events

            histories[str(h + 1)] = history_from_events(hand.events, metadata={"hand": h + 1})
    if phh_dir is not None:
        from omaha.phh import dump_all

        os.makedirs(phh_dir, exist_ok=True)
        dump_all(histories, os.path.join(phh_dir, f"shard-{chunk:06d}.phhs"))
    return SimulationResult(config, dict(enumerate(bots, start=1)), hands,
                            {seat: SeatStats(hands, net, sq) for seat, (net, sq) in sums.items()})


def _chunks(config: GameConfig, bots: Sequence[str], hands: int, stack: int | None,
            seed: int | None, chunk_hands: int, phh_dir: str | None) -> list[tuple[Any, ...]]:
    from omaha.bots import BOTS

    if not isinstance(config, GameConfig):
        raise ConfigError(None, f"config must be a GameConfig, got {config!r}")
    bots = list(bots)
    unknown = [name for name in bots if name not in BOTS]
    if unknown:
        raise ConfigError(None, f"unknown bot {unknown[0]!r}; choose from {', '.join(BOTS)}")
    if not 2 <= len(bots) <= config.variant.max_players:
        raise ConfigError("T1", f"{config.variant.name} seats 2 to {config.variant.max_players} "
                          f"players, got {len(bots)}")
    for name, value in (("hands", hands), ("chunk_hands", chunk_hands)):
        if type(value) is not int or value < 1:
            raise ConfigError(None, f"{name} must be a positive int, got {value!r}")
    stack = 100 * config.big_blind if stack is None else stack
    if type(stack) is not int or not 0 < stack <= 10**12:
        raise ConfigError("B8", f"stack must be a positive int up to 10**12, got {stack!r}")
    if seed is not None and (type(seed) is not int):
        raise ConfigError(None, f"seed must be an int or None, got {seed!r}")
    return [(config, bots, stack, first, min(chunk_hands, hands - first), seed, k, phh_dir)
            for k, first in enumerate(range(0, hands, chunk_hands))]


def _merge(config: GameConfig, bots: Sequence[str],
           parts: Sequence[SimulationResult]) -> SimulationResult:
    total = SimulationResult(config, dict(enumerate(bots, start=1)))
    for part in parts:
        total.merge(part)
    return total


def run_play(config: GameConfig, bots: Sequence[str], *, hands: int, stack: int | None = None,
             seed: int | None = None, chunk_hands: int = 10_000, phh_dir: str | None = None,
             on_chunk: Callable[[int, SimulationResult], None] | None = None) -> SimulationResult:
    """The simulation in this process (same chunks, same result as :func:`run_play_on_ray`).

    ``bots`` names one built-in bot per seat; ``stack`` defaults to 100 big blinds.
    """
    chunks = _chunks(config, bots, hands, stack, seed, chunk_hands, phh_dir)
    return _merge(config, bots, run_chunks(play_chunk, chunks, on_result=on_chunk))


def run_play_on_ray(config: GameConfig, bots: Sequence[str], *, hands: int,
                    stack: int | None = None, seed: int | None = None,
                    address: str | None = None, num_cpus: int | None = None,
                    chunk_hands: int = 50_000, phh_dir: str | None = None,
                    on_chunk: Callable[[int, SimulationResult], None] | None = None,
                    ) -> SimulationResult:
    """The simulation as Ray tasks of ``chunk_hands`` hands each, merged exactly.

    ``address`` picks the cluster (default: the running session, else a new local one with
    ``num_cpus`` CPUs). A seeded run returns exactly what :func:`run_play` returns.
    """
    chunks = _chunks(config, bots, hands, stack, seed, chunk_hands, phh_dir)
    parts = run_chunks(play_chunk, chunks, ray=True, address=address, num_cpus=num_cpus,
                       on_result=on_chunk)
    return _merge(config, bots, parts)
