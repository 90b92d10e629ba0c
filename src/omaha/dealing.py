"""A new hand's arguments checked, and its dealt sequence made (T1-T6, B8, C1, C2).

Everything here runs before a :class:`~omaha.hand.Hand` exists, so a refusal leaves nothing
behind. Cards from callers are copied item by item into exact ints before the compiled
parser reads them.

>>> from omaha.config import GameConfig
>>> check_setup(GameConfig.pot_limit(small_blind=1, big_blind=2), {3: 100, 1: 50}, 3)
(1, 3)
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable, Mapping

from omaha.cards import CardsLike, parse_cards
from omaha.config import GameConfig
from omaha.deck import cards_needed, shuffled_cards, stacked_cards
from omaha.errors import CardError, TableError
from omaha.limits import check_total, shown
from omahacore.cards import format_cards

__all__ = ["check_options", "check_setup", "dealt_sequence", "live_seats"]


def dealt_sequence(config: GameConfig, seats: tuple[int, ...], sb: int,
                   rng: random.Random | None, hole_cards: Mapping[int, CardsLike] | None,
                   board: CardsLike | None, deck: Iterable[int] | None) -> list[int]:
    """The dealt sequence (T6 layout): given whole, stacked around fixed cards, or shuffled.

    ``seats`` are the dealt-in seats in order and ``sb`` the small blind's index (the
    first player dealt to).
    """
    n, h = len(seats), config.variant.hole_cards
    count = cards_needed(n, h)
    if deck is not None:
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
            raise TableError("T6", f"deck must be a sequence of card indices, got {shown(deck)}")
        cards = _parsed(list(deck), "deck")
        if len(cards) != count:
            raise TableError("T6", f"a {n}-player hand deals {count} cards, got {len(cards)}")
        _distinct(cards, "deck")
        return cards
    if hole_cards is None and board is None:
        return shuffled_cards(count, rng)
    if hole_cards is not None and not isinstance(hole_cards, Mapping):
        raise TableError("T6", f"hole_cards must map seats to cards, got {shown(hole_cards)}")
    holes = {}
    for seat, cards_like in (hole_cards or {}).items():
        if type(seat) is not int or seat not in seats:
            raise TableError("T6", f"hole_cards for seat {shown(seat)}, which is not dealt in")
        cards = _parsed(cards_like, f"hole_cards[{seat}]")
        if len(cards) > h:
            raise TableError("T6", f"hole_cards[{seat}]: seat {seat} is dealt {h} hole "
                             f"cards, got {len(cards)}")
        _distinct(cards, f"hole_cards[{seat}]")
        holes[(seats.index(seat) - sb) % n] = cards
    board_cards = _parsed(board, "board") if board is not None else []
    if len(board_cards) > 5:
        raise TableError("T6", f"board: at most 5 board cards, got {len(board_cards)}")
    return stacked_cards(players=n, hole_cards=h, holes=holes, board=board_cards, rng=rng)


def check_setup(config: GameConfig, stacks: Mapping[int, int], button: int) -> tuple[int, ...]:
    """The dealt-in seats, in order, of a hand that can be dealt; else refuse it (T1, B8, C1)."""
    if not isinstance(config, GameConfig):
        raise TableError(None, f"config must be a GameConfig, got {shown(config)}")
    if not isinstance(stacks, Mapping):
        raise TableError("B8", f"stacks must map seat numbers to chips, got {shown(stacks)}")
    for seat, chips in stacks.items():
        if type(seat) is not int or seat < 1:
            raise TableError("T1", f"stacks: seats are numbered from 1, got {shown(seat)}")
        if type(chips) is not int or chips <= 0:
            raise TableError("B8", f"stacks: seat {seat} must bring a positive whole number of "
                             f"chips, got {shown(chips)}")
    most = config.variant.max_players
    if not 2 <= len(stacks) <= most:
        raise TableError("T1", f"a hand of {config.variant.name} needs 2 to {most} players, "
                         f"got {len(stacks)}")
    check_total(stacks.values(), "stacks")
    if type(button) is not int or button not in stacks:
        raise TableError("T2", f"the button must be on a dealt-in seat, got {shown(button)}")
    return tuple(sorted(stacks))


def check_options(rng: object, rake: object, manual_showdown: object) -> None:
    """The options a hand and a table share: a seeded generator or None (C2), a rake rule
    with ``rake_for`` or None (K1), and a real bool for manual showdown (S1)."""
    if rng is not None and not isinstance(rng, random.Random):
        raise TableError("C2", f"rng must be a random.Random or None, got {shown(rng)}")
    if rake is not None and not callable(getattr(rake, "rake_for", None)):
        raise TableError("K1", f"rake must have a rake_for method or be None, got {shown(rake)}")
    if type(manual_showdown) is not bool:
        raise TableError("S1", f"manual_showdown must be a bool, got {shown(manual_showdown)}")


def live_seats(live_blinds: Iterable[int]) -> tuple[int, ...]:
    """The seats posting a live big blind (T5), checked to be seat numbers."""
    if not live_blinds:
        return ()
    if isinstance(live_blinds, (str, bytes)) or not isinstance(live_blinds, Iterable):
        raise TableError("T5", f"live_blinds must be seat numbers, got {shown(live_blinds)}")
    seats = tuple(live_blinds)
    for seat in seats:
        if type(seat) is not int:
            raise TableError("T5", f"live_blinds: a seat is an int, got {shown(seat)}")
    return tuple(sorted(set(seats)))


def _parsed(cards: object, what: str) -> list[int]:
    """``cards`` parsed, a card error naming the argument (and the seat) it came from.

    Anything but text is first copied item by item into exact ints (one ``__index__`` call
    each, its result checked), so the compiled parser reads a list no caller can change.
    """
    try:
        if not isinstance(cards, str):
            if not isinstance(cards, Iterable):
                raise TypeError(f"expected cards, got {shown(cards)}")
            cards = [_card_item(item) for item in list(cards)]
        return [int(card) for card in parse_cards(cards)]   # Cards are ints; plain ints kept
    except (CardError, TypeError, ValueError) as exc:
        raise TableError("T6", f"{what}: {exc}") from None


def _card_item(item: object) -> int | str:
    if isinstance(item, str):
        return item
    if isinstance(item, bool):
        raise TypeError(f"a card is not a bool, got {shown(item)}")
    value = operator.index(item)  # type: ignore[arg-type]
    if type(value) is not int:
        raise TypeError(f"a card's __index__ must return an int, got {type(value).__name__}")
    return value


def _distinct(cards: list[int], what: str) -> None:
    if len(set(cards)) != len(cards):
        raise TableError("C1", f"{what}: a card is used twice in {format_cards(cards)}")
