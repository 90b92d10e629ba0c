"""An exact heads-up river solver for PLO and PLO hi/lo (issue 29): discounted CFR over the
whole betting tree with full ranges, no hand abstraction, exact card removal.

>>> from omaha.solver import Spot, solve
>>> spot = Spot("Ah Kd 7c 5s 2h", "AA**:$ds", "KK**:$ds,QQ**:$ds", pot=100, stack=200,
...             bets="pot", raises="")
>>> solution = solve(spot, target="0.5%")
>>> root = solution.node()
>>> root.actions, root.player
(('check', 'bet 100'), 0)
>>> probabilities = root.strategy("AcAsKcKs")
>>> len(probabilities), round(sum(probabilities), 6)
(2, 1.0)

The pieces: :mod:`~omaha.solver.spot` (the spot), :mod:`~omaha.solver.tree` (the betting
tree), :mod:`~omaha.solver.cfr` (running the compiled core), :mod:`~omaha.solver.solution`
(the result, saved and loaded). See the solver guide for the model and its limits.
"""

from omaha.errors import SolverError, SolverTypeError
from omaha.solver.solution import Node, Solution, load
from omaha.solver.cfr import solve, target_chips
from omaha.solver.spot import Spot, parse_sizes

__all__ = ["Node", "Solution", "SolverError", "SolverTypeError", "Spot", "load",
           "parse_sizes", "solve", "target_chips"]
