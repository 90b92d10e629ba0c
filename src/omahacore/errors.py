"""Exception types shared by the compiled modules and the ``omaha`` package.

Every error a caller can cause is a subclass of :class:`ValueError`, so code that already
guards against ``ValueError`` keeps working, and each names what was wrong.
"""


class OmahaError(ValueError):
    """Base class of every error raised for bad input by omaha-poker."""


class CardError(OmahaError):
    """A card token, index or card list is malformed or repeats a card (rule C1)."""


class ArrayError(OmahaError):
    """A batch array has the wrong shape, dtype or values."""


class PotError(OmahaError):
    """Pot or award input is inconsistent (rules P1, P2, S2-S4, K1)."""
