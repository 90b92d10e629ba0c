"""Scale-out: bot-vs-bot simulations and the preflop equity table, locally or on Ray.

* :mod:`omaha.distributed.runner` — :func:`run_chunks` maps one small function over chunks
  of work, in this process or as Ray tasks (``address`` picks the cluster);
* :mod:`omaha.distributed.simulate` — :func:`run_play` / :func:`run_play_on_ray`: many hands
  between the built-in bots with banked scoring, merged exactly (:class:`SeatStats`);
* :mod:`omaha.distributed.preflop` — the preflop equity table of the 4-card Omaha classes.

Ray (the ``ray`` extra) is imported only when a job is sent to it.

>>> from omaha.distributed import SeatStats
>>> (SeatStats(2, 2, 10, 68) + SeatStats(1, 1, -4, 16)).net
6
"""

from omaha.distributed.runner import run_chunks
from omaha.distributed.simulate import SeatStats, SimulationResult, run_play, run_play_on_ray

__all__ = ["SeatStats", "SimulationResult", "run_chunks", "run_play", "run_play_on_ray"]
