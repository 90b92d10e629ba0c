"""The ``solver`` bot (issue 29): it solves heads-up PLO and PLO8 rivers and plays from the
solution, sends only legal actions (B1-B8), plays the strength bot everywhere else, is
deterministic with a seeded generator, and runs in ``omaha play``."""

from __future__ import annotations

import copy
import json
import random

import pytest

from omaha.cli import main
from omaha.config import GameConfig, variant_of
from omaha.game.bots import (
    Decision,
    Opponent,
    RandomBot,
    Situation,
    StrengthBot,
    act,
    play_session,
    situation,
)
from omaha.game.hand import Hand
from omaha.game.userbots import load_bot
from omaha.solver import Spot, solve
from omaha.solver.bot import (
    SolverBot,
    decision_for,
    estimate_range,
    nearest_node,
    river_spot,
)
from omahacore.actions import LegalActions

# small ranges and a capped solve: a river decision takes milliseconds
FAST = {"hands": 120, "max_iterations": 4}


def _river_hands(variant: str, players: int, seed: int) -> Hand | None:
    """A hand played by random bots up to a river decision, or None if it ended first."""
    rng = random.Random(seed)
    config = GameConfig.pot_limit(small_blind=1, big_blind=2, variant=variant)
    stacks = {seat: rng.choice((40, 200, 600)) for seat in range(1, players + 1)}
    hand = Hand(config, stacks=stacks, button=rng.randint(1, players), rng=rng)
    passive = RandomBot()
    while not hand.is_over and len(hand.board) < 5:
        act(hand, passive.decide(situation(hand), rng))
    return None if hand.is_over else hand


def _assert_legal(hand: Hand, decision: Decision) -> None:
    legal = hand.legal_actions()
    if decision.kind == "fold":
        assert legal.can_call           # never folds for free
    elif decision.kind == "check":
        assert legal.can_check
    elif decision.kind == "call":
        assert legal.can_call
    else:
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        assert decision.amount is not None
        assert legal.min_raise_to <= decision.amount <= legal.max_raise_to
    act(copy.copy(hand), decision)      # and the engine takes it


@pytest.mark.parametrize("variant", ["plo", "plo8"])
def test_only_legal_actions_on_heads_up_rivers(variant: str) -> None:
    solved = 0
    for seed in range(400):
        hand = _river_hands(variant, 2 + seed % 2, seed)
        if hand is None:
            continue
        bot = SolverBot(**FAST)
        rng = random.Random(seed)
        while not hand.is_over:           # the bot plays every seat through the river
            s = situation(hand)
            if river_spot(s) is not None:
                solved += 1
            decision = bot.decide(s, rng)
            _assert_legal(hand, decision)
            act(hand, decision)
    assert solved >= 150, solved         # most of these went through the solver


def test_the_situation_shows_who_is_left_and_position() -> None:
    config = GameConfig.pot_limit(small_blind=1, big_blind=2)
    hand = Hand(config, stacks={1: 100, 2: 100, 3: 100}, button=1, rng=random.Random(1))
    hand.fold()                           # seat 1 (the button) folds preflop
    hand.call()                           # the small blind completes
    s = situation(hand)                   # the big blind
    assert s.legal.seat == 3 and s.stack == 98 and s.bet == 2
    assert s.opponents == (Opponent(2, 98, 2, False),)   # seat 2 acts first after the flop
    hand.check()
    s = situation(hand)                   # the flop: seat 2 acts first
    assert s.legal.seat == 2 and s.opponents == (Opponent(3, 98, 0, True),)


def test_river_spot_reads_the_pot_the_stack_and_the_position() -> None:
    legal = LegalActions(seat=2, can_fold=True, can_check=False, call_amount=30,
                         min_raise_to=60, max_raise_to=150)
    board = (0, 5, 10, 20, 51)
    s = Situation(legal, (1, 2, 3, 4), board, 130, variant_of("plo"), stack=170, bet=0,
                  opponents=(Opponent(1, 70, 30, False),))
    spot = river_spot(s)
    assert spot is not None
    assert (spot.pot, spot.stack, spot.player, spot.commits) == (100, 100, 1, (0, 30))
    for other in (Situation(legal, (1, 2, 3, 4), board[:4], 130, variant_of("plo")),
                  Situation(legal, (1, 2, 3, 4), board, 130, variant_of("plo"), stack=170,
                            opponents=(Opponent(1, 70, 30, False),) * 2),
                  Situation(legal, (1, 2, 3, 4, 6), board, 130, variant_of("plo5"),
                            stack=170, opponents=(Opponent(1, 70, 30, False),)),
                  Situation(legal, (1, 2, 3, 4), board, 130, variant_of("plo"))):
        assert river_spot(other) is None  # not a heads-up Omaha river: no solve


def _strength_situations() -> list[Situation]:
    """Situations the bot does not solve: every street multiway, and flops heads-up."""
    found = []
    for seed in range(60):
        rng = random.Random(seed)
        players = 2 + seed % 3
        config = GameConfig.pot_limit(small_blind=1, big_blind=2,
                                      variant=("plo", "plo8", "plo5")[seed % 3])
        hand = Hand(config, stacks=dict.fromkeys(range(1, players + 1), 200),
                    button=1, rng=rng)
        while not hand.is_over:
            s = situation(hand)
            if river_spot(s) is None:
                found.append(s)
            act(hand, RandomBot().decide(s, rng))
    return found


def test_it_plays_the_strength_bot_off_the_river_and_multiway() -> None:
    situations = _strength_situations()
    assert len(situations) > 300
    assert any(len(s.opponents) > 1 and len(s.board) == 5 for s in situations)
    bot, strength = SolverBot(**FAST), StrengthBot()
    for i, s in enumerate(situations):
        assert bot.decide(s, random.Random(i)) == strength.decide(s, random.Random(i))


def test_it_is_deterministic_with_a_seeded_generator() -> None:
    config = GameConfig.pot_limit(small_blind=1, big_blind=2, variant="plo8")
    runs = [play_session(config, [SolverBot(**FAST), StrengthBot()], hands=40, stack=200,
                         seed=11) for _ in range(2)]
    assert runs[0].net == runs[1].net and runs[0].samples == runs[1].samples
    hand = next(h for seed in range(50) if (h := _river_hands("plo", 2, seed)) is not None)
    s = situation(hand)
    decisions = {SolverBot(**FAST).decide(s, random.Random(5)) for _ in range(3)}
    assert len(decisions) == 1


def _solved() -> tuple[Spot, object]:
    spot = Spot("Ah Kd 7c 5s 2h", "AA**:$ds", "KK**:$ds", pot=100, stack=300,
                bets="50%,pot", raises="pot", max_raises=2)
    return spot, solve(spot, target="5%", max_iterations=5)


def test_actual_bets_map_to_the_nearest_tree_action() -> None:
    _, solution = _solved()
    assert nearest_node(solution, 0, (0, 0)).history == ()                 # first to act
    assert nearest_node(solution, 1, (0, 0)).history == ("check",)
    assert nearest_node(solution, 1, (0, 70)).history == ("bet 50",)       # 70 is nearer 50
    assert nearest_node(solution, 1, (0, 80)).history == ("bet 100",)      # 80 nearer 100
    assert nearest_node(solution, 0, (0, 40)).history == ("check", "bet 50")
    raised = nearest_node(solution, 0, (50, 190))                           # facing a raise
    assert raised.history[-1].startswith("raise") and raised.player == 0
    assert raised.commits[1] > raised.commits[0]


def test_tree_actions_become_legal_table_actions() -> None:
    facing = LegalActions(seat=1, can_fold=True, can_check=False, call_amount=50,
                          min_raise_to=100, max_raise_to=200)
    free = LegalActions(seat=1, can_fold=False, can_check=True, call_amount=0,
                        min_raise_to=2, max_raise_to=20)
    capped = LegalActions(seat=1, can_fold=True, can_check=False, call_amount=5,
                          min_raise_to=None, max_raise_to=None)
    plo = variant_of("plo")

    def decide(label: str, legal: LegalActions) -> Decision:
        return decision_for(label, Situation(legal, (0, 1, 2, 3), (), 100, plo))

    assert decide("raise 150", facing) == Decision("raise", 150)
    assert decide("raise 80", facing) == Decision("raise", 100)        # up to the minimum
    assert decide("raise 250", facing) == Decision("raise", 200)       # down to the cap
    assert decide("allin 300", facing) == Decision("raise", 200)
    assert decide("fold", facing) == Decision("fold")
    assert decide("call", facing) == Decision("call")
    assert decide("fold", free) == Decision("check")                   # never fold for free
    assert decide("bet 10", free) == Decision("raise", 10)
    assert decide("raise 300", capped) == Decision("call")             # no raise left


def test_the_range_estimate_keeps_the_stronger_share() -> None:
    from omaha.analysis.evaluation import evaluate_high

    board = (48, 44, 21, 13, 2)
    rng = random.Random(2)
    kept = estimate_range(board, variant_of("plo"), rng, hands=400, keep=0.25)
    everything = estimate_range(board, variant_of("plo"), random.Random(2), hands=400, keep=1)
    assert 0.2 * len(everything) <= len(kept) <= 0.3 * len(everything)
    assert set(kept) <= set(everything)
    from omaha.cards import parse_cards

    def strength(hand: str) -> int:
        return evaluate_high(parse_cards(hand), board)

    weakest_kept = min(strength(h) for h in kept)
    assert all(strength(h) <= weakest_kept for h in set(everything) - set(kept))
    assert not any(set(parse_cards(h)) & set(board) for h in everything)


def test_omaha_play_runs_the_solver_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert load_bot("solver").name == "solver"
    code = main(["play", "--bots", "solver,strength", "--players", "2", "--hands", "12",
                 "--seed", "3", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["hands"] == 12
    assert [seat["bot"] for seat in out["seats"]] == ["solver", "strength"]
    assert sum(seat["net"] for seat in out["seats"]) == 0


def test_an_arena_client_sees_the_same_situation_as_the_table() -> None:
    """The arena client builds the bot's situation from the seat's view (who is left, the
    stacks and bets, the position), so the solver bot solves over the arena too."""
    from omaha.arena.client import decide

    seen: list[Situation] = []

    class Recorder:
        name = "recorder"

        def decide(self, s: Situation, rng: random.Random) -> Decision:
            seen.append(s)
            return Decision("call") if s.legal.can_call else Decision("check")

    checked = 0
    for seed in range(30):
        hand = _river_hands("plo8", 2 + seed % 3, seed)
        if hand is None:
            continue
        s = situation(hand)
        seen.clear()
        decide(Recorder(), hand.view(s.legal.seat).to_dict(), hand.config.variant,
               random.Random(0))
        assert seen == [s]
        checked += 1
    assert checked >= 10
