"""PHH for stud (issue 26; E1-E7): write a :class:`~omaha.game.stud.StudHand` as a history,
read one back and replay it through the engine.

The fields are the PHH standard's for ``F7S``, ``F7S/8`` and ``FR`` (as PokerKit writes and
reads them): ``antes`` (one per player), ``bring_in``, ``small_bet``, ``big_bet``,
``starting_stacks`` and ``actions``, with the optional ``finishing_stacks`` and ``seats``.
Players are in the order of the deal: ``p1`` sits left of the dealer and the last player is
the dealer (``seats``, written as each player's index in the hand from 1, is read as the
standard's table seats, any distinct numbers 1..10). The actions are the
standard's: ``d dh pN CARDS`` deals a player the cards of one street in the order dealt,
down cards first (which cards are up is the game's, E2: the third of third street and one
each on fourth to sixth street; ``??`` is an unknown *down* card), ``pN pb`` posts the
bring-in (E3), ``pN f``, ``pN cc``, ``pN cbr TOTAL`` (a completion is a bet to the small
bet; the bring-in seat's ``cbr`` of its whole stack when that is no more than the bring-in,
as PokerKit writes it, is the all-in bring-in), ``pN sm CARDS`` shows at the showdown (``sm``
alone mucks). Two extensions: the shared
card of a short deck (E2; PokerKit has none) is ``d db CARD``, and a raise cap other than the
engine's default 4 is the user field ``_max_raises`` (0: none). Five-card stud (``F5S``) has
no PHH code: writing one is refused (:class:`~omaha.errors.HistoryError` naming ``variant``).

Reading never trusts the file: every field is checked (typed errors naming it), and the
replay checks every deal against the engine (the player the street deals to, the number of
cards, no card twice (C1), no unknown up card) and every action with the rules of live play
(the bring-in by the seat that owes it, E3; the turn, E4; the amounts, E5).

>>> import random
>>> from omaha.game.stud import StudConfig, StudHand
>>> hand = StudHand(StudConfig(variant="FR", ante=1, bring_in=2, small_bet=4), [50, 60],
...                 rng=random.Random(2))
>>> _ = hand.post_bring_in(); _ = hand.fold()   # razz: the highest up card (Td) brings in
>>> text = dumps_stud(stud_history(hand))
>>> print(text)
variant = "FR"
antes = [1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [50, 60]
actions = [
  "d dh p1 3s2hTd",
  "d dh p2 Jc5c7c",
  "p1 pb",
  "p2 f",
]
finishing_stacks = [51, 59]
seats = [1, 2]
<BLANKLINE>
>>> replay_stud_history(loads_stud(text)).stacks
(51, 59)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from omaha.config import MAX_SEATS
from omaha.errors import ConfigError, HistoryError, OmahaError, UnevaluableHandError
from omaha.game.events import BetOrRaised, BoardDealt, Called, Checked, Folded, Posted, Shown
from omaha.game.stud import STUD_CODES, StudConfig, StudHand
from omaha.game.studevents import StudDealt, StudStarted
from omaha.limits import MAX_CHIPS, safe_repr
from omaha.phh.history import check_chips, check_chips_list, check_integer
from omaha.phh.notation import (
    BetOrRaiseTo,
    BringIn,
    CheckOrCall,
    DealBoard,
    DealHole,
    Fold,
    NoOp,
    ShowOrMuck,
    StudAction,
    format_phh_cards,
    format_stud_action,
    parse_stud_action,
)
from omaha.phh.toml import format_actions, format_assignment, load_toml
from omahacore.stud import MAX_STUD_PLAYERS

__all__ = [
    "STUD_PHH_CODES",
    "StudHistory",
    "StudReplay",
    "dumps_stud",
    "is_stud_code",
    "loads_stud",
    "replay_stud_history",
    "stud_history",
]

STUD_PHH_CODES = {code: variant for variant, code in STUD_CODES.items() if code != "F5S"}
"""The stud games PHH names, by code (``F7S``, ``F7S/8``, ``FR``): the codes of
:data:`omaha.game.stud.STUD_CODES` but five-card stud's, which PHH does not name."""

_DEFAULT_CAP = 4   # StudConfig's max_raises default: written only when another


def is_stud_code(code: object) -> bool:
    """Whether ``code`` is a stud game's code (five-card stud's ``F5S`` included)."""
    return isinstance(code, str) and code in {*STUD_PHH_CODES, "F5S"}


def _variant(code: object) -> str:
    if code == "F5S":
        raise HistoryError("five-card stud (F5S) has no PHH variant code; the package does not "
                           "write or read it as PHH", field="variant")
    if not isinstance(code, str) or code not in STUD_PHH_CODES:
        raise HistoryError(f"{safe_repr(code)} is not a stud code ({', '.join(STUD_PHH_CODES)})",
                           field="variant")
    return code


@dataclass(frozen=True, kw_only=True)
class StudHistory:
    """One stud hand in PHH (see the module docs); checked on construction, every fault a
    :class:`~omaha.errors.HistoryError` naming the field or the action."""

    variant: str
    antes: Sequence[int]
    bring_in: int
    small_bet: int
    big_bet: int
    starting_stacks: Sequence[int]
    actions: Sequence[str] = ()
    finishing_stacks: Sequence[int] | None = None
    seats: Sequence[int] | None = None
    user_fields: Mapping[str, Any] = field(default_factory=dict)
    config: StudConfig = field(init=False, repr=False, compare=False)
    parsed_actions: tuple[StudAction, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _variant(self.variant)
        stacks = self.starting_stacks
        if not isinstance(stacks, (list, tuple)) or not 2 <= len(stacks) <= MAX_STUD_PLAYERS:
            raise HistoryError(f"stud is for 2 to {MAX_STUD_PLAYERS} players (E1): one stack "
                               "each", field="starting_stacks")
        n = len(stacks)
        self._set("starting_stacks", check_chips_list("starting_stacks", stacks, n,
                                                      positive=True))
        antes = check_chips_list("antes", self.antes, n)
        if len(set(antes)) != 1:
            raise HistoryError(f"every player antes the same (E3), got {list(antes)}",
                               field="antes")
        self._set("antes", antes)
        for name in ("bring_in", "small_bet", "big_bet"):
            self._set(name, check_chips(name, getattr(self, name), positive=name != "bring_in"))
        if self.finishing_stacks is not None:
            self._set("finishing_stacks", check_chips_list("finishing_stacks",
                                                           self.finishing_stacks, n))
        if self.seats is not None:
            if not isinstance(self.seats, (list, tuple)) or len(self.seats) != n:
                raise HistoryError("one seat per player", field="seats")
            seats = tuple(check_integer(f"seats[{i}]", s, 1, MAX_SEATS)
                          for i, s in enumerate(self.seats))
            if len(set(seats)) != n:
                raise HistoryError(f"{list(seats)}: seats are distinct", field="seats")
            self._set("seats", seats)
        self._set("user_fields", dict(self.user_fields))
        cap = self.user_fields.get("_max_raises", _DEFAULT_CAP)
        cap = check_integer("_max_raises", cap, 0, MAX_CHIPS, "a whole number of raises (0: none)")
        try:
            config = StudConfig(variant=STUD_PHH_CODES[self.variant], ante=antes[0],
                                bring_in=self.bring_in, small_bet=self.small_bet,
                                big_bet=self.big_bet, max_raises=cap or None)
        except ConfigError as exc:
            named = [name for name in ("bring_in", "big_bet", "small_bet", "antes")
                     if name.rstrip("s") in str(exc)]
            raise HistoryError(str(exc), field=(named or ["bring_in"])[0]) from None
        self._set("config", config)
        if not isinstance(self.actions, (list, tuple)):
            raise HistoryError("expected an array of action strings", field="actions")
        self._set("actions", tuple(self.actions))
        self._set("parsed_actions", tuple(_parse(i, text, n)
                                          for i, text in enumerate(self.actions)))

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)   # normalising inside a frozen dataclass

    @property
    def players(self) -> int:
        """The number of players dealt in."""
        return len(self.starting_stacks)

    def fields(self) -> Iterator[tuple[str, Any]]:
        """The fields to write, in the standard's order, then the user fields."""
        yield from (("variant", self.variant), ("antes", list(self.antes)),
                    ("bring_in", self.bring_in), ("small_bet", self.small_bet),
                    ("big_bet", self.big_bet), ("starting_stacks", list(self.starting_stacks)),
                    ("actions", list(self.actions)))
        if self.finishing_stacks is not None:
            yield "finishing_stacks", list(self.finishing_stacks)
        if self.seats is not None:
            yield "seats", list(self.seats)
        yield from self.user_fields.items()

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> StudHistory:
        """A history from parsed TOML fields (the inverse of :meth:`fields`); fields other
        than the standard's stud fields are kept as user fields."""
        code = _variant(fields.get("variant"))
        for name in ("antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions"):
            if name not in fields:
                raise HistoryError(f"missing required field for {code}", field=name)
        if "blinds_or_straddles" in fields or "min_bet" in fields:
            name = "blinds_or_straddles" if "blinds_or_straddles" in fields else "min_bet"
            raise HistoryError(f"is not a field of {code}: stud has antes, a bring-in and "
                               "small and big bets", field=name)
        known = ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks",
                 "actions", "finishing_stacks", "seats")
        return cls(**{name: fields[name] for name in known if name in fields},
                   user_fields={k: v for k, v in fields.items() if k not in known})


def _parse(index: int, text: object, players: int) -> StudAction:
    if not isinstance(text, str):
        raise HistoryError(f"expected an action string, got {safe_repr(text)}", index=index)
    try:
        return parse_stud_action(text, players=players)
    except ValueError as exc:
        raise HistoryError(str(exc), index=index, action=text) from None


def loads_stud(text: str) -> StudHistory:
    """One stud hand from ``.phh`` text (HistoryError for bad TOML or a bad field)."""
    return StudHistory.from_fields(load_toml(text))


def dumps_stud(history: StudHistory) -> str:
    """``.phh`` text of a stud hand: the fields in order, one action per line."""
    return "".join(format_actions(value) if name == "actions"
                   else format_assignment(name, value) + "\n"
                   for name, value in history.fields())


# --- writing: a hand's events as a history -------------------------------------------------


def stud_history(hand: StudHand) -> StudHistory:
    """The PHH history of ``hand`` so far (finished: with its ``finishing_stacks``). Players
    are in PHH order, from the dealer's left; ``seats`` gives each one's index + 1.

    Raises HistoryError (``variant``) for five-card stud, which PHH does not name."""
    events = hand.events
    start = events[0]
    assert isinstance(start, StudStarted)
    config = start.config
    code = _variant(STUD_CODES[config.variant])
    n = len(start.stacks)
    order = [(start.dealer + 1 + k) % n for k in range(n)]   # PHH p1 is left of the dealer
    place = {player: k for k, player in enumerate(order)}
    actions: list[StudAction] = []
    shown: list[int] = []
    for ev in events:
        if isinstance(ev, StudDealt):
            actions.append(DealHole(place[ev.seat], tuple(ev.down + ev.up)))
        elif isinstance(ev, BoardDealt):
            actions.append(DealBoard(tuple(ev.cards)))
        elif isinstance(ev, Posted) and ev.what == "bring_in":
            actions.append(BringIn(place[ev.seat]))
        elif isinstance(ev, Folded):
            actions.append(Fold(place[ev.seat]))
        elif isinstance(ev, (Checked, Called)):
            actions.append(CheckOrCall(place[ev.seat]))
        elif isinstance(ev, BetOrRaised):
            actions.append(BetOrRaiseTo(place[ev.seat], ev.to))
        elif isinstance(ev, Shown):
            actions.append(ShowOrMuck(place[ev.seat], tuple(ev.cards)))
            shown.append(ev.seat)
    for seat in shown:   # shown before a run-out: the whole hand again at the end, as
        cards = tuple([card for card, _ in hand.cards(seat)])   # PokerKit deals and asks
        if len(cards) > len(next(ev.cards for ev in events
                                 if isinstance(ev, Shown) and ev.seat == seat)):
            actions.append(ShowOrMuck(place[seat], cards))
    user = {} if config.max_raises == _DEFAULT_CAP else {"_max_raises": config.max_raises or 0}
    return StudHistory(
        variant=code, antes=[config.ante] * n, bring_in=config.bring_in,
        small_bet=config.small_bet, big_bet=config.big_bet,
        starting_stacks=[start.stacks[p] for p in order],
        actions=[format_stud_action(action) for action in actions],
        finishing_stacks=[hand.stacks[p] for p in order] if hand.is_over else None,
        seats=[p + 1 for p in order], user_fields=user)


# --- reading: a history replayed through the engine ----------------------------------------


@dataclass(frozen=True, slots=True)
class StudReplay:
    """A replayed stud history: the engine's hand (player ``i`` is PHH ``p{i+1}``, the dealer
    the last), its final stacks in PHH order, and whether they match ``finishing_stacks``
    (True when the history has none)."""

    hand: StudHand
    stacks: tuple[int, ...]
    matches: bool


def replay_stud_history(history: StudHistory) -> StudReplay:
    """Replay ``history`` through the engine with the checks of live play.

    Raises:
        HistoryError: a deal or an action the engine refuses, named by its index and text,
            or actions that end before the hand does (``actions``).
        UnevaluableHandError: the hand reaches a showdown where a player still in holds a
            down card the history never names.
    """
    replayer = _StudReplayer(history)
    for index, (text, action) in enumerate(zip(history.actions, history.parsed_actions)):
        try:
            replayer.step(action)
        except HistoryError:
            raise
        except (OmahaError, ValueError) as exc:
            raise HistoryError(str(exc), index=index, action=text) from None
    hand = replayer.finish()
    stacks = tuple(hand.stacks)
    expected = history.finishing_stacks
    return StudReplay(hand, stacks, expected is None or tuple(expected) == stacks)


class _StudReplayer:
    """Replays a stud history. The engine deals from a whole deck, which a history does not
    give (burns are not written): the deck is found as the hand goes. Its dealt positions
    hold the cards the history named; every other position a card it has not named, in a
    known order, so that each card the engine deals tells its position. After each street's
    deals the hand is dealt again from the deck so far and its decisions replayed: the
    betting before a street never depends on the cards the street deals."""

    def __init__(self, history: StudHistory) -> None:
        self.config = history.config
        self.stacks = tuple(history.starting_stacks)
        self.n = len(self.stacks)
        self.fixed: dict[int, int] = {}          # deck position -> the history's card
        self.decisions: list[StudAction] = []
        self.matched = [0] * self.n               # each player's cards the history dealt
        self.community_named = False
        self.dirty = False
        self.hand, self.deck = self._deal()

    def _deal(self) -> tuple[StudHand, list[int]]:
        named = set(self.fixed.values())
        rest = iter([c for c in range(52) if c not in named])
        deck = [self.fixed[p] if p in self.fixed else next(rest) for p in range(52)]
        hand = StudHand(self.config, self.stacks, deck=deck)
        for action in self.decisions:
            self._decide(hand, action)
        return hand, deck

    def _fresh(self) -> StudHand:
        if self.dirty:
            self.hand, self.deck = self._deal()
            self.dirty = False
        return self.hand

    def step(self, action: StudAction) -> None:
        if isinstance(action, DealHole):
            self._deal_hole(action)
        elif isinstance(action, DealBoard):
            self._deal_board(action)
        elif isinstance(action, ShowOrMuck):
            self._show(action)
        elif not isinstance(action, NoOp):
            hand = self._fresh()
            self._all_up_cards_named(hand)
            self._decide(hand, action)
            self.decisions.append(action)

    def _name(self, card: int | None, dealt: int, what: str) -> None:
        """Put the history's ``card`` where the engine dealt ``dealt`` (None: unknown)."""
        if card is None:
            return
        position = self.deck.index(dealt)
        if card in self.fixed.values() and self.fixed.get(position) != card:
            raise ValueError(f"{what}: card {format_phh_cards((card,))} is dealt twice (C1)")
        self.fixed[position] = card
        self.dirty = True

    def _deal_hole(self, action: DealHole) -> None:
        hand, i = self.hand, action.player
        cards = hand.cards(i)[self.matched[i]:]
        who = f"p{i + 1}"
        if not cards:
            raise ValueError(f"{who} is dealt no card now (folded, or the street is not dealt "
                             "yet) (E2)")
        if len(action.cards) > len(cards):
            raise ValueError(f"{who} is dealt {len(action.cards)} cards; the engine deals "
                             f"{who} {len(cards)} now (E2)")
        for card, (dealt, up) in zip(action.cards, cards):
            if card is None and up:
                raise ValueError(f"{who}'s up card cannot be unknown (??): up cards are "
                                 "dealt face up (E2)")
            self._name(card, dealt, who)
        self.matched[i] += len(action.cards)

    def _deal_board(self, action: DealBoard) -> None:
        community = self.hand.community
        if community is None or self.community_named or len(action.cards) != 1:
            raise ValueError("a stud hand deals one shared card only, when the deck runs "
                             "short on seventh street (E2)")
        if action.cards[0] is None:
            raise ValueError("the shared card is face up: it cannot be unknown (??) (E2)")
        self._name(action.cards[0], community, "the shared card")
        self.community_named = True

    def _show(self, action: ShowOrMuck) -> None:
        if action.cards is None:
            return   # a muck, or the cards dealt: the engine shows every hand still in (E6)
        i, hand = action.player, self._fresh()
        if not hand.is_over or hand.folded[i]:
            raise ValueError(f"p{i + 1} shows cards but is not at a showdown")
        cards = hand.cards(i)   # an all-in's hand is shown before its run-out is dealt
        if not 0 < len(action.cards) <= len(cards):
            raise ValueError(f"p{i + 1} shows {len(action.cards)} cards, holding {len(cards)}")
        for k, (card, (dealt, _)) in enumerate(zip(action.cards, cards)):
            if k < self.matched[i] and card is not None:
                named = self.fixed.get(self.deck.index(dealt))
                if named is not None and named != card:
                    raise ValueError(f"p{i + 1} shows {format_phh_cards((card,))} where "
                                     f"{format_phh_cards((named,))} was dealt")
            self._name(card, dealt, f"p{i + 1}")
        self.matched[i] = max(self.matched[i], len(action.cards))

    def _all_up_cards_named(self, hand: StudHand) -> None:
        """Before an action, every up card dealt so far is in the history (E3, E4 read them)."""
        for i in range(self.n):
            for dealt, up in hand.cards(i)[self.matched[i]:]:
                if up:
                    raise ValueError(f"p{i + 1}'s up card is dealt before this action, and the "
                                     "history does not say it (d dh) (E2)")
                del dealt

    def _decide(self, hand: StudHand, action: StudAction) -> None:
        if isinstance(action, BringIn):
            if hand.bring_in_seat != action.player:
                owed = hand.bring_in_seat
                raise ValueError(f"p{action.player + 1} cannot bring in: " + (
                    "no bring-in is owed now (E3)" if owed is None
                    else f"the bring-in is p{owed + 1}'s, the lowest up card (E3)"))
            hand.post_bring_in(seat=action.player)
        elif isinstance(action, Fold):
            hand.fold(seat=action.player)
        elif isinstance(action, CheckOrCall):
            if hand.bring_in_seat == action.player:
                raise ValueError(f"p{action.player + 1} owes the bring-in: 'pb' posts it, "
                                 "'cbr' completes (E3)")
            hand.check_or_call(seat=action.player)
        elif isinstance(action, BetOrRaiseTo):
            i = action.player
            if (i == hand.bring_in_seat and i == hand.to_act
                    and action.amount == hand.bets[i] + hand.stacks[i] <= hand.config.bring_in):
                hand.post_bring_in(seat=i)   # PokerKit's all-in "completion" short of the
                return                         # bring-in: the all-in bring-in (E3, B8)
            hand.bet_or_raise(action.amount, seat=i)

    def finish(self) -> StudHand:
        hand = self._fresh()
        if not hand.is_over:
            raise HistoryError(f"the actions end before the hand does (p{hand.to_act + 1} "
                               "to act)" if hand.to_act is not None
                               else "the actions end before the hand does", field="actions")
        if hand.strengths is not None:
            named = set(self.fixed)
            for i in range(self.n):
                positions = [self.deck.index(c) for c, _ in hand.cards(i)]
                if not hand.folded[i] and not named.issuperset(positions):
                    raise UnevaluableHandError(
                        f"p{i + 1} is at the showdown with cards the history does not give",
                        field="actions")
        return hand
