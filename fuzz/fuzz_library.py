"""Fuzz the library edge: range text and ``omaha.equity`` arguments (issue 21).

Every input must end in one of two ways: it is accepted and the answer is sound (a range
reads back to itself from its canonical text and lists at most ``MAX_RANGE_HANDS`` hands; an
equity result has shares in [0, 1] summing to 1 and the deals asked for), or it is refused
with an ``OmahaError`` (``RangeError``, ``LimitError``, ``OmahaTypeError``...). Any other
exception (``RecursionError``, ``TypeError``, ``KeyError``, ``MemoryError``...), a progress
callback's exception that does not come out, or a hang is a bug.

Inputs: range text built from the grammar (patterns, brackets, suits, macros, spans,
``top N%``, ``, ! :`` and parentheses up to hundreds deep), mutations of it (bytes flipped,
inserted, deleted, doubled), raw text; and equity calls whose every argument may be of the
wrong type or size (huge, negative, float, bool, NumPy, text, nested lists, a progress that
raises). The work limits are lowered while fuzzing (``MAX_SAMPLES`` 20,000,
``MAX_THREADS`` 4, ``MAX_RANGE_HANDS`` 100,000) so the limits themselves are exercised and
every input takes milliseconds.

Run for a chosen time (atheris when it is installed, else Hypothesis)::

    PYTHONPATH=src python3 fuzz/fuzz_library.py --seconds 600
    PYTHONPATH=src python3 fuzz/fuzz_library.py --seconds 60 --engine hypothesis --target range

The test suite runs a short Hypothesis budget of it (``tests/test_fuzz_library.py``).
"""

from __future__ import annotations

import contextlib
import math
import random
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

import omaha
from omaha import limits
from omaha.analysis.ranges import Range
from omaha.errors import OmahaError

TARGETS = ("range", "equity")
FUZZ_LIMITS = {"MAX_SAMPLES": 20_000, "MAX_THREADS": 4, "MAX_RANGE_HANDS": 100_000}
VARIANTS = ("plo", "plo8", "holdem", omaha.OMAHA_HIGH, omaha.OMAHA_HILO,
            omaha.config.FIVE_CARD_OMAHA, omaha.config.SIX_CARD_OMAHA)
RANGE_SEEDS = ("AA**:$ds", "KK-88!KKK*", "$ds:AK,QQ:$r", "top 10%", "top 5.5%hilo",
               "[A-T][A-T]xy", "AsAh2d3c", "(AA,KK):(xxyy!$pair)", "****", "A2[345]*:$L",
               "10s9s8s7s", "J+", "wxyz", "AA,  KK , QQ", "(((AA)))")


@contextlib.contextmanager
def fuzz_limits() -> Iterator[None]:
    """The lowered limits, restored afterwards."""
    saved = {name: getattr(limits, name) for name in FUZZ_LIMITS}
    for name, value in FUZZ_LIMITS.items():
        setattr(limits, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(limits, name, value)


# ----------------------------------------------------------------- range text


def grammar_range(rng: random.Random, depth: int = 0) -> str:
    """A range from the grammar (valid more often than not), sometimes very deep."""
    roll = rng.random()
    if depth < 6 and roll < 0.25:
        op = rng.choice(",!:")
        return op.join(grammar_range(rng, depth + 1) for _ in range(rng.randint(2, 3)))
    if depth < 6 and roll < 0.35:
        return "(" + grammar_range(rng, depth + 1) + ")"
    if roll < 0.38:
        deep = rng.choice((5, 50, 99, 100, 101, 150, 400, 3000))
        return "(" * deep + grammar_range(rng, 6) + ")" * deep
    if roll < 0.45:
        return rng.choice(("$ds", "$ss", "$r", "$np", "$pair", "$L", "$B", "$x"))
    if roll < 0.5:
        return f"top {rng.choice(('1', '10', '0', '100', '101', '2.5', '1e3', '.'))}%" + \
            rng.choice(("", "hilo", "high"))
    slots = []
    for _ in range(rng.randint(1, 7)):
        kind = rng.random()
        if kind < 0.5:
            slot = rng.choice("AKQJT98765432*")
        elif kind < 0.7:
            a, b = rng.choice("AKQJT98765432"), rng.choice("AKQJT98765432")
            slot = rng.choice((f"[{a}{b}]", f"[{a}-{b}]", "[]", f"[{a}"))
        else:
            slot = rng.choice(("10", "x", "s"))
        if rng.random() < 0.4:
            slot += rng.choice("cdhswxyz")
        slots.append(slot)
    text = "".join(slots)
    if rng.random() < 0.1:
        text += "-" + "".join(rng.choice("AKQJT98765432") for _ in slots)
    return text


def mutate_text(text: str, rng: random.Random) -> str:
    """Random edits: characters flipped, inserted, deleted, a piece doubled."""
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        at = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            chars[min(at, len(chars) - 1)] = chr(rng.randrange(0x20, 0x7F))
        elif op == 1:
            chars.insert(at, rng.choice("()[],!:$-%*xyzwcdhsAK10 \t\x00\ud800é"))
        elif op == 2 and chars:
            del chars[min(at, len(chars) - 1)]
        elif op == 3:
            piece = chars[at:at + rng.randint(1, 8)]
            chars[at:at] = piece * rng.randint(1, 50)
        else:
            chars.insert(at, rng.choice(("(" * 200, ")", "top ", "$")))
    return "".join(chars)


def check_range(text: str, variant: Any) -> None:
    """``Range(text, variant)``: refused with an OmahaError, or sound."""
    try:
        r = Range(text, variant=variant)
    except OmahaError:
        return
    if r.is_any:
        assert len(r) == math.comb(52, r.variant.hole_cards)
        return
    assert 0 < len(r) <= limits.MAX_RANGE_HANDS, len(r)
    again = Range(str(r), variant=variant)
    assert again == r, (text, str(r))
    first = next(iter(r))
    assert first in r and len(first) == r.variant.hole_cards


# ----------------------------------------------------------------- equity arguments

class Sentinel(Exception):
    """What a fuzzed progress callback raises: it must come out of equity."""


def _junk(rng: random.Random) -> Any:
    return rng.choice((None, True, False, 1.5, float("nan"), "7", b"7", [3], {"a": 1},
                       np.int64(3), np.bool_(True), np.float64(2.0), 10**30, -(10**30),
                       object(), -1, 0, 2**63, 2**64))


def _count(rng: random.Random, small: int, big: int) -> Any:
    roll = rng.random()
    if roll < 0.6:
        return rng.randint(1, small)
    if roll < 0.75:
        return rng.choice((big, big + 1, 10**6, 10**15, 10**100, 2**62, 2**63))
    if roll < 0.85:
        return np.int32(rng.randint(1, small))
    return _junk(rng)


def _hand_or_range(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.3:
        return "".join(rng.sample(["As", "Ah", "Kd", "Kc", "2s", "3h", "Qd", "Jc", "Td", "9h",
                                   "8c", "7s", "6d", "5h"], 4))
    if roll < 0.55:
        return rng.choice(("****", "AA", "KK**:$ds", "top 10%", "QQ-99", "$r"))
    if roll < 0.75:
        return grammar_range(rng, 3)
    if roll < 0.85:
        return [rng.randrange(52) for _ in range(4)]
    return _junk(rng)


def equity_call(rng: random.Random) -> tuple[list[Any], dict[str, Any]]:
    """Random arguments to ``omaha.equity`` (often valid, every one sometimes wrong)."""
    entries: Any = [_hand_or_range(rng) for _ in range(rng.choice((0, 1, 2, 2, 2, 3, 11)))]
    if rng.random() < 0.05:
        entries = rng.choice(("AsAh2d3cKsKhQdJc", {"a": "AA"}, 7, None))
    options: dict[str, Any] = {}
    if rng.random() < 0.3:
        options["board"] = rng.choice(("Kd7c4h", "Kd7c4h5s", "2c", "", ["Kd", 7.0],
                                       "Kd7c4h5s6s", 5, "KdKd7c"))
    if rng.random() < 0.15:
        options["dead"] = rng.choice(("Qs", "QsQs", 3, ["2c"]))
    if rng.random() < 0.8:
        options["samples"] = _count(rng, 5000, limits.MAX_SAMPLES)
    if rng.random() < 0.4:
        options["threads"] = _count(rng, 4, limits.MAX_THREADS)
    if rng.random() < 0.5:
        options["seed"] = rng.choice((0, 1, 2**64 - 1, 2**64, -1, 1.0, "1"))
    if rng.random() < 0.2:
        options["exact"] = rng.choice((True, False, None, 1, "yes"))
    if rng.random() < 0.3:
        options["variant"] = rng.choice((*VARIANTS, "nope", 5, None))
    if rng.random() < 0.3:
        after = rng.randint(0, 3)

        def progress(done: int, total: int, calls: list[int] = []) -> None:  # noqa: B006
            calls.append(done)
            if len(calls) > after:
                raise Sentinel(done)

        options["progress"] = rng.choice((progress, progress, 5, "bar"))
    if "samples" not in options and "exact" not in options:
        options["exact"] = False          # keep each input short: no default million deals
        options["samples"] = 2000
    return entries, options


def check_equity(entries: Any, options: dict[str, Any]) -> None:
    """One equity call: refused with an OmahaError, or a sound result."""
    try:
        result = omaha.equity(entries, **options)
    except Sentinel:
        assert callable(options.get("progress")), "a Sentinel without a raising progress"
        return
    except OmahaError:
        return
    total = sum(result.equity)
    assert abs(total - 1) < 1e-9, total
    assert all(-1e-12 <= e <= 1 + 1e-12 for e in result.equity), result.equity
    samples = options.get("samples")
    if not result.exact and type(samples) is int:
        assert result.deals <= samples, (result.deals, samples)


# ----------------------------------------------------------------- engines


def one_input(target: str, noise: int) -> None:
    """The input that ``noise`` picks for ``target``, checked."""
    rng = random.Random(noise)
    if target == "range":
        text = grammar_range(rng) if rng.random() < 0.6 else rng.choice(RANGE_SEEDS)
        if rng.random() < 0.4:
            text = mutate_text(text, rng)
        check_range(text, rng.choice(VARIANTS))
    else:
        check_equity(*equity_call(rng))


CHECKS: dict[str, Callable[[str, int], None]] = {"range": one_input, "equity": one_input}


def run_hypothesis(targets: tuple[str, ...], *, seconds: float, examples: int | None = None,
                   ) -> int:
    """Fuzz with Hypothesis for ``seconds`` (or ``examples`` inputs); returns inputs tried."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    tried = 0

    @settings(max_examples=examples or 300, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(target=st.sampled_from(targets), noise=st.integers(0, 2**64),
           raw=st.text(max_size=40), use_raw=st.integers(0, 9))
    def fuzz(target: str, noise: int, raw: str, use_raw: int) -> None:
        nonlocal tried
        tried += 1
        with fuzz_limits():
            if target == "range" and use_raw == 0:
                check_range(raw, "plo")
            else:
                one_input(target, noise)

    deadline = time.monotonic() + seconds
    fuzz()
    while examples is None and time.monotonic() < deadline:
        fuzz()   # chunks of 300 inputs until the time is up
    return tried


def run_atheris(targets: tuple[str, ...], *, seconds: float) -> None:  # pragma: no cover
    import atheris

    def one(data: bytes) -> None:
        if len(data) < 2:
            return
        target = targets[data[0] % len(targets)]
        with fuzz_limits():
            if target == "range" and data[1] % 4 == 0:
                check_range(data[2:].decode("utf-8", "surrogatepass"), "plo")
            else:
                one_input(target, int.from_bytes(data[2:18].ljust(16, b"\0"), "little"))

    atheris.instrument_all()
    atheris.Setup([sys.argv[0], f"-max_total_time={int(seconds)}"], one)
    atheris.Fuzz()


def main(argv: list[str] | None = None) -> int:
    from driver import fuzz_main  # beside this file (the fuzzers' shared command line)

    return fuzz_main("fuzz_library", __doc__.split("\n\n")[0], TARGETS, run_atheris,
                     run_hypothesis, argv)


if __name__ == "__main__":
    sys.exit(main())
