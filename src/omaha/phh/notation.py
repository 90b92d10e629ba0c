"""The PHH notation of a hand: cards, actions, and which player is ``p1``.

**Cards** are two characters each, a rank from ``23456789TJQKA`` and a suit from ``cdhs``,
written back to back; ``??`` is an unknown card. PHH is stricter than the package's general
card parser (rule C1 accepts ``10`` and any case). A known card is the package's card index
``4 * rank + suit`` (rank 0..12 for 2..A, suit 0..3 for c, d, h, s); an unknown card is
``None``.

**Actions** follow the grammar ``[actor action[ argument]][ # commentary]``, words split on
whitespace, one typed object per kind:

==========================  =======================  =====================================
notation                    class                    meaning
==========================  =======================  =====================================
``d dh p1 AcAd2h3s``        :class:`DealHole`        deal hole cards (``??`` if unknown)
``d db Jc3d5c``             :class:`DealBoard`       deal board cards (flop, turn, river)
``p2 f``                    :class:`Fold`            fold
``p2 cc``                   :class:`CheckOrCall`     check, or call what is owed
``p2 cbr 60``               :class:`BetOrRaiseTo`    bet, or raise, to a *total* of 60
``p2 sm AcAd2h3s``          :class:`ShowOrMuck`      show these cards; ``sm`` alone mucks;
                                                     ``sm -`` shows the cards dealt
``# any words`` or ``""``   :class:`NoOp`            commentary only
==========================  =======================  =====================================

**Players** are numbered by position, not by chair (rules T1-T4): ``p1`` is the first player
dealt in left of the button and the last player is the button. With three or more players
p1 posts the small blind and p2 the big blind; heads-up the button posts the small blind
(T4), so p1 posts the big blind and p2, the button, the small blind. Players are numbered
from ``p1`` in the text and from 0 in the objects (an index into a history's per-player lists).

>>> parse_action("p3 cbr 7000 # Dwan opens")
BetOrRaiseTo(player=2, amount=7000, commentary='Dwan opens')
>>> format_action(BetOrRaiseTo(player=2, amount=7000))
'p3 cbr 7000'
>>> parse_action("d dh p1 Ac2d????").cards
(48, 1, None, None)
>>> format_phh_cards((48, 1, None, None))
'Ac2d????'
>>> phh_order([0, 2, 5, 7], button=5)
[7, 0, 2, 5]
>>> blind_players(4), blind_players(2)
((0, 1), (1, 0))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from omaha.errors import HistoryError
from omaha.game.dealing import blind_positions
from omaha.limits import MAX_CHIPS
from omaha.phh.amounts import scaled

__all__ = [
    "Action",
    "BetOrRaiseTo",
    "BringIn",
    "CheckOrCall",
    "DealBoard",
    "DealHole",
    "Fold",
    "NoOp",
    "PhhCard",
    "ShowOrMuck",
    "StudAction",
    "bet_amount_text",
    "blind_players",
    "format_action",
    "format_phh_cards",
    "format_stud_action",
    "heads_up_reversed",
    "parse_action",
    "parse_phh_cards",
    "parse_stud_action",
    "phh_order",
    "table_seats",
    "whole_chips",
]

# --- cards -----------------------------------------------------------------------------

RANKS = "23456789TJQKA"
SUITS = "cdhs"
UNKNOWN = "??"

PhhCard = int | None
"""A card index 0..51, or None for an unknown card (``??``)."""


def parse_phh_cards(text: str) -> tuple[PhhCard, ...]:
    """Parse concatenated PHH cards.

    Raises:
        ValueError: the text is empty, has an odd length, or holds a token that is not a
            card; the message names the token. (Callers wrap it with the action's place.)
    """
    if not text or len(text) % 2:
        raise ValueError(f"bad cards {text!r}: cards are two characters each, like 'Ah' or '??'")
    cards: list[PhhCard] = []
    for start in range(0, len(text), 2):
        token = text[start : start + 2]
        if token == UNKNOWN:
            cards.append(None)
            continue
        rank, suit = RANKS.find(token[0]), SUITS.find(token[1])
        if rank < 0 or suit < 0:
            raise ValueError(
                f"bad card {token!r} in {text!r}: rank is one of {RANKS}, suit one of {SUITS}"
            )
        cards.append(4 * rank + suit)
    return tuple(cards)


def format_phh_cards(cards: Iterable[PhhCard]) -> str:
    """Write cards in PHH notation (the inverse of :func:`parse_phh_cards`)."""
    return "".join(
        UNKNOWN if card is None else RANKS[card // 4] + SUITS[card % 4] for card in cards
    )


# --- amounts ---------------------------------------------------------------------------


def whole_chips(value: object, *, positive: bool = False) -> int:
    """``value`` as a whole number of chips: an int, or a decimal with no fraction (``2.0``).

    The one check of a PHH amount, in a field or in a ``cbr`` action. A decimal is compared
    with ``MAX_CHIPS`` (2**63-1) before it is converted, so a huge one cannot explode.

    >>> whole_chips(Decimal("2.0")), whole_chips(7, positive=True)
    (2, 7)

    Raises:
        TypeError, ValueError: why the value is not one, without the value (callers name it
            and where it was).
    """
    if isinstance(value, float):
        value = Decimal(repr(value))
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError("not a number of chips (unknown amounts cannot be replayed)")
    elif not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("expected a whole number of chips")
    if value > MAX_CHIPS:   # compared first: rounding a huge decimal could overflow
        raise ValueError("above the limit MAX_CHIPS = 2**63-1")
    if value < 0 or (positive and value == 0):
        raise ValueError("must be positive" if positive else "must be non-negative")
    if isinstance(value, Decimal) and value != value.to_integral_value():
        raise ValueError(
            "not a whole number of chips: amounts are integers in the table's smallest unit "
            "(write cents as 150, not 1.50)"
        )
    return int(value)


# --- actions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DealHole:
    """The dealer gives ``cards`` to ``player`` (``None`` marks an unknown card)."""

    player: int
    cards: tuple[PhhCard, ...]
    commentary: str | None = None


@dataclass(frozen=True)
class DealBoard:
    """The dealer turns ``cards`` face up on the board."""

    cards: tuple[PhhCard, ...]
    commentary: str | None = None


@dataclass(frozen=True)
class Fold:
    """``player`` folds."""

    player: int
    commentary: str | None = None


@dataclass(frozen=True)
class CheckOrCall:
    """``player`` checks, or calls the amount owed (all-in if the stack is short)."""

    player: int
    commentary: str | None = None


@dataclass(frozen=True)
class BetOrRaiseTo:
    """``player`` bets or raises so that their bet this round totals ``amount`` chips."""

    player: int
    amount: int
    commentary: str | None = None


@dataclass(frozen=True)
class ShowOrMuck:
    """``player`` shows ``cards`` at showdown; ``cards=None`` mucks.

    ``dealt=True`` is the ``sm -`` form: show the cards the player was dealt.
    """

    player: int
    cards: tuple[PhhCard, ...] | None = None
    dealt: bool = False
    commentary: str | None = None

    @property
    def mucks(self) -> bool:
        """True when the player mucks rather than shows."""
        return self.cards is None and not self.dealt


@dataclass(frozen=True)
class NoOp:
    """An action that only carries commentary (or nothing)."""

    commentary: str | None = None


Action = DealHole | DealBoard | Fold | CheckOrCall | BetOrRaiseTo | ShowOrMuck | NoOp
"""Any parsed PHH action."""


@dataclass(frozen=True)
class BringIn:
    """``player`` posts the bring-in (stud, ``pN pb``; rule E3)."""

    player: int
    commentary: str | None = None


StudAction = Action | BringIn
"""Any parsed PHH action of a stud hand (:func:`parse_stud_action`)."""

_UNSUPPORTED = {
    "pb": "bring-in ('pb') is a stud action, not used in Omaha",
    "sd": "stand pat/discard ('sd') is a draw-game action, not used in Omaha",
}


def parse_action(text: str, *, players: int | None = None, decimals: int = 0) -> Action:
    """Parse one PHH action.

    Args:
        text: the notation, e.g. ``"p2 cbr 60"``.
        players: the number of players in the hand; when given, ``pN`` beyond it is an error.
        decimals: the hand's smallest unit is ``10**-decimals`` (:mod:`omaha.phh.amounts`):
            a ``cbr`` amount is read in it (``"p1 cbr 2.50"`` with 2 is 250).

    Raises:
        ValueError: the notation is malformed; the message says why. Callers that know
            the action's place wrap it in a :class:`~omaha.errors.HistoryError`.
    """
    words, commentary = _words(text)
    if not words:
        return NoOp(commentary)
    actor, verb, args = words[0], words[1] if len(words) > 1 else "", words[2:]
    if actor == "d":
        return _parse_dealer(verb, args, players, commentary)
    player = _parse_player(actor, players)
    if verb in ("f", "cc") and not args:
        return Fold(player, commentary) if verb == "f" else CheckOrCall(player, commentary)
    if verb == "cbr" and len(args) == 1:
        return BetOrRaiseTo(player, _parse_amount(args[0], decimals), commentary)
    if verb == "sm" and len(args) <= 1:
        if not args:
            return ShowOrMuck(player, None, False, commentary)
        if args[0] == "-":
            return ShowOrMuck(player, None, True, commentary)
        return ShowOrMuck(player, parse_phh_cards(args[0]), False, commentary)
    if verb in _UNSUPPORTED:
        raise ValueError(_UNSUPPORTED[verb])
    if verb in ("f", "cc", "cbr", "sm"):
        raise ValueError(f"wrong arguments for {verb!r}: {' '.join(args) or 'none'}")
    raise ValueError(f"unknown action {verb!r}; a player can f, cc, cbr AMOUNT or sm [CARDS]")


def parse_stud_action(text: str, *, players: int | None = None) -> StudAction:
    """Parse one PHH action of a stud hand: :func:`parse_action`'s, and the bring-in ``pN pb``.

    >>> parse_stud_action("p3 pb # low card")
    BringIn(player=2, commentary='low card')
    """
    words, commentary = _words(text)
    if len(words) == 2 and words[1] == "pb":
        return BringIn(_parse_player(words[0], players), commentary)
    return parse_action(text, players=players)


def format_stud_action(action: StudAction) -> str:
    """Write a stud hand's action in PHH notation (the inverse of :func:`parse_stud_action`)."""
    if not isinstance(action, BringIn):
        return format_action(action)
    text = f"p{action.player + 1} pb"
    return text if action.commentary is None else f"{text} # {action.commentary}"


def _words(text: str) -> tuple[list[str], str | None]:
    """An action's words and its commentary (after ``#``, None without one)."""
    body, hash_sign, note = text.partition("#")
    return body.split(), (note.strip() if hash_sign else None)


def bet_amount_text(text: str) -> str | None:
    """The amount of a ``pN cbr AMOUNT`` action as written, where :func:`parse_action` reads
    it (None for any other action): a hand's decimal places are counted from these before its
    actions are parsed in that unit.

    >>> bet_amount_text("p3 cbr 4.50 # open"), bet_amount_text("p1 cc")
    ('4.50', None)
    """
    if "cbr" not in text:   # most actions: no split needed
        return None
    words, _ = _words(text)
    return words[2] if len(words) == 3 and words[1] == "cbr" else None


def _parse_dealer(
    verb: str, args: list[str], players: int | None, commentary: str | None
) -> DealHole | DealBoard:
    if verb == "db" and len(args) == 1:
        return DealBoard(parse_phh_cards(args[0]), commentary)
    if verb == "dh" and len(args) == 2:
        return DealHole(_parse_player(args[0], players), parse_phh_cards(args[1]), commentary)
    if verb in ("db", "dh"):
        usage = "d db CARDS" if verb == "db" else "d dh pN CARDS"
        raise ValueError(f"wrong arguments for {verb!r}: expected {usage!r}")
    raise ValueError(f"unknown dealer action {verb!r}; the dealer can 'dh' or 'db'")


def _parse_player(word: str, players: int | None) -> int:
    number = word[1:]
    if word[:1] != "p" or not number.isdigit() or not number.isascii() or number.startswith("0"):
        raise ValueError(f"bad actor {word!r}: expected 'd' or a player p1, p2, ...")
    if len(number) > 2:   # a table has at most 10 seats (T1)
        raise ValueError(f"no player {word!r}: a hand has at most 10 players")
    if players is not None and int(number) > players:
        raise ValueError(f"no player {word!r}: the hand has {players} players")
    return int(number) - 1


def _parse_amount(word: str, decimals: int = 0) -> int:
    try:
        return whole_chips(scaled(Decimal(word), decimals), positive=True)
    except InvalidOperation:
        raise ValueError(f"bad amount {word!r}: expected a whole number of chips") from None
    except ValueError as exc:
        raise ValueError(f"bad amount {word!r}: {exc}") from None


def format_action(action: Action) -> str:
    """Write an action in PHH notation (the inverse of :func:`parse_action`)."""
    if isinstance(action, DealHole):
        text = f"d dh p{action.player + 1} {format_phh_cards(action.cards)}"
    elif isinstance(action, DealBoard):
        text = f"d db {format_phh_cards(action.cards)}"
    elif isinstance(action, NoOp):
        text = ""
    else:
        text = f"p{action.player + 1} {_player_verb(action)}".rstrip()
    if action.commentary is not None:
        text = f"{text} # {action.commentary}" if text else f"# {action.commentary}"
    return text


def _player_verb(action: Fold | CheckOrCall | BetOrRaiseTo | ShowOrMuck) -> str:
    if isinstance(action, Fold):
        return "f"
    if isinstance(action, CheckOrCall):
        return "cc"
    if isinstance(action, BetOrRaiseTo):
        return f"cbr {action.amount}"
    if action.dealt:
        return "sm -"
    return "sm" if action.cards is None else f"sm {format_phh_cards(action.cards)}"


# --- players and seats -----------------------------------------------------------------


def phh_order(seats: Sequence[int], button: int) -> list[int]:
    """The table seats of the players dealt in, in PHH order (p1 first, the button last).

    Args:
        seats: the seat numbers dealt in, any order; seat numbers increase clockwise.
        button: the button's seat, one of ``seats`` (rule T2 puts it on a dealt-in player).

    Raises:
        ValueError: the button is not among the seats, or a seat repeats.
    """
    ordered = sorted(seats)
    if len(set(ordered)) != len(ordered):
        raise ValueError(f"repeated seat in {list(seats)}")
    if button not in ordered:
        raise ValueError(f"button seat {button} is not among the seats dealt in {ordered}")
    cut = ordered.index(button) + 1
    return ordered[cut:] + ordered[:cut]


def blind_players(players: int) -> tuple[int, int]:
    """The 0-based PHH player indices of the (small blind, big blind) posters.

    PHH lists the players from the button's left, the button last, so this is the engine's
    layout (:func:`omaha.game.dealing.blind_positions`, T3, T4) with the button at the end.
    """
    if players < 2:
        raise ValueError(f"a hand needs at least 2 players, got {players}")
    return blind_positions(players, players - 1)


def heads_up_reversed(per_player: Sequence[int]) -> tuple[int, ...]:
    """A forced-bet array (written small blind first) onto the players in PHH order:
    heads-up p1 is the big blind (T4), so the two entries swap."""
    return tuple(reversed(per_player)) if len(per_player) == 2 else tuple(per_player)


def table_seats(seats: Sequence[int] | None, players: int) -> tuple[list[int], int]:
    """The table seats for a history's players and the button's seat.

    With the optional PHH ``seats`` field the recorded seat numbers are used; without it the
    players sit in seats 1..N. Either way the button is the last player's seat.

    >>> table_seats([3, 6, 1], 3)
    ([3, 6, 1], 1)
    >>> table_seats(None, 2)
    ([1, 2], 2)

    Raises:
        HistoryError: the recorded seats are not clockwise from the button, which PHH
            order requires (p1 left of the button, ..., the button last).
    """
    numbers = list(seats) if seats is not None else list(range(1, players + 1))
    button = numbers[-1]
    try:
        ordered = phh_order(numbers, button)
    except ValueError as exc:
        raise HistoryError(str(exc), field="seats") from None
    if ordered != numbers:
        raise HistoryError(
            f"seats {numbers} are not in PHH order (clockwise from the seat left of the "
            f"button, the button last)",
            field="seats",
        )
    return numbers, button
