"""Type stubs for the compiled batched kernel (``vector.pyx``)."""

from typing import Any, Final, final

import numpy as np
import numpy.typing as npt

from omahacore.engine import HandCore

TABLE_FEATURES: Final[int]
PLAYER_FEATURES: Final[int]

def observe_hand(hand: HandCore, player: int, out: npt.NDArray[np.float32],
                 scale: float) -> None: ...
def holdem_best(cards: tuple[int, ...]) -> int: ...
def action_totals(call: int, low: int, high: int, current: int, pot: int,
                  fractions: npt.NDArray[np.float64], min_raise: bool, max_raise: bool,
                  totals: npt.NDArray[np.int64], mask: npt.NDArray[np.int8]) -> None: ...

@final
class VectorCore:
    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]
    actors: npt.NDArray[np.int64]
    results: npt.NDArray[np.float32]
    ended: npt.NDArray[np.bool_]
    def __init__(self, tables: int, players: int, hole_cards: int, hi_lo: bool,
                 omaha_rule: bool, limit: bool, pot_limit: bool,
                 units: tuple[int, int, int, int], max_raises: int | None,
                 uncapped_heads_up: bool, ante: int, small: int, big: int,
                 big_blind_ante: int, stack: int, fractions: npt.NDArray[np.float64],
                 min_raise: bool, max_raise: bool) -> None: ...
    def refill(self, entropy: bytes) -> int: ...
    @property
    def pooled(self) -> int: ...
    @property
    def pool_size(self) -> int: ...
    def discard_pool(self) -> None: ...
    def reset(self) -> None: ...
    def step(self, actions: npt.NDArray[np.int64],
             illegal: npt.NDArray[np.uint8] | None = None, hold: bool = False,
             view: int = -1, skip: bool = False,
             final: npt.NDArray[np.float32] | None = None,
             gains: npt.NDArray[np.float64] | None = None) -> int: ...
    def retarget(self, observation: npt.NDArray[np.float32]) -> None: ...
    @property
    def cards_needed(self) -> int: ...
    def last_hand(self, t: int) -> tuple[bytes, int, list[int]] | None: ...
    def state(self, t: int) -> dict[str, Any]: ...
