"""One voice for the command line (issue 28): every option of every subcommand says its
default (or is required, a positional, or an off-by-default flag), no ``%%`` in any help,
``--json`` on every subcommand with a result, ``--progress/--no-progress`` on every one that
can take a while, and ``omaha --help`` naming what the command does."""

from __future__ import annotations

import argparse

import pytest

from omaha.cli import build_parser

NO_JSON = {"serve"}
"""A server, not a result: ``serve`` writes ``--stats`` instead."""

SLOW = {"replay", "play", "simulate", "tournament", "equity", "preflop-table", "bots",
        "export", "solve"}
"""The subcommands that can take more than a second: each has a progress bar."""

FLAGS = (argparse._StoreTrueAction, argparse._StoreFalseAction, argparse._HelpAction,
         argparse._VersionAction)


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("omaha has no subcommands")


SUBCOMMANDS = _subcommands()


def test_the_subcommands_are_all_listed() -> None:
    assert SLOW | NO_JSON <= set(SUBCOMMANDS)
    assert {"eval", "bots", "export", "preflop-table", "equity"} <= set(SUBCOMMANDS)


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_option_shows_its_default(name: str) -> None:
    missing = []
    for action in SUBCOMMANDS[name]._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        label = "/".join(action.option_strings) or action.dest
        if not action.help:
            missing.append(f"{label}: no help")
            continue
        exempt = (not action.option_strings or action.required or isinstance(action, FLAGS)
                  or type(action).__name__ == "_VersionAction")
        if not exempt and "default" not in action.help.lower():
            missing.append(f"{label}: no default in {action.help!r}")
    assert not missing, f"omaha {name}: " + "; ".join(missing)


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_no_doubled_percent_in_help(name: str) -> None:
    assert "%%" not in SUBCOMMANDS[name].format_help()


def test_no_doubled_percent_in_the_top_help() -> None:
    assert "%%" not in build_parser().format_help()


@pytest.mark.parametrize("name", sorted(set(SUBCOMMANDS) - NO_JSON))
def test_every_subcommand_with_a_result_has_json(name: str) -> None:
    options = {o for a in SUBCOMMANDS[name]._actions for o in a.option_strings}
    assert "--json" in options, f"omaha {name} has no --json"


@pytest.mark.parametrize("name", sorted(SLOW))
def test_every_long_subcommand_has_a_progress_bar(name: str) -> None:
    options = {o for a in SUBCOMMANDS[name]._actions for o in a.option_strings}
    assert {"--progress", "--no-progress"} <= options, f"omaha {name}: no --progress"
    bars = {o: a for a in SUBCOMMANDS[name]._actions for o in a.option_strings
            if a.dest == "progress"}
    assert bars["--progress"].const is True and bars["--no-progress"].const is False
    assert bars["--progress"].default is None   # by default: only when stderr is a terminal


def test_the_top_help_names_every_job() -> None:
    description = build_parser().description or ""
    for word in ("evaluate", "equity", "play", "simulate", "tournament", "replay", "arena",
                 "serve", "bots", "export", "preflop"):
        assert word in description, word
    assert "three" not in description


def test_equity_help_states_the_engine_default() -> None:
    from omaha.analysis.equity import DEFAULT_SAMPLES

    assert f"{DEFAULT_SAMPLES} sampled deals" in SUBCOMMANDS["equity"].format_help()
