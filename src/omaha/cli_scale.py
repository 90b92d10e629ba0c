"""Deprecated (kept for one release): moved to :mod:`omaha.cli.scale` (issue 20).

Every name :mod:`omaha.cli_scale` had is omaha.cli.scale's; importing it warns.
"""

import warnings
from typing import Any

from omaha.cli import scale as _moved
from omaha.cli.scale import add_parser, run

__all__ = ["add_parser", "run"]

warnings.warn("omaha.cli_scale is deprecated; import from omaha.cli.scale",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.cli.scale's."""
    return getattr(_moved, name)
