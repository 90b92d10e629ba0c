"""Built-in bots and a loop that lets them play a table (the ``omaha play`` command).

A bot sees what its player may see — its own hole cards, the board, the pot and the legal
actions (:class:`Situation`) — and returns a :class:`Decision`. Two bots come with the
package:

* :class:`RandomBot` picks uniformly among fold (only when a bet is owed), check/call and
  bet/raise, with a random legal size;
* :class:`StrengthBot` plays by hand strength: a preflop score of the hole cards, then the
  category of the hand made (and an 8-or-better low in hi/lo games), compared with the price
  of calling.

A third, ``solver`` (:mod:`omaha.solver.bot`), solves heads-up Omaha rivers; it lives
with the solver and is named through :data:`omaha.game.userbots.NAMED`.

:func:`play_session` seats one bot per seat and plays N hands scored the way bot matches
are: every stack starts every hand at the starting stack (winnings banked), optionally in
duplicate (each deal replayed with the bots rotated round the seats). It reports each seat's
net chips and per-hand samples, from which :meth:`SessionResult.scores` gives big blinds per
100 hands with a 95% confidence interval; a callback receives each finished hand (e.g. to
write it as PHH). :func:`run_session` is that session for any deciders (the one statement of
the schedule and the scoring, which :func:`omaha.rl.evaluate` shares with ``omaha play``).

>>> import random
>>> from omaha.config import GameConfig
>>> result = play_session(GameConfig.pot_limit(small_blind=1, big_blind=2),
...                       [RandomBot(), StrengthBot()], hands=20, stack=200, rng=random.Random(3))
>>> result.hands, sum(result.net.values()), len(result.samples[1])
(20, 0, 20)
>>> score = result.scores(big_blind=2)[0]
>>> score.seat, score.bot, score.hands, score.ci95 > 0
(1, 'random', 20, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Literal, Protocol

from omaha.config import GameConfig, Variant
from omaha.game.dealing import cards_needed
from omaha.game.deck import shuffled_cards
from omaha.game.hand import Hand
from omaha.game.studplay import strength_choice, stud_strength
from omaha.limits import as_int
from omahacore.actions import LegalActions
from omahacore.evaluator import (
    evaluate_best,
    evaluate_best_low,
    evaluate_high,
    evaluate_low,
    high_key,
)

__all__ = [
    "BOTS",
    "Z95",
    "Bot",
    "Decision",
    "Opponent",
    "RandomBot",
    "SeatScore",
    "SessionResult",
    "Situation",
    "StrengthBot",
    "Turn",
    "act",
    "deal_seed",
    "opponents_of",
    "play_session",
    "run_session",
    "situation",
]

Kind = Literal["fold", "check", "call", "raise"]


@dataclass(frozen=True, slots=True)
class Decision:
    """What a bot does: ``fold``, ``check``, ``call``, or ``raise`` to a total ``amount``."""

    kind: Kind
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class Opponent:
    """Another player still in the hand (not folded), as everyone at the table sees them:
    their ``seat``, the chips behind (``stack``), what they put in this betting round
    (``bet``), and whether they act after the player to act once the flop is out
    (``acts_after``: they have position on them)."""

    seat: int
    stack: int
    bet: int
    acts_after: bool


@dataclass(frozen=True, slots=True)
class Situation:
    """Everything a bot may know when it is to act (never another player's cards).

    ``stack`` and ``bet`` are the player's chips behind and put in this betting round;
    ``opponents`` the others still in the hand, in seat order. Those three default to
    unknown (``0``, ``0``, ``()``) for callers that only have the rest (a bot must then
    not rely on them).
    """

    legal: LegalActions
    hole_cards: tuple[int, ...]
    board: tuple[int, ...]
    pot_total: int
    variant: Variant
    stack: int = 0
    bet: int = 0
    opponents: tuple[Opponent, ...] = ()


class Bot(Protocol):
    """Anything with a ``name`` and a ``decide`` method."""

    name: str

    def decide(self, situation: Situation, rng: random.Random) -> Decision:
        """A legal decision for ``situation``."""
        ...


def situation(hand: Hand) -> Situation:
    """The situation of the player to act in ``hand``."""
    legal = hand.legal_actions()
    me = legal.seat
    stacks, bets = hand.stacks, hand.bets
    live = {seat: (stacks[seat], bets[seat]) for seat in hand.seats
            if hand.state(seat) not in ("folded", "mucked")}
    return Situation(
        legal=legal,
        hole_cards=hand.hole_cards(me),
        board=hand.board,
        pot_total=hand.pot_total,
        variant=hand.config.variant,
        stack=stacks[me],
        bet=bets[me],
        opponents=opponents_of(me, hand.button, hand.seats, live),
    )


def opponents_of(me: int, button: int, seats: Sequence[int],
                 live: Mapping[int, tuple[int, int]]) -> tuple[Opponent, ...]:
    """The opponents of seat ``me`` still in the hand, in seat order: ``seats`` are the
    seats dealt in, clockwise; ``live`` gives each seat still in its chips behind and its
    bet this round. An opponent acts after ``me`` once the flop is out if it sits nearer
    the button, clockwise from the button's left (T2).

    >>> opponents_of(1, 3, (1, 2, 3), {1: (90, 0), 3: (80, 10)})
    (Opponent(seat=3, stack=80, bet=10, acts_after=True),)
    """
    count, start = len(seats), seats.index(button) + 1

    def order(seat: int) -> int:   # place in the betting order after the flop
        return (seats.index(seat) - start) % count

    return tuple(Opponent(seat, stack, bet, order(seat) > order(me))
                 for seat in seats if seat != me and seat in live
                 for stack, bet in (live[seat],))


def act(hand: Hand, decision: Decision) -> None:
    """Apply a decision to the hand (the engine checks it is legal)."""
    if decision.kind == "fold":
        hand.fold()
    elif decision.kind == "raise":
        assert decision.amount is not None
        hand.bet_or_raise(decision.amount)
    else:
        hand.check_or_call()


def _passive(legal: LegalActions) -> Decision:
    return Decision("call") if legal.can_call else Decision("check")


class RandomBot:
    """Random legal play: fold 15% when a bet is owed, raise 25% (a random legal size; in
    stud the minimum or the maximum, as a fixed-limit bet is one or the other, E5)."""

    name = "random"

    def decide(self, situation: Situation, rng: random.Random) -> Decision:
        legal = situation.legal
        roll = rng.random()
        if legal.can_call and legal.can_fold and roll < 0.15:   # stud's bring-in cannot fold
            return Decision("fold")
        if legal.min_raise_to is not None and legal.max_raise_to is not None and roll > 0.75:
            low, high = legal.min_raise_to, legal.max_raise_to
            if situation.variant.is_stud:   # E5: the small or (open pair) big bet, no between
                return Decision("raise", rng.choice((low, high)))
            return Decision("raise", rng.choice((low, high, rng.randint(low, high))))
        return _passive(legal)


_CATEGORY_SCORE = (0.1, 0.3, 0.5, 0.65, 0.75, 0.8, 0.9, 0.97, 1.0)  # high card .. straight flush


class StrengthBot:
    """Plays the strength of its hand: raises strong hands, calls when the price is right.

    Strength is a number in [0, 1]: before the flop a score of the hole cards (pairs, suits,
    connected and high ranks; small cards in hi/lo), after it the category of the best high
    hand (rule C4) plus a share for a made low (C5). It raises above ``raise_at``, calls
    when strength beats the pot odds, and folds (or checks) otherwise. In a stud game (a
    situation whose hole cards are the player's down and up cards and whose board is the
    shared card of a short deck, if any) it plays the stud strength bot's rule,
    :func:`~omaha.game.studplay.strength_choice` (E1-E7), as ``omaha play --variant F7S``'s
    ``strength`` does.
    """

    name = "strength"

    def __init__(self, *, raise_at: float = 0.7) -> None:
        self.raise_at = raise_at

    def decide(self, situation: Situation, rng: random.Random) -> Decision:
        legal = situation.legal
        if situation.variant.is_stud:   # E1-E7: the stud strength bot's rule, stated once
            choice, to = strength_choice([*situation.hole_cards, *situation.board],
                                         situation.variant, legal, rng)
            if choice == "raise":
                return Decision("raise", to)
            if choice == "fold":
                return Decision("fold")
            return Decision("call" if legal.can_call else "check")
        strength = self.strength(situation)
        if strength >= self.raise_at and legal.min_raise_to is not None:
            assert legal.max_raise_to is not None
            span = legal.max_raise_to - legal.min_raise_to
            share = (strength - self.raise_at) / (1 - self.raise_at) if self.raise_at < 1 else 1
            return Decision("raise", legal.min_raise_to + int(span * share * rng.random()))
        if not legal.can_call:
            return Decision("check")
        price = legal.call_amount / (situation.pot_total + legal.call_amount)
        if strength >= price + 0.1 or not legal.can_fold:   # stud's bring-in cannot fold (E3)
            return Decision("call")
        return Decision("fold")

    @staticmethod
    def strength(situation: Situation) -> float:
        """The bot's strength estimate in [0, 1] (a stud game's:
        :func:`~omaha.game.studplay.stud_strength` of its own cards and any shared card)."""
        hole, board, variant = situation.hole_cards, situation.board, situation.variant
        if variant.is_stud:
            return stud_strength([*hole, *board], variant)
        if not board:
            return _preflop_score(hole, variant.hi_lo)
        if variant.hand_rule == "holdem":
            high = evaluate_best([*hole, *board])
            low = evaluate_best_low([*hole, *board]) if variant.hi_lo and len(board) >= 3 else 0
        else:
            high = evaluate_high(hole, board)
            low = evaluate_low(hole, board) if variant.hi_lo else 0
        score = _CATEGORY_SCORE[high_key(high)[0]]
        if variant.hi_lo:
            score = 0.6 * score + (0.4 * low / 56 if low else 0.0)
        return score


def _preflop_score(hole: Sequence[int], hi_lo: bool) -> float:
    """A rough 0..1 score of hole cards: pairs, suited and connected pairs, big (or low) ranks."""
    ranks = [card // 4 for card in hole]
    suits = [card % 4 for card in hole]
    points = 0.0
    for a, b in combinations(range(len(hole)), 2):
        ra, rb = ranks[a], ranks[b]
        if ra == rb:
            points += 2 + ra / 6
        if suits[a] == suits[b]:
            points += 1 + max(ra, rb) / 12
        if 0 < abs(ra - rb) <= 2:
            points += 0.7
        if hi_lo and (ra == 12 or ra <= 6) and (rb == 12 or rb <= 6) and ra != rb:
            points += 1.2 if 12 in (ra, rb) else 0.6
    points += sum(r for r in ranks if r >= 8) / 12
    return min(1.0, points / (4 + 2 * len(hole)))


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "strength": StrengthBot}
"""The built-in bots by name."""


def deal_seed(seed: int, deal: int) -> str:
    """What a seeded run seeds its generator with at the start of deal ``deal`` (0-based,
    counted over the whole run): the one meaning of ``--seed`` in ``omaha play``, ``omaha
    simulate`` (any ``--chunk``, here or on Ray) and :func:`omaha.rl.evaluate`.

    Deal ``deal`` of a run seeded ``seed`` shuffles its cards and makes every bot decision
    with ``random.Random(deal_seed(seed, deal))``, so it is the same hand whichever process
    plays it and however the run is cut into chunks.

    >>> deal_seed(1, 0)
    'omaha-deal:1:0'
    """
    return f"omaha-deal:{seed}:{deal}"


Z95 = 1.959963984540054
"""The two-sided 95% point of the normal distribution (confidence intervals of bb/100)."""


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One bot's result: chips won over ``hands`` hands, in big blinds per 100 hands.

    ``ci95`` is the half-width of the 95% confidence interval of ``bb_per_100`` (normal
    approximation over independent samples: single hands, or whole duplicate sets), or None
    when there are fewer than two samples.
    """

    seat: int
    bot: str
    hands: int
    net: int
    bb_per_100: float
    ci95: float | None


@dataclass
class SessionResult:
    """What a session produced: hands played, each seat's bot and net chips.

    ``samples[seat]`` lists the seat's independent results in chips: one per hand, or in
    duplicate mode one per deal (the net over the ``hands_per_sample`` seatings of that deal,
    which are not independent of each other). :meth:`scores` turns them into bb/100.
    """

    hands: int = 0
    bots: dict[int, str] = field(default_factory=dict)
    net: dict[int, int] = field(default_factory=dict)
    samples: dict[int, list[int]] = field(default_factory=dict)
    hands_per_sample: int = 1
    duplicate: bool = False

    def scores(self, big_blind: int) -> list[SeatScore]:
        """Every seat's :class:`SeatScore`, by seat, measured in ``big_blind`` units."""
        return [
            SeatScore(
                seat=seat,
                bot=self.bots[seat],
                hands=self.hands,
                net=self.net[seat],
                bb_per_100=100 * self.net[seat] / big_blind / self.hands if self.hands else 0.0,
                ci95=_ci95(self.samples[seat], 100 / big_blind / self.hands_per_sample),
            )
            for seat in sorted(self.net)
        ]


def _ci95(samples: Sequence[int], scale: float) -> float | None:
    """Half-width of the 95% interval of ``scale`` times the mean of ``samples``."""
    count = len(samples)
    if count < 2:
        return None
    mean = sum(samples) / count
    variance = sum((x - mean) ** 2 for x in samples) / (count - 1)
    return Z95 * scale * math.sqrt(variance / count)


def play_session(
    config: GameConfig,
    bots: Sequence[Bot],
    *,
    hands: int,
    stack: int,
    rng: random.Random | None = None,
    on_hand: Callable[[Hand], None] | None = None,
    duplicate: bool = False,
    seed: int | None = None,
) -> SessionResult:
    """Play ``hands`` hands with one bot per seat (seats 1..len(bots)); score each bot.

    Scored the way bot matches are: every stack starts every hand at ``stack`` (winnings
    are banked, losses covered), so no seat plays deeper than another and each hand is an
    independent sample. The button moves one seat clockwise each hand (T2; nobody ever runs
    out of chips). ``rng`` drives the shuffle and the bots (default: the OS generator for
    the cards, C2). ``on_hand`` gets every finished hand. With ``seed``, ``rng`` (or a new
    generator) is reseeded at every deal from :func:`deal_seed` (the schedule of ``omaha
    play --seed`` and ``omaha simulate --seed``, chunked or not).

    ``duplicate=True`` cuts the luck of the deal: each shuffled deal is played once per
    seat, the bots moving one seat clockwise between replays, so every bot plays every
    seat's cards (hole cards and board) from every position. ``hands`` is rounded up to a
    whole number of such sets; a bot's seat in the result is the seat it started in.

    The session itself (the schedule and the scoring) is :func:`run_session`'s, which
    :func:`omaha.rl.evaluate` calls too with learned policies in some seats.
    """
    if rng is None and seed is not None:
        rng = random.Random()
    decide_rng = rng if rng is not None else random.Random()

    def turn(hand: Hand, player: int) -> None:
        act(hand, bots[player].decide(situation(hand), decide_rng))

    return run_session(config, [bot.name for bot in bots], turn, hands=hands, stack=stack,
                       rng=rng, on_hand=on_hand, duplicate=duplicate, seed=seed)


Turn = Callable[[Hand, int], None]
"""``turn(hand, player)``: make one decision in ``hand`` (whose seat to act holds ``player``,
the 0-based index of a session's players) and apply it to the hand."""


def run_session(
    config: GameConfig,
    names: Sequence[str],
    turn: Turn,
    *,
    hands: int,
    stack: int,
    rng: random.Random | None = None,
    on_hand: Callable[[Hand], None] | None = None,
    duplicate: bool = False,
    seed: int | None = None,
) -> SessionResult:
    """The session of :func:`play_session` (its schedule, duplicate rotation and scoring,
    stated once) for any players: ``names[i]`` is player ``i``'s name and ``turn(hand, i)``
    makes player ``i``'s decisions. ``rng`` shuffles the decks (the OS generator if None);
    with ``seed`` it is reseeded at the start of every deal from :func:`deal_seed` (``turn``
    should draw its randomness from the same ``rng``).

    >>> from omaha.config import GameConfig
    >>> def turn(hand, player):            # both players check or call down
    ...     hand.check_or_call()
    >>> result = run_session(GameConfig.pot_limit(small_blind=1, big_blind=2), ["a", "b"], turn,
    ...                      hands=10, stack=200, rng=random.Random(1), duplicate=True)
    >>> result.hands, len(result.samples[1]), sum(result.net.values())
    (10, 5, 0)
    """
    count = len(names)
    if count < 2:
        raise ValueError(f"a session needs at least two bots, got {count}")
    hands = as_int(hands, "hands", low=1)
    seats = tuple(range(1, count + 1))
    per_deal = count if duplicate else 1
    deals = -(-hands // per_deal)
    result = SessionResult(hands_per_sample=per_deal, duplicate=duplicate)
    for seat, name in zip(seats, names):
        result.bots[seat] = name
        result.net[seat] = 0
        result.samples[seat] = []
    stacks = dict.fromkeys(seats, stack)
    needed = cards_needed(count, config.variant.hole_cards)
    if seed is not None and rng is None:
        rng = random.Random()
    for deal in range(deals):
        if seed is not None:
            assert rng is not None
            rng.seed(deal_seed(seed, deal))
        button = seats[deal % count]
        deck = shuffled_cards(needed, rng) if duplicate else None
        totals = dict.fromkeys(seats, 0)
        for shift in range(per_deal):
            # seat s holds the bot that started at seat s + shift (so bots move clockwise)
            players = {s: seats[(s - 1 + shift) % count] for s in seats}
            hand = Hand(config, stacks=stacks, button=button, rng=rng, deck=deck)
            while not hand.is_over:
                actor = hand.to_act
                assert actor is not None
                turn(hand, players[actor] - 1)
            hand_result = hand.result
            assert hand_result is not None
            for seat, won in hand_result.net.items():
                totals[players[seat]] += won
            result.hands += 1
            if on_hand is not None:
                on_hand(hand)
        for seat, won in totals.items():
            result.net[seat] += won
            result.samples[seat].append(won)
    return result
