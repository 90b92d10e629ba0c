"""Deprecated (kept for one release): moved to :mod:`omaha.analysis.ranges` (issue 20).

Every name :mod:`omaha.ranges` had is omaha.analysis.ranges's; importing it warns.
"""

import warnings
from typing import Any

from omaha.analysis import ranges as _moved
from omaha.analysis.ranges import MACROS, MAX_LISTED, Range, RangeError, variant_of

__all__ = ["MACROS", "MAX_LISTED", "Range", "RangeError", "variant_of"]

warnings.warn("omaha.ranges is deprecated; import from omaha.analysis.ranges (Range: omaha.Range)",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.analysis.ranges's."""
    return getattr(_moved, name)
