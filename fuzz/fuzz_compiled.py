"""Fuzz every compiled entry point (and its thin Python wrapper) with hostile input.

    python fuzz/fuzz_compiled.py --seconds 60                 # atheris if installed
    python fuzz/fuzz_compiled.py --seconds 60 --engine hypothesis
    python fuzz/fuzz_compiled.py --seconds 5 --engine random --seed 1

Run it from the repository root with ``PYTHONPATH=src`` (the in-place build) or against an
installed package. A finding is a crash of the process (the run exits with a signal) or an
exception that is not an ``OmahaError``: the script prints the target and the input and
exits 1. ``--engine`` chooses the driver: ``atheris`` (coverage-guided, the default when it
imports), ``hypothesis`` (a large example budget per round, shrinking failures) or
``random`` (plain ``random.Random``, fastest per example).
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import random
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import hostile
import numpy as np
from hostile import Source

import omaha
from omaha import cards as omaha_cards
from omaha.analysis import evaluation
from omahacore import batch, cards, evaluator, pots
from omahacore.errors import OmahaError


def card(src: Source) -> Any:
    return hostile.scalar(src) if src.int(0, 3) == 0 else src.int(0, 51)


def cards_of(src: Source, n: int) -> Any:
    if src.int(0, 5) == 0:
        return " ".join(hostile.CARD_TEXT[src.int(0, len(hostile.CARD_TEXT) - 1)]
                        for _ in range(n))
    return hostile.sequence(src, n, valid=lambda: src.int(0, 51))


def flag(src: Source) -> Any:
    return bool(src.int(0, 1)) if src.int(0, 4) else hostile.scalar(src)


def strength(src: Source) -> Any:
    return src.int(-2, 7470) if src.int(0, 2) else hostile.scalar(src)


def amount(src: Source) -> int:
    return src.int(0, 400)


def players(src: Source) -> int:
    return src.int(1, 9) if src.int(0, 9) else src.int(0, 70)


# ---------------------------------------------------------------- the targets


def t_parse(src: Source) -> Any:
    k = src.int(0, 6)
    if k == 0:
        return cards.parse_card(card(src))
    if k == 1:
        return cards.parse_cards(cards_of(src, src.int(0, 8)))
    if k == 2:
        return cards.format_card(card(src), symbols=flag(src))
    if k == 3:
        return cards.format_cards(cards_of(src, 4), hostile.scalar(src) if src.int(0, 5) == 0
                                  else " ", symbols=flag(src))
    if k == 4:
        return omaha_cards.Card(card(src))
    if k == 5:
        return omaha_cards.parse_cards(cards_of(src, 5))
    return omaha_cards.format_cards(cards_of(src, 3), symbols=flag(src))


def t_evaluate(src: Source) -> Any:
    fn = [evaluator.evaluate_high, evaluator.evaluate_low, evaluator.evaluate_hilo,
          evaluator.best_hand, evaluation.explain][src.int(0, 4)]
    return fn(cards_of(src, src.int(4, 6)), cards_of(src, src.int(3, 5)))


def t_five(src: Source) -> Any:
    fn = [evaluator.evaluate_five, evaluator.evaluate_five_low, evaluator.evaluate_best,
          evaluator.evaluate_best_low][src.int(0, 3)]
    return fn(cards_of(src, src.int(5, 7)))


def t_strength(src: Source) -> Any:
    k = src.int(0, 5)
    value = strength(src)
    if k == 0:
        return evaluator.high_key(value)
    if k == 1:
        return evaluator.low_ranks(value)
    if k == 2:
        return evaluation.describe(value, low=flag(src))
    if k == 3:
        return evaluation.describe_low(value)
    if k == 4:
        return evaluation.category(value)
    return omaha.describe(value)


def t_batch(src: Source) -> Any:
    n = src.int(0, 6)
    k = src.int(0, 4)
    if k == 4:
        return batch.evaluate_five_batch(hostile.array(src, (n, 5)) if src.int(0, 4)
                                         else hostile.sequence(src, 5))
    fn = [batch.evaluate_high_batch, batch.evaluate_low_batch, batch.evaluate_hilo_batch][k % 3]
    if src.int(0, 3) == 0:   # tables: (tables, players, cards) with one board per table
        holes = hostile.array(src, (n, src.int(0, 4), src.int(3, 7)))
    else:
        holes = hostile.array(src, (n, src.int(4, 6)))
    boards = hostile.array(src, (n, src.int(3, 5)) if src.int(0, 3) else (5,))
    if src.int(0, 6) == 0:
        holes = hostile.sequence(src, 4)
    if src.int(0, 6) == 0:
        boards = hostile.sequence(src, 5)
    return fn(holes, boards)


def pot_args(src: Source) -> tuple[int, Any, Any]:
    n = players(src)
    contributions = (hostile.sequence(src, n, valid=lambda: amount(src)) if src.int(0, 2) == 0
                     else [amount(src) for _ in range(n)])
    folded = (hostile.sequence(src, n, valid=lambda: src.int(0, 1) == 1) if src.int(0, 2) == 0
              else [src.int(0, 3) == 0 for _ in range(n)])
    return n, contributions, folded


def t_pots(src: Source) -> Any:
    n, contributions, folded = pot_args(src)
    strengths = (hostile.sequence(src, n, valid=lambda: src.int(0, 20)) if src.int(0, 3) == 0
                 else [src.int(0, 20) for _ in range(n)])
    low = None if src.int(0, 1) else [src.int(0, 5) for _ in range(n)]
    if low is not None and src.int(0, 3) == 0:
        low = hostile.sequence(src, n)
    kwargs: dict[str, Any] = {}
    if src.int(0, 2) == 0:
        kwargs["order"] = (list(reversed(range(n))) if src.int(0, 1)
                           else hostile.sequence(src, n, valid=lambda: src.int(0, n)))
    if src.int(0, 2) == 0:
        kwargs["rake"] = src.int(0, 20) if src.int(0, 2) else hostile.scalar(src)
    if src.int(0, 2) == 0:
        kwargs["dead"] = src.int(0, 20) if src.int(0, 2) else hostile.scalar(src)
    if src.int(0, 3) == 0:
        return pots.build_pots(contributions, folded, **({"dead": kwargs["dead"]}
                                                         if "dead" in kwargs else {}))
    settlement = pots.settle(contributions, folded, strengths, low, **kwargs)
    assert len(settlement.pots) >= 0 and len(settlement.payouts) >= 1   # build them lazily too
    return pots.Settlement.from_dict(settlement.to_dict())


def t_pot_objects(src: Source) -> Any:
    k = src.int(0, 3)
    if k == 0:
        return pots.PotLayer(amount=strength(src), eligible=hostile.sequence(src, 3))
    if k == 1:
        return pots.PotAward(amount=strength(src), rake=strength(src),
                             eligible=hostile.sequence(src, 2),
                             high_winners=hostile.sequence(src, 1),
                             high_shares=hostile.sequence(src, 1))
    if k == 2:
        return pots.Settlement(pots=hostile.sequence(src, 1), payouts=hostile.sequence(src, 2),
                               returned=hostile.sequence(src, 2), rake=strength(src),
                               total=strength(src))
    data: Any = {"amount": strength(src), "eligible": hostile.sequence(src, 2)}
    if src.int(0, 2) == 0:
        data = hostile.scalar(src)
    return pots.PotLayer.from_dict(data)


def t_settle_batch(src: Source) -> Any:
    m, n = src.int(0, 4), src.int(0, 6)
    args = [hostile.array(src, (m, n)) for _ in range(4)]
    kwargs: dict[str, Any] = {}
    if src.int(0, 1):
        args[0] = hostile.array(src, (m, n)).astype(np.int64)
        args[1] = np.zeros((m, n), np.bool_)
        args[2] = hostile.array(src, (m, n)).astype(np.int32)
    if src.int(0, 2) == 0:
        kwargs["order"] = hostile.array(src, (n,))
    if src.int(0, 2) == 0:
        kwargs["rake"] = hostile.array(src, (m,))
    if src.int(0, 2) == 0:
        kwargs["dead"] = hostile.array(src, (m,))
    return pots.settle_batch(args[0], args[1], args[2], args[3] if src.int(0, 1) else None,
                             **kwargs)


ENGINE_CONFIGS = [
    omaha.GameConfig.pot_limit(small_blind=1, big_blind=2, variant="PO/8"),
    omaha.GameConfig.no_limit(small_blind=1, big_blind=2, ante=1),
    omaha.GameConfig.fixed_limit(small_bet=4, variant="FO/8"),
    omaha.GameConfig.no_limit(small_blind=0, big_blind=2, big_blind_ante=2),
]
ENGINE_ACTIONS = ("fold", "check", "call", "check_or_call", "bet_or_raise", "all_in",
                  "protect_all_in", "timeout", "show", "muck", "undo", "copy", "legal_actions")


def t_engine(src: Source) -> Any:
    """The compiled hand engine (omahacore.engine through omaha.Hand): actions with hostile
    seats and amounts; every refusal is an OmahaError and the chips are always all there."""
    config = ENGINE_CONFIGS[src.int(0, len(ENGINE_CONFIGS) - 1)]
    count = src.int(2, 6)
    stacks = {seat: src.int(1, 300) for seat in range(1, count + 1)}
    hand = omaha.Hand(config, stacks=stacks, button=src.int(1, count),
                      rng=random.Random(src.int(0, 1 << 30)),
                      manual_showdown=bool(src.int(0, 1)))
    total = sum(stacks.values())
    for _ in range(src.int(0, 40)):
        name = ENGINE_ACTIONS[src.int(0, len(ENGINE_ACTIONS) - 1)]
        kwargs: dict[str, Any] = {}
        if name not in ("undo", "copy", "legal_actions") and src.int(0, 3) == 0:
            kwargs["seat"] = hostile.scalar(src) if src.int(0, 1) else src.int(-1, count + 1)
        args: tuple[Any, ...] = ()
        if name == "bet_or_raise":
            args = (hostile.scalar(src) if src.int(0, 3) == 0 else src.int(-5, 700),)
        if name == "timeout" and src.int(0, 3) == 0:
            kwargs["policy"] = hostile.scalar(src)
        try:
            result = getattr(hand, name)(*args, **kwargs)
        except OmahaError:
            continue
        if name == "copy":
            hand = result
        in_play = sum(hand.stacks.values()) + (0 if hand.is_over else hand.pot_total)
        assert in_play == total, (name, in_play, total)
    return hand


def t_vector(src: Source) -> Any:
    """The compiled batched kernel (omahacore.vector through omaha.rl.VectorTables): steps
    with hostile action arrays and table numbers; every refusal is an OmahaError, a refused
    step changes nothing, and every finished hand's results sum to zero."""
    from omaha.rl import VectorTables

    config = ENGINE_CONFIGS[src.int(0, len(ENGINE_CONFIGS) - 1)]
    tables = src.int(1, 5)
    vec = VectorTables(tables, config=config, players=src.int(2, 6),
                       stack=src.int(10, 200))
    obs, mask, _ = vec.reset(seed=src.int(0, 1 << 30))
    for _ in range(src.int(0, 30)):
        if src.int(0, 4) == 0:
            before = obs.copy()
            try:
                vec.step(hostile.array(src, (tables,)) if src.int(0, 2)
                         else hostile.scalar(src))
            except OmahaError:
                assert (obs == before).all()
                continue
        legal = [int(np.flatnonzero(row)[src.int(0, int(row.sum()) - 1)]) for row in mask]
        obs, mask, _, rewards, done = vec.step(np.array(legal, np.int64))
        assert abs(float(rewards[done].sum())) < 1e-3
    table = hostile.scalar(src) if src.int(0, 2) == 0 else src.int(-1, tables)
    return vec.last_history(table)


TARGETS: list[Callable[[Source], Any]] = [t_parse, t_evaluate, t_five, t_strength, t_batch,
                                          t_pots, t_pot_objects, t_settle_batch, t_engine,
                                          t_vector]


def run_one(src: Source) -> None:
    """One example; an exception that is not an OmahaError propagates (a finding)."""
    target = TARGETS[src.int(0, len(TARGETS) - 1)]
    try:
        target(src)
    except OmahaError:
        pass
    except BaseException as exc:
        raise AssertionError(f"{target.__name__} raised {type(exc).__name__}, "
                             f"not an OmahaError") from exc


# ---------------------------------------------------------------- drivers


def run_random(seconds: float, seed: int) -> int:
    faulthandler.enable()
    rng = random.Random(seed)
    deadline, count = time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        example_seed = rng.getrandbits(64)
        faulthandler.dump_traceback_later(30, exit=True)   # a hang is a finding too
        try:
            run_one(hostile.RandomSource(random.Random(example_seed)))
        except AssertionError:
            traceback.print_exc()
            print(f"FINDING: replay with --engine random --replay {example_seed}")
            return 1
        count += 1
    faulthandler.cancel_dump_traceback_later()
    print(f"random: {count} examples in {seconds:.0f} s, no finding")
    return 0


def run_hypothesis(seconds: float, seed: int) -> int:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hseed
    from hypothesis import strategies as st

    count = [0]

    @settings(max_examples=2000, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def fuzz(data: Any) -> None:
        count[0] += 1
        run_one(hostile.HypothesisSource(data))

    deadline, rounds = time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        try:
            hseed(seed + rounds)(fuzz)()
        except Exception:  # noqa: BLE001 - any failure is the finding to report
            traceback.print_exc()
            print("FINDING (shrunk example above)")
            return 1
        rounds += 1
    print(f"hypothesis: {count[0]} examples in {rounds} rounds, no finding")
    return 0


def run_atheris(seconds: float, seed: int) -> int:
    import atheris

    def one_input(data: bytes) -> None:
        run_one(hostile.BytesSource(data))

    atheris.instrument_all()   # Python-level coverage (hostile.py, the omaha wrappers) guides it
    atheris.Setup([sys.argv[0], f"-max_total_time={max(1, int(seconds))}", f"-seed={seed}",
                   "-rss_limit_mb=4096", "-max_len=512"], one_input)
    atheris.Fuzz()   # exits the process: 0 when the time runs out, non-zero on a finding
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--engine", choices=["atheris", "hypothesis", "random"], default=None)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--replay", type=int, default=None,
                        help="rerun one --engine random example by its seed")
    args = parser.parse_args(argv)
    if args.replay is not None:
        run_one(hostile.RandomSource(random.Random(args.replay)))
        return 0
    engine = args.engine
    if engine is None:
        try:
            import atheris  # noqa: F401
            engine = "atheris"
        except ImportError:
            engine = "hypothesis"
    print(f"fuzzing the compiled entry points with {engine} for {args.seconds:.0f} s, "
          f"seed {args.seed}", flush=True)
    if engine == "random":
        return run_random(args.seconds, args.seed)
    if engine == "hypothesis":
        return run_hypothesis(args.seconds, args.seed)
    return run_atheris(args.seconds, args.seed)


if __name__ == "__main__":
    sys.exit(main())
