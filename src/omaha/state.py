"""Deprecated (kept for one release): ``HandState`` was the compiled core under another name.

:class:`~omaha.game.hand.Hand` now sits directly on :class:`omahacore.engine.HandCore` (the
hand's two C structs, the undo stack and the event log; see
:class:`~omaha.game.award.ShowdownAndAward` for what Python reads of it), so ``HandState``
is that class: subclasses and ``isinstance`` checks keep working. Importing this module
warns.
"""

import warnings

from omahacore.engine import NOT_YET, HandCore

__all__ = ["NOT_YET", "HandState"]

HandState = HandCore
"""The old name of :class:`omahacore.engine.HandCore`."""

warnings.warn("omaha.state is deprecated; HandState is omahacore.engine.HandCore, the base of "
              "omaha.game.hand.Hand", DeprecationWarning, stacklevel=2)
