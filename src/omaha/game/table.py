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
from omaha.history.sealing import TABLE, Key, exact_keys, opened, refusal, sealed
from omaha.limits import MAX_CHIPS, as_amount, as_int, check_total, safe_repr

__all__ = ["PLAYING", "POSTING", "SITTING_OUT", "WAITING", "SeatInfo", "Table"]

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


class Table:
    """Seats 1..``seats`` (2 to 10, T1) playing ``config`` hand after hand.

    ``rng`` shuffles every hand (a seeded :class:`random.Random` makes the session
    reproducible; default the OS generator, C2); ``rake`` and ``manual_showdown`` are passed
    to each :class:`~omaha.game.hand.Hand`.
    """

    __slots__ = ("_button", "_hand", "_hands", "_joined", "_seats", "_synced", "config",
                 "manual_showdown", "rake", "rng", "seat_count")

    def __init__(self, config: GameConfig, *, seats: int = 6, rng: random.Random | None = None,
                 rake: RakeRule | None = None, manual_showdown: bool = False) -> None:
        if not isinstance(config, GameConfig):
            raise TableError(None, f"config must be a GameConfig, got {config!r}")
        seats = as_int(seats, "seats", low=2, high=MAX_SEATS, error=TableError, rule="T1")
        if seats > config.variant.max_players:
            raise TableError("C1", f"one deck deals {config.variant.name} to at most "
                             f"{config.variant.max_players} players, not {seats}")
        check_options(rng, rake, manual_showdown)
        self.config = config
        self.seat_count = seats
        self.rng = rng
        self.rake = rake
        self.manual_showdown = manual_showdown
        self._seats: dict[int, _Seat] = {}
        self._button: int | None = None
        self._hand: Hand | None = None
        self._hands = 0
        self._joined = 0
        self._synced = True

    def __repr__(self) -> str:
        """The game, the seated stacks, the button and the hands played."""
        game = f"{self.config.variant.name} {self.config.structure.value}"
        return (f"<Table {game} stacks={self.stacks} button={self.button} "
                f"hands_played={self.hands_played}>")

    # --- queries -----------------------------------------------------------------------

    @property
    def hand(self) -> Hand | None:
        """The hand in progress, or the last one played."""
        return self._hand

    @property
    def button(self) -> int | None:
        """The button's seat (None before the first hand)."""
        return self._button

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

    def deal_plan(self) -> tuple[int, dict[int, int], tuple[int, ...]]:
        """(button, stacks of the seats dealt in, live big blind posters) for the next hand."""
        self._sync()
        ready = {s for s, p in self._seats.items() if p.status != SITTING_OUT and p.stack > 0}
        playing = {s for s in ready if self._seats[s].status == PLAYING}
        fresh = len(playing) < 2
        if fresh:
            playing = ready   # fewer than two regulars: everyone starts afresh, no live blinds
        if len(playing) < 2:
            raise TableError("T1", "a hand needs at least two seated players with chips")
        if self._button is None:
            button = min(playing, key=lambda s: self._seats[s].joined)   # T1
        else:
            button = self._next(self._button, playing)                    # T2
        if not self.config.small_blind:   # a single blind: the big blind left of the button
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
                                                    single_blind=not self.config.small_blind)}
        # a blind's poster posts no live blind on top of it (T5)
        live = () if fresh else tuple(
            sorted(s for s in dealt - blinds if self._seats[s].status == POSTING))
        return button, {s: self._seats[s].stack for s in sorted(dealt)}, live

    def start_hand(self, *, hole_cards: Mapping[int, CardsLike] | None = None,
                   board: CardsLike | None = None) -> Hand:
        """Deal the next hand (``hole_cards``/``board`` fix cards, for tests and demos)."""
        self._sync()
        if self.in_hand:
            raise TableError("T1", "a hand is already in progress")
        button, stacks, live = self.deal_plan()
        hand = Hand(self.config, stacks=stacks, button=button, rng=self.rng, rake=self.rake,
                    manual_showdown=self.manual_showdown, live_blinds=live,
                    hole_cards=hole_cards, board=board)
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


def snapshot_table(table: Table, *, key: Key = None) -> dict[str, Any]:
    """JSON-compatible data describing ``table`` and its current hand exactly."""
    table._sync()   # a finished hand's stacks are the table's: one canonical form
    hand = table.hand
    return sealed(TABLE, {
        "config": table.config.to_dict(),
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
        table = Table(GameConfig.from_dict(data["config"]), seats=data["seat_count"],
                      rng=_rng_from(data["rng"]), rake=rake,
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
    table._button, table._hands, table._joined, table._synced = button, hands, joined, synced
    if data["hand"] is not None:
        table._hand = Hand.restore(data["hand"], rake=rake, key=key)
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
    if hand.config != table.config or hand._manual != table.manual_showdown:
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
    start = dict(zip(hand.seats, hand._log[0][3]))
    for seat, chips in start.items():
        player = table._seats.get(seat)
        if player is None:
            raise SnapshotError(f"seat {seat} is in the hand in progress but not at the table")
        if player.stack != chips:   # no chips come or go during the hand (B8)
            raise SnapshotError(f"seat {seat} has {player.stack} chips at the table but "
                                f"started the hand in progress with {chips}")
