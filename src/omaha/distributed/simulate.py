"""Bot-vs-bot simulations in chunks with banked scoring, merged exactly (``omaha simulate``).

Every hand starts each seat with the same ``stack`` (banked scoring: the result of a hand
never carries into the next), and the button is on seat ``1 + d % players`` for deal ``d``
(numbered across the whole run), so every seat has the button equally often however the
run is cut; ``duplicate`` plays each deal once from every seat (the scoring and duplicate
mode of ``omaha play``). Deal ``d`` draws its cards and the bots' choices from a generator
seeded with :func:`omaha.game.bots.deal_seed` ``(seed, d)`` (from the OS, once per chunk,
when ``seed`` is None, C2), so a seeded run gives the same result in one process, on 2 local
cores or on a cluster, for any ``chunk_hands``, and the same as ``omaha play`` with that
seed. ``bots`` are specs of :func:`omaha.game.userbots.load_bot` (a built-in name,
``module:callable`` or ``file.py:callable``), loaded in the process that plays the chunk;
a result names each seat's bot by the bot's name. Per seat a chunk returns
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

import contextlib
import math
import operator
import os
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import omaha.limits as _limits
from omaha.config import GameConfig
from omaha.distributed.runner import run_chunks
from omaha.errors import ConfigError
from omaha.limits import as_int

__all__ = ["SeatStats", "SimulationResult", "play_chunk", "run_play", "run_play_on_ray"]

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class SeatStats:
    """One seat's integer sums: hands, independent samples, net chips, samples squared.

    A sample is one hand, or in duplicate mode one deal played from every seat (its net
    over those hands); ``net_squared`` sums the squares of the samples' nets.
    """

    hands: int = 0
    samples: int = 0
    net: int = 0
    net_squared: int = 0

    def __add__(self, other: SeatStats) -> SeatStats:
        return SeatStats(self.hands + other.hands, self.samples + other.samples,
                         self.net + other.net, self.net_squared + other.net_squared)

    def bb_per_100(self, big_blind: int) -> float:
        """The mean result in big blinds per 100 hands."""
        return 100 * self.net / big_blind / self.hands if self.hands else 0.0

    def ci95(self, big_blind: int) -> float | None:
        """Half the width of the 95% confidence interval of :meth:`bb_per_100` (normal
        approximation over the independent samples); None with fewer than two."""
        n = self.samples
        if n < 2:
            return None
        variance = (self.net_squared - self.net * self.net / n) / (n - 1)
        hands_per_sample = self.hands / n
        return Z95 * math.sqrt(max(variance, 0.0) / n) * 100 / big_blind / hands_per_sample


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


def play_chunk(config: GameConfig, bots: Sequence[str], stack: int, first_deal: int,
               deals: int, seed: int | None, chunk: int, phh_dir: str | None = None,
               duplicate: bool = False) -> SimulationResult:
    """Play deals ``first_deal .. first_deal + deals - 1`` of a run (one task).

    A deal is one hand, or with ``duplicate`` one shuffled deck played once per seat, the
    bots moving one seat clockwise between replays (every bot plays every seat's cards);
    a bot's seat in the result is the seat it started in. With ``phh_dir`` the hands are
    written to ``phh_dir/shard-CHUNK.phhs`` (the folder must be reachable from every
    worker, e.g. a shared file system on a cluster).
    """
    from omaha.game.bots import deal_seed
    from omaha.game.dealing import cards_needed
    from omaha.game.userbots import load_bot

    rng = random.Random(int.from_bytes(os.urandom(16), "little"))   # reseeded per deal if seeded
    players = len(bots)
    seats = range(1, players + 1)
    by_seat = {seat: load_bot(name) for seat, name in zip(seats, bots)}
    stacks = dict.fromkeys(seats, stack)
    per_deal = players if duplicate else 1
    needed = cards_needed(players, config.variant.hole_cards)
    sums = dict.fromkeys(seats, (0, 0))
    with contextlib.ExitStack() as cleanup:
        writer = _shard_writer(phh_dir, chunk, cleanup) if phh_dir is not None else None
        for d in range(first_deal, first_deal + deals):
            if seed is not None:
                rng.seed(deal_seed(seed, d))
            _play_deal(config, d, per_deal, players, needed, duplicate, stacks, stack, rng,
                       by_seat, sums, writer)
    hands = deals * per_deal
    return SimulationResult(config, {seat: by_seat[seat].name for seat in seats}, hands,
                            {seat: SeatStats(hands, deals, net, sq)
                             for seat, (net, sq) in sums.items()})


class _Chunks(Sequence[tuple[Any, ...]]):
    """The chunks of a run, made one at a time (a run of many hands in small chunks never
    holds them all): chunk ``k`` is ``play_chunk``'s arguments."""

    def __init__(self, head: tuple[Any, ...], tail: tuple[Any, ...], deals: int,
                 chunk: int) -> None:
        self.head, self.tail, self.deals, self.chunk = head, tail, deals, chunk

    def __len__(self) -> int:
        return (self.deals + self.chunk - 1) // self.chunk

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        k = operator.index(k)
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(k)
        first = k * self.chunk
        return (*self.head, first, min(self.chunk, self.deals - first), self.tail[0], k,
                *self.tail[1:])

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return (self[k] for k in range(len(self)))


def _shard_writer(phh_dir: str, chunk: int, cleanup: contextlib.ExitStack) -> Any:
    """The streaming PHH writer of one chunk's shard: written to a temporary file and renamed
    into place when the chunk ends, so a failed chunk leaves no partial shard."""
    from omaha.phh.export import PhhWriter

    os.makedirs(phh_dir, exist_ok=True)
    final = os.path.join(phh_dir, f"shard-{chunk:06d}.phhs")
    partial = final + ".partial"
    file = cleanup.enter_context(open(partial, "w", encoding="utf-8", newline="\n"))  # noqa: SIM115
    writer = PhhWriter(file)

    def finish(kind: object, *_: object) -> None:
        file.close()
        if kind is None:
            os.replace(partial, final)
        else:
            os.unlink(partial)

    cleanup.push(finish)
    return writer


def _play_deal(config: GameConfig, d: int, per_deal: int, players: int, needed: int,
               duplicate: bool, stacks: dict[int, int], stack: int, rng: random.Random,
               by_seat: dict[int, Any], sums: dict[int, tuple[int, int]], writer: Any) -> None:
    """One deal: one hand, or with ``duplicate`` the same deck once per seat rotation."""
    from omaha.game.bots import act, situation
    from omaha.game.deck import shuffled_cards
    from omaha.game.hand import Hand

    seats = range(1, players + 1)
    deck = shuffled_cards(needed, rng) if duplicate else None
    totals = dict.fromkeys(seats, 0)
    for shift in range(per_deal):
        # seat s holds the bot that started at seat s + shift (bots move clockwise)
        start = [(s - 1 + shift) % players + 1 for s in seats]
        hand = Hand(config, stacks=stacks, button=1 + d % players, rng=rng, deck=deck)
        while not hand.is_over:
            act(hand, by_seat[start[hand._to_act]].decide(situation(hand), rng))
        for i, chips in enumerate(hand._stacks):
            totals[start[i]] += chips - stack
        if writer is not None:
            writer.write(hand, d * per_deal + shift + 1)
    for seat, net in totals.items():
        total, squares = sums[seat]
        sums[seat] = (total + net, squares + net * net)


def _chunks(config: GameConfig, bots: Sequence[str], hands: int, stack: int | None,
            seed: int | None, chunk_hands: int, phh_dir: str | None,
            duplicate: bool) -> _Chunks:
    if not isinstance(config, GameConfig):
        raise ConfigError(None, f"config must be a GameConfig, got {config!r}")
    bots = list(bots)
    _names(bots)                      # every spec names a bot (UserBotError before any task)
    if not 2 <= len(bots) <= config.variant.max_players:
        raise ConfigError("T1", f"{config.variant.name} seats 2 to {config.variant.max_players} "
                          f"players, got {len(bots)}")
    hands = as_int(hands, "hands", low=1, error=ConfigError, limit="MAX_SIMULATED_HANDS")
    chunk_hands = as_int(chunk_hands, "chunk_hands", low=1, error=ConfigError)
    stack = 100 * config.big_blind if stack is None else stack
    stack = as_int(stack, "stack", low=1, high=10**12, error=ConfigError, rule="B8")
    if seed is not None:
        seed = as_int(seed, "seed", error=ConfigError)
    if type(duplicate) is not bool:
        raise ConfigError(None, f"duplicate must be a bool, got {duplicate!r}")
    per_deal = len(bots) if duplicate else 1
    deals = -(-hands // per_deal)                       # whole duplicate sets, rounded up
    chunk = max(1, chunk_hands // per_deal)
    return _Chunks((config, bots, stack), (seed, phh_dir, duplicate), deals, chunk)


def _check_tasks(tasks: int, knob: str) -> None:
    """Refuse a Ray job of more than :data:`omaha.limits.MAX_CHUNKS` tasks, before any."""
    if tasks > _limits.MAX_CHUNKS:
        raise ConfigError(None, f"the job would send {tasks:,} tasks to Ray, more than "
                          f"MAX_CHUNKS = {_limits.MAX_CHUNKS:,}; make {knob} larger (or raise "
                          "omaha.limits.MAX_CHUNKS)")


def _names(bots: Sequence[str]) -> dict[int, str]:
    """Each seat's bot name (loading each spec once here checks that it names a bot)."""
    from omaha.game.userbots import load_bot

    return {seat: load_bot(spec).name for seat, spec in enumerate(bots, start=1)}


def _merge(config: GameConfig, bots: Sequence[str],
           parts: Sequence[SimulationResult]) -> SimulationResult:
    total = SimulationResult(config, _names(bots))
    for part in parts:
        total.merge(part)
    return total


def run_play(config: GameConfig, bots: Sequence[str], *, hands: int, stack: int | None = None,
             seed: int | None = None, chunk_hands: int = 10_000, phh_dir: str | None = None,
             duplicate: bool = False,
             on_chunk: Callable[[int, SimulationResult], None] | None = None) -> SimulationResult:
    """The simulation in this process (same chunks, same result as :func:`run_play_on_ray`).

    ``bots`` names one bot per seat (a :func:`~omaha.game.userbots.load_bot` spec); ``stack`` defaults to 100 big blinds;
    ``duplicate`` plays each deal from every seat (``hands`` rounded up to whole sets).
    """
    chunks = _chunks(config, bots, hands, stack, seed, chunk_hands, phh_dir, duplicate)
    total = SimulationResult(config, _names(chunks.head[1]))
    for index, chunk in enumerate(chunks):     # merged as they come: memory O(1 chunk)
        part = play_chunk(*chunk)
        if on_chunk is not None:
            on_chunk(index, part)
        total.merge(part)
    return total


def run_play_on_ray(config: GameConfig, bots: Sequence[str], *, hands: int,
                    stack: int | None = None, seed: int | None = None,
                    address: str | None = None, num_cpus: int | None = None,
                    chunk_hands: int = 50_000, phh_dir: str | None = None,
                    duplicate: bool = False,
                    on_chunk: Callable[[int, SimulationResult], None] | None = None,
                    ) -> SimulationResult:
    """The simulation as Ray tasks of ``chunk_hands`` hands each, merged exactly.

    ``address`` picks the cluster (default: the running session, else a new local one with
    ``num_cpus`` CPUs). A seeded run returns exactly what :func:`run_play` returns.
    """
    chunks = _chunks(config, bots, hands, stack, seed, chunk_hands, phh_dir, duplicate)
    _check_tasks(len(chunks), "chunk_hands")
    parts = run_chunks(play_chunk, chunks, ray=True, address=address, num_cpus=num_cpus,
                       on_result=on_chunk)
    return _merge(config, bots, parts)
