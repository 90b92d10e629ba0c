"""S1 showdown order and voluntary mucking, D2 timeouts, and the rake hook (K1)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine_helpers import make_hand
from omaha.config import OMAHA_HILO, GameConfig
from omaha.errors import IllegalActionError, TableError
from omaha.game.events import Mucked, ProtectedAllIn, Shown, TimedOut
from omaha.game.hand import Street
from omaha.game.showdown import ShowdownState

PL = GameConfig.pot_limit(small_blind=1, big_blind=2)
CARDS = {1: "KhKc7s8s", 2: "9c9dTcTd", 3: "2c2d8c9s"}   # trip kings > tens > deuces
BOARD = "3h4h5cKdJh"


def shown_order(hand: object) -> list[tuple[str, int]]:
    return [(type(e).__name__, e.seat) for e in hand.events  # type: ignore[attr-defined]
            if isinstance(e, (Shown, Mucked))]


def test_s1_no_river_bet_first_player_left_of_the_button_shows_first() -> None:
    hand = make_hand(PL, {1: 100, 2: 100, 3: 100}, button=1, hole_cards=CARDS, board=BOARD)
    while not hand.is_over:
        hand.check_or_call()
    # seat 2 first (left of the button); seat 3's deuces cannot beat tens; kings can
    assert shown_order(hand) == [("Shown", 2), ("Mucked", 3), ("Shown", 1)]


def test_s1_last_river_aggressor_shows_first() -> None:
    hand = make_hand(PL, {1: 100, 2: 100, 3: 100}, button=1, hole_cards=CARDS, board=BOARD)
    while hand.street < Street.RIVER:
        hand.check_or_call()
    hand.check(); hand.bet_or_raise(4); hand.call(); hand.call()   # seat 3 bets on the river
    assert [s for _, s in shown_order(hand)] == [3, 1, 2]
    # seat 3 shows (nothing shown yet); seat 1 could win: shown; seat 2 cannot: mucked
    assert shown_order(hand) == [("Shown", 3), ("Shown", 1), ("Mucked", 2)]


def test_s1_manual_showdown_offers_a_muck_only_to_hands_that_cannot_win() -> None:
    hand = make_hand(PL, {1: 100, 2: 100, 3: 100}, button=3, hole_cards=CARDS, board=BOARD,
                     manual_showdown=True)
    while hand.street < Street.SHOWDOWN:
        hand.check_or_call()
    # order from left of the button (seat 3): seat 1 shows kings full by force (could win);
    # seat 2 then cannot beat them and chooses.
    assert hand.street == Street.SHOWDOWN and hand.to_act == 2 and not hand.is_over
    legal = hand.legal_actions()
    assert legal.can_show and legal.can_muck and not legal.can_fold
    with pytest.raises(IllegalActionError, match="S1"):
        hand.muck(seat=3)
    with pytest.raises(IllegalActionError, match="B1"):
        hand.check()
    hand.show()
    assert hand.to_act == 3
    hand.muck()
    assert hand.is_over and shown_order(hand) == [("Shown", 1), ("Shown", 2), ("Mucked", 3)]
    result = hand.result
    assert result is not None and result.mucked == (3,) and set(result.shown) == {1, 2}


def test_s1_all_in_hands_are_turned_up_even_when_beaten() -> None:
    hand = make_hand(PL, {1: 300, 2: 300, 3: 8}, button=1, hole_cards=CARDS, board=BOARD)
    hand.call(); hand.call(); hand.check()
    hand.check(); hand.bet_or_raise(6)         # seat 3 all-in on the flop
    hand.call(); hand.call()
    while not hand.is_over:
        hand.check_or_call()
    assert ("Shown", 3) in shown_order(hand)   # deuces, all-in: shown anyway


def test_s1_side_pot_contender_must_show_when_main_pot_is_lost() -> None:
    # seat 3 all-in with the best hand; seats 1 and 2 contest a side pot: both must show
    cards = {1: "9c9dTcTd", 2: "2c2d8c9s", 3: "KhKc7s8s"}
    hand = make_hand(PL, {1: 300, 2: 300, 3: 8}, button=1, hole_cards=cards, board=BOARD)
    hand.call(); hand.call(); hand.check()
    hand.check(); hand.bet_or_raise(6); hand.call(); hand.call()      # main pot 24
    hand.check(); hand.check()
    hand.bet_or_raise(10); hand.call()                              # river: seat 2 bets
    assert shown_order(hand) == [("Shown", 2), ("Shown", 3), ("Shown", 1)]
    result = hand.result
    assert result is not None and [p.high for p in result.pots] == [((3, 24),), ((1, 20),)]


def test_showdown_state_against_a_naive_reference() -> None:
    rng = random.Random(8)
    for _ in range(3000):
        n = rng.randint(2, 6)
        contrib = [rng.choice([10, 20, 20, 30, 50]) for _ in range(n)]
        live = [rng.random() < 0.8 for _ in range(n)]
        high = [rng.randint(1, 6) for _ in range(n)]
        low = [rng.choice([0, 0, 1, 2, 3]) for _ in range(n)] if rng.random() < 0.5 else None
        state = ShowdownState(contrib=contrib, live=live, high=high, low=low)
        shown = [False] * n
        for player in rng.sample(range(n), n):
            if not live[player]:
                continue
            assert state.can_win(player) == naive_can_win(player, contrib, live, shown, high, low)
            if rng.random() < 0.7:
                state.reveal(player)
                shown[player] = True


def test_showdown_decide_against_a_naive_sequence() -> None:
    rng = random.Random(21)
    for _ in range(3000):
        n = rng.randint(2, 7)
        contrib = [rng.choice([5, 10, 10, 25, 40]) for _ in range(n)]
        live = [rng.random() < 0.85 for _ in range(n)]
        high = [rng.randint(1, 5) for _ in range(n)]
        low = [rng.choice([0, 1, 2, 3]) for _ in range(n)] if rng.random() < 0.5 else None
        forced = [rng.random() < 0.2 for _ in range(n)]
        order = [j for j in rng.sample(range(n), n) if live[j]]
        state = ShowdownState(contrib=contrib, live=live, high=high, low=low)
        decided = state.decide(list(order), forced, stop_at_choice=False)
        shown = [False] * n
        expected = []
        for j in order:
            up = forced[j] or naive_can_win(j, contrib, live, shown, high, low)
            shown[j] = shown[j] or up
            expected.append((j, up))
        assert decided == expected
        waiting = list(order)
        partial = ShowdownState(contrib=contrib, live=live, high=high, low=low).decide(
            waiting, forced, stop_at_choice=True)
        assert partial == expected[:len(partial)]
        if waiting:   # stopped at the first player free to muck
            assert not expected[len(partial)][1]


def naive_can_win(player: int, contrib: Sequence[int], live: Sequence[bool], shown: Sequence[bool],
                  high: Sequence[int], low: Sequence[int] | None) -> bool:
    """Build every pot layer from scratch and ask whether ``player`` could take a share."""
    levels = sorted({c for c, alive in zip(contrib, live) if alive})
    for top in levels:
        if top > contrib[player]:
            break
        rivals = [j for j in range(len(contrib)) if live[j] and contrib[j] >= top and j != player]
        if not rivals:
            continue          # uncontested layer
        seen = [j for j in rivals if shown[j]]
        if not seen:
            return True
        if high[player] >= max(high[j] for j in seen):
            return True
        if low is not None and low[player] > 0 and low[player] >= max(low[j] for j in seen):
            return True
    return False


# --- D2 timeouts ------------------------------------------------------------------------

def test_d2_timeout_checks_when_free() -> None:
    hand = make_hand(PL, {1: 100, 2: 100, 3: 100}, button=1)
    hand.call(); hand.call()
    assert hand.timeout() == "check" and hand.street == Street.FLOP


def test_d2_timeout_folds_without_chips_in() -> None:
    hand = make_hand(PL, {1: 100, 2: 100, 3: 100}, button=1)
    assert hand.timeout() == "fold" and hand.state(1) == "folded"
    assert [type(e) for e in hand.events[-2:]] == [TimedOut, type(hand.events[-1])]


def test_d2_timeout_with_chips_in_is_a_protected_all_in() -> None:
    hand = make_hand(PL, {1: 100, 2: 100, 3: 100}, button=1,
                     hole_cards={1: "9c9dTcTd", 2: "KhKc7s8s", 3: "2c2d8c9s"}, board=BOARD)
    hand.bet_or_raise(7)            # seat 1
    assert hand.timeout() == "all_in"   # seat 2 (small blind, 1 in) is protected
    assert hand.state(2) == "protected" and isinstance(hand.events[-1], ProtectedAllIn)
    hand.call()                     # seat 3 calls 7
    while not hand.is_over:
        hand.check_or_call()
    # seat 2 has the best hand but only the 3 chips they put in are theirs to win (1 each);
    # the rest of their stack (99) stays with them.
    assert hand.stacks[2] == 99 + 3
    assert sum(hand.stacks.values()) == 300


def test_d2_protect_needs_chips_in() -> None:
    hand = make_hand(PL, {1: 100, 2: 100, 3: 100}, button=1)
    with pytest.raises(IllegalActionError, match="D2"):
        hand.protect_all_in()


# --- K1 rake hook -------------------------------------------------------------------------

class TenPercent:
    def __init__(self) -> None:
        self.asked: list[tuple[int, int, bool]] = []

    def rake_for(self, pot_total: int, players_dealt: int, saw_flop: bool) -> int:
        self.asked.append((pot_total, players_dealt, saw_flop))
        return pot_total // 10 if saw_flop else 0


def test_k1_rake_is_asked_once_with_the_pot_less_uncalled_chips() -> None:
    rake = TenPercent()
    config = GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO)
    hand = make_hand(config, {1: 100, 2: 100, 3: 100}, rake=rake)
    hand.call(); hand.call(); hand.check()
    hand.bet_or_raise(6); hand.fold(); hand.fold()
    assert rake.asked == [(6, 3, True)]
    result = hand.result
    assert result is not None and result.rake == 0   # 6 // 10
    rake2 = TenPercent()
    hand = make_hand(config, {1: 100, 2: 100, 3: 100}, rake=rake2)
    while not hand.is_over:
        hand.check_or_call()
    assert rake2.asked == [(6, 3, True)]


def test_k1_rake_is_taken_before_awarding() -> None:
    class Fixed:
        def rake_for(self, pot_total: int, players_dealt: int, saw_flop: bool) -> int:
            return 3

    hand = make_hand(PL, {1: 100, 2: 100}, rake=Fixed())
    while not hand.is_over:
        hand.check_or_call()
    assert sum(hand.stacks.values()) == 197
    result = hand.result
    assert result is not None and result.rake == 3


def test_k1_bad_rake_is_refused() -> None:
    class Greedy:
        def rake_for(self, pot_total: int, players_dealt: int, saw_flop: bool) -> int:
            return pot_total + 1

    hand = make_hand(PL, {1: 100, 2: 100}, rake=Greedy())
    with pytest.raises(TableError, match="K1"):
        hand.fold()
