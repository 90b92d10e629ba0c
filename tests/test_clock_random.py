"""Randomized hands on the clock with random timeouts, disconnects and rake (D1-D4, K1-K3).

Each hand is checked against references written here from the rules alone: chips plus rake
are conserved exactly; the rake is the schedule's for the raked pot and is split per K1; a
protected player keeps the rest of their stack and wins at most what their contribution
covers; and the clock log replays to the same deadlines, bonuses and timeouts (D1-D3).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from omaha.config import OMAHA_HIGH, OMAHA_HILO, GameConfig
from omaha.game.clock import ClockConfig, TimeoutAction, TimeoutPolicy
from omaha.game.clocked import ClockedHand, Disconnected, Reconnected, TimeRanOut, TurnStarted
from omaha.game.hand import Hand
from omaha.game.rake import (
    SEED_FIXED_LIMIT_CHART,
    SEED_POT_LIMIT_RAKE,
    NoRake,
    PercentageRake,
    RakeSchedule,
)

HANDS = 400


def random_game(rng: random.Random) -> tuple[GameConfig, RakeSchedule]:
    variant = rng.choice([OMAHA_HIGH, OMAHA_HILO])
    no_drop = rng.random() < 0.8
    if rng.random() < 0.4:
        small = rng.choice([50, 100, 200, 500, 1_000, 1_500, 3_000])
        config = GameConfig.fixed_limit(small_bet=small, big_bet=2 * small, variant=variant)
        chart = replace(SEED_FIXED_LIMIT_CHART, no_flop_no_drop=no_drop)
        options: list[RakeSchedule] = [chart.for_big_bet(2 * small), NoRake()]
    else:
        small = rng.choice([5, 50, 100, 500])
        make = rng.choice([GameConfig.pot_limit, GameConfig.no_limit])
        config = make(small_blind=small, big_blind=2 * small, variant=variant)
        options = [replace(SEED_POT_LIMIT_RAKE, no_flop_no_drop=no_drop), NoRake(), PercentageRake(
            per_unit=rng.randint(0, 10), unit=100, caps=((2, rng.randint(0, 500)),),
            minimum=rng.randint(0, 20), no_flop_no_drop=no_drop)]
    return config, rng.choice(options)


def random_action(game: ClockedHand, rng: random.Random, now: int) -> None:
    hand = game.hand
    seat, legal = hand.to_act, hand.legal_actions()
    assert seat is not None
    if legal.can_show:
        game.act(seat, rng.choice(["show", "muck"]), now=now)
        return
    choices = ["fold", "check" if legal.can_check else "call", "check_or_call"]
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        choices.append("bet_or_raise")
        if rng.random() < 0.5:
            to = rng.choice([legal.min_raise_to, legal.max_raise_to,
                             rng.randint(legal.min_raise_to, legal.max_raise_to)])
            game.act(seat, "bet_or_raise", to=to, now=now)
            return
    game.act(seat, rng.choice(choices[:-1] if "bet_or_raise" in choices else choices), now=now)


def play(seed: int) -> tuple[ClockedHand, dict[int, int], RakeSchedule, dict[int, int]]:
    """One random hand; returns the game, starting stacks, schedule and contributions at the
    moment each player was protected."""
    rng = random.Random(seed)
    config, rake = random_game(rng)
    n = rng.randint(2, 10)
    seats = sorted(rng.sample(range(1, 11), n))
    stacks = {s: rng.randint(1, 150) * config.big_blind // 2 + rng.randint(0, 3) for s in seats}
    clock = ClockConfig(base_ms=rng.randrange(0, 3_000), countdown_ms=rng.randrange(1, 3_000),
                        reconnect_bonus_ms=rng.randrange(0, 3_000), policy=rng.choice(list(TimeoutPolicy)))
    hand = Hand(config, stacks=stacks, button=rng.choice(seats), rng=rng, rake=rake,
                manual_showdown=rng.random() < 0.3)
    game = ClockedHand(hand, now=rng.randrange(0, 10**6), config=clock,
                       disconnected=set(rng.sample(seats, rng.randint(0, n // 2))))
    now = game.clock.last_ms or 0
    protected_at: dict[int, int] = {}
    while not hand.is_over:
        now += rng.randrange(0, clock.action_ms * 3 // 2 + 1)
        r = rng.random()
        away = sorted(game.clock.disconnected)
        if r < 0.15 and len(away) < n:
            fired = game.disconnect(rng.choice([s for s in seats if s not in away]), now=now)
        elif r < 0.35 and away:
            fired = game.reconnect(rng.choice(away), now=now)
        else:
            fired = game.advance(now)
        for timeout in fired:
            if timeout.action is TimeoutAction.ALL_IN:
                protected_at[timeout.seat] = hand.contributions[timeout.seat]
        if not hand.is_over and r >= 0.5 and not game.clock.expired(now):
            random_action(game, rng, now)
        if rng.random() < 0.05:
            copy = ClockedHand.restore(json.loads(json.dumps(game.snapshot())), rake=rake)
            assert copy.snapshot() == game.snapshot()
    return game, stacks, rake, protected_at


def k1_reference(rake: int, pots: list[int]) -> list[int]:
    """Floor share per pot; the remainder from the main pot onward (K1)."""
    total = sum(pots)
    shares = [rake * pot // total if total else 0 for pot in pots]
    left = rake - sum(shares)
    for i, pot in enumerate(pots):
        more = min(left, pot - shares[i])
        shares[i] += more
        left -= more
    return shares


def check_clock_log(game: ClockedHand) -> None:
    """Replay the clock log with the D1-D3 rules and compare every deadline and bonus."""
    config = game.clock.config
    seat = deadline = None
    used = ended_by_timeout = False
    away: set[int] = set()
    for event in game.clock_events:
        if isinstance(event, TurnStarted):
            if deadline is not None and not ended_by_timeout:
                assert event.at_ms < deadline            # the previous player acted in time
            assert event.deadline_ms == event.at_ms + config.base_ms + config.countdown_ms
            seat, deadline, used, ended_by_timeout = event.seat, event.deadline_ms, False, False
        elif isinstance(event, Disconnected):
            assert event.seat not in away
            away.add(event.seat)
        elif isinstance(event, Reconnected):
            assert event.seat in away
            away.discard(event.seat)
            earns = event.seat == seat and not used and deadline is not None and event.at_ms < deadline
            assert event.bonus_ms == (config.reconnect_bonus_ms if earns else 0)
            if earns:
                assert deadline is not None
                deadline, used = deadline + config.reconnect_bonus_ms, True
        elif isinstance(event, TimeRanOut):
            assert (event.seat, event.at_ms) == (seat, deadline)
            ended_by_timeout = True
    assert away == set(game.clock.disconnected)


@pytest.mark.parametrize("block", range(8))
def test_random_clocked_hands_conserve_chips_and_rake(block: int) -> None:
    for seed in range(block * HANDS // 8, (block + 1) * HANDS // 8):
        game, stacks, rake, protected_at = play(seed)
        hand, result = game.hand, game.hand.result
        assert result is not None and not game.clock.running
        # Chips plus rake conserved exactly.
        assert sum(result.stacks.values()) + result.rake == sum(stacks.values())
        # The rake is the schedule's for the pot without returned chips (K1-K3), split per K1.
        contrib = hand.contributions
        raked = sum(contrib.values()) - sum(result.returned.values())
        assert result.rake == rake.rake_for(raked, len(stacks), len(hand.board) >= 3)
        amounts = [pot.amount for pot in result.pots]
        assert [pot.rake for pot in result.pots] == k1_reference(result.rake, amounts)
        # D2: a protected player keeps the rest of their stack, puts in nothing more, and wins
        # at most what their contribution covers from each opponent.
        for seat, at in protected_at.items():
            assert hand.state(seat) == "protected" and contrib[seat] == at
            cover = sum(min(c, at) for c in contrib.values())
            assert result.payouts[seat] - result.returned.get(seat, 0) <= cover
            assert result.stacks[seat] == stacks[seat] - at + result.payouts[seat]
        # Each timeout's consequence is the player's final state or a check.
        for event in game.clock_events:
            if isinstance(event, TimeRanOut):
                expected = {TimeoutAction.ALL_IN: "protected", TimeoutAction.FOLD: "folded",
                            TimeoutAction.MUCK: "mucked"}.get(event.action)
                assert expected is None or hand.state(event.seat) == expected
        check_clock_log(game)
