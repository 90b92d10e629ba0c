"""A hand as a compact text picture: the board, the pots, each seat and whose turn it is.

The picture is drawn from a :class:`~omaha.game.view.HandView`, never from the hand itself,
so it shows exactly what that viewer may see: a spectator's picture (``str(hand)``,
``hand.render()``) holds no hidden hole card, and ``hand.render(seat=k)`` adds seat k's own
cards (and, at showdown, the hands that were shown, which are public).

>>> import random
>>> from omaha.config import GameConfig
>>> from omaha.game.hand import Hand
>>> hand = Hand(GameConfig.pot_limit(small_blind=1, big_blind=2),
...             stacks={1: 100, 2: 100, 3: 100}, button=1, rng=random.Random(2))
>>> print(hand)
Omaha High pot-limit 1/2 - preflop - spectator
board: -
pot: 3
    seat  pos  stack  bet  status   cards
  >    1  D      100    0  to act   [hidden]
       2  SB      99    1           [hidden]
       3  BB      98    2           [hidden]
to act: seat 1
>>> print(hand.render(seat=2))
Omaha High pot-limit 1/2 - preflop - seat 2
board: -
pot: 3
    seat  pos  stack  bet  status   cards
  >    1  D      100    0  to act   [hidden]
       2  SB      99    1           Js 5d 9h 3d
       3  BB      98    2           [hidden]
to act: seat 1
"""

from __future__ import annotations

from collections.abc import Sequence

from omaha.game.view import HandView, PlayerView

__all__ = ["HIDDEN", "render_view"]

HIDDEN = "[hidden]"
"""What the picture shows in place of cards the viewer may not see."""

_STATUS = {"active": "", "folded": "folded", "all_in": "all-in", "protected": "protected",
           "mucked": "mucked"}


def _cards(cards: Sequence[object]) -> str:
    return " ".join(str(card) for card in cards) if cards else "-"


def _positions(view: HandView, seat: int) -> str:
    marks = [mark for mark, where in (("D", view.button), ("SB", view.small_blind_seat),
                                      ("BB", view.big_blind_seat)) if where == seat]
    return "/".join(marks)


def _status(view: HandView, player: PlayerView) -> str:
    if player.seat == view.to_act:
        return "to act"
    return _STATUS.get(player.state, player.state)


def _pots(view: HandView) -> str:
    text = f"pot: {view.pot_total}"
    if len(view.pots) > 1:
        parts = [f"{'main' if k == 0 else f'side {k}'} {amount} (seats "
                 f"{' '.join(str(s) for s in eligible)})"
                 for k, (amount, eligible) in enumerate(view.pots)]
        text += " = " + ", ".join(parts)
    return text


def render_view(view: HandView, *, title: str = "") -> str:
    """The picture of ``view``: a title line (``title``, the street and the viewer), the
    board, the pot(s), one row per seat (position, stack, bet this round, status and the
    cards the viewer may see, ``[hidden]`` otherwise) and whose turn it is, or, once the
    hand is over, who was paid what.

    Only what ``view`` holds is drawn, so the picture can never show more than the view.
    """
    who = "spectator" if view.seat is None else f"seat {view.seat}"
    head = " - ".join(part for part in (title, view.street, who) if part)
    lines = [head, f"board: {_cards(view.board)}", _pots(view)]
    width = max(5, *(len(str(p.stack)) for p in view.players))
    bet_width = max(3, *(len(str(p.bet)) for p in view.players))
    lines.append(f"    seat  pos  {'stack':>{width}}  {'bet':>{bet_width}}  status   cards")
    for player in view.players:
        mark = ">" if player.seat == view.to_act else " "
        if player.cards is not None:
            cards = _cards(player.cards)
        else:
            cards = "" if player.state == "folded" else HIDDEN
        row = (f"  {mark} {player.seat:>4}  {_positions(view, player.seat):<5}"
               f"{player.stack:>{width}}  {player.bet:>{bet_width}}  "
               f"{_status(view, player):<9}{cards}")
        lines.append(row.rstrip())
    if view.to_act is not None:
        lines.append(f"to act: seat {view.to_act}")
    elif view.is_over and view.result is not None:
        paid = ", ".join(f"seat {seat} {amount}" for seat, amount in view.result["payouts"]
                         if amount)
        lines.append(f"hand over; paid: {paid or 'nothing'}")
    else:
        lines.append("hand over" if view.is_over else "nobody to act")
    return "\n".join(lines)
