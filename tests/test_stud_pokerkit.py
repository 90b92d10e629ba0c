"""Random stud hands played by PokerKit replay here to PokerKit's finishing stacks (E1-E7).

PokerKit is an optional test dependency (the ``test`` extra installs it): without it these
tests skip, saying so. PokerKit plays each hand: the cards come from a seeded shuffle, dealt
one at a time to the player PokerKit names and burned where PokerKit burns, so the same
order is this package's dealt deck; the actions are random among those PokerKit allows
(bring-in or completion, fold, check/call, complete/bet/raise). The compiled stud engine
replays every action and must name the same player to act before each one (bring-in, E3;
order of action from the up cards, E4) and end on the same stacks.

2 to 8 players. With 7 or 8 players who all reach seventh street the deck runs short, where
PokerKit and E2 part ways (E2 deals one shared card; PokerKit has no such card): those few
hands are left out here (counted), and the shared card is tested on its own in
test_stud_rules.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from omahacore.cards import format_card
from omahacore.errors import IllegalActionError
from omahacore.stud import GAME_HIGH, GAME_HILO, GAME_RAZZ, StudCore
from omahacore.transitions import Reason

pokerkit = pytest.importorskip("pokerkit", reason="PokerKit (the test extra) is not installed")

GAMES = {
    "F7S": (GAME_HIGH, "FixedLimitSevenCardStud"),
    "F7S/8": (GAME_HILO, "FixedLimitSevenCardStudHighLowSplitEightOrBetter"),
    "FR": (GAME_RAZZ, "FixedLimitRazz"),
}
HANDS = 300


class DeckShort(Exception):
    """The deck ran short (E2), where PokerKit has no shared card."""


def pokerkit_hand(code: str, seed: int, refusals: list[Any] | None = None) -> tuple[
        list[int], dict[str, int], bytes, list[tuple[int, str, int]], list[int]]:
    """One random hand played by PokerKit: the stacks, the structure, the dealt deck, the
    actions as ``(player, kind, amount)`` and PokerKit's finishing stacks.

    A raise PokerKit allows but this package refuses (PokerKit and the rules disagree) is
    played as a call instead, its refusal appended to ``refusals``."""
    from pokerkit import Automation, Card

    rng = random.Random(seed)
    n = rng.randint(2, 8)
    stacks = [rng.choice([rng.randint(3, 40), rng.randint(40, 400)]) for _ in range(n)]
    small = rng.choice([2, 4, 10])
    structure = {"ante": rng.choice([0, 1, 2]), "bring_in": rng.randint(1, small // 2 + 1),
                 "small_bet": small, "big_bet": 2 * small}
    if structure["bring_in"] >= small:
        structure["bring_in"] = small - 1
    deck = rng.sample(range(52), 52)
    ours = StudCore(GAMES[code][0], stacks, bytes(deck), **structure)
    game = getattr(pokerkit, GAMES[code][1])
    state = game.create_state(
        (Automation.ANTE_POSTING, Automation.BET_COLLECTION,
         Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
         Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING),
        False, structure["ante"], structure["bring_in"], structure["small_bet"],
        structure["big_bet"], stacks, n)
    dealt: list[int] = []
    actions: list[tuple[int, str, int]] = []

    def card(index: int) -> Any:
        return next(iter(Card.parse(format_card(index))))

    while state.status:
        if (state.can_burn_card() or state.can_deal_hole()) and len(dealt) == 52:
            raise DeckShort
        if state.can_burn_card():
            state.burn_card(card(deck[len(dealt)]))
            dealt.append(deck[len(dealt)])
        elif state.can_deal_hole():
            state.deal_hole(card(deck[len(dealt)]))
            dealt.append(deck[len(dealt)])
        elif state.actor_index is not None:
            i = state.actor_index
            x = rng.random()
            bringing_in = state.can_post_bring_in()
            if bringing_in and (x < 0.7 or not state.can_complete_bet_or_raise_to()):
                actions.append((i, "bring_in", 0))
                ours.post_bring_in()
                state.post_bring_in()
            elif state.can_complete_bet_or_raise_to() and (bringing_in or x < 0.35):
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                to = rng.choice([low, high])
                try:
                    ours.bet_or_raise(to)
                except IllegalActionError as refusal:
                    if bringing_in:   # PokerKit's "completion" short of the bring-in: the
                        actions.append((i, "bring_in", 0))   # same all-in bring-in (E3, B8)
                        ours.post_bring_in()
                        state.post_bring_in()
                        continue
                    if refusals is None:
                        raise
                    refusals.append(refusal)
                    actions.append((i, "call", 0))
                    ours.check_or_call()
                    state.check_or_call()
                    continue
                actions.append((i, "raise", to))
                state.complete_bet_or_raise_to(to)
            elif state.can_fold() and x > 0.85:
                actions.append((i, "fold", 0))
                ours.fold()
                state.fold()
            else:
                actions.append((i, "call", 0))
                ours.check_or_call()
                state.check_or_call()
        else:  # pragma: no cover - every other step is automated
            raise AssertionError("PokerKit is waiting for something this test does not do")
    rest = [c for c in deck if c not in dealt]
    return stacks, structure, bytes(dealt + rest), actions, list(state.stacks)


def replay(code: str, stacks: list[int], structure: dict[str, int], deck: bytes,
           actions: list[tuple[int, str, int]]) -> StudCore:
    hand = StudCore(GAMES[code][0], stacks, deck, **structure)
    for step, (player, kind, to) in enumerate(actions):
        assert hand.to_act == player, f"step {step}: PokerKit's turn is {player}, ours {hand.to_act}"
        if kind == "bring_in":
            hand.post_bring_in()
        elif kind == "raise":
            hand.bet_or_raise(to)
        elif kind == "fold":
            hand.fold()
        else:
            hand.check_or_call()
    assert hand.is_over
    return hand


def odd_chips_only(hand: StudCore, theirs: list[int]) -> bool:
    """Whether the stacks differ from PokerKit's only by odd chips of split pots: S2/S3 give
    the halving chip to the high half and a half's odd chips clockwise from the dealer's left
    (E7); PokerKit places them otherwise. At most one chip per pot, only at a showdown."""
    diffs = [ours - other for ours, other in zip(hand.stacks, theirs)]
    pots = len(set(hand.contributions))
    return (hand.strengths is not None and sum(diffs) == 0
            and all(abs(d) <= pots for d in diffs))


def side_pot_without_low(hand: StudCore) -> bool:
    """Whether a hi/lo showdown has a side pot none of whose players has a low while a
    player of a smaller pot has one. S3 (E7): that side pot goes whole to its best high;
    PokerKit splits it as if the other pot's low played in it."""
    if hand.strengths is None or hand.strengths[1] is None:
        return False
    live = [i for i in range(hand.players) if not hand.folded[i]]
    low = hand.strengths[1]
    levels = sorted({hand.contributions[i] for i in live})
    for level in levels[1:]:
        eligible = [i for i in live if hand.contributions[i] >= level]
        if len(eligible) > 1 and not any(low[i] for i in eligible) and any(low[i] for i in live):
            return True
    return False


@pytest.mark.filterwarnings("ignore:Returning reserved")   # PokerKit, as the deck runs short
@pytest.mark.parametrize("code", sorted(GAMES))
def test_e1_e7_pokerkit_hands_replay_to_pokerkit_stacks(code):
    """E2-E7 against PokerKit: the bring-in (E3) and the order of action (E4) agree before
    every action, and the pots (E6, E7) end on the same stacks."""
    showdowns = odd = short = 0
    refusals: list[IllegalActionError] = []
    for seed in range(HANDS):
        try:
            stacks, structure, deck, actions, final = pokerkit_hand(code, 26_000 + seed, refusals)
        except DeckShort:
            short += 1
            continue
        hand = replay(code, stacks, structure, deck, actions)
        if hand.stacks != final:
            assert odd_chips_only(hand, final) or side_pot_without_low(hand), (
                code, seed, hand.stacks, final, hand.log)
            odd += 1
        showdowns += hand.strengths is not None
    assert odd <= HANDS // 20 and short <= HANDS // 20
    assert showdowns > HANDS // 10   # the showdown (E6) is reached often enough to count
    # The known disagreement, the flop games' too (the betting code is the same): after an
    # all-in bet of less than half a unit, B7 keeps the betting where it was (the next bet
    # is to one unit, LIMIT_EXACT; a player who already acted may only call, NOT_REOPENED);
    # PokerKit raises a unit over the all-in and reopens. Such hands follow B7 here (the
    # raise is played as a call), a few in each game.
    assert {r.reason for r in refusals} <= {Reason.NOT_REOPENED, Reason.LIMIT_EXACT}, refusals[:3]
    assert len(refusals) < HANDS // 10
