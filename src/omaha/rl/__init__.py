"""Reinforcement learning on the engine (the ``rl`` extra: PettingZoo, Gymnasium, NumPy).

* :func:`env` / :class:`raw_env` — the PettingZoo AEC environment, laid out like
  PettingZoo's classic environments (:mod:`omaha.rl.aec`);
* :class:`OmahaGymEnv` — a Gymnasium single-agent environment whose other seats are played
  by given policies, the built-in bots by default (:mod:`omaha.rl.single`);
* :class:`VectorTables` — many tables stepped in one call with NumPy arrays, for
  self-play throughput (:mod:`omaha.rl.vector`);
* :class:`Episode` and :class:`ActionSet` — the hand driver, observation encoding and
  discrete actions they share (:mod:`omaha.rl.game`, :mod:`omaha.rl.actions`).

PettingZoo and Gymnasium are imported only when an environment that needs them is made, so
``import omaha.rl`` works without the extra.

>>> from omaha.rl import ActionSet, Episode
>>> Episode(players=6, actions=ActionSet(fractions=(0.33, 0.75))).observation_size
154
"""

from __future__ import annotations

from typing import Any

from omaha.rl.actions import ActionSet
from omaha.rl.game import Episode, make_config

__all__ = ["ActionSet", "Episode", "OmahaGymEnv", "VectorTables", "env", "make_config",
           "raw_env"]

_LAZY = {"env": "omaha.rl.aec", "raw_env": "omaha.rl.aec", "OmahaGymEnv": "omaha.rl.single",
         "VectorTables": "omaha.rl.vector"}


def __getattr__(name: str) -> Any:
    """``env``, ``raw_env``, ``OmahaGymEnv``, ``VectorTables``: imported on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'omaha.rl' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
