"""Named cases for the eight-or-better low (rule C5) and the exactly-two rule (C3)."""

import omaha
from omaha import describe, describe_low, evaluate_high, evaluate_low


def low_text(hole, board):
    return describe_low(evaluate_low(hole, board))


def test_c5_wheel_is_the_best_low():
    assert evaluate_low("As2dKhKc", "3c4d5hQsJd") == 56
    assert low_text("As2dKhKc", "3c4d5hQsJd") == "5-4-3-2-A low"


def test_c5_compare_highest_card_first():
    # 7-5-4-3-2 beats 8-4-3-2-A; 6-4-3-2-A beats 6-5-3-2-A.
    assert omaha.evaluate_five_low("7h5d4c3s2h") > omaha.evaluate_five_low("8h4d3c2sAh")
    assert omaha.evaluate_five_low("6h4d3c2sAh") > omaha.evaluate_five_low("6h5d3c2sAh")


def test_c5_counterfeit_a2_with_an_ace_on_board():
    # A-2 in the hole; the board's low ranks are A, 3, 5. Exactly three board cards must
    # play, so the board's ace duplicates the hole's: the A-2 is counterfeited, no low.
    hole, board = "Ah2hKsKd", "Ac3d5s9hTc"
    assert evaluate_low(hole, board) == 0
    assert evaluate_low(hole, "Ac3d5s7hTc") == omaha.evaluate_five_low("7h5s3d2hAh")


def test_c5_three_low_hole_cards_two_low_board_cards_is_no_low():
    # Only two low ranks on the board: three are needed from the board (C3 + C5).
    assert evaluate_low("As2d3h4c", "5c6dKsQhJd") == 0


def test_c5_fewer_than_three_low_board_ranks_no_low_for_anyone():
    board = "2c2d7hKsQd"  # low ranks on board: 2 and 7 only
    for hole in ("As3d4h5c", "Ah3c4d6s", "8c6d5h4s"):
        assert evaluate_low(hole, board) == 0


def test_c5_nine_high_is_no_low():
    assert omaha.evaluate_five_low("9h5d4c3s2h") == 0
    assert evaluate_low("As9dKhKc", "2c3d4hQsJd") == 0  # needs a 9 to make five ranks


def test_c5_straights_and_flushes_do_not_spoil_a_low():
    hole, board = "Ah2hKsKd", "3h4h5hQsJd"
    assert evaluate_low(hole, board) == 56
    assert describe(evaluate_high(hole, board)) == "Straight flush, five high"


def test_c5_low_and_high_may_use_different_cards():
    hole, board = "As2dKhKc", "3c4dKs9h8c"
    high_cards, low_cards = omaha.best_hand(hole, board)
    assert describe(evaluate_high(hole, board)) == "Three of a kind, kings"
    assert set(omaha.parse_cards("KhKc")) <= set(high_cards)
    assert set(omaha.parse_cards("As2d")) <= set(low_cards)


def test_c5_pairs_in_the_hole_are_skipped_for_low():
    # A-A-2-2 plays A-2; board 3-4-5 gives the wheel.
    assert evaluate_low("AsAd2c2h", "3c4d5hQsJd") == 56


def test_c3_exactly_two_hole_cards_flush():
    # Four hearts in the hole, one heart on the board: no flush in Omaha.
    hole, board = "AhKhQhJh", "2h7c8d9sTc"
    assert omaha.category(evaluate_high(hole, board)) != "Flush"
    # Three hearts on the board and two in the hole: a flush.
    assert omaha.category(evaluate_high("AhKh2c3d", "4h8h9hJsQc")) == "Flush"


def test_c3_exactly_three_board_cards_no_board_straight():
    # The board is a straight; the hole cannot use all five board cards.
    hole, board = "2c2d3h3s", "5c6d7h8s9c"
    assert omaha.category(evaluate_high(hole, board)) != "Straight"


def test_c3_four_of_a_kind_on_board_plays_as_trips_plus_hole_pair():
    # Quads on the board: only three can be used.
    hole, board = "AcAd2c3d", "KcKdKhKs7h"
    assert describe(evaluate_high(hole, board)) == "Full house, kings full of aces"


def test_describe_categories():
    cases = {
        "AsKsQsJsTs": "Royal flush",
        "5s4s3s2sAs": "Straight flush, five high",
        "9c9d9h9s2c": "Four of a kind, nines",
        "KhKdKs7c7d": "Full house, kings full of sevens",
        "Ah9h7h4h2h": "Flush, A-9-7-4-2",
        "5c4d3h2sAc": "Straight, five high",
        "QcQdQh7s2c": "Three of a kind, queens",
        "JcJd4h4s2c": "Two pair, jacks and fours",
        "TcTd8h4s2c": "Pair of tens",
        "Ac9d7h4s2c": "High card, A-9-7-4-2",
    }
    for cards, text in cases.items():
        assert describe(omaha.evaluate_five(cards)) == text
    assert describe(0, low=True) == "No low"
    assert describe(omaha.evaluate_five_low("8h6d4s2cAd"), low=True) == "8-6-4-2-A low"
