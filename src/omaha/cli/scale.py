"""``omaha simulate`` and ``omaha preflop-table``: long jobs in chunks, here or on Ray.

``simulate`` is a bot-vs-bot simulation (built-in bots or your own: ``--bots`` takes
:func:`omaha.game.userbots.load_bot` specs, loaded where each chunk runs). ``--seed`` means
what it means in ``omaha play``: deal ``d`` is played from
:func:`omaha.game.bots.deal_seed` ``(seed, d)``, so the result does not depend on
``--chunk`` or ``--ray`` and equals ``omaha play``'s. A progress bar counts finished chunks
on a terminal (``--progress``/``--no-progress``).

Banked scoring (every stack reset to the starting stack each hand) and exact merging of
the chunks (integer sums per seat); the summary gives each seat's bb/100 with a 95%
confidence interval. ``--ray`` runs the chunks as Ray tasks on a local cluster, or on the
one at ``--ray ADDRESS`` (e.g. ``auto``); a seeded run prints the same numbers either way.

Registered in :mod:`omaha.cli` by :func:`add_parser`; the work is
:func:`omaha.distributed.simulate.run_play` / :func:`~omaha.distributed.simulate.run_play_on_ray`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from omaha.cli.shared import (
    BLINDS_HELP,
    add_progress_options,
    add_variant,
    blinds,
    fail,
    game_config,
    non_negative,
    output_dir,
    output_file,
    overwritten,
    pair,
    players,
    positive,
    refuse,
)

__all__ = ["add_parser", "run", "run_on_ray", "run_preflop_table"]


def add_parser(commands: Any) -> None:
    """Add ``simulate`` and ``preflop-table`` to the ``omaha`` parser's subcommands."""
    _add_simulate(commands)
    _add_preflop_table(commands)


def _add_preflop_table(commands: Any) -> None:
    sub = commands.add_parser(
        "preflop-table",
        help="the 4-card Omaha preflop equity table, optionally on Ray",
        description=(
            "Every suit-isomorphic 4-card Omaha starting hand (16,432 classes) with its "
            "high and hi/lo equity against 1..N random hands, by Monte Carlo with the "
            "package's equity engine; written as CSV with each value's standard error."
        ),
        epilog="example: omaha preflop-table --samples 10000 --ray --out preflop.csv",
    )
    sub.add_argument("--out", required=True, type=output_file, help="CSV file to write")
    sub.add_argument("--binary", metavar="PATH", default=None, type=output_file,
                     help="also write the compact table (the package data format; default: none)")
    sub.add_argument("--opponents", type=positive, default=5,
                     help="against 1..N random hands (default 5)")
    sub.add_argument("--samples", type=positive, default=10_000,
                     help="deals per value (default 10000: standard error at most 0.005)")
    sub.add_argument("--limit", type=positive, default=None,
                     help="only the first N classes, a quick look (default: all 16432)")
    sub.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    sub.add_argument("--chunk", type=positive, default=64, help="classes per task (default 64)")
    sub.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                     help="run on Ray: a new local cluster, or the one at ADDRESS "
                     "(default: here, in this process)")
    sub.add_argument("--cpus", type=positive, default=None,
                     help="CPUs of a new local Ray cluster (default: all)")
    add_progress_options(sub)
    sub.add_argument("--json", action="store_true",
                     help="print one JSON object: rows, seconds, files, standard errors")
    sub.set_defaults(run=run_preflop_table)


def run_preflop_table(args: argparse.Namespace) -> int:
    """Run ``omaha preflop-table``; returns the exit code."""
    from omaha.distributed.preflop import (
        build_table,
        standard_error_bound,
        write_binary,
        write_table,
    )
    from omaha.errors import OmahaError

    problem = overwritten({}, {"--out": args.out, "--binary": args.binary})
    if problem is not None:
        refuse("preflop-table", problem)
    from omaha.analysis import preflop
    from omaha.cards import format_cards
    from omaha.cli.progress import progress_bar

    started = time.perf_counter()
    bar = None
    try:
        classes = [format_cards(hand) for hand, _ in preflop.classes()[:args.limit]]
        bar = progress_bar(len(classes), enabled=args.progress, unit="class",
                           description="preflop-table")
        counted = bar

        def on_chunk(index: int, part: Any) -> None:
            counted.update(len(part) // args.opponents)   # a row per class and count

        rows = build_table(classes=classes, opponents=tuple(range(1, args.opponents + 1)),
                           samples=args.samples, seed=args.seed, chunk_classes=args.chunk,
                           ray=args.ray is not None, address=args.ray or None,
                           num_cpus=args.cpus, on_chunk=on_chunk)
        bar.close()
        write_table(rows, args.out)
        if args.binary:
            write_binary(rows, args.binary, args.samples)
    except (OmahaError, ValueError, OSError, ImportError) as exc:
        return fail("preflop-table", exc)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - started
    worst = max((max(row[3], row[5]) for row in rows), default=0.0)
    bound = standard_error_bound(args.samples)
    if args.json:
        print(json.dumps({"rows": len(rows), "classes": len(classes),
                          "opponents": args.opponents, "samples": args.samples,
                          "seed": args.seed, "seconds": round(seconds, 3),
                          "ray": args.ray is not None, "out": args.out,
                          "binary": args.binary, "largest_standard_error": worst,
                          "standard_error_bound": bound}))
        return 0
    print(f"{len(rows)} rows in {seconds:.1f} s -> {args.out}; largest "
          f"standard error {worst:.4f} (bound {bound:.4f})")
    return 0


def _add_simulate(commands: Any) -> None:
    sub = commands.add_parser(
        "simulate",
        help="a long bot-vs-bot simulation, optionally on Ray",
        description=(
            "Play many hands between bots (built-in, or your own as module:callable or "
            "file.py:callable) in independent chunks, banked "
            "scoring (stacks reset each hand), merged exactly; bb/100 with 95% intervals. "
            "--ray runs the chunks on a Ray cluster (the 'ray' extra)."
        ),
        epilog="examples: omaha simulate --variant plo8 --players 6 --hands 1000000 --seed 1 "
        "--ray; omaha simulate --variant F7S/8 --players 6 --ante 1 --hands 100000 (stud: "
        "the built-in stud bots, here)",
    )
    add_variant(sub, default="PO")
    sub.add_argument("--hands", "-n", type=positive, default=100_000,
                     help="hands to play (default 100000)")
    sub.add_argument("--players", "-p", type=players, default=6, help="players, 2-10 (default 6)")
    sub.add_argument("--bots", default="strength,random",
                     help="comma-separated bots repeated round the table: random, strength, "
                     "solver, or your own as module:callable or path/to/file.py:callable (on Ray, "
                     "importable by the workers) (default strength,random)")
    sub.add_argument("--stack", type=positive, default=None,
                     help="starting stack of every hand (default 100 big blinds)")
    sub.add_argument("--blinds", type=blinds, default=None,
                     help=f"{BLINDS_HELP} (default: 1/2 in pot and no limit; in fixed limit "
                     "the big blind is the small bet and the small blind derived)")
    sub.add_argument("--stakes", type=pair, default=None,
                     help="small/big bet in fixed limit (default 2/4)")
    sub.add_argument("--ante", type=non_negative, default=0,
                     help="ante each player posts (default 0)")
    sub.add_argument("--bring-in", type=non_negative, default=None,
                     help="stud games: the bring-in (default half the small bet, rule E3)")
    sub.add_argument("--seed", type=int, default=None,
                     help="seed the shuffle and bots, deal by deal, as omaha play does: the "
                     "same seed gives the same hands and results in both, for any --chunk, "
                     "here or on Ray (default: OS randomness)")
    sub.add_argument("--chunk", type=positive, default=20_000,
                     help="hands per task (default 20000; a seeded result does not depend on it)")
    sub.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                     help="run on Ray: a new local cluster, or the one at ADDRESS (e.g. auto) "
                     "(default: here, in this process)")
    sub.add_argument("--cpus", type=positive, default=None,
                     help="CPUs of a new local Ray cluster (default: all)")
    sub.add_argument("--phh", metavar="DIR", default=None, type=output_dir,
                     help="write the hands as PHH shards DIR/shard-NNNNNN.phhs (default: none)")
    sub.add_argument("--duplicate", action="store_true",
                     help="play each deal once from every seat (hands rounded up to whole sets)")
    add_progress_options(sub)
    sub.add_argument("--json", action="store_true", help="print the summary as JSON")
    sub.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``omaha simulate``; returns the exit code."""
    from omaha.config import parse_variant
    from omaha.errors import OmahaError

    try:
        if parse_variant(args.variant).variant.is_stud:   # E1: the stud games' own run
            from omaha.cli.studsim import run_stud

            return run_stud(args)
    except OmahaError:
        pass   # an unknown name: game_config words the error
    if args.bring_in is not None:
        return fail("simulate", "--bring-in: stud games only (F7S, F7S/8, FR, F5S)")
    try:
        config = game_config(args.variant, blinds=args.blinds, stakes=args.stakes,
                             ante=args.ante)
    except (OmahaError, ValueError) as exc:
        return fail("simulate", exc)
    kinds = [kind.strip() for kind in args.bots.split(",")]
    return _simulate("simulate", args, config, kinds, chunk_hands=args.chunk,
                     num_cpus=args.cpus)


def run_on_ray(args: argparse.Namespace, config: Any, kinds: Sequence[str]) -> int:
    """``omaha play --ray``: the same bots and scoring as ``play``, run as Ray tasks."""
    return _simulate("play", args, config, kinds)


def _simulate(command: str, args: argparse.Namespace, config: Any, kinds: Sequence[str],
              **options: Any) -> int:
    """Run the bots' match in chunks, locally or on Ray (``--ray``), and print it."""
    from omaha.cli.progress import progress_bar
    from omaha.distributed.simulate import SimulationResult, run_play, run_play_on_ray
    from omaha.errors import OmahaError

    bots = [kinds[i % len(kinds)] for i in range(args.players)]
    per_deal = args.players if args.duplicate else 1
    hands = -(-args.hands // per_deal) * per_deal
    common = {"hands": args.hands, "stack": args.stack, "seed": args.seed, "phh_dir": args.phh,
              "duplicate": args.duplicate}
    bar = progress_bar(hands, enabled=args.progress, description=command)

    def on_chunk(index: int, part: SimulationResult) -> None:
        bar.update(part.hands)

    started = time.perf_counter()
    try:
        if args.ray is None:
            options.pop("num_cpus", None)
            result = run_play(config, bots, **common, on_chunk=on_chunk, **options)
        else:
            result = run_play_on_ray(config, bots, address=args.ray or None, **common,
                                     on_chunk=on_chunk, **options)
    except (OmahaError, ValueError) as exc:
        return fail(command, exc)
    except ImportError as exc:
        print(f"omaha {command}: error: --ray needs the 'ray' extra ({exc})", file=sys.stderr)
        return 2
    finally:
        bar.close()
    _print(args, config, result, time.perf_counter() - started)
    return 0


def _print(args: argparse.Namespace, config: Any, result: Any, seconds: float) -> None:
    rows = result.summary()
    if args.json:
        print(json.dumps({"variant": args.variant, "hands": result.hands,
                          "seconds": round(seconds, 3), "ray": args.ray is not None,
                          "seats": rows}))
        return
    rate = result.hands / seconds if seconds > 0 else float("inf")
    print(f"{result.hands} hands of {config.variant.name} ({config.structure.value}) in "
          f"{seconds:.2f} s: {rate:,.0f} hands/s" + (" on Ray" if args.ray is not None else ""))
    print(f"{'seat':>4}  {'bot':<9} {'net chips':>11} {'bb/100':>9} {'95% CI':>9}")
    for row in rows:
        ci = "" if row["ci95"] is None else f"+/- {row['ci95']:.2f}"
        print(f"{row['seat']:>4}  {row['bot']:<9} {row['net']:>+11} {row['bb_per_100']:>+9.2f} "
              f"{ci:>9}")


