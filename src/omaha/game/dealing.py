"""Who posts the blinds and where every card sits in the dealt sequence (T3, T4, T6), and
a new hand's arguments checked (T1, T2, T5, B8, C1, C2).

This module is the one statement of the layout on the Python side: the hand, the table, the
record and replay ask it rather than working positions out again. The board and burn offsets
come from the compiled engine's :data:`STREET_CARDS`, which deals from the same table.

Players are numbered by index in seat order (0 is the lowest dealt-in seat). The small blind
sits left of the button, the big blind left of it; heads-up the button posts the small blind
(T4); with a single blind its poster takes the small blind's place:

>>> blind_positions(6, 5), blind_positions(2, 1), blind_positions(3, 0, single_blind=True)
((0, 1), (1, 0), (1, 1))

A hand deals ``players * hole_cards + 8`` cards: hole cards one at a time clockwise from the
small blind, then burn + flop (3), burn + turn, burn + river:

>>> cards_needed(6, 4), hole_position(round_=1, player=2, players=6)
(32, 8)
>>> burn_positions(players=6, hole_cards=4), board_positions(players=6, hole_cards=4)
((24, 28, 30), (25, 26, 27, 29, 31))

Everything else here runs before a :class:`~omaha.game.hand.Hand` exists, so a refusal leaves
nothing behind. Cards from callers are copied item by item into exact ints before the
compiled parser reads them.

>>> from omaha.config import GameConfig
>>> check_setup(GameConfig.pot_limit(small_blind=1, big_blind=2), {3: 100, 1: 50}, 3)
((1, 3), (50, 100), 3)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping, Sequence

from omaha.cards import CardsLike, parse_cards
from omaha.config import GameConfig
from omaha.errors import CardError, TableError
from omaha.game.deck import shuffled_cards
from omaha.limits import as_amount, as_int, check_total, safe_repr
from omahacore.cards import format_card, format_cards
from omahacore.engine import STREET_CARDS
from omahacore.transitions import blind_positions as compiled_blind_positions

__all__ = [
    "STREET_CARDS",
    "blind_positions",
    "board_positions",
    "burn_positions",
    "cards_needed",
    "check_options",
    "check_setup",
    "dealing_order",
    "dealing_place",
    "dealt_sequence",
    "hole_position",
    "live_seats",
    "stacked_cards",
]

# STREET_CARDS (the compiled engine's): per street after preflop, (burn, first board card,
# end) as offsets from the end of the hole cards (T6).


# --- the layout (T3, T4, T6) ---------------------------------------------------------------

def blind_positions(players: int, button: int, single_blind: bool = False) -> tuple[int, int]:
    """The (small blind, big blind) player indices when the button is player ``button``.

    The small blind is left of the button, heads-up the button itself (T3, T4); the big
    blind is left of the small blind. With a single blind (a game with no small blind) its
    poster is both: the one blind sits where the small blind would, and dealing starts there.
    The rule is the compiled one the engine and the vector kernel seat with
    (:func:`omahacore.transitions.blind_positions`).
    """
    sb, bb = compiled_blind_positions(players, button, single_blind)
    return sb, bb


def dealing_place(player: int, small_blind: int, players: int) -> int:
    """Where ``player`` is in the dealing order: 0 for the small blind, then clockwise (T6)."""
    return (player - small_blind) % players


def dealing_order(players: int, small_blind: int) -> tuple[int, ...]:
    """The player indices in the order cards go round: the small blind first, then
    clockwise (T6); the inverse of :func:`dealing_place`.

    >>> dealing_order(4, 2), [dealing_place(p, 2, 4) for p in dealing_order(4, 2)]
    ((2, 3, 0, 1), [0, 1, 2, 3])
    """
    return tuple(range(small_blind, players)) + tuple(range(small_blind))


def cards_needed(players: int, hole_cards: int) -> int:
    """Cards one hand uses: the hole cards, 5 board cards and 3 burns (T6)."""
    return players * hole_cards + STREET_CARDS[-1][2]


def hole_position(*, round_: int, player: int, players: int) -> int:
    """Index in the dealt sequence of hole card ``round_`` of the player at dealing place
    ``player`` (0 = the small blind, see :func:`dealing_place`)."""
    return round_ * players + player


def burn_positions(*, players: int, hole_cards: int) -> tuple[int, ...]:
    """Indices of the burns before the flop, the turn and the river (T6)."""
    base = players * hole_cards
    return tuple([base + burn for burn, _, _ in STREET_CARDS])


def board_positions(*, players: int, hole_cards: int) -> tuple[int, ...]:
    """Indices of the five board cards in the dealt sequence, in the order dealt (T6)."""
    base = players * hole_cards
    return tuple([base + i for _, first, end in STREET_CARDS for i in range(first, end)])


def stacked_cards(*, players: int, hole_cards: int,
                  holes: Mapping[int, Sequence[int]] | None = None,
                  board: Sequence[int] = (), burns: Sequence[int] = (),
                  rng: random.Random | None = None) -> list[int]:
    """A dealt sequence with chosen cards in place and the rest shuffled (for tests and replay).

    ``holes`` maps a dealing place (0 = small blind, clockwise) to its hole cards; ``board``
    gives up to five board cards in order and ``burns`` up to three burns. Every other
    position gets a card from the rest of the deck, shuffled as
    :func:`~omaha.game.deck.shuffled_cards` does.

    >>> seq = stacked_cards(players=2, hole_cards=2, holes={0: [51, 50]}, board=[0, 1, 2])
    >>> seq[0], seq[2], seq[5:8]
    (51, 50, [0, 1, 2])
    """
    fixed: dict[int, int] = {}
    for player, cards in (holes or {}).items():
        if not 0 <= player < players or len(cards) > hole_cards:
            raise CardError(f"player {player} cannot hold {len(cards)} of {hole_cards} hole cards")
        for round_, card in enumerate(cards):
            fixed[hole_position(round_=round_, player=player, players=players)] = card
    if len(board) > 5 or len(burns) > 3:
        raise CardError(f"at most 5 board cards and 3 burns, got {len(board)} and {len(burns)}")
    for position, card in zip(board_positions(players=players, hole_cards=hole_cards), board):
        fixed[position] = card
    for position, card in zip(burn_positions(players=players, hole_cards=hole_cards), burns):
        fixed[position] = card
    _check_stacked(fixed.values())
    used = set(fixed.values())
    count = cards_needed(players, hole_cards)
    rest = iter(shuffled_cards(count - len(fixed), rng, [c for c in range(52) if c not in used]))
    return [fixed[i] if i in fixed else next(rest) for i in range(count)]


def _check_stacked(cards: Iterable[int]) -> None:
    """Refuse a card outside 0..51 or a card used twice (C1)."""
    seen: set[int] = set()
    for item in cards:
        card = as_int(item, "a card index", low=0, high=51, error=CardError)
        if card in seen:
            raise CardError(f"card {format_card(card)} is used twice (C1)")
        seen.add(card)


# --- a new hand's arguments ----------------------------------------------------------------

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
            raise TableError("T6", "deck must be a sequence of card indices, got "
                             f"{safe_repr(deck)}")
        cards = _parsed(list(deck), "deck")
        if len(cards) != count:
            raise TableError("T6", f"a {n}-player hand deals {count} cards, got {len(cards)}")
        _distinct(cards, "deck")
        return cards
    if hole_cards is None and board is None:
        return shuffled_cards(count, rng)
    if hole_cards is not None and not isinstance(hole_cards, Mapping):
        raise TableError("T6", f"hole_cards must map seats to cards, got {safe_repr(hole_cards)}")
    holes = {}
    for key, cards_like in (hole_cards or {}).items():
        seat = as_int(key, "a hole_cards seat", error=TableError, rule="T6")
        if seat not in seats:
            raise TableError("T6", f"hole_cards for seat {safe_repr(seat)}, which is not dealt in")
        cards = _parsed(cards_like, f"hole_cards[{seat}]")
        if len(cards) > h:
            raise TableError("T6", f"hole_cards[{seat}]: seat {seat} is dealt {h} hole "
                             f"cards, got {len(cards)}")
        _distinct(cards, f"hole_cards[{seat}]")
        holes[dealing_place(seats.index(seat), sb, n)] = cards
    board_cards = _parsed(board, "board") if board is not None else []
    if len(board_cards) > 5:
        raise TableError("T6", f"board: at most 5 board cards, got {len(board_cards)}")
    return stacked_cards(players=n, hole_cards=h, holes=holes, board=board_cards, rng=rng)


def check_setup(config: GameConfig, stacks: Mapping[int, int],
                button: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """A hand that can be dealt, as exact ints: its dealt-in seats in order, their stacks and
    the button's seat; else refuse it (T1, T2, B8, C1).

    Seats, chips and the button go through :func:`omaha.limits.as_int` (an int subclass or a
    NumPy integer counts as its value; ``bool`` is refused), so the hand keeps plain ints.
    """
    if not isinstance(config, GameConfig):
        raise TableError(None, f"config must be a GameConfig, got {safe_repr(config)}")
    if not isinstance(stacks, Mapping):
        raise TableError("B8", f"stacks must map seat numbers to chips, got {safe_repr(stacks)}")
    chips_of: dict[int, int] = {}
    for key, value in stacks.items():
        seat = as_int(key, "stacks: a seat", low=1, error=TableError, rule="T1")
        chips_of[seat] = as_amount(value, functools.partial(_chips_of, seat), low=1,
                                   error=TableError, rule="B8")
    most = config.variant.max_players
    if not 2 <= len(chips_of) <= most:
        raise TableError("T1", f"a hand of {config.variant.name} needs 2 to {most} players, "
                         f"got {len(chips_of)}")
    check_total(chips_of.values(), "stacks")
    button_seat = as_int(button, "the button", error=TableError, rule="T2")
    if button_seat not in chips_of:
        raise TableError("T2", "the button must be on a dealt-in seat, got "
                         f"{safe_repr(button_seat)}")
    seats = tuple(sorted(chips_of))
    return seats, tuple([chips_of[seat] for seat in seats]), button_seat


def _chips_of(seat: int) -> str:
    """The name of a seat's chips in a refusal (worded only when one is made)."""
    return f"stacks: seat {safe_repr(seat)}'s chips"


def check_options(rng: object, rake: object, manual_showdown: object) -> None:
    """The options a hand and a table share: a seeded generator or None (C2), a rake rule
    with ``rake_for`` or None (K1), and a real bool for manual showdown (S1)."""
    if rng is not None and not isinstance(rng, random.Random):
        raise TableError("C2", f"rng must be a random.Random or None, got {safe_repr(rng)}")
    if rake is not None and not callable(getattr(rake, "rake_for", None)):
        raise TableError("K1", "rake must have a rake_for method or be None, got "
                         f"{safe_repr(rake)}")
    if type(manual_showdown) is not bool:
        raise TableError("S1", f"manual_showdown must be a bool, got {safe_repr(manual_showdown)}")


def live_seats(live_blinds: Iterable[int]) -> tuple[int, ...]:
    """The seats posting a live big blind (T5), checked to be seat numbers (exact ints)."""
    if not live_blinds:
        return ()
    if isinstance(live_blinds, (str, bytes)) or not isinstance(live_blinds, Iterable):
        raise TableError("T5", f"live_blinds must be seat numbers, got {safe_repr(live_blinds)}")
    seats = {as_int(seat, "live_blinds: a seat", error=TableError, rule="T5")
             for seat in tuple(live_blinds)}
    return tuple(sorted(seats))


def _parsed(cards: object, what: str) -> list[int]:
    """``cards`` parsed, a card error naming the argument (and the seat) it came from.

    Anything but text is first copied item by item into exact ints (one ``__index__`` call
    each, its result checked), so the compiled parser reads a list no caller can change.
    """
    try:
        if not isinstance(cards, str):
            if not isinstance(cards, Iterable):
                raise TypeError(f"expected cards, got {safe_repr(cards)}")
            cards = [_card_item(item) for item in list(cards)]
        return [int(card) for card in parse_cards(cards)]   # Cards are ints; plain ints kept
    except (CardError, TypeError, ValueError) as exc:
        raise TableError("T6", f"{what}: {exc}") from None


def _card_item(item: object) -> int | str:
    """Card text as it is, anything else as an exact int (the range is the parser's, C1)."""
    return item if isinstance(item, str) else as_int(item, "a card", error=CardError)


def _distinct(cards: list[int], what: str) -> None:
    if len(set(cards)) != len(cards):
        raise TableError("C1", f"{what}: a card is used twice in {format_cards(cards)}")
