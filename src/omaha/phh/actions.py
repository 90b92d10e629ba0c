"""PHH action notation: one typed object per kind of action, with paired parse/format.

The grammar (PHH standard) is ``[actor action[ argument]][ # commentary]``, words split on
whitespace. The actions an Omaha hand uses:

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

Players are numbered from ``p1`` in the text and from 0 in the objects (``player`` is an
index into the history's per-player lists).

>>> parse_action("p3 cbr 7000 # Dwan opens")
BetOrRaiseTo(player=2, amount=7000, commentary='Dwan opens')
>>> format_action(BetOrRaiseTo(player=2, amount=7000))
'p3 cbr 7000'
>>> parse_action("d dh p1 Ac2d????").cards
(48, 1, None, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from omaha.limits import MAX_CHIPS
from omaha.phh.cards import PhhCard, format_phh_cards, parse_phh_cards

__all__ = [
    "Action",
    "BetOrRaiseTo",
    "CheckOrCall",
    "DealBoard",
    "DealHole",
    "Fold",
    "NoOp",
    "ShowOrMuck",
    "format_action",
    "parse_action",
]


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

_UNSUPPORTED = {
    "pb": "bring-in ('pb') is a stud action, not used in Omaha",
    "sd": "stand pat/discard ('sd') is a draw-game action, not used in Omaha",
}


def parse_action(text: str, *, players: int | None = None) -> Action:
    """Parse one PHH action.

    Args:
        text: the notation, e.g. ``"p2 cbr 60"``.
        players: the number of players in the hand; when given, ``pN`` beyond it is an error.

    Raises:
        ValueError: the notation is malformed; the message says why. Callers that know
            the action's place wrap it in a :class:`~omaha.phh.HistoryError`.
    """
    body, hash_sign, note = text.partition("#")
    commentary = note.strip() if hash_sign else None
    words = body.split()
    if not words:
        return NoOp(commentary)
    actor, verb, args = words[0], words[1] if len(words) > 1 else "", words[2:]
    if actor == "d":
        return _parse_dealer(verb, args, players, commentary)
    player = _parse_player(actor, players)
    if verb in ("f", "cc") and not args:
        return Fold(player, commentary) if verb == "f" else CheckOrCall(player, commentary)
    if verb == "cbr" and len(args) == 1:
        return BetOrRaiseTo(player, _parse_amount(args[0]), commentary)
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


def _parse_amount(word: str) -> int:
    try:
        value = Decimal(word)
    except InvalidOperation:
        raise ValueError(f"bad amount {word!r}: expected a whole number of chips") from None
    if not value.is_finite() or value <= 0:
        raise ValueError(f"bad amount {word!r}: expected a positive whole number of chips")
    if value > MAX_CHIPS:   # before rounding or int(), which could overflow or explode
        raise ValueError(f"bad amount {word!r}: above the limit MAX_CHIPS = 2**63-1")
    if value != value.to_integral_value():
        raise ValueError(f"bad amount {word!r}: expected a positive whole number of chips")
    return int(value)


def format_action(action: Action) -> str:
    """Write an action in PHH notation (the inverse of :func:`parse_action`)."""
    if isinstance(action, DealHole):
        text = f"d dh p{action.player + 1} {format_phh_cards(action.cards)}"
    elif isinstance(action, DealBoard):
        text = f"d db {format_phh_cards(action.cards)}"
    elif isinstance(action, Fold):
        text = f"p{action.player + 1} f"
    elif isinstance(action, CheckOrCall):
        text = f"p{action.player + 1} cc"
    elif isinstance(action, BetOrRaiseTo):
        text = f"p{action.player + 1} cbr {action.amount}"
    elif isinstance(action, ShowOrMuck):
        shown = (
            "-" if action.dealt else "" if action.cards is None else format_phh_cards(action.cards)
        )
        text = f"p{action.player + 1} sm {shown}".rstrip()
    else:
        text = ""
    if action.commentary is not None:
        text = f"{text} # {action.commentary}" if text else f"# {action.commentary}"
    return text
