"""Progress bars: drawn by tqdm on a terminal (or when forced), silent when piped."""

from __future__ import annotations

import io
import subprocess
import sys

from omaha.cli.progress import progress_bar


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_silent_when_the_stream_is_not_a_terminal():
    quiet = io.StringIO()
    bar = progress_bar(10, stream=quiet)
    bar.update(4)
    bar.update()
    bar.close()
    assert quiet.getvalue() == "" and bar.n == 5


def test_drawn_on_a_terminal_and_when_forced():
    for stream, enabled in ((_Terminal(), None), (io.StringIO(), True)):
        bar = progress_bar(3, stream=stream, enabled=enabled, description="play")
        for _ in range(3):
            bar.update()
        bar.close()
        text = stream.getvalue()
        assert "play: 100%" in text and "3/3" in text and "hand" in text


def test_forced_off_on_a_terminal():
    stream = _Terminal()
    bar = progress_bar(3, stream=stream, enabled=False)
    bar.update(3)
    bar.close()
    assert stream.getvalue() == ""


def test_import_omaha_and_the_cli_do_not_import_tqdm():
    code = "import sys, omaha, omaha.cli, omaha.cli.progress; assert 'tqdm' not in sys.modules"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_total_can_be_set_once_known():
    for stream, enabled in ((io.StringIO(), True), (io.StringIO(), False)):
        bar = progress_bar(None, stream=stream, enabled=enabled, description="read")
        bar.set_description_str("read hands.phhs")
        bar.total = 2
        bar.set_description_str("replay")
        bar.refresh()
        bar.update(2)
        bar.close()
        assert bar.n == 2 and bar.total == 2
        if enabled:
            text = stream.getvalue()
            assert "read hands.phhs" in text and "replay: 100%" in text and "2/2" in text
        else:
            assert stream.getvalue() == ""
