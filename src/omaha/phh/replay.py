"""Replaying a history through the engine, with the legality checks of live play.

:func:`replay_history` builds the engine's :class:`~omaha.game.hand.Hand` from the history's
fields (:func:`config_for_history`), deals it the history's cards, and applies every action
in order. The engine decides whose turn it is and what each player may do (B1-B8): an action
the engine refuses, an action out of turn, a board dealt too early or missing, or cards
that contradict each other stop the replay with a :class:`~omaha.errors.HistoryError` naming
the action's index and text.

>>> from omaha.phh import loads
>>> hh = loads('variant = "PO"\\nantes = [0, 0, 0]\\nblinds_or_straddles = [1, 2, 0]\\n'
...            'min_bet = 2\\nstarting_stacks = [100, 100, 100]\\n'
...            'actions = ["p3 cbr 7", "p1 f", "p2 f"]\\n')
>>> result = replay_history(hh)
>>> result.finishing_stacks, result.complete
((99, 98, 103), True)
>>> replay_history(loads('variant = "PO"\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\n'
...     'min_bet = 2\\nstarting_stacks = [100, 100]\\nactions = ["p1 cc"]\\n'))
Traceback (most recent call last):
  ...
omaha.errors.HistoryError: actions[0] 'p1 cc': it is p2's turn, not p1's (B1)

**The game** (:func:`config_for_history`; :func:`~omaha.phh.export.forced_bet_fields` writes
it back). PHH writes forced bets as per-player arrays in blind order (index 0 the small
blind, index 1 the big blind; heads-up the arrays are reversed onto the players, see
:meth:`~omaha.phh.HandHistory.posted_blinds`). The engine has a uniform ante, a big-blind
ante, the two blinds and live big blinds of new players (T3, T5), so these are the arrays it
replays:

* ``antes``: all equal (``[a, a, a]``), with possibly more at index 1 — the big-blind ante
  (``[0, 3, 0]`` is a big-blind ante of 3; ``[1, 4, 1]`` an ante of 1 and a big-blind ante
  of 3). A button ante and other patterns are refused.
* ``blinds_or_straddles``: ``[sb, bb, 0, ...]`` with ``sb`` at least 1; or, in any
  structure, a single blind ``[b, 0, 0, ...]`` as some tournament files record it: the lone
  blind is the big blind (``GameConfig(small_blind=0, big_blind=b)``), posted by p1
  (heads-up by the button, the arrays being reversed) and the action starts after it; its
  big-blind ante is then at index 0 of ``antes``. A non-zero entry further on is accepted
  only as a T5 live big blind, listed in the user field ``_live_blinds`` (player numbers);
  the engine has no straddles.
* ``min_bet`` must equal the big blind (the engine's minimum bet, B4).

Extension user fields for engine options the standard cannot express: ``_max_raises`` (the
fixed-limit cap, B3; 0 for none) and ``_uncapped_heads_up`` (lift it on heads-up rounds).

**Cards.** Hole and board cards come from the ``d dh``/``d db`` actions, and unknown hole
cards (``??``) from what the player shows (``sm``). Cards the history never reveals are drawn
from the rest of the deck (seeded, so a replay is deterministic); they are allowed only where
they cannot matter: a hand that reaches a showdown needs the whole board and the hole cards
of every player still in.

**Showdown.** The engine shows and mucks by rule S1 itself, so ``sm`` actions are checked
(the player is still in, the cards are theirs) but do not steer it.

Other extensions read here: a no-op whose commentary is exactly ``pN protected all-in (D2)``
replays the D2 timeout of a player with chips in (they keep the rest of their stack), and
the user field ``_rake`` (total chips raked, rule K1) is taken again.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from omaha.config import GameConfig
from omaha.errors import HistoryError, OmahaError, UnevaluableHandError
from omaha.game.dealing import board_positions, cards_needed, dealing_place, hole_position
from omaha.game.deck import shuffled_cards
from omaha.game.hand import Hand, RakeRule
from omaha.limits import MAX_CHIPS
from omaha.phh.amounts import in_units
from omaha.phh.history import HandHistory, check_boolean, check_integer
from omaha.phh.notation import (
    Action,
    BetOrRaiseTo,
    CheckOrCall,
    DealBoard,
    DealHole,
    Fold,
    NoOp,
    PhhCard,
    ShowOrMuck,
    blind_players,
    format_phh_cards,
    table_seats,
)
from omaha.phh.variants import engine_variant

__all__ = [
    "PROTECTED_ALL_IN",
    "RecordedRake",
    "ReplayResult",
    "config_for_history",
    "replay_history",
]

PROTECTED_ALL_IN = re.compile(r"p([1-9][0-9]*) protected all-in \(D2\)")
"""The commentary of the no-op that records a D2 protected all-in."""

_STREETS = ("flop", "turn", "river")


def _next_street(board_cards: int) -> str:
    """The street dealt next onto a board of 0, 3 or 4 cards."""
    return _STREETS[0 if board_cards == 0 else board_cards - 2]


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of a replay.

    Attributes:
        history: the history replayed.
        hand: the engine's hand after the last action (its ``events`` are the full log).
        finishing_stacks: each player's chips after the replay, in PHH order.
        complete: True when the hand is over (awarded), False for a partial history.
    """

    history: HandHistory
    hand: Hand
    finishing_stacks: tuple[int, ...]
    complete: bool

    @property
    def matches(self) -> bool:
        """False only when the history records ``finishing_stacks`` that differ (the deep
        players' ``inf`` stacks match themselves)."""
        expected = self.history.finishing_stacks
        deep = self.history.deep_players
        return expected is None or all(
            i in deep or want == got
            for i, (want, got) in enumerate(zip(expected, self.finishing_stacks)))

    def stacks_in_units(self) -> list[int | Decimal | float]:
        """The finishing stacks in the file's own units (``inf`` for the deep players).

        >>> from omaha.phh import loads
        >>> hh = loads('variant = "NT"\\nantes = [0, 0]\\nblinds_or_straddles = [0.5, 1]\\n'
        ...            'min_bet = 1\\nstarting_stacks = [20, 30.25]\\nactions = ["p2 f"]\\n')
        >>> replay_history(hh).stacks_in_units()
        [Decimal('20.5'), Decimal('29.75')]
        """
        deep, decimals = self.history.deep_players, self.history.decimals
        return [math.inf if i in deep else in_units(chips, decimals)
                for i, chips in enumerate(self.finishing_stacks)]


@dataclass(frozen=True)
class RecordedRake:
    """A rake rule that takes a recorded amount (replaying the ``_rake`` field, rule K1)."""

    amount: int

    def rake_for(self, pot_total: int, players_dealt: int, saw_flop: bool) -> int:
        """The recorded rake, whatever the pot."""
        return self.amount


def replay_history(
    history: HandHistory, *, rake: RakeRule | None = None, rng: random.Random | None = None
) -> ReplayResult:
    """Replay ``history`` through the engine.

    Args:
        history: the hand.
        rake: the rake rule (K1); default none, or the history's ``_rake`` field.
        rng: draws the cards the history leaves unknown; default ``random.Random(0)``.

    Raises:
        HistoryError: the history cannot be played as written (names the action at fault).
    """
    config, live = config_for_history(history)
    seats, button = table_seats(history.metadata.get("seats"), history.players)
    plan = _CardPlan(history)
    deck = plan.deck(rng if rng is not None else random.Random(0))
    recorded = history.user_fields.get("_rake")
    if recorded is not None:
        chips = check_integer("_rake", recorded, 0, MAX_CHIPS, "a whole number of chips")
        rake = RecordedRake(chips)
    try:
        hand = Hand(
            config,
            stacks=dict(zip(seats, history.starting_stacks)),
            button=button,
            live_blinds=[seats[p] for p in live],
            deck=deck,
            rake=rake,
        )
    except OmahaError as exc:
        raise HistoryError(f"the engine cannot deal this hand: {exc}") from None
    _Replayer(history, hand, seats).run()
    plan.check_showdown(hand, seats)
    stacks = hand.stacks
    return ReplayResult(history, hand, tuple(stacks[s] for s in seats), hand.is_over)


# --- the game --------------------------------------------------------------------------


def config_for_history(history: HandHistory) -> tuple[GameConfig, tuple[int, ...]]:
    """The engine game of a history and the players (0-based, PHH order) posting live blinds.

    Raises:
        HistoryError: the forced bets or options are ones the engine does not play.
    """
    game = history.game
    blinds = history.blinds_or_straddles
    small_blind, big_blind = blinds[0], blinds[1]
    if small_blind >= 1 and big_blind == 0:
        small_blind, big_blind = 0, blinds[0]   # a lone blind is the big blind (T3)
    elif small_blind < 1 or big_blind < small_blind:
        raise HistoryError(
            f"the engine needs a small blind of at least 1 and a big blind at least as large, "
            f"got {list(blinds[:2])}",
            field="blinds_or_straddles",
        )
    live = _live_blinds(history, big_blind)
    ante, big_blind_ante = _antes(history.antes, 1 if small_blind else 0)
    options: dict[str, Any] = {
        "variant": engine_variant(game),
        "structure": game.engine_structure,
        "small_blind": small_blind,
        "big_blind": big_blind,
        "ante": ante,
        "big_blind_ante": big_blind_ante,
    }
    if game.fixed_limit:
        options.update(small_bet=history.small_bet, big_bet=history.big_bet)
    elif history.min_bet != big_blind:
        raise HistoryError(
            f"min_bet {history.min_bet} differs from the big blind {big_blind}; the engine's "
            "minimum bet is the big blind (rule B4)",
            field="min_bet",
        )
    options.update(_cap_options(history.user_fields))
    try:
        return GameConfig(**options), live
    except OmahaError as exc:
        raise HistoryError(f"the engine refuses this game: {exc}") from None


def _live_blinds(history: HandHistory, big_blind: int) -> tuple[int, ...]:
    listed = history.user_fields.get("_live_blinds", [])
    if not isinstance(listed, list) or not all(type(p) is int for p in listed):
        raise HistoryError("expected a list of player numbers", field="_live_blinds")
    live = []
    for index, amount in enumerate(history.blinds_or_straddles[2:], start=2):
        if amount == 0:
            continue
        if index + 1 not in listed or amount != big_blind:
            raise HistoryError(
                f"p{index + 1} posts {amount}: straddles are not played by the engine (a live "
                f"big blind of {big_blind} is, when _live_blinds lists the player)",
                field="blinds_or_straddles",
            )
        live.append(index)
    if sorted(p - 1 for p in listed) != live:
        raise HistoryError(
            "must list exactly the players with a live blind in blinds_or_straddles",
            field="_live_blinds",
        )
    return tuple(live)


def _antes(antes: Sequence[int], big: int) -> tuple[int, int]:
    """``(ante, big_blind_ante)`` of an antes array whose big blind is at index ``big``
    (1, or 0 with a single blind), or HistoryError."""
    others = [a for i, a in enumerate(antes) if i != big]
    ante = others[0]
    if any(a != ante for a in others) or antes[big] < ante:
        raise HistoryError(
            f"{list(antes)}: the engine plays equal antes and a big-blind ante (index {big}) "
            "only",
            field="antes",
        )
    return ante, antes[big] - ante


def _cap_options(user_fields: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's fixed-limit cap options from their extension user fields."""
    options: dict[str, Any] = {}
    if "_max_raises" in user_fields:
        cap = check_integer("_max_raises", user_fields["_max_raises"], 0, MAX_CHIPS,
                            "a whole number of raises (0: no cap)")
        options["max_raises"] = cap or None
    if "_uncapped_heads_up" in user_fields:
        options["uncapped_heads_up"] = check_boolean(
            "_uncapped_heads_up", user_fields["_uncapped_heads_up"]
        )
    return options


# --- the cards and the actions ---------------------------------------------------------


class _CardPlan:
    """Every card the history shows, checked for contradictions, placed in the dealt order."""

    def __init__(self, history: HandHistory) -> None:
        self.players = history.players
        self.hole_count = history.game.hole_cards
        self.holes: list[list[PhhCard]] = [[] for _ in range(self.players)]
        self.board: list[PhhCard] = []
        self._seen: set[int] = set()
        for index, action in enumerate(history.parsed_actions):
            try:
                self._read(action)
            except _Refused as exc:
                raise HistoryError(str(exc), index=index, action=history.actions[index]) from None

    def _read(self, action: Action) -> None:
        if isinstance(action, DealHole):
            hole = self.holes[action.player]
            if len(hole) + len(action.cards) > self.hole_count:
                raise _Refused(
                    f"p{action.player + 1} would hold {len(hole) + len(action.cards)} hole "
                    f"cards; this game deals {self.hole_count}"
                )
            self._claim(action.cards)
            hole.extend(action.cards)
        elif isinstance(action, DealBoard):
            if len(self.board) >= 5:
                raise _Refused("the board already has 5 cards")
            due = 3 if not self.board else 1
            if len(action.cards) != due:
                raise _Refused(
                    f"the {_next_street(len(self.board))} is {due} card{'s' if due > 1 else ''}, "
                    f"got {len(action.cards)}"
                )
            self._claim(action.cards)
            self.board.extend(action.cards)
        elif isinstance(action, ShowOrMuck) and action.cards is not None:
            self._merge_shown(action.player, action.cards)

    def _claim(self, cards: Sequence[PhhCard]) -> None:
        known = [card for card in cards if card is not None]
        for card in known:
            if card in self._seen or known.count(card) > 1:
                raise _Refused(f"{format_phh_cards([card])} is dealt twice (C1)")
        self._seen.update(known)

    def _merge_shown(self, player: int, cards: Sequence[PhhCard]) -> None:
        hole = self.holes[player]
        if len(cards) > self.hole_count:
            raise _Refused(
                f"p{player + 1} shows {len(cards)} cards; this game deals {self.hole_count}"
            )
        hole.extend([None] * (self.hole_count - len(hole)))
        for card in cards:
            if card is None or card in hole:
                continue
            if None not in hole:
                raise _Refused(
                    f"p{player + 1} shows {format_phh_cards([card])}, which is not among the "
                    "cards dealt to them"
                )
            self._claim([card])
            hole[hole.index(None)] = card

    def deck(self, rng: random.Random) -> list[int]:
        """The engine's dealt sequence (T6 layout) with the known cards in place."""
        n, h = self.players, self.hole_count
        small_blind = blind_players(n)[0]
        fixed: dict[int, int] = {}
        for player, hole in enumerate(self.holes):
            for round_, card in enumerate(hole):
                if card is not None:
                    position = hole_position(
                        round_=round_, player=dealing_place(player, small_blind, n), players=n
                    )
                    fixed[position] = card
        for position, card in zip(board_positions(players=n, hole_cards=h), self.board):
            if card is not None:
                fixed[position] = card
        count = cards_needed(n, h)
        if count > 52:
            raise HistoryError(f"{n} players with {h} hole cards need {count} cards; a deck has 52")
        used = set(fixed.values())
        rest = iter(
            shuffled_cards(count - len(fixed), rng, [c for c in range(52) if c not in used])
        )
        return [fixed[i] if i in fixed else next(rest) for i in range(count)]

    def check_showdown(self, hand: Hand, seats: Sequence[int]) -> None:
        """Refuse a showdown decided by cards the history does not give."""
        if not hand.is_over:
            return
        live = [p for p, seat in enumerate(seats) if hand.state(seat) != "folded"]
        if len(live) < 2:
            return
        known = sum(card is not None for card in self.board)
        if known < 5:
            raise UnevaluableHandError(
                f"the hand goes to showdown, but the history gives only {known} of the 5 board "
                "cards that decide it",
                field="actions",
            )
        unknown = [f"p{p + 1}" for p in live
                   if len(self.holes[p]) < self.hole_count or None in self.holes[p]]
        if unknown:
            whose = ", ".join(unknown)
            raise UnevaluableHandError(
                f"the showdown needs the hole cards of {whose}, which the history does not give "
                f"(????); the pot{'s' * (len(live) > 2)} they contest cannot be awarded",
                field="actions",
            )


class _Replayer:
    """Applies the actions to the hand, checking turn order and dealing as it goes."""

    def __init__(self, history: HandHistory, hand: Hand, seats: Sequence[int]) -> None:
        self.history = history
        self.hand = hand
        self.seats = list(seats)
        self.board_seen = 0
        self.betting_started = False

    def run(self) -> None:
        for index, action in enumerate(self.history.parsed_actions):
            text = self.history.actions[index]
            try:
                self._apply(action)
            except (_Refused, OmahaError) as exc:
                raise HistoryError(str(exc), index=index, action=text) from None

    def _player(self, seat: int | None) -> str:
        return "nobody" if seat is None else f"p{self.seats.index(seat) + 1}"

    def _apply(self, action: Action) -> None:
        hand = self.hand
        if isinstance(action, NoOp):
            match = PROTECTED_ALL_IN.fullmatch(action.commentary or "")
            if match:
                player = int(match.group(1)) - 1
                if player >= len(self.seats):
                    raise _Refused(f"no player p{player + 1}")
                self._turn(player)
                hand.protect_all_in(seat=self.seats[player])
        elif isinstance(action, DealHole):
            if self.betting_started:
                raise _Refused("hole cards are dealt before the betting starts (T6)")
        elif isinstance(action, DealBoard):
            self._deal(len(action.cards))
        elif isinstance(action, ShowOrMuck):
            seat = self.seats[action.player]
            if hand.state(seat) == "folded":
                raise _Refused(f"p{action.player + 1} folded; only players still in show or muck")
            if not hand.is_over:
                raise _Refused(f"no showdown yet: {self._player(hand.to_act)} is to act")
        else:
            self._turn(action.player)
            seat = self.seats[action.player]
            if isinstance(action, Fold):
                hand.fold(seat=seat)
            elif isinstance(action, CheckOrCall):
                hand.check_or_call(seat=seat)
            elif isinstance(action, BetOrRaiseTo):
                hand.bet_or_raise(action.amount, seat=seat)

    def _turn(self, player: int) -> None:
        """Check that ``player`` may act now: the hand is on, the board announced, their turn."""
        hand = self.hand
        self.betting_started = True
        if hand.is_over:
            raise _Refused("the hand is over")
        if len(hand.board) > self.board_seen:
            street = _next_street(self.board_seen)
            raise _Refused(f"the {street} must be dealt ('d db') before p{player + 1} acts")
        if hand.to_act != self.seats[player]:
            raise _Refused(f"it is {self._player(hand.to_act)}'s turn, not p{player + 1}'s (B1)")

    def _deal(self, count: int) -> None:
        hand = self.hand
        due = self.board_seen + count
        if len(hand.board) < due:
            street = _next_street(self.board_seen)
            if hand.is_over:
                raise _Refused(f"the hand is over; there is no {street}")
            raise _Refused(f"the {street} is not due: {self._player(hand.to_act)} is still to act")
        self.board_seen = due


class _Refused(Exception):
    """An action the replay refuses (turned into HistoryError with its place)."""
