"""The engine's award: the big blind ante as dead money (P1, K1), a rake rule that answers
nonsense (K1: a clear error and the hand left as it was), and the timeout hooks the clock
uses (D2: every policy through the hand's own log)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine_helpers import make_hand
from omaha.config import GameConfig
from omaha.errors import TableError
from omaha.game.clock import TimeoutPolicy
from omaha.game.events import Checked, Folded, Mucked, PotAwarded, ProtectedAllIn, TimedOut
from omaha.game.hand import Hand
from omaha.game.rake import PercentageRake
from omaha.history.snapshot import replay

BOARD = "As7c2d9hKs"


class RecordingRake:
    """Answers ``answer`` (default: a fixed 1) and records every question (K1 hook)."""

    def __init__(self, answer: Any = 1) -> None:
        self.answer = answer
        self.asked: list[tuple[int, int, bool]] = []

    def rake_for(self, pot_total: int, players_dealt: int, saw_flop: bool) -> int:
        self.asked.append((pot_total, players_dealt, saw_flop))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer  # type: ignore[no-any-return]


# ---------------------------------------------------------------- P1 dead money

def test_p1_bb_ante_example_one_main_pot_contested_by_all() -> None:
    # Big blind ante 10 on top of the 10 blind; the others call 10: one pot of 40.
    config = GameConfig.no_limit(small_blind=5, big_blind=10, big_blind_ante=10)
    hand = make_hand(config, {1: 100, 2: 100, 3: 100}, button=1)
    hand.call(); hand.call(); hand.check()
    assert hand.pots() == [(40, (1, 2, 3))]
    while not hand.is_over:
        hand.check_or_call()
    result = hand.result
    assert result is not None and result.returned == {}
    assert [(p.amount, p.eligible) for p in result.pots] == [(40, (1, 2, 3))]
    assert result.settlement.total == 40 == sum(result.payouts.values())
    assert len(result.settlement.payouts) == 3        # one entry per player, nobody else


def test_p1_short_all_in_bb_whose_ante_exceeds_the_smallest_live_stake() -> None:
    # Seat 2 posts a 30-chip small blind all-in; seat 3, the big blind, has 150: the blind
    # (100) first, then 50 of the 100 ante, all-in. The 50 ante is more than seat 2's 30 and
    # all of it is in the main pot that seat 2 contests: 3 * 30 + 50 = 140, side pot 140.
    config = GameConfig.no_limit(small_blind=50, big_blind=100, big_blind_ante=100)
    hand = make_hand(config, {1: 1000, 2: 30, 3: 150}, button=1,
                     hole_cards={1: "2c3c4h5h", 2: "AhAdKhKd", 3: "QhQdJhJd"}, board=BOARD)
    assert hand.contributions == {1: 0, 2: 30, 3: 150}
    hand.call()                                      # seat 1 calls 100; everyone is all-in
    assert hand.is_over and hand.result is not None
    assert [(p.amount, p.eligible) for p in hand.result.pots] == [(140, (1, 2, 3)),
                                                                  (140, (1, 3))]
    assert hand.stacks == {1: 900, 2: 140, 3: 140}


def test_p1_pots_mid_hand_show_the_ante_in_the_main_pot() -> None:
    config = GameConfig.no_limit(small_blind=50, big_blind=100, big_blind_ante=100)
    hand = make_hand(config, {1: 1000, 2: 1000, 3: 1000}, button=1)
    # 50 + 50 matched + 100 dead; 50 of the big blind is not matched yet. Seat 1 has put in
    # nothing and so has no claim yet (P1, as the chips stand).
    assert hand.pots() == [(200, (2, 3))]
    hand.bet_or_raise(300)                           # 200 of it not matched yet
    assert hand.pots() == [(250, (1, 2, 3)), (100, (1, 3))]


@pytest.mark.parametrize("ends", ["folds", "showdown"])
def test_k1_rake_rule_is_asked_for_the_pots_with_the_ante_counted_once(ends: str) -> None:
    config = GameConfig.no_limit(small_blind=5, big_blind=10, big_blind_ante=10)
    rake = RecordingRake(answer=3)
    hand = make_hand(config, {1: 100, 2: 100, 3: 100}, button=1, rake=rake, board=BOARD)
    if ends == "folds":
        hand.bet_or_raise(30); hand.fold(); hand.fold()   # 5 + 10 + 10 ante + 10 called
        expected = 35
    else:
        hand.call(); hand.call(); hand.check()
        while not hand.is_over:
            hand.check_or_call()
        expected = 40
    result = hand.result
    assert result is not None
    in_pots = sum(p.amount for p in result.pots)
    assert rake.asked == [(expected, 3, ends == "showdown")] and in_pots == expected
    assert sum(result.stacks.values()) + result.rake == 300 and result.rake == 3


# ---------------------------------------------------------------- K1 a bad rake rule

def state_of(hand: Hand) -> dict[str, Any]:
    """Everything observable about a hand (the snapshot holds the log and the deck)."""
    legal = hand.legal_actions() if hand.to_act is not None else None
    return {"snapshot": hand.snapshot(), "to_act": hand.to_act, "street": hand.street,
            "stacks": hand.stacks, "bets": hand.bets, "pot": hand.pot_total,
            "contributions": hand.contributions, "pots": hand.pots(), "legal": legal,
            "states": [hand.state(s) for s in hand.seats], "is_over": hand.is_over,
            "current_bet": hand.current_bet(), "shown": hand.shown_hands()}


def check_bad_rake_leaves_the_hand_as_it_was(hand: Hand, rake: RecordingRake,
                                             action: Any) -> None:
    before = state_of(hand)
    for answer in (-1, 1.5, 10**9, "2", True, None):
        rake.answer = answer
        with pytest.raises(TableError, match="K1") as info:
            action(hand)
        assert info.value.rule == "K1" and repr(answer) in str(info.value)
        assert "back as it was before the last action" in str(info.value)
        assert state_of(hand) == before
    rake.answer = ValueError("the rake service is down")    # the rule's own error, as is
    with pytest.raises(ValueError, match="service is down"):
        action(hand)
    assert state_of(hand) == before
    rake.answer = 1                                          # fixed: the same action works
    action(hand)
    assert hand.is_over and hand.result is not None and hand.result.rake == 1
    assert sum(hand.result.stacks.values()) + 1 == sum(before["snapshot"]["events"][0]["stacks"])


def test_k1_bad_rake_on_the_last_fold_leaves_the_hand_as_it_was() -> None:
    rake = RecordingRake()
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2),
                     {1: 100, 2: 100, 3: 100}, button=1, rake=rake)
    hand.fold()
    check_bad_rake_leaves_the_hand_as_it_was(hand, rake, lambda h: h.fold())


def test_k1_bad_rake_on_the_river_check_leaves_the_hand_as_it_was() -> None:
    rake = RecordingRake()
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2),
                     {1: 100, 2: 100, 3: 100}, button=1, rake=rake, board=BOARD)
    hand.call(); hand.call(); hand.check()
    for _ in range(8):
        hand.check()
    check_bad_rake_leaves_the_hand_as_it_was(hand, rake, lambda h: h.check())


def test_k1_bad_rake_on_an_all_in_call_with_a_runout_leaves_the_hand_as_it_was() -> None:
    rake = RecordingRake()
    hand = make_hand(GameConfig.no_limit(small_blind=1, big_blind=2, big_blind_ante=2),
                     {1: 100, 2: 60, 3: 100}, button=1, rake=rake, board=BOARD)
    hand.fold(); hand.all_in()
    assert hand.board == ()
    check_bad_rake_leaves_the_hand_as_it_was(hand, rake, lambda h: h.call())
    assert len(hand.board) == 5


def test_k1_bad_rake_on_a_timeout_takes_back_the_timed_out_record_too() -> None:
    rake = RecordingRake()
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2),
                     {1: 100, 2: 100, 3: 100}, button=1, rake=rake)
    hand.fold()
    check_bad_rake_leaves_the_hand_as_it_was(hand, rake, lambda h: h.timeout())
    kinds = [type(e) for e in hand.events]
    assert kinds.count(TimedOut) == 1
    assert kinds[kinds.index(TimedOut) + 1] is ProtectedAllIn


def test_k1_bad_rake_on_a_manual_showdown_muck_leaves_the_hand_as_it_was() -> None:
    rake = RecordingRake()
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2),
                     {1: 100, 2: 100, 3: 100}, button=1, rake=rake, manual_showdown=True,
                     hole_cards={1: "2c3c4h5h", 2: "AhAdKhKd", 3: "QhQdJhJd"}, board=BOARD)
    hand.call(); hand.call(); hand.check()
    while hand.street.name != "SHOWDOWN":
        hand.check()
    assert hand.to_act == 3 and hand.legal_actions().can_muck   # seat 2 showed the aces
    hand.muck()
    assert hand.to_act == 1
    check_bad_rake_leaves_the_hand_as_it_was(hand, rake, lambda h: h.muck())
    assert Mucked(seat=1) in hand.events


def test_k1_a_hand_that_ends_as_it_is_dealt_refuses_a_bad_rake_rule() -> None:
    # Both players are all-in from the blinds: the hand ends inside the constructor, so
    # there is no earlier state to go back to; the error names K1 and no hand is made.
    with pytest.raises(TableError, match="K1.*no hand was dealt"):
        make_hand(GameConfig.no_limit(small_blind=1, big_blind=2), {1: 1, 2: 2}, button=1,
                  rake=RecordingRake(answer=-1))


def test_k1_the_hand_stays_restorable_after_a_refused_rake() -> None:
    rake = RecordingRake(answer=-1)
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2),
                     {1: 100, 2: 100, 3: 100}, button=1, rake=rake)
    hand.fold()
    with pytest.raises(TableError, match="K1"):
        hand.fold()
    copy = Hand.restore(json.loads(json.dumps(hand.snapshot())), rake=PercentageRake(
        per_unit=5, unit=100, caps=(), minimum=0, no_flop_no_drop=False))
    assert copy.events == hand.events
    copy.fold()
    assert copy.is_over and isinstance(copy.events[-2], PotAwarded)


# ---------------------------------------------------------------- D2 hooks for the clock

def test_event_count_is_the_length_of_the_log() -> None:
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2), {1: 50, 2: 50}, button=1)
    while not hand.is_over:
        assert hand.event_count == len(hand.events)
        hand.check_or_call()
    assert hand.event_count == len(hand.events)


@pytest.mark.parametrize(("policy", "free_check", "expected"), [
    (TimeoutPolicy.CHECK_PROTECT_FOLD, True, Checked),
    (TimeoutPolicy.CHECK_FOLD, True, Checked),
    (TimeoutPolicy.FOLD, True, Folded),
    (TimeoutPolicy.CHECK_PROTECT_FOLD, False, ProtectedAllIn),
    (TimeoutPolicy.CHECK_FOLD, False, Folded),
    (TimeoutPolicy.FOLD, False, Folded),
])
def test_d2_every_timeout_policy_is_logged_by_the_hand(policy: TimeoutPolicy, free_check: bool,
                                                       expected: type) -> None:
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2),
                     {1: 100, 2: 100, 3: 100}, button=1)
    if free_check:
        hand.call(); hand.call()                     # the big blind may check
    else:
        hand.bet_or_raise(7)                         # the small blind (1 in) faces a raise
    seat, at = hand.to_act, hand.event_count
    done = hand.timeout(policy=policy)
    assert seat is not None and hand.events[at] == TimedOut(seat=seat)
    assert type(hand.events[at + 1]) is expected
    assert done == {Checked: "check", Folded: "fold", ProtectedAllIn: "all_in"}[expected]
    # The log replays to the same hand, whatever the policy was.
    assert replay(hand.events).events == hand.events


def test_d2_timeout_refuses_an_unknown_policy_and_changes_nothing() -> None:
    hand = make_hand(GameConfig.pot_limit(small_blind=1, big_blind=2), {1: 50, 2: 50}, button=1)
    before = hand.snapshot()
    with pytest.raises(TableError, match="policy must be a TimeoutPolicy"):
        hand.timeout(policy="fold")  # type: ignore[arg-type]
    assert hand.snapshot() == before
