"""The NumPy table engine of VectorTables against the hand engine, step by step (issue 15).

Every table of a :class:`~omaha.rl.fast.FastTables` is mirrored by a :class:`~omaha.hand.Hand`
dealt the same deck (T6 layout) and given the same discrete actions; at every step the
player to act (B1), the action mask (B2-B8), the observation and, at the end, every final
stack (S2-S4, P1) must agree. Short stacks make all-ins, short all-in raises (B7) and
run-outs common; fixed limit with a cap (B3) and uncapped heads-up too.
"""

import numpy as np
import pytest

from omaha.config import FIVE_CARD_OMAHA, HOLDEM, OMAHA_HILO, SIX_CARD_OMAHA_HILO, GameConfig
from omaha.errors import ConfigError
from omaha.hand import Hand
from omaha.rl.actions import ActionSet
from omaha.rl.fast import FastTables, supports
from omaha.rl.game import Episode, make_config

CASES = [
    (make_config("PO"), 2, 200),
    (make_config("NO"), 3, 23),
    (make_config("PO/8"), 6, 40),
    (make_config("FO/8"), 4, 30),
    (GameConfig.fixed_limit(small_bet=2, variant=OMAHA_HILO, uncapped_heads_up=True), 2, 40),
    (GameConfig.fixed_limit(small_bet=4, variant=FIVE_CARD_OMAHA, max_raises=None), 5, 60),
    (GameConfig.no_limit(small_blind=1, big_blind=3, variant=SIX_CARD_OMAHA_HILO), 7, 17),
    (GameConfig.pot_limit(small_blind=2, big_blind=5, variant=FIVE_CARD_OMAHA), 8, 300),
    (make_config("NO"), 10, 9),
    (make_config("nlh"), 6, 15),
    (GameConfig.fixed_limit(small_bet=2, variant=HOLDEM), 9, 50),
]
ACTIONS = ActionSet(fractions=(0.33, 0.5, 1.0, 2.5))


def mirror(fast, t, config, players, stack):
    episode = Episode(config, players=players, stack=stack, actions=ACTIONS)
    episode.hand = Hand(config, stacks=dict.fromkeys(range(1, players + 1), stack),
                        button=int(fast.button[t]) + 1, deck=fast.decks[t].tolist())
    episode._refresh()
    return episode


@pytest.mark.parametrize(("config", "players", "stack"), CASES)
def test_fast_tables_play_exactly_as_the_hand_engine(config, players, stack):
    assert supports(config, stack)
    tables = 24
    fast = FastTables(config, tables=tables, players=players, stack=stack, actions=ACTIONS)
    fast.reset(seed=players * 7 + stack)
    mirrors = [mirror(fast, t, config, players, stack) for t in range(tables)]
    rng = np.random.default_rng(stack)
    out = np.zeros((tables, fast.size), np.float32)
    finished = 0
    for _ in range(60):
        fast.observe(out)
        for t, episode in enumerate(mirrors):
            assert fast.actor[t] == episode.actor
            assert fast.mask[t].tolist() == episode.mask
            assert out[t].tobytes() == episode.observation(episode.actor).tobytes()
        chosen = (rng.random(fast.mask.shape) * fast.mask).argmax(1)
        decks = fast.decks.copy()
        done = fast.step(chosen)
        for t, episode in enumerate(mirrors):
            episode.step(int(chosen[t]))
            assert done[t] == episode.is_over
            if done[t]:
                assert fast.final[t].tolist() == episode.hand._stacks
                assert fast.last_decks[t].tolist() == decks[t].tolist()
                mirrors[t] = mirror(fast, t, config, players, stack)
                finished += 1
    assert finished > tables


def test_fast_tables_deal_each_card_once_and_rotate_the_button():
    fast = FastTables(make_config("PO/8"), tables=50, players=9, stack=100, actions=ACTIONS)
    fast.reset()                                          # the OS generator (C2)
    for t in range(50):
        cards = [*fast.holes[t].ravel().tolist(), *fast.board[t].tolist()]
        assert len(set(cards)) == len(cards) == 41 and max(cards) < 52
    assert (fast.button == 0).all()
    fast.step(np.zeros(50, np.int64) + (fast.mask[:, 0] == 0))   # fold, or check when free
    assert len({tuple(d) for d in fast.decks.tolist()}) == 50


def test_unsupported_games_use_the_hand_engine():
    from omaha.rl import VectorTables

    assert VectorTables(2, game="nlh").engine == "numpy"
    assert VectorTables(2, config=GameConfig.pot_limit(small_blind=1, big_blind=2, ante=1)).engine == "hands"
    assert VectorTables(2, game="PO/8").engine == "numpy"
    with pytest.raises(ConfigError):
        VectorTables(2, config=GameConfig.pot_limit(small_blind=1, big_blind=2, ante=1),
                     engine="numpy")
    with pytest.raises(ConfigError):
        VectorTables(2, engine="gpu")
