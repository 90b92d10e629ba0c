"""The Gymnasium ids of the single-agent environment: ``gymnasium.make("omaha/PLO-v0")``.

=====================  ===============================  ==============================
id                     game                             ``game=``
=====================  ===============================  ==============================
``omaha/PLO-v0``       pot-limit Omaha                  ``"PO"``
``omaha/PLO8-v0``      pot-limit Omaha hi/lo 8          ``"PO/8"``
``omaha/PLO5-v0``      pot-limit 5-card Omaha           ``"plo5"``
``omaha/PLO6-v0``      pot-limit 6-card Omaha           ``"plo6"``
``omaha/NLO-v0``       no-limit Omaha                   ``"NO"``
``omaha/FLO8-v0``      fixed-limit Omaha hi/lo 8        ``"FO/8"``
``omaha/NLHE-v0``      no-limit Texas Hold'em           ``"nlh"``
``omaha/LHE-v0``       fixed-limit Texas Hold'em        ``"lhe"``
=====================  ===============================  ==============================

Each is :class:`~omaha.rl.single.OmahaGymEnv` with that ``game`` (heads-up, 100 big blinds,
blinds 1/2, stakes 2/4, the strength bot opposite); every other option of the env goes to
``gymnasium.make`` as a keyword (``players=6``, ``opponents="random"``, ``stack=400``...).
``gymnasium.make_vec(id, num_envs=N)`` makes :class:`omaha.rl.gym_vector.OmahaVectorEnv`
with the same keywords, but for ``opponents``: the vector env's opponents are random legal
actions (the default) or batch policies, not the engine's bots by name.

How the ids get registered:

* Gymnasium 0.26-0.29 load the ``gymnasium.envs`` entry points when ``gymnasium`` is
  imported; ``pip install omaha-poker[rl]`` declares ``omaha =
  "omaha.rl.registration:register_envs"`` there, so ``gymnasium.make("omaha/PLO-v0")``
  works without importing omaha first;
* Gymnasium 1.0 removed that plugin loading (and the ``rl`` extra requires 1.0 or later):
  there ``gymnasium.make(
  "omaha.rl.registration:omaha/PLO-v0")`` imports this module (which registers the ids);
  so does ``import omaha.rl`` once ``gymnasium`` is imported, importing
  :mod:`omaha.rl.aec` or :mod:`omaha.rl.single` (the first use of ``omaha.rl.env`` or
  ``OmahaGymEnv``), or :func:`register_envs` called directly.

>>> import gymnasium
>>> import omaha.rl
>>> register_envs()                       # idempotent
>>> env = gymnasium.make("omaha/PLO8-v0", players=3)
>>> env.unwrapped.episode.config.variant.name, env.unwrapped.episode.players
('Omaha Hi/Lo 8-or-better', 3)
"""

from __future__ import annotations

__all__ = ["ENV_IDS", "register_envs"]

ENTRY_POINT = "omaha.rl.single:OmahaGymEnv"
VECTOR_ENTRY_POINT = "omaha.rl.gym_vector:OmahaVectorEnv"

#: Each id and the ``game`` it plays.
ENV_IDS: dict[str, str] = {
    "omaha/PLO-v0": "PO",
    "omaha/PLO8-v0": "PO/8",
    "omaha/PLO5-v0": "plo5",
    "omaha/PLO6-v0": "plo6",
    "omaha/NLO-v0": "NO",
    "omaha/FLO8-v0": "FO/8",
    "omaha/NLHE-v0": "nlh",
    "omaha/LHE-v0": "lhe",
}


def register_envs() -> None:
    """Register :data:`ENV_IDS` with Gymnasium (each id once: a second call does nothing).

    This is the ``gymnasium.envs`` entry point: Gymnasium 0.26-0.29 call it inside the
    entry point's namespace ``omaha``, which the ids already carry.
    """
    from gymnasium.envs.registration import register, registry

    for env_id, game in ENV_IDS.items():
        if env_id in registry:
            continue
        register(id=env_id, entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT,
                 kwargs={"game": game})


register_envs()
