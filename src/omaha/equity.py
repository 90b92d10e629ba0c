"""Deprecated (kept for one release): moved to :mod:`omaha.analysis.equity` (issue 20).

Every name :mod:`omaha.equity` had is omaha.analysis.equity's; importing it warns.
"""

import warnings
from typing import Any

from omaha.analysis import equity as _moved
from omaha.analysis.equity import (
    DEFAULT_SAMPLES,
    EXACT_LIMIT,
    Entry,
    EquityResult,
    equity,
    variant_of,
)

__all__ = ["DEFAULT_SAMPLES", "EXACT_LIMIT", "Entry", "EquityResult", "equity", "variant_of"]

warnings.warn("omaha.equity is deprecated; "
              "import from omaha.analysis.equity (the function: omaha.equity)",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.analysis.equity's."""
    return getattr(_moved, name)
