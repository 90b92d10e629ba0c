"""The compiled evaluator against the pure-Python brute force on many random deals (C3-C6)."""

import random

import numpy as np
import pytest

import omaha
import reference_eval as ref

# At least 100,000 deals in all, for high and low, hole sizes 4, 5 and 6.
DEALS = {4: 70_000, 5: 18_000, 6: 12_000}


def random_deals(seed: int, n: int, hole_size: int, board_size: int = 5):
    rng = random.Random(seed)
    deck = list(range(52))
    holes, boards = [], []
    for _ in range(n):
        cards = rng.sample(deck, hole_size + board_size)
        holes.append(cards[:hole_size])
        boards.append(cards[hole_size:])
    return holes, boards


@pytest.mark.slow
@pytest.mark.parametrize("hole_size", sorted(DEALS))
def test_c3_batch_matches_brute_force_on_random_deals(hole_size):
    holes, boards = random_deals(1000 + hole_size, DEALS[hole_size], hole_size)
    high, low = omaha.evaluate_hilo_batch(np.array(holes, np.uint8), np.array(boards, np.uint8))
    for i, (h, b) in enumerate(zip(holes, boards)):
        assert high[i] == ref.omaha_high(h, b), (h, b)
        assert low[i] == ref.omaha_low(h, b), (h, b)


@pytest.mark.parametrize("board_size", [3, 4, 5])
@pytest.mark.parametrize("hole_size", [4, 5, 6])
def test_c3_single_calls_match_brute_force(hole_size, board_size):
    holes, boards = random_deals(hole_size * 10 + board_size, 1500, hole_size, board_size)
    for h, b in zip(holes, boards):
        assert omaha.evaluate_high(h, b) == ref.omaha_high(h, b)
        assert omaha.evaluate_low(h, b) == ref.omaha_low(h, b)
        assert omaha.evaluate_hilo(h, b) == (ref.omaha_high(h, b), ref.omaha_low(h, b))


@pytest.mark.parametrize("board_size", [3, 4])
def test_c3_batch_short_boards_match_brute_force(board_size):
    holes, boards = random_deals(77 + board_size, 3000, 4, board_size)
    high, low = omaha.evaluate_hilo_batch(np.array(holes, np.uint8), np.array(boards, np.uint8))
    assert high.tolist() == [ref.omaha_high(h, b) for h, b in zip(holes, boards)]
    assert low.tolist() == [ref.omaha_low(h, b) for h, b in zip(holes, boards)]


def test_c3_shared_board_batch_equals_per_row_boards():
    holes, boards = random_deals(5, 1, 4)
    rng = random.Random(6)
    board = boards[0]
    rest = [c for c in range(52) if c not in board]
    holes = np.array([rng.sample(rest, 4) for _ in range(5000)], np.uint8)
    shared = omaha.evaluate_hilo_batch(holes, np.array(board, np.uint8))
    per_row = omaha.evaluate_hilo_batch(holes, np.tile(np.array(board, np.uint8), (5000, 1)))
    assert shared[0].tolist() == per_row[0].tolist()
    assert shared[1].tolist() == per_row[1].tolist()
    assert shared[0].tolist() == [ref.omaha_high(h, board) for h in holes.tolist()]


def test_c3_flush_heavy_deals_match_brute_force():
    """Suited boards and suited holes are rare in random deals; force them."""
    rng = random.Random(9)
    for _ in range(4000):
        suit = rng.randrange(4)
        suited = [4 * r + suit for r in rng.sample(range(13), 7)]
        others = [c for c in range(52) if c not in suited]
        cards = suited[:rng.randint(3, 5)] + rng.sample(others, 9)
        cards = cards[:9]
        rng.shuffle(cards)
        board, hole = cards[:5], cards[5:]
        assert omaha.evaluate_high(hole, board) == ref.omaha_high(hole, board)
        batch = omaha.evaluate_high_batch(np.array([hole], np.uint8), np.array([board], np.uint8))
        assert batch[0] == ref.omaha_high(hole, board)


@pytest.mark.parametrize("n_cards", [5, 6, 7])
def test_c6_holdem_any_five_matches_brute_force(n_cards):
    rng = random.Random(n_cards)
    for _ in range(2000):
        cards = rng.sample(range(52), n_cards)
        assert omaha.evaluate_best(cards) == ref.best_of_any(cards)
        assert omaha.evaluate_best_low(cards) == ref.best_of_any(cards, low=True)


def test_best_hand_cards_make_the_reported_strengths():
    holes, boards = random_deals(11, 3000, 4)
    for h, b in zip(holes, boards):
        high_cards, low_cards = omaha.best_hand(h, b)
        assert len(set(high_cards[:2]) & set(h)) == 2 and set(high_cards[2:]) <= set(b)
        assert ref.high5(tuple(high_cards)) == ref.omaha_high(h, b)
        if low_cards is None:
            assert ref.omaha_low(h, b) == 0
        else:
            assert set(low_cards[:2]) <= set(h) and set(low_cards[2:]) <= set(b)
            assert ref.low5(tuple(low_cards)) == ref.omaha_low(h, b)


def test_c3_tables_form_matches_rows_form():
    """holes (tables, players, 4) with one (tables, 5) board each = the flat per-row form."""
    rng = random.Random(31)
    tables, players = 700, 6
    holes = np.empty((tables, players, 4), np.uint8)
    boards = np.empty((tables, 5), np.uint8)
    for t in range(tables):
        cards = rng.sample(range(52), 4 * players + 5)
        holes[t] = np.array(cards[: 4 * players]).reshape(players, 4)
        boards[t] = cards[4 * players :]
    high, low = omaha.evaluate_hilo_batch(holes, boards)
    assert high.shape == low.shape == (tables, players)
    flat_high, flat_low = omaha.evaluate_hilo_batch(holes.reshape(-1, 4), np.repeat(boards, players, 0))
    assert high.ravel().tolist() == flat_high.tolist()
    assert low.ravel().tolist() == flat_low.tolist()
    for t in range(0, tables, 50):
        for p in range(players):
            h, b = holes[t, p].tolist(), boards[t].tolist()
            assert (high[t, p], low[t, p]) == (ref.omaha_high(h, b), ref.omaha_low(h, b))
    # 5-card holes and short boards go through the general kernel in the same form
    wide = np.array([rng.sample(range(52), 5 * 2 + 4) for _ in range(50)], np.uint8)
    h5, b4 = wide[:, :10].reshape(50, 2, 5), wide[:, 10:]
    assert omaha.evaluate_high_batch(h5, b4).tolist() == [
        [ref.omaha_high(h5[t, p].tolist(), b4[t].tolist()) for p in range(2)] for t in range(50)]


def test_best_hand_returns_cards_that_print_and_paste_back():
    """omaha.best_hand gives Card objects (issue 13), not bare indices."""
    high, low = omaha.best_hand("AhKh2c3d", "QhJh4s5s6c")
    assert all(type(card) is omaha.Card for card in high + low)
    assert eval(repr(high), {"Card": omaha.Card}) == high
    assert omaha.best_hand("AhKh2c3d", "QhJh9s9dTc")[1] is None
