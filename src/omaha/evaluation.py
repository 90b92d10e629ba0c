"""Deprecated (kept for one release): moved to :mod:`omaha.analysis.evaluation` (issue 20).

Every name :mod:`omaha.evaluation` had is omaha.analysis.evaluation's; importing it warns.
"""

import warnings
from typing import Any

from omaha.analysis import evaluation as _moved
from omaha.analysis.evaluation import (
    CATEGORIES,
    HIGH_STRENGTHS,
    LOW_STRENGTHS,
    best_hand,
    category,
    describe,
    describe_low,
    evaluate_best,
    evaluate_best_low,
    evaluate_five,
    evaluate_five_batch,
    evaluate_five_low,
    evaluate_high,
    evaluate_high_batch,
    evaluate_hilo,
    evaluate_hilo_batch,
    evaluate_low,
    evaluate_low_batch,
    explain,
)

__all__ = [
    "CATEGORIES", "HIGH_STRENGTHS", "LOW_STRENGTHS", "best_hand", "category", "describe",
    "describe_low", "evaluate_best", "evaluate_best_low", "evaluate_five",
    "evaluate_five_batch", "evaluate_five_low", "evaluate_high", "evaluate_high_batch",
    "evaluate_hilo", "evaluate_hilo_batch", "evaluate_low", "evaluate_low_batch", "explain",
]

warnings.warn("omaha.evaluation is deprecated; import from omaha.analysis.evaluation (or omaha)",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    """Any other name the module had (a private one a pickle names): omaha.analysis.evaluation's."""
    return getattr(_moved, name)
