"""Compiled kernels of omaha-poker.

``omahacore.evaluator`` holds the Omaha hi/lo hand evaluator (rules C1, C3-C6) and
``omahacore.pots`` the side-pot builder and splitter (rules P1, P2, S2-S4, K1). They are
importable directly for hot paths; most users want the friendlier ``omaha`` package.
"""

from omahacore.errors import (
    ArrayError,
    ArrayTypeError,
    CardError,
    CardTypeError,
    OmahaError,
    OmahaTypeError,
    PotError,
    PotTypeError,
    StrengthError,
    StrengthTypeError,
)

__all__ = [
    "ArrayError",
    "ArrayTypeError",
    "CardError",
    "CardTypeError",
    "OmahaError",
    "OmahaTypeError",
    "PotError",
    "PotTypeError",
    "StrengthError",
    "StrengthTypeError",
]
