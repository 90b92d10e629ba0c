"""Issue 23: no leaks. Observations, infos and rendered frames carry only what the
observing seat may see: its own hole cards, the board, the public actions and the cards
shown at showdown.

Thousands of hands are played (the AEC env at several seats, the single-agent env against
the bots); every observation's card planes are decoded back to cards (``[0, 52)`` own hole
cards, ``[52, 104)`` the board: :mod:`omaha.rl.game`) and compared with what the seat may
see; every info dict is searched recursively (strings and card objects) and every rendered
frame for the text of any card another seat holds and has not shown.
"""

import random
import re

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from omaha.cards import Card
from omaha.rl import OmahaGymEnv, raw_env

CARD = re.compile(r"[2-9TJQKA][cdhs]")


def card_text(card) -> str:
    return str(Card(int(card)))


def hidden_from(hand, seat):
    """The cards of other seats that ``seat`` may not see now (not shown)."""
    shown = {s for s, _ in hand.shown_hands()}
    return {int(c) for other in hand.seats if other != seat and other not in shown
            for c in hand.hole_cards(other)}


def check_observation(obs, hand, seat, space=None):
    vector = obs["observation"]
    own = {int(c) for c in hand.hole_cards(seat)}
    assert set(np.flatnonzero(vector[:52]).tolist()) == own
    assert set(np.flatnonzero(vector[52:104]).tolist()) == {int(c) for c in hand.board}
    hidden = hidden_from(hand, seat)
    planes = set(np.flatnonzero(vector[:104]).tolist())
    assert not hidden & {c % 52 for c in planes}
    if space is not None:
        assert space.contains(obs), "an observation outside the observation space"


def search(value, hidden_text, hidden, path="info"):
    """Recursively: no string holds a hidden card's text, no Card object is hidden."""
    if isinstance(value, dict):
        for key, item in value.items():
            search(key, hidden_text, hidden, path)
            search(item, hidden_text, hidden, f"{path}[{key!r}]")
    elif isinstance(value, (list, tuple, set, frozenset)):
        for i, item in enumerate(value):
            search(item, hidden_text, hidden, f"{path}[{i}]")
    elif isinstance(value, Card):
        assert int(value) not in hidden, f"hidden card {value} at {path}"
    elif isinstance(value, (str, bytes)):
        text = value.decode() if isinstance(value, bytes) else value
        assert not set(CARD.findall(text)) & hidden_text, f"hidden card text at {path}"
    elif isinstance(value, np.ndarray) and value.dtype.kind in "OUS":
        search(value.tolist(), hidden_text, hidden, path)


def check_frame(frame, hand, seat):
    if frame is None:
        return
    hidden = {card_text(c) for c in hidden_from(hand, seat)}
    found = set(CARD.findall(frame)) & hidden
    assert not found, f"rendered frame shows hidden cards {found}:\n{frame}"


@pytest.mark.parametrize(("game", "players", "hands"), [
    ("PO/8", 6, 500), ("nlh", 9, 300), ("NO", 3, 500), ("FO/8", 4, 400), ("plo5", 2, 400)])
def test_aec_observations_infos_and_frames_show_no_hidden_card(game, players, hands):
    e = raw_env(game=game, players=players, render_mode="ansi")
    rng = random.Random(players)
    e.reset(seed=players)
    observed = 0
    for _ in range(hands):
        for agent in e.agent_iter():
            obs, _, terminated, truncated, info = e.last()
            hand = e.episode.hand
            seat = e.possible_agents.index(agent) + 1
            check_observation(obs, hand, seat, e.observation_space(agent))
            hidden = hidden_from(hand, seat)
            search(info, {card_text(c) for c in hidden}, hidden)
            check_frame(e.render(), hand, seat)
            if rng.random() < 0.2:   # now and then every other seat's view too
                for other in e.agents:
                    other_seat = e.possible_agents.index(other) + 1
                    check_observation(e.observe(other), hand, other_seat)
            observed += 1
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            if rng.random() < 0.03:   # a masked action now and then: a fold, reported
                action = rng.randrange(len(obs["action_mask"]))
            e.step(action)
        e.reset()
    assert observed > hands * 2


@pytest.mark.parametrize(("game", "players", "opponents", "hands"), [
    ("PO", 2, "strength", 600), ("PO/8", 6, "random", 500), ("nlh", 3, "strength", 500)])
def test_single_agent_observations_infos_and_frames_show_no_hidden_card(game, players,
                                                                        opponents, hands):
    seen = []

    def spy(observation):       # a callable opponent sees only its own seat's cards too
        seen.append(observation)
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[0])

    others = [opponents] * (players - 1)
    if players > 2:
        others[-1] = spy
    g = OmahaGymEnv(game=game, players=players, seat=players // 2, opponents=others,
                    render_mode="ansi")
    seat = players // 2 + 1
    rng = random.Random(1)
    obs, info = g.reset(seed=3)
    showdowns = 0
    for _ in range(hands):
        terminated = False
        while True:
            hand = g.episode.hand
            hidden = hidden_from(hand, seat)
            check_observation(obs, hand, seat, g.observation_space)
            search(info, {card_text(c) for c in hidden}, hidden)
            check_frame(g.render(), hand, seat)
            if terminated:
                break
            legal = np.flatnonzero(g.action_masks())
            obs, _, terminated, _, info = g.step(int(legal[rng.randrange(len(legal))]))
        showdowns += bool(hand.shown_hands())
        obs, info = g.reset()
    assert showdowns > 10
    if players > 2:
        assert seen
        for observation in seen[:200]:
            holes = len(np.flatnonzero(observation["observation"][:52]))
            assert holes == g.episode.config.variant.hole_cards


def test_shown_cards_appear_once_shown_and_only_then():
    """A showdown's shown hands are public: the frame and view show them at the end."""
    g = OmahaGymEnv(game="PO", players=2, opponents=lambda o: 1, render_mode="ansi")
    g.reset(seed=0)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = g.step(1)   # check or call down: a showdown
    hand = g.episode.hand
    frame = g.render()
    for _, cards in hand.shown_hands():
        assert "".join(str(c) for c in cards) in frame
    other = 2
    if other not in {s for s, _ in hand.shown_hands()}:
        assert all(str(c) not in frame for c in hand.hole_cards(other))
