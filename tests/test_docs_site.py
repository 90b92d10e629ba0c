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
    f"D{i}" for i in range(1, 5)] + [f"K{i}" for i in range(1, 5)] + [
    f"N{i}" for i in range(1, 9)] + [f"E{i}" for i in range(1, 9)]


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


# --- docs/architecture.md: every module of src/, and only names that exist ------------------

SRC = ROOT / "src"
CORE_SOURCES = (".pyx", ".pxd", ".pxi", ".h", ".py")


def _modules() -> list[str]:
    """Every Python module of src/ as a dotted name (a package by its own name)."""
    names = []
    for path in sorted(SRC.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


def _architecture() -> str:
    _needs_docs()
    return (DOCS / "architecture.md").read_text(encoding="utf-8")


def test_architecture_names_every_module_of_src():
    text = _architecture()
    missing = [name for name in _modules()
               if not re.search(rf"`{re.escape(name)}[`( ]", text)]
    missing += [path.name for path in sorted((SRC / "omahacore").iterdir())
                if path.suffix in CORE_SOURCES and path.name not in text]
    assert not missing, f"docs/architecture.md does not name {missing}"


def _module_file(parts: list[str]) -> pathlib.Path | None:
    base = SRC.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py", base.with_suffix(".pyx")):
        if path.is_file():
            return path
    return None


def _resolves(dotted: str) -> bool:
    """``dotted`` is a module of src/, or an attribute of one (a compiled module's C-level
    names: declared in its .pyx or .pxd)."""
    import importlib
    import warnings

    parts = dotted.split(".")
    cut = next((k for k in range(len(parts), 0, -1) if _module_file(parts[:k])), 0)
    if cut == 0:
        return False
    if cut == len(parts):
        return True
    with warnings.catch_warnings():   # an old path named on purpose warns when imported
        warnings.simplefilter("ignore", DeprecationWarning)
        value = importlib.import_module(".".join(parts[:cut]))
    for k, name in enumerate(parts[cut:]):
        if not hasattr(value, name):
            sources = [SRC.joinpath(*parts[:cut]).with_suffix(suffix) for suffix in (".pyx", ".pxd")]
            return k == 0 and cut == len(parts) - 1 and any(
                path.is_file() and re.search(rf"\b{name}\b", path.read_text("utf-8"))
                for path in sources)
        value = getattr(value, name)
    return True


def test_architecture_cites_only_paths_and_names_that_exist():
    text = _architecture()
    paths = set(re.findall(r"`((?:omaha|omahacore|tests|benchmarks|docs|tools)/[\w./-]+)`",
                           text))
    paths |= {p for p in re.findall(r"\(`?([\w/]+\.(?:pyx|pxd|pxi|pyi|py|h|md))`?", text)}
    absent = [p for p in sorted(paths)
              if not any((base / p).exists() for base in (ROOT, SRC, SRC / "omahacore", DOCS))]
    names = set(re.findall(r"`(omaha(?:core)?(?:\.\w+)*)", text))
    unknown = [name for name in sorted(names) if not _resolves(name)]
    assert not absent and not unknown, (absent, unknown)


def test_cross_references_name_documented_objects():
    """Every ``[text][omaha.x.y]`` of the pages names an object that a ``::: module`` of the
    API reference renders (so ``mkdocs build --strict`` finds it)."""
    _needs_docs()
    rendered, closed = set(), set()
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        rendered |= set(re.findall(r"^::: ([\w.]+)$", text, re.MULTILINE))
        closed |= set(re.findall(r"^::: ([\w.]+)\n    options:\n      members: false", text,
                                 re.MULTILINE))
    wrong = []
    for page in PAGES:
        for name in re.findall(r"\]\[((?:omaha|omahacore)[\w.]*)\]", page.read_text("utf-8")):
            home = any(name == m or (name.startswith(m + ".") and m not in closed)
                       for m in rendered)
            if not home or not _resolves(name):
                wrong.append((page.relative_to(DOCS).as_posix(), name))
    assert not wrong, wrong


# --- docs/reference/: an API page for every public module -----------------------------------

def _public_modules() -> list[str]:
    """The public modules of ``omaha``: not private (``_x``), not the command line
    (``omaha.cli*``, ``__main__``), not an old path kept for one release (its docstring
    starts with "Deprecated")."""
    public = []
    for name in _modules():
        parts = name.split(".")
        if parts[0] != "omaha" or any(p.startswith("_") for p in parts):
            continue
        if len(parts) > 1 and parts[1].startswith("cli"):
            continue
        source = _module_file(parts)
        assert source is not None, name
        if re.match(r'\A(?:#.*\n)*\s*[rRuU]?"""Deprecated', source.read_text("utf-8")):
            continue
        public.append(name)
    return public


def test_every_public_module_has_an_api_page():
    _needs_docs()
    documented = set()
    for page in sorted((DOCS / "reference").glob("*.md")):
        documented |= set(re.findall(r"^::: ([\w.]+)$", page.read_text("utf-8"), re.MULTILINE))
    missing = [name for name in _public_modules() if name not in documented]
    assert not missing, f"no `::: module` line in docs/reference/*.md for {missing}"
    assert {"omaha.rl", "omaha.arena.server", "omaha.analysis.equity",
            "omaha.distributed"} <= documented
