"""Issue 10, "make the class impossible": stateful property tests of tables and clocked hands.

Hypothesis drives a :class:`~omaha.game.table.Table` and a :class:`~omaha.game.clocked.ClockedHand`
through random legal *and* illegal calls (hostile seats and amounts: bools, floats, NaN,
bytes, huge ints, int subclasses, ``__index__`` tricks), timeouts, clock advances,
disconnections, rebuys, seating changes and snapshot/restore round trips. After every step:

* chips are conserved exactly: stacks + pot + rake == chips brought in;
* a refused call raised an ``OmahaError`` (or a ``TypeError``) and left ``snapshot()``
  byte-identical;
* a restored copy continues identically (its snapshot equals the original's, and the
  machine goes on with the copy);
* no player's view holds another player's hidden cards.

The suite runs a modest budget; ``OMAHA_PROPERTY_EXAMPLES=2000`` (and
``OMAHA_PROPERTY_STEPS``) run a longer one.
"""

from __future__ import annotations

import json
import math
import os
import random
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from omaha.config import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, VARIANTS, GameConfig
from omaha.errors import OmahaError
from omaha.game.clock import ClockConfig
from omaha.game.clocked import ClockedHand
from omaha.game.hand import Hand
from omaha.game.rake import PercentageRake
from omaha.game.table import Table
from omaha.history.snapshot import loads_snapshot
from omaha.limits import MAX_CHIPS

EXAMPLES = int(os.environ.get("OMAHA_PROPERTY_EXAMPLES", "25"))
STEPS = int(os.environ.get("OMAHA_PROPERTY_STEPS", "40"))
SETTINGS = settings(max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None,
                    suppress_health_check=list(HealthCheck))


class SelfIndex:
    """An object whose ``__index__`` returns itself (recursion in a careless reader)."""

    def __index__(self) -> Any:
        return self


class Sneaky(int):
    """An int subclass whose comparisons lie."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


HOSTILE = st.one_of(
    st.booleans(), st.floats(allow_nan=True), st.just(math.nan), st.binary(max_size=3),
    st.text(max_size=3), st.integers(-(2**70), 2**70), st.sampled_from([2**63, -1]),
    st.builds(pow, st.just(10), st.just(5000)),   # too long to print: errors must not try
    st.builds(SelfIndex), st.builds(Sneaky, st.integers(0, 5)), st.none(), st.just([1]),
)


def configs() -> st.SearchStrategy[GameConfig]:
    variant = st.sampled_from([v for v in VARIANTS if v.max_players >= 4])
    blinds = st.sampled_from([(1, 2), (0, 2), (2, 5)])
    extras = st.fixed_dictionaries({"ante": st.sampled_from([0, 1]),
                                    "big_blind_ante": st.sampled_from([0, 2])})

    def build(v: Any, structure: Any, b: tuple[int, int], more: dict[str, int]) -> GameConfig:
        if structure is FIXED_LIMIT:
            return GameConfig.fixed_limit(small_bet=b[1], variant=v, **more)
        return GameConfig(structure=structure, small_blind=b[0], big_blind=b[1], variant=v,
                          **more)

    return st.builds(build, variant, st.sampled_from([FIXED_LIMIT, POT_LIMIT, NO_LIMIT]),
                     blinds, extras)


def frozen(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True)


def check_views(hand: Hand) -> None:
    """No seat's view (nor a spectator's) holds another's hidden cards."""
    shown = {seat for seat, _ in hand.shown_hands()}
    for viewer in (None, *hand.seats):
        view = hand.view(viewer)
        text = json.dumps(view.to_dict())
        for player in view.players:
            assert (player.cards is not None) == (player.seat == viewer or player.seat in shown)
        hidden = [hand.hole_cards(s) for s in hand.seats if s != viewer and s not in shown]
        for cards in hidden:
            assert "".join(map(str, cards)) not in text


def legal_call(hand: Hand, choice: int) -> tuple[str, dict[str, Any]]:
    """A legal decision for the player to act, picked by ``choice``."""
    legal = hand.legal_actions()
    if legal.can_show:
        return ("show" if choice % 2 else "muck", {})
    options: list[tuple[str, dict[str, Any]]] = [("fold", {}), ("check_or_call", {}),
                                                 ("check_or_call", {})]
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        low, high = legal.min_raise_to, legal.max_raise_to
        options += [("bet_or_raise", {"to": low}), ("bet_or_raise", {"to": high}),
                    ("bet_or_raise", {"to": low + choice % (high - low + 1)})]
    if not legal.can_check and hand.contributions[legal.seat] > 0:
        options.append(("protect_all_in", {}))
    options.append(("timeout", {}))
    return options[choice % len(options)]


def _plain_amount(value: Any) -> bool:
    """Whether ``value`` is accepted as an amount (an int, or an int subclass copied exactly)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _accepted_int(value: Any) -> int | None:
    """The int the one validator (omaha.limits.as_int) reads from ``value``, or None: an int
    subclass is copied to its int value (its lying comparisons never run), bool refused."""
    return int(value) if _plain_amount(value) else None


def illegal_call(hand: Hand, choice: int, junk: Any) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    """A call the engine must refuse, picked by ``choice``; ``junk`` is a hostile value."""
    to_act = hand.to_act
    wrong_seat = [s for s in hand.seats if s != to_act][choice % (len(hand.seats) - 1)]
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
        ("fold", (), {"seat": wrong_seat}),
        ("bet_or_raise", (10**30,), {}),
        ("bet_or_raise", (-5,), {}),
        ("call", (), {"seat": 0}),
    ]
    if not _plain_amount(junk):
        calls.append(("bet_or_raise", (junk,), {}))
    if _accepted_int(junk) not in hand.seats:   # an int subclass reads as its value
        calls += [("hole_cards", (junk,), {}), ("state", (junk,), {})]
        if junk is not None:
            calls.append(("view", (junk,), {}))
    if to_act is not None:
        calls.append(("fold", (), {"seat": True if to_act == 1 else float(to_act)}))
        if hand.street.name != "SHOWDOWN":
            if hand.legal_actions().can_check:
                calls += [("call", (), {}), ("protect_all_in", (), {})]
            else:
                calls.append(("check", (), {}))
        else:
            calls.append(("check_or_call", (), {}))
    else:
        calls += [("check_or_call", (), {}), ("timeout", (), {}), ("show", (), {})]
    return calls[choice % len(calls)]


class TableMachine(RuleBasedStateMachine):
    """A table played hand after hand, with everything a server and a hostile caller do."""

    def __init__(self) -> None:
        super().__init__()
        self.table: Table
        self.brought = 0       # chips brought to the table (sits and rebuys, less leaves)
        self.raked = 0
        self.counted_rake: set[int] = set()   # hands (by number) whose rake is counted

    @initialize(config=configs(), seed=st.integers(0, 2**32), stacks=st.lists(
        st.integers(1, 400), min_size=2, max_size=4))
    def setup(self, config: GameConfig, seed: int, stacks: list[int]) -> None:
        self.rake = PercentageRake(per_unit=5, unit=100, caps=((2, 3),))
        self.table = Table(config, seats=4, rng=random.Random(seed), rake=self.rake)
        for seat, chips in enumerate(stacks, 1):
            self.table.sit(seat, stack=chips, name=f"p{seat}")
            self.brought += chips

    def hand(self) -> Hand | None:
        return self.table.hand if self.table.in_hand else None

    def refused(self, call: Any) -> None:
        """``call`` must be refused with a typed error and change nothing at all."""
        before = frozen(self.table.snapshot())
        try:
            call()
        except (OmahaError, TypeError):
            pass
        else:
            raise AssertionError("an illegal call was accepted")
        assert frozen(self.table.snapshot()) == before

    @rule()
    def start(self) -> None:
        if self.table.in_hand:
            self.refused(self.table.start_hand)
            return
        try:
            self.table.start_hand()
        except OmahaError:   # fewer than two players with chips
            assert sum(1 for p in self.table.players() if p.stack and p.status != "sitting_out") < 2
            self.sit_everyone_in()

    def sit_everyone_in(self) -> None:
        for player in self.table.players():
            if player.status == "sitting_out":
                self.table.sit_in(player.seat)
            if player.stack == 0:
                self.table.rebuy(player.seat, 100)
                self.brought += 100

    @precondition(lambda self: self.hand() is not None)
    @rule(choice=st.integers(0, 1000))
    def act(self, choice: int) -> None:
        hand = self.hand()
        assert hand is not None
        name, kwargs = legal_call(hand, choice)
        seat = hand.to_act if choice % 3 == 0 else None
        getattr(hand, name)(**kwargs, **({"seat": seat} if seat is not None else {}))

    @rule(choice=st.integers(0, 1000), junk=HOSTILE)
    def act_illegally(self, choice: int, junk: Any) -> None:
        hand = self.table.hand
        if hand is None:
            value = _accepted_int(junk)
            if value is None or value <= 0:
                self.refused(lambda: self.table.rebuy(1, junk))
            return
        name, args, kwargs = illegal_call(hand, choice, junk)
        self.refused(lambda: getattr(hand, name)(*args, **kwargs))

    @rule(seat=st.integers(1, 4), amount=st.one_of(st.integers(1, 300), HOSTILE))
    def rebuy(self, seat: int, amount: Any) -> None:
        players = {p.seat: p for p in self.table.players()}
        hand = self.hand()
        value = _accepted_int(amount)
        legal = (value is not None and value > 0 and seat in players
                 and (hand is None or seat not in hand.seats)
                 and value + sum(p.stack for p in players.values()) <= MAX_CHIPS)
        if legal:
            assert value is not None
            self.table.rebuy(seat, amount)
            self.brought += value
        else:
            self.refused(lambda: self.table.rebuy(seat, amount))

    @rule(seat=st.integers(1, 4), stack=st.integers(1, 300), post=st.booleans())
    def sit_or_leave(self, seat: int, stack: int, post: bool) -> None:
        players = {p.seat: p for p in self.table.players()}
        hand = self.hand()
        if seat not in players:
            self.table.sit(seat, stack=stack, post_big_blind=post)
            self.brought += stack
        elif hand is None or seat not in hand.seats:
            self.brought -= self.table.leave(seat)
        else:
            self.refused(lambda: self.table.leave(seat))

    @rule(seat=st.integers(1, 4))
    def sit_out_or_in(self, seat: int) -> None:
        players = {p.seat: p for p in self.table.players()}
        if seat not in players:
            self.refused(lambda: self.table.sit_out(seat))
        elif players[seat].status == "sitting_out":
            self.table.sit_in(seat)
        else:
            self.table.sit_out(seat)

    @rule(signed=st.booleans())
    def snapshot_and_restore(self, signed: bool) -> None:
        key = b"server key" if signed else None
        data = self.table.snapshot(key=key)
        text = json.dumps(data)
        copy = Table.restore(loads_snapshot(text), rake=self.rake, key=key)
        assert frozen(copy.snapshot(key=key)) == frozen(data)
        self.table = copy   # the machine goes on with the copy: it must continue identically

    @invariant()
    def chips_are_conserved(self) -> None:
        table, hand = self.table, self.table.hand
        if hand is not None and hand.is_over and table.hands_played not in self.counted_rake:
            result = hand.result
            assert result is not None
            self.raked += result.rake
            self.counted_rake.add(table.hands_played)
        stacks = table.stacks   # the last finished hand's stacks are the table's
        total = sum(stacks.values())
        if table.in_hand and hand is not None:
            total += sum(hand.stacks.values()) + hand.pot_total - sum(
                stacks[s] for s in hand.seats)
        assert total + self.raked == self.brought

    @invariant()
    def views_hide_hidden_cards(self) -> None:
        if self.table.hand is not None:
            check_views(self.table.hand)


class ClockedMachine(RuleBasedStateMachine):
    """One clocked hand: time passes, players drop and come back, act, time out."""

    def __init__(self) -> None:
        super().__init__()
        self.game: ClockedHand
        self.now = 0

    @initialize(config=configs(), seed=st.integers(0, 2**32),
                stacks=st.lists(st.integers(1, 300), min_size=2, max_size=4))
    def setup(self, config: GameConfig, seed: int, stacks: list[int]) -> None:
        hand = Hand(config, stacks={s: c for s, c in enumerate(stacks, 1)}, button=1,
                    rng=random.Random(seed), manual_showdown=seed % 2 == 0)
        self.total = sum(stacks)
        self.game = ClockedHand(hand, now=0, config=ClockConfig())

    def refused(self, call: Any) -> None:
        before = frozen(self.game.snapshot())
        try:
            call()
        except (OmahaError, TypeError):
            pass
        else:
            raise AssertionError("an illegal call was accepted")
        assert frozen(self.game.snapshot()) == before

    @rule(ms=st.integers(0, 40_000))
    def advance(self, ms: int) -> None:
        self.now += ms
        self.game.advance(self.now)

    @rule(junk=HOSTILE)
    def advance_backwards_or_junk(self, junk: Any) -> None:
        bad = junk
        if _plain_amount(junk):   # a time: only one before the clock's is refused
            if self.now == 0:
                return
            bad = type(junk)(min(int(junk), self.now - 1))
        self.refused(lambda: self.game.advance(bad))

    @precondition(lambda self: not self.game.hand.is_over)
    @rule(choice=st.integers(0, 1000))
    def act(self, choice: int) -> None:
        hand = self.game.hand
        seat = hand.to_act
        assert seat is not None
        name, kwargs = legal_call(hand, choice)
        if name in ("protect_all_in", "timeout"):
            self.now += 10**6            # let the clock time the player out (D2)
            self.game.advance(self.now)
            return
        self.game.act(seat, name, **kwargs, now=self.now)

    @rule(seat=st.one_of(st.integers(0, 5), HOSTILE), down=st.booleans())
    def connection(self, seat: Any, down: bool) -> None:
        hand = self.game.hand
        value = _accepted_int(seat)
        if value is not None and value in hand.seats:
            if hand.is_over:
                return
            if self.game.clock.is_connected(value) == down:
                (self.game.disconnect if down else self.game.reconnect)(seat, now=self.now)
                return
        self.refused(lambda: (self.game.disconnect if down else self.game.reconnect)(
            seat, now=self.now))

    @rule(choice=st.integers(0, 1000), junk=HOSTILE)
    def act_illegally(self, choice: int, junk: Any) -> None:
        hand = self.game.hand
        seat = hand.to_act
        others = [s for s in hand.seats if s != seat]
        calls = [lambda: self.game.act(others[choice % len(others)], "fold", now=self.now),
                 lambda: self.game.act(junk, "fold", now=self.now),
                 lambda: self.game.act(seat, "dance", now=self.now),
                 lambda: self.game.act(seat, "bet_or_raise", to=junk, now=self.now)]
        call = calls[choice % len(calls)]
        if seat is None or (call is calls[-1] and _plain_amount(junk)) or (
                call is calls[1] and _accepted_int(junk) in hand.seats):
            call = calls[2]
        self.refused(call)

    @rule(signed=st.booleans())
    def snapshot_and_restore(self, signed: bool) -> None:
        key = "clock key" if signed else None
        data = self.game.snapshot(key=key)
        copy = ClockedHand.restore(json.loads(json.dumps(data)), key=key)
        assert frozen(copy.snapshot(key=key)) == frozen(data)
        self.game = copy

    @invariant()
    def chips_are_conserved(self) -> None:
        hand = self.game.hand
        assert sum(hand.stacks.values()) + (0 if hand.is_over else hand.pot_total) == self.total

    @invariant()
    def views_hide_hidden_cards(self) -> None:
        check_views(self.game.hand)


TestTableMachine = TableMachine.TestCase
TestTableMachine.settings = SETTINGS
TestClockedMachine = ClockedMachine.TestCase
TestClockedMachine.settings = SETTINGS
