"""The learning environments (issue 15): PettingZoo AEC, Gymnasium, vectorised tables.

Rules exercised: B2 (fold/check/call masks), B3-B8 (raise sizes stay in the engine's legal
range), C2 (seeded resets replay exactly), T2 (the button moves each episode).
"""

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from omaha import phh
from omaha.errors import ArrayError, ConfigError, IllegalActionError
from omaha.rl import ActionSet, Episode, OmahaGymEnv, VectorTables, env, make_config, raw_env
from omaha.rl.aec import raw_env as aec_raw_env

GAMES = [("PO", 2), ("NO", 6), ("FO/8", 10), ("PO/8", 4), ("nlh", 3), ("plo5", 8), ("P6O/8", 7)]


def random_actions(episode_mask, rng):
    legal = [i for i, ok in enumerate(episode_mask) if ok]
    return legal[rng.randrange(len(legal))]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_pettingzoo_api_test_passes(game, players):
    with warnings.catch_warnings():   # importing pettingzoo.test warns of its own old API
        warnings.simplefilter("ignore")
        from pettingzoo.test import api_test

        api_test(env(game=game, players=players), num_cycles=60, verbose_progress=False)
    assert raw_env is aec_raw_env


def play_random(e, seed, action_seed):
    """Random legal play of one episode; the observations, masks and rewards seen."""
    rng = random.Random(action_seed)
    e.reset(seed=seed)
    trace = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tolist(), reward))
        e.step(None if terminated or truncated else random_actions(obs["action_mask"], rng))
    return trace


@pytest.mark.parametrize(("game", "players"), [("PO/8", 4), ("FO/8", 2), ("nlh", 9)])
def test_pettingzoo_seed_test_passes_c2(game, players):
    from pettingzoo.test import seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: env(game=game, players=players), num_cycles=40)


def test_seeded_reset_replays_exactly_c2():
    a = play_random(env(game="PO/8", players=4), seed=11, action_seed=3)
    b = play_random(env(game="PO/8", players=4), seed=11, action_seed=3)
    c = play_random(env(game="PO/8", players=4), seed=12, action_seed=3)
    assert a == b and a != c


def test_button_moves_each_episode_t2():
    e = raw_env(players=3)
    buttons = []
    for k in range(4):
        e.reset(seed=5) if k == 0 else e.reset()
        buttons.append(e.episode.hand.button)
    assert buttons == [1, 2, 3, 1]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_masks_and_rewards_agree_with_the_engine_b2_b8(game, players):
    """Every unmasked action is legal and distinct; rewards are net chips / big blind."""
    rng = random.Random(players)
    episode = Episode(make_config(game), players=players, stack=150,
                      actions=ActionSet(fractions=(0.33, 0.5, 1.0, 2.0)))
    for hand_number in range(40):
        episode.reset(seed=hand_number)
        while not episode.is_over:
            hand = episode.hand
            legal = hand.legal_actions()
            mask = episode.mask
            assert mask[0] == (legal.call_amount > 0)       # no free folds (B2)
            assert mask[1] == 1                              # check or call always (B2)
            totals = episode.actions.raise_totals(legal, hand.current_bet(), hand.pot_total)
            if legal.min_raise_to is None:
                assert not any(mask[2:])
            else:
                kept = [t for t, ok in zip(totals, mask[2:]) if ok]
                assert len(kept) == len(set(kept)) == len(set(totals))
                assert all(legal.min_raise_to <= t <= legal.max_raise_to for t in totals)
            before = hand.snapshot()
            masked = [i for i, ok in enumerate(mask) if not ok]
            if masked:
                with pytest.raises(IllegalActionError):
                    episode.step(masked[0])
                assert hand.snapshot() == before             # refused: nothing changed
            episode.step(random_actions(mask, rng))
        result = episode.hand.result
        bb = episode.config.big_blind
        assert episode.rewards() == [result.net[s] / bb for s in sorted(result.net)]
        assert abs(sum(episode.rewards())) < 1e-9


def test_pot_fraction_sizes_b5():
    """Raise by a fraction of the pot after calling; 1.0 is the pot-limit maximum."""
    config = make_config("PO")
    episode = Episode(config, players=3, actions=ActionSet(fractions=(0.5, 1.0)))
    episode.reset(seed=1)
    legal = episode.hand.legal_actions()        # the button: 1/2 blinds, 3 in the pot, owes 2
    totals = episode.actions.raise_totals(legal, 2, 3)
    assert totals == (4, 7, 4, 7) and legal.max_raise_to == 7
    assert episode.mask == [1, 1, 1, 1, 0, 0]


def test_observation_encoding_matches_the_hand():
    e = raw_env(game="PO/8", players=5, stack=300)
    rng = random.Random(2)
    for seed in range(15):
        e.reset(seed=seed)
        while e.agents and not e.terminations[e.agent_selection]:
            hand = e.episode.hand
            agent = e.agent_selection
            me = e.possible_agents.index(agent)
            obs = e.observe(agent)["observation"]
            assert sorted(np.flatnonzero(obs[:52])) == sorted(int(c) for c in hand.hole_cards(me + 1))
            assert sorted(np.flatnonzero(obs[52:104])) == sorted(int(c) for c in hand.board)
            assert obs[104 + hand.street] == 1 and obs[104:108].sum() == 1
            legal = hand.legal_actions()
            assert obs[108] == hand.pot_total / 2 and obs[109] == legal.call_amount / 2
            low, high = legal.min_raise_to or 0, legal.max_raise_to or 0
            assert obs[110] == low / 2 and obs[111] == high / 2
            for k in range(5):
                seat = (me + k) % 5 + 1
                row = obs[112 + 7 * k:119 + 7 * k]
                state = hand.state(seat)
                assert row[0] == hand.stacks[seat] / 2 and row[1] == hand.bets[seat] / 2
                assert row[2] == hand.contributions[seat] / 2
                assert row[3:6].tolist() == [state == "active", state == "all_in", state == "folded"]
                assert row[6] == (seat == hand.button)
            e.step(random_actions(e.observe(agent)["action_mask"], rng))


def test_each_episode_is_available_as_phh_and_replays():
    e = raw_env(game="NO", players=6)
    rng = random.Random(4)
    for seed in range(10):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            e.step(None if terminated or truncated else random_actions(obs["action_mask"], rng))
        text = phh.dumps(e.history())
        result = phh.replay_history(phh.loads(text))
        assert result.matches


def test_masked_action_is_played_as_a_fold_non_actions_raise():
    """Issue 23's reward policy: a masked action folds (info says so); a non-action raises."""
    e = env(players=3)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    masked = int(np.flatnonzero(mask == 0)[0])
    offender = e.agent_selection
    e.step(masked)
    assert e.infos[offender] == {"illegal_action": True, "action_played": 0,
                                 "action_requested": masked}
    assert e.episode.hand.state(1) == "folded" and e.agents and not any(e.terminations.values())
    strict = raw_env(players=3)
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(True)                               # bool is never an action
    with pytest.raises(AttributeError):
        raw_env().step(1)                               # before reset


def test_bad_options_are_refused():
    with pytest.raises(ConfigError):
        raw_env(players=11)
    with pytest.raises(ConfigError):
        raw_env(game="plo5", players=9)                  # 5-card Omaha seats 8 (C1)
    with pytest.raises(ConfigError):
        ActionSet(fractions=(0.0,))
    for stack in (0, 2, True, 2.5):
        with pytest.raises(ConfigError):
            raw_env(stack=stack)                         # blinds 1/2: 2 would be all-in at once


def test_gymnasium_env_passes_the_checker_and_replays():
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(OmahaGymEnv(players=4, render_mode="ansi"), skip_render_check=True)

    def run(seed):
        g = OmahaGymEnv(game="PO/8", players=4, seat=2)
        obs, _ = g.reset(seed=seed)
        rng, out, done = random.Random(0), [], False
        while not done:
            obs, reward, done, _, _ = g.step(random_actions(obs["action_mask"], rng))
            out.append((obs["observation"].tobytes(), reward))
        return out, phh.dumps(g.history())

    assert run(3) == run(3) and run(3) != run(4)


def test_gymnasium_callable_opponents_and_reward():
    calls = []

    def always_call(observation):
        calls.append(observation["action_mask"].tolist())
        return 1

    g = OmahaGymEnv(players=3, opponents=[always_call, always_call])
    g.reset(seed=9)
    done = False
    while not done:
        _, reward, done, _, _ = g.step(1)
    hand = g.episode.hand
    assert calls and reward == hand.result.net[1] / 2
    with pytest.raises(ConfigError):
        OmahaGymEnv(players=3, opponents=[always_call])


def test_vector_tables_match_single_episodes():
    """Table i of the hand-driven VectorTables plays exactly as an Episode seeded like it."""
    tables = VectorTables(6, game="PO/8", players=3, engine="hands")
    obs, mask, actor = tables.reset(seed=100)
    singles = [Episode(make_config("PO/8"), players=3) for _ in range(6)]
    for i, single in enumerate(singles):
        single.reset(100 + i)
    rng = np.random.default_rng(1)
    totals = np.zeros((6, 3))
    for _ in range(120):
        actions = (rng.random(mask.shape) * mask).argmax(1)
        for i, single in enumerate(singles):
            assert obs[i].tobytes() == single.observation(single.actor).tobytes()
            assert mask[i].tolist() == single.mask and actor[i] == single.actor
            single.step(int(actions[i]))
        obs, mask, actor, rewards, done = tables.step(actions)
        for i, single in enumerate(singles):
            assert done[i] == single.is_over
            if single.is_over:
                assert rewards[i].tolist() == pytest.approx(single.rewards())
                totals[i] += rewards[i]
                single.reset()
    assert np.abs(totals.sum(1)).max() < 1e-4


def test_compiled_vector_tables_rewards_and_phh():
    """Rewards in big blinds sum to zero; each finished hand replays from its PHH."""
    tables = VectorTables(64, game="PO/8", players=4, stack=60)
    assert tables.engine == "compiled"
    obs, mask, _ = tables.reset(seed=5)
    again = VectorTables(64, game="PO/8", players=4, stack=60)
    obs2, _, _ = again.reset(seed=5)
    assert (obs == obs2).all()                               # seeded resets reproduce (C2)
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(30):
        obs, mask, _, rewards, done = tables.step((rng.random(mask.shape) * mask).argmax(1))
        assert np.abs(rewards.sum(1)).max() < 1e-4
        for t in np.flatnonzero(done)[:3]:
            history = tables.last_history(int(t))
            result = phh.replay_history(history)
            assert result.matches
            net = [(a - b) / 2 for a, b in zip(history.finishing_stacks, history.starting_stacks)]
            assert sorted(net) == pytest.approx(sorted(rewards[t].tolist()))
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("engine", ["compiled", "hands"])
def test_vector_tables_refuse_bad_actions_and_change_nothing(engine):
    tables = VectorTables(3, players=2, engine=engine)
    obs, _, _ = tables.reset(seed=1)
    before = obs.copy()
    # outside the action space: refused (a masked action of the space folds: issue 23)
    for actions in (np.ones(2, np.int64), np.ones(3), np.full(3, 99)):
        with pytest.raises(ArrayError):
            tables.step(actions)
    assert (tables.observation == before).all()
    assert tables.last_history(0) is None


def test_any_engine_config_works_antes_and_caps():
    """config= takes any GameConfig: antes, a big-blind ante, an uncapped fixed limit."""
    from pettingzoo.test import api_test

    from omaha.config import OMAHA_HILO, GameConfig

    configs = [GameConfig.no_limit(small_blind=1, big_blind=2, ante=1, big_blind_ante=2),
               GameConfig.fixed_limit(small_bet=2, variant=OMAHA_HILO, max_raises=None)]
    for config in configs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(env(config=config, players=5), num_cycles=40, verbose_progress=False)
        e = raw_env(config=config, players=5)
        trace = play_random(e, seed=3, action_seed=1)
        assert trace and abs(sum(e.last_rewards.values())) < 1e-9
        assert phh.replay_history(e.history()).matches
