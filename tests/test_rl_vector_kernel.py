"""The compiled batched kernel of VectorTables against the hand engine, step by step (issue 20).

Every table of a :class:`~omaha.rl.VectorTables` is mirrored by a :class:`~omaha.game.hand.Hand`
dealt the same deck (T6) with the same button, and given the same discrete actions; at every
step the whole state (street, player to act, pot, stacks, bets, contributions, player
states, bet to call: B1-B8), the action mask, the observation and, when a hand ends, every
result (S1-S4, P1, P2) must agree. Short stacks make all-ins, short all-in raises (B7) and
run-outs common; antes and big blind antes (T3), fixed limit with a cap (B3) and uncapped
heads-up, and every variant are covered; Hypothesis draws further configurations. Masked
actions (the reward policy of issue 23: played as a fold, flagged) are mixed in, and the
mirror folds.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omaha.config import (
    FIVE_CARD_OMAHA,
    HOLDEM,
    OMAHA_HILO,
    SIX_CARD_OMAHA_HILO,
    VARIANTS,
    GameConfig,
)
from omaha.errors import ArrayError, ConfigError
from omaha.game.hand import Hand
from omaha.rl import VectorTables
from omaha.rl.actions import ActionSet
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
    (GameConfig.pot_limit(small_blind=1, big_blind=2, ante=1), 6, 30),               # antes
    (GameConfig.no_limit(small_blind=1, big_blind=2, big_blind_ante=2), 6, 25),      # BB ante
    (GameConfig.fixed_limit(small_bet=4, variant=OMAHA_HILO, ante=1), 6, 40),
    (GameConfig.pot_limit(small_blind=5, big_blind=10, ante=2, big_blind_ante=3,
                          variant=OMAHA_HILO), 3, 37),
]
ACTIONS = ActionSet(fractions=(0.33, 0.5, 1.0, 2.5))


def mirror(tables: VectorTables, t: int) -> Episode:
    """An Episode whose hand is table ``t``'s current hand, dealt from its deck."""
    state = tables.table_state(t)
    episode = Episode(tables.config, players=tables.players, stack=tables.stack,
                      actions=tables.actions)
    episode.hand = Hand(tables.config, stacks=dict.fromkeys(range(1, tables.players + 1),
                                                            tables.stack),
                        button=state["button"] + 1, deck=list(state["deck"]))
    episode._refresh()
    return episode


def hand_state(episode: Episode) -> dict[str, Any]:
    hand = episode.hand
    assert hand is not None
    return {"street": hand._street, "to_act": hand._to_act, "pot": hand._pot,
            "stacks": hand._stacks, "bets": hand._bets, "contrib": hand._contrib,
            "status": hand._status, "current_bet": hand._current_bet, "button": hand._button}


def play_side_by_side(config: GameConfig, players: int, stack: int, *, tables: int = 16,
                      steps: int = 60, seed: int = 0, masked_rate: float = 0.1) -> int:
    """Step ``tables`` tables and their mirrors ``steps`` times; returns the hands finished.
    About ``masked_rate`` of the actions are masked ones (where any is), which the tables play
    as folds (flagged) and the mirrors fold."""
    vec = VectorTables(tables, config=config, players=players, stack=stack, actions=ACTIONS)
    obs, mask, actor = vec.reset(seed=seed)
    mirrors = [mirror(vec, t) for t in range(tables)]
    rng = np.random.default_rng(seed)
    finished = 0
    for _ in range(steps):
        for t, episode in enumerate(mirrors):
            state = vec.table_state(t)
            del state["deck"]
            assert state == hand_state(episode)
            assert actor[t] == episode.actor
            assert mask[t].tolist() == episode.mask
            assert obs[t].tobytes() == episode.observation(episode.actor).tobytes()
        chosen = (rng.random(mask.shape) * mask).argmax(1)
        wrong = (rng.random(mask.shape) * (mask == 0)).argmax(1)
        use_wrong = (rng.random(tables) < masked_rate) & (mask == 0).any(1)
        chosen = np.where(use_wrong, wrong, chosen)
        obs, mask, actor, rewards, done = vec.step(chosen)
        assert vec.illegal_action.tolist() == use_wrong.tolist()
        for t, episode in enumerate(mirrors):
            if use_wrong[t]:
                hand = episode.hand
                assert hand is not None
                hand.fold()   # a masked action is exactly a fold (B2: allowed on any turn)
                episode._refresh()
            else:
                episode.step(int(chosen[t]))
            assert done[t] == episode.is_over
            if done[t]:
                assert rewards[t].tolist() == np.float32(episode.rewards()).tolist()
                history = vec.last_history(t)
                assert history.actions == episode.history().actions
                mirrors[t] = mirror(vec, t)
                finished += 1
            else:
                assert not rewards[t].any()
    return finished


@pytest.mark.parametrize(("config", "players", "stack"), CASES)
def test_vector_tables_play_exactly_as_the_hand_engine(config: GameConfig, players: int,
                                                       stack: int) -> None:
    assert play_side_by_side(config, players, stack, seed=players * 7 + stack) > 16


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(VARIANTS), structure=st.sampled_from(["fl", "pl", "nl"]),
       players=st.integers(2, 7), big=st.integers(1, 6), ante=st.integers(0, 2),
       bb_ante=st.integers(0, 3), depth=st.integers(1, 40), seed=st.integers(0, 2**32 - 1))
def test_vector_tables_match_the_hand_engine_on_random_configs(
        variant: Any, structure: str, players: int, big: int, ante: int, bb_ante: int,
        depth: int, seed: int) -> None:
    players = min(players, variant.max_players)
    if structure == "fl":
        config = GameConfig.fixed_limit(small_bet=2 * big, variant=variant, ante=ante,
                                        big_blind_ante=bb_ante)
    else:
        maker = GameConfig.pot_limit if structure == "pl" else GameConfig.no_limit
        config = maker(small_blind=max(1, big // 2), big_blind=big, variant=variant, ante=ante,
                       big_blind_ante=bb_ante)
    stack = config.ante + config.big_blind + config.big_blind_ante + depth
    play_side_by_side(config, players, stack, tables=4, steps=25, seed=seed)


def test_every_deck_deals_each_card_once_and_buttons_rotate() -> None:
    vec = VectorTables(50, game="PO/8", players=9, stack=100)
    vec.reset()                                           # the OS generator (C2)
    decks = [bytes(vec.table_state(t)["deck"]) for t in range(50)]
    assert all(len(set(d)) == len(d) == 9 * 4 + 8 and max(d) < 52 for d in decks)   # T6
    assert len(set(decks)) == 50
    assert {vec.table_state(t)["button"] for t in range(50)} == {0}
    folds = (vec.action_mask[:, 0] == 0).astype(np.int64)   # fold, or check when free
    vec.step(folds)


def test_seeded_runs_repeat_and_unseeded_runs_differ() -> None:
    def run(seed: int | None) -> list[bytes]:
        vec = VectorTables(8, game="PO", players=3)
        obs, mask, _ = vec.reset(seed=seed)
        out = [obs.tobytes()]
        rng = np.random.default_rng(1)
        for _ in range(30):
            obs, mask, *_ = vec.step((rng.random(mask.shape) * mask).argmax(1))
            out.append(obs.tobytes())
        return out

    assert run(5) == run(5)
    assert run(None) != run(None)


def test_bad_actions_change_nothing() -> None:
    vec = VectorTables(4, game="NO", players=2)
    obs, mask, _ = vec.reset(seed=3)
    before = [vec.table_state(t) for t in range(4)], obs.copy(), mask.copy()
    bad_inputs: list[Any] = [np.zeros(3, np.int64), np.zeros(4, np.float64),
                             np.array([0, 0, 0, 99]), np.array([0, 0, -1, 0]), "fold",
                             np.ones(4, np.bool_), np.array([0, 0, 0, 6])]
    for bad in bad_inputs:
        with pytest.raises(ArrayError):
            vec.step(bad)
        assert [vec.table_state(t) for t in range(4)] == before[0]
        assert (obs == before[1]).all() and (mask == before[2]).all()


@pytest.mark.parametrize("engine", ["compiled", "hands"])
def test_a_masked_action_is_exactly_a_fold(engine: str) -> None:
    """The reward policy (issue 23): a masked action is played as a fold, flagged in
    illegal_action, with exactly the outcome of folding in that state: two runs dealt the same
    cards, one playing masked actions where the other folds, agree on every state and result,
    and a masked action is never worth more than folding."""
    def run(masked: bool) -> tuple[list[Any], list[list[float]], list[list[bool]]]:
        vec = VectorTables(8, game="NO", players=3, engine=engine)
        _, mask, _ = vec.reset(seed=11)
        rng = np.random.default_rng(5)
        states, results, flags = [], [], []
        for k in range(40):
            legal = (rng.random(mask.shape) * mask).argmax(1)
            wrong = (mask == 0).argmax(1)   # the first masked action (0 if none)
            fold_now = (k % 3 == 2) & (mask == 0).any(1)
            fold_with = wrong if masked else np.zeros_like(wrong)
            picked = np.where(fold_now, fold_with, legal)
            _, mask, _, rewards, _ = vec.step(picked)
            states.append([vec.table_state(t)["stacks"] for t in range(8)])
            results.append(rewards.tolist())
            flags.append(vec.illegal_action.tolist())
        return states, results, flags

    folded, masked = run(False), run(True)
    assert folded[:2] == masked[:2]
    assert any(any(row) for row in masked[2])


def test_engine_choice() -> None:
    assert VectorTables(2, game="nlh").engine == "compiled"
    antes = GameConfig.pot_limit(small_blind=1, big_blind=2, ante=1)
    assert VectorTables(2, config=antes).engine == "compiled"
    assert VectorTables(2, config=antes, engine="hands").engine == "hands"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(DeprecationWarning):
            VectorTables(2, engine="numpy")
    with pytest.raises(ConfigError):
        VectorTables(2, engine="gpu")
    with pytest.raises(ConfigError):   # every hand must have a decision (B8)
        VectorTables(2, config=antes, stack=3)


HOSTILE_ARRAYS: list[Any] = [
    None, "text", b"bytes", 3, 1.5, [1, 2], np.zeros(3, np.float32), np.zeros((2, 2), np.int64),
    np.zeros(6, np.int64)[::2], np.zeros(0, np.int8), np.ones(4, np.bool_),
]


def test_compiled_entry_points_refuse_bad_arrays_with_typed_errors() -> None:
    """The kernel's Python entry points check every array before any work (dtype, shape,
    layout, writability) and refuse with ArrayError/ArrayTypeError; nothing crashes."""
    from omaha import OmahaError
    from omahacore.vector import VectorCore, action_totals, observe_hand

    vec = VectorTables(3, game="PO", players=2)
    vec.reset(seed=1)
    core = vec._core
    assert core is not None
    before = [vec.table_state(t) for t in range(3)]
    readonly = np.zeros(3, np.int64)
    readonly.flags.writeable = False
    for bad in [*HOSTILE_ARRAYS, np.zeros(3, np.int32), np.full(3, 99, np.int64)]:
        with pytest.raises(OmahaError):
            core.step(bad)
    for bad in [None, "x", np.zeros(3, np.uint8), 7]:
        with pytest.raises(OmahaError):
            core.refill(bad)
    assert [vec.table_state(t) for t in range(3)] == before
    for bad in [*HOSTILE_ARRAYS, readonly]:
        with pytest.raises(OmahaError):
            action_totals(2, 4, 200, 2, 3, np.array([0.5]), True, True, bad, np.zeros(5, np.int8))
        with pytest.raises(OmahaError):
            action_totals(2, 4, 200, 2, 3, bad, True, True, np.zeros(3, np.int64),
                          np.zeros(5, np.int8))
    episode = Episode(players=2)
    episode.reset(seed=2)
    for bad in [*HOSTILE_ARRAYS, np.zeros(126, np.float64), np.zeros(127, np.float32)]:
        with pytest.raises(OmahaError):
            observe_hand(episode.hand, 0, bad, 0.5)
    with pytest.raises(OmahaError):
        observe_hand(episode.hand, 5, np.zeros(126, np.float32), 0.5)
    for table in (-1, 3, True, 1.0, "0", 2**70):
        with pytest.raises(OmahaError):
            vec.table_state(table)
        with pytest.raises(OmahaError):
            vec.last_history(table)
    with pytest.raises(OmahaError):   # set up once; a bare one refuses to run
        VectorCore.__new__(VectorCore).reset()


def test_holdem_lookup_is_best_of_any_for_every_rank_multiset() -> None:
    """The kernel's Hold'em showdown lookup (one entry per multiset of seven ranks, flushes
    left to best_of_any) gives the evaluator's answer for every rank multiset, with suits
    drawn at random (so flushes and straight flushes come up too)."""
    from itertools import combinations_with_replacement

    from omahacore.evaluator import evaluate_best
    from omahacore.vector import holdem_best

    rng = np.random.default_rng(3)
    checked = 0
    for ranks in combinations_with_replacement(range(13), 7):
        if max(ranks.count(r) for r in set(ranks)) > 4:
            continue
        suits = {r: rng.permutation(4).tolist() for r in set(ranks)}
        seen: dict[int, int] = {}
        cards = []
        for r in ranks:
            k = seen.get(r, 0)
            seen[r] = k + 1
            cards.append(4 * r + suits[r][k])
        assert holdem_best(tuple(cards)) == evaluate_best(cards), cards
        checked += 1
    assert checked == 49205   # C(19, 7) less the multisets with five of a rank
    for bad in [(1, 2, 3), (0, 1, 2, 3, 4, 5, 52), (0, 0, 1, 2, 3, 4, 5), [0, 1, 2, 3, 4, 5, 6]]:
        with pytest.raises(ArrayError):
            holdem_best(bad)   # type: ignore[arg-type]
