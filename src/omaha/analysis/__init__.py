"""Analysis over the compiled evaluator and equity kernels: no game is played here.

- :mod:`~omaha.analysis.evaluation` -- hand strengths and their words (C3-C6);
- :mod:`~omaha.analysis.equity` -- each hand's or range's share of the pot, exact or sampled;
- :mod:`~omaha.analysis.ranges` -- the range language (``AA**:$ds``, ``top 10%``);
- :mod:`~omaha.analysis.preflop` -- the starting-hand classes and the shipped preflop table.

Nothing is imported here; the public names are :mod:`omaha`'s (``omaha.equity``,
``omaha.Range``, ``omaha.evaluate_high``, ...).
"""
