"""Fuzz the parsers that read outside data: PHH text and snapshot JSON (issue 10), and
corpus replay hand by hand (issue 22: every hand gets a report; the compiled fast path and
the general path agree).

Every input must end in one of two ways: it is read (and, for a history, replayed; for a
snapshot, restored), or it is refused with an ``OmahaError`` (``HistoryError``,
``SnapshotError``...). Any other exception — ``RecursionError``, ``KeyError``,
``OverflowError``, ``decimal.Overflow``... — or a hang is a bug. A snapshot that restores
must snapshot again to data that restores to the same thing, with its chips conserved.

Inputs: mutations (byte flips, insertions, deletions, splices, deep nesting, huge numbers) of
real seeds — the committed PHH fixtures and snapshots of random hands and tables — and, for
snapshots, edits that are re-digested (a forger who knows the format), so the checks behind
the digest are fuzzed too.

Run for a chosen time (atheris when it is installed, else Hypothesis)::

    PYTHONPATH=src python3 fuzz/fuzz_parsers.py --seconds 300
    PYTHONPATH=src python3 fuzz/fuzz_parsers.py --seconds 60 --engine hypothesis --target phh

The test suite runs a short Hypothesis budget of it (``tests/test_fuzz_parsers.py``).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from omaha.config import GameConfig
from omaha.errors import OmahaError
from omaha.game.clocked import ClockedHand
from omaha.game.hand import Hand
from omaha.game.table import Table
from omaha.history.snapshot import loads_snapshot
from omaha.phh import loads_all
from omaha.phh.replay import replay_history

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ("phh", "snapshot", "resealed", "corpus")


# ----------------------------------------------------------------- seeds


def phh_seeds() -> list[bytes]:
    """The committed PHH fixtures, plus a few small hands in other shapes."""
    seeds = [path.read_bytes() for path in sorted((ROOT / "tests" / "data").glob("*.phh*"))]
    seeds.append(b'variant = "PO"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
                 b'starting_stacks = [100, 100]\nseats = [1, 2]\nseat_count = 6\nday = 3\n'
                 b'actions = ["d dh p1 AcAd2h3s", "d dh p2 KcKd4h5s", "p2 cbr 6", "p1 f"]\n')
    return seeds


def corpus_seeds() -> list[bytes]:
    """The real-data excerpts (decimals, inf, ????, one blind, stud, a broken hand)."""
    return [path.read_bytes() for path in sorted((ROOT / "tests" / "data" / "corpus").glob("*.phh*"))]


def snapshot_seeds() -> list[bytes]:
    """Snapshots of hands, tables and clocked hands at various points."""
    rng = random.Random(10)
    config = GameConfig.pot_limit(small_blind=1, big_blind=2)
    out: list[bytes] = []
    hand = Hand(config, stacks={1: 80, 3: 120, 4: 60}, button=3, rng=random.Random(1))
    out.append(json.dumps(hand.snapshot()).encode())
    hand.bet_or_raise(7)
    out.append(json.dumps(hand.snapshot()).encode())
    while not hand.is_over:
        hand.check_or_call()
    out.append(json.dumps(hand.snapshot()).encode())
    table = Table(config, seats=4, rng=random.Random(2))
    for seat in (1, 2, 4):
        table.sit(seat, stack=rng.randrange(20, 200))
    out.append(json.dumps(table.snapshot()).encode())
    table.start_hand().check_or_call()
    out.append(json.dumps(table.snapshot()).encode())
    clocked = ClockedHand(Hand(config, stacks={1: 50, 2: 50}, button=1, rng=random.Random(3)),
                          now=0)
    clocked.advance(40_000)
    out.append(json.dumps(clocked.snapshot()).encode())
    return out


# ----------------------------------------------------------------- checks


def check_phh(data: bytes) -> None:
    """Read and replay ``data`` as PHH: success or an OmahaError, nothing else."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            hands = loads_all(text)
        except OmahaError:
            return
        for history in hands:
            try:
                result = replay_history(history)
            except OmahaError:
                continue
            stacks = result.finishing_stacks
            if result.complete:
                rake = result.hand.result.rake if result.hand.result is not None else 0
                assert sum(stacks) + rake == sum(history.starting_stacks)


def check_corpus(data: bytes) -> None:
    """Split ``data`` into hands and replay each as ``omaha replay`` does: every hand gets a
    report (never an exception), and the compiled fast path agrees with the general path."""
    from omaha.phh import corpus

    for hand, text in corpus._split(data):
        report = corpus.replay_section("fuzz.phhs", hand, text)
        assert report.result in corpus.RESULTS
        assert (report.error is None) == (report.result in ("matched", "mismatched", "replayed"))
        assert report == corpus._general_report("fuzz.phhs", hand, text), (report, text)


def _restore_any(data: Any) -> Hand | Table | ClockedHand | None:
    for restore in (Hand.restore, Table.restore, ClockedHand.restore):
        try:
            return restore(data)  # type: ignore[no-any-return]
        except OmahaError:
            continue
    return None


def _check_restored(obj: Hand | Table | ClockedHand) -> None:
    again = json.loads(json.dumps(obj.snapshot()))
    copy = type(obj).restore(again)
    assert json.dumps(copy.snapshot(), sort_keys=True) == json.dumps(again, sort_keys=True)
    hand = obj.hand if not isinstance(obj, Hand) else obj
    if isinstance(hand, Hand):
        start = sum(hand.events[0].stacks)  # type: ignore[attr-defined]
        rake = hand.result.rake if hand.is_over and hand.result is not None else 0
        pot = 0 if hand.is_over else hand.pot_total
        assert sum(hand.stacks.values()) + pot + rake == start


def check_snapshot(data: bytes) -> None:
    """Parse and restore ``data`` as snapshot JSON: success or an OmahaError, nothing else."""
    try:
        parsed = loads_snapshot(data)
    except OmahaError:
        return
    obj = _restore_any(parsed)
    if obj is not None:
        _check_restored(obj)


def reseal(value: Any) -> Any:
    """``value`` with a fresh digest on every snapshot dict in it (what a forger would do)."""
    if isinstance(value, dict):
        body = {k: reseal(v) for k, v in value.items() if k != "digest"}
        if "format" in value and "digest" in value:
            try:
                canonical = json.dumps(body, sort_keys=True, separators=(",", ":"),
                                       ensure_ascii=True, allow_nan=False)
            except (TypeError, ValueError):
                return body
            body["digest"] = "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()
        return body
    if isinstance(value, list):
        return [reseal(v) for v in value]
    return value


def check_resealed(data: bytes) -> None:
    """Like :func:`check_snapshot`, after re-digesting the (edited) snapshot."""
    try:
        parsed = loads_snapshot(data)
    except OmahaError:
        return
    obj = _restore_any(reseal(parsed))
    if obj is not None:
        _check_restored(obj)


CHECKS: dict[str, Callable[[bytes], None]] = {
    "phh": check_phh, "snapshot": check_snapshot, "resealed": check_resealed,
    "corpus": check_corpus,
}


# ----------------------------------------------------------------- mutations


def mutate(seed: bytes, rng: random.Random) -> bytes:
    """A few random edits of ``seed`` aimed at parsers: bytes, numbers, brackets, splices."""
    data = bytearray(seed)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(8)
        at = rng.randrange(len(data) + 1)
        if kind == 0 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif kind == 1:
            data[at:at] = bytes(rng.randrange(32, 127) for _ in range(rng.randint(1, 8)))
        elif kind == 2:
            del data[at:at + rng.randint(1, 16)]
        elif kind == 3:
            depth = rng.choice([40, 1_000, 100_000])
            data[at:at] = b"[" * depth + b"]" * depth * rng.randint(0, 1)
        elif kind == 4:
            data[at:at] = rng.choice([b"9" * 30, b"-1", b"0", b"1e999999999", b"nan", b"true",
                                      b"2.5", b"9223372036854775808", b'""', b"null", b"{}"])
        elif kind == 5:   # change a number already there
            digits = [i for i, b in enumerate(data) if 48 <= b <= 57]
            if digits:
                i = rng.choice(digits)
                data[i] = rng.randrange(48, 58)
        elif kind == 6 and data:
            start = rng.randrange(len(data))
            data[at:at] = data[start:start + rng.randint(1, 64)]
        else:
            data = data[:at]
    return bytes(data)


def seeds_for(target: str) -> list[bytes]:
    return {"phh": phh_seeds, "corpus": corpus_seeds}.get(target, snapshot_seeds)()


# ----------------------------------------------------------------- engines


def run_hypothesis(targets: tuple[str, ...], *, seconds: float, examples: int | None = None,
                   ) -> int:
    """Fuzz with Hypothesis for ``seconds`` (or ``examples`` inputs); returns inputs tried."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    seeds = {target: seeds_for(target) for target in targets}
    tried = 0

    @settings(max_examples=examples or 300, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(target=st.sampled_from(targets), pick=st.integers(0, 10**6),
           noise=st.integers(0, 2**64), raw=st.binary(max_size=64), fresh=st.booleans())
    def fuzz(target: str, pick: int, noise: int, raw: bytes, fresh: bool) -> None:
        nonlocal tried
        tried += 1
        pool = seeds[target]
        data = raw if fresh and pick % 8 == 0 else mutate(pool[pick % len(pool)],
                                                          random.Random(noise))
        CHECKS[target](data)

    deadline = time.monotonic() + seconds
    fuzz()
    while examples is None and time.monotonic() < deadline:
        fuzz()   # chunks of 300 inputs until the time is up
    return tried


def run_atheris(targets: tuple[str, ...], *, seconds: float) -> None:  # pragma: no cover
    import atheris

    seeds = {target: seeds_for(target) for target in targets}

    def one_input(data: bytes) -> None:
        if len(data) < 2:
            return
        target = targets[data[0] % len(targets)]
        pool = seeds[target]
        body = data[2:]
        if data[1] % 4:   # mostly mutations of a seed, sometimes the raw bytes
            body = mutate(pool[data[1] % len(pool)], random.Random(body))
        CHECKS[target](body)

    atheris.instrument_all()   # coverage feedback from the (already imported) Python code
    atheris.Setup([sys.argv[0], f"-max_total_time={int(seconds)}"], one_input)
    atheris.Fuzz()


def main(argv: list[str] | None = None) -> int:
    from driver import fuzz_main  # beside this file (the fuzzers' shared command line)

    return fuzz_main("fuzz_parsers", __doc__.split("\n\n")[0], TARGETS, run_atheris,
                     run_hypothesis, argv)


if __name__ == "__main__":
    sys.exit(main())
