"""What one player may see of a hand: own hole cards, shown cards and the public state.

A view never holds another player's hidden cards, the burns or the deck, so a server can
send views (and :func:`visible_events`) to clients as they are.

>>> import random
>>> from omaha.config import GameConfig
>>> from omaha.game.hand import Hand
>>> hand = Hand(GameConfig.pot_limit(small_blind=1, big_blind=2),
...             stacks={1: 100, 2: 100, 3: 100}, button=1, rng=random.Random(2))
>>> v = hand.view(2)
>>> [p.cards is not None for p in v.players], v.legal is None, v.to_act
([False, True, False], True, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from omaha.cards import Card
from omaha.game.events import CardBurned, Event, HoleDealt
from omaha.game.status import PlayerState
from omahacore.actions import LegalActions
from omahacore.cards import format_cards

__all__ = ["HandLike", "HandView", "PlayerView", "event_for_seat", "hand_view", "visible_events"]


class HandLike(Protocol):
    """The public reading side of :class:`~omaha.game.hand.Hand` that a view needs (so this
    module sits below the hand and never imports it)."""

    @property
    def seats(self) -> Sequence[int]: ...
    @property
    def street(self) -> int: ...
    @property
    def board(self) -> tuple[Card, ...]: ...
    @property
    def button(self) -> int: ...
    @property
    def small_blind_seat(self) -> int: ...
    @property
    def big_blind_seat(self) -> int: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def pot_total(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def stacks(self) -> dict[int, int]: ...
    @property
    def bets(self) -> dict[int, int]: ...
    @property
    def contributions(self) -> dict[int, int]: ...
    @property
    def events(self) -> tuple[Event, ...]: ...
    @property
    def result(self) -> Any: ...
    def current_bet(self) -> int: ...
    def pots(self) -> list[tuple[int, tuple[int, ...]]]: ...
    def legal_actions(self) -> LegalActions: ...
    def state(self, seat: int) -> PlayerState: ...
    def hole_cards(self, seat: int) -> tuple[Card, ...]: ...
    def shown_hands(self) -> list[tuple[int, tuple[Card, ...]]]: ...

STREET_NAMES = ("preflop", "flop", "turn", "river", "showdown")


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat as a given viewer sees it; ``cards`` only for the viewer or a shown hand."""

    seat: int
    stack: int
    bet: int
    contributed: int
    state: PlayerState
    cards: tuple[int, ...] | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible fields (cards as text or None)."""
        return {"seat": self.seat, "stack": self.stack, "bet": self.bet,
                "contributed": self.contributed, "state": self.state,
                "cards": None if self.cards is None else format_cards(self.cards)}


@dataclass(frozen=True, slots=True)
class HandView:
    """The hand as ``seat`` sees it (``seat`` None: a spectator, who sees only shown cards).

    ``legal`` is set only when the viewer is to act; ``result`` once the hand is over
    (it contains only shown hands).
    """

    seat: int | None
    street: str
    board: tuple[int, ...]
    button: int
    small_blind_seat: int
    big_blind_seat: int
    to_act: int | None
    current_bet: int
    pot_total: int
    pots: tuple[tuple[int, tuple[int, ...]], ...]
    players: tuple[PlayerView, ...]
    legal: LegalActions | None
    is_over: bool
    result: dict[str, Any] | None

    @property
    def hole_cards(self) -> tuple[int, ...] | None:
        """The viewer's own hole cards (None for a spectator)."""
        for player in self.players:
            if player.seat == self.seat:
                return player.cards
        return None

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form, ready to send to the viewer."""
        return {
            "seat": self.seat, "street": self.street, "board": format_cards(self.board),
            "button": self.button, "small_blind_seat": self.small_blind_seat,
            "big_blind_seat": self.big_blind_seat, "to_act": self.to_act,
            "current_bet": self.current_bet, "pot_total": self.pot_total,
            "pots": [{"amount": a, "eligible": list(e)} for a, e in self.pots],
            "players": [p.to_dict() for p in self.players],
            "legal": None if self.legal is None else self.legal.to_dict(),
            "is_over": self.is_over, "result": self.result,
        }


def _visible(hand: HandLike, viewer: int | None) -> set[int]:
    """Seats whose hole cards ``viewer`` may see: their own and every shown hand."""
    seats = {seat for seat, _ in hand.shown_hands()}
    if viewer is not None:
        seats.add(viewer)
    return seats


def hand_view(hand: HandLike, seat: int | None = None) -> HandView:
    """The view of ``hand`` for ``seat`` (None for a spectator)."""
    if seat is not None:
        hand.hole_cards(seat)   # refuses a seat that is not dealt in
    visible = _visible(hand, seat)
    stacks, bets, contrib = hand.stacks, hand.bets, hand.contributions
    players = tuple(
        PlayerView(seat=s, stack=stacks[s], bet=bets[s], contributed=contrib[s],
                   state=hand.state(s), cards=hand.hole_cards(s) if s in visible else None)
        for s in hand.seats)
    result = hand.result
    to_act = hand.to_act
    return HandView(
        seat=seat, street=STREET_NAMES[hand.street], board=hand.board, button=hand.button,
        small_blind_seat=hand.small_blind_seat, big_blind_seat=hand.big_blind_seat,
        to_act=to_act, current_bet=hand.current_bet(), pot_total=hand.pot_total,
        pots=tuple(hand.pots()), players=players,
        legal=hand.legal_actions() if to_act is not None and to_act == seat else None,
        is_over=hand.is_over, result=None if result is None else result.to_dict(),
    )


def visible_events(hand: HandLike, seat: int | None = None) -> list[dict[str, Any]]:
    """The event log as ``seat`` may see it: others' hole cards and burns hidden (None)."""
    if seat is not None:
        hand.hole_cards(seat)   # refuses a seat that is not dealt in (True is not seat 1)
    return [event_for_seat(event.to_dict(), seat) for event in hand.events]


def event_for_seat(event: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """``event`` (an :meth:`~omaha.game.events.Event.to_dict` dict) as ``seat`` may see it: another
    seat's hole cards and every burn card become None; ``seat`` None is a spectator.

    The one statement of what a player may not see in the log, for views and the arena's
    streams alike.

    >>> event_for_seat({"type": "hole_dealt", "seat": 1, "cards": "AhKh2c3d"}, 2)
    {'type': 'hole_dealt', 'seat': 1, 'cards': None}
    """
    kind = event.get("type")
    if kind == HoleDealt.kind and event.get("seat") != seat:
        return {**event, "cards": None}
    if kind == "stud_dealt" and event.get("seat") != seat:   # stud's down cards (E2)
        return {**event, "down": None}
    if kind == CardBurned.kind:
        return {**event, "card": None}
    return dict(event)
