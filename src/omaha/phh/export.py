"""Writing PHH: an engine hand as a history, and a history other readers (PokerKit) load.

:func:`history_from_events` turns the engine's event log (:attr:`omaha.game.hand.Hand.events`)
into a :class:`~omaha.phh.HandHistory`: players in PHH order (p1 left of the button, the
button last), the forced bets as PHH arrays (:func:`forced_bet_fields`, the inverse of
:func:`omaha.phh.replay.config_for_history`), every card dealt (``d dh`` in player order,
``d db`` per street), every action (``f``, ``cc``, ``cbr`` to a total) and the showdown
(``sm`` with the cards, or alone for a muck), the table seats in ``seats`` and the final
stacks in ``finishing_stacks``. Replaying the result gives the same final stacks.

What the standard cannot say is written in documented extensions (see
:mod:`omaha.phh.replay`): live blinds, the fixed-limit cap options, the rake (``_rake``),
and a D2 protected all-in as the no-op ``"# pN protected all-in (D2)"``. A timed-out action
carries the commentary ``timed out (D2)``.

>>> import random
>>> from omaha.config import GameConfig
>>> from omaha.game.hand import Hand
>>> hand = Hand(GameConfig.pot_limit(small_blind=1, big_blind=2), stacks={1: 50, 4: 80, 6: 60},
...             button=4, rng=random.Random(1))
>>> hand.fold(); hand.fold()
>>> hh = history_from_events(hand.events)
>>> hh.metadata["seats"], hh.starting_stacks, hh.actions[-2:], hh.finishing_stacks
((6, 1, 4), (60, 50, 80), ('p3 f', 'p1 f'), (59, 51, 80))

**PokerKit-compatible histories** (:func:`pokerkit_compatible`). The package writes
extension codes for games the PHH standard does not name (see :mod:`omaha.phh.variants`).
PokerKit knows only the standard's codes, so it fails on them (``KeyError: 'PO/8'``). A
compatible export writes, in place of an extension code, the standard code whose deal and
betting are the same (:data:`~omaha.phh.variants.PORTABLE_CODES`) and keeps the real code in
the user field ``_variant``, which PokerKit ignores and this package reads back:

========  ===========  ==================================================================
code      written as   what PokerKit replays
========  ===========  ==================================================================
``PO``    ``PO``       the same hand (standard code)
``FO/8``  ``FO/8``     the same hand (standard code)
``FT``    ``FT``       the same hand (standard code)
``NT``    ``NT``       the same hand (standard code)
``PT``    ``NT``       the same hand: every pot-limit bet is a legal no-limit bet
``PO/8``  ``PO``       the same deal and bets; at a showdown it awards the whole pot high
``FO``    ``FO/8``     the same deal and bets; at a showdown it splits for a qualifying low
others    refused      no-limit Omaha and 5/6-card Omaha: no standard game deals or bets so
========  ===========  ==================================================================

The export also writes as a call (``cc``) a raise that no opponent can call any part of (each
other player still in is all-in or has less behind than the bet already made): the engine
takes it and returns the uncalled chips (P-rules), PokerKit refuses it; the chips are the same.

PokerKit also ignores the package's other user fields (``_rake``: its stacks are before
rake; ``_live_blinds``, ``_max_raises``...). ``finishing_stacks`` stays the package's result.

>>> from omaha.phh import loads, dumps
>>> hh = loads('variant = "PO/8"\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\n'
...            'min_bet = 2\\nstarting_stacks = [100, 100]\\nactions = ["p2 f"]\\n')
>>> text = dumps(hh, compatible=True)
>>> print(text.splitlines()[0], text.splitlines()[-1])
variant = "PO" _variant = "PO/8"
>>> loads(text) == hh
True

**Writing many hands** (:class:`PhhWriter`, :func:`phh_text`). A session that writes every
hand (``omaha play --phh``) turns each finished hand straight into PHH text: no
:class:`~omaha.phh.HandHistory` is built and the engine's actions are not parsed back and
checked again (the engine only logs legal play). The text is byte for byte what
:func:`~omaha.phh.dumps` and :func:`~omaha.phh.dumps_all` write of :func:`history_from_events`
(``compatible=True`` included): one walk of the event log makes the actions of both, every
action text comes from :func:`~omaha.phh.notation.format_action`, every value from
:func:`~omaha.phh.toml.format_value`, the field order is :class:`~omaha.phh.HandHistory`'s, and
the layout of the actions array and of a ``.phhs`` table comes from
:func:`~omaha.phh.toml.format_actions` and :func:`~omaha.phh.toml.table_header`, as in
``dumps``/``dumps_all``.

>>> text = phh_text(hand, number=1)
>>> text == dumps(history_from_events(hand.events, metadata={"hand": 1}))
True
>>> text.splitlines()[-3:]
['hand = 1', 'seats = [6, 1, 4]', 'finishing_stacks = [59, 51, 80]']
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from omaha.config import MAX_SEATS, GameConfig
from omaha.errors import HistoryError
from omaha.game.events import EVENT_OF_CODE, Event, HandStarted
from omaha.game.stud import StudHand
from omaha.phh.history import OPTIONAL_FIELDS, REQUIRED_ORDER, HandHistory
from omaha.phh.notation import (
    BetOrRaiseTo,
    CheckOrCall,
    DealBoard,
    DealHole,
    Fold,
    NoOp,
    ShowOrMuck,
    format_action,
    format_phh_cards,
    heads_up_reversed,
    parse_action,
    phh_order,
)
from omaha.phh.stud import dumps_stud, stud_history
from omaha.phh.toml import (
    HAND_SEPARATOR,
    format_actions,
    format_assignment,
    format_value,
    table_header,
)
from omaha.phh.variants import PORTABLE_CODES, STANDARD_CODES, variant_for_code, variant_for_config
from omahacore.engine import (
    EV_BOARD,
    EV_CALLED,
    EV_CHECKED,
    EV_ENDED,
    EV_FOLDED,
    EV_HOLES,
    EV_MUCKED,
    EV_POT_AWARDED,
    EV_PROTECTED,
    EV_RAISED,
    EV_SHOWN,
    EV_STARTED,
    EV_TIMED_OUT,
    HandCore,
)

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["PhhWriter", "forced_bet_fields", "history_from_events", "phh_text",
           "pokerkit_compatible"]


def history_from_events(
    events: Iterable[Event],
    *,
    metadata: Mapping[str, Any] | None = None,
    user_fields: Mapping[str, Any] | None = None,
) -> HandHistory:
    """The PHH history of one engine hand, from its event log.

    Args:
        events: the hand's events, starting with :class:`~omaha.game.events.HandStarted`.
        metadata: optional PHH fields to add (``players``, ``hand``, ``table``,
            ``seat_count``...); ``seats`` defaults to the table seats.
        user_fields: ``_name`` fields to add.

    Raises:
        HistoryError: the log does not start with HandStarted, or the game has no PHH code.
    """
    events = list(events)
    if not events or not isinstance(events[0], HandStarted):
        raise HistoryError("an engine event log starts with HandStarted")
    hand = _walk(_entries(events), None)
    fields = dict(hand.frame.forced)
    extra = _extension_fields(fields.pop("user_fields"), hand.rake)
    extra.update(user_fields or {})
    return HandHistory(
        **fields,
        starting_stacks=hand.starting,
        actions=hand.actions,
        finishing_stacks=hand.finishing,
        metadata={"seats": list(hand.frame.order), **(metadata or {})},
        user_fields=extra,
    )


def forced_bet_fields(
    config: GameConfig, players: int, live_players: Sequence[int] = ()
) -> dict[str, Any]:
    """The PHH fields for an engine game with ``players`` dealt in: variant, antes, blinds,
    bet sizes, and the extension user fields it needs (the inverse of
    :func:`~omaha.phh.replay.config_for_history`, which documents the arrays). ``live_players``
    are 0-based PHH indices of live blinds."""
    game = variant_for_config(config)
    antes = [config.ante] * players
    antes[1 if config.small_blind else 0] += config.big_blind_ante   # the big blind's index
    blinds = [config.small_blind, config.big_blind] + [0] * (players - 2)
    if not config.small_blind:   # a single blind, posted where the small blind would be
        blinds[:2] = [config.big_blind, 0]
    for player in live_players:
        blinds[player] = config.big_blind
    fields: dict[str, Any] = {"variant": game.code, "antes": antes, "blinds_or_straddles": blinds}
    if game.fixed_limit:
        fields.update(small_bet=config.small_bet, big_bet=config.big_bet)
    else:
        fields["min_bet"] = config.big_blind
    user: dict[str, Any] = {}
    if live_players:
        user["_live_blinds"] = sorted(p + 1 for p in live_players)
    if game.fixed_limit and config.max_raises != 4:
        user["_max_raises"] = config.max_raises or 0
    if game.fixed_limit and config.uncapped_heads_up:
        user["_uncapped_heads_up"] = True
    fields["user_fields"] = user
    return fields


def pokerkit_compatible(history: HandHistory) -> HandHistory:
    """The history with a standard variant code PokerKit reads (the real one in ``_variant``).

    Raises:
        HistoryError: the game has no faithful standard encoding (no-limit Omaha, 5/6-card).
    """
    code = history.variant
    standard = _portable_code(code)
    history = _calls_for_uncallable_raises(history)
    if standard is None:
        return history
    return replace(history, variant=standard, user_fields=_with_real_code(history.user_fields,
                                                                          code))


def _portable_code(code: str) -> str | None:
    """The standard code a compatible export writes for ``code``; None when ``code`` is one.

    Raises:
        HistoryError: no standard game deals and bets the same way.
    """
    if code in STANDARD_CODES:
        return None
    standard = PORTABLE_CODES.get(code)
    if standard is None:
        accepted = ", ".join([*sorted(STANDARD_CODES), *PORTABLE_CODES])
        raise HistoryError(
            f"{code} ({variant_for_code(code).name}) has no PHH standard code and PokerKit has "
            f"no game that deals and bets the same way, so no compatible export exists; "
            f"compatible exports are for {accepted}",
            field="variant",
        )
    return standard


def _with_real_code(user_fields: Mapping[str, Any], code: str) -> dict[str, Any]:
    """A compatible export's user fields: the real variant code last, in ``_variant``."""
    return {**user_fields, "_variant": code}


def _extension_fields(forced: Mapping[str, Any], rake: int) -> dict[str, Any]:
    """The user fields of an engine hand: its forced-bet extensions, then its ``_rake``."""
    extra = dict(forced)
    if rake:
        extra["_rake"] = rake
    return extra


def _calls_for_uncallable_raises(history: HandHistory) -> HandHistory:
    """The history with each raise nobody can call written as a call (same chips)."""
    reach = _Reach(history.starting_stacks, history.antes, history.blinds_or_straddles)
    actions = list(history.actions)
    changed = False
    for index, action in enumerate(history.parsed_actions):
        if isinstance(action, DealBoard):
            reach.new_round()
        elif isinstance(action, Fold):
            reach.fold(action.player)
        elif isinstance(action, CheckOrCall):
            reach.pay(action.player, None)
        elif isinstance(action, BetOrRaiseTo) and not reach.pay(action.player, action.amount):
            actions[index] = format_action(CheckOrCall(action.player, commentary=action.commentary))
            changed = True
    return replace(history, actions=actions) if changed else history


class _Reach:
    """The chips of a hand as a compatible export follows them: each player's bet this round
    and chips behind, and who folded, to tell a raise no opponent can call any part of."""

    __slots__ = ("bets", "folded", "stacks")

    def __init__(self, starting: Sequence[int], antes: Sequence[int],
                 blinds: Sequence[int]) -> None:
        self.bets = list(heads_up_reversed(blinds))
        self.stacks = [max(0, s - a - b)
                       for s, a, b in zip(starting, heads_up_reversed(antes), self.bets)]
        self.folded: set[int] = set()

    def new_round(self) -> None:
        self.bets = [0] * len(self.bets)

    def fold(self, player: int) -> None:
        self.folded.add(player)

    def pay(self, player: int, to: int | None) -> bool:
        """``player`` calls (``to`` None) or raises to ``to``; False when the raise is one
        nobody can call any part of, so it is paid and written as a call."""
        bets, stacks = self.bets, self.stacks
        current = max(bets)
        raised = to is not None
        if raised:
            reach = max((bets[o] + stacks[o] for o in range(len(bets))
                         if o != player and o not in self.folded), default=0)
            raised = reach > current
        paid = min(max(0, (to if raised and to is not None else current) - bets[player]),
                   stacks[player])
        stacks[player] -= paid
        bets[player] += paid
        return raised


# --- the walk of a hand's event log ----------------------------------------------------
# One walk serves history_from_events and the writer. An entry is an event's code (its index
# in EVENT_OF_CODE, the compiled engine's log code) followed by its values, as Event.values()
# gives them; a Hand's own log is the same (Hand.events is built from it) with two short
# forms: one entry for every player's hole cards (HOLES_ENTRY, the cards in the hand), and a
# pot as (settlement, its index, seats).

Entry = tuple[Any, ...]

_CODE_OF: dict[type[Event], int] = {cls: code for code, cls in enumerate(EVENT_OF_CODE)}
TIMED_OUT_NOTE = "timed out (D2)"
"""The commentary of the action the engine took for a player whose clock ran out (D2)."""


def _entries(events: Iterable[Event]) -> Iterator[Entry]:
    """Events as log entries; events of other kinds (a clock's) are skipped."""
    for event in events:
        code = _CODE_OF.get(type(event))
        if code is None:   # a subclass, or not a hand event
            code = next((c for c, cls in enumerate(EVENT_OF_CODE) if isinstance(event, cls)),
                        None)
            if code is None:
                continue
        yield (code, *event.values())


# Action texts, each written by notation.format_action (the one statement of the notation):
# whole texts per player where there is no argument, else the text before the argument.
def _before(text: str, argument: str) -> str:
    if not text.endswith(argument):
        raise ImportError(f"format_action wrote {text!r}, not ending with {argument!r}")
    return text[: len(text) - len(argument)]


_PLAYERS = range(MAX_SEATS)
_CARD = tuple([format_phh_cards((card,)) for card in range(52)])
_FOLD = tuple([format_action(Fold(p)) for p in _PLAYERS])
_CALL = tuple([format_action(CheckOrCall(p)) for p in _PLAYERS])
_MUCK = tuple([format_action(ShowOrMuck(p)) for p in _PLAYERS])
_PROTECTED = tuple([format_action(NoOp(f"p{p + 1} protected all-in (D2)")) for p in _PLAYERS])
_RAISE = tuple([_before(format_action(BetOrRaiseTo(p, 1)), "1") for p in _PLAYERS])
_HOLE = tuple([_before(format_action(DealHole(p, (0,))), _CARD[0]) for p in _PLAYERS])
_SHOW = tuple([_before(format_action(ShowOrMuck(p, (0,))), _CARD[0]) for p in _PLAYERS])
_BOARD = _before(format_action(DealBoard((0,))), _CARD[0])


def _cards(cards: Iterable[int]) -> str:
    return "".join([_CARD[card] for card in cards])


def _check_notation() -> None:
    """The tables above write what format_action writes (cards back to back, amounts)."""
    cards = (51, 0, 26, 13)
    for p in _PLAYERS:
        for action, text in (
            (BetOrRaiseTo(p, 1234567), _RAISE[p] + "1234567"),
            (DealHole(p, cards), _HOLE[p] + _cards(cards)),
            (ShowOrMuck(p, cards), _SHOW[p] + _cards(cards)),
            (DealBoard(cards), _BOARD + _cards(cards)),
        ):
            if format_action(action) != text:
                raise ImportError(f"format_action({action}) is not {text!r}")


_check_notation()


def _commented(text: str, note: str) -> str:
    """An action text with ``note`` as its commentary."""
    return format_action(replace(parse_action(text), commentary=note))


class _Frame(NamedTuple):
    """What a hand's table makes of its PHH, the same for every hand dealt alike."""

    order: list[int]               # the table seats in PHH order
    player: dict[int, int]         # table seat -> PHH player index
    where: tuple[int, ...]         # PHH player -> index in the log's seats
    live: tuple[int, ...]          # PHH indices of live blinds
    forced: dict[str, Any]         # forced_bet_fields (shared: not to be changed)
    writer: Any = None             # what the writer keeps with it


def _frame(config: GameConfig, seats: Sequence[int], button: int,
           live_seats: Sequence[int]) -> _Frame:
    order = phh_order(seats, button)
    player = {seat: index for index, seat in enumerate(order)}
    position = {seat: index for index, seat in enumerate(seats)}
    live = tuple([player[s] for s in live_seats])
    return _Frame(order, player, tuple([position[s] for s in order]), live,
                  forced_bet_fields(config, len(order), live))


Framer = Callable[[GameConfig, Sequence[int], int, Sequence[int]], _Frame]


class _Walked(NamedTuple):
    config: GameConfig
    frame: _Frame
    starting: list[int]
    actions: list[str]
    finishing: tuple[int, ...] | None
    rake: int


def _walk(log: Iterable[Entry], holes: Sequence[Sequence[int]] | None,
          frame_of: Framer = _frame, portable: bool = False) -> _Walked:
    """The PHH of a hand's log: ``holes`` are the hole cards by the hand's seat index (for
    HOLES_ENTRY), ``frame_of`` gives the table's :class:`_Frame` (:func:`_frame`, or a cached
    one), ``portable`` writes a raise nobody can call as a call
    (:func:`pokerkit_compatible`)."""
    entries = iter(log)
    first = next(entries, None)
    if first is None or first[0] != EV_STARTED:
        raise HistoryError("an engine event log starts with HandStarted")
    config, stacks = first[1], first[3]
    frame = frame_of(config, first[2], first[4], first[7])
    player, where, n = frame.player, frame.where, len(frame.where)
    starting = [stacks[i] for i in where]
    fields = frame.forced
    reach = _Reach(starting, fields["antes"], fields["blinds_or_straddles"]) if portable else None
    actions: list[str] = []
    append = actions.append
    dealt: dict[int, Sequence[int]] = {}
    note: str | None = None
    rake = 0
    finishing: tuple[int, ...] | None = None
    call, fold, raise_to, show, muck, board = _CALL, _FOLD, _RAISE, _SHOW, _MUCK, _BOARD
    card = _CARD.__getitem__
    for entry in entries:   # the codes by how often they come
        code = entry[0]
        if code == EV_CHECKED or code == EV_CALLED:
            p = player[entry[1]]
            text = call[p]
            if reach is not None:
                reach.pay(p, None)
        elif code == EV_FOLDED:
            p = player[entry[1]]
            text = fold[p]
            if reach is not None:
                reach.fold(p)
        elif code == EV_RAISED:
            p = player[entry[1]]
            text = raise_to[p] + str(entry[2])
            if reach is not None and not reach.pay(p, entry[2]):
                text = call[p]
        elif code == EV_BOARD:
            text = board + "".join(map(card, entry[2]))
            if reach is not None:
                reach.new_round()
        elif code == EV_SHOWN:
            text = show[player[entry[1]]] + "".join(map(card, entry[2]))
        elif code == EV_MUCKED:
            text = muck[player[entry[1]]]
        elif code == EV_HOLES:
            if len(entry) == 1:   # the hand's own log: every player's cards at once
                if holes is None:
                    raise HistoryError("the log's hole cards are not given")
                actions.extend([_HOLE[p] + "".join(map(card, holes[i]))
                                for p, i in enumerate(where)])
            else:   # one player's: all written in player order once all are dealt
                dealt[player[entry[1]]] = entry[2]
                if len(dealt) == n:
                    actions.extend([_HOLE[p] + "".join(map(card, dealt[p]))
                                    for p in sorted(dealt)])
            continue
        elif code == EV_POT_AWARDED:
            rake += entry[1].pots[entry[2]].rake if len(entry) == 4 else entry[3]
            continue
        elif code == EV_ENDED:
            final = entry[1]
            finishing = tuple([final[i] for i in where])
            continue
        elif code == EV_PROTECTED:   # a no-op: a timeout's note stays for the next action
            append(_PROTECTED[player[entry[1]]])
            continue
        elif code == EV_TIMED_OUT:
            note = TIMED_OUT_NOTE
            continue
        else:   # posted, burned, returned: no PHH action
            continue
        if note is not None:   # the timeout's consequence
            text, note = _commented(text, note), None
        append(text)
    return _Walked(config, frame, starting, actions, finishing, rake)


# --- PHH text, fast ----------------------------------------------------------------------


class _Header(NamedTuple):
    lines: str                       # variant to the bet fields
    user: dict[str, Any]             # the forced-bet extension fields
    real_code: str | None            # a compatible export's _variant
    tail: str                        # the user fields' lines of a hand without rake


class _Table(NamedTuple):
    config: GameConfig
    header: _Header
    seats: str                       # the seats line


class _HandWriter:
    """Writes hands as PHH text; caches what repeats from hand to hand (the table's frame,
    the game's lines, the stacks at the start)."""

    def __init__(self, compatible: bool) -> None:
        self.compatible = compatible
        self.assign = format_assignment
        self.value = format_value
        self.frames: dict[tuple[Any, ...], _Frame] = {}
        self.headers: dict[tuple[Any, ...], _Header] = {}
        self.lines: dict[tuple[str, tuple[int, ...]], str] = {}
        # "name = " of the fields written per hand, as format_assignment writes it
        self.prefix = {name: _before(format_assignment(name, 0), format_value(0))
                       for name in ("hand",)}

    def frame(self, config: GameConfig, seats: Sequence[int], button: int,
              live_seats: Sequence[int]) -> _Frame:
        key = (id(config), tuple(seats), button, tuple(live_seats))
        frame = self.frames.get(key)
        if frame is None or frame.writer.config is not config:
            frame = _frame(config, seats, button, live_seats)
            table = _Table(config, self.header(config, frame),
                           self.assign("seats", frame.order) + "\n")
            frame = frame._replace(writer=table)
            if len(self.frames) >= 256:
                self.frames.clear()
            self.frames[key] = frame
        return frame

    def header(self, config: GameConfig, frame: _Frame) -> _Header:
        key = (config, len(frame.order), frame.live)
        header = self.headers.get(key)
        if header is None:
            fields = dict(frame.forced)
            user = fields.pop("user_fields")
            real_code = None
            if self.compatible and _portable_code(fields["variant"]) is not None:
                real_code = fields["variant"]
                fields["variant"] = _portable_code(real_code)
            header = _Header(self.lines_of(fields, REQUIRED_ORDER), user, real_code,
                             self.lines_of(self.user_fields(user, real_code, 0)))
            if len(self.headers) >= 64:
                self.headers.clear()
            self.headers[key] = header
        return header

    def lines_of(self, fields: Mapping[str, Any], order: Iterable[str] | None = None) -> str:
        end = "\n"
        names = fields if order is None else [n for n in order if fields.get(n) is not None]
        return "".join([self.assign(name, fields[name]) + end for name in names])

    @staticmethod
    def user_fields(user: Mapping[str, Any], real_code: str | None, rake: int) -> dict[str, Any]:
        fields = _extension_fields(user, rake)
        return fields if real_code is None else _with_real_code(fields, real_code)

    def line(self, name: str, values: Sequence[int]) -> str:
        key = (name, tuple(values))
        text = self.lines.get(key)
        if text is None:
            text = self.assign(name, list(values)) + "\n"
            if len(self.lines) >= 4096:
                self.lines.clear()
            self.lines[key] = text
        return text

    def text(self, hand: Any, number: int | None) -> str:
        if isinstance(hand, HandCore):   # its own log: no events to build
            log: Iterable[Entry] = hand._log
            holes: Sequence[Sequence[int]] | None = hand._holes
        else:
            events = list(getattr(hand, "events", hand))
            if not events or not isinstance(events[0], HandStarted):
                raise HistoryError("an engine event log starts with HandStarted")
            log, holes = _entries(events), None
        walked = _walk(log, holes, self.frame, self.compatible)
        table: _Table = walked.frame.writer
        header, end = table.header, "\n"
        parts = [header.lines, self.line("starting_stacks", walked.starting),
                 format_actions(walked.actions)]
        for name in _WRITTEN_OPTIONAL:
            if name == "hand":
                if number is not None:
                    parts.append(self.prefix[name] + self.value(number) + end)
            elif name == "seats":
                parts.append(table.seats)
            elif walked.finishing is not None:
                parts.append(self.line(name, walked.finishing))
        if walked.rake:
            parts.append(self.lines_of(self.user_fields(header.user, header.real_code,
                                                         walked.rake)))
        else:
            parts.append(header.tail)
        return "".join(parts)

    def table(self, name: str) -> str:
        return table_header(name)


# the optional fields a hand written from the engine has, in the standard's order
_WRITTEN_OPTIONAL = [name for name in OPTIONAL_FIELDS
                     if name in ("hand", "seats", "finishing_stacks")]


def phh_text(hand: Any, *, number: int | None = None, compatible: bool = False) -> str:
    """One engine hand as ``.phh`` text, straight from its log.

    The same text as ``dumps(history_from_events(hand.events, metadata={"hand": number}),
    compatible=compatible)`` (no ``hand`` field when ``number`` is None), without building
    the history.

    Args:
        hand: a :class:`~omaha.game.hand.Hand` (over or not), or anything with the hand's
            ``events`` (a clocked hand), or the events themselves.
        number: the ``hand`` field.
        compatible: as for :func:`~omaha.phh.dumps`.

    Raises:
        HistoryError: the log does not start with HandStarted, or the game has no PHH code
            (or, with ``compatible``, no standard code).
    """
    return _HandWriter(compatible).text(hand, number)


class PhhWriter:
    """Writes engine hands as they finish: appended to a ``.phhs`` file as tables ``[1]``,
    ``[2]``..., or one ``hand-000001.phh`` file each in a folder (any other path).

    The file holds what :func:`~omaha.phh.dump_all` writes of the hands' histories (hand ``N``
    has ``hand = N``), or :func:`~omaha.phh.dump` per file; ``compatible`` is as for them.
    A stud hand (:class:`~omaha.game.stud.StudHand`, E1-E7) is written in its own notation,
    :func:`~omaha.phh.stud.dumps_stud` of its :func:`~omaha.phh.stud.stud_history` (the
    standard's stud fields, no ``hand``), so one file holds a mixed game's hands (E8) each
    in its game's notation; five-card stud has no PHH code (HistoryError naming ``variant``).
    Use it as a context manager, or :meth:`close` it.

    >>> import io, random
    >>> from omaha.game.hand import Hand
    >>> config = GameConfig.pot_limit(small_blind=1, big_blind=2)
    >>> out = io.StringIO()
    >>> with PhhWriter(out) as writer:
    ...     for seed in (1, 2):
    ...         hand = Hand(config, stacks={1: 50, 2: 80}, button=2, rng=random.Random(seed))
    ...         hand.fold()
    ...         writer.write(hand)
    >>> [line for line in out.getvalue().splitlines() if line.startswith(("[", "hand"))]
    ['[1]', 'hand = 1', '[2]', 'hand = 2']
    """

    def __init__(self, target: str | os.PathLike[str] | IO[str], *,
                 compatible: bool = False) -> None:
        self._writer = _HandWriter(compatible)
        self.count = 0
        self.folder: str | None = None
        self._own = False
        if isinstance(target, (str, os.PathLike)):
            path = os.fspath(target)
            if path.endswith(".phhs"):
                self.file: IO[str] | None = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
                self._own = True
            else:
                os.makedirs(path, exist_ok=True)
                self.folder, self.file = path, None
        else:
            self.file = target

    def write(self, hand: Any, number: int | None = None) -> None:
        """Write one hand (as :func:`phh_text` takes it, or a stud hand); ``number`` is its
        ``hand`` field (a flop hand's), table name and file number (default: one more than
        the hands written so far)."""
        self.count += 1
        number = self.count if number is None else number
        text = (dumps_stud(stud_history(hand)) if isinstance(hand, StudHand)
                else self._writer.text(hand, number))
        if self.file is not None:
            table = self._writer.table(str(number))
            separator = HAND_SEPARATOR if self.count > 1 else ""
            self.file.write(separator + table + text)
        else:
            assert self.folder is not None
            path = os.path.join(self.folder, f"hand-{number:06d}.phh")
            with open(path, "w", encoding="utf-8", newline="\n") as file:
                file.write(text)

    def close(self) -> None:
        """Close the ``.phhs`` file this writer opened (a file it was given stays open)."""
        if self.file is not None and self._own:
            self.file.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
