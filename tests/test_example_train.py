"""The tiny training example runs end to end and learns the obvious (issue 15)."""

import importlib.util
import pathlib
import sys

import numpy as np
import pytest

pytest.importorskip("gymnasium")

EXAMPLE = pathlib.Path(__file__).parent.parent / "examples" / "train_tiny.py"


def load_example():
    spec = importlib.util.spec_from_file_location("train_tiny", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_tiny"] = module          # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def folds_to_any_bet(obs):
    """An opponent that folds whenever a bet is owed, else checks."""
    return 0 if obs["action_mask"][0] else 1


def test_reinforce_learns_to_raise_a_player_who_always_folds():
    example = load_example()
    result = example.train(episodes=300, seed=1, opponents=[folds_to_any_bet],
                           learning_rate=0.01)
    rewards = np.array(result.rewards)
    assert len(rewards) == 300 and np.isfinite(result.weights).all()
    assert set(np.unique(rewards)) <= {-0.5, 0.0, 1.0} | set(rewards[rewards > 1])
    assert (rewards[:50] == -0.5).any()             # at first it sometimes folds
    assert (rewards[-100:] == 1.0).mean() > 0.95    # then it raises and takes the blinds
    assert result.weights.any()


def test_training_for_a_time_budget_against_the_bots():
    example = load_example()
    result = example.train(seconds=0.3, seed=2)
    assert len(result.rewards) > 10 and all(np.isfinite(result.rewards))


def test_vectorised_selfplay_credits_finished_hands():
    spec = importlib.util.spec_from_file_location("selfplay_vector", EXAMPLE.parent / "selfplay_vector.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["selfplay_vector"] = module
    spec.loader.exec_module(module)
    result = module.selfplay(steps=40, tables=64, seed=3)
    assert result.decisions == 40 * 64 and result.hands > 64
    assert np.isfinite(result.weights).all() and result.weights.any()
    again = module.selfplay(steps=40, tables=64, seed=3)
    assert (again.weights == result.weights).all()       # seeded: the same run
