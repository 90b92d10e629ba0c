"""``omaha simulate --variant F7S|F7S/8|FR|F5S``: a stud simulation (issue 26; E1-E7).

The stud games' side of :mod:`omaha.cli.scale`'s ``simulate``: the built-in stud bots
(``random``, ``strength``) play :func:`omaha.game.studplay.play_stud_session` here (a seeded
run plays the hands ``omaha play`` plays with the same seed), banked scoring, and the summary
gives each seat's net chips and big bets per 100 hands with a 95% interval
(:class:`~omaha.distributed.simulate.SeatStats`, the flop games' own statistics, counted in
big bets). ``--phh DIR`` writes every hand to ``DIR/shard-000000.phhs``, as it names the
flop games' shards (:class:`~omaha.phh.export.PhhWriter`, in :mod:`omaha.phh.stud`'s
notation; five-card stud has no PHH code, so it is refused). The stakes are ``--stakes``
(small/big bet, default 2/4), ``--ante`` and ``--bring-in`` (default half the small bet), as
in ``omaha play``; ``--blinds``, ``--ray`` and ``--duplicate`` are refused.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from omaha.cli.shared import fail, stud_phh_writer

__all__ = ["run_stud"]


def run_stud(args: argparse.Namespace) -> int:
    """Run a stud ``simulate``; the exit code (2 with one line for a bad option)."""
    from omaha.distributed.simulate import SeatStats
    from omaha.errors import OmahaError
    from omaha.game.stud import STUD_CODES, StudConfig, StudHand
    from omaha.game.studplay import play_stud_session

    refused = [flag for flag, given in (("--blinds", args.blinds is not None),
                                        ("--ray", args.ray is not None),
                                        ("--duplicate", args.duplicate)) if given]
    if refused:
        return fail("simulate", f"{', '.join(refused)}: not available for stud games yet")
    small, big = args.stakes if args.stakes is not None else (2, 4)
    bots = [kind.strip() for kind in args.bots.split(",")]
    bots = [bots[i % len(bots)] for i in range(args.players)]
    try:
        config = StudConfig(variant=args.variant, ante=args.ante, small_bet=small, big_bet=big,
                            bring_in=args.bring_in if args.bring_in is not None else small // 2)
        if args.players > config.variant.max_players:
            return fail("simulate", f"{config.variant.name} seats at most "
                        f"{config.variant.max_players} players (rule E1)")
        code = STUD_CODES[config.variant]
        writer = None
        if args.phh is not None:   # one shard: stud runs here, in one chunk
            writer = stud_phh_writer(os.path.join(args.phh, "shard-000000.phhs"), [code])
    except OmahaError as exc:
        return fail("simulate", exc)
    stack = args.stack if args.stack is not None else 100 * config.big_bet
    sums = [[0, 0] for _ in bots]

    def on_hand(hand: StudHand) -> None:
        for i, final in enumerate(hand.stacks):
            sums[i][0] += final - stack
            sums[i][1] += (final - stack) ** 2
        if writer is not None:
            writer.write(hand)

    started = time.perf_counter()
    try:
        result = play_stud_session(config, bots, hands=args.hands, stack=stack, seed=args.seed,
                                   on_hand=on_hand)
    except OmahaError as exc:
        return fail("simulate", exc)
    finally:
        if writer is not None:
            writer.close()
    seconds = time.perf_counter() - started
    rows = []
    for seat, (bot, (net, squared)) in enumerate(zip(bots, sums), 1):
        stats = SeatStats(result.hands, result.hands, net, squared)
        rows.append({"seat": seat, "bot": bot, "hands": stats.hands, "net": stats.net,
                     "bb_per_100": stats.bb_per_100(config.big_bet),
                     "ci95": stats.ci95(config.big_bet)})
    _print(args, config, code, result.hands, rows, stack, seconds)
    return 0


def _print(args: argparse.Namespace, config: Any, code: str, hands: int,
           rows: list[dict[str, Any]], stack: int, seconds: float) -> None:
    if args.json:
        print(json.dumps({"variant": code, "hands": hands, "stack": stack, "ante": config.ante,
                          "bring_in": config.bring_in, "small_bet": config.small_bet,
                          "big_bet": config.big_bet, "seconds": round(seconds, 3),
                          "ray": False, "seats": rows}))
        return
    rate = hands / seconds if seconds > 0 else float("inf")
    print(f"{hands} hands of {config.variant.name} (fixed limit, {code}) in {seconds:.2f} s: "
          f"{rate:,.0f} hands/s")
    print(f"{'seat':>4}  {'bot':<9} {'net chips':>11} {'BB/100':>9} {'95% CI':>9}")
    for row in rows:
        ci = "" if row["ci95"] is None else f"+/- {row['ci95']:.2f}"
        print(f"{row['seat']:>4}  {row['bot']:<9} {row['net']:>+11} {row['bb_per_100']:>+9.2f} "
              f"{ci:>9}")
    print(f"every stack started every hand at {stack} (winnings banked); BB: the big bet")
