"""Reinforcement learning on the engine (the ``rl`` extra: PettingZoo, Gymnasium, NumPy).

* :func:`env` / :class:`raw_env` — the PettingZoo AEC environment, laid out like
  PettingZoo's classic environments (:mod:`omaha.rl.aec`);
* :class:`OmahaGymEnv` — a Gymnasium single-agent environment whose other seats are played
  by given policies, the built-in bots by default (:mod:`omaha.rl.single`);
* :class:`OmahaVectorEnv` — a Gymnasium ``VectorEnv`` of many tables on the compiled
  kernel (:mod:`omaha.rl.gym_vector`; ``gymnasium.make_vec("omaha/PLO-v0", num_envs=N)``);
* :class:`VectorTables` — many tables stepped in one call with NumPy arrays, for
  self-play throughput (:mod:`omaha.rl.vector`);
* :func:`evaluate` — a policy's big blinds per 100 hands with a 95% confidence interval,
  scored as bot matches are (:mod:`omaha.rl.evaluation`);
* :func:`register_envs` — the Gymnasium ids ``omaha/PLO-v0``, ``omaha/PLO8-v0``,
  ``omaha/NLHE-v0``... (:mod:`omaha.rl.registration`).
* :class:`Episode` and :class:`ActionSet` — the hand driver, observation encoding and
  discrete actions they share (:mod:`omaha.rl.game`, :mod:`omaha.rl.actions`).

PettingZoo and Gymnasium are imported only when an environment that needs them is made, so
``import omaha.rl`` works without the extra; where Gymnasium is already imported, importing
``omaha.rl`` registers the ``omaha/...`` ids with it (:mod:`omaha.rl.registration`).

Every environment follows one reward policy: a masked action is played as a fold
(:mod:`omaha.rl.game`, ``docs/rl.md``).

>>> from omaha.rl import ActionSet, Episode
>>> Episode(players=6, actions=ActionSet(fractions=(0.33, 0.75))).observation_size
154
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from omaha.rl.actions import ActionSet
from omaha.rl.game import Episode, make_config

__all__ = ["ActionSet", "Episode", "OmahaGymEnv", "OmahaVectorEnv", "VectorTables", "env",
           "evaluate", "make_config", "raw_env", "register_envs"]

_LAZY = {"env": "omaha.rl.aec", "raw_env": "omaha.rl.aec", "OmahaGymEnv": "omaha.rl.single",
         "VectorTables": "omaha.rl.vector", "OmahaVectorEnv": "omaha.rl.gym_vector",
         "evaluate": "omaha.rl.evaluation", "register_envs": "omaha.rl.registration"}


def _register_if_gymnasium() -> None:
    """Register the ``omaha/...`` ids where Gymnasium is already imported (importing it here
    would cost every ``import omaha.rl`` a third of a second)."""
    if "gymnasium" in sys.modules:
        from omaha.rl.registration import register_envs

        register_envs()


_register_if_gymnasium()




if TYPE_CHECKING:   # for type checkers; at run time these come lazily from __getattr__
    from omaha.rl.aec import env, raw_env
    from omaha.rl.evaluation import evaluate
    from omaha.rl.gym_vector import OmahaVectorEnv
    from omaha.rl.registration import register_envs
    from omaha.rl.single import OmahaGymEnv
    from omaha.rl.vector import VectorTables


def __getattr__(name: str) -> Any:
    """``env``, ``raw_env``, ``OmahaGymEnv``, ``OmahaVectorEnv``, ``VectorTables``,
    ``evaluate``, ``register_envs``: imported on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'omaha.rl' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
