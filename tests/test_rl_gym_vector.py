"""The Gymnasium VectorEnv on the compiled kernel (issue 23): spaces, autoreset, the reward
policy, bad actions, seeding across processes, agreement with the hand engine, no leaks.

Gymnasium's ``env_checker`` has no vector checker; :func:`check_vector_env` states the same
assertions for a ``VectorEnv``: the spaces contain every observation (dtype, shape, finite
bounds), the batch shapes and dtypes of rewards, terminations, truncations and the info
arrays, the autoreset semantics the env declares, and ``step`` after ``close`` raising.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from omaha import phh
from omaha.config import FIVE_CARD_OMAHA, HOLDEM, OMAHA_HILO, GameConfig
from omaha.errors import ConfigError, ConfigTypeError, IllegalActionError, IllegalActionTypeError
from omaha.game.hand import Hand
from omaha.rl.game import make_config
from omaha.rl.gym_vector import OmahaVectorEnv

NEXT, SAME = AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per table (argmax of noise where the mask is true)."""
    return ((rng.random(mask.shape) + 1.0) * mask).argmax(1)


def check_vector_env(envs: OmahaVectorEnv, steps: int = 200, seed: int = 0) -> int:
    """Gymnasium's env checks, for a vector env; returns how many hands ended."""
    n, size = envs.num_envs, envs.single_action_space.n   # type: ignore[attr-defined]
    assert isinstance(envs.single_observation_space, spaces.Box)
    assert isinstance(envs.single_action_space, spaces.Discrete)
    box = envs.single_observation_space
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
    assert box.dtype == np.float32
    assert envs.observation_space.shape == (n, *box.shape)
    assert isinstance(envs.action_space, spaces.MultiDiscrete)
    assert envs.action_space.shape == (n,)
    mode = envs.metadata["autoreset_mode"]
    assert isinstance(mode, AutoresetMode)
    obs, info = envs.reset(seed=seed)
    assert obs in envs.observation_space
    assert info["action_mask"].dtype == np.bool_ and info["action_mask"].shape == (n, size)
    assert (info["action_mask"] == envs.action_masks()).all()
    assert info["action_mask"].any(1).all()
    rng = np.random.default_rng(seed)
    last_terminated = np.zeros(n, np.bool_)
    last_mask = info["action_mask"]
    ended = 0
    for _ in range(steps):
        actions = random_legal(rng, last_mask)
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert obs.dtype == np.float32 and obs.shape == (n, box.shape[0])
        assert obs in envs.observation_space, "an observation outside the space"
        for row in obs:
            assert row in box
        assert reward.dtype == np.float64 and reward.shape == (n,)
        assert terminated.dtype == np.bool_ and terminated.shape == (n,)
        assert truncated.dtype == np.bool_ and not truncated.any()
        mask = info["action_mask"]
        assert mask.dtype == np.bool_ and mask.shape == (n, size) and mask.any(1).all()
        assert (mask == envs.action_masks()).all()
        assert info["illegal_action"].dtype == np.bool_ and not info["illegal_action"].any()
        assert np.isfinite(reward).all()
        if mode is NEXT:
            # the step after a terminal one resets that table: reward 0, not terminated
            assert not reward[last_terminated].any()
            assert not terminated[last_terminated].any()
            # at a terminal step the mask allows only check/call (its action is ignored)
            if terminated.any():
                assert (mask[terminated, 1]).all() and mask[terminated].sum(1).max() == 1
        else:
            assert (info["_final_obs"] == terminated).all()
            final = info["final_obs"][terminated]
            assert final.shape[1:] == box.shape and all(row in box for row in final)
        assert not reward[~terminated].any()   # a reward only when a hand ends
        last_terminated, last_mask = terminated, mask
        ended += int(terminated.sum())
    envs.close()
    with pytest.raises(gymnasium.error.ClosedEnvironmentError):
        envs.step(np.zeros(n, np.int64))
    with pytest.raises(gymnasium.error.ClosedEnvironmentError):
        envs.reset()
    return ended


@pytest.mark.parametrize("mode", [NEXT, SAME])
@pytest.mark.parametrize("options", [
    {"game": "NLHE"},
    {"game": "PO"},
    {"game": "PO/8", "players": 6, "stack": 60},
    {"game": "NLHE", "self_play": True},
    {"game": "FO/8", "players": 4, "self_play": True},
    {"config": GameConfig.no_limit(small_blind=1, big_blind=2, ante=1, big_blind_ante=2),
     "players": 3, "stack": 30},
    {"game": "PO", "players": 3, "seat": 2},
])
def test_vector_env_passes_the_vector_checks(options: dict[str, Any], mode: AutoresetMode) -> None:
    envs = OmahaVectorEnv(num_envs=16, autoreset_mode=mode, **options)
    assert check_vector_env(envs) > 50


def test_step_before_reset_and_the_declared_mode() -> None:
    envs = OmahaVectorEnv(num_envs=2)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert OmahaVectorEnv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    with pytest.raises(gymnasium.error.ResetNeeded):
        envs.step(np.zeros(2, np.int64))
    same = OmahaVectorEnv(num_envs=2, autoreset_mode="SameStep")
    assert same.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    for bad in ("Disabled", AutoresetMode.DISABLED, 1, None):
        with pytest.raises(ConfigError):
            OmahaVectorEnv(num_envs=2, autoreset_mode=bad)


def test_next_step_autoreset_ignores_the_action_and_deals() -> None:
    """Next-step: the step after the end ignores its action (even a masked one: not
    flagged) and returns the new hand's first observation with reward 0."""
    envs = OmahaVectorEnv(num_envs=8, game="NLHE")
    obs, info = envs.reset(seed=4)
    obs, reward, terminated, _, info = envs.step(np.zeros(8, np.int64))   # the SB folds
    assert terminated.all() and (reward == -0.5).all()
    assert obs[:, 112 + 5].all()               # the final state: the learner folded
    table = envs.tables
    before = [table.table_state(t)["deck"] for t in range(8)]
    obs, reward, terminated, _, info = envs.step(np.full(8, 5, np.int64))   # ignored
    assert not terminated.any() and not reward.any() and not info["illegal_action"].any()
    assert [table.table_state(t)["deck"] for t in range(8)] != before
    assert obs[:, 104].all()                   # preflop of the new hands
    assert (info["seat"] == 0).all()


def test_same_step_autoreset_returns_the_new_hand_and_the_final_observation() -> None:
    envs = OmahaVectorEnv(num_envs=8, game="NLHE", autoreset_mode=SAME)
    envs.reset(seed=4)
    obs, reward, terminated, _, info = envs.step(np.zeros(8, np.int64))   # the SB folds
    assert terminated.all() and (reward == -0.5).all() and info["_final_obs"].all()
    assert obs[:, 104].all()                                  # already the next hand
    assert info["final_obs"][:, 112 + 5].all()                # the final one: folded


@pytest.mark.parametrize("mode", [NEXT, SAME])
@pytest.mark.parametrize("self_play", [False, True])
def test_a_masked_action_is_a_fold_never_better(mode: AutoresetMode, self_play: bool) -> None:
    """The reward policy: over many random states, playing a masked action gives exactly
    what folding gives (same cards, same seed), flagged in info["illegal_action"]."""
    def run(masked: bool) -> tuple[list[bytes], list[list[float]], list[list[bool]]]:
        envs = OmahaVectorEnv(num_envs=32, game="NO", players=3, self_play=self_play,
                              autoreset_mode=mode)
        _, info = envs.reset(seed=9)
        rng = np.random.default_rng(2)
        trajectory, rewards, flags = [], [], []
        for k in range(120):
            mask = info["action_mask"]
            legal = random_legal(rng, mask)
            wrong = (~mask).argmax(1)   # the first masked action (0 where none)
            fold_now = (rng.random(32) < 0.2) & (~mask).any(1) & (mask.sum(1) > 1)
            choice = np.where(fold_now, wrong if masked else 0, legal)
            obs, reward, _terminated, _, info = envs.step(choice)
            trajectory.append(obs.tobytes())
            rewards.append(reward.tolist())
            flags.append(info["illegal_action"].tolist())
            if masked:
                assert (info["illegal_action"] == (fold_now & ~mask[np.arange(32), choice])
                        ).all()
        return trajectory, rewards, flags

    folded, masked = run(False), run(True)
    assert folded[0] == masked[0] and folded[1] == masked[1]   # exactly a fold's outcome
    assert sum(map(sum, masked[2])) > 50


BAD_ACTIONS: list[tuple[Any, type[Exception]]] = [
    (np.zeros(4, np.float64), IllegalActionTypeError),
    (np.full(4, np.nan), IllegalActionTypeError),
    (np.ones(4, np.bool_), IllegalActionTypeError),
    (np.zeros(3, np.int64), IllegalActionError),
    (np.zeros((4, 1), np.int64), IllegalActionError),
    (np.zeros((), np.int64), IllegalActionError),
    (np.array([0, 0, 0, 6]), IllegalActionError),
    (np.array([0, -1, 0, 0]), IllegalActionError),
    (np.array([0, 0, 0, 2**40]), IllegalActionError),
    (np.array([0, 0, 0, 2**64 - 1], np.uint64), IllegalActionError),
    ([0, 0, 0, 1.0], IllegalActionTypeError),
    ([0, 0, 0, True], IllegalActionTypeError),
    ([0, 0, 0], IllegalActionError),
    ([0, 0, 0, 7], IllegalActionError),
    ((0, 0, 0, float("nan")), IllegalActionTypeError),
    (None, IllegalActionTypeError),
    ("fold", IllegalActionTypeError),
    (0, IllegalActionTypeError),
    (1.5, IllegalActionTypeError),
]


@pytest.mark.parametrize(("bad", "error"), BAD_ACTIONS)
def test_actions_outside_the_space_raise_and_change_nothing(bad: Any,
                                                            error: type[Exception]) -> None:
    envs = OmahaVectorEnv(num_envs=4, game="NO")
    obs, _info = envs.reset(seed=3)
    states = [envs.tables.table_state(t) for t in range(4)]
    generator_state = envs.np_random.bit_generator.state
    with pytest.raises(error) as caught:
        envs.step(bad)
    assert "action space" in str(caught.value) and "actions" in str(caught.value)
    assert [envs.tables.table_state(t) for t in range(4)] == states
    assert envs.np_random.bit_generator.state == generator_state
    assert (envs._core.observation == obs).all()
    envs.step(np.ones(4, np.int64))   # still usable


def test_list_and_narrow_integer_actions_are_accepted() -> None:
    a, b, c = (OmahaVectorEnv(num_envs=4, game="NO") for _ in range(3))
    for envs in (a, b, c):
        envs.reset(seed=1)
    out = [a.step([1, 1, 1, 1])[0], b.step(np.ones(4, np.int8))[0],
           c.step(np.ones(8, np.int64)[::2])[0]]
    assert (out[0] == out[1]).all() and (out[0] == out[2]).all()


@pytest.mark.parametrize(("options", "error"), [
    ({"num_envs": 0}, ConfigError), ({"num_envs": 1.5}, ConfigTypeError),
    ({"players": 11}, ConfigError), ({"seat": 2}, ConfigError),
    ({"opponents": "strength"}, ConfigError), ({"opponents": 3}, ConfigTypeError),
    ({"opponents": ["random", "random"]}, ConfigError),
    ({"self_play": 1}, ConfigTypeError), ({"copy": None}, ConfigTypeError),
    ({"self_play": True, "opponents": lambda o, m: m.argmax(1)}, ConfigError),
    ({"render_mode": "human"}, ConfigError), ({"game": "XX"}, ConfigError),
    ({"stack": 2}, ConfigError), ({"illegal_reward": float("nan")}, ConfigError),
])
def test_bad_options_raise_typed_errors(options: dict[str, Any], error: type[Exception]) -> None:
    options = {"num_envs": 2, **options}
    with pytest.raises(error):
        OmahaVectorEnv(**options)


def test_reset_checks_its_arguments() -> None:
    envs = OmahaVectorEnv(num_envs=2)
    for seed, error in ((-1, ConfigError), (1.0, ConfigTypeError), (True, ConfigTypeError),
                        ("1", ConfigTypeError)):
        with pytest.raises(error):
            envs.reset(seed=seed)
    with pytest.raises(ConfigTypeError):
        envs.reset(options=[1])   # type: ignore[arg-type]


def test_make_vec_through_the_vector_entry_point() -> None:
    gymnasium.register("omaha-test/NLHE-v0", vector_entry_point=(
        "omaha.rl.gym_vector:OmahaVectorEnv"), kwargs={"game": "NLHE"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        envs = gymnasium.make_vec("omaha-test/NLHE-v0", num_envs=8)
        obs, _info = envs.reset(seed=0)
    assert isinstance(envs, OmahaVectorEnv) and obs.shape == (8, 126)
    assert envs.config.variant is HOLDEM
    from omaha.rl.registration import register_envs

    register_envs()   # the package's own ids (omaha.rl.registration)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plo = gymnasium.make_vec("omaha/PLO-v0", num_envs=4)
        nlhe = gymnasium.make_vec("omaha/NLHE-v0", num_envs=4, self_play=True)
    assert isinstance(plo, OmahaVectorEnv) and plo.num_envs == 4
    assert plo.config.variant.name == "Omaha High" and nlhe.config.variant is HOLDEM
    assert plo.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert plo.reset(seed=1)[0] in plo.observation_space


# --- seeding ------------------------------------------------------------------------------

def trajectory_digest(seed: int, self_play: bool, steps: int = 60, tables: int = 16,
                      reseed: bool = False) -> str:
    envs = OmahaVectorEnv(num_envs=tables, game="PO", players=3, self_play=self_play)
    digest = hashlib.sha256()
    for episode in range(2 if reseed else 1):
        obs, info = envs.reset(seed=seed if episode == 0 else None)
        digest.update(obs.tobytes())
        for k in range(steps):
            mask = info["action_mask"]
            actions = np.flatnonzero(mask[0])[k % int(mask[0].sum())] * np.ones(tables, np.int64)
            actions = np.where(mask[np.arange(tables), actions], actions, 1)
            obs, reward, terminated, _, info = envs.step(actions)
            digest.update(obs.tobytes() + reward.tobytes() + terminated.tobytes())
    return digest.hexdigest()


def test_seeded_runs_repeat_and_differ_by_seed() -> None:
    assert trajectory_digest(5, False) == trajectory_digest(5, False)
    assert trajectory_digest(5, False) != trajectory_digest(6, False)
    assert trajectory_digest(5, True) == trajectory_digest(5, True)
    # unseeded resets after a seeded one continue deterministically from it
    assert trajectory_digest(5, False, reseed=True) == trajectory_digest(5, False, reseed=True)


def test_the_same_seed_replays_in_a_new_process() -> None:
    code = ("import sys; sys.path.insert(0, {tests!r}); "
            "from test_rl_gym_vector import trajectory_digest as d; "
            "print(d(11, False, reseed=True), d(11, True))")
    env = {**os.environ, "PYTHONHASHSEED": "123"}
    out = subprocess.run([sys.executable, "-c", code.format(tests=os.path.dirname(__file__))],
                         capture_output=True, text=True, check=True, env=env).stdout.split()
    assert out == [trajectory_digest(11, False, reseed=True), trajectory_digest(11, True)]


def test_unseeded_first_resets_differ() -> None:
    a = OmahaVectorEnv(num_envs=8).reset()[0]
    b = OmahaVectorEnv(num_envs=8).reset()[0]
    assert (a != b).any()


# --- the hand engine agrees -----------------------------------------------------------------

ENGINE_CASES = [
    (make_config("nlh"), 2, None),
    (make_config("PO"), 2, 40),
    (make_config("PO/8"), 6, 30),
    (make_config("FO/8"), 4, 25),
    (GameConfig.fixed_limit(small_bet=2, variant=OMAHA_HILO, uncapped_heads_up=True), 2, 40),
    (GameConfig.fixed_limit(small_bet=2, variant=HOLDEM), 9, 50),
    (GameConfig.pot_limit(small_blind=2, big_blind=5, variant=FIVE_CARD_OMAHA), 5, 90),
    (GameConfig.no_limit(small_blind=1, big_blind=2, ante=1, big_blind_ante=2), 6, 25),
    (GameConfig.pot_limit(small_blind=1, big_blind=2, ante=1), 3, 30),
    (GameConfig.no_limit(small_blind=0, big_blind=2), 3, 20),   # a single blind
]


@pytest.mark.parametrize("mode", [NEXT, SAME])
@pytest.mark.parametrize("self_play", [False, True])
@pytest.mark.parametrize(("config", "players", "stack"), ENGINE_CASES)
def test_every_hand_replays_on_the_hand_engine(config: GameConfig, players: int,
                                               stack: int | None, self_play: bool,
                                               mode: AutoresetMode) -> None:
    """Each finished hand of every table, as PHH, replays through the engine
    (omaha.phh.replay_history) to the same stacks, and the learner's reward is its result."""
    tables = 8
    envs = OmahaVectorEnv(num_envs=tables, config=config, players=players, stack=stack,
                          self_play=self_play, autoreset_mode=mode)
    _, info = envs.reset(seed=players)
    rng = np.random.default_rng(players)
    big = config.big_blind
    checked = 0
    for _ in range(80):
        mask = info["action_mask"]
        acted = info["seat"].copy()
        masked_now = (rng.random(tables) < 0.05) & (~mask).any(1)
        actions = np.where(masked_now, (~mask).argmax(1), random_legal(rng, mask))
        _, reward, terminated, _, info = envs.step(actions)
        for t in np.flatnonzero(terminated):
            if not self_play and info["skipped_hands"][t]:
                continue   # same step: a hand skipped after it is the table's last one
            history = envs.tables.last_history(int(t))
            result = phh.replay_history(history)
            assert result.matches
            net = [0.0] * players   # by 0-based player (PHH lists them from the blinds)
            for seat_number, a, b in zip(history.metadata["seats"], history.finishing_stacks,
                                         history.starting_stacks):
                net[seat_number - 1] = (a - b) / big
            assert sum(a - b for a, b in zip(history.finishing_stacks,
                                             history.starting_stacks)) == 0   # zero-sum
            seat = int(acted[t]) if self_play else envs.seat
            assert reward[t] == pytest.approx(net[seat], abs=1e-5)
            if self_play:
                assert info["rewards"][t].tolist() == pytest.approx(net, abs=1e-5)
            checked += 1
    assert checked >= 10


# --- no leaks -----------------------------------------------------------------------------

@pytest.mark.parametrize("mode", [NEXT, SAME])
@pytest.mark.parametrize(("game", "players", "self_play"), [
    ("PO", 2, False), ("PO/8", 6, True), ("NLHE", 9, False), ("FO/8", 4, False)])
def test_observations_show_only_the_seats_own_cards(game: str, players: int, self_play: bool,
                                                    mode: AutoresetMode) -> None:
    """Over many hands, every observation (and final observation, and rendered frame) holds
    exactly the observer's own hole cards and the board dealt so far: no other seat's hidden
    card appears anywhere."""
    tables = 16
    envs = OmahaVectorEnv(num_envs=tables, game=game, players=players, self_play=self_play,
                          autoreset_mode=mode, render_mode="ansi")
    obs, info = envs.reset(seed=7)
    rng = np.random.default_rng(7)
    config, stack = envs.config, envs.stack
    hole_count = config.variant.hole_cards
    mirrors: dict[bytes, Hand] = {}
    hands = 0

    def check(row: np.ndarray, deck: bytes, button: int, seat: int) -> None:
        hand = mirrors.get(deck)
        if hand is None:
            hand = Hand(config, stacks=dict.fromkeys(range(1, players + 1), stack),
                        button=button + 1, deck=list(deck))
            mirrors[deck] = hand
        own = {int(c) for c in hand.hole_cards(seat + 1)}
        others = {int(c) for p in range(players) if p != seat
                  for c in hand.hole_cards(p + 1)}
        seen_holes = set(np.flatnonzero(row[:52]).tolist())
        seen_board = set(np.flatnonzero(row[52:104]).tolist())
        assert seen_holes == own and len(own) == hole_count
        assert not (seen_board & others) and not (seen_board & own)
        assert seen_board <= set(deck) and len(seen_board) in (0, 3, 4, 5)

    for _ in range(150):
        for t in range(tables):
            state = envs.tables.table_state(t)
            check(obs[t], state["deck"], state["button"], int(info["seat"][t]))
        frames = envs.render()
        assert frames is not None and len(frames) == tables
        actions = random_legal(rng, info["action_mask"])
        decks = [envs.tables.table_state(t)["deck"] for t in range(tables)]
        buttons = [envs.tables.table_state(t)["button"] for t in range(tables)]
        acted = info["seat"].copy()
        obs, _, terminated, _, info = envs.step(actions)
        hands += int(terminated.sum())
        if mode is SAME:
            for t in np.flatnonzero(terminated):
                seat = int(acted[t]) if self_play else envs.seat
                check(info["final_obs"][t], decks[t], buttons[t], seat)
        for key, value in info.items():   # masks, flags, seats, results: never cards
            assert key == "final_obs" or value.shape[-1] != obs.shape[1]
        if len(mirrors) > 2000:
            mirrors.clear()
    assert hands > 150


# --- opponents ----------------------------------------------------------------------------

def test_batch_callable_and_model_opponents() -> None:
    """A callable gets only the tables where its seat acts, each row that seat's own view
    (its cards, its mask); a model with predict is asked with action_masks=."""
    asked: list[int] = []

    def always_call(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.dtype == np.float32 and masks.dtype == np.bool_
        assert observations.shape[0] == masks.shape[0] > 0
        assert (observations[:, 112 + 3] == 1).all()   # the observer is active: its view
        asked.append(observations.shape[0])
        return np.ones(masks.shape[0], np.int64)

    class Model:
        def predict(self, observations: np.ndarray, action_masks: np.ndarray) -> Any:
            return action_masks.argmax(1), None   # fold when it can, else check

    envs = OmahaVectorEnv(num_envs=8, game="PO", players=3, opponents=[always_call, Model()])
    _, info = envs.reset(seed=1)
    for _ in range(30):
        _, _, _, _, info = envs.step(np.ones(8, np.int64))
    assert sum(asked) > 8
    assert (info["skipped_hands"] >= 0).all()

    def bad(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.full(masks.shape[0], 99)

    envs = OmahaVectorEnv(num_envs=4, game="PO", opponents=bad)
    with pytest.raises(IllegalActionError):
        for _ in range(10):
            envs.reset(seed=2)
            envs.step(np.ones(4, np.int64))


def test_random_opponents_are_seeded_and_skipped_hands_counted() -> None:
    """Heads-up the random opponent (the small blind every other hand) folds first often:
    those hands are dealt again and counted, never returned as episodes."""
    envs = OmahaVectorEnv(num_envs=64, game="NLHE")
    _, info = envs.reset(seed=0)
    skipped = int(info["skipped_hands"].sum())
    for _ in range(50):
        _, _, _, _, info = envs.step(np.ones(64, np.int64))
        skipped += int(info["skipped_hands"].sum())
        assert (info["seat"] == 0).all()
    assert skipped > 10


def test_copy_false_returns_the_kernels_arrays() -> None:
    envs = OmahaVectorEnv(num_envs=4, copy=False)
    obs, _info = envs.reset(seed=0)
    assert obs is envs._core.observation
    obs2, *_ = envs.step(np.ones(4, np.int64))
    assert obs2 is obs
    kept = OmahaVectorEnv(num_envs=4)
    first, _ = kept.reset(seed=0)
    second, *_ = kept.step(np.ones(4, np.int64))
    assert first is not second and not np.shares_memory(first, kept._core.observation)


@pytest.mark.parametrize("mode", [NEXT, SAME])
@pytest.mark.parametrize("self_play", [False, True])
def test_copies_are_the_callers_and_equal_the_kernels_rows(mode: AutoresetMode,
                                                           self_play: bool) -> None:
    """copy=True hands out each step's observations as a new array (written in place by
    the kernel): every earlier one stays as it was, and the run equals the copy=False run."""
    def run(copy: bool) -> list[np.ndarray]:
        envs = OmahaVectorEnv(num_envs=32, game="PO", players=3, self_play=self_play,
                              autoreset_mode=mode, copy=copy)
        obs, info = envs.reset(seed=8)
        rng = np.random.default_rng(8)
        kept, snapshots = [obs], [obs.copy()]
        for _ in range(60):
            obs, _, _, _, info = envs.step(random_legal(rng, info["action_mask"]))
            kept.append(obs)
            snapshots.append(obs.copy())
        if copy:
            assert all((a == b).all() for a, b in zip(kept, snapshots))
        return snapshots

    assert all((a == b).all() for a, b in zip(run(True), run(False)))
