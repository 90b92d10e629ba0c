"""Today's code beside the new, in one run: the same runners on another checkout.

Speed targets relative to an earlier version ("at least 10x today's") are measured side by
side: the benchmark's own runners run in a child process that imports the package from
``OMAHA_BASELINE_SRC`` (the ``src`` folder of a built checkout of the earlier version, e.g.
``git worktree add ../baseline v0.1.0 && (cd ../baseline && python setup.py build_ext
--inplace)``), and rounds alternate between the two. Runners use only the public API that
both versions share.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def baseline_src() -> str | None:
    """The earlier version's ``src`` folder, or None when not given (or not there)."""
    src = os.environ.get("OMAHA_BASELINE_SRC")
    return src if src and Path(src, "omaha", "__init__.py").is_file() else None


class Baseline:
    """Runners of ``module.make_runner(key)`` on the baseline, in one child process."""

    def __init__(self, src: str, module: str) -> None:
        code = (
            "import json, sys\n"
            f"sys.path[:0] = [{src!r}, {str(HERE)!r}]\n"
            f"import {module} as bench\n"
            "runners = {}\n"
            "for line in sys.stdin:\n"
            "    key, seconds = json.loads(line)\n"
            "    if key not in runners:\n"
            "        runners[key] = bench.make_runner(key)\n"
            "    print(json.dumps(runners[key](seconds)), flush=True)\n"
        )
        self.child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
        self.src = src

    def run(self, key: str, seconds: float) -> float:
        assert self.child.stdin is not None and self.child.stdout is not None
        self.child.stdin.write(json.dumps([key, seconds]) + "\n")
        self.child.stdin.flush()
        line = self.child.stdout.readline()
        if not line:
            raise RuntimeError(f"the baseline at {self.src} stopped (see its error above)")
        return float(json.loads(line))

    def close(self) -> None:
        if self.child.stdin is not None:
            self.child.stdin.close()
        self.child.wait(timeout=30)
