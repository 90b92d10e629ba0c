"""Hand-written cases of the stud rules (E1-E7), each citing its rule.

Decks are stacked: each player's cards are written in the order dealt (two down and one up on
third street, then fourth to seventh street), and ``stacked`` lays them out the way E2 deals
them with nobody folding: one at a time from the dealer's left (the dealer is the last
player), a burn before each street after the third.
"""

from __future__ import annotations

import random

import pytest

from omahacore.cards import parse_cards
from omahacore.errors import IllegalActionError, OmahaError
from omahacore.stud import GAME_FIVE, GAME_HIGH, GAME_HILO, GAME_RAZZ, StudCore
from omahacore.transitions import Reason

STRUCTURE = {"ante": 1, "bring_in": 2, "small_bet": 10, "big_bet": 20}


def stacked(hands: list[str], five: bool = False) -> bytes:
    """The deck that deals ``hands`` (each a player's cards, in the order dealt)."""
    cards = [parse_cards(h) for h in hands]
    first = 2 if five else 3
    order: list[int] = []
    used = {c for h in cards for c in h}
    spare = iter(c for c in range(52) if c not in used)
    for k in range(first):
        order += [h[k] for h in cards if len(h) > k]
    for k in range(first, max(len(h) for h in cards)):
        order.append(next(spare))     # the burn
        order += [h[k] for h in cards if len(h) > k]
    return bytes(order + list(spare))


def hand_of(game: int, hands: list[str], stacks: int = 1000, **structure: int) -> StudCore:
    deck = stacked(hands, five=game == GAME_FIVE)
    return StudCore(game, [stacks] * len(hands), deck, **{**STRUCTURE, **structure})


def call_round(hand: StudCore) -> None:
    """Everyone checks or calls until the street changes (the bring-in posts)."""
    street = hand.street
    while not hand.is_over and hand.street == street:
        hand.check_or_call()


# --- E1, E2: the games and the deal --------------------------------------------------------

def test_e1_two_to_eight_players_and_a_known_game():
    deck = bytes(range(52))
    with pytest.raises(OmahaError, match="E1"):
        StudCore(GAME_HIGH, [100] * 9, deck, **STRUCTURE)
    with pytest.raises(OmahaError, match="E1"):
        StudCore(GAME_HIGH, [100], deck, **STRUCTURE)
    with pytest.raises(OmahaError, match="game"):
        StudCore(9, [100, 100], deck, **STRUCTURE)
    with pytest.raises(OmahaError, match="deck"):
        StudCore(GAME_HIGH, [100, 100], deck[:51] + deck[:1], **STRUCTURE)


def test_e2_seven_card_deal_two_down_one_up_then_up_up_up_down():
    hands = ["2c3c4c5c6c7c8c", "2d3d4d5d6d7d8d", "2h3h4h5h6h7h8h"]
    hand = hand_of(GAME_HIGH, hands)
    assert hand.down_cards(0) == tuple(parse_cards("2c3c"))
    assert hand.up_cards(1) == tuple(parse_cards("4d"))
    while not hand.is_over:
        hand.check_or_call()
    for i, cards in enumerate(hands):
        assert [c for c, _ in hand.cards(i)] == parse_cards(cards)
        assert [up for _, up in hand.cards(i)] == [False, False, True, True, True, True, False]
    assert hand.community is None


def test_e2_five_card_stud_one_down_then_four_up():
    hand = hand_of(GAME_FIVE, ["2c3c4c5c6c", "2d3d4d5d6d"])
    while not hand.is_over:
        hand.check_or_call()
    assert [up for _, up in hand.cards(0)] == [False, True, True, True, True]


def test_e2_the_deck_runs_short_one_shared_card_for_everyone():
    """Eight players to seventh street: 48 cards and 3 burns are out, one card is left, so
    it is dealt face up in the centre as everyone's last card (no burn before it)."""
    deck = bytes(range(52))
    hand = StudCore(GAME_HIGH, [1000] * 8, deck, **STRUCTURE)
    while not hand.is_over:
        hand.check_or_call()
    assert hand.community == 51
    assert all(len(hand.cards(i)) == 6 for i in range(8))
    assert hand.strengths is not None


# --- E3: antes and the bring-in --------------------------------------------------------------

def test_e3_lowest_up_card_brings_in_suit_breaks_the_tie():
    # up cards: 5s, 2d, 2c: the 2c (clubs lowest) brings in
    hand = hand_of(GAME_HIGH, ["AhAd5s", "KhKd2d", "QhQd2c"])
    assert hand.bring_in_seat == 2 and hand.to_act == 2
    assert hand.pot == 3   # everyone anted


def test_e3_razz_highest_up_card_ace_low_higher_suit_brings_in():
    # up cards: Ks, Kd, As: the ace is low; between the kings the spade brings in
    hand = hand_of(GAME_RAZZ, ["2h3dKs", "2d3hKd", "2c3cAs"])
    assert hand.bring_in_seat == 0


def test_e3_five_card_stud_brings_in_on_the_first_up_card():
    hand = hand_of(GAME_FIVE, ["AhKs", "Ad3c", "Kh3d"])
    assert hand.bring_in_seat == 1


def test_e3_bring_in_posts_or_completes_never_folds():
    hand = hand_of(GAME_HIGH, ["AhAd5s", "KhKd2d", "QhQd3c"])
    with pytest.raises(IllegalActionError) as refusal:
        hand.fold()
    assert refusal.value.reason == Reason.BRING_IN_DUE and refusal.value.rule == "E3"
    legal = hand.legal_actions()
    assert not legal.can_fold and legal.call_amount == 2
    assert (legal.min_raise_to, legal.max_raise_to) == (10, 10)   # completion to the small bet
    hand.post_bring_in()
    assert hand.bets == [0, 2, 0]
    assert hand.legal_actions().call_amount == 2          # the next player may call it ...
    assert hand.legal_actions().min_raise_to == 10        # ... or complete


def test_e3_completion_is_the_first_bet_toward_the_cap_and_reopens_for_callers():
    hand = hand_of(GAME_HIGH, ["AhAd5s", "KhKd2d", "QhQd3c", "JhJd4c"])
    hand.post_bring_in()                  # seat 1: 2
    hand.check_or_call()                  # seat 2 calls the bring-in
    hand.bet_or_raise(10)                 # seat 3 completes: bet 1
    hand.bet_or_raise(20)                 # seat 0: raise 1
    hand.bet_or_raise(30)                 # seat 1 (the bring-in) may raise: raise 2
    assert hand.to_act == 2
    legal = hand.legal_actions()          # seat 2 called the bring-in; it may still raise
    assert legal.min_raise_to == 40
    hand.bet_or_raise(40)                 # raise 3: the cap (B3: one bet, three raises)
    legal = hand.legal_actions()
    assert legal.min_raise_to is None
    with pytest.raises(IllegalActionError) as refusal:
        hand.bet_or_raise(50)
    assert refusal.value.reason == Reason.CAPPED


def test_e3_when_everyone_calls_the_bring_in_the_street_ends():
    hand = hand_of(GAME_HIGH, ["AhAd5s", "KhKd2d", "QhQd3c"])
    hand.post_bring_in()
    hand.check_or_call()
    hand.check_or_call()
    assert hand.street == 1 and hand.pot == 3 + 6


# --- E4: order of action --------------------------------------------------------------------

def test_e4_best_hand_showing_acts_first_pairs_then_high_cards():
    # fourth street up cards: seat 0 A-K, seat 1 3-3 (a pair beats ace high), seat 2 the
    # suited connected 9h-Th (no straight or flush counts)
    hand = hand_of(GAME_HIGH, ["2c2dAsKs", "4c4d3s3h", "5c5d9hTh"])
    call_round(hand)
    assert hand.street == 1 and hand.to_act == 1


def test_e4_equal_hands_showing_first_clockwise_from_the_dealers_left():
    # seats 1 and 2 both show K-Q; the dealer is seat 2, so seat 0 is first on its left,
    # then seat 1: seat 1 acts first.
    hand = hand_of(GAME_HIGH, ["2c2d3s4s", "4c4dKsQs", "5c5dKhQh"])
    call_round(hand)
    assert hand.to_act == 1


def test_e4_razz_lowest_hand_showing_acts_first():
    # razz fourth street: seat 0 shows A-2 (the lowest), seat 1 3-3 (a pair: high in razz),
    # seat 2 K-4
    hand = hand_of(GAME_RAZZ, ["9c9dAs2s", "8c8d3s3h", "7c7dKh4h"])
    call_round(hand)
    assert hand.to_act == 0


def test_e4_after_a_fold_the_best_hand_still_in_opens():
    # seat 0 folds on third street, so fourth street deals to seats 1 and 2 only (E2)
    hand = hand_of(GAME_HIGH, ["2c2dAs", "4c4d3s5h", "5c5dKhQh"])
    hand.post_bring_in()        # seat 1 (the 3s) brings in
    hand.check_or_call()        # seat 2
    hand.fold()                 # seat 0
    assert hand.street == 1 and hand.to_act == 2   # K-Q beats 5-3
    assert len(hand.cards(0)) == 3 and len(hand.cards(1)) == 4


def showing(up: tuple[int, ...], razz: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """E4, the slow statement: the up cards' values grouped, the groups ordered by how many
    then by value (both highest first); compared by the counts, then by the values (razz:
    ace low, and the lowest showing is the best, so the caller takes the smallest)."""
    values = [((c >> 2) + 1) % 13 if razz else c >> 2 for c in up]
    groups = sorted(((values.count(v), v) for v in set(values)), reverse=True)
    pad = [(0, 0)] * (4 - len(groups))
    return tuple(c for c, _ in groups + pad), tuple(v for _, v in groups + pad)


@pytest.mark.parametrize("game", [GAME_HIGH, GAME_HILO, GAME_RAZZ, GAME_FIVE])
def test_e4_the_opener_of_every_street_over_random_deals(game):
    """E4 against the slow statement above, on every later street of 600 random deals to 2-8
    players (some folding on third street): the best hand showing (razz: the lowest) opens,
    ties to the first clockwise from the dealer's left."""
    rng = random.Random(game)
    streets = 0
    for _ in range(600):
        n = rng.randint(2, 8)
        deck = list(range(52))
        rng.shuffle(deck)
        hand = StudCore(game, [10_000] * n, bytes(deck), **STRUCTURE)
        for _ in range(n):                       # third street: some fold (never the bring-in)
            if hand.to_act is None or hand.street != 0:
                break
            if rng.random() < 0.3 and hand.to_act != hand.bring_in_seat:
                hand.fold()
            else:
                hand.check_or_call()
        call_round(hand)
        while not hand.is_over and hand.street > 0:
            live = [i for i in range(n) if not hand.folded[i]]   # from the dealer's left
            keys = {i: showing(hand.up_cards(i), game == GAME_RAZZ) for i in live}
            best = (min if game == GAME_RAZZ else max)(keys.values())
            assert hand.to_act == next(i for i in live if keys[i] == best)
            streets += 1
            call_round(hand)
    assert streets > 1000


# --- E5: limits and the open pair ------------------------------------------------------------

def test_e5_small_bets_on_third_and_fourth_big_from_fifth():
    hand = hand_of(GAME_HILO, ["2c2dAsKh5c", "4c4d3s7h6c", "5h5dKsQh7c"])
    call_round(hand)
    assert (hand.legal_actions().min_raise_to, hand.legal_actions().max_raise_to) == (10, 10)
    call_round(hand)
    assert hand.street == 2 and hand.legal_actions().min_raise_to == 20


def test_e5_open_pair_on_fourth_street_allows_the_big_bet_in_stud_high():
    hand = hand_of(GAME_HIGH, ["2c2dAsAh", "4c4d3s5h", "5c5dKhQh"])
    call_round(hand)
    assert hand.street == 1 and hand.to_act == 0
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to) == (10, 20)
    with pytest.raises(IllegalActionError) as refusal:
        hand.bet_or_raise(15)
    assert refusal.value.reason == Reason.OPEN_PAIR_SIZES and refusal.value.rule == "E5"
    hand.bet_or_raise(20)                       # the big bet is made ...
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to) == (40, 40)   # ... raises are big bets


def test_e5_open_pair_small_bet_keeps_the_option_for_the_raise():
    hand = hand_of(GAME_HIGH, ["2c2dAsAh", "4c4d3s5h", "5c5dKhQh"])
    call_round(hand)
    hand.bet_or_raise(10)
    legal = hand.legal_actions()
    assert (legal.min_raise_to, legal.max_raise_to) == (20, 30)


@pytest.mark.parametrize("game", [GAME_HILO, GAME_RAZZ])
def test_e5_no_open_pair_option_in_hilo_or_razz(game):
    hand = hand_of(game, ["2c2dAsAh", "4c4d3s5h", "5c5dKhQh"])
    call_round(hand)
    legal = hand.legal_actions()
    assert legal.min_raise_to == legal.max_raise_to == 10


# --- E6, E7: the showdown -------------------------------------------------------------------

def test_e6_e7_stud_hilo_splits_high_and_low():
    # seat 0: a low 6-4-3-2-A and no better high; seat 1: trip kings for high, no low
    hand = hand_of(GAME_HILO, ["As2d3h4c6sQd9c", "KcKdKhJs9hTd8s"], ante=0, bring_in=0)
    while not hand.is_over:
        hand.check_or_call()
    assert hand.strengths is not None and hand.strengths[1] == (hand.strengths[1][0], 0)
    assert hand.stacks == [1000, 1000]     # each takes back its half of the empty pot


def test_e7_stud_hilo_pot_halved_odd_chip_to_the_high_half():
    hand = hand_of(GAME_HILO, ["As2d3h4c6sQd9c", "KcKdKhJs9hTd8s", "QcQs7d7c8h8d9s"],
                   ante=1, bring_in=2)
    hand.post_bring_in()
    while not hand.is_over:
        legal = hand.legal_actions()
        if legal.can_check:
            hand.check()
        elif hand.to_act == 2:
            hand.fold()
        else:
            hand.call()
    # the pot: 3 antes + 2 + 2 = 7 -> high 4 (kings), low 3 (seat 0)
    assert hand.stacks == [1000 - 3 + 3, 1000 - 3 + 4, 999]


def test_e6_razz_no_pair_beats_a_pair():
    hand = hand_of(GAME_RAZZ, ["KcQdJh9s8s7d6c", "AcAd2h2s3c3d4h"], ante=5, bring_in=0)
    while not hand.is_over:
        hand.check_or_call()
    assert hand.stacks == [1005, 995]   # K-high with no pair beats aces up


# --- B1 in stud: the turn, with the flop engine's keyword and wording ---------------------


def test_b1_a_stud_action_out_of_turn_is_refused_with_the_flop_engines_words():
    """Out of turn, a stud action is refused from the one refusal table (B1), in the words
    the flop ``Hand`` uses, naming the seat to act; nothing changes."""
    from omaha import GameConfig, Hand
    from omahacore.refusals import refused

    hand = hand_of(GAME_HIGH, ["Ah Kh 2c", "Qs Qd 9h", "Js Td 8h"])
    flop = Hand(GameConfig(big_blind=2), stacks={1: 200, 2: 200, 3: 200}, button=1)
    before = (hand.to_act, hand.pot, hand.stacks, hand.log)
    for game, seats in ((hand, (0, 1, 2)), (flop, (1, 2, 3))):
        for seat in seats:
            if seat == game.to_act:
                continue
            with pytest.raises(IllegalActionError) as error:
                game.fold(seat=seat)
            assert error.value.reason == Reason.NOT_YOUR_TURN
            assert str(error.value) == str(refused(Reason.NOT_YOUR_TURN, seat=seat,
                                                   turn=game.to_act))
    assert (hand.to_act, hand.pot, hand.stacks, hand.log) == before


@pytest.mark.parametrize("seat", [True, 1.0, "0", -1, 3])
def test_b1_a_seat_that_is_no_player_of_the_hand_is_refused(seat):
    hand = hand_of(GAME_HIGH, ["Ah Kh 2c", "Qs Qd 9h", "Js Td 8h"])
    before = (hand.to_act, hand.pot, hand.log)
    with pytest.raises(OmahaError):
        hand.check_or_call(seat=seat)
    assert (hand.to_act, hand.pot, hand.log) == before


def test_player_keyword_is_the_deprecated_name_of_seat():
    """Stud actions take ``seat=`` as ``Hand``'s do; the old ``player=`` still works, with a
    DeprecationWarning pointing at the caller; both at once is a TypeError."""
    hand = hand_of(GAME_HIGH, ["Ah Kh 2c", "Qs Qd 9h", "Js Td 8h"])
    to_act = hand.to_act
    with pytest.warns(DeprecationWarning, match="give seat=") as caught:
        hand.post_bring_in(player=to_act)
    assert caught[0].filename == __file__
    assert hand.to_act != to_act
    with pytest.raises(TypeError, match="seat= only"):
        hand.call(seat=hand.to_act, player=hand.to_act)
    hand.call(seat=hand.to_act)
