"""Bot clients for the arena (``omaha bots``; needs the ``[server]`` extra).

Each :class:`BotClient` joins a seat, answers its turns with a built-in policy
(:class:`~omaha.game.bots.RandomBot` or :class:`~omaha.game.bots.StrengthBot`) and, when the connection
drops, reconnects with its token and the last sequence number it saw, so it misses nothing. Every
answer quotes the id of the decision it answers (``decision``), so an answer repeated after
a reconnection can never act on a later decision.
With ``leave_after`` it gives up its seat once its table has dealt that many hands (playing
out a hand it is in) and reports the chips cashed out.
:func:`run_bots` runs many in one asyncio process until their tables have played the
requested number of hands.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from omaha.cards import parse_cards
from omaha.config import Variant
from omaha.game.bots import BOTS, Bot, Situation
from omahacore.actions import LegalActions

__all__ = ["BotClient", "BotError", "BotReport", "decide", "run_bots"]


class BotError(Exception):
    """The server refused a bot for good (no free seat, no such table, unknown token)."""


def decide(bot: Bot, view: dict[str, Any], variant: Variant,
           rng: random.Random) -> dict[str, Any]:
    """The ``act`` message ``bot`` sends for the view of a seat that is to act."""
    legal = LegalActions(**view["legal"])
    if legal.can_show:
        return {"type": "act", "action": "show"}
    me = next(p for p in view["players"] if p["seat"] == view["seat"])
    situation = Situation(legal=legal, hole_cards=tuple(parse_cards(me["cards"] or "")),
                          board=tuple(parse_cards(view["board"])), pot_total=view["pot_total"],
                          variant=variant)
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


class BotClient:
    """One bot: join, play, reconnect with the token after a dropped connection."""

    def __init__(self, url: str, name: str, *, policy: str = "random", hands: int = 100,
                 table: int | None = None, rng: random.Random | None = None,
                 leave_after: int | None = None) -> None:
        self.url, self.hands, self.table = url, hands, table
        self.leave_after = leave_after
        self.leave_sent = False
        self.bot = BOTS[policy]()
        self.rng = rng if rng is not None else random.Random()
        self.report = BotReport(name)
        self.token = secrets.token_urlsafe(32)   # ours: a join repeated after a crash is safe
        self.joined = False
        self.variant: Variant | None = None

    async def run(self, stop: asyncio.Event | None = None) -> BotReport:
        """Play until the table has finished ``hands`` hands, or until the bot has left
        its seat (``leave_after``), or ``stop`` is set."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake
        try:
            from websockets.asyncio.client import connect
        except ImportError:   # websockets 12
            from websockets import connect  # type: ignore[no-redef,attr-defined,unused-ignore]
        delay = 0.05
        while True:
            try:
                async with connect(self.url, max_size=2**22, compression=None) as ws:
                    delay = 0.05
                    if await self._session(ws, stop):
                        return self.report
            except (ConnectionClosed, OSError, InvalidHandshake, asyncio.TimeoutError):
                pass
            if stop is not None and stop.is_set():
                return self.report
            self.report.reconnects += 1
            await asyncio.sleep(delay)
            delay = min(2.0, delay * 2)

    async def _session(self, ws: Any, stop: asyncio.Event | None) -> bool:
        """One connection; True when done."""
        if not self.joined:
            hello: dict[str, Any] = {"type": "join", "name": self.report.name,
                                     "token": self.token}
            if self.table is not None:
                hello["table"] = self.table
        else:
            hello = {"type": "resume", "token": self.token, "last_seq": self.report.last_seq}
        await ws.send(json.dumps(hello))
        if self.leave_sent:   # the answer may be lost: ask again (a repeated leave is harmless)
            await ws.send(json.dumps({"type": "leave", "token": self.token}))
        acted = -1   # a fresh session may have to repeat an action the server never stored
        async for frame in ws:
            message = json.loads(frame)
            kind = message["type"]
            if kind == "joined":
                self.token, self.joined = message["token"], True
                self.report.table, self.report.seat = message["table"], message["seat"]
                self.report.last_seq = message["seq"]
                self.variant = Variant.from_dict(message["settings"]["game"]["variant"])
            elif kind == "resumed":
                if self.variant is None:
                    raise RuntimeError("resumed before joining")
                if message["gap"]:
                    self.report.gaps += 1
            elif kind == "left":
                self.report.cashed_out = message["amount"]
                return True
            elif kind == "leaving":
                continue   # the bot plays out its hand; ``left`` follows at its end
            elif kind == "error":
                if message["code"] == "seat_left" and self.leave_sent:
                    continue   # cashed out while away: the repeated leave brings ``left``
                self.report.errors.append(f"{message['code']}: {message['message']}")
                if message["code"] in ("table_full", "bad_token", "no_table"):
                    raise BotError(f"{self.report.name}: {message['message']}")
            elif kind == "update":
                for item in message["events"]:
                    if item["seq"] != self.report.last_seq + 1:
                        self.report.gaps += 1
                    self.report.last_seq = max(self.report.last_seq, item["seq"])
                view = message["view"]
                hand = message["hand"]
                if self.leave_after is not None and hand >= self.leave_after \
                        and not self.leave_sent:
                    self.leave_sent = True
                    await ws.send(json.dumps({"type": "leave", "token": self.token}))
                if view is not None and view["is_over"] and hand >= self.hands \
                        and not self.leave_sent:
                    self.report.hands_seen = hand
                    return True
                if stop is not None and stop.is_set():
                    return True
                if view is not None and view["legal"] is not None and not view["is_over"] \
                        and view["to_act"] == view["seat"] and acted != self.report.last_seq:
                    acted = self.report.last_seq   # one decision per state, however many views
                    assert self.variant is not None
                    act = decide(self.bot, view, self.variant, self.rng)
                    act["hand"] = hand
                    if message.get("decision") is not None:   # protocol 2: quote the id
                        act["decision"] = message["decision"]
                    self.report.actions += 1
                    await ws.send(json.dumps(act))
        return False


async def run_bots(url: str, *, count: int, hands: int, policy: str = "random",
                   seed: int | None = None, timeout: float | None = None,
                   leave_after: int | None = None) -> list[BotReport]:
    """Run ``count`` bots on ``url`` until their tables have played ``hands`` hands (or,
    with ``leave_after``, until each has cashed out after its table's hand of that number)."""
    rng = random.Random(seed) if seed is not None else random.Random()
    bots = [BotClient(url, f"bot{i + 1}", policy=policy, hands=hands,
                      rng=random.Random(rng.getrandbits(64)), leave_after=leave_after)
            for i in range(count)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(b.run(stop)) for b in bots]
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout)
    except asyncio.TimeoutError:
        stop.set()
        raise
    return [b.report for b in bots]
