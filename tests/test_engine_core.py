"""The compiled hand engine (omahacore.engine): its own guarantees beside the rules.

The rules themselves are checked against the pure-Python reference in
test_engine_reference.py; here: amounts at the int64 edge (B5 bounds saturate instead of
overflowing), the compiled shuffle (C2), misuse of the private entry points (a clear error,
never a crash), pickling and deepcopy, and a second ``__init__``.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter

import pytest

from omaha.config import OMAHA_HILO, GameConfig
from omaha.errors import IllegalActionError, OmahaError
from omaha.game.hand import Hand
from omaha.limits import MAX_CHIPS
from omahacore.engine import HandCore, shuffle_with
from reference_engine import ReferenceHand

PLO8 = GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO)


def state_of(hand: object) -> tuple[object, ...]:
    h = hand  # both engines share this public surface
    legal = h.legal_actions() if h.to_act is not None else None  # type: ignore[attr-defined]
    return (h.to_act, h.street, h.stacks, h.bets, h.pot_total, legal,  # type: ignore[attr-defined]
            [e.to_dict() for e in h.events])  # type: ignore[attr-defined]


@pytest.mark.parametrize("make", [GameConfig.pot_limit, GameConfig.no_limit])
def test_b5_bounds_at_max_chips_match_big_int_reference(make: object) -> None:
    """B5/B8: with the stacks totalling MAX_CHIPS the pot-limit bound (call + pot) would pass
    int64; the compiled bound saturates and then clamps to the stack, exactly as the Python
    reference computes it with unbounded ints."""
    config = make(small_blind=1, big_blind=2)  # type: ignore[operator]
    for seed in range(30):
        rng = random.Random(seed)
        first = rng.randrange(1, MAX_CHIPS)
        stacks = {1: first, 2: MAX_CHIPS - first}
        hand = Hand(config, stacks=stacks, button=1, rng=random.Random(seed))
        ref = ReferenceHand(config, stacks=stacks, button=1, rng=random.Random(seed))
        while not hand.is_over:
            assert state_of(hand) == state_of(ref)
            legal = hand.legal_actions()
            if legal.max_raise_to is not None and rng.random() < 0.7:
                to = rng.choice([legal.min_raise_to, legal.max_raise_to])
                hand.bet_or_raise(to)
                ref.bet_or_raise(to)
            else:
                hand.check_or_call()
                ref.check_or_call()
        assert state_of(hand) == state_of(ref)
        assert sum(hand.stacks.values()) == MAX_CHIPS


def test_raise_beyond_int64_is_refused_unchanged() -> None:
    """B8: a raise to more than any int64 is refused with the rule and changes nothing."""
    hand = Hand(PLO8, stacks={1: 200, 2: 200, 3: 200}, button=1, rng=random.Random(1))
    before = state_of(hand)
    for to in (2**63, -(2**63) - 1, 10**40):
        with pytest.raises(IllegalActionError) as err:
            hand.bet_or_raise(to)
        assert err.value.rule == "B8"
        assert state_of(hand) == before


def test_shuffle_with_deals_distinct_cards_and_says_when_bytes_run_out() -> None:
    """C1/C2: distinct cards 0..51; the same bytes give the same deal; too few bytes give
    None rather than a biased card."""
    entropy = bytes(random.Random(5).randrange(256) for _ in range(200))
    cards = shuffle_with(entropy, 52)
    assert cards is not None and sorted(cards) == list(range(52))
    assert shuffle_with(entropy, 52) == cards
    assert shuffle_with(b"", 1) is None
    assert shuffle_with(bytes(40), 5) is None   # byte 0 is always redrawn (C2: no bias)
    with pytest.raises(ValueError):
        shuffle_with(entropy, 53)


def test_shuffle_draw_is_exactly_uniform() -> None:
    """C2, exactly: for the first draw (a position below 52), the 256 possible bytes that
    are not redrawn map to each of the 52 positions equally often (so does any deck size:
    checked for every count of cards left through the second card's draw, below 51)."""
    for first in range(256):
        cards = shuffle_with(bytes([first]) + bytes([255] * 8), 1)
        assert cards is None or 0 <= cards[0] < 52
    hits = Counter(c[0] for b in range(256) if (c := shuffle_with(bytes([b]), 1)) is not None)
    assert len(hits) == 52 and len(set(hits.values())) == 1
    seconds = Counter(c[1] for b in range(256)
                      if (c := shuffle_with(bytes([255, b]), 2)) is not None)
    assert len(seconds) == 51 and len(set(seconds.values())) == 1


def test_shuffle_with_is_uniform() -> None:
    """C2: every card is equally likely in every position (chi-square over 52 cells for the
    first and the last dealt positions; the limit is far above the 99.99th percentile of
    chi-square with 51 degrees of freedom, about 96)."""
    rng = random.Random(11)
    draws = 26_000
    first: Counter[int] = Counter()
    last: Counter[int] = Counter()
    for _ in range(draws):
        cards = None
        while cards is None:
            cards = shuffle_with(rng.randbytes(80), 32)
        first[cards[0]] += 1
        last[cards[31]] += 1
    expected = draws / 52
    for counts in (first, last):
        chi2 = sum((counts[c] - expected) ** 2 / expected for c in range(52))
        assert chi2 < 110, chi2


def test_unseeded_hands_use_distinct_cards() -> None:
    """C1/C2: the OS-random deal (the compiled shuffle) never repeats a card."""
    for _ in range(200):
        hand = Hand(PLO8, stacks={s: 100 for s in range(1, 7)}, button=1)
        dealt = [c for s in hand.seats for c in hand.hole_cards(s)]
        assert len(set(dealt)) == len(dealt) == 24


def test_private_entry_points_refuse_misuse_without_crashing() -> None:
    """Never crash: the engine's private entry points check every index they are given."""
    bare = HandCore()
    with pytest.raises(IllegalActionError):
        bare.legal_actions()
    for act in (bare.fold, bare.check, bare.call, bare.protect_all_in):
        with pytest.raises(IllegalActionError, match="B1: the hand is over"):
            act()            # a bare core has nobody to act (B1)
    with pytest.raises(ValueError):
        bare._hole(0)
    with pytest.raises(ValueError):
        bare._set_status(0, 0)
    with pytest.raises(ValueError):
        bare._act(0, 0)
    with pytest.raises(IllegalActionError):
        bare._pop()
    assert bare.copy().undo_depth == 0

    hand = Hand(PLO8, stacks={1: 200, 2: 200, 3: 200}, button=1, rng=random.Random(2))
    before = state_of(hand)
    for bad in (-5, 3, 10, 1000):
        with pytest.raises(ValueError):
            hand._set_status(bad, 0)
        with pytest.raises(ValueError):
            hand._act(0, bad)
        with pytest.raises(ValueError):
            hand._hole(bad)
    with pytest.raises(ValueError):
        hand._set_status(0, 9)
    with pytest.raises(ValueError):
        hand._act(7, hand.seats.index(hand.to_act))   # no such action
    with pytest.raises(ValueError):
        hand._set_final_stacks([1, 2])
    with pytest.raises(ValueError):
        hand._start((1,), 0, 0, 0, [5], bytes(12), 4, (0, 1, 2, 0), (), False, True,
                    (2, 2, 2, 2), None, False, True, True)
    with pytest.raises(ValueError):
        hand._start((1, 2), 0, 0, 1, [5, 5], bytes([60] * 16), 4, (0, 1, 2, 0), (), False,
                    True, (2, 2, 2, 2), None, False, True, True)
    assert state_of(hand) == before


class LyingTurn(Hand):
    """A subclass whose seat check answers an index outside the hand."""

    __slots__ = ()

    def _turn(self, seat: int | None) -> int:
        return 42


def test_a_subclass_cannot_make_the_engine_index_out_of_bounds() -> None:
    hand = LyingTurn(PLO8, stacks={1: 200, 2: 200}, button=1, rng=random.Random(3))
    before = state_of(hand)
    with pytest.raises(ValueError):
        hand.fold(seat=1)
    assert state_of(hand) == before


def test_pickle_and_deepcopy_give_the_same_hand() -> None:
    """Pickling goes through the snapshot (checked on load); deepcopy is copy(). Each
    result is the same hand and plays on the same way, leaving the original alone."""
    for seed in range(20):
        rng = random.Random(seed)
        hand = Hand(PLO8, stacks={s: 200 for s in range(1, 5)}, button=2, rng=random.Random(seed))
        for _ in range(rng.randrange(8)):
            if hand.is_over:
                break
            hand.check_or_call()
        before = state_of(hand)
        finished = []
        for other in (pickle.loads(pickle.dumps(hand)), copy.deepcopy(hand), copy.copy(hand)):
            assert type(other) is Hand and other is not hand
            assert state_of(other) == before
            while not other.is_over:
                other.check_or_call()
            finished.append(state_of(other))
        assert finished[0] == finished[1] == finished[2]
        assert state_of(hand) == before


def test_init_twice_starts_a_new_hand() -> None:
    hand = Hand(PLO8, stacks={1: 200, 2: 200, 3: 200}, button=1, rng=random.Random(4))
    hand.bet_or_raise(7)
    hand.__init__(PLO8, stacks={1: 50, 2: 60}, button=2, rng=random.Random(4))  # type: ignore[misc]
    fresh = Hand(PLO8, stacks={1: 50, 2: 60}, button=2, rng=random.Random(4))
    assert state_of(hand) == state_of(fresh)
    assert hand.undo_depth == 0


class Touchy(int):
    """An int whose comparisons and repr raise: error messages must still be built."""

    def __lt__(self, other: object) -> bool:
        raise RuntimeError("compared")

    __gt__ = __le__ = __ge__ = __lt__   # type: ignore[assignment]

    def __repr__(self) -> str:
        raise RuntimeError("repr")


def test_a_hostile_int_seat_counts_as_its_value_without_running_its_methods() -> None:
    """T1/B2 and the one integer rule: a seat that is an int subclass with raising methods is
    read as its value (none of its methods run), so every action does exactly what it does
    with the plain int (found by fuzz/fuzz_compiled.py's engine target)."""
    hand = Hand(PLO8, stacks={1: 200, 2: 200}, button=1, rng=random.Random(6))
    for name in ("all_in", "fold", "check_or_call", "protect_all_in", "call", "check"):
        outcomes = []
        for seat in (Touchy(1), 1, Touchy(2), 2):
            branch = hand.copy()
            try:
                getattr(branch, name)(seat=seat)
                outcomes.append(("ok", state_of(branch)))
            except OmahaError as exc:
                outcomes.append(("refused", type(exc), str(exc), state_of(branch)))
        assert outcomes[0] == outcomes[1] and outcomes[2] == outcomes[3], name


def test_threads_branching_one_hand_get_single_threaded_answers() -> None:
    """Copies of one shared hand played in 8 threads at once (tree-search style: copy,
    act, undo) end exactly as the same seeds played one after another."""
    import threading

    root = Hand(PLO8, stacks={s: 200 for s in range(1, 7)}, button=1, rng=random.Random(8))

    def rollout(seed: int) -> list[object]:
        rng = random.Random(seed)
        out: list[object] = []
        for _ in range(30):
            branch = root.copy()
            while not branch.is_over:
                legal = branch.legal_actions()
                if legal.max_raise_to is not None and rng.random() < 0.3:
                    branch.bet_or_raise(rng.randint(legal.min_raise_to, legal.max_raise_to))  # type: ignore[arg-type]
                else:
                    branch.check_or_call()
                if rng.random() < 0.2 and branch.undo_depth:
                    branch.undo()
            out.append(state_of(branch))
        return out

    expected = {seed: rollout(seed) for seed in range(8)}
    got: dict[int, list[object]] = {}

    def run(seed: int) -> None:
        got[seed] = rollout(seed)

    threads = [threading.Thread(target=run, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got == expected
