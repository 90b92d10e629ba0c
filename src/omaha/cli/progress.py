"""Progress bars for long command-line runs (``omaha play``, ``omaha replay``, ``omaha equity``).

A bar is drawn by `tqdm <https://tqdm.github.io/>`_ on stderr when stderr is a terminal
(or when asked) and is a silent no-op otherwise, so piped output and logs stay clean. tqdm
is imported only when a bar is actually drawn.

>>> bar = progress_bar(3, enabled=False)     # piped or --no-progress: nothing is drawn
>>> for _ in range(3):
...     bar.update()
>>> bar.close()
>>> bar.n
3
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Protocol, TextIO

__all__ = ["Progress", "progress_bar"]


class Progress(Protocol):
    """What a command needs of a bar (a subset of tqdm's): count work, relabel, close.

    ``total`` may be None while the amount of work is unknown (e.g. files still being read)
    and set later, followed by :meth:`refresh`.
    """

    n: int
    total: int | None

    def update(self, n: int = 1) -> Any:
        """Count ``n`` more finished items."""
        ...

    def set_description_str(self, desc: str | None = None, refresh: bool = True) -> None:
        """Show ``desc`` before the bar (what is being done now)."""
        ...

    def refresh(self) -> Any:
        """Redraw now (after changing ``total``)."""
        ...

    def close(self) -> None:
        """Finish the bar (later output starts on a fresh line)."""
        ...


class _Silent:
    """A bar that only counts."""

    __slots__ = ("n", "total")

    def __init__(self, total: int | None) -> None:
        self.n = 0
        self.total = total

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_description_str(self, desc: str | None = None, refresh: bool = True) -> None:
        pass

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(
    total: int | None,
    *,
    enabled: bool | None = None,
    unit: str = "hand",
    description: str | None = None,
    stream: TextIO | None = None,
) -> Progress:
    """A progress bar over ``total`` items (None: not known yet) on ``stream`` (default stderr).

    ``enabled=None`` draws it only when the stream is a terminal; True or False force it
    (the ``--progress``/``--no-progress`` options).
    """
    out = sys.stderr if stream is None else stream
    if enabled is None:
        enabled = bool(getattr(out, "isatty", lambda: False)())
    if not enabled:
        return _Silent(total)
    tqdm = importlib.import_module("tqdm").tqdm
    bar: Progress = tqdm(
        total=total,
        unit=unit,
        desc=description,
        file=out,
        mininterval=0.1,
        dynamic_ncols=True,
    )
    return bar
