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

import os
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from omaha.errors import ConfigError, TableError
from omaha.game.deck import shuffled_cards
from omaha.game.events import Event
from omaha.game.studconfig import STUD_CODES, StudConfig, game_code
from omaha.game.studevents import StudStarted
from omaha.game.studrecord import restore_stud, stud_body, stud_events
from omaha.history.sealing import Key
from omaha.limits import as_int, safe_repr
from omahacore.cards import format_card
from omahacore.engine import shuffle_with
from omahacore.stud import MAX_STUD_PLAYERS, StudCore

__all__ = ["STUD_CODES", "StudConfig", "StudHand", "game_code"]   # the config re-exported


def _deck(rng: random.Random | None, deck: Iterable[int] | None) -> bytes:
    """52 shuffled cards (C2): the compiled shuffle from OS bytes, or the seeded generator's;
    or ``deck``, given whole (replay), checked card by card."""
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
        while (drawn := shuffle_with(os.urandom(160), 52)) is None:
            pass
        return drawn
    return bytes(shuffled_cards(52, rng))


class StudHand(StudCore):
    """One stud hand: the antes and the third-street deal happen on creation (E2, E3).

    ``stacks`` are the players' chips in seat order (2 to 8, E1); ``dealer`` the dealer
    position (default the last player, so the deal starts with player 0); ``rng`` a seeded
    :class:`random.Random` for a repeatable deal, else the OS generator (C2); or ``deck``, the
    52 cards in the order they come off (a replay). The state and the actions
    (``legal_actions``, ``fold``, ``check_or_call``, ``post_bring_in``, ``bet_or_raise``, ...)
    are :class:`~omahacore.stud.StudCore`'s, compiled. :attr:`events`, :meth:`snapshot` and
    :meth:`restore` are the flop :class:`~omaha.game.hand.Hand`'s, for stud
    (:mod:`omaha.game.studrecord`).

    >>> import json
    >>> hand = StudHand(StudConfig(variant="F7S", ante=1, bring_in=2, small_bet=4),
    ...                 [100, 100, 100], rng=random.Random(7))
    >>> hand.post_bring_in(); hand.bet_or_raise(4)
    >>> [type(ev).__name__ for ev in hand.events][:6]
    ['StudStarted', 'Posted', 'Posted', 'Posted', 'StudDealt', 'StudDealt']
    >>> copy = StudHand.restore(json.loads(json.dumps(hand.snapshot())))
    >>> copy.events == hand.events, copy.to_act == hand.to_act
    (True, True)
    """

    config: StudConfig
    _start: StudStarted
    _dealt: bytes

    def __init__(self, config: StudConfig, stacks: Sequence[int], *, dealer: int | None = None,
                 rng: random.Random | None = None, deck: Iterable[int] | None = None) -> None:
        if not isinstance(config, StudConfig):
            raise ConfigError("E1", f"config must be a StudConfig, got {safe_repr(config)}")
        if not 2 <= len(stacks) <= MAX_STUD_PLAYERS:
            raise TableError("E1", f"stud is for 2 to {MAX_STUD_PLAYERS} players, got "
                             f"{len(stacks)}")
        self.config = config
        dealt = _deck(rng, deck)
        super().__init__(game_code(config.variant), stacks, dealt, ante=config.ante,
                         bring_in=config.bring_in, small_bet=config.small_bet,
                         big_bet=config.big_bet, dealer=dealer, max_raises=config.max_raises)
        self._dealt = dealt
        self._start = StudStarted(config, tuple([int(s) for s in stacks]), self.dealer)

    @property
    def start(self) -> StudStarted:
        """How the hand began: its :class:`~omaha.game.studevents.StudStarted` event."""
        return self._start

    @property
    def deck(self) -> bytes:
        """The 52 cards in the order they come off (future cards included: server side)."""
        return self._dealt

    @property
    def events(self) -> tuple[Event, ...]:
        """The event log so far (the omniscient record: every down card included), see
        :mod:`omaha.game.studevents`."""
        return stud_events(self)

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
