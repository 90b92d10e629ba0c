"""Deprecated (kept for one release): moved to :mod:`omaha.cli.equity` (issue 20).

Every name :mod:`omaha.cli_equity` had is omaha.cli.equity's; importing it warns.
"""

import warnings
from typing import Any

from omaha.cli import equity as _moved
from omaha.cli.equity import add_parser, run

__all__ = ["add_parser", "run"]

warnings.warn("omaha.cli_equity is deprecated; import from omaha.cli.equity",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.cli.equity's."""
    return getattr(_moved, name)
