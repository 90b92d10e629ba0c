"""Stub for the compiled side-pot builder and splitter (rules P1, P2, S2-S4, K1).

``dead`` is table money (the big blind ante) for the main pot: no player's contribution.
"""

from collections.abc import Iterable, Sequence
from typing import Any, SupportsIndex, TypeAlias, final

import numpy as np
import numpy.typing as npt

__all__ = ["PotAward", "PotLayer", "Settlement", "build_pots", "settle", "settle_batch"]

# One entry per player: lists, tuples, other iterables, NumPy arrays (not str/dict/set).
_IntsLike: TypeAlias = Iterable[SupportsIndex] | npt.NDArray[np.integer[Any]]
_FlagsLike: TypeAlias = Iterable[bool | int | np.bool_] | npt.NDArray[np.bool_]

@final
class PotLayer:
    def __init__(self, *, amount: SupportsIndex, eligible: Sequence[SupportsIndex]) -> None: ...
    @property
    def amount(self) -> int: ...
    @property
    def eligible(self) -> tuple[int, ...]: ...
    def to_dict(self) -> dict[str, Any]: ...
    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PotLayer: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class PotAward:
    def __init__(
        self,
        *,
        amount: SupportsIndex,
        rake: SupportsIndex,
        eligible: Sequence[SupportsIndex],
        high_winners: Sequence[SupportsIndex],
        high_shares: Sequence[SupportsIndex],
        low_winners: Sequence[SupportsIndex] = (),
        low_shares: Sequence[SupportsIndex] = (),
    ) -> None: ...
    @property
    def amount(self) -> int: ...
    @property
    def rake(self) -> int: ...
    @property
    def eligible(self) -> tuple[int, ...]: ...
    @property
    def high_winners(self) -> tuple[int, ...]: ...
    @property
    def high_shares(self) -> tuple[int, ...]: ...
    @property
    def low_winners(self) -> tuple[int, ...]: ...
    @property
    def low_shares(self) -> tuple[int, ...]: ...
    def share_of(self, player: int) -> int: ...
    def to_dict(self) -> dict[str, Any]: ...
    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PotAward: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Settlement:
    def __init__(
        self,
        *,
        pots: Sequence[PotAward],
        payouts: Sequence[SupportsIndex],
        returned: Sequence[SupportsIndex],
        rake: SupportsIndex,
        total: SupportsIndex,
    ) -> None: ...
    @property
    def pots(self) -> tuple[PotAward, ...]: ...
    @property
    def payouts(self) -> tuple[int, ...]: ...
    @property
    def returned(self) -> tuple[int, ...]: ...
    @property
    def rake(self) -> int: ...
    @property
    def total(self) -> int: ...
    def to_dict(self) -> dict[str, Any]: ...
    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settlement: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def build_pots(
    contributions: _IntsLike, folded: _FlagsLike, *, dead: SupportsIndex = 0
) -> tuple[tuple[PotLayer, ...], tuple[int, ...]]: ...
def settle(
    contributions: _IntsLike,
    folded: _FlagsLike,
    high: _IntsLike,
    low: _IntsLike | None = None,
    *,
    order: _IntsLike | None = None,
    rake: SupportsIndex = 0,
    dead: SupportsIndex = 0,
) -> Settlement: ...
def settle_batch(
    contributions: npt.NDArray[np.int64],
    folded: npt.NDArray[np.bool_],
    high: npt.NDArray[np.int32],
    low: npt.NDArray[np.int32] | None = None,
    *,
    order: npt.NDArray[np.integer[Any]] | None = None,
    rake: npt.NDArray[np.int64] | None = None,
    dead: npt.NDArray[np.int64] | None = None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
