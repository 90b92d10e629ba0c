"""Game engine speed and memory (issue 4): random-play 6-max pot-limit Omaha hi/lo.

Both engines play the same random policy through their public APIs in the same run: at each
decision, with probability 0.15 fold when facing a bet, with probability 0.20 more bet or raise
to a uniform amount between the legal minimum and maximum, else check or call. Every draw is
one ``rng.random()`` (the amount ``low + int(rng.random() * (high - low + 1))``, not
``rng.randint``, whose Python-level cost is the harness's, not an engine's), in both players,
as :mod:`bench_stud` draws its sizes. Every hand
starts from six stacks of 200 with blinds 1/2; dealing, showdown and awarding are automatic
in both. Targets (issue 12): at least 400x PokerKit's hands per second (issue 20: 600x, and
at least 0.9x today's code, run beside it when ``OMAHA_BASELINE_SRC`` names it), and at most 3 KB per
hand in progress (tracemalloc over 10,000 live hands; undo records included). Branching for tree search is measured by
:mod:`bench_copy_undo`.

Run ``python benchmarks/bench_engine.py`` for the side-by-side table, or
``python -m pytest benchmarks/bench_engine.py`` for pytest-benchmark timings and the targets.
"""

from __future__ import annotations

import gc
import random
import time
import tracemalloc
import warnings
from collections.abc import Callable
from typing import Any

import pytest

from omaha import Hand  # the public API both versions share (benchmarks/baseline.py)
from omaha.config import OMAHA_HILO, GameConfig

CONFIG = GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO)
STACKS = {seat: 200 for seat in range(1, 7)}
FOLD, RAISE = 0.15, 0.35        # the shared random policy's thresholds


def play_omaha(rng: random.Random) -> int:
    """One hand through omaha's public API; returns the number of decisions."""
    hand = Hand(CONFIG, stacks=STACKS, button=1)
    decisions = 0
    while not hand.is_over:
        legal = hand.legal_actions()
        r = rng.random()
        if r < FOLD and legal.call_amount:
            hand.fold()
        elif r < RAISE and legal.min_raise_to is not None:
            low, high = legal.min_raise_to, legal.max_raise_to
            hand.bet_or_raise(low + int(rng.random() * (high - low + 1)))  # type: ignore[operator]
        else:
            hand.check_or_call()
        decisions += 1
    return decisions


def new_pokerkit_state(pk: Any) -> Any:
    """A fresh PokerKit pot-limit Omaha hi/lo state: 6 players, blinds 1/2, ``STACKS``."""
    automations = (
        pk.Automation.ANTE_POSTING, pk.Automation.BET_COLLECTION,
        pk.Automation.BLIND_OR_STRADDLE_POSTING, pk.Automation.CARD_BURNING,
        pk.Automation.HOLE_DEALING, pk.Automation.BOARD_DEALING,
        pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING, pk.Automation.HAND_KILLING,
        pk.Automation.CHIPS_PUSHING, pk.Automation.CHIPS_PULLING,
        pk.Automation.RUNOUT_COUNT_SELECTION,
    )

    def street(opening: bool, hole: int, board: int) -> Any:
        return pk.Street(opening, (False,) * hole, board, False, pk.Opening.POSITION, 2, None)

    streets = (street(False, 4, 0), street(True, 0, 3), street(True, 0, 1), street(True, 0, 1))
    return pk.State(automations, pk.Deck.STANDARD,
                    (pk.OmahaHoldemHand, pk.OmahaEightOrBetterLowHand), streets,
                    pk.BettingStructure.POT_LIMIT, True, 0, (1, 2), 0,
                    tuple(STACKS.values()), 6, mode=pk.Mode.CASH_GAME)


def pokerkit_factory() -> Callable[[random.Random], int]:
    """A player of the same policy on a PokerKit pot-limit Omaha hi/lo state."""
    pk = pytest.importorskip("pokerkit") if __name__ != "__main__" else __import__("pokerkit")

    def play(rng: random.Random) -> int:
        state = new_pokerkit_state(pk)
        decisions = 0
        while state.status:
            r = rng.random()
            if r < FOLD and state.checking_or_calling_amount:
                state.fold()
            elif r < RAISE and state.can_complete_bet_or_raise_to():
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(low + int(rng.random() * (high - low + 1)))
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


def make_runner(key: str) -> Callable[[float], float]:
    """Hands per CPU second of this package's engine (``key`` "omaha"), for
    :mod:`baseline`: the same policy run on today's code in a child process."""
    assert key == "omaha"
    return lambda seconds: rate(play_omaha, seconds, seed=7)[0]


def compare(rounds: int = 3, seconds: float = 1.0) -> dict[str, float]:
    """Alternating rounds of both engines (and of today's code, when ``OMAHA_BASELINE_SRC``
    names it: see :mod:`baseline`), best round of each.

    Each measurement starts with a garbage collection and a short warm-up, so neither engine
    pays for the objects or cold caches the other one left behind.
    """
    from baseline import Baseline, baseline_src

    pokerkit = pokerkit_factory()
    src = baseline_src()
    base = Baseline(src, "bench_engine") if src else None
    best = {"omaha": (0.0, 0.0), "pokerkit": (0.0, 0.0)}
    today = 0.0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # PokerKit warns about folds when a check is free
            for k in range(rounds):
                for name, play in (("omaha", play_omaha), ("pokerkit", pokerkit)):
                    gc.collect()
                    rate(play, seconds / 5, seed=1000 + k)      # warm-up
                    speed, per = rate(play, seconds, seed=k)
                    if speed > best[name][0]:
                        best[name] = (speed, per)
                if base is not None:
                    base.run("omaha", seconds / 5)
                    today = max(today, base.run("omaha", seconds))
    finally:
        if base is not None:
            base.close()
    return {"omaha_hands_per_s": best["omaha"][0], "pokerkit_hands_per_s": best["pokerkit"][0],
            "ratio": best["omaha"][0] / best["pokerkit"][0],
            "today_hands_per_s": today,
            "omaha_decisions_per_hand": best["omaha"][1],
            "pokerkit_decisions_per_hand": best["pokerkit"][1]}


def live_hand_bytes(count: int = 10_000) -> float:
    """Bytes per hand in progress: ``count`` hands, each a few random decisions in."""
    rng = random.Random(1)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        hands = []
        for _ in range(count):
            hand = Hand(CONFIG, stacks=STACKS, button=1, rng=rng)
            for _ in range(rng.randint(0, 6)):
                if hand.is_over:
                    break
                hand.check_or_call()
            hands.append(hand)
        used = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(hands) == count
    return used / count


@pytest.mark.benchmark(group="engine: one random 6-max PLO hi/lo hand")
def test_omaha_random_hand(benchmark: Any) -> None:
    rng = random.Random(3)
    assert benchmark(play_omaha, rng) > 0


@pytest.mark.benchmark(group="engine: one random 6-max PLO hi/lo hand")
def test_pokerkit_random_hand(benchmark: Any) -> None:
    play = pokerkit_factory()
    rng = random.Random(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert benchmark.pedantic(play, args=(rng,), rounds=30, iterations=1) > 0


def test_target_400x_pokerkit() -> None:
    result = compare(rounds=5, seconds=1.0)
    print(result)
    assert result["ratio"] >= 400, result


def test_target_3kb_per_live_hand() -> None:
    assert live_hand_bytes() <= 3 * 1024


if __name__ == "__main__":
    result = compare(rounds=5)
    memory = live_hand_bytes()
    print(f"omaha    {result['omaha_hands_per_s']:10.0f} hands/s "
          f"({result['omaha_decisions_per_hand']:.1f} decisions/hand)")
    print(f"PokerKit {result['pokerkit_hands_per_s']:10.1f} hands/s "
          f"({result['pokerkit_decisions_per_hand']:.1f} decisions/hand)")
    print(f"ratio    {result['ratio']:10.0f}x")
    if result["today_hands_per_s"]:
        print(f"today    {result['today_hands_per_s']:10.0f} hands/s (OMAHA_BASELINE_SRC): "
              f"new/today {result['omaha_hands_per_s'] / result['today_hands_per_s']:.2f}x")
    print(f"memory   {memory:10.0f} bytes per live hand (10,000 hands, tracemalloc)")
