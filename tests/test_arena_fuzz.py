"""A few seconds of the arena fuzzer (``fuzz/fuzz_arena.py``; run it for minutes by hand):
hostile frames over real sockets against a real ``omaha serve``, whose other table's
players must keep being served and never see another player's hole card."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

pytest.importorskip("websockets")

FUZZ = Path(__file__).resolve().parent.parent / "fuzz" / "fuzz_arena.py"
SECONDS = float(os.environ.get("OMAHA_ARENA_FUZZ_SECONDS", "3"))


def test_fuzz_arena_short_budget() -> None:
    if not FUZZ.is_file():   # e.g. tests run from an unpacked wheel
        pytest.skip("fuzz/ is not beside the tests")
    spec = importlib.util.spec_from_file_location("fuzz_arena", FUZZ)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.run(SECONDS, seed=21) > 50
