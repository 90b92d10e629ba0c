"""``omaha play``: a table of bots for N hands, and its summary.

The bots are built-in names or your own (``module:callable``, ``file.py:callable``:
:func:`omaha.game.userbots.load_bot`). Every stack starts every hand at the starting stack
(optionally in duplicate), a progress bar shows on a terminal, the summary gives hands/s and
each seat's bb/100 with a 95% confidence interval, ``--phh`` writes every hand as PHH and
``--plot`` draws each seat's cumulative winnings. ``--seed`` means what it means in ``omaha
simulate``: deal ``d`` is played from :func:`omaha.game.bots.deal_seed` ``(seed, d)``, so
the two commands give the same hands and results. ``--ray`` hands the session to
:mod:`omaha.cli.scale`.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from omaha.cli.plot import plot_output
from omaha.cli.shared import (
    BLINDS_HELP,
    EXIT_OK,
    add_progress_options,
    add_variant,
    blinds,
    fail,
    game_config,
    non_negative,
    pair,
    phh_output,
    players,
    positive,
    stud_phh_writer,
)

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Register ``omaha play``."""
    sub = commands.add_parser(
        "play",
        help="run a table of bots (built-in or your own)",
        description=(
            "Play N hands at a table of bots (the built-in random and hand-strength bots, or "
            "your own as module:callable or file.py:callable) in any variant and betting structure, then print each seat's result in big "
            "blinds per 100 hands with a 95% confidence interval. Scored the way bot matches "
            "are: every stack starts every hand at the starting stack (winnings are banked, "
            "losses covered) and the button moves one seat each hand."
        ),
        epilog="example: omaha play --variant plo8 --players 6 --hands 10000 --phh hands.phhs; "
        "stud: omaha play --variant FR --players 6 --bots random --json",
    )
    add_variant(sub, default="PO")
    sub.add_argument(
        "--hands", "-n", type=positive, default=1000, help="hands to play (default 1000)"
    )
    sub.add_argument("--players", "-p", type=players, default=6, help="players, 2-10 (default 6)")
    sub.add_argument(
        "--bots",
        default="strength,random",
        help="comma-separated bots, repeated round the table: random, strength, solver, or "
        "your own as module:callable or path/to/file.py:callable (default strength,random)",
    )
    sub.add_argument(
        "--stack", type=positive, default=None, help="starting stack (default 100 big blinds)"
    )
    sub.add_argument(
        "--blinds", type=blinds, default=None,
        help=f"{BLINDS_HELP} (default: 1/2 in pot and no limit; in fixed limit the big blind "
        "is the small bet and the small blind derived)",
    )
    sub.add_argument(
        "--stakes", type=pair, default=None, help="small/big bet in fixed limit (default 2/4)"
    )
    sub.add_argument(
        "--ante", type=non_negative, default=0, help="ante each player posts (default 0)"
    )
    sub.add_argument(
        "--bring-in", type=non_negative, default=None,
        help="stud games: the bring-in (default half the small bet, rule E3)"
    )
    sub.add_argument(
        "--rotation", default=None, metavar="SPEC",
        help="a mixed game (rule E8) instead of --variant: HORSE, HOSE, HORS, SHOE, HA or a "
        "comma-separated list of games, then :N hands each or :orbit (default: none; "
        "orbit when a rotation names no length)"
    )
    sub.add_argument(
        "--seed", type=int, default=None,
        help="seed the shuffle and bots, deal by deal, as omaha simulate does: the same seed "
        "gives the same hands and results in both (default: OS RNG)"
    )
    sub.add_argument(
        "--duplicate",
        action="store_true",
        help="duplicate mode: play each shuffled deal once per seat, the bots moving one "
        "seat clockwise between replays, so every bot plays every seat's cards and the luck "
        "of the deal cancels out (--hands is rounded up to a multiple of --players)",
    )
    sub.add_argument(
        "--phh",
        metavar="PATH",
        default=None,
        type=phh_output,
        help="write every hand: FILE.phhs, or a directory of .phh files; a stud game's or a "
        "rotation's hands each in its own game's notation, five-card stud refused (no PHH "
        "code) (default: none)",
    )
    sub.add_argument(
        "--pokerkit",
        action="store_true",
        help="with --phh: write standard variant codes PokerKit reads (PO/8 as PO, FO as FO/8, "
        "PT as NT, the real code in _variant; stud codes are standard); refused for games "
        "without one",
    )
    sub.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="play the hands as Ray tasks (the 'ray' extra): a new local cluster, or the one at "
        "ADDRESS (e.g. auto); merged exactly; --phh then names a folder of shards "
        "(default: here, in this process)",
    )
    sub.add_argument(
        "--plot",
        metavar="PNG",
        default=None,
        type=plot_output,
        help="draw each seat's cumulative winnings in big blinds with its 95%% band into PNG "
        "(needs matplotlib: the 'plot' extra; not with --ray; default: no plot)",
    )
    add_progress_options(sub)
    sub.add_argument("--json", action="store_true", help="print the summary as JSON")
    sub.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the session and print its summary; 2 on bad options."""
    import time

    from omaha.cli.progress import progress_bar
    from omaha.config import parse_variant
    from omaha.errors import OmahaError
    from omaha.game.bots import play_session
    from omaha.game.userbots import load_bot
    from omaha.phh import variant_for_name
    from omaha.phh.export import PhhWriter

    if args.rotation is not None:
        return _run_rotation(args)
    try:
        if parse_variant(args.variant).variant.is_stud:
            return _run_stud(args)
    except OmahaError:
        pass   # an unknown name: game_config words the error
    try:
        config = game_config(args.variant, blinds=args.blinds, stakes=args.stakes, ante=args.ante)
        game = variant_for_name(args.variant)   # its PHH code, for --phh and the summary
    except (OmahaError, ValueError) as exc:
        return fail("play", exc)
    kinds = [kind.strip() for kind in args.bots.split(",")]
    try:
        loaded = {kind: load_bot(kind) for kind in dict.fromkeys(kinds)}   # each spec checked
    except OmahaError as exc:
        return fail("play", exc)
    if args.players > config.variant.max_players:
        return fail(
            "play",
            f"{config.variant.name} seats at most {config.variant.max_players} players "
            "(one deck, rule C1)",
        )
    if args.ray is not None:
        if args.plot is not None:
            return fail("play", "--plot needs the hands played here, not with --ray")
        from omaha.cli.scale import run_on_ray

        return run_on_ray(args, config, kinds)
    if args.plot is not None:
        try:
            from omaha.cli.plot import require_matplotlib

            require_matplotlib()
        except ImportError as exc:
            return fail("play", exc)
    # a new bot per seat (the first seat of each spec gets the one loaded above)
    bots = [loaded.pop(kind) if kind in loaded else load_bot(kind)
            for kind in (kinds[i % len(kinds)] for i in range(args.players))]
    stack = _stack(args, config)
    if args.pokerkit and game.code not in _pokerkit_codes():
        return fail("play", f"--pokerkit: {game.code} ({game.name}) has no PHH standard "
                     f"code PokerKit reads; use one of {', '.join(_pokerkit_codes())}")
    writer = PhhWriter(args.phh, compatible=args.pokerkit) if args.phh else None
    hands = args.hands
    if args.duplicate:
        hands = -(-hands // args.players) * args.players
    bar = progress_bar(hands, enabled=args.progress, description="play")

    def on_hand(hand: Any) -> None:
        if writer is not None:
            writer.write(hand)
        bar.update()

    started = time.perf_counter()
    try:
        result = play_session(
            config,
            bots,
            hands=hands,
            stack=stack,
            on_hand=on_hand,
            duplicate=args.duplicate,
            seed=args.seed,
        )
    finally:
        bar.close()
        if writer is not None:
            writer.close()
    seconds = time.perf_counter() - started
    if args.plot is not None:
        from omaha.cli.plot import plot_session

        plot_session(result, config.big_blind, args.plot,
                     title=f"{config.variant.name}, {result.hands} hands")
    _print_summary(args, game.code, config, result, seconds)
    return EXIT_OK


def _run_stud(args: argparse.Namespace) -> int:
    """A stud session (E1-E7) of the built-in stud bots: the stakes are the small and big bets
    (default 2/4), ``--ante`` and ``--bring-in`` (default half the small bet) the forced bets;
    the summary gives hands/s and each seat's net chips and big bets per 100 hands."""
    import time

    from omaha.errors import OmahaError
    from omaha.game.stud import STUD_CODES, StudConfig
    from omaha.game.studplay import play_stud_session

    unsupported = _not_for_stud(args)
    if unsupported:
        return fail("play", f"{unsupported}: not available for stud games yet")
    small, big, bring_in, kinds = _stud_stakes(args)
    bots = [kinds[i % len(kinds)] for i in range(args.players)]
    try:
        config = StudConfig(variant=args.variant, ante=args.ante, bring_in=bring_in,
                            small_bet=small, big_bet=big)
        if args.players > config.variant.max_players:
            return fail("play", f"{config.variant.name} seats at most "
                        f"{config.variant.max_players} players (rule E1)")
        stack = int(args.stack) if args.stack is not None else 100 * config.big_bet
        writer = (stud_phh_writer(args.phh, [STUD_CODES[config.variant]])
                  if args.phh is not None else None)
        started = time.perf_counter()
        try:
            result = play_stud_session(config, bots, hands=args.hands, stack=stack,
                                       seed=args.seed,
                                       on_hand=None if writer is None else writer.write)
        finally:
            if writer is not None:
                writer.close()
        seconds = time.perf_counter() - started
    except OmahaError as exc:
        return fail("play", exc)
    rate = result.hands / seconds if seconds > 0 else float("inf")
    code = STUD_CODES[config.variant]
    seats = _seat_rows(result.bots, result.nets, result.hands, config.big_bet)
    if args.json:
        print(json.dumps({"variant": code, "hands": result.hands, "stack": stack,
                          "ante": config.ante, "bring_in": config.bring_in,
                          "small_bet": config.small_bet, "big_bet": config.big_bet,
                          "seconds": round(seconds, 3), "hands_per_second": round(rate, 1),
                          "seats": seats}))
        return EXIT_OK
    print(f"{result.hands} hands of {config.variant.name} (fixed limit, {code}) in "
          f"{seconds:.2f} s: {rate:,.0f} hands/s")
    _print_seats(seats, stack)
    return EXIT_OK


def _run_rotation(args: argparse.Namespace) -> int:
    """A mixed-game session (E8): every game fixed limit at ``--stakes`` (default 2/4), the
    flop games with the blinds the bets imply, the stud games with ``--ante`` and
    ``--bring-in``; the summary gives hands/s, the hands of each game and each seat's net."""
    import time

    from omaha.errors import OmahaError
    from omaha.game.rotation import STUD_OR_FLOP_CODE, Rotation, play_rotation
    from omaha.game.studplay import STUD_BOTS
    from omaha.game.userbots import load_bot

    unsupported = _not_for_stud(args)
    if unsupported:
        return fail("play", f"{unsupported}: not available with --rotation yet")
    small, big, bring_in, kinds = _stud_stakes(args)
    names = [kinds[i % len(kinds)] for i in range(args.players)]
    stack = int(args.stack) if args.stack is not None else 100 * big
    try:
        rotation = Rotation.parse(args.rotation)
        if any(name not in STUD_BOTS for name in names):
            raise OmahaError(f"E8: a rotation plays the built-in bots ({', '.join(STUD_BOTS)})")
        if args.players > 8:
            raise OmahaError("E8: a rotation with stud games seats at most 8 players (rule E1)")
        codes = [STUD_OR_FLOP_CODE[game] for game in rotation.games]
        writer = None
        if args.phh is not None:   # each hand in its own game's notation
            writer = stud_phh_writer(args.phh, codes, compatible=args.pokerkit)
        started = time.perf_counter()
        try:
            result = play_rotation(
                rotation, [load_bot(name) for name in names], names, hands=args.hands,
                small_bet=small, big_bet=big, ante=args.ante, bring_in=bring_in, stack=stack,
                seed=args.seed,
                on_hand=None if writer is None else lambda _, hand: writer.write(hand))
        finally:
            if writer is not None:
                writer.close()
        seconds = time.perf_counter() - started
    except OmahaError as exc:
        return fail("play", exc)
    rate = result.hands / seconds if seconds > 0 else float("inf")
    seats = _seat_rows(names, result.nets, result.hands, big)
    if args.json:
        print(json.dumps({"rotation": args.rotation, "hands": result.hands,
                          "per_game": result.per_game, "stack": stack,
                          "seconds": round(seconds, 3), "hands_per_second": round(rate, 1),
                          "seats": seats}))
        return EXIT_OK
    games = ", ".join(f"{code} {count}" for code, count in result.per_game.items())
    print(f"{result.hands} hands of {args.rotation} ({games}) in {seconds:.2f} s: "
          f"{rate:,.0f} hands/s")
    _print_seats(seats, stack)
    return EXIT_OK


def _seat_rows(bots: Sequence[str], nets: Sequence[int], hands: int,
               big_bet: int) -> list[dict[str, Any]]:
    """Each seat's bot, net chips and big bets per 100 hands (stud games and rotations)."""
    return [{"seat": i + 1, "bot": bot, "net": net,
             "big_bets_per_100": round(100 * net / (hands * big_bet), 2)}
            for i, (bot, net) in enumerate(zip(bots, nets))]


def _print_seats(seats: list[dict[str, Any]], stack: int) -> None:
    print(f"{'seat':>4}  {'bot':<9} {'net chips':>10} {'BB/100':>9}")
    for row in seats:
        print(f"{row['seat']:>4}  {row['bot']:<9} {row['net']:>+10} "
              f"{row['big_bets_per_100']:>+9.2f}")
    print(f"every stack started every hand at {stack} (winnings banked); BB: the big bet")


def _not_for_stud(args: argparse.Namespace) -> str:
    """The options given that stud games and rotations do not take yet ("" if none)."""
    given = [flag for flag, value in (("--blinds", args.blinds), ("--ray", args.ray),
                                      ("--plot", args.plot))
             if value is not None] + (["--duplicate"] if args.duplicate else [])
    return ", ".join(given)


def _stud_stakes(args: argparse.Namespace) -> tuple[int, int, int, list[str]]:
    """Small and big bet (default 2/4), the bring-in (default half the small bet) and the
    bots named, for stud games and rotations."""
    small, big = args.stakes if args.stakes is not None else (2, 4)
    bring_in = args.bring_in if args.bring_in is not None else small // 2
    return small, big, bring_in, [kind.strip() for kind in args.bots.split(",")]


def _pokerkit_codes() -> list[str]:
    from omaha.phh import PORTABLE_CODES, STANDARD_CODES

    return sorted(STANDARD_CODES | set(PORTABLE_CODES))


def _print_summary(
    args: argparse.Namespace, code: str, config: Any, result: Any, seconds: float
) -> None:
    rate = result.hands / seconds if seconds > 0 else float("inf")
    scores = result.scores(config.big_blind)
    seats = [
        {
            "seat": score.seat,
            "bot": score.bot,
            "hands": score.hands,
            "net": score.net,
            "bb_per_100": round(score.bb_per_100, 2),
            "ci95": None if score.ci95 is None else round(score.ci95, 2),
        }
        for score in scores
    ]
    if args.json:
        summary = {
            "variant": code,
            "hands": result.hands,
            "duplicate": result.duplicate,
            "stack": _stack(args, config),
            "big_blind": config.big_blind,
            "seconds": round(seconds, 3),
            "hands_per_second": round(rate, 1),
            "seats": seats,
        }
        print(json.dumps(summary))
        return
    deals = result.hands // result.hands_per_sample
    mode = f", duplicate: {deals} deals" if result.duplicate else ""
    print(
        f"{result.hands} hands of {config.variant.name} ({config.structure.value}, {code}{mode}) "
        f"in {seconds:.2f} s: {rate:,.0f} hands/s"
    )
    print(f"{'seat':>4}  {'bot':<9} {'net chips':>10} {'bb/100':>9} {'95% CI':>10}")
    for row in seats:
        ci = "" if row["ci95"] is None else f"+/- {row['ci95']:.2f}"
        print(
            f"{row['seat']:>4}  {row['bot']:<9} {row['net']:>+10} {row['bb_per_100']:>+9.2f} "
            f"{ci:>10}"
        )
    print(
        f"every stack started every hand at {_stack(args, config)} "
        "(winnings banked); 95% CI: bb/100 +/- the half-width"
    )




def _stack(args: argparse.Namespace, config: Any) -> int:
    """The starting stack of every hand (default 100 big blinds)."""
    return int(args.stack) if args.stack is not None else 100 * int(config.big_blind)
