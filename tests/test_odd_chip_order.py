"""S2/S3: odd chips go clockwise from the first player left of the button. One statement
(``odd_chip_order`` in ``omahacore/transitions.pxd``) serves the engine's award (through the
import-time table ``ODD_CHIP_ORDERS``), the batched kernel and PHH replay; this is the slow
reference."""

from omahacore.transitions import ODD_CHIP_ORDERS


def test_s3_odd_chips_go_clockwise_from_left_of_the_button():
    for players in range(2, 11):
        for button in range(players):
            left_of_button = [(button + step) % players for step in range(1, players + 1)]
            assert list(ODD_CHIP_ORDERS[players][button]) == left_of_button
            assert ODD_CHIP_ORDERS[players][button][-1] == button   # the button is last


def test_s3_the_engine_award_gives_the_odd_chip_left_of_the_button():
    import random

    from omaha import GameConfig, Hand

    config = GameConfig.no_limit(small_blind=1, big_blind=2, variant="holdem")
    # the board (a royal flush) plays for everyone: three players split 5 + 5 + 5 + 1
    hand = Hand(config, stacks={1: 50, 2: 50, 3: 50, 4: 50}, button=4,
                hole_cards={1: "2c3d", 2: "2d3c", 3: "2h3s", 4: "2s3h"},
                board="AsKsQsJsTs", rng=random.Random(0))
    hand.bet_or_raise(5)     # seat 3 (UTG)
    hand.call()              # seat 4 (button)
    hand.fold()              # seat 1 (small blind: its 1 chip stays in the pot)
    hand.call()              # seat 2 (big blind)
    while not hand.is_over:
        hand.check_or_call()
    # 16 chips among seats 2, 3, 4: 5 each and one odd chip to the first left of the button
    # among the winners: seat 2 (seat 1, first left of the button, folded)
    assert hand.stacks == {1: 49, 2: 51, 3: 50, 4: 50}
