"""The package's layout (issue 20): the old flat module paths still import for one release,
warn, and give the same objects; nothing of ours uses them.

The PHH package's own old paths are tested in test_phh_layout.py.
"""

import ast
import importlib
import pathlib
import pickle
import random
import re
import subprocess
import sys

import pytest

import omaha
from omaha.limits import safe_repr

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

# old module -> where its names live now (the first module that has the name)
MOVED = {
    "omaha.award": ["omaha.game.award"],
    "omaha.bots": ["omaha.game.bots"],
    "omaha.clock": ["omaha.game.clock"],
    "omaha.clocked": ["omaha.game.clocked"],
    "omaha.dealing": ["omaha.game.dealing"],
    "omaha.deck": ["omaha.game.deck", "omaha.game.dealing"],   # it re-exported the layout
    "omaha.events": ["omaha.game.events"],
    "omaha.hand": ["omaha.game.hand"],
    "omaha.rake": ["omaha.game.rake"],
    "omaha.showdown": ["omaha.game.showdown"],
    "omaha.table": ["omaha.game.table"],
    "omaha.view": ["omaha.game.view"],
    "omaha.states": ["omaha.game.status", "omaha.game.rake"],   # RakeRule: the rake hook
    "omaha.state": ["omahacore.engine"],                        # HandState is HandCore
    "omaha.record": ["omaha.history.record"],
    "omaha.sealing": ["omaha.history.sealing"],
    "omaha.snapshot": ["omaha.history.snapshot"],
    "omaha.equity": ["omaha.analysis.equity"],
    "omaha.evaluation": ["omaha.analysis.evaluation"],
    "omaha.preflop": ["omaha.analysis.preflop"],
    "omaha.ranges": ["omaha.analysis.ranges"],
    "omaha.progress": ["omaha.cli.progress"],
    "omaha.cli_args": ["omaha.cli.shared"],
    "omaha.cli_arena": ["omaha.cli.arena"],
    "omaha.cli_equity": ["omaha.cli.equity"],
    "omaha.cli_scale": ["omaha.cli.scale"],
    "omaha.betting": ["omahacore.actions"],                     # earlier in issue 20
    "omaha.rl.fast": ["omaha.rl.fast"],                         # its one function stays
}
# names that changed as they moved: old module -> {old name: new name}
RENAMED = {
    "omaha.state": {"HandState": "HandCore"},
    "omaha.cli_arena": {"add_parsers": "add_parser"},
}
SHIMS = {SRC / (name.replace(".", "/") + ".py") for name in MOVED}


def _fresh_import(name: str) -> object:
    """Import ``name`` again (test_docs imported it before), expecting its warning."""
    sys.modules.pop(name, None)
    with pytest.warns(DeprecationWarning, match=rf"{name} is deprecated"):
        return importlib.import_module(name)


@pytest.mark.parametrize("old", sorted(MOVED))
def test_old_paths_warn_and_give_the_same_objects(old: str) -> None:
    module = _fresh_import(old)
    assert module.__all__
    homes = [importlib.import_module(home) for home in MOVED[old]]
    for name in module.__all__:
        new = RENAMED.get(old, {}).get(name, name)
        value = getattr(module, name)
        assert any(getattr(home, new, None) is value for home in homes), (old, name)


def test_old_modules_give_private_names_too() -> None:
    """A pickled hand names ``omaha.hand._unpickled``; old pickles still load."""
    hand = _fresh_import("omaha.hand")
    from omaha.game import hand as new

    assert hand._unpickled is new._unpickled   # type: ignore[attr-defined]
    played = omaha.Hand(omaha.GameConfig.pot_limit(small_blind=1, big_blind=2),
                        stacks={1: 50, 2: 50}, button=1, rng=random.Random(3))
    played.call()
    old_pickle = pickle.dumps(played, protocol=0).replace(b"omaha.game.hand", b"omaha.hand")
    assert b"omaha.hand\n_unpickled" in old_pickle
    assert pickle.loads(old_pickle).events == played.events


def test_omaha_equity_stays_the_function() -> None:
    """The old module path omaha.equity never replaces the function omaha.equity."""
    function = omaha.equity
    module = _fresh_import("omaha.equity")
    assert omaha.equity is function and callable(omaha.equity)
    assert module.equity is function   # type: ignore[attr-defined]
    from omaha import equity

    assert equity is function


def test_old_paths_read_as_attributes_of_the_package() -> None:
    """``import omaha`` used to load most old modules, so ``omaha.hand`` was an attribute."""
    sys.modules.pop("omaha.events", None)
    omaha.__dict__.pop("events", None)
    with pytest.warns(DeprecationWarning, match="omaha.events is deprecated"):
        events = omaha.events   # type: ignore[attr-defined]
    assert events.BetOrRaised is omaha.game.events.BetOrRaised
    with pytest.raises(AttributeError):
        omaha.no_such_module  # type: ignore[attr-defined]  # noqa: B018


def test_the_old_name_of_safe_repr_warns() -> None:
    from omaha import limits

    with pytest.warns(DeprecationWarning, match="shown is deprecated"):
        assert limits.shown is safe_repr   # type: ignore[attr-defined]


def test_the_new_paths_import_without_warnings() -> None:
    new = sorted({home for homes in MOVED.values() for home in homes} - {"omaha.rl.fast"})
    code = "import importlib\n" + "".join(f"importlib.import_module({n!r})\n" for n in new)
    out = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-c", code],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr


def _imported(path: pathlib.Path) -> set[str]:
    """The modules ``path`` imports (``from omaha import hand`` counts as ``omaha.hand``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("folder", ["src", "tests", "benchmarks", "examples", "fuzz", "tools"])
def test_nothing_of_ours_imports_an_old_path(folder: str) -> None:
    ours = {pathlib.Path(__file__), ROOT / "tests" / "test_phh_layout.py"}
    for path in sorted((ROOT / folder).rglob("*.py")):
        if path in SHIMS or path in ours:
            continue
        old = _imported(path) & set(MOVED)
        # ``from omaha import equity`` is the function, not the old module
        if "omaha.equity" in old and "import omaha.equity" not in path.read_text("utf-8") \
                and "from omaha.equity " not in path.read_text("utf-8"):
            old.discard("omaha.equity")
        assert not old, (path, old)


# --- the layers (docs/architecture.md): imports run one way -----------------------------------

FOUNDATIONS = {"omaha.errors", "omaha.limits", "omaha.cards", "omaha.config", "omaha._version"}
# package -> the packages it may import besides itself (the foundations and omahacore always)
BELOW = {
    "omaha.analysis": set(),
    "omaha.game": {"omaha.history"},       # a hand snapshots itself (sealing, record) ...
    "omaha.history": {"omaha.game"},       # ... and record reads the game's events, layout
    "omaha.phh": {"omaha.game", "omaha.history"},
    "omaha.arena": {"omaha.game", "omaha.history", "omaha.phh",
                    "omaha.tournament"},   # a served tournament is the library's
    "omaha.rl": {"omaha.game", "omaha.phh"},
    "omaha.distributed": {"omaha.analysis", "omaha.game", "omaha.phh"},
    "omaha.tournament": {"omaha.game"},   # hands through the engine, bots
    "omaha.solver": {"omaha.analysis",     # ranges and the batch evaluator
                     "omaha.game"},        # the solver bot plays the game's bot protocol
    "omaha.cli": {"omaha.analysis", "omaha.game", "omaha.history", "omaha.phh", "omaha.arena",
                  "omaha.rl", "omaha.distributed", "omaha.tournament", "omaha.solver"},
    "omaha": {"omaha.analysis", "omaha.game"},   # the front door
}


def _source_modules() -> dict[str, pathlib.Path]:
    """Every module of src/ but the old paths (a package's __init__ under its own name)."""
    found = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if path not in SHIMS and not ast.get_docstring(ast.parse(path.read_text("utf-8")),
                                                       clean=True).startswith("Deprecated"):
            found[".".join(parts)] = path
    return found


def _group(module: str) -> str:
    if module.startswith("omahacore") or module in FOUNDATIONS:
        return "base"
    if module == "omaha.__main__":   # python -m omaha: the command line
        return "omaha.cli"
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 and f"omaha.{parts[1]}" in BELOW else "omaha"


def _graph() -> dict[str, set[str]]:
    modules = _source_modules()
    return {name: {other for other in _imported(path) if other in modules and other != name}
            for name, path in modules.items()}


def test_imports_run_one_way_with_no_circle() -> None:
    graph = _graph()
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            raise AssertionError("import circle: " + " -> ".join(path[path.index(node):]))
        if node not in done:
            for other in graph[node]:
                visit(other, [*path, node])
            done.add(node)

    for node in sorted(graph):
        visit(node, [])


def test_each_package_imports_only_the_layers_below_it() -> None:
    for name, imports in _graph().items():
        group = _group(name)
        allowed = {"base", group} | BELOW.get(group, set())
        if group == "base":   # the foundations import each other and the core, nothing else
            allowed = {"base"}
        above = {other for other in imports if _group(other) not in allowed}
        assert not above, (name, above)


def test_the_compiled_core_imports_nothing_from_omaha() -> None:
    core = SRC / "omahacore"
    for path in sorted(core.iterdir()):
        if path.suffix in (".py", ".pyx", ".pxd", ".pxi"):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"^\s*(from|c?import)\s+omaha(\.|\s)", text, re.MULTILINE), path
