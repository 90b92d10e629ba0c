"""One way for the tests to run a real ``omaha serve`` (cash arena or tournament) on
127.0.0.1: start it, wait for the line that says it listens, stop it. Every server test
starts its process here, so a change to how a server is launched is made once."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import omaha

# The folder the tests imported omaha from (site-packages in CI, src/ in a build in place):
# child processes must run the same copy.
SRC = os.path.dirname(os.path.dirname(os.path.abspath(omaha.__file__)))
ENV = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def launch(db: str, port: int, *options: str, log: str | Path,
           ready: str = "listening") -> tuple[subprocess.Popen[str], str]:
    """``omaha serve --db DB --port PORT OPTIONS`` started (its stderr appended to ``log``)
    and its first line, once that line contains ``ready``; otherwise the process is killed
    and an AssertionError carries the line and the log."""
    with open(log, "a") as err:   # a file, not a pipe nobody drains
        process = subprocess.Popen(
            [sys.executable, "-m", "omaha", "serve", "--db", db, "--port", str(port),
             *options], stdout=subprocess.PIPE, stderr=err, text=True, env=ENV)
    assert process.stdout is not None
    line = process.stdout.readline()
    if ready not in line:
        process.kill()
        process.wait()
        process.stdout.close()
        raise AssertionError(f"omaha serve did not start: {line!r}\n"
                             f"{Path(log).read_text(errors='replace')}")
    return process, line


def stop(process: subprocess.Popen[str], sig: int = signal.SIGTERM) -> None:
    """Stop a server as an operator would: ``sig`` (after SIGCONT, should it be paused),
    then SIGKILL if it lingers; its stdout pipe closed."""
    if process.poll() is None:
        process.send_signal(signal.SIGCONT)
        process.send_signal(sig)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
    if process.stdout is not None:
        process.stdout.close()
