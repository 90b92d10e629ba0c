"""The documentation site stays true: its Python examples run, and the rule book is complete.

Every ```python block of a page in docs/ runs, in order, in one namespace per page (later
blocks build on earlier ones, as a reader would). The site itself is built by
``mkdocs build --strict`` in the docs job of CI (it needs the ``docs`` extra).
"""

from __future__ import annotations

import doctest
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TESTS = ROOT / "tests"
PAGES = sorted(DOCS.rglob("*.md")) if DOCS.is_dir() else []
RULES = [f"C{i}" for i in range(1, 7)] + [f"T{i}" for i in range(1, 7)] + [
    f"B{i}" for i in range(1, 9)] + ["P1", "P2"] + [f"S{i}" for i in range(1, 5)] + [
    f"D{i}" for i in range(1, 5)] + [f"K{i}" for i in range(1, 5)]


def python_blocks(page: pathlib.Path) -> list[str]:
    """The page's ```python blocks, each padded so its line numbers are the page's."""
    text = page.read_text(encoding="utf-8")
    return [
        "\n" * text.count("\n", 0, match.start(1)) + match.group(1)
        for match in re.finditer(r"^```python\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
    ]


def _needs_docs() -> None:
    if not DOCS.is_dir():  # e.g. tests run from an unpacked wheel without the docs
        pytest.skip("docs/ is not beside the tests")


def test_the_docs_have_examples():
    _needs_docs()
    with_examples = [p.relative_to(DOCS).as_posix() for p in PAGES if python_blocks(p)]
    assert {"index.md", "guides/evaluating.md", "guides/playing.md", "guides/rake.md",
            "guides/tables-and-clock.md", "guides/hand-histories.md",
            "guides/command-line.md"} <= set(with_examples)


@pytest.mark.parametrize("page", [p for p in PAGES if python_blocks(p)],
                         ids=lambda p: p.relative_to(DOCS).as_posix())
def test_page_examples_run(page, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for block in python_blocks(page):
        if block.lstrip().startswith(">>>"):  # a console session: its outputs are checked too
            test = doctest.DocTestParser().get_doctest(block, namespace, page.name, str(page), 0)
            runner = doctest.DocTestRunner(
                optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            runner.run(test, clear_globs=False)
            namespace.update(test.globs)  # DocTest works on a copy; later blocks build on it
            assert runner.summarize(verbose=False).failed == 0, f"{page.name}: see the diff above"
            continue
        code = compile(block, str(page), "exec")  # tracebacks point into the page
        exec(code, namespace)  # noqa: S102 - running the examples is the point of the test


def test_rule_book_has_every_rule_in_order():
    _needs_docs()
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    headings = re.findall(r"^### ([A-Z]\d+) ", text, re.MULTILINE)
    assert headings == RULES


def test_rule_book_cites_only_tests_that_exist_and_each_rule_has_tests():
    _needs_docs()
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    heading = r"^### ([A-Z]\d+) (.*?)(?=^### |\Z)"
    sections = dict(re.findall(heading, text, re.DOTALL | re.MULTILINE))
    for rule, section in sections.items():
        files = re.findall(r"`(test_\w+\.py)`", section)
        names = re.findall(r"`(test_\w+)`", section)
        assert files, f"{rule} names no test file"
        sources = {f: (TESTS / f).read_text(encoding="utf-8") for f in files}
        for name in names:
            assert any(f"def {name}(" in source for source in sources.values()), (rule, name)
        tag = f"_{rule.lower()}_"
        assert any(tag in name + "_" for name in names), f"{rule}: no test named for the rule"
