"""The stud engine's fast paths (issue 26, speed): the action log kept as C records and
worded on demand, and ``legal_actions`` built in place (and each action's answer, the next
``legal_actions()``, refilled in place when nobody holds it), checked against what the player
did and against the fields a plain :class:`~omaha.LegalActions` has, over many random hands;
and the OS-random decks read from a pool of OS bytes (C2)."""

from __future__ import annotations

import os
import random
import sys
import sysconfig
from collections import Counter

import pytest

from omaha.game.stud import StudConfig, StudHand
from omahacore.actions import LegalActions
from omahacore.stud import GAME_RAZZ, StudCore, os_deck

CODES = ("F7S", "F7S/8", "FR", "F5S")


def play_logged(hand: StudHand, rng: random.Random, fold_share: float = 0.12,
                raise_share: float = 0.3) -> list[tuple[str, int, int]]:
    """Play ``hand`` out at random, returning the log each action should leave (E3, B2-B8)."""
    expected: list[tuple[str, int, int]] = []
    while not hand.is_over:
        legal = hand.legal_actions()
        seat = legal.seat
        r = rng.random()
        if r < fold_share and legal.call_amount and legal.can_fold:
            hand.fold()
            expected.append(("fold", seat, 0))
        elif r < fold_share + raise_share and legal.min_raise_to is not None:
            assert legal.max_raise_to is not None
            to = rng.choice((legal.min_raise_to, legal.max_raise_to))
            hand.bet_or_raise(to)
            expected.append(("raise", seat, to))
        else:
            if legal.call_amount:
                kind = "bring_in" if seat == hand.bring_in_seat else "call"
                expected.append((kind, seat, legal.call_amount))
            else:
                expected.append(("check", seat, 0))
            hand.check_or_call()
    return expected


def antes(config: StudConfig, stacks: list[int], dealer: int) -> list[tuple[str, int, int]]:
    """The antes as logged: from the dealer's left, all-in when short (E3, B8)."""
    n = len(stacks)
    order = [(dealer + 1 + k) % n for k in range(n)]
    return [("ante", i, min(config.ante, stacks[i])) for i in order if config.ante]


@pytest.mark.parametrize("code", CODES)
def test_log_is_every_action_in_order(code: str) -> None:
    rng = random.Random(code)
    config = StudConfig(variant=code, ante=1, bring_in=1, small_bet=2)
    for _ in range(300):
        n = rng.randint(2, 8)
        stacks = [rng.choice((1, 3, 12, 60, 200)) for _ in range(n)]
        dealer = rng.randrange(n)
        hand = StudHand(config, stacks, dealer=dealer, rng=rng)
        expected = antes(config, stacks, dealer) + play_logged(hand, rng)
        assert hand.log == expected


def test_log_grows_past_its_first_allocation() -> None:
    """Uncapped fixed limit (B3: max_raises None) heads-up: hundreds of raises, all logged."""
    config = StudConfig(variant="F7S", ante=1, bring_in=1, small_bet=2, max_raises=None)
    rng = random.Random(7)
    hand = StudHand(config, [5000, 5000], rng=rng)
    expected = antes(config, [5000, 5000], 1) + play_logged(hand, rng, fold_share=0,
                                                                raise_share=0.98)
    assert len(expected) > 2 * 64   # the log doubled at least twice
    assert hand.log == expected
    assert sum(hand.stacks) == 10000


@pytest.mark.parametrize("code", CODES)
def test_legal_actions_is_a_plain_legal_actions(code: str) -> None:
    """The in-place tuple equals, hashes and reads like one built by its constructor."""
    rng = random.Random(code + "legal")
    config = StudConfig(variant=code, ante=1, bring_in=2, small_bet=4)
    for _ in range(100):
        hand = StudHand(config, [rng.choice((3, 50, 400)) for _ in range(6)], rng=rng)
        while not hand.is_over:
            legal = hand.legal_actions()
            rebuilt = LegalActions(*legal)
            assert type(legal) is LegalActions
            assert legal == rebuilt and hash(legal) == hash(rebuilt)
            assert legal._asdict() == rebuilt._asdict() and len(legal) == 8
            assert legal.can_raise == (legal.min_raise_to is not None)
            assert not legal.can_show and not legal.can_muck
            if rng.random() < 0.3 and legal.min_raise_to is not None:
                hand.bet_or_raise(legal.max_raise_to)  # type: ignore[arg-type]
            else:
                hand.check_or_call()


def test_os_decks_are_uniform_and_complete() -> None:
    """C2: the pooled OS shuffle gives every card equally often in the first and last
    positions (chi-square over 52 cells, limit far above the 99.99th percentile for 51
    degrees of freedom, about 96), each deck the 52 cards once; many decks span pool refills."""
    draws = 26_000
    first: Counter[int] = Counter()
    last: Counter[int] = Counter()
    for _ in range(draws):
        deck = os_deck()
        assert sorted(deck) == list(range(52))
        first[deck[0]] += 1
        last[deck[51]] += 1
    expected = draws / 52
    for counts in (first, last):
        assert sum((counts[c] - expected) ** 2 / expected for c in range(52)) < 110


@pytest.mark.skipif(not hasattr(os, "fork"), reason="this platform has no fork")
def test_a_forked_child_deals_other_cards() -> None:
    """C2: a child does not reuse the random bytes its parent had pooled."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(write, b"".join(os_deck() for _ in range(4)))
        os._exit(0)
    os.waitpid(pid, 0)
    child = os.read(read, 4 * 52)
    os.close(read)
    os.close(write)
    assert len(child) == 4 * 52
    assert child != b"".join(os_deck() for _ in range(4))


def act_at_random(hand: StudHand, legal: LegalActions, rng: random.Random) -> object:
    """One random action by any of the six action methods the answer allows; its return."""
    r = rng.random()
    if r < 0.15 and legal.can_fold and legal.call_amount:
        return hand.fold()
    if r < 0.4 and legal.min_raise_to is not None:
        return hand.bet_or_raise(rng.choice((legal.min_raise_to, legal.max_raise_to)))
    if legal.seat == hand.bring_in_seat:
        return hand.post_bring_in() if r < 0.7 else hand.check_or_call()
    if legal.call_amount:
        return hand.call() if r < 0.7 else hand.check_or_call()
    return hand.check() if r < 0.7 else hand.check_or_call()


@pytest.mark.parametrize("code", CODES)
def test_each_action_answers_the_next_legal_actions(code: str) -> None:
    """Every action returns what ``legal_actions()`` then says, and None exactly when the hand
    is over; an answer the caller keeps never changes afterwards (the engine refills only
    answers nobody holds)."""
    rng = random.Random(code + "answers")
    config = StudConfig(variant=code, ante=1, bring_in=2, small_bet=4)
    for _ in range(200):
        hand = StudHand(config, [rng.choice((3, 50, 400)) for _ in range(6)], rng=rng)
        legal = hand.legal_actions()
        kept = [(legal, tuple(legal))]
        while True:
            answer = act_at_random(hand, legal, rng)
            if answer is None:
                assert hand.is_over
                break
            assert isinstance(answer, LegalActions) and not hand.is_over
            assert tuple(answer) == tuple(hand.legal_actions()) and answer.seat == hand.to_act
            legal = answer
            kept.append((legal, tuple(legal)))
        assert all(tuple(held) == values for held, values in kept)


@pytest.mark.skipif(sys.version_info >= (3, 14) or sysconfig.get_config_var("Py_GIL_DISABLED"),
                    reason="answers are refilled only where tuples cache no hash, with the GIL")
def test_an_answer_let_go_is_refilled() -> None:
    """An answer the caller let go of is refilled in place (the engine kept it alive all
    along, so the same id is the same object): a bot's loop allocates no answers."""
    hand = StudHand(StudConfig(variant="FR", ante=1, bring_in=1, small_bet=2), [200] * 6,
                    rng=random.Random(5))
    first = hand.legal_actions()
    kept = id(first)
    second = hand.check_or_call()   # ``first`` still held: a new answer
    assert second is not None and id(second) != kept
    del first
    third = hand.check_or_call()    # ``second`` held, ``first`` let go: refilled
    assert third is not None and id(third) == kept
    assert tuple(third) == tuple(hand.legal_actions()) and second.seat != third.seat


@pytest.mark.skipif(sys.version_info >= (3, 14) or sysconfig.get_config_var("Py_GIL_DISABLED"),
                    reason="answers are refilled only where tuples cache no hash, with the GIL")
def test_a_hand_gone_leaves_its_free_answers_to_the_next() -> None:
    """A hand's answers that nobody else holds outlive it as spares: the next hand's first
    answer is one of them, refilled (no allocation); one the caller still holds is not."""
    config = StudConfig(variant="FR", ante=1, bring_in=1, small_bet=2)
    hand = StudHand(config, [200] * 6, rng=random.Random(8))
    held = hand.legal_actions()
    values = tuple(held)
    let_go = hand.check_or_call()
    assert let_go is not None
    free = id(let_go)
    del let_go, hand                 # the hand held ``held`` (also ours) and the let-go one
    nxt = StudHand(config, [200] * 6, rng=random.Random(9))
    first = nxt.legal_actions()
    assert id(first) == free and first is not held and tuple(held) == values
    assert tuple(first) == tuple(LegalActions(*first)) and first.seat == nxt.to_act


@pytest.mark.parametrize("code", CODES)
def test_answers_kept_across_hands_never_change(code: str) -> None:
    """Answers kept from hands long gone stay as they were while later hands reuse the
    engine's spare answers (a spare is only ever an answer nobody held)."""
    rng = random.Random(code + "spares")
    config = StudConfig(variant=code, ante=1, bring_in=2, small_bet=4)
    kept: list[tuple[LegalActions, tuple[object, ...]]] = []
    for _ in range(150):
        hand = StudHand(config, [rng.choice((3, 50, 400)) for _ in range(6)], rng=rng)
        legal: object = hand.legal_actions()
        while isinstance(legal, LegalActions):
            assert tuple(legal) == tuple(hand.legal_actions())
            if rng.random() < 0.05:
                kept.append((legal, tuple(legal)))
            legal = act_at_random(hand, legal, rng)
        del hand
    assert len(kept) > 50
    assert all(tuple(held) == values for held, values in kept)


def test_a_hand_shuffles_from_the_os_when_given_no_deck() -> None:
    """C2: ``deck=None`` is the OS generator's shuffle, made into the hand; ``deck`` reads it
    back whole, and a replay from it deals the same cards. A deck of another type is refused."""
    for _ in range(200):
        hand = StudCore(GAME_RAZZ, [100] * 8, None, 1, 1, 2, 4)
        assert sorted(hand.deck) == list(range(52))
        again = StudCore(GAME_RAZZ, [100] * 8, hand.deck, 1, 1, 2, 4)
        assert [hand.cards(i) for i in range(8)] == [again.cards(i) for i in range(8)]
        assert again.deck == hand.deck
    with pytest.raises(TypeError, match="deck"):
        StudCore(GAME_RAZZ, [100] * 2, list(range(52)), 1, 1, 2, 4)  # type: ignore[arg-type]
