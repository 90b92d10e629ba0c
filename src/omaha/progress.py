"""Deprecated (kept for one release): moved to :mod:`omaha.cli.progress` (issue 20).

Every name :mod:`omaha.progress` had is omaha.cli.progress's; importing it warns.
"""

import warnings
from typing import Any

from omaha.cli import progress as _moved
from omaha.cli.progress import Progress, progress_bar

__all__ = ["Progress", "progress_bar"]

warnings.warn("omaha.progress is deprecated; import from omaha.cli.progress",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.cli.progress's."""
    return getattr(_moved, name)
