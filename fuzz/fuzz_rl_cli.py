"""Fuzz the learning environments and the command line with hostile input (issue 21, 7-8).

``rl``: random environments (AEC, ``env()``, Gymnasium, ``VectorTables``) built from random
options, then stepped with random values: integers in and out of range, NaN, floats, bools,
text, arrays, None. Invariants: an option is taken or refused with an ``OmahaError``; a value
is an action or refused with an ``OmahaError`` and the state is exactly as before; the
results of every finished hand sum to zero (banked scoring: chips are conserved).

``cli``: random argument vectors for every ``omaha`` command, run in a scratch folder holding
an arena database, another SQLite file, a text file: exit 0, 1 or 2, an exit 2 says one line
(``replay``: one per unreadable file), no input file is ever changed. Commands that would start
long work (``serve``, ``bots``, ``simulate``, ``equity``, ``preflop-table``) are parsed only.

Run for a chosen time (Hypothesis)::

    PYTHONPATH=src python3 fuzz/fuzz_rl_cli.py --seconds 600
    PYTHONPATH=src python3 fuzz/fuzz_rl_cli.py --seconds 60 --target cli

The test suite runs a short budget (``tests/test_fuzz_rl_cli.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import math
import sqlite3
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omaha.errors import OmahaError

TARGETS = ("rl", "cli")

VALUES = st.one_of(
    st.integers(-3, 9), st.integers(), st.floats(), st.booleans(), st.none(), st.text(max_size=4),
    st.sampled_from([np.int64(1), np.uint8(2), np.float64(1.0), np.array(1), np.array([1]),
                     np.array(1.0), np.bool_(True), math.nan, math.inf, b"1", [1], (0, 1)]))
OPTIONS = st.dictionaries(
    st.sampled_from(["game", "players", "stack", "blinds", "stakes", "illegal_reward", "seat",
                     "render_mode"]),
    st.one_of(VALUES, st.sampled_from(["PO", "NO", "FO/8", "plo5", "nlh", "ansi", (1, 2),
                                       [2, 4], (1,), (1, 2, 3)])), max_size=3)


def _state(made: Any, kind: str) -> Any:
    if kind == "vector":
        return (made.observation.tobytes(), made.action_mask.tobytes(), made.actor.tobytes())
    episode = made.unwrapped.episode if kind == "aec" else made.episode
    return (len(episode.hand.events), episode.actor, tuple(episode.mask),
            getattr(made, "agent_selection", None),
            tuple(getattr(made, "agents", ())), episode.observation(0).tobytes())


def rl_case(kind: str, options: dict[str, Any], values: list[Any], seed: int) -> None:
    """One environment, ``values`` stepped into it; raises AssertionError on a broken rule."""
    from omaha.rl import OmahaGymEnv, VectorTables, env, raw_env

    if kind != "gym":
        options.pop("seat", None)
    if kind == "vector":
        options.pop("illegal_reward", None)
        options.pop("render_mode", None)
    make = {"aec": raw_env, "env": env, "gym": OmahaGymEnv,
            "vector": lambda **kw: VectorTables(3, **kw)}[kind]
    try:
        made = make(**options)
    except OmahaError:
        return
    made.reset(seed=seed)
    kind = "aec" if kind == "env" else kind
    for value in values:
        if kind == "aec" and not made.agents:
            made.reset(seed=seed)
        if kind == "aec" and made.terminations[made.agent_selection]:
            made.step(None)
            continue
        before = _state(made, kind)
        try:
            if kind == "vector":
                _, _, _, rewards, done = made.step([value] * 3)
                assert abs(float(rewards[done].sum())) < 1e-3   # chips conserved
            elif kind == "gym":
                *_, terminated, _, _ = made.step(value)
                if terminated:
                    made.reset(seed=seed)
            else:
                made.step(value)
                if made.last_rewards:
                    assert abs(sum(made.last_rewards.values())) < 1e-6 or any(
                        made.infos[a].get("illegal_move") for a in made.infos)
        except OmahaError:
            assert _state(made, kind) == before, "a refused value changed the state"


RL_INPUTS = {"kind": st.sampled_from(["aec", "env", "gym", "vector"]), "options": OPTIONS,
             "values": st.lists(VALUES, max_size=25), "seed": st.integers(0, 2**32)}


def fuzz_rl(kind: str, options: dict[str, Any], values: list[Any], seed: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rl_case(kind, options, values, seed)


# ----------------------------------------------------------------- cli

ARGS = ["0", "1", "2", "-1", "65535", "65536", "nan", "inf", "-inf", "1e309", "0.5", "x", "",
        "1/2", "ws://127.0.0.1:1", "wss://h/p", "http://x", "arena.sqlite", "other.sqlite",
        "text.sqlite", "afile", "afile/x", ".", "out.phhs", "AhKh2c3d", "QhJhTh4s5s", "PO",
        "stud", "--", "-", "\udcff"]
SKIP = {"--ray", "--cpus", "-h", "--help", "--version", "--progress"}
PARSE_ONLY = {"serve", "bots", "simulate", "equity", "preflop-table"}


def _options(command: str) -> list[str]:
    from omaha.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command").choices[command]
    return [o for a in sub._actions for o in a.option_strings if o not in SKIP]


def scratch(folder: Path) -> None:
    """The files the command line is fuzzed among."""
    from omaha.arena.storage import SqliteStorage

    (folder / "afile").write_text("a file\n")
    (folder / "text.sqlite").write_text("not a database\n")
    other = sqlite3.connect(folder / "other.sqlite")
    other.execute("CREATE TABLE IF NOT EXISTS x (a)")
    other.commit()
    other.close()
    SqliteStorage(str(folder / "arena.sqlite")).close()


def cli_case(folder: Path, argv: list[str]) -> None:
    from omaha.cli import build_parser, main

    inputs = {name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
              for name in ("arena.sqlite", "other.sqlite", "text.sqlite", "afile")}
    err = io.StringIO()
    with contextlib.chdir(folder), contextlib.redirect_stderr(err), \
            contextlib.redirect_stdout(io.StringIO()):
        try:
            if argv[0] in PARSE_ONLY:
                build_parser().parse_args(argv)
                code = 0
            else:
                code = main(argv)
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 2
    lines = err.getvalue().splitlines()
    assert code in (0, 1, 2), (argv, code, lines)
    if code == 2:
        assert len(lines) == 1 or argv[0] == "replay", (argv, lines)
        assert all(line.startswith(("omaha ", "omaha: ")) for line in lines), (argv, lines)
    for name, digest in inputs.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, (argv, name)


COMMANDS = ["eval", "replay", "play", "export", "serve", "bots", "simulate", "equity",
            "preflop-table"]


@st.composite
def argvs(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(COMMANDS))
    token = st.one_of(st.sampled_from(_options(command)), st.sampled_from(ARGS),
                      st.text(max_size=6))
    argv = [command, *draw(st.lists(token, max_size=8))]
    if command == "play":   # a short session
        argv += ["--hands", draw(st.sampled_from(["1", "2", "0", "x"]))]
    return argv


_FOLDER: list[Path] = []


def fuzz_cli(argv: list[str]) -> None:
    cli_case(_FOLDER[0], argv)


# ----------------------------------------------------------------- driver


def run(target: str, seconds: float, examples: int | None = None) -> int:
    """Run ``target`` for ``seconds`` (or ``examples`` examples); returns examples run."""
    function, inputs = {"rl": (fuzz_rl, RL_INPUTS), "cli": (fuzz_cli, {"argv": argvs()})}[target]
    ran = 0
    with tempfile.TemporaryDirectory() as folder:
        _FOLDER[:] = [Path(folder)]
        scratch(Path(folder))
        end = time.monotonic() + seconds
        while time.monotonic() < end or (examples is not None and ran < examples):
            batch = 50 if examples is None else min(50, max(1, examples - ran))
            settings(max_examples=batch, deadline=None, database=None,
                     suppress_health_check=list(HealthCheck))(given(**inputs)(function))()
            ran += batch
            if examples is not None and ran >= examples:
                break
    return ran


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--target", choices=(*TARGETS, "all"), default="all")
    args = parser.parse_args(argv)
    targets = TARGETS if args.target == "all" else (args.target,)
    for target in targets:
        started = time.monotonic()
        ran = run(target, args.seconds / len(targets))
        print(f"{target}: {ran} examples in {time.monotonic() - started:.0f} s, no failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
