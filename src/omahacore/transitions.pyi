"""Type stubs for the compiled betting rules (``transitions.pyx``)."""

from enum import IntEnum
from typing import Final

STREET_CARDS: Final[tuple[tuple[int, int, int], ...]]
ODD_CHIP_ORDERS: Final[tuple[tuple[tuple[int, ...], ...], ...]]

def blind_positions(players: int, button: int, single_blind: bool = False) -> tuple[int, int]: ...

class Reason(IntEnum):
    OK = 0
    HAND_OVER = 1
    AT_SHOWDOWN = 2
    NOT_YOUR_TURN = 3
    CHECK_OWES = 4
    CALL_OWES_NOTHING = 5
    NOT_AN_AMOUNT = 6
    BEYOND_ANY_STACK = 7
    TOO_SHORT_TO_RAISE = 8
    NOBODY_TO_CALL = 9
    NOT_REOPENED = 10
    CAPPED = 11
    LIMIT_EXACT = 12
    ALL_IN_ONLY = 13
    BELOW_MINIMUM = 14
    ABOVE_POT = 15
    ABOVE_STACK = 16
    PROTECT_CAN_CHECK = 17
    PROTECT_NO_CHIPS = 18
    NOTHING_TO_UNDO = 19
    NO_SHOWDOWN_TURN = 20
    NOT_YOUR_SHOW = 21
    BRING_IN_DUE = 22
    OPEN_PAIR_SIZES = 23
