"""``omaha tournament``: a whole tournament between the built-in bots.

Prints the places and prizes (``--json``: one object), draws a progress bar of the players
left on a terminal, and with ``--phh DIR`` writes every table's hands as PHH
(``table-N.phhs``, each hand with its finishing stacks) that ``omaha replay`` replays. The
same ``--seed`` gives the same tournament with or without ``--phh``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from omaha.cli.shared import (
    add_progress_options,
    add_variant,
    fail,
    output_dir,
    positive,
)

__all__ = ["add_parser", "run_tournament"]


def add_parser(commands: Any) -> None:
    """Add ``tournament`` to the ``omaha`` subcommands."""
    sub = commands.add_parser(
        "tournament", help="simulate a tournament between bots (N1-N8)",
        description="A sit-and-go or multi-table tournament between the built-in bots, "
        "start to finish: seating draw, dead button, balancing, breaking tables, hand for "
        "hand, places and prizes.")
    sub.add_argument("--players", type=positive, required=True,
                     help="entrants (at least 2; required)")
    sub.add_argument("--seats", type=positive, default=None,
                     help="seats per table, 2-10 (default: the structure's; the default "
                     "structure has 9)")
    sub.add_argument("--structure", default=None, metavar="FILE",
                     help="a structure file (TOML: levels, starting stack, seats, payouts; "
                     "default: the shipped default structure paying about the top 15%%)")
    add_variant(sub, default="structure's")
    sub.add_argument("--seed", type=int, default=None,
                     help="seed the seating draw and the decks (default: the OS generator)")
    sub.add_argument("--bots", default="strength", metavar="BOT",
                     help="the bot every player uses: random, strength, solver, or your own "
                     "as module:callable or path/to/file.py:callable (default %(default)s)")
    sub.add_argument("--phh", type=output_dir, default=None, metavar="DIR",
                     help="write every table's hands as PHH into DIR (default: none)")
    sub.add_argument("--json", action="store_true",
                     help="print one JSON object: prize_pool, hands, places")
    add_progress_options(sub)
    sub.set_defaults(run=run_tournament)


def run_tournament(args: argparse.Namespace) -> int:
    """``omaha tournament``: exit 0 with the places, 2 on a bad structure or option."""
    import dataclasses
    import os
    import random

    from omaha.cli.progress import progress_bar
    from omaha.errors import OmahaError
    from omaha.game.userbots import load_bot
    from omaha.phh.export import PhhWriter
    from omaha.tournament import DEFAULT_STRUCTURE, Structure, Tournament

    try:
        structure = DEFAULT_STRUCTURE if args.structure is None else \
            Structure.load(args.structure)
        changes: dict[str, Any] = {}
        if args.seats is not None:
            changes["seats"] = args.seats
        if args.variant != "structure's":
            changes["variant"] = args.variant
        if changes:
            structure = dataclasses.replace(structure, **changes)
    except (OmahaError, OSError, ValueError) as exc:
        return fail("tournament", exc)
    if args.phh is not None:
        os.makedirs(args.phh, exist_ok=True)
    rng = random.Random(args.seed) if args.seed is not None else None
    writers: dict[int, Any] = {}

    def on_hand(table: int, hand: Any) -> None:
        writer = writers.get(table)
        if writer is None:
            writer = writers[table] = PhhWriter(os.path.join(args.phh, f"table-{table}.phhs"))
        writer.write(hand)

    names = [f"player{i}" for i in range(1, args.players + 1)]
    try:
        tour = Tournament(structure, names, rng=rng, bots=load_bot(args.bots),
                          on_hand=on_hand if args.phh else None)
    except (OmahaError, ValueError) as exc:
        return fail("tournament", exc)
    bar = progress_bar(args.players - 1, enabled=args.progress, unit="player",
                       description="tournament")
    try:
        while not tour.is_over:
            before = len(tour.places)
            tour.play_round()
            bar.update(min(len(tour.places), args.players - 1) - min(before, args.players - 1))
            bar.set_description_str(f"level {tour.level + 1}, {len(tour.tables)} tables, "
                                    f"{len(tour.remaining)} left", refresh=False)
    finally:
        bar.close()
        for writer in writers.values():
            writer.close()
    places = sorted(tour.places.items(), key=lambda item: (item[1][0], names.index(item[0])))
    if args.json:
        print(json.dumps({"prize_pool": tour.prize_pool, "hands": tour.hands,
                          "places": [{"player": p, "place": r[0], "prize": tour.prizes.get(p, 0)}
                                     for p, r in places]}))
        return 0
    print(f"omaha tournament: {args.players} players, {tour.hands} hands, prize pool "
          f"{tour.prize_pool}")
    for player, (place, tied_to) in places:
        prize = tour.prizes.get(player, 0)
        if prize or place <= 10:
            tie = f" (tied to {tied_to})" if tied_to != place else ""
            print(f"{place:>6}{tie}  {player}  {prize}")
    sys.stdout.flush()
    return 0
