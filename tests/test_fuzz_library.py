"""A short budget of the library fuzzer (``fuzz/fuzz_library.py``; run it longer by hand).

Range text and ``omaha.equity`` arguments, generated and mutated, must be accepted with a
sound answer or refused with an ``OmahaError``: never another exception, never a swallowed
progress callback's exception (issue 21).
"""

from __future__ import annotations

import importlib.util
import os
import random
from pathlib import Path
from typing import Any

import pytest

from omaha import limits

FUZZ = Path(__file__).resolve().parent.parent / "fuzz" / "fuzz_library.py"
EXAMPLES = int(os.environ.get("OMAHA_FUZZ_EXAMPLES", "150"))


def _fuzzer() -> Any:
    if not FUZZ.is_file():   # e.g. tests run from an unpacked wheel
        pytest.skip("fuzz/ is not beside the tests")
    spec = importlib.util.spec_from_file_location("fuzz_library", FUZZ)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fuzz_library_short_budget() -> None:
    fuzzer = _fuzzer()
    before = {name: getattr(limits, name) for name in fuzzer.FUZZ_LIMITS}
    tried = fuzzer.run_hypothesis(fuzzer.TARGETS, seconds=0, examples=EXAMPLES)
    assert tried >= EXAMPLES
    assert {name: getattr(limits, name) for name in before} == before   # restored


def test_the_fuzzer_finds_the_canonical_text_bug_it_found() -> None:
    """The fuzzer's first find: a bare suit after a slot without one read back as that
    slot's suit (``A10*z`` printed ``ATz``, which is an ace and a ten of suit z)."""
    fuzzer = _fuzzer()
    with fuzzer.fuzz_limits():
        fuzzer.check_range("A10*z10Qx7", fuzzer.omaha.config.SIX_CARD_OMAHA)
        fuzzer.check_range("Kz", "plo")


def test_the_fuzzer_checks_raising_progress_callbacks() -> None:
    fuzzer = _fuzzer()
    rng = random.Random(0)
    seen = 0
    with fuzzer.fuzz_limits():
        for _ in range(400):
            entries, options = fuzzer.equity_call(rng)
            if callable(options.get("progress")):
                seen += 1
            fuzzer.check_equity(entries, options)
    assert seen > 20
