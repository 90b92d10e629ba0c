"""The command line the fuzzers share: ``--seconds``, ``--target`` and ``--engine`` (atheris
when it is installed, else Hypothesis), then one line saying what ran."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence


def fuzz_main(name: str, description: str, targets: Sequence[str],
              run_atheris: Callable[..., object], run_hypothesis: Callable[..., int],
              argv: list[str] | None = None) -> int:
    """Parse ``argv``, run the chosen engine over the chosen targets; 0 when nothing failed
    (a failure raises out of the engine with the example that broke)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--target", choices=(*targets, "all"), default="all")
    parser.add_argument("--engine", choices=("auto", "atheris", "hypothesis"), default="auto")
    args = parser.parse_args(argv)
    chosen = tuple(targets) if args.target == "all" else (args.target,)
    engine = args.engine
    if engine == "auto":
        try:
            import atheris  # noqa: F401
            engine = "atheris"
        except ImportError:
            engine = "hypothesis"
    if engine == "atheris":
        run_atheris(chosen, seconds=args.seconds)
        return 0
    tried = run_hypothesis(chosen, seconds=args.seconds)
    print(f"{name}: {tried} inputs over {args.seconds:g} s ({', '.join(chosen)}): no failure")
    return 0
