"""omaha-poker: fast, rule-exact Omaha High and Omaha Hi/Lo 8-or-better.

The rule numbers quoted throughout (C1, B5, S3, ...) refer to the project's rule book.

>>> import omaha
>>> omaha.evaluate_high("AhKhQdJd", "ThJhQc2s3s") > omaha.evaluate_high("2c2d7h8h", "ThJhQc2s3s")
True
>>> omaha.describe(omaha.evaluate_low("As2d9h9c", "3c4d5hKsKd"), low=True)
'5-4-3-2-A low'
"""

from omahacore.errors import ArrayError, CardError, OmahaError, PotError

from omaha.cards import DECK, Card, format_cards, parse_cards
from omaha.evaluation import (
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

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "ArrayError",
    "Card",
    "CardError",
    "OmahaError",
    "PotError",
    "best_hand",
    "category",
    "describe",
    "describe_low",
    "evaluate_best",
    "evaluate_best_low",
    "evaluate_five",
    "evaluate_five_batch",
    "evaluate_five_low",
    "evaluate_high",
    "evaluate_high_batch",
    "evaluate_hilo",
    "evaluate_hilo_batch",
    "evaluate_low",
    "evaluate_low_batch",
    "explain",
    "format_cards",
    "parse_cards",
]
