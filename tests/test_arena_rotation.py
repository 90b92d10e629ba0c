"""Mixed games in the arena (E8, E1-E7): a real ``omaha serve --rotation HORSE`` process and
real ``omaha bots`` on 127.0.0.1 play every game of the rotation; each hand is stored with
its PHH, chips are conserved, no frame shows another player's hole or down cards, and a
server killed mid-play resumes on the same database. Library-level checks cover the views
and the crash rule of a stud hand in play."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys

import pytest

websockets = pytest.importorskip("websockets")
jsonschema = pytest.importorskip("jsonschema")

from omaha.arena import ArenaSettings, load_schema
from omaha.arena.client import BotClient
from omaha.arena.export import check_conservation
from omaha.arena.house import Arena
from omaha.arena.messages import Act
from omaha.arena.storage import SqliteStorage
from omaha.game.rotation import Rotation, RotationConfig
from omaha.game.studseats import SeatedStudHand
from omaha.phh.stud import loads_stud, replay_stud_history
from serving import ENV, free_port  # one way to start a server
from test_arena_server import serve_process

SERVER_MESSAGE = jsonschema.Draft202012Validator(
    {**{k: v for k, v in load_schema().items() if k != "oneOf"}, "$ref": "#/$defs/server_message"})
HORSE = RotationConfig(Rotation.parse("HORSE:2"), small_bet=2, ante=1, bring_in=1)
HORSE_CODES = {"Texas Hold'em", "Omaha Hi/Lo 8-or-better", "Razz", "Seven-Card Stud",
               "Seven-Card Stud Hi/Lo 8-or-better"}


def start_server(db: str, port: int, *extra: str) -> subprocess.Popen[str]:
    return serve_process(db, port, "--tables", "1", "--seats", "3", "--base-ms", "2000",
                         "--countdown-ms", "2000", "--rotation", "HORSE:2", "--stakes", "2/4",
                         "--ante", "1", "--bring-in", "1", "--no-web", *extra)


class WatchedBot(BotClient):
    """A bot client that keeps every frame it receives (to check what it was shown)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.frames: list[dict[str, object]] = []

    async def _session(self, ws, stop):  # type: ignore[no-untyped-def]
        frames = self.frames

        class Recording:
            def __init__(self, inner):  # type: ignore[no-untyped-def]
                self.inner = inner

            async def send(self, text):  # type: ignore[no-untyped-def]
                await self.inner.send(text)

            def __aiter__(self):  # type: ignore[no-untyped-def]
                return self._frames()

            async def _frames(self):  # type: ignore[no-untyped-def]
                async for frame in self.inner:
                    frames.append(json.loads(frame))
                    yield frame

        return await super()._session(Recording(ws), stop)


def check_frames(frames: list[dict[str, object]], seat: int) -> set[str]:
    """Every frame fits the schema; none shows another seat's hole cards (flop) or down cards
    (stud) before they are shown; returns the variants seen in this seat's views."""
    variants = set()
    for message in frames:
        SERVER_MESSAGE.validate(message)
        if message["type"] != "update":
            continue
        for item in message["events"]:  # type: ignore[attr-defined]
            event = item["event"]
            if event["type"] == "hole_dealt" and event["seat"] != seat:
                assert event["cards"] is None
            if event["type"] == "stud_dealt" and event["seat"] != seat:
                assert event["down"] is None
            if event["type"] == "card_burned":
                assert event["card"] is None
        view = message["view"]
        if not isinstance(view, dict):
            continue
        if "variant" in view:
            variants.add(view["variant"])
        for player in view["players"]:
            if player["seat"] == seat:
                continue
            if "down" in player:
                assert player["down"] is None        # stud: never another's down cards
            elif not view["is_over"] and view["street"] != "showdown":
                assert player["cards"] is None
    return variants


def check_stored(db: str) -> set[str]:
    """Every stored hand: its game, a PHH that replays (stud) or parses (flop), chips kept."""
    storage = SqliteStorage(db)
    games = set()
    for finished in storage.finished_hands():
        start = finished.events[0]
        if start["type"] == "stud_hand_started":
            games.add(start["config"]["variant"])
            history = loads_stud(finished.phh)
            assert history.user_fields["_table"] == finished.table
            assert replay_stud_history(history).matches
        else:
            games.add(start["config"]["variant"]["name"])
    assert check_conservation(storage) == []
    return games


def start_bots(port: int, count: int, hands: int, policy: str) -> subprocess.Popen[str]:
    """A real ``omaha bots`` process."""
    return subprocess.Popen(
        [sys.executable, "-m", "omaha", "bots", f"ws://127.0.0.1:{port}", "--count", str(count),
         "--hands", str(hands), "--policy", policy, "--timeout", "150", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)


def finish_bots(process: subprocess.Popen[str]) -> dict[str, object]:
    out, err = process.communicate(timeout=170)
    assert process.returncode == 0, err[-2000:]
    report = json.loads(out)
    assert report["gaps"] == 0 and all(not r["errors"] for r in report["reports"]), \
        [r["errors"] for r in report["reports"]]
    return report


def test_e8_omaha_serve_rotation_horse_with_real_bots(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Two real ``omaha bots`` (strength) and one watched in-process bot (random) play 22
    hands of H.O.R.S.E. (two hands a game): every game is played and stored, and the watched
    bot's frames fit the schema and never show another seat's hidden cards."""
    db, port = str(tmp_path / "horse.sqlite"), free_port()
    server = start_server(db, port)
    try:
        bots = start_bots(port, 2, 22, "strength")

        async def main() -> WatchedBot:
            watched = WatchedBot(f"ws://127.0.0.1:{port}", "watched", hands=22,
                                 rng=random.Random(1))
            await asyncio.wait_for(watched.run(), 150)
            return watched
        watched = asyncio.run(main())
        finish_bots(bots)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)
    assert not watched.report.errors and watched.report.gaps == 0, watched.report.errors
    seen = check_frames(watched.frames, watched.report.seat)
    assert {"Razz", "Seven-Card Stud", "Seven-Card Stud Hi/Lo 8-or-better"} <= seen
    assert check_stored(db) == HORSE_CODES     # every game of H.O.R.S.E. played and stored


def test_e8_a_rotation_server_killed_mid_play_resumes_on_the_same_db(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """kill -9 twice mid-play (crash rule): the restarted server resumes each table on the
    same --db, the real bots reconnect without a gap, and every hand is stored, chips kept."""
    db, port = str(tmp_path / "horse.sqlite"), free_port()
    server = start_server(db, port)
    try:
        bots = start_bots(port, 3, 24, "random")
        storage = SqliteStorage(db)
        for target in (6, 15):   # mid-play, well into the rotation (stud from hand 5)
            while len(list(storage.finished_hands())) < target:
                assert bots.poll() is None, bots.communicate()
                import time
                time.sleep(0.02)
            server.send_signal(signal.SIGKILL)
            server.wait()
            server = start_server(db, port)
        report = finish_bots(bots)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)
    assert report["reconnects"] >= 3
    assert check_stored(db) == HORSE_CODES
    out = tmp_path / "hands.phhs"   # and every hand, flop or stud, replays from its PHH
    done = subprocess.run([sys.executable, "-m", "omaha", "export", "--db", db, str(out)],
                          capture_output=True, text=True, env=ENV, check=False)
    assert done.returncode == 0, done.stderr
    replayed = subprocess.run([sys.executable, "-m", "omaha", "replay", str(out)],
                              capture_output=True, text=True, env=ENV, check=False)
    assert replayed.returncode == 0, replayed.stdout[-2000:] + replayed.stderr


def _arena(storage: SqliteStorage, sent: list[tuple[int, dict[str, object]]]) -> Arena:
    return Arena.open(storage, ArenaSettings(tables=1, seats=3, game=HORSE.to_dict()),
                      emit=lambda room, seat, message: sent.append((seat, message)),
                      now=lambda: 0)


def test_e2_e8_views_of_a_stud_hand_and_its_restart_mid_hand(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Library level: at the first stud hand each seat's view has its own down cards only,
    the spectator's none; a restart mid-hand resumes it at its last action (crash rule)."""
    db = str(tmp_path / "a.sqlite")
    sent: list[tuple[int, dict[str, object]]] = []
    arena = _arena(SqliteStorage(db), sent)
    for name in ("ann", "bob", "cy"):
        room, _, _ = arena.join(name)
    rng = random.Random(3)
    while True:
        room.start_hand()
        hand = room.hand
        if isinstance(hand, SeatedStudHand):
            break
        while not hand.is_over:
            room.act(hand.to_act, Act("check_or_call"))   # type: ignore[arg-type]
    assert hand.config.variant.name == "Razz" and room.hand_number == 5
    for seat in hand.seats:
        view = room.view(seat)
        assert view is not None
        for player in view["players"]:
            assert (player["down"] is None) == (player["seat"] != seat)
        assert (view["legal"] is not None) == (seat == hand.to_act)
    assert all(p["down"] is None for p in room.view(None)["players"])   # type: ignore[index]
    room.act(hand.to_act, Act("check_or_call"))   # the bring-in (E3)   # type: ignore[arg-type]
    legal = hand.legal_actions()
    room.act(hand.to_act, Act("bet_or_raise", to=legal.min_raise_to))   # completes
    before = (hand.events, hand.to_act, room.table.rotation_position)
    again = _arena(SqliteStorage(db), [])
    resumed = again.rooms[1]
    hand2 = resumed.hand
    assert isinstance(hand2, SeatedStudHand)
    assert (hand2.events, hand2.to_act, resumed.table.rotation_position) == before
    while not hand2.is_over:
        resumed.act(hand2.to_act, Act("check_or_call"))   # type: ignore[arg-type]
    resumed.start_hand()
    assert resumed.hand is not None and resumed.hand.config.variant.name == "Razz"
    assert sum(resumed.table.stacks.values()) == 600 and rng is not None


@pytest.mark.parametrize(("options", "words"), [
    (["--rotation", "HORSE", "--blinds", "1/2"],
     "--blinds: a stud game or a rotation is fixed limit at --stakes, --ante and --bring-in"),
    (["--rotation", "HORSE", "--structure", "pot-limit"],
     "--structure: a stud game or a rotation is fixed limit"),
    (["--rotation", "FT,stud9"], "E8: rotation: unknown variant 'stud9'"),
    (["--rotation", "HORSE", "--stakes", "2/4", "--bring-in", "3"],
     "E3: bring_in 3 is larger than the small bet 2"),
    (["--variant", "plo", "--ante", "1"], "--ante: for stud games and rotations"),
    (["--rotation", "HORSE", "--seats", "9"], "C1: one deck deals"),
])
def test_e8_serve_refuses_bad_rotation_options_in_one_line(tmp_path, capsys, options,  # type: ignore[no-untyped-def]
                                                           words) -> None:
    from omaha.cli import main

    db = tmp_path / "a.sqlite"
    assert main(["serve", "--db", str(db), "--port", "0", *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("omaha serve: error: ") and words in err and err.count("\n") == 1
    assert not db.exists()


def test_e8_serve_settings_of_a_rotation_and_of_one_stud_game() -> None:
    from omaha.cli import build_parser
    from omaha.cli.arena import _settings
    from omaha.game.stud import StudConfig
    from omaha.game.table import table_config

    args = build_parser().parse_args(["serve", "--db", "x.sqlite", "--rotation", "HORSE:3",
                                      "--stakes", "5/10", "--ante", "1"])
    config = table_config(_settings(args).game)
    assert isinstance(config, RotationConfig)
    assert (config.rotation.text, config.small_bet, config.big_bet, config.ante,
            config.bring_in) == ("FT,FO/8,FR,F7S,F7S/8:3", 5, 10, 1, 2)
    args = build_parser().parse_args(["serve", "--db", "x.sqlite", "--variant", "razz"])
    stud = table_config(_settings(args).game)
    assert stud == StudConfig(variant="FR", small_bet=2, big_bet=4, bring_in=1)


def test_a_table_snapshot_whose_stud_hand_names_other_seats_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from omaha.errors import SnapshotError
    from omaha.game.table import Table
    from omaha.history.sealing import seal

    table = Table(HORSE, seats=4, rng=random.Random(2))
    for seat in (1, 2, 3):
        table.sit(seat, stack=100)
    for _ in range(4):
        hand = table.start_hand()
        while not hand.is_over:
            hand.check_or_call()
    assert isinstance(table.start_hand(), SeatedStudHand)
    data = json.loads(json.dumps(table.snapshot()))

    def resealed(data):  # type: ignore[no-untyped-def]
        return seal({k: v for k, v in data.items() if k != "digest"}, None)

    data["hand"]["seats"] = [1, 2, 4]
    with pytest.raises(SnapshotError, match="seat 4 is in the hand in progress but not at"):
        Table.restore(resealed(data))
    data["hand"]["seats"] = [1, 2]
    with pytest.raises(SnapshotError, match="needs as many ascending seats"):
        Table.restore(resealed(data))
    data["hand"]["seats"] = [1, 2, 3]
    data["config"]["position"] = [3, 1]   # the hand is razz, not seven-card stud
    with pytest.raises(SnapshotError, match="another game than its table"):
        Table.restore(resealed(data))
