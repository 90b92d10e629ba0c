"""Every example in the docstrings runs and prints what it shows."""

import doctest
import importlib
import pkgutil

import pytest

import omaha

COMPILED = ["omahacore.cards", "omahacore.evaluator", "omahacore.batch", "omahacore.pots",
            "omahacore.errors", "omahacore.equity", "omahacore.icm", "omahacore.solver",
            "omahacore.stud"]
PUBLIC = ["omaha"] + [
    m.name for m in pkgutil.walk_packages(omaha.__path__, "omaha.") if m.name != "omaha.__main__"
]


# Modules of the optional extras ([rl], [ray]) import them at the top; skip without them.
OPTIONAL = {"pettingzoo", "gymnasium", "ray"}


def _import(name):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in OPTIONAL:
            pytest.skip(f"{name} needs the optional {exc.name}")
        raise


@pytest.mark.parametrize("name", PUBLIC + COMPILED)
# the old module paths (omaha.hand, omaha.phh.cards, ...) warn: they are tested in
# test_package_layout.py and test_phh_layout.py
@pytest.mark.filterwarnings(r"ignore:omaha\.[\w.]+ is deprecated:DeprecationWarning")
def test_docstring_examples(name):
    module = _import(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


@pytest.mark.parametrize("name", ["omaha", "omaha.cards", "omaha.analysis.evaluation",
                                  "omaha.game.hand", "omaha.game.rake", "omaha.game.clock",
                                  *COMPILED])
def test_main_modules_show_examples(name):
    module = importlib.import_module(name)
    assert doctest.DocTestFinder().find(module) and any(
        t.examples for t in doctest.DocTestFinder().find(module)), f"{name} has no examples"
