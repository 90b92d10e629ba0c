"""PHH files written by PokerKit read the way the standard means them.

PokerKit (the reference implementation of PHH) is only a test dependency: these tests skip
without it. Run this file as a script to regenerate the committed fixtures in tests/data:

    python tests/test_phh_pokerkit.py

The hands are random but seeded: PokerKit plays the dealing and the betting (random folds,
calls and raises within the limits PokerKit allows), and writes the history with
``HandHistory.from_game_state`` plus the final stacks as ``finishing_stacks``.
"""

from __future__ import annotations

import random
import sys
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from omaha.phh import (
    BetOrRaiseTo,
    CheckOrCall,
    DealBoard,
    DealHole,
    HandHistory,
    ShowOrMuck,
    dumps,
    loads,
    loads_all,
    read_histories,
)

DATA = Path(__file__).parent / "data"


def pokerkit_history(
    code: str,
    players: int,
    seed: int,
    *,
    antes: tuple[int, ...] | int = 0,
    blinds: tuple[int, int] = (1, 2),
) -> str:
    """A random hand played by PokerKit, as the PHH text PokerKit writes."""
    pk: Any = pytest.importorskip("pokerkit")
    rng = random.Random(seed)
    auto = pk.Automation
    automations = (
        auto.ANTE_POSTING,
        auto.BET_COLLECTION,
        auto.BLIND_OR_STRADDLE_POSTING,
        auto.CARD_BURNING,
        auto.HOLE_CARDS_SHOWING_OR_MUCKING,
        auto.HAND_KILLING,
        auto.CHIPS_PUSHING,
        auto.CHIPS_PULLING,
        auto.RUNOUT_COUNT_SELECTION,
    )
    if code == "PO":
        game = pk.PotLimitOmahaHoldem(automations, False, antes, blinds, blinds[1])
    else:
        game = pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter(
            automations, False, antes, blinds, blinds[1], 2 * blinds[1]
        )
    stacks = [rng.randrange(8, 300) for _ in range(players)]
    state = game(stacks, players)
    deck = list(pk.Deck.STANDARD)
    rng.shuffle(deck)
    state.deck_cards = deque(deck)  # seeded dealing: PokerKit draws and burns from the front
    while state.status:
        if state.can_deal_hole():
            state.deal_hole(4)
        elif state.can_deal_board():
            state.deal_board(3 if not state.board_cards else 1)
        elif state.actor_index is not None:
            _random_decision(state, rng, fixed_limit=code == "FO/8")
        else:  # pragma: no cover - every automation is on
            raise AssertionError("PokerKit is waiting for an operation the generator lacks")
    history = pk.HandHistory.from_game_state(game, state, finishing_stacks=list(state.stacks))
    return str(history.dumps()) + "\n"


def _random_decision(state: Any, rng: random.Random, *, fixed_limit: bool) -> None:
    roll = rng.random()
    if state.checking_or_calling_amount and roll < 0.2:
        state.fold()
    elif state.can_complete_bet_or_raise_to() and roll < 0.5:
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        if not fixed_limit:
            state.complete_bet_or_raise_to(rng.choice((low, high, rng.randint(low, high))))
        elif state.completion_betting_or_raising_count < (3 if state.street_index == 0 else 4) and (
            max(state.bets) % (2 if state.street_index < 2 else 4) == 0
        ):
            # PokerKit 0.7.7 plays FO/8 with pot-limit sizes and no cap (its class mixes in
            # PotLimitPokerMixin), so the generator keeps to the fixed-limit rules itself:
            # one unit a bet, at most 4 bets a round, the big blind being the first (B3).
            # It does not raise over a short all-in: after one of less than half a unit
            # PokerKit raises by a unit over the all-in, the engine completes to the last
            # full level plus a unit (B7, as Robert's Rules "complete the bet").
            state.complete_bet_or_raise_to(low)
        else:
            state.check_or_call()
    else:
        state.check_or_call()


def test_pokerkit_po_hands_read_with_their_actions():
    for seed in range(20):
        text = pokerkit_history("PO", 2 + seed % 5, seed)
        history = loads(text)
        assert history.variant == "PO" and history.min_bet == 2
        assert history.finishing_stacks is not None
        assert sum(history.finishing_stacks) == sum(history.starting_stacks)
        dealt = [a for a in history.parsed_actions if isinstance(a, DealHole)]
        assert [a.player for a in dealt] == list(range(history.players))
        assert all(len(a.cards) == 4 and None not in a.cards for a in dealt)
        assert loads(dumps(history)) == history


def test_pokerkit_fo8_hands_read_with_their_actions():
    kinds = set()
    for seed in range(20):
        history = loads(pokerkit_history("FO/8", 2 + seed % 5, seed))
        assert (history.small_bet, history.big_bet, history.min_bet) == (2, 4, None)
        kinds.update(type(action) for action in history.parsed_actions)
        assert loads(dumps(history)) == history
    assert {DealHole, DealBoard, CheckOrCall, BetOrRaiseTo, ShowOrMuck} <= kinds


@pytest.mark.parametrize("players", [2, 3, 6])
@pytest.mark.parametrize(
    "antes", [0, (0, 3, 0, 0, 0, 0), (5, 5, 5, 5, 5, 5)], ids=["none", "bb-ante", "uniform"]
)
def test_t3_t4_forced_bets_fall_on_the_players_pokerkit_charges(players, antes):
    """Heads-up the blind and ante arrays are reversed: p1 (big blind) pays index 1."""
    pk: Any = pytest.importorskip("pokerkit")
    raw_antes = antes if isinstance(antes, int) else antes[:players]
    game = pk.PotLimitOmahaHoldem((), False, raw_antes, (1, 2), 2)
    state = game([500] * players, players)
    while state.can_post_ante():
        state.post_ante()
    while state.can_collect_bets():
        state.collect_bets()
    while state.can_post_blind_or_straddle():
        state.post_blind_or_straddle()
    charged = [500 - stack for stack in state.stacks]
    history = HandHistory(
        variant="PO",
        antes=[raw_antes] * players if isinstance(raw_antes, int) else raw_antes,
        blinds_or_straddles=[1, 2] + [0] * (players - 2),
        min_bet=2,
        starting_stacks=[500] * players,
    )
    expected = [a + b for a, b in zip(history.posted_antes(), history.posted_blinds())]
    assert charged == expected


def test_committed_pokerkit_fixtures_read():
    """The committed fixtures (written by PokerKit, see the module docstring) load."""
    single = read_histories(DATA / "pokerkit_po_3.phh")
    assert len(single) == 1 and single[0][0] is None
    heads_up = read_histories(DATA / "pokerkit_fo8_2.phh")[0][1]
    assert heads_up.variant == "FO/8" and heads_up.players == 2
    collection = read_histories(DATA / "pokerkit_mixed.phhs")
    assert [name for name, _ in collection] == ["1", "2", "3", "4"]
    assert {hh.variant for _, hh in collection} == {"PO", "FO/8"}


def test_committed_fixtures_are_what_pokerkit_writes():
    pytest.importorskip("pokerkit")
    for name, text in _fixtures().items():
        assert loads_all((DATA / name).read_text()) == loads_all(text)


def _fixtures() -> dict[str, str]:
    mixed = [("PO", 4, 101), ("FO/8", 3, 102), ("PO", 2, 103), ("FO/8", 6, 104)]
    return {
        "pokerkit_po_3.phh": pokerkit_history("PO", 3, 7),
        "pokerkit_fo8_2.phh": pokerkit_history("FO/8", 2, 11),
        "pokerkit_bb_ante.phh": pokerkit_history("PO", 7, 5, antes=(0, 3, 0, 0, 0, 0, 0)),
        "pokerkit_mixed.phhs": "\n".join(
            f"[{i}]\n{pokerkit_history(code, n, seed)}"
            for i, (code, n, seed) in enumerate(mixed, 1)
        ),
    }


if __name__ == "__main__":
    header = "# Written by PokerKit {}: python tests/test_phh_pokerkit.py (seeded random hands).\n"
    from importlib.metadata import version as installed_version

    version = installed_version("pokerkit")
    for file_name, body in _fixtures().items():
        (DATA / file_name).write_text(header.format(version) + body)
        print("wrote", DATA / file_name, file=sys.stderr)


# ---------------------------------------------------------------- replays of PokerKit hands


def _odd_chips_only(result) -> bool:
    """True when the stacks differ from PokerKit's only by odd chips of split pots.

    RULES S2/S3 give each pot's odd chips clockwise from the button and never two to one
    winner of a pot while another tied winner has none; PokerKit places them otherwise.
    """
    from omaha.game.events import PotAwarded

    expected = result.history.finishing_stacks
    diffs = [ours - theirs for ours, theirs in zip(result.finishing_stacks, expected)]
    pots = [e for e in result.hand.events if isinstance(e, PotAwarded)]
    split = {
        seat for pot in pots for side in (pot.high, pot.low) if len(side) > 1 for seat, _ in side
    }
    seats = list(result.history.metadata.get("seats") or range(1, result.history.players + 1))
    return (
        sum(diffs) == 0
        and all(abs(d) <= 2 * len(pots) for d in diffs)
        and all(seats[p] in split for p, d in enumerate(diffs) if d)
    )


@pytest.mark.parametrize("code", ["PO", "FO/8"])
def test_pokerkit_hands_replay_through_the_engine_to_pokerkit_stacks(code):
    """Hands PokerKit dealt and settled end with the same stacks in the engine (2-10 players,
    no antes or equal antes), except for odd-chip placement, where the rules differ."""
    from omaha.phh.replay import replay_history

    odd = 0
    for seed in range(150):
        players = 2 + seed % 9
        history = loads(pokerkit_history(code, players, seed, antes=(0, 2)[seed % 2]))
        result = replay_history(history)
        assert result.complete
        if not result.matches:
            assert _odd_chips_only(result), (
                seed,
                result.finishing_stacks,
                history.finishing_stacks,
            )
            odd += 1
    assert odd <= 6


def test_big_blind_ante_hands_match_pokerkit():
    from omaha.phh.replay import replay_history

    history = read_histories(DATA / "pokerkit_bb_ante.phh")[0][1]
    assert replay_history(history).matches
