"""The game over the compiled core: one hand, the table it is played at, and the clock.

:class:`~omaha.game.hand.Hand` is :class:`omahacore.engine.HandCore` (the state, the betting
rules B1-B8 and the undo stack, compiled) with what Python adds: the argument checks, the
deal, the showdown steps that call Python, the award and the wording of refusals. Around it:

- :mod:`~omaha.game.status` -- the player status codes and the streets;
- :mod:`~omaha.game.deck` -- the shuffle (C2); :mod:`~omaha.game.dealing` -- who posts the
  blinds and where every card sits (T1-T6), a new hand's arguments checked;
- :mod:`~omaha.game.events` -- the event classes of the engine's log codes;
- :mod:`~omaha.game.showdown` -- S1 order, strengths, the result; :mod:`~omaha.game.award` --
  the showdown and the award (S1-S4, K1); :mod:`~omaha.game.rake` -- the rake hook and
  schedules (K1-K4);
- :mod:`~omaha.game.hand` -- :class:`~omaha.game.hand.Hand`; :mod:`~omaha.game.view` -- what
  a seat may see;
- :mod:`~omaha.game.table` -- seats, button and blinds between hands (T1-T5);
- :mod:`~omaha.game.clock` and :mod:`~omaha.game.clocked` -- the action clock and a hand on
  it (D1-D4);
- :mod:`~omaha.game.bots` -- the built-in bots and bot sessions.

Nothing is imported here, so loading one module loads only what it needs; the public names
are :mod:`omaha`'s (``omaha.Hand``, ``omaha.Table``, ...).
"""
