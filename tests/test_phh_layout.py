"""The PHH package's old module paths still import, for one release, and say where to go."""

import importlib
import pathlib
import re
import sys

import pytest

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"

# old module -> where its names live now
MOVED = {
    "omaha.phh.actions": "omaha.phh.notation",
    "omaha.phh.cards": "omaha.phh.notation",
    "omaha.phh.seats": "omaha.phh.notation",
    "omaha.phh.fields": "omaha.phh.history",
    "omaha.phh.tomlio": "omaha.phh.io",
    "omaha.phh.compat": "omaha.phh.export",
    "omaha.phh.errors": "omaha.errors",
    "omaha.phh.stakes": None,   # split: replay, export and variants
}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_old_paths_warn_and_give_the_same_objects(old):
    sys.modules.pop(old, None)   # imported before (test_docs): run it again to see the warning
    with pytest.warns(DeprecationWarning, match=rf"{old} is deprecated"):
        module = importlib.import_module(old)
    assert module.__all__
    for name in module.__all__:
        value = getattr(module, name)
        home = MOVED[old] or value.__module__
        assert getattr(importlib.import_module(home), name) is value, name


def test_the_package_uses_no_old_path():
    shims = {f"{name.rpartition('.')[2]}.py" for name in MOVED}
    for path in SRC.rglob("*.py"):
        if path.parent.name == "phh" and path.name in shims:
            continue
        text = path.read_text(encoding="utf-8")
        assert not [old for old in MOVED if re.search(rf"\b{re.escape(old)}\b", text)], path
