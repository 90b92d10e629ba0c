"""A short budget of the RL and command-line fuzzer (``fuzz/fuzz_rl_cli.py``; longer by hand).

Hostile actions and options into every learning env (a typed error and no change, chips
conserved), random argument vectors into every command (exit 0, 1 or 2, one line, no input
changed).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

FUZZ = Path(__file__).resolve().parent.parent / "fuzz" / "fuzz_rl_cli.py"
EXAMPLES = int(os.environ.get("OMAHA_FUZZ_EXAMPLES", "100"))


def _fuzzer():  # type: ignore[no-untyped-def]
    if not FUZZ.is_file():   # e.g. tests run from an unpacked wheel
        pytest.skip("fuzz/ is not beside the tests")
    spec = importlib.util.spec_from_file_location("fuzz_rl_cli", FUZZ)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("target", ["rl", "cli"])
def test_fuzz_rl_cli_short_budget(target: str) -> None:
    assert _fuzzer().run(target, seconds=0, examples=EXAMPLES) >= EXAMPLES
