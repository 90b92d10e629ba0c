"""PHH written by PokerKit reads and replays here (issue 26; E1-E7): PokerKit plays random
stud hands, writes each with ``HandHistory.from_game_state`` and ``dumps``, and
:func:`omaha.phh.stud.loads_stud` / :func:`~omaha.phh.stud.replay_stud_history` replay the
text to PokerKit's finishing stacks.

PokerKit is an optional test dependency (the ``test`` extra installs it): without it these
tests skip, saying so. Left out, counted: the short deck (PokerKit has no shared card, E2),
the raises the rules here refuse after an all-in for part of a bet (B7, as in
``test_stud_pokerkit.py``) and split pots' odd chips (S2, S3, E7).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from typing import Any

import pytest

from omaha.errors import HistoryError
from omaha.phh.stud import loads_stud, replay_stud_history
from omahacore.cards import format_card
from test_stud_pokerkit import odd_chips_only, side_pot_without_low

pokerkit = pytest.importorskip("pokerkit", reason="PokerKit (the test extra) is not installed")

GAMES = {"F7S": "FixedLimitSevenCardStud",
         "F7S/8": "FixedLimitSevenCardStudHighLowSplitEightOrBetter", "FR": "FixedLimitRazz"}
HANDS = 200


def pokerkit_text(code: str, seed: int) -> tuple[str, list[int]] | None:
    """One random hand played and written by PokerKit, and its final stacks (None when the
    deck runs short)."""
    from pokerkit import Automation, Card, HandHistory

    rng = random.Random(seed)
    n = rng.randint(2, 8)
    stacks = [rng.choice([rng.randint(3, 40), rng.randint(40, 400)]) for _ in range(n)]
    small = rng.choice([2, 4, 10])
    game = getattr(pokerkit, GAMES[code])(
        (Automation.ANTE_POSTING, Automation.BET_COLLECTION,
         Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
         Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING),
        False, rng.choice([0, 1, 2]), min(rng.randint(1, small // 2 + 1), small - 1), small,
        2 * small)
    state = game(stacks, n)
    deck = iter(rng.sample(range(52), 52))
    while state.status:
        if state.can_burn_card() or state.can_deal_hole():
            card = next(deck, None)
            if card is None:
                return None
            parsed = next(iter(Card.parse(format_card(card))))
            if state.can_burn_card():
                state.burn_card(parsed)
            else:
                state.deal_hole(parsed)
            continue
        if state.can_deal_board():   # the deck ran short (E2): PokerKit deals a card of its
            return None              # own making there (from the burns and the mucks)
        if state.actor_index is None:   # pragma: no cover - every other step is automated
            raise AssertionError("PokerKit waits for a step this test does not take")
        x = rng.random()
        if state.can_post_bring_in() and (x < 0.7 or not state.can_complete_bet_or_raise_to()):
            state.post_bring_in()
        elif state.can_complete_bet_or_raise_to() and x < 0.35:
            state.complete_bet_or_raise_to(rng.choice(
                [state.min_completion_betting_or_raising_to_amount,
                 state.max_completion_betting_or_raising_to_amount]))
        elif state.can_fold() and x > 0.85:
            state.fold()
        elif state.can_check_or_call():
            state.check_or_call()
        else:
            state.complete_bet_or_raise_to()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return HandHistory.from_game_state(game, state).dumps(), list(state.stacks)


@pytest.mark.filterwarnings("ignore:Returning reserved")   # PokerKit, as the deck runs short
@pytest.mark.parametrize("code", sorted(GAMES))
def test_e1_e7_pokerkit_written_stud_phh_replays_to_pokerkit_stacks(code):
    counts: Counter[str] = Counter()
    for seed in range(HANDS):
        written = pokerkit_text(code, 27_000 + seed)
        if written is None:
            counts["short deck"] += 1
            continue
        text, theirs = written
        try:
            replay = replay_stud_history(loads_stud(text))
        except HistoryError as exc:
            # B7 here, PokerKit's own rule there: the raise after a short all-in (B7, B3)
            assert exc.action is not None and " cbr " in exc.action, (code, seed, str(exc), text)
            assert exc.reason.startswith(("B7:", "B3: the raise must be to exactly")), str(exc)
            counts["short all-in"] += 1
            continue
        if list(replay.stacks) != theirs:
            assert odd_chips_only(replay.hand, theirs) or side_pot_without_low(replay.hand), (
                code, seed, replay.stacks, theirs, text)
            counts["odd chips or side pot without a low"] += 1
            continue
        counts["same"] += 1
    print(code, dict(counts))
    assert counts["same"] >= HANDS * 85 // 100, counts


def test_pokerkit_writes_stud_deals_one_street_per_action() -> None:
    """The notation read here is PokerKit's: third street's three cards in one ``d dh``."""
    text, _ = pokerkit_text("FR", 5) or ("", [])
    actions: Any = loads_stud(text).actions
    deals = [a for a in actions if a.startswith("d dh")]
    assert deals and all(len(a.split()[3]) == 6 for a in deals[:2])
