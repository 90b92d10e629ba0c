"""The arena's commands: ``omaha serve``, ``omaha bots`` and ``omaha export``.

``serve`` and ``bots`` need the ``[server]`` extra (``websockets``); without it they exit 2
with the line ``pip install "omaha-poker[server]"``. ``export`` needs only the database.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

from omaha.cli.shared import (
    BLINDS_HELP,
    add_progress_options,
    add_variant,
    arena_db,
    blinds,
    existing_arena_db,
    fail,
    non_negative,
    one_line,
    output_file,
    overwritten,
    pair,
    port,
    positive,
    positive_real,
    refuse,
    ws_url,
)
from omaha.limits import ARENA_LEASE_MS as LEASE_MS

__all__ = ["add_parser", "run_bots", "run_export", "run_serve"]

HINT = 'omaha {command}: needs the server extra: pip install "omaha-poker[server]"'


def add_parser(commands: Any) -> None:
    """Add ``serve``, ``bots`` and ``export`` to the ``omaha`` subcommands."""
    serve = commands.add_parser("serve", help="run the arena: tables bots play over WebSockets",
                                description="Run the arena server (state kept in --db).")
    serve.add_argument("--db", required=True, type=arena_db,
                       help="the arena's database: a SQLite file (a path or sqlite:///path, "
                       "created if missing; one process) or a PostgreSQL URL "
                       "(postgresql://user:password@host/dbname; several processes share "
                       "it; the postgres extra); required")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default %(default)s)")
    serve.add_argument("--port", type=port, default=8765,
                       help="1-65535; 0 picks a free port (default %(default)s)")
    serve.add_argument("--tables", type=positive, default=4,
                       help="tables, created at the first start (default %(default)s)")
    serve.add_argument("--seats", type=positive, default=6,
                       help="seats per table (default %(default)s)")
    add_variant(serve, default="plo8")
    serve.add_argument("--structure", choices=("fixed-limit", "pot-limit", "no-limit"),
                       help="default: the variant's")
    serve.add_argument("--blinds", type=blinds, default=None,
                       help=f"{BLINDS_HELP} (default 2 with the small blind derived: 1/2; "
                       "fixed limit: bets are BB and 2BB)")
    serve.add_argument("--rotation", default=None, metavar="SPEC",
                       help="a mixed game (rule E8) instead of --variant: HORSE, HOSE, HORS, "
                       "SHOE, HA or a comma-separated list of games, then :N hands each or "
                       ":orbit (default: none; orbit when a rotation names no length)")
    serve.add_argument("--stakes", type=pair, default=None,
                       help="stud games and rotations: the small/big bet (default 2/4)")
    serve.add_argument("--ante", type=non_negative, default=None,
                       help="stud games and rotations: the ante (default 0)")
    serve.add_argument("--bring-in", type=non_negative, default=None,
                       help="stud games and rotations: the bring-in (default half the small "
                       "bet, rule E3)")
    serve.add_argument("--buy-in", type=positive, default=200,
                       help="chips for a new player and a rebuy (default %(default)s)")
    serve.add_argument("--no-rebuy", dest="rebuy", action="store_false",
                       help="do not top busted players up to the buy-in (default: they are)")
    serve.add_argument("--hand-pause-ms", type=non_negative, default=0,
                       help="pause before each hand (default %(default)s)")
    serve.add_argument("--base-ms", type=non_negative, default=10_000,
                       help="D1 base time (default %(default)s)")
    serve.add_argument("--countdown-ms", type=non_negative, default=20_000,
                       help="D1 countdown (default %(default)s)")
    serve.add_argument("--reconnect-bonus-ms", type=non_negative, default=20_000,
                       help="D3 (default %(default)s)")
    serve.add_argument("--max-frame", type=positive, default=4096,
                       help="bytes per frame (default %(default)s)")
    serve.add_argument("--rate", type=positive_real, default=50.0,
                       help="messages per second per client (a finite number above 0; "
                       "default %(default)s)")
    serve.add_argument("--burst", type=positive, default=100,
                       help="messages a client may send at once above --rate "
                       "(default %(default)s)")
    serve.add_argument("--spectators", type=non_negative, default=16,
                       help="most spectators watching one table (default %(default)s)")
    serve.add_argument("--fsync", action="store_true",
                       help="fsync every commit (survives power loss, not just a crash; "
                       "default off)")
    serve.add_argument("--stats", type=output_file,
                       help="write load statistics (JSON) to this file every second "
                       "(default: none)")
    serve.add_argument("--reconfigure", action="store_true",
                       help="on an existing --db, apply settings unlike the stored ones "
                       "(the house rules: buy-in, rebuy, pauses, clock, spectators; more "
                       "tables); without it a restart with other settings exits 2. The game "
                       "and the seats never change (default off)")
    serve.add_argument("--advertise", type=ws_url, default=None, metavar="URL",
                       help="the address clients reach this process at, given to them in the "
                       "lobby and in redirects (default: ws://HOST:PORT as bound)")
    serve.add_argument("--lease-ms", type=positive, default=LEASE_MS,
                       help="how long this process's hold on a table lasts unless renewed "
                       "(renewed every third of it); a table whose lease runs out is taken "
                       "over by another process (default %(default)s)")
    serve.add_argument("--max-tables", type=positive, default=None, metavar="N",
                       help="the most tables this process plays (default: all of them)")
    serve.add_argument("--no-web", dest="web", action="store_false",
                       help="serve no web page on the port, only the WebSocket protocol "
                       "(default: the page at http://HOST:PORT/)")
    serve.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                       type=_origin,
                       help="a page origin (https://poker.example) whose WebSockets are "
                       "accepted besides this host's own; repeat for more (default: none; "
                       "clients that send no Origin, like bots, are always accepted)")
    tour = serve.add_argument_group(
        "tournament", "serve one sit-and-go or multi-table tournament instead of cash tables "
        "(SQLite only; a --db that holds a tournament resumes it)")
    tour.add_argument("--tournament", default=None, metavar="STRUCTURE",
                      help="a structure file (TOML), or 'default' for the shipped default "
                      "structure (default: cash tables)")
    tour.add_argument("--players", type=positive, default=None, metavar="N",
                      help="entrants that start the tournament when all have entered "
                      "(no default: required with --tournament)")
    tour.add_argument("--start-in", type=positive_real, default=None, metavar="SECONDS",
                      help="start then with whoever entered, at least 2 (default: when full)")
    tour.add_argument("--seed", type=int, default=None,
                      help="seed the draw and the decks (default: the OS generator)")
    serve.set_defaults(run=run_serve)

    bots = commands.add_parser("bots", help="run bot clients against an arena",
                               description="Bots that join, play and reconnect with tokens.")
    bots.add_argument("url", type=ws_url, nargs="+",
                      help="ws://127.0.0.1:8765 or wss://...; several: processes of one arena "
                      "(each bot learns the others from the lobby and follows redirects)")
    bots.add_argument("--count", type=positive, default=6,
                      help="bot clients to run (default %(default)s)")
    bots.add_argument("--hands", type=positive, default=100,
                      help="stop after each table's Nth hand (default %(default)s)")
    bots.add_argument("--policy", default="random", metavar="BOT",
                      help="every client's bot: random, strength, solver, or your own "
                      "as module:callable or path/to/file.py:callable (default random)")
    bots.add_argument("--seed", type=int, default=None,
                      help="seed the bots' own choices (the server deals the cards; "
                      "default: OS randomness)")
    bots.add_argument("--timeout", type=positive_real, default=None,
                      help="give up (exit 1) after this many seconds (default: no limit)")
    bots.add_argument("--leave-after", type=positive, default=None, metavar="N",
                      help="each bot gives up its seat (cashing out) after its table's Nth "
                      "hand (default: they keep their seats)")
    add_progress_options(bots)
    bots.add_argument("--json", action="store_true",
                      help="print one JSON object: the totals and each bot's report")
    bots.set_defaults(run=run_bots)

    export = commands.add_parser("export", help="every finished hand of an arena as PHH",
                                 description="Write every finished hand to a .phhs file.")
    export.add_argument("--db", required=True, type=existing_arena_db,
                        help="the arena's database (read, never changed)")
    export.add_argument("output", type=output_file,
                        help="the .phhs file to write (never one of the inputs)")
    add_progress_options(export)
    export.add_argument("--json", action="store_true",
                        help="print one JSON object: the hands written and the output path")
    export.set_defaults(run=run_export)


def _origin(text: str) -> str:
    """An ``--allowed-origin``: ``http[s]://HOST[:PORT]``."""
    from omaha.arena.web import check_origin
    from omaha.errors import OmahaError

    try:
        return check_origin(text)
    except OmahaError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _has_websockets(command: str) -> bool:
    try:
        import websockets  # noqa: F401
    except ImportError:
        print(HINT.format(command=command), file=sys.stderr)
        return False
    return True


def _game(args: argparse.Namespace) -> Any:
    """The game of ``omaha serve``: a rotation or a stud game at ``--stakes``, ``--ante`` and
    ``--bring-in``, or a flop game at ``--blinds`` in its ``--structure``."""
    from omaha.config import GameConfig, Structure, parse_variant
    from omaha.errors import OmahaError
    from omaha.game.rotation import Rotation, RotationConfig
    from omaha.game.stud import StudConfig

    meaning = parse_variant(args.variant)   # --structure may override the one it says
    stud = args.rotation is not None or meaning.variant.is_stud
    if stud:
        flop_only = [flag for flag, value in (("--blinds", args.blinds),
                                              ("--structure", args.structure)) if value]
        if flop_only:
            raise OmahaError(f"{', '.join(flop_only)}: a stud game or a rotation is fixed limit "
                             "at --stakes, --ante and --bring-in")
        small, big = args.stakes if args.stakes is not None else (2, 4)
        ante = args.ante or 0
        bring_in = args.bring_in if args.bring_in is not None else small // 2
        if args.rotation is not None:
            return RotationConfig(Rotation.parse(args.rotation), small_bet=small, big_bet=big,
                                  ante=ante, bring_in=bring_in)
        return StudConfig(variant=meaning.variant, small_bet=small, big_bet=big, ante=ante,
                          bring_in=bring_in)
    stud_only = [flag for flag, value in (("--stakes", args.stakes), ("--ante", args.ante),
                                          ("--bring-in", args.bring_in)) if value is not None]
    if stud_only:
        raise OmahaError(f"{', '.join(stud_only)}: for stud games and rotations; a flop game "
                         "takes --blinds")
    structure = Structure(args.structure) if args.structure else meaning.usual
    small, big = args.blinds or (None, 2)   # a small blind of None: derived (T3); 0: none
    if structure is Structure.FIXED_LIMIT:
        return GameConfig.fixed_limit(small_bet=big, big_bet=2 * big, variant=meaning.variant,
                                      small_blind=small, big_blind=big)
    return GameConfig(structure=structure, small_blind=small, big_blind=big,
                      variant=meaning.variant)


def _settings(args: argparse.Namespace) -> Any:
    from omaha.arena.settings import ArenaSettings

    config = _game(args)
    return ArenaSettings(tables=args.tables, seats=args.seats, game=config.to_dict(),
                         buy_in=args.buy_in, rebuy=args.rebuy, hand_pause_ms=args.hand_pause_ms,
                         spectators=args.spectators,
                         clock={"base_ms": args.base_ms, "countdown_ms": args.countdown_ms,
                                "reconnect_bonus_ms": args.reconnect_bonus_ms})


def run_serve(args: argparse.Namespace) -> int:
    """``omaha serve``: run until SIGINT/SIGTERM."""
    from omaha.arena.databases import is_postgres

    local = None if is_postgres(args.db) else args.db
    problem = overwritten({"--db": local}, {"--stats": args.stats})
    if problem is not None:
        refuse("serve", problem)
    if not _has_websockets("serve"):
        return 2
    if args.tournament is not None or (local is not None and _holds_tournament(local)):
        return _serve_tournament(args, local)
    import asyncio
    import sqlite3

    from omaha.arena.server import serve
    from omaha.errors import OmahaError

    try:
        settings = _settings(args)
    except (OmahaError, ValueError) as exc:
        return fail("serve", exc)

    def ready(port: int) -> None:
        print(f"omaha serve: listening on ws://{args.host}:{port}", flush=True)
        if args.web:
            print(f"omaha serve: watch and play at http://{args.host}:{port}/", flush=True)

    try:
        asyncio.run(serve(args.db, settings, host=args.host, port=args.port, ready=ready,
                          max_size=args.max_frame, rate=args.rate, burst=args.burst,
                          stats_path=args.stats,
                          synchronous="FULL" if args.fsync else "NORMAL",
                          reconfigure=args.reconfigure, url=args.advertise,
                          lease_ms=args.lease_ms, max_tables=args.max_tables,
                          web=args.web, allowed_origins=args.allowed_origin))
    except (OmahaError, OSError, sqlite3.Error, ImportError) as exc:
        print(f"omaha serve: {one_line(str(exc))}", file=sys.stderr)
        return 2
    return 0


def _holds_tournament(path: str) -> bool:
    """Whether the SQLite file ``path`` holds a tournament (read only; False if missing)."""
    import os
    import sqlite3
    from urllib.parse import quote

    if not os.path.exists(path) or not os.path.getsize(path):
        return False
    try:
        db = sqlite3.connect("file:" + quote(os.path.abspath(path)) + "?mode=ro", uri=True)
        try:
            return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                              "name = 'tournament_meta'").fetchone() is not None
        finally:
            db.close()
    except sqlite3.Error:
        return False


def _serve_tournament(args: argparse.Namespace, path: str | None) -> int:
    """``omaha serve --tournament``: one tournament, until SIGINT/SIGTERM."""
    import asyncio
    import sqlite3

    from omaha.arena.tournament_server import serve_tournament
    from omaha.errors import OmahaError
    from omaha.game.clock import ClockConfig
    from omaha.tournament import DEFAULT_STRUCTURE, Structure

    if path is None:
        refuse("serve", "--tournament runs on SQLite: give a file to --db")
    stud_flags = [flag for flag, value in (("--rotation", args.rotation), ("--stakes", args.stakes),
                                           ("--ante", args.ante), ("--bring-in", args.bring_in))
                  if value is not None]
    if stud_flags:
        refuse("serve", f"{', '.join(stud_flags)}: tournaments play flop games")
    structure = None
    try:
        if args.tournament == "default":
            structure = DEFAULT_STRUCTURE
        elif args.tournament is not None:
            structure = Structure.load(args.tournament)
        if structure is not None and args.players is None and not _holds_tournament(path):
            refuse("serve", "--tournament needs --players N (the entrants that start it)")
        clock = ClockConfig(base_ms=args.base_ms, countdown_ms=args.countdown_ms,
                            reconnect_bonus_ms=args.reconnect_bonus_ms)
    except (OmahaError, OSError, ValueError) as exc:
        return fail("serve", exc)

    def ready(port: int) -> None:
        print(f"omaha serve: tournament on ws://{args.host}:{port}", flush=True)

    try:
        asyncio.run(serve_tournament(
            path, structure, players=args.players, host=args.host, port=args.port,
            ready=ready, clock=clock, hand_pause_ms=args.hand_pause_ms,
            start_in=args.start_in, seed=args.seed, max_size=args.max_frame, rate=args.rate,
            burst=args.burst, spectators=args.spectators,
            synchronous="FULL" if args.fsync else "NORMAL",
            allowed_origins=args.allowed_origin))
    except (OmahaError, OSError, sqlite3.Error, ImportError) as exc:
        print(f"omaha serve: {one_line(str(exc))}", file=sys.stderr)
        return 2
    return 0


def run_bots(args: argparse.Namespace) -> int:
    """``omaha bots``: exit 0 once every bot's table played ``--hands`` hands."""
    if not _has_websockets("bots"):
        return 2
    import asyncio

    from omaha.arena.client import BotError
    from omaha.arena.client import run_bots as play
    from omaha.game.userbots import UserBotError, load_bot

    try:
        load_bot(args.policy)          # a bad spec: one line, exit 2, before any connection
    except UserBotError as exc:
        return fail("bots", exc)
    try:
        reports = asyncio.run(_play_with_bar(args, play))
    except asyncio.TimeoutError:
        print(f"omaha bots: not done after {args.timeout} s", file=sys.stderr)
        return 1
    except BotError as exc:
        print(f"omaha bots: {one_line(str(exc))}", file=sys.stderr)
        return 1
    tables = sorted({r.table for r in reports})
    actions = sum(r.actions for r in reports)
    reconnects = sum(r.reconnects for r in reports)
    gaps = sum(r.gaps for r in reports)
    redirects = sum(r.redirects for r in reports)
    paid = [r.cashed_out for r in reports if r.cashed_out is not None]
    if args.json:
        print(json.dumps({"bots": len(reports), "tables": len(tables), "actions": actions,
                          "reconnects": reconnects, "redirects": redirects, "gaps": gaps,
                          "left": None if args.leave_after is None else len(paid),
                          "cashed_out": None if args.leave_after is None else sum(paid),
                          "reports": [asdict(r) for r in reports]}))
        return 0
    print(f"omaha bots: {len(reports)} bots at {len(tables)} tables, {actions} actions, "
          f"{reconnects} reconnection attempts, {redirects} redirects, {gaps} stream gaps")
    if args.leave_after is not None:
        print(f"omaha bots: {len(paid)} left their seats, {sum(paid)} chips cashed out")
    return 0


async def _play_with_bar(args: argparse.Namespace, play: Any) -> Any:
    """The bots' run (:func:`omaha.arena.client.run_bots`) with a bar of the hands played by
    the slowest table (the lowest hand number a bot has seen), up to where the bots stop."""
    import asyncio

    from omaha.cli.progress import progress_bar

    target = args.hands if args.leave_after is None else min(args.hands, args.leave_after)
    bar = progress_bar(target, enabled=args.progress, description="bots")
    reports: list[Any] = []

    def advance() -> None:
        done = min((min(r.hand, target) for r in reports), default=0)
        if done > bar.n:
            bar.update(done - bar.n)

    async def watch() -> None:
        while True:
            await asyncio.sleep(0.2)
            advance()

    watcher = asyncio.create_task(watch())
    try:
        return await play(args.url, count=args.count, hands=args.hands, policy=args.policy,
                          seed=args.seed, timeout=args.timeout, leave_after=args.leave_after,
                          on_start=reports.extend)
    finally:
        watcher.cancel()
        advance()
        bar.close()


class _Counted:
    """An arena storage whose finished hands tick a progress bar as they are read."""

    def __init__(self, storage: Any, bar: Any) -> None:
        self._storage, self._bar = storage, bar

    def __getattr__(self, name: str) -> Any:
        return getattr(self._storage, name)

    def finished_hands(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        for finished in self._storage.finished_hands(*args, **kwargs):
            yield finished
            self._bar.update()


def _export_tournament(args: argparse.Namespace, path: str) -> int:
    """``omaha export`` of a served tournament: its hands, and its places with --json."""
    import sqlite3

    from omaha.arena.export import export_tournament
    from omaha.arena.tournament_store import TournamentStore
    from omaha.errors import OmahaError
    from omaha.tournament import Tournament

    try:
        store = TournamentStore(path)
        try:
            count = export_tournament(store, args.output)
            snapshot = store.snapshot()
            tour = Tournament.restore(snapshot) if snapshot is not None else None
        finally:
            store.close()
    except (OmahaError, OSError, sqlite3.Error) as exc:
        print(f"omaha export: {one_line(str(exc))}", file=sys.stderr)
        return 2
    places = [] if tour is None else [
        {"player": p, "place": high, "tied_to": low,
         "prize": tour.prizes.get(p) if tour.is_over else None}
        for p, (high, low) in sorted(tour.places.items(), key=lambda item: item[1])]
    if args.json:
        print(json.dumps({"hands": count, "output": args.output, "places": places,
                          "prize_pool": None if tour is None else tour.prize_pool,
                          "over": tour is not None and tour.is_over}))
        return 0
    print(f"omaha export: {count} hands written to {args.output}")
    for entry in places:
        tied = f"-{entry['tied_to']}" if entry["tied_to"] != entry["place"] else ""
        prize = f" {entry['prize']}" if entry["prize"] else ""
        print(f"  {entry['place']}{tied}. {entry['player']}{prize}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    """``omaha export``: every finished hand to one .phhs file."""
    import os
    import sqlite3

    from omaha.arena.databases import is_postgres, open_storage
    from omaha.arena.export import export_phhs

    local = None if is_postgres(args.db) else args.db
    problem = overwritten({"--db": local}, {"OUTPUT": args.output})
    if problem is not None:
        refuse("export", problem)
    if local is not None and not os.path.exists(local):
        print(f"omaha export: no database {args.db}", file=sys.stderr)
        return 2
    from omaha.cli.progress import progress_bar
    from omaha.errors import OmahaError

    if local is not None and _holds_tournament(local):
        return _export_tournament(args, local)
    bar = progress_bar(None, enabled=args.progress, description="export")
    try:
        storage = open_storage(args.db, create=False)
        try:
            count = export_phhs(_Counted(storage, bar), args.output)
        finally:
            storage.close()
    except (OmahaError, OSError, sqlite3.Error, ImportError) as exc:
        print(f"omaha export: {one_line(str(exc))}", file=sys.stderr)
        return 2
    finally:
        bar.close()
    if args.json:
        print(json.dumps({"hands": count, "output": args.output}))
        return 0
    print(f"omaha export: {count} hands written to {args.output}")
    return 0
