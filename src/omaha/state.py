"""The state of one hand as plain data, with a cheap copy and an undo record per action.

:class:`HandState` is the compiled :class:`omahacore.engine.HandCore`: two small C structs
hold the numbers of the hand (the fixed ``Rules``: players, button, blinds, structure; the
``State``: stacks, bets, contributions, player states, street, whose turn it is, the betting
round's facts), beside the dealt sequence and the event log. The betting rules are pure
transitions over that ``State`` (``omahacore/_transitions.pxi``); the showdown and the award
(:mod:`omaha.award`) and :class:`~omaha.hand.Hand` sit on top, and views, snapshots and PHH
export read it.

Undo works by saved state, the way python-chess keeps a move stack: before each action the
whole ``State`` (a few hundred bytes) is pushed, and ``_pop`` copies it back and cuts the log.

>>> import random
>>> from omaha.config import GameConfig
>>> from omaha.hand import Hand
>>> hand = Hand(GameConfig.no_limit(small_blind=1, big_blind=2),
...             stacks={1: 100, 2: 100}, button=1, rng=random.Random(3))
>>> branch = hand.copy()          # an independent hand in the same state
>>> branch.fold(); branch.is_over, hand.is_over
(True, False)
>>> branch.undo(); branch.is_over, branch.to_act, branch.events == hand.events
(False, 1, True)
"""

from __future__ import annotations

from omahacore.engine import NOT_YET, HandCore

__all__ = ["NOT_YET", "HandState"]


class HandState(HandCore):
    """The state of a hand (:class:`omahacore.engine.HandCore`), the base of
    :class:`~omaha.hand.Hand`.

    Players are indices 0..n-1 in seat order (clockwise). Read as Python: ``_stacks``,
    ``_bets``, ``_contrib``, ``_status``, ``_acted`` (lists, one item per player), ``_board``,
    ``_holes``, ``_pot``, ``_dead`` (the big blind ante), ``_live``/``_active`` (how many have
    not folded / can still act), ``_to_act`` (-1: nobody), ``_street``, ``_current_bet``,
    ``_aggressor``; ``_log`` is the event log as ``(code, *fields)`` tuples.
    """

    __slots__ = ()
