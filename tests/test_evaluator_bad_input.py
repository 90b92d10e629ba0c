"""Bad input to the evaluator raises a clear ValueError subclass and never crashes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import omaha
from omaha import ArrayError, CardError

HOLE, BOARD = "AhKs2c3d", "QdJd7h"


@pytest.mark.parametrize(
    "hole, board, message",
    [
        ("AhKs2c", BOARD, "hole must have 4 to 6 cards, got 3"),
        ("AhKs2c3d4d5d6d", BOARD, "hole must have 4 to 6 cards, got 7"),
        (HOLE, "QdJd", "board must have 3 to 5 cards, got 2"),
        (HOLE, "QdJd7h8h9hTh", "board must have 3 to 5 cards, got 6"),
        (HOLE, "QdJdAh", "duplicate card Ah"),
        ("AhAh2c3d", BOARD, "duplicate card Ah"),
        ("AhKx2c3d", BOARD, "'Kx'"),
        ([50, 47, 0, 52], BOARD, "card index 52 is out of range"),
        ([50, 47, 0, -1], BOARD, "card index -1 is out of range"),
        ([50, 47, 0, 2**80], BOARD, "out of range"),
        ([50, 47, 0, 1.5], BOARD, "cannot read 1.5"),
        (42, BOARD, "hole must be a sequence"),
        (None, BOARD, "hole must be a sequence"),
    ],
)
def test_single_call_errors_name_the_problem(hole, board, message):
    for fn in (omaha.evaluate_high, omaha.evaluate_low, omaha.evaluate_hilo, omaha.best_hand):
        with pytest.raises(CardError) as info:
            fn(hole, board)
        assert message in str(info.value)


def test_accepts_cards_ints_text_numpy_and_generators():
    expected = omaha.evaluate_high(HOLE, BOARD)
    cards = omaha.parse_cards(HOLE)
    assert omaha.evaluate_high(cards, BOARD) == expected
    assert omaha.evaluate_high([int(c) for c in cards], tuple(omaha.parse_cards(BOARD))) == expected
    assert omaha.evaluate_high(np.array(cards, np.int64), iter(omaha.parse_cards(BOARD))) == expected
    assert omaha.evaluate_high(["Ah", "Ks", "2c", "3d"], "Qd Jd 7h") == expected


def holes_boards(n=3):
    holes = np.array([[0, 1, 2, 3]] * n, np.uint8)
    boards = np.array([[10, 20, 30, 40, 50]] * n, np.uint8)
    return holes, boards


@pytest.mark.parametrize("fn", [omaha.evaluate_high_batch, omaha.evaluate_low_batch,
                                omaha.evaluate_hilo_batch])
def test_batch_shape_dtype_and_value_errors(fn):
    holes, boards = holes_boards()
    with pytest.raises(ArrayError, match="dtype float64"):
        fn(holes.astype(np.float64), boards)
    with pytest.raises(ArrayError, match="dtype bool"):
        fn(holes, boards.astype(bool))
    with pytest.raises(ArrayError, match=r"holes must have shape \(N, 4\)"):
        fn(holes[:, :3], boards)
    with pytest.raises(ArrayError, match=r"holes must have shape"):
        fn(holes[0], boards)
    with pytest.raises(ArrayError, match=r"boards must have shape"):
        fn(holes, np.zeros((3, 6), np.uint8))
    with pytest.raises(ArrayError, match=r"boards must have shape"):
        fn(holes, np.zeros((3, 5, 1), np.uint8))
    with pytest.raises(ArrayError, match="holes has 3 rows but boards has 2"):
        fn(holes, boards[:2])
    with pytest.raises(ArrayError, match="holes holds 303, not a card index"):
        fn(holes.astype(np.int64) + np.array([0, 0, 0, 300]), boards)
    with pytest.raises(ArrayError, match="holes holds -1"):
        fn(holes.astype(np.int16) - 1, boards)
    bad = holes.copy()
    bad[2, 1] = 52
    with pytest.raises(ArrayError, match="row 2: card index 52 is out of range"):
        fn(bad, boards)
    bad = holes.copy()
    bad[1, 3] = 50
    with pytest.raises(ArrayError, match="row 1: duplicate card Ah"):
        fn(bad, boards)
    bad_boards = boards.copy()
    bad_boards[0, 0] = bad_boards[0, 1]
    with pytest.raises(ArrayError, match="row 0: duplicate card"):
        fn(holes, bad_boards)
    assert isinstance(ArrayError("x"), ValueError)


def test_batch_empty_and_non_contiguous_inputs():
    high, low = omaha.evaluate_hilo_batch(np.zeros((0, 4), np.uint8), np.zeros((0, 5), np.uint8))
    assert high.dtype == np.int32 and high.shape == (0,) and low.shape == (0,)
    assert omaha.evaluate_high_batch(np.zeros((0, 4), np.uint8), np.arange(5, dtype=np.uint8)).shape == (0,)
    deck = np.arange(52, dtype=np.uint8)
    wide = np.stack([deck[0:8], deck[8:16]])  # (2, 8); take every other column
    holes = wide[:, ::2]
    boards = np.stack([deck[20:25], deck[30:35]])
    assert not holes.flags.c_contiguous
    expected = [omaha.evaluate_high(h.tolist(), b.tolist()) for h, b in zip(holes, boards)]
    assert omaha.evaluate_high_batch(holes, boards).tolist() == expected
    assert omaha.evaluate_high_batch(holes.tolist(), boards.tolist()).tolist() == expected


def test_five_batch_errors():
    with pytest.raises(ArrayError, match=r"cards must have shape \(N, 5\)"):
        omaha.evaluate_five_batch(np.zeros((2, 4), np.uint8))
    with pytest.raises(ArrayError, match="row 0"):
        omaha.evaluate_five_batch(np.zeros((1, 5), np.uint8))


@settings(max_examples=300, deadline=None)
@given(
    holes=hnp.arrays(np.uint8, st.tuples(st.integers(0, 6), st.integers(4, 6))),
    boards=hnp.arrays(np.uint8, st.tuples(st.integers(0, 6), st.integers(3, 5))),
)
def test_random_bytes_never_crash_and_agree_with_single_calls(holes, boards):
    try:
        high, low = omaha.evaluate_hilo_batch(holes, boards)
    except ArrayError:
        if holes.shape[0] == boards.shape[0]:
            # The single-hand reader must refuse at least one row too.
            refused = 0
            for h, b in zip(holes.tolist(), boards.tolist()):
                try:
                    omaha.evaluate_hilo(h, b)
                except CardError:
                    refused += 1
            assert refused > 0
        return
    for i, (h, b) in enumerate(zip(holes.tolist(), boards.tolist())):
        assert (high[i], low[i]) == omaha.evaluate_hilo(h, b)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.integers(-100, 100), st.text(max_size=3), st.none(), st.floats()),
                max_size=8))
def test_random_python_objects_never_crash(items):
    try:
        omaha.evaluate_hilo(items[:4], items[4:])
    except CardError:
        pass


def test_tables_form_errors_name_table_and_player():
    holes = np.array([[[0, 1, 2, 3], [4, 5, 6, 7]], [[8, 9, 10, 11], [12, 13, 14, 15]]], np.uint8)
    boards = np.array([[20, 21, 22, 23, 24], [30, 31, 32, 33, 34]], np.uint8)
    assert omaha.evaluate_high_batch(holes, boards).shape == (2, 2)
    bad = holes.copy()
    bad[1, 1, 2] = 33
    with pytest.raises(ArrayError, match="table 1, player 1: duplicate card"):
        omaha.evaluate_hilo_batch(bad, boards)
    bad_boards = boards.copy()
    bad_boards[1, 0] = 99
    with pytest.raises(ArrayError, match="boards holds 99"):
        omaha.evaluate_hilo_batch(holes, bad_boards.astype(np.int64))
    bad_boards = boards.copy()
    bad_boards[1, 0] = 99
    with pytest.raises(ArrayError, match="table 1, player 0"):
        omaha.evaluate_hilo_batch(holes, bad_boards)
    with pytest.raises(ArrayError, match=r"need boards of shape \(2, 5\)"):
        omaha.evaluate_hilo_batch(holes, boards[0])
    with pytest.raises(ArrayError, match=r"need boards of shape \(2, 5\)"):
        omaha.evaluate_hilo_batch(holes, boards[:1])
    with pytest.raises(ArrayError, match="holes must have shape"):
        omaha.evaluate_hilo_batch(holes[:, :, :3], boards)
    empty = omaha.evaluate_hilo_batch(np.zeros((0, 6, 4), np.uint8), np.zeros((0, 5), np.uint8))
    assert empty[0].shape == (0, 6)
