"""PHH corpus replay speed and memory (issue 22), side by side with PokerKit.

The work measured is the same on both sides: from the files to each hand's finishing stacks,
in one process, interpreter start-up excluded. PokerKit: read the file, parse it
(``HandHistory.load``) and iterate its states to the end. omaha: :func:`omaha.phh.corpus.replay_files`
(read, scan, replay every hand with the checks of live play, compare with
``finishing_stacks``). Rounds alternate between the two; the best round of each counts.
Target: at least **30x PokerKit** on the 10,000 Pluribus hands.

The corpus is the PHH dataset's ``data/pluribus`` folder (github.com/uoftcprg/phh-dataset, or
``data/`` of PokerKit's repository): pass its path as the argument or in ``OMAHA_PHH_CORPUS``.
Without it, the committed excerpts under ``tests/data/corpus`` serve (a smoke run, not a
figure).

    python benchmarks/bench_phh_replay.py ~/phh-dataset/data/pluribus
    python benchmarks/bench_phh_replay.py --memory hands.phhs   # peak RSS of `omaha replay`

``--memory FILE`` runs ``omaha replay -q FILE`` in a child process and reports its peak
resident memory (target: below 100 MB for the ~15 MB ``.phhs`` the README's main job writes).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import resource
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from omaha.phh.corpus import replay_files

EXCERPTS = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus"


def corpus_files(folder: str | None) -> list[pathlib.Path]:
    """Every .phh/.phhs under ``folder`` (sorted), or the Pluribus excerpts when None."""
    if folder is None:
        return sorted(EXCERPTS.glob("pluribus_*.phh"))
    root = pathlib.Path(folder)
    files = sorted(p for p in root.rglob("*") if p.suffix in (".phh", ".phhs"))
    if not files:
        raise SystemExit(f"no .phh or .phhs files under {root}")
    return files


def omaha_round(files: Sequence[pathlib.Path]) -> tuple[int, int]:
    """(hands, matched) of one pass of omaha over the files."""
    hands = matched = 0
    for report in replay_files(files):
        hands += 1
        matched += report.result == "matched"
    return hands, matched


def pokerkit_round_factory() -> Callable[[Sequence[pathlib.Path]], tuple[int, int]]:
    import pokerkit

    def pokerkit_round(files: Sequence[pathlib.Path]) -> tuple[int, int]:
        hands = matched = 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for path in files:
                with open(path, "rb") as file:
                    loaded: Any = (pokerkit.HandHistory.load_all(file) if path.suffix == ".phhs"
                                   else [pokerkit.HandHistory.load(file)])
                for history in loaded:
                    state = None
                    for state in history:
                        pass
                    hands += 1
                    matched += (state is not None and history.finishing_stacks is not None
                                and list(state.stacks) == list(history.finishing_stacks))
        return hands, matched

    return pokerkit_round


def side_by_side(files: Sequence[pathlib.Path], rounds: int) -> dict[str, Any]:
    """Interleaved rounds; the best time of each side."""
    sides: dict[str, Callable[[Sequence[pathlib.Path]], tuple[int, int]]] = {
        "omaha": omaha_round}
    try:
        sides["pokerkit"] = pokerkit_round_factory()
    except ImportError:
        print("pokerkit is not installed (pip install omaha-poker[bench]): omaha alone")
    best = dict.fromkeys(sides, float("inf"))
    counts: dict[str, tuple[int, int]] = {}
    for _ in range(rounds):
        for name, run in sides.items():
            started = time.perf_counter()
            counts[name] = run(files)
            best[name] = min(best[name], time.perf_counter() - started)
    return {"best": best, "counts": counts}


def peak_memory(path: str) -> int:
    """Peak resident memory (bytes) of ``omaha replay -q path`` in a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run([sys.executable, "-m", "omaha", "replay", "-q", "--no-progress", path],
                   check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(before, after) * 1024   # kilobytes on Linux


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=os.environ.get("OMAHA_PHH_CORPUS"),
                        help="a folder of .phh/.phhs files (default: $OMAHA_PHH_CORPUS, else "
                        "the committed excerpts)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--memory", metavar="FILE", help="report the peak memory of replaying FILE")
    args = parser.parse_args(argv)
    if args.memory:
        size = os.path.getsize(args.memory)
        print(f"omaha replay {args.memory} ({size / 2**20:.1f} MB): peak RSS "
              f"{peak_memory(args.memory) / 2**20:.1f} MB (target < 100 MB)")
        return
    files = corpus_files(args.corpus)
    result = side_by_side(files, args.rounds)
    best, counts = result["best"], result["counts"]
    for name in best:
        hands, matched = counts[name]
        print(f"{name:9s} {hands:6d} hands, {matched:6d} matched, best {best[name]:.3f} s, "
              f"{hands / best[name]:10,.0f} hands/s")
    if "pokerkit" in best:
        print(f"omaha / pokerkit: {best['pokerkit'] / best['omaha']:.1f}x (target 30x)")


# --- pytest-benchmark (python -m pytest benchmarks/bench_phh_replay.py) --------------------


def test_replay_excerpts(benchmark: Any) -> None:
    files = corpus_files(os.environ.get("OMAHA_PHH_CORPUS"))
    hands, matched = benchmark(omaha_round, files)
    assert hands == matched   # every Pluribus hand matches its finishing_stacks


if __name__ == "__main__":
    main()
