"""The arena's bots on stud (issue 26; E1-E7). The ``strength`` bot: an ``omaha bots`` client decides
from the view the server sends (its own down and up cards, the others' up cards, the shared
card of a short deck), and that decision is the stud strength bot's
(:func:`omaha.game.studplay.strength_stud`, what ``omaha play --variant F7S`` runs) for the
same cards: one statement of the rule. Checked over random hands of every stud game, 2 to 8
players: two hands dealt from the same seed, one played by ``strength_stud``, one by the
arena's decisions applied as the server applies them (the engine refuses any illegal act),
stay event for event the same. The ``random`` bot: never a bet between the small and the big
bet when an open pair allows either (E5)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from omaha.arena.client import decide
from omaha.game.bots import RandomBot, Situation, StrengthBot
from omaha.game.stud import StudConfig
from omaha.game.studplay import random_stud, strength_stud, stud_strength
from omaha.game.studseats import SeatedStudHand

GAMES = ("F7S", "F7S/8", "FR", "F5S")


def _deal(code: str, players: int, seed: int) -> SeatedStudHand:
    config = StudConfig(variant=code, ante=1, bring_in=1, small_bet=2, big_bet=4)
    stacks = {seat: 60 + 7 * seat for seat in range(1, players + 1)}
    return SeatedStudHand.deal(config, stacks, button=1 + seed % players,
                               rng=random.Random(seed))


def _legal(message: dict[str, Any], legal: dict[str, Any]) -> bool:
    """Whether an ``act`` message is one of the legal actions of the view (E3-E5)."""
    action = message["action"]
    if action == "bet_or_raise":
        low, high = legal["min_raise_to"], legal["max_raise_to"]
        return low is not None and low <= message["to"] <= high
    return {"fold": legal["can_fold"], "check": legal["can_check"],
            "call": legal["call_amount"] > 0}.get(action, False)


def _apply(hand: SeatedStudHand, seat: int, message: dict[str, Any]) -> None:
    """The act as the arena's room applies it to the seat's hand."""
    if "to" in message:
        hand.bet_or_raise(message["to"], seat=seat)
    else:
        getattr(hand, message["action"])(seat=seat)


def _play(code: str, players: int, seed: int, seen: Counter[str]) -> None:
    """One hand twice: ``strength_stud`` on one copy, the arena's decision on the other (a
    random step, the same on both, now and then for other spots)."""
    ours, arena = _deal(code, players, seed), _deal(code, players, seed)
    steps = random.Random(seed)
    while not ours.is_over:
        seat = ours.to_act
        assert seat is not None and arena.to_act == seat
        if steps.random() < 0.3:
            random_stud(ours.stud, random.Random(seed))
            random_stud(arena.stud, random.Random(seed))
        else:
            view = arena.view(seat).to_dict()
            others = [p for p in view["players"] if p["seat"] != seat]
            assert all(p["down"] is None for p in others)   # E2: never another's down cards
            message = decide(StrengthBot(), view, None, random.Random(seed))
            assert _legal(message, view["legal"]), (message, view["legal"])
            strength_stud(ours.stud, random.Random(seed))
            _apply(arena, seat, message)
            seen[message["action"]] += 1
            seen["board"] += bool(view["board"])
        assert arena.events == ours.events
        seed += 1
    assert arena.is_over and arena.stacks == ours.stacks


@pytest.mark.parametrize("code", GAMES)
def test_e1_e7_arena_strength_bot_decides_as_the_stud_strength_bot(code):
    seen: Counter[str] = Counter()
    for seed in range(60):
        _play(code, 2 + seed % 7, 1000 * seed + 7, seen)
    # every kind of decision came up: a raise or completion, a check or call, a fold
    assert seen["bet_or_raise"] and seen["fold"] and seen["call"] + seen["check"], seen


def test_e2_e6_the_shared_card_of_a_short_deck_counts_in_the_strength():
    """Eight players to seventh street share one card (E2): the arena's view shows it as the
    board, and the bot's strength is that of its seven cards with it."""
    for seed in range(200):
        hand = _deal("F7S", 8, seed)
        while not hand.is_over and not hand.board:
            hand.check_or_call()   # everyone to seventh street
        if hand.board:
            break
    else:
        pytest.fail("no eight-player hand reached seventh street")
    seat = hand.to_act
    assert seat is not None
    view = hand.view(seat).to_dict()
    me = next(p for p in view["players"] if p["seat"] == seat)
    assert view["board"] and len(me["down"] + me["up"]) == 2 * 6   # six own cards, one shared
    cards = [card for card, _ in hand.stud.cards(hand.player(seat))] + [hand.stud.community]
    situation = Situation(legal=hand.legal_actions(), hole_cards=tuple(cards[:-1]),
                          board=tuple(cards[-1:]), pot_total=hand.pot_total,
                          variant=hand.config.variant)
    assert StrengthBot.strength(situation) == stud_strength(cards, hand.config.variant)
    ours, arena = _deal("F7S", 8, seed), _deal("F7S", 8, seed)
    for copy in (ours, arena):
        while not copy.board:
            copy.check_or_call()
    strength_stud(ours.stud, random.Random(5))
    _apply(arena, seat, decide(StrengthBot(), view, None, random.Random(5)))
    assert arena.events == ours.events


def test_e5_arena_random_bot_bets_the_small_or_the_big_bet_with_an_open_pair():
    """Fourth street of seven-card stud with an open pair showing: the legal totals are the
    small and the big bet (E5), which the view gives as min and max; the random bot picks
    one of the two, never a total between (the engine refuses it)."""
    open_pairs = 0
    for seed in range(400):
        hand = _deal("F7S", 2 + seed % 7, seed)
        rng = random.Random(seed)
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat).to_dict()
            legal = view["legal"]
            if legal["min_raise_to"] is not None and legal["min_raise_to"] < legal["max_raise_to"]:
                open_pairs += 1
            message = decide(RandomBot(), view, None, rng)
            assert _legal(message, legal), (message, legal)
            _apply(hand, seat, message)   # an illegal total would raise here
    assert open_pairs >= 10
