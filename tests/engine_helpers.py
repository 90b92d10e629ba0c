"""Helpers for the engine tests: building hands with chosen cards, random policies, and an
independent, slow reference for the betting limits read straight from the event log."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from omaha.config import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, VARIANTS, GameConfig
from omaha.game.events import (
    BetOrRaised,
    BoardDealt,
    Called,
    Checked,
    Event,
    Folded,
    Posted,
    ProtectedAllIn,
)
from omaha.game.hand import Hand
from omahacore.cards import parse_cards


def cards(text: str) -> list[int]:
    return parse_cards(text)


def make_hand(config: GameConfig, stacks: Mapping[int, int], *, button: int = 1,
              seed: int = 0, **options: Any) -> Hand:
    return Hand(config, stacks=stacks, button=button, rng=random.Random(seed), **options)


def random_config(rng: random.Random) -> GameConfig:
    variant = rng.choice(VARIANTS)
    structure = rng.choice([FIXED_LIMIT, POT_LIMIT, NO_LIMIT])
    extras: dict[str, Any] = {"ante": rng.choice([0, 0, 1, 3]),
                              "big_blind_ante": rng.choice([0, 0, 2])}
    if structure is FIXED_LIMIT:
        return GameConfig.fixed_limit(small_bet=rng.choice([2, 4, 10]), variant=variant,
                                      max_raises=rng.choice([4, 4, 3, None]),
                                      uncapped_heads_up=rng.random() < 0.3, **extras)
    return GameConfig(structure=structure, small_blind=rng.choice([1, 2]),
                      big_blind=rng.choice([2, 4]), variant=variant, **extras)


def random_hand(rng: random.Random, **options: object) -> Hand:
    config = random_config(rng)
    n = rng.randint(2, config.variant.max_players)
    seats = sorted(rng.sample(range(1, 11), n))
    stacks = {s: rng.choice([rng.randint(1, 30), rng.randint(30, 400)]) for s in seats}
    button = rng.choice(seats)
    return Hand(config, stacks=stacks, button=button, rng=random.Random(rng.random()),
                live_blinds=_live(rng, seats, button), manual_showdown=rng.random() < 0.3,
                **options)  # type: ignore[arg-type]


def _live(rng: random.Random, seats: list[int], button: int) -> list[int]:
    """Some seats other than the blinds post a live big blind (T5)."""
    if len(seats) < 4:
        return []
    b = seats.index(button)
    blinds = {seats[(b + 1) % len(seats)], seats[(b + 2) % len(seats)]}
    return [s for s in seats if s not in blinds and rng.random() < 0.1]


def to_street(hand: Hand, street: int) -> None:
    """Check or call around until ``street`` (1 flop, 2 turn, 3 river) begins."""
    while not hand.is_over and hand.street < street:
        hand.check_or_call()


def random_action(hand: Hand, rng: random.Random) -> None:
    """One random legal decision (the benchmark's policy, plus all-ins and free folds)."""
    legal = hand.legal_actions()
    if legal.can_show:
        hand.show() if rng.random() < 0.5 else hand.muck()
        return
    r = rng.random()
    if r < 0.12 and legal.call_amount or r < 0.14:
        hand.fold()
    elif r < 0.34 and legal.min_raise_to is not None:
        assert legal.max_raise_to is not None
        pick = rng.choice([legal.min_raise_to, legal.max_raise_to,
                           rng.randint(legal.min_raise_to, legal.max_raise_to)])
        hand.bet_or_raise(pick)
    elif r < 0.37 and all_in_is_legal(hand):
        hand.all_in()
    else:
        hand.check_or_call()


def all_in_is_legal(hand: Hand) -> bool:
    """Whether the whole stack can go in: as a call, or within the raise limits."""
    legal = hand.legal_actions()
    stack = hand.stacks[legal.seat]
    if legal.call_amount == stack:
        return True
    return legal.max_raise_to is not None and legal.max_raise_to == stack + hand.bets[legal.seat]


def reference_options(config: GameConfig, events: Sequence[Event], seat: int
                      ) -> tuple[bool, int, int | None, int | None]:
    """(can_check, call_amount, min_raise_to, max_raise_to) for ``seat``, from the log alone.

    Written from the rules, independently of the engine's state: B2, B3 (unit, cap), B4
    (minimum: last full raise, big blind before the flop), B5 (pot after the call), B6/B7
    (a player who acted may raise again only after a full raise, or half a unit in fixed
    limit, counted from their own last action), B8 (stacks).
    """
    start = events[0]
    seats = start.seats  # type: ignore[attr-defined]
    stack = dict(zip(seats, start.stacks))  # type: ignore[attr-defined]
    bet = dict.fromkeys(seats, 0)
    pot = 0
    gone: set[int] = set()       # folded
    stuck: set[int] = set()      # all-in or protected
    street = 0
    raises: list[int] = []       # totals of bets/raises this round, in order
    acted_at: dict[int, int] = {}
    for ev in events[1:]:
        if isinstance(ev, Posted):
            stack[ev.seat] -= ev.amount
            pot += ev.amount
            if ev.what in ("small_blind", "big_blind", "live_blind"):
                bet[ev.seat] += ev.amount
        elif isinstance(ev, BoardDealt):
            street = ev.street
            bet = dict.fromkeys(seats, 0)
            raises, acted_at = [], {}
        elif isinstance(ev, Folded):
            gone.add(ev.seat)
        elif isinstance(ev, ProtectedAllIn):
            stuck.add(ev.seat)
        elif isinstance(ev, Checked):
            acted_at[ev.seat] = bet[ev.seat]
        elif isinstance(ev, Called):
            stack[ev.seat] -= ev.amount
            bet[ev.seat] += ev.amount
            pot += ev.amount
            acted_at[ev.seat] = bet[ev.seat]
        elif isinstance(ev, BetOrRaised):
            added = ev.to - bet[ev.seat]
            stack[ev.seat] -= added
            pot += added
            bet[ev.seat] = ev.to
            raises.append(ev.to)
            acted_at[ev.seat] = ev.to
        for s in seats:
            if stack[s] == 0:
                stuck.add(s)
    unit = config.bet_unit(street)
    opening = config.big_blind if street == 0 else 0
    current = max([opening, *bet.values()])
    owed = current - bet[seat]
    call = min(owed, stack[seat]) if owed > 0 else 0
    others = [s for s in seats if s != seat and s not in gone and s not in stuck]
    allin = bet[seat] + stack[seat]
    if allin <= current or not others:
        return owed <= 0, call, None, None
    if config.structure is FIXED_LIMIT:
        level, count = opening, (1 if street == 0 else 0)
        for to in raises:
            if 2 * (to - level) >= unit:
                level, count = to, count + 1
        if seat in acted_at and 2 * (current - acted_at[seat]) < unit:
            return owed <= 0, call, None, None
        if config.max_raises is not None and count >= config.max_raises and not (
                config.uncapped_heads_up and _players_at_round_start(events, street) == 2):
            return owed <= 0, call, None, None
        to = min(level + unit, allin)
        return owed <= 0, call, to, to
    full, level = unit, opening
    for to in raises:
        full = max(to - level, full)
        level = to
    if seat in acted_at and current - acted_at[seat] < full:
        return owed <= 0, call, None, None
    low = current + full
    high = current + pot + owed if config.structure is POT_LIMIT else allin
    return owed <= 0, call, min(low, allin), min(max(high, low), allin)


def _players_at_round_start(events: Sequence[Event], street: int) -> int:
    seats = set(events[0].seats)  # type: ignore[attr-defined]
    current = 0
    for ev in events:
        if isinstance(ev, BoardDealt):
            current = ev.street
            if current == street:
                break
        if isinstance(ev, Folded) and current < street:
            seats.discard(ev.seat)
    return len(seats)
