"""A short budget of the parser fuzzer (``fuzz/fuzz_parsers.py``; run it longer by hand).

PHH text and snapshot JSON, mutated from real seeds (and re-digested, for the checks behind
the digest), must be read or refused with an ``OmahaError``: never another exception.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "fuzz" / "fuzz_parsers.py"
EXAMPLES = int(os.environ.get("OMAHA_FUZZ_EXAMPLES", "150"))


def _fuzzer():  # type: ignore[no-untyped-def]
    if not FUZZ.is_file():   # e.g. tests run from an unpacked wheel
        pytest.skip("fuzz/ is not beside the tests")
    spec = importlib.util.spec_from_file_location("fuzz_parsers", FUZZ)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fuzz_parsers_short_budget() -> None:
    fuzzer = _fuzzer()
    tried = fuzzer.run_hypothesis(fuzzer.TARGETS, seconds=0, examples=EXAMPLES)
    assert tried >= EXAMPLES


def test_fuzz_seeds_are_accepted_unchanged() -> None:
    """The seeds themselves read and restore (so mutations start from valid input)."""
    fuzzer = _fuzzer()
    from omaha.history.snapshot import loads_snapshot
    from omaha.phh import loads_all

    for seed in fuzzer.phh_seeds():
        assert loads_all(seed.decode())
    for seed in fuzzer.snapshot_seeds():
        assert fuzzer._restore_any(loads_snapshot(seed)) is not None
