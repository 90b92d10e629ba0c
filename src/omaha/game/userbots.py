"""Bots named on the command line: a built-in name, ``module:callable`` or ``file.py:callable``.

:func:`load_bot` is the one resolver every command uses (``omaha play --bots``, ``omaha
simulate --bots``, ``omaha tournament --bots``, ``omaha bots --policy``). A spec is

* a built-in name (``random``, ``strength``: :data:`omaha.game.bots.BOTS`; ``solver``:
  :data:`NAMED`, the solver bot of :mod:`omaha.solver.bot`);
* ``module:callable`` — ``module`` is imported (the current directory is searched too,
  so ``mybot:act`` finds ``./mybot.py``);
* ``path/to/file.py:callable`` — the file is run once per process as its own module.

The callable follows the bot protocol of :mod:`omaha.game.bots`: it is a bot (an object
with ``decide(situation, rng) -> Decision``), a factory that takes no arguments (a class or
a function) and returns one, or a plain function ``(situation, rng) -> Decision``, which
is wrapped. The bot's name is its ``name`` attribute, else the callable's name. Anything
else is a :class:`UserBotError`, whose message names what is wrong on one line.

>>> from omaha.game.bots import Decision
>>> load_bot("strength").name
'strength'
>>> load_bot("omaha.game.bots:RandomBot").name
'random'
>>> load_bot("omaha.game.bots:nothing")
Traceback (most recent call last):
...
omaha.game.userbots.UserBotError: bot 'omaha.game.bots:nothing': module 'omaha.game.bots' has no attribute 'nothing'
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import random
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from omaha.errors import ConfigError
from omaha.game.bots import BOTS, Bot, Decision, Situation

__all__ = ["NAMED", "UserBotError", "built_in_bot", "built_in_names", "is_spec", "load_bot"]

NAMED: dict[str, str] = {"solver": "omaha.solver.bot:SolverBot"}
"""Built-in bots that live above this package, by name: the spec each name stands for,
resolved as a user's ``module:callable`` is, so omaha.game never imports them."""


class UserBotError(ConfigError):
    """A bot spec that names no bot: an unknown name, a module or file that cannot be
    loaded, a missing attribute, or an object that is neither a bot, a factory of one nor a
    function ``(situation, rng) -> Decision``; or such a bot's answer is not a Decision.

    A :class:`~omaha.errors.ConfigError` (so an :class:`~omaha.errors.OmahaError` and a
    ``ValueError``) without a rule: its message is the whole story, on one line.
    """

    def __init__(self, message: str) -> None:
        super().__init__(None, message)


def built_in_names() -> tuple[str, ...]:
    """Every built-in bot's name: :data:`~omaha.game.bots.BOTS`' and :data:`NAMED`'s."""
    return (*BOTS, *NAMED)


def built_in_bot(name: str) -> Bot | None:
    """A new built-in bot by ``name`` (one of :func:`built_in_names`), or None for any other
    name: what the RL environments take, where a user's ``module:callable`` is not looked up.

    >>> built_in_bot("solver").name, built_in_bot("mybot:act")
    ('solver', None)
    """
    if name in BOTS:
        return BOTS[name]()
    if name in NAMED:
        return load_bot(NAMED[name])
    return None


def is_spec(text: str) -> bool:
    """Whether ``text`` names a user bot (``module:callable`` or ``file.py:callable``)."""
    return ":" in text


def load_bot(spec: str) -> Bot:
    """The bot ``spec`` names (a new one for each call of a factory); see the module."""
    if not isinstance(spec, str):
        raise UserBotError(f"a bot spec is a string, got {type(spec).__name__}")
    spec = spec.strip()
    built_in = built_in_bot(spec)
    if built_in is not None:
        return built_in
    if not is_spec(spec):
        raise UserBotError(f"unknown bot {spec!r}; choose from {', '.join(built_in_names())}, "
                           "or name your own as module:callable or path/to/file.py:callable")
    where, _, attribute = spec.rpartition(":")
    if not where or not attribute:
        raise UserBotError(f"bot {spec!r}: write module:callable or path/to/file.py:callable")
    module = _load_file(spec, where) if _is_path(where) else _import(spec, where)
    target: Any = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise UserBotError(f"bot {spec!r}: module {where!r} has no attribute "
                               f"{attribute!r}") from None
    return _as_bot(spec, target, attribute.rpartition(".")[2])


def _is_path(where: str) -> bool:
    return where.endswith(".py") or "/" in where or os.sep in where


def _import(spec: str, name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not name.startswith(exc.name):
            raise UserBotError(f"bot {spec!r}: importing {name!r} failed: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - the user's code failed: one line
        raise UserBotError(f"bot {spec!r}: importing {name!r} failed: "
                           f"{type(exc).__name__}: {exc}") from None
    # not on sys.path: look in the current directory too (as `python -m` would)
    here = os.getcwd()
    sys.path.insert(0, here)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        raise UserBotError(f"bot {spec!r}: no module named {exc.name or name!r}") from None
    except Exception as exc:  # noqa: BLE001 - the user's code failed: one line
        raise UserBotError(f"bot {spec!r}: importing {name!r} failed: "
                           f"{type(exc).__name__}: {exc}") from None
    finally:
        if here in sys.path:
            sys.path.remove(here)


def _load_file(spec: str, path: str) -> ModuleType:
    if not os.path.isfile(path):
        raise UserBotError(f"bot {spec!r}: no file {path!r}")
    full = os.path.realpath(path)
    stem = os.path.splitext(os.path.basename(full))[0]
    name = f"_omaha_userbot_{stem}_{hashlib.sha256(full.encode()).hexdigest()[:12]}"
    loaded = sys.modules.get(name)
    if loaded is not None:     # one run of the file per process (its state is shared)
        return loaded
    module_spec = importlib.util.spec_from_file_location(name, full)
    if module_spec is None or module_spec.loader is None:
        raise UserBotError(f"bot {spec!r}: {path!r} cannot be loaded as Python")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - the user's code failed: one line
        del sys.modules[name]
        raise UserBotError(f"bot {spec!r}: running {path!r} failed: "
                           f"{type(exc).__name__}: {exc}") from None
    return module


def _required(function: Callable[..., Any]) -> int | None:
    """How many positional arguments ``function`` needs (None: not introspectable, or it
    needs a keyword-only one)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    count = 0
    for parameter in signature.parameters.values():
        if parameter.default is not inspect.Parameter.empty:
            continue
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            count += 1
        elif parameter.kind is parameter.KEYWORD_ONLY:
            return None
    return count


def _as_bot(spec: str, target: Any, label: str) -> Bot:
    if not isinstance(target, type) and callable(getattr(target, "decide", None)):
        return _UserBot(spec, target.decide, _name(target, label))
    if not callable(target):
        raise UserBotError(f"bot {spec!r}: {label!r} is a {type(target).__name__}, not a bot, "
                           "a factory of one or a function (situation, rng) -> Decision")
    needs = _required(target)
    if needs == 0:
        try:
            made = target()
        except Exception as exc:  # noqa: BLE001 - the user's code failed: one line
            raise UserBotError(f"bot {spec!r}: {label}() failed: "
                               f"{type(exc).__name__}: {exc}") from None
        if callable(getattr(made, "decide", None)):
            return _UserBot(spec, made.decide, _name(made, label))
        raise UserBotError(f"bot {spec!r}: {label}() returned a {type(made).__name__}, "
                           "not a bot (an object with decide(situation, rng))")
    if needs == 2 and not isinstance(target, type):
        return _UserBot(spec, target, _name(target, label))
    raise UserBotError(f"bot {spec!r}: {label!r} is neither a bot, a factory taking no "
                       "arguments, nor a function (situation, rng) -> Decision")


def _name(thing: Any, label: str) -> str:
    name = getattr(thing, "name", None)
    return name if isinstance(name, str) and name else label


class _UserBot:
    """A user's bot behind the protocol: its ``decide`` (or the function), checked to
    answer with a :class:`~omaha.game.bots.Decision`."""

    __slots__ = ("_decide", "name", "spec")

    def __init__(self, spec: str, decide: Callable[[Situation, random.Random], Any],
                 name: str) -> None:
        self.spec = spec
        self.name = name
        self._decide = decide

    def decide(self, situation: Situation, rng: random.Random) -> Decision:
        decision = self._decide(situation, rng)
        if not isinstance(decision, Decision):
            raise UserBotError(f"bot {self.spec!r} answered {decision!r}, not a Decision")
        return decision

    def __repr__(self) -> str:
        return f"<bot {self.name} from {self.spec}>"
