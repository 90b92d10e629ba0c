"""The reverse cross-check (issue 26): stud hands played here, written as PHH, replay in
PokerKit to the same finishing stacks (E1-E7).

PokerKit is an optional test dependency (the ``test`` extra installs it): without it these
tests skip, saying so. Random bots play seeded random hands here (2 to 8 players, random
stacks, antes, bring-ins and dealers); each is written with :func:`omaha.phh.stud.stud_history`
and loaded with ``pokerkit.HandHistory.loads``, and every action is applied strictly, one by
one, with PokerKit's own ``parse_action`` (no automatic repair: only the burns, which PHH does
not write, are dealt as PokerKit's ``HandHistory`` deals them). PokerKit must take every
action and end on the package's ``finishing_stacks``.

Hands are left out only where the rules here and PokerKit's part ways, each counted and
recognised from the engine's own state at the action PokerKit refuses (never from
PokerKit's message alone):

* ``short deck``: 7 or 8 players reach seventh street and the deck runs short; E2 deals one
  shared card, PokerKit has none (as in ``test_stud_pokerkit.py``);
* ``open pair``: seven-card stud, a pair showing on fourth street, and a bet or raise of more
  than the small bet there (E5's option of the big bet, docs/stud.md; all-in for less
  included); PokerKit allows only the small bet;
* ``short all-in``: a bet or raise on a street where a player went all-in for a part of a
  bet (B7: less than half a unit keeps the betting where it was, half or more reopens it);
  PokerKit raises a unit over the all-in and never reopens (as in ``test_stud_pokerkit.py``);
* ``uncallable raise``: a raise no opponent can call any part of (every other player still
  in is all-in, or has no more behind than the bet already made); the engine takes it and
  returns it (P1), PokerKit refuses it (as :mod:`omaha.phh.export` says for the flop games);
* ``odd chips`` and ``side pot without a low``: the showdown's pots are split by S2/S3/E7
  here and otherwise by PokerKit (``odd_chips_only``, ``side_pot_without_low`` of
  ``test_stud_pokerkit.py``).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from typing import Any

import pytest

from omaha.game.stud import StudConfig, StudHand
from omaha.game.studplay import random_stud
from omaha.phh.stud import dumps_stud, stud_history
from omahacore.cards import format_card
from test_stud_pokerkit import odd_chips_only, side_pot_without_low

pokerkit = pytest.importorskip("pokerkit", reason="PokerKit (the test extra) is not installed")

HANDS = 300
DECISIONS = ("pb", "f", "cc", "cbr")


def played(code: str, seed: int) -> StudHand:
    """One random hand played here by the random bots (seeded)."""
    rng = random.Random(seed)
    n = rng.randint(2, 8)
    small = rng.choice([2, 4, 10])
    bring_in = min(rng.randint(1, small // 2 + 1), small - 1)   # PokerKit: below the small bet
    config = StudConfig(variant=code, ante=rng.choice([0, 1, 2]), bring_in=bring_in,
                        small_bet=small)
    stacks = [rng.choice([rng.randint(3, 40), rng.randint(40, 400)]) for _ in range(n)]
    hand = StudHand(config, stacks, dealer=rng.randrange(n), rng=rng)
    while not hand.is_over:
        random_stud(hand, rng)
    return hand


def before(hand: StudHand, decisions: int) -> StudHand:
    """``hand`` dealt again from its deck, with its first ``decisions`` actions played."""
    start = hand.start
    again = StudHand(start.config, start.stacks, dealer=start.dealer, deck=hand.deck)
    entries = [entry for entry in hand.log if entry[0] != "ante"][:decisions]
    for kind, player, amount in entries:
        if kind == "raise":
            again.bet_or_raise(amount)
        elif kind == "fold":
            again.fold()
        else:
            again.check_or_call()
    return again


def why_refused(hand: StudHand, at: StudHand, text: str) -> str | None:
    """The documented difference behind PokerKit's refusal of action ``text`` (a ``cbr``),
    read from ``at``, the engine just before it; None if there is none."""
    if " cbr " not in text:
        return None
    to = int(text.split()[-1])
    config, street = hand.config, at.street
    unit = config.small_bet if street < 2 else config.big_bet
    live = [i for i in range(at.players) if not at.folded[i]]
    current = max(at.bets)
    if (config.variant.name == "Seven-Card Stud" and street == 1 and to - current > unit
            and any(len(up) == 2 and up[0] >> 2 == up[1] >> 2   # dealt a pair (even if
                    for up in map(at.up_cards, range(at.players)))):   # since folded)
        return "open pair"
    if any(at.stacks[i] == 0 and at.bets[i] % unit for i in live):
        return "short all-in"
    me = at.to_act
    if all(at.stacks[i] == 0 or at.bets[i] + at.stacks[i] <= current for i in live if i != me):
        return "uncallable raise"
    return None


def replay_in_pokerkit(text: str) -> tuple[Any, int | None, str | None]:
    """PokerKit's state after every action of ``text`` it takes; the index and text of the
    first it refuses (None, None when it takes them all)."""
    from pokerkit.notation import parse_action

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # PokerKit warns of user fields it does not know
        history = pokerkit.HandHistory.loads(text)
        state = history.create_state()
        for index, action in enumerate(history.actions):
            while state.can_burn_card():
                state.burn_card("??")
            try:
                parse_action(state, action)
            except ValueError:
                return state, index, action
    return state, None, None


@pytest.mark.parametrize("code", ["F7S", "F7S/8", "FR"])
def test_e1_e7_hands_written_here_replay_in_pokerkit_to_the_same_stacks(code):
    counts: Counter[str] = Counter()
    for seed in range(HANDS):
        hand = played(code, 26_500 + seed)
        if hand.community is not None:
            counts["short deck"] += 1
            continue
        history = stud_history(hand)
        order = [seat - 1 for seat in history.seats]   # PHH position -> the hand's player
        state, index, action = replay_in_pokerkit(dumps_stud(history))
        if action is not None:
            decisions = sum(a.split()[1] in DECISIONS for a in history.actions[:index]
                            if not a.startswith("d "))
            reason = why_refused(hand, before(hand, decisions), action)
            assert reason is not None, (code, seed, index, action, dumps_stud(history))
            counts[reason] += 1
            continue
        assert not state.status, (code, seed, "PokerKit's hand is not over")
        theirs = [0] * hand.players
        for k, player in enumerate(order):
            theirs[player] = state.stacks[k]
        if theirs != hand.stacks:
            assert odd_chips_only(hand, theirs) or side_pot_without_low(hand), (
                code, seed, theirs, hand.stacks, dumps_stud(history))
            counts["odd chips or side pot without a low"] += 1
            continue
        counts["same"] += 1
    print(code, dict(counts))   # shown with -s: the counts of every kind
    assert counts["same"] >= HANDS * 80 // 100, counts   # F7S: about 1 in 9 has an open pair
    assert sum(counts.values()) == HANDS
    if code == "F7S":
        assert counts["open pair"] > 0   # the difference is reached, so its check is tested


def test_e2_cards_as_pokerkit_writes_them():
    """The deal is written as PokerKit writes it: one ``d dh`` per player and street, the
    cards in the order dealt, every card of a player's hand once."""
    hand = played("F7S", 7)
    history = stud_history(hand)
    dealt: dict[int, str] = {}
    for action in history.actions:
        if action.startswith("d dh "):
            _, _, player, cards = action.split()
            dealt[int(player[1:]) - 1] = dealt.get(int(player[1:]) - 1, "") + cards
    for k, player in enumerate(seat - 1 for seat in history.seats):
        assert dealt[k] == "".join(format_card(c) for c, _ in hand.cards(player))
