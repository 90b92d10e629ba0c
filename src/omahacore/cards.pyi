"""Stub for the compiled card parser (rule C1)."""

from collections.abc import Iterable
from typing import TypeAlias

_CardLike: TypeAlias = int | str
_CardsLike: TypeAlias = str | Iterable[_CardLike]

RANKS: str
SUITS: str
SUIT_SYMBOLS: str
WHITE_SUIT_SYMBOLS: str
CARD_TEXT: tuple[str, ...]
CARD_SYMBOLS: tuple[str, ...]

def parse_card(token: _CardLike) -> int: ...
def parse_cards(cards: _CardsLike) -> list[int]: ...
def format_card(index: _CardLike, *, symbols: bool = False) -> str: ...
def format_cards(cards: _CardsLike, sep: str = "", *, symbols: bool = False) -> str: ...
