"""Stud speed (issue 26): random-play 6-max seven-card stud hi/lo and razz beside PokerKit,
``omaha play --variant FR --players 6 --bots random`` beside PokerKit's random-play loop, and
the seven-card batch evaluator (high, eight-or-better low, razz) beside Omaha's.

Both engines play the random policy of :mod:`bench_engine` through their public APIs in the
same run: at each decision, with probability 0.15 fold when facing a bet, with probability
0.20 more bet, raise or complete (the bring-in completes then, else posts) to the minimum or
the maximum with equal chance, else check or call. The size is drawn by one more
``rng.random() < 0.5`` in both players (as :mod:`bench_engine` draws its sizes from
``rng.random()``); ``--harness choice`` draws it by ``rng.choice`` as before, in both, for
comparison: the same policy, only the harness's own cost differs. Every hand starts from six stacks of 200 with ante 1, bring-in 1 and bets 2/4; dealing,
showdown and awarding are automatic in both. Each engine is asked the way its API offers:
PokerKit's ``State`` its ``status`` and ``can_*`` queries before each decision; a ``StudHand``
its ``legal_actions()`` once, then each action's return value, which is the next
``legal_actions()`` (None once the hand is over) -- the same answers ``is_over`` and
``legal_actions()`` give, so the same decisions from the same random draws, one call fewer. Rounds alternate between the two (each after a
garbage collection and a short warm-up); each round gives a ratio, and the median ratio is
the figure. Targets: at least 500x PokerKit's hands per CPU second in both games; the CLI at
least 150x PokerKit's loop on the CLI's own game (its default stakes: bets 2/4, bring-in 1, no
ante, stacks 400), both timed by the wall clock as the CLI reports it.

Run ``python benchmarks/bench_stud.py`` for the side-by-side tables (``--json`` for the
figures as JSON, ``--rounds N``), or ``python -m pytest benchmarks/bench_stud.py`` for
pytest-benchmark timings and the targets.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import random
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from omaha.analysis.evaluation import (
    evaluate_best_batch,
    evaluate_best_low_batch,
    evaluate_high_batch,
    evaluate_hilo_batch,
    evaluate_low_batch,
    evaluate_razz_batch,
)
from omaha.game.stud import StudConfig, StudHand
from omaha import LegalActions

FOLD, RAISE = 0.15, 0.35
STACKS = [200] * 6
GAMES = {"F7S/8": "FixedLimitSevenCardStudHighLowSplitEightOrBetter", "FR": "FixedLimitRazz"}
CONFIGS = {code: StudConfig(variant=code, ante=1, bring_in=1, small_bet=2) for code in GAMES}


def omaha_player(code: str, harness: str = "trimmed") -> Callable[[random.Random], int]:
    config = CONFIGS[code]

    def play(rng: random.Random) -> int:
        hand = StudHand(config, STACKS)
        legal: LegalActions | None = hand.legal_actions()
        decisions = 0
        while legal is not None:   # each action answers the next legal_actions(), None at the end
            r = rng.random()
            if r < FOLD and legal.call_amount and legal.can_fold:
                legal = hand.fold()
            elif r < RAISE and legal.min_raise_to is not None:
                legal = hand.bet_or_raise(legal.min_raise_to if rng.random() < 0.5
                                          else legal.max_raise_to)
            else:
                legal = hand.check_or_call()
            decisions += 1
        return decisions

    def play_old(rng: random.Random) -> int:   # the size drawn by rng.choice (before 0.5 draws)
        hand = StudHand(config, STACKS)
        legal: LegalActions | None = hand.legal_actions()
        decisions = 0
        while legal is not None:
            r = rng.random()
            if r < FOLD and legal.call_amount and legal.can_fold:
                legal = hand.fold()
            elif r < RAISE and legal.min_raise_to is not None:
                legal = hand.bet_or_raise(rng.choice((legal.min_raise_to, legal.max_raise_to)))
            else:
                legal = hand.check_or_call()
            decisions += 1
        return decisions

    return play if harness == "trimmed" else play_old


def pokerkit_player(code: str, ante: int = 1, stacks: tuple[int, ...] = tuple(STACKS),
                    harness: str = "trimmed") -> Callable[[random.Random], int]:
    """The same policy on a PokerKit state: ``ante``, bring-in 1, bets 2/4, ``stacks``."""
    pk = pytest.importorskip("pokerkit") if __name__ != "__main__" else __import__("pokerkit")
    game = getattr(pk, GAMES[code])
    automations = (
        pk.Automation.ANTE_POSTING, pk.Automation.BET_COLLECTION, pk.Automation.CARD_BURNING,
        pk.Automation.HOLE_DEALING, pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pk.Automation.HAND_KILLING, pk.Automation.CHIPS_PUSHING, pk.Automation.CHIPS_PULLING,
    )

    def play(rng: random.Random) -> int:
        state = game.create_state(automations, True, ante, 1, 2, 4, stacks, len(stacks),
                                  mode=pk.Mode.CASH_GAME)
        decisions = 0
        while state.status:
            r = rng.random()
            if state.can_post_bring_in() and not (r < RAISE and state.can_complete_bet_or_raise_to()):
                state.post_bring_in()
            elif r < FOLD and state.checking_or_calling_amount and state.can_fold():
                state.fold()
            elif r < RAISE and state.can_complete_bet_or_raise_to():
                if old:
                    state.complete_bet_or_raise_to(rng.choice((
                        state.min_completion_betting_or_raising_to_amount,
                        state.max_completion_betting_or_raising_to_amount)))
                else:
                    state.complete_bet_or_raise_to(
                        state.min_completion_betting_or_raising_to_amount if rng.random() < 0.5
                        else state.max_completion_betting_or_raising_to_amount)
            else:
                state.check_or_call()
            decisions += 1
        return decisions

    old = harness != "trimmed"
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


def measure(play: Callable[[random.Random], int], seconds: float,
            seed: int) -> tuple[float, float]:
    """``rate`` after a garbage collection and a short warm-up, so neither engine pays for
    the objects or cold caches the other one left behind."""
    gc.collect()
    rate(play, seconds / 5, seed=1000 + seed)
    return rate(play, seconds, seed)


def compare(code: str, rounds: int = 5, seconds: float = 1.0,
            harness: str = "trimmed") -> dict[str, Any]:
    """Alternating rounds of both engines on ``code``: each round's hands per CPU second of
    each (``seconds`` of ours, three times that of PokerKit's, so it plays a few hundred
    hands) and their ratio; the medians (and each engine's best round). ``harness``
    "choice" draws the sizes by ``rng.choice`` as before (both engines)."""
    ours, theirs = omaha_player(code, harness), pokerkit_player(code, harness=harness)
    runs: dict[str, list[float]] = {"omaha": [], "pokerkit": [], "ratio": []}
    per = {"omaha": 0.0, "pokerkit": 0.0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # PokerKit warns about folds when a check is free
        for k in range(rounds):
            for name, play, spent in (("omaha", ours, seconds), ("pokerkit", theirs, 3 * seconds)):
                speed, per[name] = measure(play, spent, seed=k)   # PokerKit: enough hands
                runs[name].append(speed)
            runs["ratio"].append(runs["omaha"][-1] / runs["pokerkit"][-1])
    return {"rounds": rounds,
            "omaha_hands_per_s": statistics.median(runs["omaha"]),
            "pokerkit_hands_per_s": statistics.median(runs["pokerkit"]),
            "ratio": statistics.median(runs["ratio"]),
            "ratios": [round(r) for r in runs["ratio"]],
            "omaha_best": max(runs["omaha"]), "pokerkit_best": max(runs["pokerkit"]),
            "omaha_decisions_per_hand": per["omaha"],
            "pokerkit_decisions_per_hand": per["pokerkit"]}


CLI = ["play", "--variant", "FR", "--players", "6", "--bots", "random", "--json"]


def cli_rate(hands: int) -> dict[str, Any]:
    """``omaha play --variant FR --players 6 --bots random --hands N --json``, run in this
    process; its JSON summary (hands, seconds, hands_per_second: wall clock)."""
    from omaha.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*CLI, "--hands", str(hands)]) == 0
    summary: dict[str, Any] = json.loads(out.getvalue())
    return summary


def wall_rate(play: Callable[[random.Random], int], seconds: float, seed: int) -> float:
    """Hands per wall-clock second over about ``seconds``, as the CLI times itself."""
    rng = random.Random(seed)
    hands = 0
    start = time.perf_counter()
    while True:
        for _ in range(5):
            play(rng)
        hands += 5
        spent = time.perf_counter() - start
        if spent >= seconds:
            return hands / spent


def compare_cli(rounds: int = 5, hands: int = 20_000, seconds: float = 2.0) -> dict[str, Any]:
    """Alternating rounds of the CLI's session and PokerKit's loop on the CLI's game (razz,
    6 players, bets 2/4, bring-in 1, no ante, stacks 400): each round's ratio, the median."""
    summary = cli_rate(hands)
    config = (summary["ante"], summary["bring_in"], summary["small_bet"], summary["big_bet"])
    assert config == (0, 1, 2, 4), summary   # PokerKit plays the same game
    theirs = pokerkit_player("FR", ante=0, stacks=(summary["stack"],) * 6)
    runs: dict[str, list[float]] = {"omaha": [], "pokerkit": [], "ratio": []}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in range(rounds):
            gc.collect()
            summary = cli_rate(hands)
            runs["omaha"].append(summary["hands_per_second"])
            gc.collect()
            wall_rate(theirs, seconds / 5, seed=1000 + k)
            runs["pokerkit"].append(wall_rate(theirs, seconds, seed=k))
            runs["ratio"].append(runs["omaha"][-1] / runs["pokerkit"][-1])
    return {"rounds": rounds, "cli_hands": summary["hands"], "cli_seconds": summary["seconds"],
            "omaha_hands_per_s": statistics.median(runs["omaha"]),
            "pokerkit_hands_per_s": statistics.median(runs["pokerkit"]),
            "ratio": statistics.median(runs["ratio"]),
            "ratios": [round(r) for r in runs["ratio"]]}


def evaluator_rates(count: int = 400_000, rounds: int = 5) -> dict[str, float]:
    """Millions of hands per second of the batch evaluator, median of ``rounds`` alternating
    rounds: seven-card high (best five of seven), eight-or-better low (any five of seven) and
    razz, beside Omaha hi/lo, high and low (4 hole cards, 5 board cards), on the same cards."""
    rng = np.random.default_rng(26)
    cards = np.argsort(rng.random((count, 52)), axis=1)[:, :9].astype(np.uint8)
    seven = np.ascontiguousarray(cards[:, :7])
    holes, boards = np.ascontiguousarray(cards[:, :4]), np.ascontiguousarray(cards[:, 4:9])
    calls: dict[str, Callable[[], object]] = {
        "seven_high": lambda: evaluate_best_batch(seven),
        "seven_low8": lambda: evaluate_best_low_batch(seven),
        "seven_razz": lambda: evaluate_razz_batch(seven),
        "omaha_hilo": lambda: evaluate_hilo_batch(holes, boards),
        "omaha_high": lambda: evaluate_high_batch(holes, boards),
        "omaha_low8": lambda: evaluate_low_batch(holes, boards),
    }
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
    return {name: count / statistics.median(spent) / 1e6 for name, spent in times.items()}


@pytest.mark.benchmark(group="stud: one random 6-max hand")
@pytest.mark.parametrize("code", sorted(GAMES))
def test_omaha_random_stud_hand(benchmark: Any, code: str) -> None:
    play, rng = omaha_player(code), random.Random(3)
    assert benchmark.pedantic(play, args=(rng,), rounds=200, iterations=1) > 0


@pytest.mark.parametrize("code", sorted(GAMES))
def test_target_500x_pokerkit(code: str) -> None:
    result = compare(code, rounds=5, seconds=1.0)
    print(code, result)
    assert result["ratio"] >= 500, result


def test_target_cli_150x_pokerkit() -> None:
    result = compare_cli(rounds=5)
    print(result)
    assert result["ratio"] >= 150, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--harness", choices=("trimmed", "choice"), default="trimmed",
                        help="how both players draw a bet size: one rng.random() (trimmed) or "
                        "rng.choice, as before")
    parser.add_argument("--games-only", action="store_true",
                        help="only the two games (no CLI, no evaluator)")
    args = parser.parse_args()
    games = {code: compare(code, rounds=args.rounds, harness=args.harness) for code in GAMES}
    if args.games_only:
        for code, r in games.items():
            print(f"{code:6} ({args.harness}) omaha {r['omaha_hands_per_s']:8.0f}, PokerKit "
                  f"{r['pokerkit_hands_per_s']:6.1f}, ratio {r['ratio']:.0f}x "
                  f"(rounds {r['ratios']})")
        return
    cli = compare_cli(rounds=args.rounds)
    evaluator = evaluator_rates(rounds=args.rounds)
    if args.json:
        print(json.dumps({"games": games, "cli": cli, "evaluator_m_hands_per_s": evaluator}))
        return
    print(f"random play, 6-max, hands per CPU second (median of {args.rounds} rounds):")
    for code, r in games.items():
        print(f"  {code:6} omaha {r['omaha_hands_per_s']:8.0f} "
              f"({r['omaha_decisions_per_hand']:.1f} decisions/hand), PokerKit "
              f"{r['pokerkit_hands_per_s']:6.1f} ({r['pokerkit_decisions_per_hand']:.1f}), "
              f"ratio {r['ratio']:.0f}x (rounds {r['ratios']})")
    print(f"  {' '.join(['omaha', *CLI])}: {cli['omaha_hands_per_s']:.0f} hands/s (wall), "
          f"PokerKit {cli['pokerkit_hands_per_s']:.1f}, ratio {cli['ratio']:.0f}x "
          f"(rounds {cli['ratios']})")
    print("batch evaluator, M hands/s:")
    for name, rate_m in evaluator.items():
        print(f"  {name:11} {rate_m:7.1f}")


if __name__ == "__main__":
    main()
