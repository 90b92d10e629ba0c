"""Stud games (E1-E7): the configuration and one hand, over the compiled stud engine.

:class:`StudConfig` is a fixed-limit stud game: the variant (seven-card stud ``F7S``, stud
hi/lo ``F7S/8``, razz ``FR``, five-card stud ``F5S``; any name of
:data:`~omaha.config.VARIANT_NAMES`), the ante, the bring-in and the small and big bets.
:class:`StudHand` deals one hand from a shuffled deck (the OS generator, or a seeded
:class:`random.Random`) and plays it through :class:`omahacore.stud.StudCore`, whose betting
rules are the flop games' own transitions.

>>> import random
>>> config = StudConfig(variant="razz", ante=1, bring_in=2, small_bet=10)
>>> hand = StudHand(config, [500] * 4, rng=random.Random(26))
>>> hand.to_act == hand.bring_in_seat, config.big_bet
(True, 20)
>>> view = hand.view(0)          # player 0 sees their own down cards, only up cards of others
>>> len(view["players"][0]["down"]), view["players"][1]["down"]
(2, None)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from omaha.config import STUD_VARIANTS
from omaha.errors import ConfigError, TableError
from omaha.game.deck import shuffled_cards
from omaha.game.events import Event
from omaha.game.studconfig import STUD_CODES, StudConfig, game_code
from omaha.game.studevents import StudStarted
from omaha.game.studrecord import StudRecorder, restore_stud, stud_body
from omaha.game.view import event_for_seat
from omaha.history.sealing import Key
from omaha.limits import as_int, safe_repr
from omahacore.cards import format_card
from omahacore.stud import MAX_STUD_PLAYERS, StudCore

__all__ = ["STUD_CODES", "StudConfig", "StudHand", "game_code"]   # the config re-exported


def _deck(rng: random.Random | None, deck: Iterable[int] | None) -> bytes | None:
    """52 shuffled cards (C2): None for the compiled shuffle from OS bytes (the engine shuffles
    into the hand itself), or the seeded generator's; or ``deck``, given whole (replay),
    checked card by card."""
    if deck is not None:
        if isinstance(deck, str) or not isinstance(deck, Iterable):
            raise TableError("C1", f"deck must be a sequence of 52 card numbers, got "
                             f"{safe_repr(deck)}")
        cards = [as_int(card, "deck", error=TableError, rule="C1") for card in deck]
        if sorted(cards) != list(range(52)):
            raise TableError("C1", "deck must hold each of the 52 cards 0..51 once, got "
                             f"{len(cards)} cards ({len(set(cards))} distinct)")
        return bytes(cards)
    if rng is None:
        return None
    return bytes(shuffled_cards(52, rng))


_GAMES = {variant.name: game_code(variant) for variant in STUD_VARIANTS}
"""The engine's game number of each stud variant, by name (a hand's creation looks it up)."""


class StudHand(StudCore):
    """One stud hand: the antes and the third-street deal happen on creation (E2, E3).

    ``stacks`` are the players' chips in seat order (2 to 8, E1); ``dealer`` the dealer
    position (default the last player, so the deal starts with player 0); ``rng`` a seeded
    :class:`random.Random` for a repeatable deal, else the OS generator (C2); or ``deck``, the
    52 cards in the order they come off (a replay). The state and the actions
    (``legal_actions``, ``fold``, ``check_or_call``, ``post_bring_in``, ``bet_or_raise``, ...)
    are :class:`~omahacore.stud.StudCore`'s, compiled; each action returns the next
    ``legal_actions()`` (None once the hand is over). :attr:`events`, :meth:`snapshot` and
    :meth:`restore` are the flop :class:`~omaha.game.hand.Hand`'s, for stud
    (:mod:`omaha.game.studrecord`).

    >>> import json
    >>> hand = StudHand(StudConfig(variant="F7S", ante=1, bring_in=2, small_bet=4),
    ...                 [100, 100, 100], rng=random.Random(7))
    >>> legal = hand.post_bring_in()   # every action answers what the next player may do
    >>> legal.call_amount, legal.min_raise_to
    (2, 4)
    >>> hand.bet_or_raise(4).call_amount
    4
    >>> [type(ev).__name__ for ev in hand.events][:6]
    ['StudStarted', 'Posted', 'Posted', 'Posted', 'StudDealt', 'StudDealt']
    >>> copy = StudHand.restore(json.loads(json.dumps(hand.snapshot())))
    >>> copy.events == hand.events, copy.to_act == hand.to_act
    (True, True)
    """

    __slots__ = ("_recorder", "_stacks", "_start", "config")   # no __dict__: cheap
    config: StudConfig

    def __init__(self, config: StudConfig, stacks: Sequence[int], *, dealer: int | None = None,
                 rng: random.Random | None = None, deck: Iterable[int] | None = None) -> None:
        if not isinstance(config, StudConfig):
            raise ConfigError("E1", f"config must be a StudConfig, got {safe_repr(config)}")
        if not 2 <= len(stacks) <= MAX_STUD_PLAYERS:
            raise TableError("E1", f"stud is for 2 to {MAX_STUD_PLAYERS} players, got "
                             f"{len(stacks)}")
        self.config = config
        stacks = tuple(stacks)   # kept as given: the start is built when first asked
        StudCore.__init__(self, _GAMES[config.variant.name], stacks,
                          None if rng is None and deck is None else _deck(rng, deck),
                          config.ante, config.bring_in, config.small_bet, config.big_bet, dealer,
                          config.max_raises)   # positional: no keyword dict to build
        self._stacks = stacks
        self._start: StudStarted | None = None
        self._recorder: StudRecorder | None = None   # built when the events are first asked

    @property
    def start(self) -> StudStarted:
        """How the hand began: its :class:`~omaha.game.studevents.StudStarted` event."""
        start = self._start
        if start is None:   # the stacks passed the engine's checks: exact ints
            stacks = tuple([int(s) for s in self._stacks])
            start = self._start = StudStarted(self.config, stacks, self.dealer)
        return start

    @property
    def events(self) -> tuple[Event, ...]:
        """The event log so far (the omniscient record: every down card included), see
        :mod:`omaha.game.studevents`."""
        recorder = self._recorder
        if recorder is None:
            recorder = self._recorder = StudRecorder(self.start, self.deck)
        return recorder.events(self)

    def visible_events(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The event log as ``seat`` may see it (None: a spectator): others' down cards hidden
        (None), by :func:`omaha.game.view.event_for_seat`, the one statement of it (E2)."""
        if seat is not None:
            number = as_int(seat, "seat", error=TableError, rule="E1")
            if not 0 <= number < self.players:
                raise TableError("E1", f"seat {safe_repr(seat)} is not a player of this hand "
                                 f"(0..{self.players - 1})")
        return [event_for_seat(event.to_dict(), seat) for event in self.events]

    def snapshot(self, *, key: Key = None) -> dict[str, Any]:
        """JSON-compatible data from which :meth:`restore` rebuilds this hand exactly: the
        deck (future cards included, so it stays on the server) and the events, with a
        digest, or with ``key`` an HMAC-SHA256 signature (:mod:`omaha.history.sealing`)."""
        return stud_body(self, key=key)

    @classmethod
    def restore(cls, data: Mapping[str, Any], *, key: Key = None) -> StudHand:
        """The hand a :meth:`snapshot` describes, ready to continue (``key`` as at the
        snapshot); anything else is refused with :class:`~omaha.errors.SnapshotError`."""
        return restore_stud(cls._from_start, data, key=key)

    @classmethod
    def _from_start(cls, start: StudStarted, deck: bytes) -> StudHand:
        return cls(start.config, start.stacks, dealer=start.dealer, deck=deck)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and copied) as its :meth:`snapshot`; unpickling is :meth:`restore`, which
        checks the data and replays the actions, as for the flop ``Hand``."""
        return (_unpickled, (type(self), self.snapshot()))

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` sees (None: a spectator): every player's up cards, and down cards
        only their own (E2). Cards as text; ``down`` is None where hidden."""
        core = self
        players = []
        for i in range(core.players):
            mine = player == i
            players.append({
                "up": [format_card(c) for c in core.up_cards(i)],
                "down": [format_card(c) for c in core.down_cards(i)] if mine else None,
                "stack": core.stacks[i], "bet": core.bets[i], "folded": core.folded[i],
            })
        community = core.community
        return {"variant": self.config.variant.name, "street": core.street,
                "to_act": core.to_act, "pot": core.pot, "players": players,
                "community": None if community is None else format_card(community)}


def _unpickled(cls: type[StudHand], data: dict[str, Any]) -> StudHand:
    return cls.restore(data)
