"""Issue 23: the one reward policy — a masked action is played as a fold — as an invariant.

For random states reached by random legal play, every masked action, then the same
continuation (the same cards, the same seeded continuation policy, the same bots), ends
the hand exactly as folding there does: the same return for every seat (so never more
than folding for the actor), in big blinds, zero-sum. ``info`` reports it. A value that is
not an action of the space raises a typed error naming the space and changes nothing.
"""

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omaha.errors import IllegalActionError, IllegalActionTypeError, OmahaError
from omaha.rl import ActionSet, Episode, OmahaGymEnv, env, make_config, raw_env

GAMES = [("PO", 2), ("NO", 3), ("FO/8", 4), ("nlh", 6), ("PO/8", 5), ("plo5", 3)]


def legal_choice(mask, rng):
    legal = np.flatnonzero(np.asarray(mask))
    return int(legal[rng.randrange(len(legal))])


# --- the AEC env ---------------------------------------------------------------------------

def aec_prefix(e, seed, prefix_seed, length):
    """Reset with ``seed`` and play ``length`` random legal actions (fewer if the hand ends);
    the actions played."""
    rng = random.Random(prefix_seed)
    e.reset(seed=seed)
    played = []
    for _ in range(length):
        agent = e.agent_selection
        if e.terminations[agent]:
            break
        mask = e.observe(agent)["action_mask"]
        action = legal_choice(mask, rng)
        before = e.agent_selection
        e.step(action)
        played.append(action)
        if all(e.terminations.values()):
            e.agent_selection = before
            break
    return played


def aec_finish(e, continuation_seed):
    """Random legal play to the end of the hand; each agent's return."""
    rng = random.Random(continuation_seed)
    returns = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        returns[agent] += reward
        e.step(None if terminated or truncated else legal_choice(e.observe(agent)["action_mask"],
                                                                 rng))
    return returns


def aec_return(make, seed, prefix, first, continuation_seed):
    """Replay ``prefix`` from ``seed``, play ``first``, continue; (returns, info, actor)."""
    e = make()
    e.reset(seed=seed)
    for action in prefix:
        e.step(action)
    actor = e.agent_selection
    e.step(first)
    info = dict(e.infos[actor])
    return aec_finish(e, continuation_seed), info, actor


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32), prefix_seed=st.integers(0, 99),
       length=st.integers(0, 12), continuation_seed=st.integers(0, 99))
def test_aec_every_masked_action_returns_exactly_what_folding_returns(
        game, seed, prefix_seed, length, continuation_seed):
    name, players = game

    def make():
        return raw_env(game=name, players=players,
                       actions=ActionSet(fractions=(0.33, 0.5, 1.0, 2.0)))

    e = make()
    prefix = aec_prefix(e, seed, prefix_seed, length)
    if e.terminations[e.agent_selection]:
        return
    mask = e.observe(e.agent_selection)["action_mask"]
    folded, fold_info, actor = aec_return(make, seed, prefix, 0, continuation_seed)
    assert abs(sum(folded.values())) < 1e-9                            # zero-sum
    masked = np.flatnonzero(mask == 0).tolist()
    for action in masked:
        returns, info, _ = aec_return(make, seed, prefix, action, continuation_seed)
        assert returns == folded                      # exactly folding's outcome, every seat
        assert returns[actor] <= folded[actor]        # so never worth more than folding
        assert info == {"illegal_action": True, "action_played": 0, "action_requested": action}
    if mask[0]:
        assert fold_info == {}                        # a legal fold is no illegal action


def test_aec_masked_actions_fold_in_many_seeded_states():
    """The same invariant over a fixed list of seeds (no Hypothesis), every game."""
    checked = 0
    for name, players in GAMES:
        def make(name=name, players=players):
            return raw_env(game=name, players=players)

        for seed in range(12):
            e = make()
            prefix = aec_prefix(e, seed, seed, seed % 7)
            if e.terminations[e.agent_selection]:
                continue
            mask = e.observe(e.agent_selection)["action_mask"]
            folded, _, _ = aec_return(make, seed, prefix, 0, seed + 1)
            for action in np.flatnonzero(mask == 0).tolist():
                returns, info, _ = aec_return(make, seed, prefix, action, seed + 1)
                assert returns == folded and info["illegal_action"]
                checked += 1
    assert checked > 50


def test_a_masked_fold_where_a_check_was_free_is_a_fold():
    """Folding is masked where a check is free (it never gains); played anyway, it folds
    (B2 allows folding at any time) and info says it was illegal."""
    e = raw_env(game="PO", players=3)
    e.reset(seed=5)
    while True:   # call to the big blind, whose check is free
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        if not mask[0]:
            break
        e.step(1)
    seat = e.possible_agents.index(agent) + 1
    e.step(0)
    assert e.infos[agent]["illegal_action"] and e.episode.hand.state(seat) == "folded"


def test_rewards_are_big_blinds_zero_sum_per_hand():
    e = raw_env(game="NO", players=4, blinds=(5, 10), stack=700)
    rng = random.Random(3)
    for seed in range(30):
        e.reset(seed=seed)
        returns = aec_finish(e, rng.randrange(1000))
        net = e.episode.hand.result.net
        assert returns == {f"player_{s - 1}": net[s] / 10 for s in net}
        assert abs(sum(returns.values())) < 1e-9


# --- the single-agent env ------------------------------------------------------------------

def gym_prefix(g, seed, prefix_seed, length):
    rng = random.Random(prefix_seed)
    obs, _ = g.reset(seed=seed)
    played = []
    for _ in range(length):
        action = legal_choice(obs["action_mask"], rng)
        obs, _, terminated, _, _ = g.step(action)
        played.append(action)
        if terminated:
            return played, None
    return played, obs


def gym_return(make, seed, prefix, first, continuation_seed):
    g = make()
    g.reset(seed=seed)
    for action in prefix:
        g.step(action)
    obs, reward, terminated, _, info = g.step(first)
    first_info = info
    rng = random.Random(continuation_seed)
    total = reward
    while not terminated:
        obs, reward, terminated, _, info = g.step(legal_choice(obs["action_mask"], rng))
        total += reward
    hand = g.episode.hand
    return total, hand.result.net, first_info


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), opponents=st.sampled_from(["strength", "random"]),
       seed=st.integers(0, 2**31), prefix_seed=st.integers(0, 99), length=st.integers(0, 6),
       continuation_seed=st.integers(0, 99))
def test_gym_every_masked_action_returns_exactly_what_folding_returns(
        game, opponents, seed, prefix_seed, length, continuation_seed):
    name, players = game

    def make():
        return OmahaGymEnv(game=name, players=players, opponents=opponents,
                           seat=seed % players)

    g = make()
    prefix, obs = gym_prefix(g, seed, prefix_seed, length)
    if obs is None:
        return
    folded, folded_net, _ = gym_return(make, seed, prefix, 0, continuation_seed)
    assert sum(folded_net.values()) == 0
    for action in np.flatnonzero(obs["action_mask"] == 0).tolist():
        total, net, info = gym_return(make, seed, prefix, action, continuation_seed)
        assert total == folded and net == folded_net and total <= folded
        assert info["illegal_action"] is True and info["action_played"] == 0


def test_gym_reward_is_the_learners_net_in_big_blinds():
    g = OmahaGymEnv(game="PO/8", players=4, seat=2, opponents="random", blinds=(2, 4),
                    stack=600)
    rng = random.Random(0)
    g.reset(seed=1)
    for _ in range(40):
        obs, info = g.reset()
        terminated = False
        while not terminated:
            obs, reward, terminated, _, info = g.step(legal_choice(obs["action_mask"], rng))
            assert info["illegal_action"] is False
        assert reward == g.episode.hand.result.net[3] / 4


# --- values outside the action space -------------------------------------------------------

OUTSIDE = [(float("nan"), IllegalActionTypeError), (1.0, IllegalActionTypeError),
           (True, IllegalActionTypeError), (np.array([1, 2]), IllegalActionTypeError),
           (np.array([[1]]), IllegalActionTypeError), (-1, IllegalActionError),
           (6, IllegalActionError), (np.int64(99), IllegalActionError)]


@pytest.mark.parametrize(("action", "error"), OUTSIDE, ids=repr)
def test_values_outside_the_space_raise_naming_it_and_change_nothing(action, error):
    e = raw_env(game="PO", players=3)
    e.reset(seed=4)
    agent = e.agent_selection
    before = (agent, e.observe(agent)["observation"].tobytes(), len(e.episode.hand.events))
    with pytest.raises(error, match=r"action \(of the action space Discrete\(6\)\)") as caught:
        e.step(action)
    assert isinstance(caught.value, OmahaError)
    assert (e.agent_selection, e.observe(agent)["observation"].tobytes(),
            len(e.episode.hand.events)) == before
    g = OmahaGymEnv(game="PO", players=3)
    g.reset(seed=4)
    events = len(g.episode.hand.events)
    with pytest.raises(error, match=r"Discrete\(6\)"):
        g.step(action)
    assert len(g.episode.hand.events) == events


def test_illegal_reward_is_deprecated_and_ignored():
    for make in (raw_env, env, OmahaGymEnv):
        with pytest.warns(DeprecationWarning, match="ignored"):
            made = make(game="PO", players=2, illegal_reward=-5.0)
        assert not hasattr(made, "illegal_reward")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        raw_env(illegal_reward=None)          # the default: no warning


def test_episode_play_is_the_policy_and_step_stays_strict():
    episode = Episode(make_config("NO"), players=3)
    episode.reset(seed=2)
    masked = episode.mask.index(0)
    with pytest.raises(IllegalActionError, match="not legal now"):
        episode.step(masked)
    assert episode.play(masked) == 0 and episode.masked
    assert episode.play(1) == 1 and not episode.masked


def test_gym_masked_actions_fold_in_many_seeded_states():
    checked = 0
    for name, players in GAMES:
        for seed in range(8):
            def make(name=name, players=players, seed=seed):
                return OmahaGymEnv(game=name, players=players, seat=seed % players,
                                   opponents="random" if seed % 2 else "strength")

            prefix, obs = gym_prefix(make(), seed, seed, seed % 4)
            if obs is None:
                continue
            folded, net, _ = gym_return(make, seed, prefix, 0, seed)
            for action in np.flatnonzero(obs["action_mask"] == 0).tolist():
                total, net2, info = gym_return(make, seed, prefix, action, seed)
                assert (total, net2) == (folded, net) and info["illegal_action"]
                checked += 1
    assert checked > 30
