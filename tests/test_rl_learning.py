"""A learner that needs only NumPy learns on the env (issue 23): the linear softmax policy of
``examples/linear_policy.py`` (REINFORCE with a baseline, the action mask applied) trains a few
thousand heads-up PLO hands against the built-in random bot, and ``omaha.rl.evaluate`` in
duplicate finds it beats a uniformly random legal policy by more than both 95% intervals
together. Everything is seeded: the same numbers every run."""

from __future__ import annotations

import importlib.util
import pathlib
import sys
import time

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from omaha.rl import evaluate

EXAMPLE = pathlib.Path(__file__).parent.parent / "examples" / "linear_policy.py"


def load_example():
    spec = importlib.util.spec_from_file_location("linear_policy", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["linear_policy"] = module          # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_numpy_learner_beats_a_random_policy_by_more_than_the_intervals():
    example = load_example()
    started = time.perf_counter()
    training = example.train(hands=5000, seed=0, opponent="random")
    learned = evaluate(training.policy, opponents="random", hands=4000, seed=1)
    rand = evaluate(example.random_policy(1), opponents="random", hands=4000, seed=1)
    seconds = time.perf_counter() - started
    print(f"learner {learned}; random {rand}; {seconds:.1f} s")
    assert len(training.rewards) == 5000 and np.isfinite(training.policy.weights).all()
    assert learned.hands == rand.hands == 4000 and learned.duplicate
    assert learned.masked_actions == 0                # the mask is applied: never an illegal move
    assert learned.ci95 is not None and rand.ci95 is not None
    assert learned.bb_per_100 - rand.bb_per_100 > learned.ci95 + rand.ci95
    assert learned.low > 0                           # and it wins, its whole interval above 0


def test_training_is_seeded():
    example = load_example()
    first = example.train(hands=300, seed=4)
    again = example.train(hands=300, seed=4)
    other = example.train(hands=300, seed=5)
    assert first.rewards == again.rewards
    assert np.array_equal(first.policy.weights, again.policy.weights)
    assert first.rewards != other.rewards


def test_the_policy_draws_only_legal_actions():
    example = load_example()
    policy = example.LinearPolicy(observation_size=3, actions=4)
    policy.bias[:] = [5.0, 0.0, 9.0, 1.0]
    obs = {"observation": np.array([0.0, 2.0, 10.0], np.float32),
           "action_mask": np.array([1, 1, 0, 1], np.int8)}
    p = policy.probabilities(obs)
    assert p[2] == 0 and p.sum() == pytest.approx(1.0) and policy(obs) == 0
    rng = np.random.default_rng(0)
    assert {policy.sample(obs, rng) for _ in range(200)} <= {0, 1, 3}
    draw = example.random_policy(0)
    assert {draw(obs) for _ in range(200)} == {0, 1, 3}


def test_the_learning_curve_checkpoints_evaluate_the_policy_as_it_trains():
    example = load_example()
    training = example.train(hands=200, seed=2, checkpoints=(0, 100, 200), checkpoint_hands=20)
    assert [hands for hands, _ in training.curve] == [0, 100, 200]
    assert all(result.hands == 20 and result.duplicate for _, result in training.curve)


def test_the_example_plots_its_learning_curve(tmp_path):
    pytest.importorskip("matplotlib")
    example = load_example()
    training = example.train(hands=100, seed=2, checkpoints=(0, 50, 100), checkpoint_hands=10)
    path = tmp_path / "curve.png"
    baseline = evaluate(example.random_policy(0), opponents="random", hands=10, seed=2)
    example.plot_learning_curve(training.curve, str(path), title="test", baseline=baseline)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_maskable_ppo_example_parses():
    import ast

    source = (EXAMPLE.parent / "train_maskable_ppo.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import | ast.ImportFrom)
                for alias in (node.names if isinstance(node, ast.Import)
                              else [ast.alias(node.module or "")])}
    assert {"sb3_contrib", "torch", "omaha", "linear_policy"} <= imported
