"""Stub for the compiled card parser (rule C1)."""

from collections.abc import Iterable
from typing import TypeAlias

_CardLike: TypeAlias = int | str
_CardsLike: TypeAlias = str | Iterable[_CardLike]

RANKS: str
SUITS: str
CARD_TEXT: tuple[str, ...]

def parse_card(token: _CardLike) -> int: ...
def parse_cards(cards: _CardsLike) -> list[int]: ...
def format_card(index: int) -> str: ...
def format_cards(cards: Iterable[_CardLike], sep: str = "") -> str: ...
