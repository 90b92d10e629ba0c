"""Stud speed (issue 26): random-play 6-max seven-card stud hi/lo and razz beside PokerKit,
and the seven-card batch evaluator (high, eight-or-better low, razz).

Both engines play the random policy of :mod:`bench_engine` through their public APIs in the
same run: at each decision, with probability 0.15 fold when facing a bet, with probability
0.20 more bet, raise or complete (the bring-in completes then, else posts), else check or
call. Every hand starts from six stacks of 200 with ante 1, bring-in 1 and bets 2/4; dealing,
showdown and awarding are automatic in both. Target: at least 500x PokerKit's hands per CPU
second in both games.

Run ``python benchmarks/bench_stud.py`` for the side-by-side table, or
``python -m pytest benchmarks/bench_stud.py`` for pytest-benchmark timings and the target.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from omaha.analysis.evaluation import (
    evaluate_best_batch,
    evaluate_best_low_batch,
    evaluate_hilo_batch,
    evaluate_razz_batch,
)
from omaha.game.stud import StudConfig, StudHand

FOLD, RAISE = 0.15, 0.35
STACKS = [200] * 6
GAMES = {"F7S/8": "FixedLimitSevenCardStudHighLowSplitEightOrBetter", "FR": "FixedLimitRazz"}
CONFIGS = {code: StudConfig(variant=code, ante=1, bring_in=1, small_bet=2) for code in GAMES}


def omaha_player(code: str) -> Callable[[random.Random], int]:
    config = CONFIGS[code]

    def play(rng: random.Random) -> int:
        hand = StudHand(config, STACKS)
        decisions = 0
        while not hand.is_over:
            legal = hand.legal_actions()
            r = rng.random()
            if r < FOLD and legal.call_amount and legal.can_fold:
                hand.fold()
            elif r < RAISE and legal.min_raise_to is not None:
                hand.bet_or_raise(rng.choice((legal.min_raise_to, legal.max_raise_to)))
            else:
                hand.check_or_call()
            decisions += 1
        return decisions

    return play


def pokerkit_player(code: str) -> Callable[[random.Random], int]:
    pk = pytest.importorskip("pokerkit") if __name__ != "__main__" else __import__("pokerkit")
    game = getattr(pk, GAMES[code])
    automations = (
        pk.Automation.ANTE_POSTING, pk.Automation.BET_COLLECTION, pk.Automation.CARD_BURNING,
        pk.Automation.HOLE_DEALING, pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pk.Automation.HAND_KILLING, pk.Automation.CHIPS_PUSHING, pk.Automation.CHIPS_PULLING,
    )

    def play(rng: random.Random) -> int:
        state = game.create_state(automations, True, 1, 1, 2, 4, tuple(STACKS), 6,
                                  mode=pk.Mode.CASH_GAME)
        decisions = 0
        while state.status:
            r = rng.random()
            if state.can_post_bring_in() and not (r < RAISE and state.can_complete_bet_or_raise_to()):
                state.post_bring_in()
            elif r < FOLD and state.checking_or_calling_amount and state.can_fold():
                state.fold()
            elif r < RAISE and state.can_complete_bet_or_raise_to():
                state.complete_bet_or_raise_to(rng.choice((
                    state.min_completion_betting_or_raising_to_amount,
                    state.max_completion_betting_or_raising_to_amount)))
            else:
                state.check_or_call()
            decisions += 1
        return decisions

    return play


def rate(play: Callable[[random.Random], int], seconds: float, seed: int) -> tuple[float, float]:
    """(hands per CPU second, decisions per hand) over about ``seconds`` of CPU time."""
    rng = random.Random(seed)
    hands = decisions = 0
    start = time.process_time()
    while True:
        for _ in range(5):
            decisions += play(rng)
        hands += 5
        spent = time.process_time() - start
        if spent >= seconds:
            return hands / spent, decisions / hands


def compare(code: str, rounds: int = 3, seconds: float = 1.0) -> dict[str, float]:
    """Alternating rounds of both engines on ``code``, the best round of each."""
    ours, theirs = omaha_player(code), pokerkit_player(code)
    best = {"omaha": (0.0, 0.0), "pokerkit": (0.0, 0.0)}
    for k in range(rounds):
        for name, play in (("omaha", ours), ("pokerkit", theirs)):
            result = rate(play, seconds if name == "omaha" else 3 * seconds, seed=k)
            if result[0] > best[name][0]:
                best[name] = result
    return {"omaha_hands_per_s": best["omaha"][0], "pokerkit_hands_per_s": best["pokerkit"][0],
            "ratio": best["omaha"][0] / best["pokerkit"][0],
            "omaha_decisions_per_hand": best["omaha"][1],
            "pokerkit_decisions_per_hand": best["pokerkit"][1]}


def evaluator_rates(count: int = 400_000) -> dict[str, float]:
    """Millions of hands per second of the batch evaluator: seven-card high, eight-or-better
    low and razz, beside Omaha hi/lo (4 hole cards, 5 board cards)."""
    rng = np.random.default_rng(26)
    cards = np.argsort(rng.random((count, 52)), axis=1)[:, :9].astype(np.uint8)
    seven = np.ascontiguousarray(cards[:, :7])
    holes, boards = np.ascontiguousarray(cards[:, :4]), np.ascontiguousarray(cards[:, 4:9])
    out = {}
    for name, call in (("seven_high", lambda: evaluate_best_batch(seven)),
                       ("seven_low8", lambda: evaluate_best_low_batch(seven)),
                       ("seven_razz", lambda: evaluate_razz_batch(seven)),
                       ("omaha_hilo", lambda: evaluate_hilo_batch(holes, boards))):
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            call()
            best = min(best, time.perf_counter() - start)
        out[name] = count / best / 1e6
    return out


@pytest.mark.benchmark(group="stud: one random 6-max hand")
@pytest.mark.parametrize("code", sorted(GAMES))
def test_omaha_random_stud_hand(benchmark: Any, code: str) -> None:
    play, rng = omaha_player(code), random.Random(3)
    assert benchmark.pedantic(play, args=(rng,), rounds=200, iterations=1) > 0


@pytest.mark.parametrize("code", sorted(GAMES))
def test_target_500x_pokerkit(code: str) -> None:
    result = compare(code, rounds=3, seconds=1.0)
    print(code, result)
    assert result["ratio"] >= 500, result


if __name__ == "__main__":
    for code in GAMES:
        result = compare(code)
        print(f"{code:6} omaha {result['omaha_hands_per_s']:9.0f} hands/s "
              f"({result['omaha_decisions_per_hand']:.1f} decisions/hand), PokerKit "
              f"{result['pokerkit_hands_per_s']:7.1f} hands/s "
              f"({result['pokerkit_decisions_per_hand']:.1f}), ratio {result['ratio']:.0f}x")
    for name, rate_m in evaluator_rates().items():
        print(f"batch {name:11} {rate_m:7.1f} M hands/s")
