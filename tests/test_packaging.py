"""The tests run against the compiled package, shipped with its stubs and markers."""

import importlib
import importlib.machinery
import pathlib
import subprocess
import sys

import pytest

COMPILED = ["omahacore.cards", "omahacore.evaluator", "omahacore.batch", "omahacore.pots"]


@pytest.mark.parametrize("name", COMPILED)
def test_compiled_modules_are_extensions_with_stubs(name):
    module = importlib.import_module(name)
    path = pathlib.Path(module.__file__)
    assert any(str(path).endswith(s) for s in importlib.machinery.EXTENSION_SUFFIXES), path
    stub = path.parent / (name.split(".")[1] + ".pyi")
    assert stub.is_file(), f"missing stub {stub}"


def test_packages_are_marked_typed():
    for name in ("omaha", "omahacore"):
        package = importlib.import_module(name)
        assert (pathlib.Path(package.__file__).parent / "py.typed").is_file()


def test_import_omaha_does_not_import_numpy():
    code = (
        "import sys, omaha; "
        "assert 'numpy' not in sys.modules, 'numpy imported at import time'; "
        "print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
