"""Fuzz a served tournament's state (issue 25): the state machine of
``tests/test_tournament_room_machine.py`` for as long as you like.

:class:`~omaha.arena.tournament_room.TournamentRoom` is driven by random rounds, legal and
refused actions, time passing (timeouts), players dropping and coming back, failed writes
and crashes reopened from the SQLite file; the invariants (chips conserved, everyone seated
or placed once, refused steps and failed writes change nothing, no hidden card shown, a
crash loses nothing) are checked after every step. The engine is Hypothesis in both modes
(a state machine is Hypothesis's own; ``--engine atheris`` runs it too).

Run for a chosen time::

    PYTHONPATH=src python3 fuzz/fuzz_tournament.py --seconds 600

The test suite runs the same machine for 30 examples (``tests/test_tournament_room_machine.py``).
"""

from __future__ import annotations

import os
import sys
import time

TARGETS = ("room",)
TESTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests")


def run_hypothesis(targets: tuple[str, ...], *, seconds: float, examples: int = 50) -> int:
    """Run the machine in chunks of ``examples`` runs until ``seconds`` have passed; returns
    the runs made."""
    from hypothesis import HealthCheck, settings
    from hypothesis.stateful import run_state_machine_as_test

    sys.path.insert(0, TESTS)
    from test_tournament_room_machine import RoomMachine

    runs = 0
    deadline = time.monotonic() + seconds
    while True:
        run_state_machine_as_test(RoomMachine, settings=settings(
            max_examples=examples, stateful_step_count=80, deadline=None, database=None,
            suppress_health_check=list(HealthCheck)))
        runs += examples
        if time.monotonic() >= deadline:
            return runs


def run_atheris(targets: tuple[str, ...], *, seconds: float) -> None:
    run_hypothesis(targets, seconds=seconds)


def main(argv: list[str] | None = None) -> int:
    from driver import fuzz_main  # beside this file (the fuzzers' shared command line)

    return fuzz_main("fuzz_tournament", __doc__.split("\n\n")[0], TARGETS, run_atheris,
                     run_hypothesis, argv)


if __name__ == "__main__":
    sys.exit(main())
