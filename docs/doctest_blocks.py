"""A griffe extension for the API reference: docstrings written for doctest and Sphinx read well.

The package's docstrings are plain text with ``>>>`` examples (run by tests/test_docs.py),
``::`` literal blocks and Sphinx roles. Markdown would show ``>>>`` as nested quotes, so this
fences every example and literal block as code and turns roles into inline code. Only the
rendered page changes; the docstrings stay as they are.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`~?\.?([^`]+)`")
_LITERAL = re.compile(r"``([^`]+)``")


def _role(match: re.Match[str]) -> str:
    target = match.group(1)
    shown = target.rsplit(".", 1)[-1] if match.group(0).split("`")[1].startswith("~") else target
    return f"`{shown}`"


def markdown(text: str) -> str:
    """``text`` with doctest examples and ``::`` blocks fenced, roles as inline code."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i].removeprefix(indent))
                i += 1
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        if line.rstrip().endswith("::") and i + 1 < len(lines):
            out.append(_inline(line.rstrip()[:-1]))
            i += 1
            while i < len(lines) and not lines[i].strip():
                i += 1
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            width = min(len(b) - len(b.lstrip()) for b in block if b.strip()) if block else 0
            out += ["", "```python", *(b[width:] for b in block), "```", ""]
            continue
        out.append(_inline(line))
        i += 1
    return "\n".join(out)


def _inline(line: str) -> str:
    return _LITERAL.sub(r"`\1`", _ROLE.sub(_role, line))


class DoctestBlocks(griffe.Extension):
    """Rewrite each docstring for Markdown once it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
