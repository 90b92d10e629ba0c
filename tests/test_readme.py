"""The README's Python examples run as written."""

import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    if not README.is_file():  # e.g. tests run from an unpacked wheel without the README
        pytest.skip("README.md is not beside the tests")
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)


def test_readme_examples_run(capsys):
    blocks = python_blocks()
    assert len(blocks) >= 4
    namespace: dict[str, object] = {}
    for block in blocks:  # one namespace: later blocks build on earlier ones, as a reader would
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 - the point of the test
