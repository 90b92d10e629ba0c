"""Bot clients for the arena (``omaha bots``; needs the ``[server]`` extra).

Each :class:`BotClient` joins a seat, answers its turns with a bot (a built-in policy such
as :class:`~omaha.game.bots.RandomBot`, or any :func:`~omaha.game.userbots.load_bot` spec)
and, when the connection drops, reconnects with its token and the last sequence number it saw, so it misses nothing. Every
answer quotes the id of the decision it answers (``decision``), so an answer repeated after
a reconnection can never act on a later decision.
With ``leave_after`` it gives up its seat once its table has dealt that many hands (playing
out a hand it is in) and reports the chips cashed out.
:func:`run_bots` runs many in one asyncio process until their tables have played the
requested number of hands.

An arena of several processes (protocol 3) plays each table in one of them. A bot is given
one URL or several; it learns every process's URL from the lobby (``tables``, asked for once
per connection to a protocol 3 server, whose ``owner`` entries name the processes), follows a
``redirect`` to the process that plays its table and repeats its hello there (``join`` with
its own token, or ``resume`` with the token and the last sequence number), and when the
owner is not known (``owner`` null: the table is between processes) backs off (0.05 s,
doubling to 2 s) and asks for ``tables`` until the table has one. When its connection drops it
reconnects to the same process; when that process cannot be reached it tries the known URLs
in turn, with the same back-off, and any of them redirects it to its table's owner. Against
a single process (which never redirects) it behaves as before.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from omaha.cards import parse_cards
from omaha.config import Variant, parse_variant
from omaha.game.bots import Bot, Situation, opponents_of
from omaha.game.userbots import load_bot
from omahacore.actions import LegalActions

__all__ = ["BotClient", "BotError", "BotReport", "decide", "game_variant", "run_bots"]


class BotError(Exception):
    """The server refused a bot for good (no free seat, no such table, unknown token)."""


def game_variant(game: Any) -> Variant | None:
    """The variant a game's dict names (a flop game's or a stud game's, as ``settings`` and
    the ``hand_started``/``stud_hand_started`` events carry it); None for a rotation, whose
    hands each name their own."""
    if not isinstance(game, dict):
        return None
    variant = game.get("variant")
    if isinstance(variant, dict):
        return Variant.from_dict(variant)
    return parse_variant(variant).variant if isinstance(variant, str) else None


def decide(bot: Bot, view: dict[str, Any], variant: Variant | None,
           rng: random.Random) -> dict[str, Any]:
    """The ``act`` message ``bot`` sends for the view of a seat that is to act.

    A stud view (E2: each player's ``up`` cards, the viewer's ``down`` cards) names its own
    variant; the bot sees all its own cards as its hole cards and the shared card of a short
    deck (if dealt) as the board, so ``strength`` plays the stud strength bot's rule
    (:func:`omaha.game.studplay.strength_choice`; on third street the bring-in is ``call``,
    completing ``bet_or_raise``, E3)."""
    legal = LegalActions(**view["legal"])
    if legal.can_show:
        return {"type": "act", "action": "show"}
    me = next(p for p in view["players"] if p["seat"] == view["seat"])
    seats = [p["seat"] for p in view["players"]]
    live = {p["seat"]: (p["stack"], p["bet"]) for p in view["players"]
            if p["state"] not in ("folded", "mucked")}
    stud = "up" in me
    if stud:
        variant = parse_variant(view["variant"]).variant
        hole = tuple(parse_cards((me["down"] or "") + me["up"]))
        board = tuple(parse_cards(view["board"]))   # the shared card of a short deck, E2
    else:
        hole, board = tuple(parse_cards(me["cards"] or "")), tuple(parse_cards(view["board"]))
    if variant is None:
        raise BotError("a flop hand began before its variant was announced")
    situation = Situation(legal=legal, hole_cards=hole, board=board, pot_total=view["pot_total"],
                          variant=variant, stack=me["stack"], bet=me["bet"],
                          opponents=opponents_of(me["seat"], view["button"], seats, live))
    decision = bot.decide(situation, rng)
    if decision.kind == "raise":
        return {"type": "act", "action": "bet_or_raise", "to": decision.amount}
    return {"type": "act", "action": decision.kind}


@dataclass
class BotReport:
    """What one bot did."""

    name: str
    table: int = 0
    seat: int = 0
    actions: int = 0
    reconnects: int = 0
    errors: list[str] = field(default_factory=list)
    last_seq: int = 0
    hands_seen: int = 0
    gaps: int = 0          # stream items that did not follow the last one seen (resume bugs)
    cashed_out: int | None = None   # chips paid out when the bot left its seat
    redirects: int = 0     # ``redirect`` messages received (protocol 3: another process's table)
    hand: int = 0          # the latest hand number of its table seen (live: a progress bar's)
    place: int | None = None   # a tournament's: the place it finished in
    prize: int | None = None   # and its prize, once the tournament is over


FIRST_DELAY = 0.05
"""The first back-off (seconds) after a lost connection or an owner not known; it doubles up
to :data:`MAX_DELAY` and starts again once a hello is answered."""
MAX_DELAY = 2.0
KEEPALIVE = 5.0
"""Seconds between the bot's pings, and how long it waits for a pong or a handshake: a
process that stops answering (paused, or its machine gone) is left within two of them and
the bot goes on to the other known URLs."""

_Outcome = Literal["done", "dropped", "moved"]


def _urls(url_or_urls: str | Sequence[str]) -> list[str]:
    """One URL or several, as a list without repeats (in the order given)."""
    given = [url_or_urls] if isinstance(url_or_urls, str) else list(url_or_urls)
    urls: list[str] = []
    for url in given:
        if not isinstance(url, str) or not url:
            raise ValueError(f"a bot needs ws:// URLs, got {url!r}")
        if url not in urls:
            urls.append(url)
    if not urls:
        raise ValueError("a bot needs at least one URL")
    return urls


class BotClient:
    """One bot: join, play, reconnect with the token after a dropped connection, and follow
    its table from process to process (``redirect``, ``tables``).

    ``url_or_urls`` is the arena's URL, or the URLs of several of its processes (the first is
    tried first); :attr:`urls` grows with every process a ``tables`` or ``redirect`` names.
    ``keepalive`` (:data:`KEEPALIVE`) is how often it pings and how long it waits for an
    answer or a handshake.
    """

    def __init__(self, url_or_urls: str | Sequence[str], name: str, *, policy: str = "random",
                 hands: int = 100, table: int | None = None, rng: random.Random | None = None,
                 leave_after: int | None = None, keepalive: float = KEEPALIVE) -> None:
        self.urls = _urls(url_or_urls)
        self.keepalive = keepalive
        self.url = self.urls[0]   # the process of the current (or next) connection
        self.hands, self.table = hands, table
        self.leave_after = leave_after
        self.leave_sent = False
        self.bot = load_bot(policy)
        self.rng = rng if rng is not None else random.Random()
        self.report = BotReport(name)
        self.token = secrets.token_urlsafe(32)   # ours: a join repeated after a crash is safe
        self.joined = False
        self.variant: Variant | None = None
        self.target: str | None = self.url   # where the bot's table is played, if known
        self._turn = 0        # the next known URL to try when the target cannot be reached
        self._delay = FIRST_DELAY
        self._chain = 0       # redirects since the last answered hello
        self._looking: int | None = None   # the table whose owner ``tables`` is asked for
        self.tournament = False   # a tournament server: play until finished, tables change

    def _learn(self, url: Any) -> None:
        if isinstance(url, str) and url and url not in self.urls:
            self.urls.append(url)

    def _next_url(self) -> str:
        """The target if known, else the known URLs in turn."""
        if self.target is not None:
            return self.target
        url = self.urls[self._turn % len(self.urls)]
        self._turn += 1
        return url

    def _unreachable(self, url: str) -> None:
        """``url`` did not answer: the next try goes to the known URL after it."""
        if self.target == url:
            self.target = None
        if url in self.urls:
            self._turn = self.urls.index(url) + 1

    async def _back_off(self) -> None:
        await asyncio.sleep(self._delay)
        self._delay = min(MAX_DELAY, self._delay * 2)

    async def run(self, stop: asyncio.Event | None = None) -> BotReport:
        """Play until the table has finished ``hands`` hands, or until the bot has left
        its seat (``leave_after``), or ``stop`` is set."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake
        try:
            from websockets.asyncio.client import connect
        except ImportError:   # websockets 12
            from websockets import connect  # type: ignore[no-redef,attr-defined,unused-ignore]
        while True:
            url = self._next_url()
            self.url = url
            opened = False
            outcome: _Outcome = "dropped"
            try:
                async with connect(url, max_size=2**22, compression=None,
                                   open_timeout=self.keepalive, ping_interval=self.keepalive,
                                   ping_timeout=self.keepalive) as ws:
                    opened = True
                    outcome = await self._session(ws, stop)
            except (ConnectionClosed, OSError, InvalidHandshake, asyncio.TimeoutError):
                pass
            if outcome == "done":
                return self.report
            if stop is not None and stop.is_set():
                return self.report
            if outcome == "moved":   # to the table's owner at once (but not round and round)
                if self._chain > 1:
                    await self._back_off()
                continue
            if opened:
                if self.target is None and self._looking is None:
                    self.target = url   # a drop: the same process first
            else:
                self._unreachable(url)
            self.report.reconnects += 1
            await self._back_off()

    def _hello(self) -> dict[str, Any]:
        if not self.joined:
            hello: dict[str, Any] = {"type": "join", "name": self.report.name,
                                     "token": self.token}
            if self.table is not None:
                hello["table"] = self.table
            return hello
        return {"type": "resume", "token": self.token, "last_seq": self.report.last_seq}

    def _answered(self, url: str, protocol: Any) -> list[dict[str, Any]]:
        """A hello was answered at ``url``: it plays the table. What to send next."""
        self.target, self._looking = url, None
        self._delay, self._chain = FIRST_DELAY, 0
        if isinstance(protocol, int) and protocol >= 3:
            return [{"type": "tables"}]   # learn every process's URL, for a failover
        return []

    async def _session(self, ws: Any, stop: asyncio.Event | None) -> _Outcome:
        """One connection (to :attr:`url`): "done", "dropped" (the connection closed), or
        "moved" (the table is played at :attr:`target`: connect there)."""
        url = self.url
        await ws.send(json.dumps(self._hello()))
        acted = -1   # a fresh session may have to repeat an action the server never stored
        async for frame in ws:
            message = json.loads(frame)
            kind = message["type"]
            if kind == "joined":
                self.token, self.joined = message["token"], True
                self.tournament = "tournament" in message
                self.report.table = message["table"] or 0
                self.report.seat = message["seat"] or 0
                self.report.last_seq = message["seq"]
                self.variant = game_variant(message["settings"]["game"])
                for out in self._answered(url, message.get("protocol")):
                    await ws.send(json.dumps(out))
            elif kind == "resumed":
                if not self.joined:
                    raise RuntimeError("resumed before joining")
                if message["gap"]:
                    self.report.gaps += 1
                for out in self._answered(url, message.get("protocol")):
                    await ws.send(json.dumps(out))
                if self.leave_sent:   # the answer may be lost: ask again (harmless if repeated)
                    await ws.send(json.dumps({"type": "leave", "token": self.token}))
            elif kind == "redirect":   # nothing was changed: say hello where the table is
                self.report.redirects += 1
                self._chain += 1
                self._learn(message.get("owner"))
                if message.get("owner"):
                    self.target, self._looking = message["owner"], None
                    return "moved"
                self.target, self._looking = None, message["table"]
                if await self._ask_tables(ws, stop):
                    return "done"
            elif kind == "tables":
                entries = message.get("tables") or []
                for entry in entries:
                    self._learn(entry.get("owner"))
                if self._looking is not None:
                    owner = next((e.get("owner") for e in entries
                                  if e.get("table") == self._looking), None)
                    if owner:   # fresh news: go at once
                        self.target, self._looking, self._chain = owner, None, 0
                        return "moved"
                    if await self._ask_tables(ws, stop):
                        return "done"
            elif kind == "left":
                self.report.cashed_out = message["amount"]
                return "done"
            elif kind == "leaving":
                continue   # the bot plays out its hand; ``left`` follows at its end
            elif kind == "finished":   # a tournament: eliminated, or over
                if message.get("player") == self.report.name:
                    self.report.place, self.report.prize = message["place"], message["prize"]
                    if message["over"] or message["place"] > 1:
                        return "done"
            elif kind == "error":
                if message["code"] == "seat_left" and self.leave_sent:
                    # cashed out while away: the repeated leave brings ``left``
                    await ws.send(json.dumps({"type": "leave", "token": self.token}))
                    continue
                self.report.errors.append(f"{message['code']}: {message['message']}")
                if message["code"] in ("table_full", "bad_token", "no_table"):
                    raise BotError(f"{self.report.name}: {message['message']}")
            elif kind == "update":
                for item in message["events"]:
                    if item["seq"] != self.report.last_seq + 1 and not self.tournament:
                        self.report.gaps += 1   # (a tournament numbers events by hand)
                    self.report.last_seq = max(self.report.last_seq, item["seq"])
                    event = item.get("event")
                    if isinstance(event, dict) and event.get("type") in ("hand_started",
                                                                         "stud_hand_started"):
                        self.variant = game_variant(event.get("config"))   # rotations
                view = message["view"]
                hand = message["hand"]
                if self.tournament:   # the table changes as tables break and balance
                    self.report.table = message["table"] or self.report.table
                    if view is not None and view.get("seat"):
                        self.report.seat = view["seat"]
                self.report.hand = max(self.report.hand, hand)
                if self.leave_after is not None and hand >= self.leave_after \
                        and not self.leave_sent:
                    self.leave_sent = True
                    await ws.send(json.dumps({"type": "leave", "token": self.token}))
                if view is not None and view["is_over"] and hand >= self.hands \
                        and not self.leave_sent and not self.tournament:
                    self.report.hands_seen = hand
                    return "done"
                if stop is not None and stop.is_set():
                    return "done"
                if view is not None and view["legal"] is not None and not view["is_over"] \
                        and view["to_act"] == view["seat"] and acted != self.report.last_seq:
                    acted = self.report.last_seq   # one decision per state, however many views
                    act = decide(self.bot, view, self.variant, self.rng)
                    act["hand"] = hand
                    if message.get("decision") is not None:   # protocol 2: quote the id
                        act["decision"] = message["decision"]
                    self.report.actions += 1
                    await ws.send(json.dumps(act))
        return "dropped"

    async def _ask_tables(self, ws: Any, stop: asyncio.Event | None) -> bool:
        """The table's owner is not known: back off, then ask this process for ``tables``
        (its answer says whether the table has an owner yet). True when ``stop`` is set."""
        await self._back_off()
        if stop is not None and stop.is_set():
            return True
        await ws.send(json.dumps({"type": "tables"}))
        return False


async def run_bots(url_or_urls: str | Sequence[str], *, count: int, hands: int,
                   policy: str = "random", seed: int | None = None,
                   timeout: float | None = None,
                   leave_after: int | None = None,
                   on_start: Callable[[list[BotReport]], object] | None = None,
                   ) -> list[BotReport]:
    """Run ``count`` bots on the arena at ``url_or_urls`` (one URL, or several processes of
    one arena: bot ``i`` tries the ``i``-th first) until their tables have played ``hands``
    hands (or, with ``leave_after``, until each has cashed out after its table's hand of
    that number). ``on_start(reports)`` is given the bots' reports as they start; they are
    updated live (e.g. :attr:`BotReport.hand`) until the bots finish."""
    urls = _urls(url_or_urls)
    rng = random.Random(seed) if seed is not None else random.Random()
    bots = [BotClient(urls[i % len(urls):] + urls[:i % len(urls)], f"bot{i + 1}",
                      policy=policy, hands=hands, rng=random.Random(rng.getrandbits(64)),
                      leave_after=leave_after)
            for i in range(count)]
    if on_start is not None:
        on_start([b.report for b in bots])
    stop = asyncio.Event()
    tasks = [asyncio.create_task(b.run(stop)) for b in bots]
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout)
    except asyncio.TimeoutError:
        stop.set()
        raise
    return [b.report for b in bots]
