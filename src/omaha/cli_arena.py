"""Deprecated (kept for one release): moved to :mod:`omaha.cli.arena` (issue 20).

Every name :mod:`omaha.cli_arena` had is omaha.cli.arena's; importing it warns.
"""

import warnings
from typing import Any

from omaha.cli import arena as _moved
from omaha.cli.arena import add_parser as add_parsers

__all__ = ["add_parsers"]

warnings.warn("omaha.cli_arena is deprecated; import from omaha.cli.arena",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.cli.arena's."""
    return getattr(_moved, name)
