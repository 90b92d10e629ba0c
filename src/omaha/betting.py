"""Deprecated: the betting rules live in the compiled core (:mod:`omahacore.transitions`).

``BettingRound`` left the package in 0.x (issue 20): it restated the compiled rules in
Python and now lives in the test suite as the slow reference they are checked against.
:class:`LegalActions` is importable from :mod:`omaha` (``omaha.LegalActions``); this module
re-exports it for one release and warns.
"""

from __future__ import annotations

import warnings

from omahacore.actions import LegalActions

__all__ = ["LegalActions"]

warnings.warn("omaha.betting is deprecated: import LegalActions from omaha (BettingRound is "
              "gone; the rules are omahacore.transitions')", DeprecationWarning, stacklevel=2)
