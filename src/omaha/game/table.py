"""A table: seats, the button, blinds and new players between hands (T1-T5, B8).

>>> import random
>>> from omaha.config import GameConfig
>>> table = Table(GameConfig.pot_limit(small_blind=1, big_blind=2), seats=6, rng=random.Random(1))
>>> table.sit(3, stack=200); table.sit(5, stack=200); table.sit(1, stack=200)
>>> hand = table.start_hand()
>>> table.button, hand.small_blind_seat, hand.big_blind_seat   # T1: first seated has it
(3, 5, 1)
>>> while not hand.is_over:
...     hand.fold()
>>> table.stacks[1], table.start_hand().button           # T2: the button moves on
(201, 5)

A table plays one game (a flop :class:`~omaha.config.GameConfig` or a stud
:class:`~omaha.game.stud.StudConfig`) or a mixed game (a
:class:`~omaha.game.rotation.RotationConfig`: each hand's game comes from its rotation, E8).
A stud hand is dealt as a :class:`~omaha.game.studseats.SeatedStudHand` (the table's seats
over the stud engine's players); the button moves one seat every hand whatever the game, so
in stud it is the dealer position and a flop game that follows resumes where it would have
been (E8). Stud has no blinds, so everyone seated with chips is dealt in, newcomers too.

>>> from omaha.game.rotation import Rotation, RotationConfig
>>> mixed = RotationConfig(Rotation.parse("FT,FR:2"), small_bet=4, ante=1, bring_in=2)
>>> table = Table(mixed, seats=3, rng=random.Random(2))
>>> for seat in (1, 2, 3): table.sit(seat, stack=100)
>>> games = []
>>> for _ in range(5):
...     hand = table.start_hand()
...     games.append((hand.config.variant.name, table.button))
...     while not hand.is_over:
...         hand.fold() if hand.legal_actions().can_fold else hand.check_or_call()
>>> games                      # the button moves on every hand, razz or hold'em (E8)
[("Texas Hold'em", 1), ("Texas Hold'em", 2), ('Razz', 3), ('Razz', 1), ("Texas Hold'em", 2)]
>>> sum(table.stacks.values())
300

Stacks persist across hands; a table's stacks are those at the end of the last finished
hand (during a hand, ask the hand). A player who sits down at a running table chooses
(T5) to post a big blind and be dealt in at once (``post_big_blind=True``) or to wait until
the big blind reaches them; either way they are not dealt in between the button and the
small blind. A player back from sitting out makes the same choice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from omaha.cards import CardsLike
from omaha.config import MAX_SEATS, GameConfig
from omaha.errors import SnapshotError, TableError
from omaha.game.dealing import blind_positions, check_options
from omaha.game.hand import Hand, RakeRule
from omaha.game.rotation import RotationConfig
from omaha.game.stud import StudConfig
from omaha.game.studseats import SeatedStudHand, restore_hand
from omaha.history.sealing import TABLE, Key, exact_keys, opened, refusal, sealed
from omaha.limits import MAX_CHIPS, as_amount, as_int, check_total, safe_repr

__all__ = ["PLAYING", "POSTING", "SITTING_OUT", "WAITING", "AnyGame", "SeatInfo", "Table",
           "TableConfig", "TableHand", "table_config"]

AnyGame = GameConfig | StudConfig
"""The game of one hand: a flop game or a stud game."""
TableHand = Hand | SeatedStudHand
"""A hand a table deals: a flop :class:`Hand`, or a :class:`SeatedStudHand` for stud."""
TableConfig = GameConfig | StudConfig | RotationConfig
"""What a table plays: one flop game, one stud game, or a rotation of games (E8)."""

PLAYING = "playing"          # dealt in whenever they have chips
WAITING = "waiting"          # new: waits for the big blind to reach them (T5)
POSTING = "posting"          # new: posts a live big blind to be dealt in at once (T5)
SITTING_OUT = "sitting_out"  # not dealt in until they sit back in


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seated player as the table sees them."""

    seat: int
    name: str | None
    stack: int
    status: str


class _Seat:
    __slots__ = ("joined", "name", "stack", "status")

    def __init__(self, *, name: str | None, stack: int, status: str, joined: int) -> None:
        self.name = name
        self.stack = stack
        self.status = status
        self.joined = joined


def _chips(amount: object, what: str) -> int:
    return as_amount(amount, what, low=1, error=TableError, rule="B8")


def _games(config: TableConfig) -> tuple[AnyGame, ...]:
    """Every game a table of ``config`` may deal."""
    return config.configs if isinstance(config, RotationConfig) else (config,)


class Table:
    """Seats 1..``seats`` (2 to 10, T1; stud 8, E1) playing ``config`` hand after hand: a
    flop game, a stud game, or a rotation of them (E8).

    ``rng`` shuffles every hand (a seeded :class:`random.Random` makes the session
    reproducible; default the OS generator, C2); ``rake`` and ``manual_showdown`` are passed
    to each :class:`~omaha.game.hand.Hand` (flop games only: a table that deals stud takes
    neither).
    """

    __slots__ = ("_button", "_hand", "_hands", "_joined", "_position", "_seats", "_synced",
                 "config", "manual_showdown", "rake", "rng", "seat_count")

    def __init__(self, config: TableConfig, *, seats: int = 6, rng: random.Random | None = None,
                 rake: RakeRule | None = None, manual_showdown: bool = False) -> None:
        if not isinstance(config, (GameConfig, StudConfig, RotationConfig)):
            raise TableError(None, "config must be a GameConfig, a StudConfig or a "
                             f"RotationConfig, got {safe_repr(config)}")
        seats = as_int(seats, "seats", low=2, high=MAX_SEATS, error=TableError, rule="T1")
        for game in _games(config):
            if seats > game.variant.max_players:
                raise TableError("C1", f"one deck deals {game.variant.name} to at most "
                                 f"{game.variant.max_players} players, not {seats}")
        check_options(rng, rake, manual_showdown)
        if (rake is not None or manual_showdown) and any(isinstance(game, StudConfig)
                                                         for game in _games(config)):
            raise TableError("E7", "rake and manual_showdown are for flop games; this table "
                             "deals stud")
        self.config = config
        self.seat_count = seats
        self.rng = rng
        self.rake = rake
        self.manual_showdown = manual_showdown
        self._seats: dict[int, _Seat] = {}
        self._button: int | None = None
        self._hand: TableHand | None = None
        self._hands = 0
        self._joined = 0
        self._synced = True
        self._position = (0, 0)   # the rotation's game index and hands played of it (E8)

    def __repr__(self) -> str:
        """The game, the seated stacks, the button and the hands played."""
        config = self.config
        if isinstance(config, RotationConfig):
            game = f"rotation {config.rotation.text}"
        elif isinstance(config, StudConfig):
            game = f"{config.variant.name} fixed-limit"
        else:
            game = f"{config.variant.name} {config.structure.value}"
        return (f"<Table {game} stacks={self.stacks} button={self.button} "
                f"hands_played={self.hands_played}>")

    # --- queries -----------------------------------------------------------------------

    @property
    def hand(self) -> TableHand | None:
        """The hand in progress, or the last one played."""
        return self._hand

    @property
    def button(self) -> int | None:
        """The button's seat (None before the first hand)."""
        return self._button

    @property
    def next_game(self) -> AnyGame:
        """The game the next hand will play (a rotation's: by :meth:`Rotation.step
        <omaha.game.rotation.Rotation.step>`, an orbit being one hand per player now ready)."""
        return self._upcoming()[0]

    @property
    def rotation_position(self) -> tuple[int, int]:
        """Where a rotation stands: the game index of the last hand dealt and how many hands
        of that game have been dealt ((0, 0) before the first; always so without rotation)."""
        return self._position

    def _upcoming(self) -> tuple[AnyGame, tuple[int, int]]:
        config = self.config
        if not isinstance(config, RotationConfig):
            return config, self._position
        position = config.rotation.step(*self._position, max(2, len(self._ready())))
        return config.configs[position[0]], position

    @property
    def hands_played(self) -> int:
        """How many hands this table has started."""
        return self._hands

    @property
    def in_hand(self) -> bool:
        """Whether a hand is in progress."""
        return self._hand is not None and not self._hand.is_over

    def players(self) -> list[SeatInfo]:
        """Every seated player, by seat."""
        self._sync()
        return [SeatInfo(seat=s, name=p.name, stack=p.stack, status=p.status)
                for s, p in sorted(self._seats.items())]

    @property
    def stacks(self) -> dict[int, int]:
        """Chips of each seated player at the end of the last finished hand."""
        self._sync()
        return {s: p.stack for s, p in sorted(self._seats.items())}

    # --- seating (T1, T5, B8) ----------------------------------------------------------

    def _sync(self) -> None:
        """Bring the stacks of a finished hand back to the table (once)."""
        hand = self._hand
        if not self._synced and hand is not None and hand.is_over:
            for seat, chips in hand.stacks.items():
                self._seats[seat].stack = chips
            self._synced = True

    def _player(self, seat: int) -> _Seat:
        seat = as_int(seat, "seat", error=TableError, rule="T1")   # True would find seat 1
        player = self._seats.get(seat)
        if player is None:
            raise TableError("T1", f"seat {safe_repr(seat)} is empty")
        return player

    def _check_not_in_hand(self, seat: int, doing: str) -> None:
        self._sync()
        if self.in_hand and self._hand is not None and seat in self._hand.seats:
            raise TableError("B8", f"seat {seat} is in the hand in progress; {doing} between hands")

    def _newcomer_status(self, post_big_blind: bool) -> str:
        if type(post_big_blind) is not bool:
            raise TableError("T5", "post_big_blind must be a bool, got "
                             f"{safe_repr(post_big_blind)}")
        if self._hands == 0:
            return PLAYING
        return POSTING if post_big_blind else WAITING

    def sit(self, seat: int, *, stack: int, name: str | None = None,
            post_big_blind: bool = False) -> None:
        """Seat a player with ``stack`` chips (T1); at a running table they choose T5."""
        seat = as_int(seat, "seat", low=1, high=self.seat_count, error=TableError, rule="T1")
        if seat in self._seats:
            raise TableError("T1", f"seat {seat} is taken")
        stack = _chips(stack, "a stack")
        if name is not None and not isinstance(name, str):
            raise TableError("T1", f"a player's name is a str or None, got {safe_repr(name)}")
        status = self._newcomer_status(post_big_blind)
        self._check_total(stack, "seating this stack")
        self._joined += 1
        self._seats[seat] = _Seat(name=name, stack=stack, status=status, joined=self._joined)

    def leave(self, seat: int) -> int:
        """Free ``seat`` between hands (or while not in the hand); returns the stack."""
        player = self._player(seat)
        self._check_not_in_hand(seat, "leave")
        del self._seats[seat]
        return player.stack

    def sit_out(self, seat: int) -> None:
        """Stop being dealt in from the next hand."""
        self._player(seat).status = SITTING_OUT

    def sit_in(self, seat: int, *, post_big_blind: bool = False) -> None:
        """Come back from sitting out; at a running table, the T5 choice applies."""
        player = self._player(seat)
        if player.status != SITTING_OUT:
            raise TableError("T5", f"seat {seat} is not sitting out")
        player.status = self._newcomer_status(post_big_blind)

    def rebuy(self, seat: int, amount: int) -> None:
        """Add chips between hands only (B8)."""
        player = self._player(seat)
        amount = _chips(amount, "a rebuy")
        self._check_not_in_hand(seat, "add chips")
        self._check_total(amount, "this rebuy")
        player.stack += amount

    def _check_total(self, more: int, doing: str) -> None:
        """Refuse chips that would take the table's total past MAX_CHIPS (the hand in
        progress holds no more than the table stacks it started from)."""
        self._sync()
        check_total([more, *(p.stack for p in self._seats.values())],
                    f"the table's chips after {doing} would")

    # --- hands (T1-T5) -----------------------------------------------------------------

    def _next(self, seat: int, pool: set[int]) -> int:
        """The first seat of ``pool`` clockwise strictly after ``seat`` (``seat`` itself last)."""
        for k in range(1, self.seat_count + 1):
            candidate = (seat - 1 + k) % self.seat_count + 1
            if candidate in pool:
                return candidate
        raise TableError("T1", "no player to move to")

    def _between(self, low: int, seat: int, high: int) -> bool:
        """Whether ``seat`` is in the clockwise segment (low, high]."""
        span = (high - low) % self.seat_count
        return 0 < (seat - low) % self.seat_count <= span

    def _ready(self) -> set[int]:
        """The seats that can be dealt in: seated with chips, not sitting out."""
        self._sync()
        return {s for s, p in self._seats.items() if p.status != SITTING_OUT and p.stack > 0}

    def deal_plan(self) -> tuple[int, dict[int, int], tuple[int, ...]]:
        """(button, stacks of the seats dealt in, live big blind posters) for the next hand."""
        ready = self._ready()
        game = self.next_game
        playing = {s for s in ready if self._seats[s].status == PLAYING}
        # stud has no blinds to wait for: everyone ready is dealt in (E3)
        fresh = len(playing) < 2 or isinstance(game, StudConfig)
        if fresh:
            playing = ready   # fewer than two regulars: everyone starts afresh, no live blinds
        if len(playing) < 2:
            raise TableError("T1", "a hand needs at least two seated players with chips")
        if self._button is None:
            button = min(playing, key=lambda s: self._seats[s].joined)   # T1
        else:
            button = self._next(self._button, playing)                    # T2
        if isinstance(game, StudConfig):
            return button, {s: self._seats[s].stack for s in sorted(playing)}, ()
        if not game.small_blind:   # a single blind: the big blind left of the button
            big = self._next(button, ready)
            dealt = playing | {s for s in ready - playing
                               if s == big or self._seats[s].status == POSTING}
        else:
            small = self._next(button, playing)
            newcomers = {s for s in ready - playing if not self._between(button, s, small)}
            big = self._next(small, playing | newcomers)
            dealt = playing | {s for s in newcomers if s == big or self._seats[s].status == POSTING}
        order = sorted(dealt)   # the hand's players, indexed as the hand will index them
        blinds = {order[i] for i in blind_positions(len(order), order.index(button),
                                                    single_blind=not game.small_blind)}
        # a blind's poster posts no live blind on top of it (T5)
        live = () if fresh else tuple(
            sorted(s for s in dealt - blinds if self._seats[s].status == POSTING))
        return button, {s: self._seats[s].stack for s in sorted(dealt)}, live

    def start_hand(self, *, hole_cards: Mapping[int, CardsLike] | None = None,
                   board: CardsLike | None = None) -> TableHand:
        """Deal the next hand (``hole_cards``/``board`` fix cards of a flop game, for tests
        and demos)."""
        self._sync()
        if self.in_hand:
            raise TableError("T1", "a hand is already in progress")
        game, position = self._upcoming()
        button, stacks, live = self.deal_plan()
        hand: TableHand
        if isinstance(game, StudConfig):
            if hole_cards is not None or board is not None:
                raise TableError("E2", "hole_cards and board fix a flop game's cards; this "
                                 "hand is stud")
            hand = SeatedStudHand.deal(game, stacks, button=button, rng=self.rng)
        else:
            hand = Hand(game, stacks=stacks, button=button, rng=self.rng, rake=self.rake,
                        manual_showdown=self.manual_showdown, live_blinds=live,
                        hole_cards=hole_cards, board=board)
        self._position = position
        for seat in stacks:
            self._seats[seat].status = PLAYING
        self._button = button
        self._hand = hand
        self._hands += 1
        self._synced = False
        self._sync()   # a hand can end at once (everyone all-in on the blinds)
        return hand

    # --- snapshot ----------------------------------------------------------------------

    def snapshot(self, *, key: Key = None) -> dict[str, Any]:
        """JSON-compatible data from which :meth:`restore` rebuilds this table and its hand
        (digested; signed with HMAC-SHA256 when ``key`` is given, see :mod:`omaha.history.snapshot`)."""
        return snapshot_table(self, key=key)

    @classmethod
    def restore(cls, data: Mapping[str, Any], *, rake: RakeRule | None = None,
                key: Key = None) -> Table:
        """The table a :meth:`snapshot` describes (``rake`` as at creation, ``key`` as at the
        snapshot); anything inconsistent is refused with SnapshotError."""
        return restore_table(data, rake=rake, key=key)


# --- snapshot (format omaha-table/2, in omaha.history.sealing's envelope) --------------------------

def _rng_state(rng: random.Random | None) -> Any:
    """JSON-compatible state of a seeded generator; None for the OS generator."""
    if rng is None or isinstance(rng, random.SystemRandom):
        return None
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from(state: Any) -> random.Random | None:
    if state is None:
        return None
    if (type(state) is not list or len(state) != 3
            or type(state[1]) is not list or len(state[1]) != 625
            or not (state[2] is None or type(state[2]) is float)):
        raise SnapshotError("bad generator state: expected [3, 625 words, None or a float]")
    version = as_int(state[0], "the generator's version", error=SnapshotError)
    words = tuple([as_int(word, "a generator word", low=0, high=2**32 - 1, error=SnapshotError)
                   for word in state[1]])
    try:
        rng = random.Random()
        rng.setstate((version, words, state[2]))
        return rng
    except (TypeError, ValueError, IndexError, OverflowError) as exc:
        raise SnapshotError(f"bad generator state: {exc}") from exc


_SEAT_KEYS = {"seat", "name", "stack", "status", "joined"}


def _config_entry(table: Table) -> dict[str, Any]:
    """The snapshot's ``config``: the game's own dict; a rotation's also says where it
    stands (``position``: the game index and hands played of it)."""
    config = table.config
    if isinstance(config, RotationConfig):
        return {**config.to_dict(), "position": list(table._position)}
    return config.to_dict()


def table_config(data: Mapping[str, Any]) -> TableConfig:
    """The game a ``to_dict`` dict of a :class:`GameConfig`, :class:`StudConfig` or
    :class:`RotationConfig` describes (told apart by their fields: a rotation's ``rotation``,
    a stud game's ``bring_in``); a typed error names what is wrong.

    >>> type(table_config({"variant": "razz", "ante": 1, "bring_in": 1, "small_bet": 2,
    ...                    "big_bet": 4, "max_raises": 4})).__name__
    'StudConfig'
    """
    if not isinstance(data, Mapping):
        raise TableError(None, f"a game is a dict, got {safe_repr(data)}")
    if "rotation" in data:
        return RotationConfig.from_dict(data)
    if "bring_in" in data:
        return StudConfig.from_dict(data)
    return GameConfig.from_dict(data)


def _config_from(entry: Any) -> tuple[TableConfig, tuple[int, int]]:
    """The config and rotation position a snapshot's ``config`` entry describes."""
    if type(entry) is not dict:
        raise SnapshotError(f"config must be a dict, got {safe_repr(entry)}")
    if "rotation" not in entry:
        return table_config(entry), (0, 0)
    rest = {k: v for k, v in entry.items() if k != "position"}
    config = RotationConfig.from_dict(rest)
    position = entry.get("position")
    if type(position) is not list or len(position) != 2:
        raise SnapshotError(f"a rotation's position is [game, played], got {safe_repr(position)}")
    game = as_int(position[0], "the rotation's game", low=0,
                  high=len(config.rotation.games) - 1, error=SnapshotError)
    played = as_int(position[1], "the rotation's hands played", low=0, error=SnapshotError)
    return config, (game, played)


def snapshot_table(table: Table, *, key: Key = None) -> dict[str, Any]:
    """JSON-compatible data describing ``table`` and its current hand exactly."""
    table._sync()   # a finished hand's stacks are the table's: one canonical form
    hand = table.hand
    return sealed(TABLE, {
        "config": _config_entry(table),
        "seat_count": table.seat_count,
        "manual_showdown": table.manual_showdown,
        "button": table.button,
        "hands": table._hands,
        "joined": table._joined,
        "synced": table._synced,
        "rng": _rng_state(table.rng),
        "seats": [{"seat": s, "name": p.name, "stack": p.stack, "status": p.status,
                   "joined": p.joined} for s, p in sorted(table._seats.items())],
        "hand": None if hand is None else hand.snapshot(key=key),
    }, key)


def restore_table(data: Mapping[str, Any], *, rake: RakeRule | None = None,
                  key: Key = None) -> Table:
    """The table a :func:`snapshot_table` dict describes, every field checked against the
    others and against its hand (which is restored by replay)."""
    data = opened(data, TABLE, key)
    try:
        config, position = _config_from(data["config"])
        table = Table(config, seats=data["seat_count"], rng=_rng_from(data["rng"]), rake=rake,
                      manual_showdown=data["manual_showdown"])
    except SnapshotError:
        raise
    except (TypeError, ValueError, AttributeError) as exc:
        raise refusal("bad", what=TABLE.what, error=exc) from exc
    _restore_seats(table, data["seats"])
    hands = as_int(data["hands"], "hands", low=0, error=SnapshotError)
    # joined counts every player ever seated, so at least the latest one's number
    joined = as_int(data["joined"], "joined", error=SnapshotError,
                    low=max((p.joined for p in table._seats.values()), default=0))
    synced, button = data["synced"], data["button"]
    if type(synced) is not bool:
        raise SnapshotError(f"synced must be a bool, got {safe_repr(synced)}")
    if (button is None) != (hands == 0) or (data["hand"] is None) != (hands == 0):
        raise SnapshotError("a table has a button and a hand exactly when it has played")
    if button is not None:
        button = as_int(button, "the button", low=1, high=table.seat_count, error=SnapshotError)
    if (position == (0, 0)) != (hands == 0) and isinstance(config, RotationConfig):
        raise SnapshotError("a rotation has a position exactly when the table has played")
    table._button, table._hands, table._joined, table._synced = button, hands, joined, synced
    table._position = position
    if data["hand"] is not None:
        table._hand = restore_hand(data["hand"], rake=rake, key=key)
        _check_table_hand(table)
    elif not synced:
        raise SnapshotError("synced must be true when no hand was played")
    return table


def _restore_seats(table: Table, items: object) -> None:
    if type(items) is not list:
        raise SnapshotError("seats must be a list")
    joined: set[int] = set()
    total = 0
    for item in items:
        if type(item) is not dict:
            raise SnapshotError(f"a seat entry is a dict, got {item!r}")
        exact_keys(item, _SEAT_KEYS, "seat entry")
        if item["status"] not in (PLAYING, WAITING, POSTING, SITTING_OUT):
            raise SnapshotError(f"unknown seat status {safe_repr(item['status'])}")
        seat = as_int(item["seat"], "a seat entry's seat", low=1, high=table.seat_count,
                      error=SnapshotError)
        stack = as_amount(item["stack"], f"seat {seat}'s stack", error=SnapshotError,
                          above=SnapshotError)
        when = as_int(item["joined"], f"seat {seat}'s joined", low=1, error=SnapshotError)
        name = item["name"]
        if seat in table._seats or when in joined or not (name is None or type(name) is str):
            raise SnapshotError(f"bad seat entry {safe_repr(item)}")
        total += stack
        joined.add(when)
        table._seats[seat] = _Seat(name=name, stack=stack, status=item["status"], joined=when)
    if total > MAX_CHIPS:
        raise SnapshotError(f"the table holds {total} chips, above the limit MAX_CHIPS = 2**63-1")


def _check_table_hand(table: Table) -> None:
    """The restored hand must be one this table dealt, in the state the flags claim."""
    hand = table._hand
    assert hand is not None
    config = table.config
    game = config.configs[table._position[0]] if isinstance(config, RotationConfig) else config
    manual = hand._manual if isinstance(hand, Hand) else False
    if hand.config != game or manual != table.manual_showdown:
        raise SnapshotError("the hand plays another game than its table")
    if hand.button != table._button:
        raise SnapshotError(f"the table's button {table._button} is not its hand's "
                            f"{hand.button}")
    if any(seat > table.seat_count for seat in hand.seats):
        raise SnapshotError("the hand deals in a seat the table does not have")
    if table._synced != hand.is_over:
        raise SnapshotError("synced must be true exactly when the hand is over (the table "
                            "takes a finished hand's stacks back)")
    if hand.is_over:
        return
    starts = hand._log[0][3] if isinstance(hand, Hand) else hand.stud.start.stacks
    start = dict(zip(hand.seats, starts))
    for seat, chips in start.items():
        player = table._seats.get(seat)
        if player is None:
            raise SnapshotError(f"seat {seat} is in the hand in progress but not at the table")
        if player.stack != chips:   # no chips come or go during the hand (B8)
            raise SnapshotError(f"seat {seat} has {player.stack} chips at the table but "
                                f"started the hand in progress with {chips}")
