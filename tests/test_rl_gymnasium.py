"""Issue 23: the single-agent env is Gymnasium-native.

Registered ids (``omaha/PLO-v0``...) with the vector entry point named, the
``gymnasium.envs`` entry point installed, ``check_env`` silent (warnings as errors), finite
observation bounds that hold, ``action_masks()`` and ``info["action_mask"]`` as bool arrays,
``render_mode="ansi"``, opponents in every documented form, ``step()`` after the end a
warning and a no-op.
"""

import subprocess
import sys
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from omaha.errors import ConfigError, ConfigTypeError
from omaha.game.bots import RandomBot, StrengthBot
from omaha.rl import OmahaGymEnv, raw_env
from omaha.rl.registration import ENV_IDS, register_envs

REQUIRED = ["omaha/PLO-v0", "omaha/PLO8-v0", "omaha/NLHE-v0"]


def test_the_ids_are_registered_with_both_entry_points():
    register_envs()
    register_envs()                                          # idempotent, no warning
    for env_id in REQUIRED:
        assert env_id in ENV_IDS
    for env_id, game in ENV_IDS.items():
        spec = gymnasium.spec(env_id)
        assert spec.entry_point == "omaha.rl.single:OmahaGymEnv"
        assert spec.vector_entry_point == "omaha.rl.gym_vector:OmahaVectorEnv"
        assert spec.kwargs == {"game": game}


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_make_builds_each_game_and_passes_keywords(env_id):
    env = gymnasium.make(env_id, players=3, opponents="random", stack=300)
    obs, info = env.reset(seed=1)
    inner = env.unwrapped
    assert isinstance(inner, OmahaGymEnv) and inner.episode.players == 3
    assert inner.episode.stack == 300
    assert obs["observation"].shape == env.observation_space["observation"].shape
    assert info["action_mask"].dtype == np.bool_


def test_the_gymnasium_entry_point_is_installed_and_registers():
    """``pip install omaha-poker[rl]`` declares it (Gymnasium 0.26-0.29 load it on
    ``import gymnasium``); loading it as they do registers every id."""
    from importlib.metadata import entry_points

    points = [p for p in entry_points(group="gymnasium.envs") if p.name == "omaha"]
    assert len(points) == 1 and points[0].value == "omaha.rl.registration:register_envs"
    function = points[0].load()
    assert function is register_envs


@pytest.mark.parametrize("code", [
    # Gymnasium >= 1.0 (no plugin loading): the module:id form imports the registration
    "import gymnasium; e = gymnasium.make('omaha.rl.registration:omaha/PLO-v0')",
    # or omaha.rl imported after gymnasium registers the ids
    "import gymnasium, omaha.rl; e = gymnasium.make('omaha/NLHE-v0')",
])
def test_make_in_a_fresh_process(code):
    code += "; obs, info = e.reset(seed=0); print(type(e.unwrapped).__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.strip() == "OmahaGymEnv"


def test_import_omaha_rl_still_does_not_import_gymnasium():
    code = "import sys, omaha.rl; print('gymnasium' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("env_id", ["omaha/PLO-v0", "omaha/PLO8-v0", "omaha/NLHE-v0",
                                    "omaha/FLO8-v0", "omaha/PLO5-v0"])
def test_check_env_passes_with_no_warning(env_id):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(env_id, render_mode="ansi", players=3)
        check_env(env.unwrapped)


def test_check_env_on_a_directly_made_env_with_no_warning():
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(OmahaGymEnv(game="NO", players=6, render_mode="ansi"),
                  skip_render_check=True)


def test_observation_bounds_are_finite_and_hold():
    g = OmahaGymEnv(game="NO", players=4, opponents="random", stack=250)
    box = g.observation_space["observation"]
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
    assert box.high.max() == pytest.approx(4 * 250 / 2)      # all chips, in big blinds
    rng = np.random.default_rng(0)
    obs, _ = g.reset(seed=0)
    for _ in range(400):
        terminated = False
        while not terminated:
            assert g.observation_space.contains(obs)
            legal = np.flatnonzero(g.action_masks())
            action = int(legal[-1] if rng.random() < 0.3 else rng.choice(legal))  # all-ins too
            obs, _, terminated, _, _ = g.step(action)
        assert g.observation_space.contains(obs)
        obs, _ = g.reset()


def test_aec_observation_bounds_are_finite():
    e = raw_env(game="PO", players=3)
    box = e.observation_space("player_0")["observation"]
    assert np.isfinite(box.high).all() and box.high.max() == 300


def test_action_masks_and_info_mask_are_bool_and_agree():
    g = OmahaGymEnv(game="PO", players=3, opponents="random")
    obs, info = g.reset(seed=4)
    for _ in range(50):
        terminated = False
        while not terminated:
            mask = g.action_masks()
            assert mask.dtype == np.bool_ and info["action_mask"].dtype == np.bool_
            assert (mask == info["action_mask"]).all()
            assert (mask == obs["action_mask"].astype(bool)).all() and mask.any()
            obs, _, terminated, _, info = g.step(int(np.flatnonzero(mask)[0]))
        assert not g.action_masks().any() and not info["action_mask"].any()
        obs, info = g.reset()


def test_render_ansi_is_the_learners_view():
    g = OmahaGymEnv(game="PO", players=3, seat=1, render_mode="ansi")
    g.reset(seed=2)
    frame = g.render()
    assert isinstance(frame, str) and "view of player_1 (learner) (seat 2)" in frame
    hand = g.episode.hand
    assert "".join(str(c) for c in hand.hole_cards(2)) in frame
    assert OmahaGymEnv(players=2).render() is None             # no render mode: None


@pytest.mark.parametrize("opponents", [
    "random", "strength", "solver", RandomBot(), StrengthBot(raise_at=0.5), ["random", StrengthBot()],
    (lambda obs: 1, "random"), lambda obs: int(np.flatnonzero(obs["action_mask"])[-1])],
    ids=["name", "name2", "name3", "bot", "bot2", "list", "tuple", "callable"])
def test_opponents_in_every_documented_form(opponents):
    g = OmahaGymEnv(game="NO", players=3, opponents=opponents)
    obs, _ = g.reset(seed=5)
    for _ in range(20):
        terminated = False
        while not terminated:
            obs, _reward, terminated, _, _ = g.step(int(np.flatnonzero(obs["action_mask"])[0]))
        obs, _ = g.reset()


class FrozenModel:
    """A stand-in for a trained sb3-contrib MaskablePPO: predict(obs, action_masks=...)."""

    def __init__(self):
        self.calls = 0

    def predict(self, observation, action_masks=None, deterministic=False):
        self.calls += 1
        assert action_masks.dtype == np.bool_ and "observation" in observation
        return np.int64(np.flatnonzero(action_masks)[-1]), None


def test_a_model_with_predict_plays_for_self_play():
    model = FrozenModel()
    g = OmahaGymEnv(game="PO", players=2, opponents=model)
    g.reset(seed=1)
    for _ in range(10):
        terminated = False
        while not terminated:
            _, _, terminated, _, _ = g.step(1)
        g.reset()
    assert model.calls > 0


@pytest.mark.parametrize(("opponents", "error"), [
    ("nobody", ConfigError), (5, ConfigTypeError), ([None], ConfigTypeError),
    (["random"] * 3, ConfigError), ({"a": 1}, ConfigTypeError)], ids=repr)
def test_bad_opponents_are_refused(opponents, error):
    with pytest.raises(error):
        OmahaGymEnv(game="PO", players=3 if opponents != [None] else 2, opponents=opponents)


def test_step_after_the_end_warns_and_changes_nothing():
    g = OmahaGymEnv(game="PO", players=2)
    g.reset(seed=3)
    terminated = False
    while not terminated:
        obs, _reward, terminated, _, _ = g.step(0 if g.action_masks()[0] else 1)
    events = len(g.episode.hand.events)
    with pytest.warns(UserWarning, match="after the episode ended"):
        again, reward2, terminated2, truncated2, _info = g.step(1)
    assert len(g.episode.hand.events) == events and reward2 == 0.0 and terminated2
    assert not truncated2 and (again["observation"] == obs["observation"]).all()
    assert again["observation"] is not obs["observation"]
    g.reset()
    g.step(1)


@pytest.mark.parametrize("options", [5, "x", [1], (("a", 1),)], ids=repr)
def test_reset_options_of_the_wrong_type_are_refused_and_change_nothing(options):
    g = OmahaGymEnv(game="PO", players=2)
    obs, _ = g.reset(seed=1)
    with pytest.raises(ConfigTypeError, match="options must be None or a dict"):
        g.reset(options=options)
    assert (g._observe()["observation"] == obs["observation"]).all()
    e = raw_env(game="PO", players=2)
    e.reset(seed=1)
    before = e.observe(e.agent_selection)["observation"].tobytes()
    with pytest.raises(ConfigTypeError):
        e.reset(options=options)
    assert e.observe(e.agent_selection)["observation"].tobytes() == before
    g.reset(options={})
    e.reset(options={"anything": 1})      # a dict: no key is read
