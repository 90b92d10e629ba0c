"""omaha.rl.evaluate (issue 23; the module omaha.rl.evaluation): a policy's bb/100 with a 95% interval, scored exactly as
``omaha play`` scores bot matches (the same session code), duplicate, seeded, and strict about
its arguments; a masked action is played as a fold."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from omaha.cli import main
from omaha.errors import ConfigError, ConfigTypeError, IllegalActionError
from omaha.game.bots import RandomBot, StrengthBot
from omaha.rl import evaluate  # the function, before its module
from omaha.rl.evaluation import Evaluation


def calls_down(obs):
    """Check or call, always."""
    return 1


def play_json(capsys, *argv: str) -> dict:
    assert main(["play", "--json", "--no-progress", *argv]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("options", "argv"), [
    ({"hands": 300, "seed": 5}, ["-n", "300", "--seed", "5", "--duplicate"]),
    ({"hands": 301, "seed": 1, "duplicate": False}, ["-n", "301", "--seed", "1"]),
    ({"hands": 301, "seed": 2, "players": 3, "game": "plo8"},
     ["-n", "301", "--seed", "2", "--duplicate", "-p", "3", "--variant", "plo8"]),
    ({"hands": 200, "seed": 4, "game": "FO/8"},
     ["-n", "200", "--seed", "4", "--duplicate", "--variant", "FO/8"]),
])
def test_bots_score_exactly_as_omaha_play_scores_them(capsys, options, argv):
    # the same bots, seed and table: the same hands, the same figures, interval included
    players = options.get("players", 2)
    result = evaluate("strength", opponents="random", **options)
    bots = ",".join(["strength"] + ["random"] * (players - 1))
    summary = play_json(capsys, "--bots", bots, "-p", str(players), *argv)
    assert result.hands == summary["hands"]
    assert [s.net for s in result.seats] == [s["net"] for s in summary["seats"]]
    assert [s.bot for s in result.seats] == [s["bot"] for s in summary["seats"]]
    assert round(result.bb_per_100, 2) == summary["seats"][0]["bb_per_100"]
    assert result.ci95 is not None and round(result.ci95, 2) == summary["seats"][0]["ci95"]
    assert [round(s.ci95, 2) for s in result.seats] == [s["ci95"] for s in summary["seats"]]


def test_a_seed_replays_the_same_result_and_another_seed_does_not():
    first = evaluate(calls_down, opponents="random", hands=200, seed=11)
    assert first == evaluate(calls_down, opponents="random", hands=200, seed=11)
    assert first != evaluate(calls_down, opponents="random", hands=200, seed=12)
    assert first.hands == 200 and first.samples == 100 and first.duplicate
    assert first.masked_actions == 0


def test_duplicate_cancels_the_luck_of_the_deal_between_equal_policies():
    # every deal is played from both seats: two call-down players break exactly even
    for players in (2, 3):
        result = evaluate(calls_down, opponents=calls_down, hands=60, seed=3, players=players)
        assert result.bb_per_100 == 0.0 and result.ci95 == 0.0
        assert all(seat.net == 0 for seat in result.seats)
    unpaired = evaluate(calls_down, opponents=calls_down, hands=60, seed=3, duplicate=False)
    assert unpaired.ci95 is not None and unpaired.ci95 > 0 and unpaired.samples == 60


def test_duplicate_rounds_hands_up_to_whole_sets():
    result = evaluate(calls_down, opponents="random", hands=7, seed=1, players=3)
    assert result.hands == 9 and result.samples == 3
    assert sum(seat.net for seat in result.seats) == 0
    assert [seat.bot for seat in result.seats] == ["policy", "random", "random"]


def _first_masked(obs):
    masked = np.flatnonzero(obs["action_mask"] == 0)
    return int(masked[0]) if masked.size else None


def test_a_masked_action_is_played_as_a_fold_and_counted():
    def masked_when_it_can(obs):
        choice = _first_masked(obs)
        return 1 if choice is None else choice

    def folds_there(obs):
        return 1 if _first_masked(obs) is None else 0

    for game in ("PO", "NO", "FO/8"):
        masked = evaluate(masked_when_it_can, opponents="strength", hands=100, seed=9, game=game)
        folded = evaluate(folds_there, opponents="strength", hands=100, seed=9, game=game)
        assert masked.masked_actions > 0
        assert masked.seats == folded.seats   # never worth more than folding: the same


def test_an_answer_outside_the_action_space_is_refused_naming_the_policy():
    for bad in (6, -1, 2.0, float("nan"), True, "1", np.array([1, 2]), None):
        with pytest.raises(IllegalActionError, match="policy returned .* action space"):
            evaluate(lambda obs, bad=bad: bad, hands=2, seed=0)
    with pytest.raises(IllegalActionError, match=r"opponents\[1\] returned"):
        evaluate(calls_down, opponents=["random", lambda obs: 99], players=3, hands=3, seed=0)


class _Model:
    """A stand-in for an sb3 model: predict(obs, ..., deterministic) -> (action, state)."""

    def __init__(self, masks: bool) -> None:
        self.calls: list[dict] = []
        self.masks = masks

    def predict(self, observation, state=None, episode_start=None, deterministic=False,
                **kwargs):
        self.calls.append({"deterministic": deterministic, **kwargs})
        return np.array(1), state


class _MaskableModel(_Model):
    def predict(self, observation, state=None, episode_start=None, deterministic=False,
                action_masks=None):
        assert action_masks is not None and action_masks.dtype == bool
        assert (action_masks == (observation["action_mask"] == 1)).all()
        return super().predict(observation, state, episode_start, deterministic,
                               action_masks=action_masks)


def test_models_with_predict_are_evaluated_as_their_callable_would_be():
    expected = evaluate(calls_down, opponents="random", hands=100, seed=2)
    plain, maskable = _Model(masks=False), _MaskableModel(masks=True)
    assert evaluate(plain, opponents="random", hands=100, seed=2) == expected
    assert evaluate(maskable, opponents="random", hands=100, seed=2) == expected
    assert plain.calls and all(call == {"deterministic": True} for call in plain.calls)
    assert maskable.calls and all(set(call) == {"deterministic", "action_masks"}
                                  for call in maskable.calls)
    evaluate(plain, hands=4, seed=2, deterministic=False)
    assert plain.calls[-1]["deterministic"] is False
    # a one-item array (a vectorised predict) counts as its item
    assert evaluate(lambda obs: np.array([1]), opponents="random", hands=100,
                    seed=2) == expected


def test_the_policy_sees_the_observations_of_the_gym_env():
    from omaha.rl import OmahaGymEnv

    seen = []

    def recording(obs):
        seen.append(obs)
        return 1

    evaluate(recording, opponents="random", hands=40, seed=4, players=3, game="PO/8")
    space = OmahaGymEnv(game="PO/8", players=3).observation_space
    assert len(seen) > 40
    for obs in seen:
        assert set(obs) == {"observation", "action_mask"}
        assert space.contains(obs)
        assert obs["observation"][:52].sum() == 4   # its own hole cards, nobody else's
        assert obs["action_mask"][1] == 1


def test_opponents_may_be_names_bots_callables_or_one_per_seat():
    by_name = evaluate(calls_down, opponents="strength", hands=60, seed=6, players=3)
    by_object = evaluate(calls_down, opponents=StrengthBot(), hands=60, seed=6, players=3)
    by_list = evaluate(calls_down, opponents=["strength", StrengthBot()], hands=60, seed=6,
                       players=3)
    assert by_name == by_object == by_list
    mixed = evaluate(calls_down, opponents=[RandomBot(), calls_down], hands=60, seed=6,
                     players=3)
    assert [seat.bot for seat in mixed.seats] == ["policy", "random", "opponent"]
    assert evaluate(calls_down, hands=10, seed=6).seats[1].bot == "strength"   # the default


def test_the_solver_bot_is_taken_by_name_as_the_command_line_takes_it():
    """Every built-in name (omaha.game.userbots.built_in_names), the solver bot's included,
    names the same bot here as in ``omaha play --bots``."""
    from omaha.solver.bot import SolverBot

    by_name = evaluate(calls_down, opponents="solver", hands=40, seed=29, game="PO",
                       players=2)
    by_object = evaluate(calls_down, opponents=SolverBot(), hands=40, seed=29, game="PO",
                         players=2)
    assert by_name == by_object and by_name.seats[1].bot == "solver"


def test_the_result_is_a_small_frozen_record():
    result = evaluate(calls_down, opponents="random", hands=100, seed=8)
    assert isinstance(result, Evaluation)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.bb_per_100 = 0.0  # type: ignore[misc]
    assert result.ci95 is not None
    assert result.low == pytest.approx(result.bb_per_100 - result.ci95)
    assert result.high == pytest.approx(result.bb_per_100 + result.ci95)
    assert "bb/100 over 100 hands (duplicate)" in str(result)
    one = evaluate(calls_down, opponents="random", hands=1, seed=8, duplicate=False)
    assert one.ci95 is None and one.low == one.high == one.bb_per_100


def test_it_is_omaha_rl_evaluate():
    import sys

    import omaha.rl

    assert omaha.rl.evaluate is evaluate is sys.modules["omaha.rl.evaluation"].evaluate


def test_omaha_rl_evaluate_is_the_function_whatever_was_imported_first():
    import subprocess
    import sys

    code = ("import omaha.rl.evaluation, omaha.rl; from omaha.rl import evaluate; "
            "assert callable(omaha.rl.evaluate) and callable(evaluate)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_evaluator_needs_neither_gymnasium_nor_pettingzoo():
    import subprocess
    import sys

    code = ("import sys; from omaha.rl.evaluation import evaluate; "
            "assert 'gymnasium' not in sys.modules and 'pettingzoo' not in sys.modules; "
            "print(evaluate(lambda obs: 1, opponents='random', hands=10, seed=1))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout
    assert "bb/100 over 10 hands" in out


@pytest.mark.parametrize(("kwargs", "error", "words"), [
    ({"hands": 0}, ConfigError, "hands must be at least 1"),
    ({"hands": 1.5}, ConfigTypeError, "hands must be an integer"),
    ({"hands": True}, ConfigTypeError, "hands must be an integer"),
    ({"hands": 10**12}, ConfigError, "MAX_SIMULATED_HANDS"),
    ({"seed": -1}, ConfigError, "seed must be at least 0"),
    ({"seed": 1.5}, ConfigTypeError, "seed must be an integer"),
    ({"seed": "3"}, ConfigTypeError, "seed must be an integer"),
    ({"duplicate": 1}, ConfigTypeError, "duplicate must be True or False"),
    ({"deterministic": None}, ConfigTypeError, "deterministic must be True or False"),
    ({"players": 11}, ConfigError, "players must be at most"),
    ({"players": 2.0}, ConfigTypeError, "players must be an integer"),
    ({"game": "XX"}, ConfigError, "XX"),
    ({"stack": 1}, ConfigError, "stack must be at least"),
    ({"blinds": (1,)}, ConfigError, "blinds must be a pair"),
    ({"config": "PO"}, ConfigError, "config must be a GameConfig"),
    ({"actions": (0.5,)}, ConfigError, "actions must be an ActionSet"),
    ({"opponents": "nobody"}, ConfigError, "opponents: unknown bot 'nobody'"),
    ({"opponents": 42}, ConfigTypeError, "opponents must be a callable"),
    ({"opponents": RandomBot}, ConfigTypeError, "opponents must be a policy.*instance"),
    ({"opponents": ["random", "random"]}, ConfigError, "a list of 1 .*got a list of 2"),
    ({"opponents": ["random", 7], "players": 3}, ConfigTypeError, r"opponents\[1\] must be"),
])
def test_bad_arguments_are_refused_by_name(kwargs, error, words):
    with pytest.raises(error, match=words):
        evaluate(calls_down, **{"hands": 4, **kwargs})


@pytest.mark.parametrize(("policy", "error", "words"), [
    ("nobody", ConfigError, "policy: unknown bot 'nobody'"),
    (42, ConfigTypeError, "policy must be a callable"),
    (None, ConfigTypeError, "policy must be a callable"),
    (StrengthBot, ConfigTypeError, "policy must be a policy.*instance"),
])
def test_a_bad_policy_is_refused_by_name(policy, error, words):
    with pytest.raises(error, match=words):
        evaluate(policy, hands=4)
