"""The version is written once (omaha/_version.py); everything else reads it."""

from __future__ import annotations

import importlib.metadata
import pathlib
import re
import subprocess
import sys

import pytest

import omaha
from omaha import _version

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_version_is_one_pep440_release_string():
    assert omaha.__version__ is _version.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", omaha.__version__)


def test_cli_reports_the_same_version():
    done = subprocess.run([sys.executable, "-m", "omaha", "--version"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0 and done.stdout == f"omaha {omaha.__version__}\n"


def test_installed_distribution_has_the_same_version():
    try:
        dist = importlib.metadata.distribution("omaha-poker")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("omaha-poker is not installed (tests run from the source tree)")
    installed = pathlib.Path(str(dist.locate_file("omaha/__init__.py"))).resolve()
    if installed != pathlib.Path(omaha.__file__).resolve():
        pytest.skip("the imported omaha is not the installed distribution")
    assert dist.version == omaha.__version__


def _source(name: str) -> str:
    path = ROOT / name
    if not path.is_file():  # e.g. tests run from an unpacked sdist or wheel
        pytest.skip(f"{name} is not beside the tests")
    return path.read_text(encoding="utf-8")


def test_pyproject_reads_the_version_from_the_one_place():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads(_source("pyproject.toml"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "omaha._version.__version__"


def test_changelog_has_an_unreleased_section_and_the_current_version():
    text = _source("CHANGELOG.md")
    headings = re.findall(r"^## \[([^\]]+)\]", text, re.MULTILINE)
    assert headings[0] == "Unreleased"
    assert omaha.__version__ in headings
    for section in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        assert section.count("\n- ") >= 1 or "\n\n" in section.strip()  # no empty section


def test_release_workflow_publishes_wheels_built_from_the_sdist_with_trusted_publishing():
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load(_source(".github/workflows/release.yml"))
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads on: as True
    assert triggers["push"]["tags"] == ["v*"]
    jobs = workflow["jobs"]
    assert jobs["wheels"]["needs"] == "sdist"
    wheel_steps = " ".join(str(step) for step in jobs["wheels"]["steps"])
    assert "dist/*.tar.gz" in wheel_steps and "cibuildwheel" in wheel_steps
    runners = set(jobs["wheels"]["strategy"]["matrix"]["os"])
    assert {"ubuntu-latest", "ubuntu-24.04-arm", "windows-latest"} <= runners
    assert {"macos-14", "macos-15-intel"} <= runners  # macOS arm64 and x86_64
    publish = jobs["publish"]
    assert publish["permissions"] == {"id-token": "write"}
    assert set(publish["needs"]) == {"sdist", "wheels"}
    assert any(str(step.get("uses", "")).startswith("pypa/gh-action-pypi-publish@")
               for step in publish["steps"])
