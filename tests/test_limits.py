"""Issue 21, classes 5 and 6 at the library edge: one limit table (``omaha.limits``), checked
at entry with an ``OmahaError`` naming the limit; callbacks that raise stop the work; wrong
types and tampered preflop tables are refused with the package's typed errors."""

from __future__ import annotations

import copy
import pickle
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import omaha
from omaha import limits
from omaha.analysis.preflop import MAGIC, load_table
from omaha.analysis.ranges import Range, RangeError, RangeLimitError, RangeTypeError
from omaha.config import SIX_CARD_OMAHA, GameConfig
from omaha.distributed.preflop import build_table
from omaha.distributed.simulate import run_play, run_play_on_ray
from omaha.errors import ConfigError, ConfigTypeError, LimitError, OmahaError, OmahaTypeError

ROOT = Path(__file__).resolve().parent.parent
HANDS = ["AsAh2d3c", "KsKhQdJc"]


# ----------------------------------------------------------------- the one table, documented


def _limit_names() -> list[str]:
    return sorted(name for name in dir(limits) if name.startswith("MAX_"))


def test_every_limit_is_on_the_limits_page() -> None:
    page = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    missing = [name for name in _limit_names() if f"`{name}`" not in page]
    assert not missing, f"docs/limits.md does not list {missing}"


def test_the_limits_page_is_in_the_site_navigation() -> None:
    assert re.search(r"^\s*- .*: limits\.md\s*$", (ROOT / "mkdocs.yml").read_text(),
                     re.MULTILINE)


def test_every_limit_is_a_positive_int_and_raisable_ones_exist() -> None:
    for name in _limit_names():
        value = getattr(limits, name)
        assert type(value) is int and value > 0, name
    assert limits.RAISABLE <= set(_limit_names())


# ----------------------------------------------------------------- equity (class 5)


def test_equity_refuses_huge_samples_at_entry() -> None:
    started = time.perf_counter()
    with pytest.raises(LimitError, match=r"samples must be at most MAX_SAMPLES = .*raise "
                                         r"omaha\.limits\.MAX_SAMPLES"):
        omaha.equity(HANDS, samples=10**15)
    with pytest.raises(LimitError, match="MAX_SAMPLES"):
        omaha.equity([HANDS[0], "****"], samples=10**15, seed=1, threads=2)
    assert time.perf_counter() - started < 1


def test_equity_refuses_a_million_threads_on_every_path() -> None:
    before = threading.active_count()
    for entries in (HANDS, [HANDS[0], "****"], ["AA**", "KK**"]):
        with pytest.raises(LimitError, match="threads must be at most MAX_THREADS = 1,024"):
            omaha.equity(entries, threads=10**6)
        with pytest.raises(LimitError, match="MAX_THREADS"):
            omaha.equity(entries, threads=10**6, samples=1000, seed=1)
    assert threading.active_count() == before


def test_equity_limits_can_be_raised_and_lowered(monkeypatch: pytest.MonkeyPatch) -> None:
    assert omaha.equity(HANDS, threads=limits.MAX_THREADS).exact   # the limit itself is fine
    monkeypatch.setattr(limits, "MAX_THREADS", 2)
    with pytest.raises(LimitError, match="MAX_THREADS = 2"):
        omaha.equity(HANDS, threads=3)
    monkeypatch.setattr(limits, "MAX_SAMPLES", 1000)
    with pytest.raises(LimitError, match="MAX_SAMPLES = 1,000"):
        omaha.equity(HANDS, samples=1001)
    assert omaha.equity(HANDS, samples=1000, seed=1).deals == 1000


def test_a_huge_sample_count_raised_past_the_limit_allocates_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The old code listed every step of the run before the first deal (10**15 samples: two
    billion list items); now the steps are counted, so a raised limit costs no memory and a
    progress callback can stop the run."""
    monkeypatch.setattr(limits, "MAX_SAMPLES", 10**15)
    calls = []

    def stop(done: int, total: int) -> None:
        calls.append((done, total))
        raise KeyboardInterrupt

    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        omaha.equity([HANDS[0], "****"], samples=10**15, seed=1, progress=stop)
    assert calls and calls[0][1] == 10**15 and time.perf_counter() - started < 5


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_a_progress_callback_that_raises_stops_the_work(threads: int) -> None:
    calls = []

    class Stop(Exception):
        pass

    def progress(done: int, total: int) -> None:
        calls.append(done)
        raise Stop(f"stopped at {done}")

    with pytest.raises(Stop):
        omaha.equity([HANDS[0], "****"], samples=2_000_000, seed=1, threads=threads,
                     progress=progress)
    assert len(calls) == 1         # no call after the one that raised


# ----------------------------------------------------------------- ranges (classes 5, 6)


def test_a_deeply_nested_range_is_a_typed_error_not_recursion() -> None:
    for depth in (150, 300, 5000):
        with pytest.raises(RangeLimitError, match="MAX_RANGE_DEPTH = 100"):
            Range("(" * depth + "AA" + ")" * depth)
        with pytest.raises(RangeError):
            omaha.equity(["(" * depth + "AA" + ")" * depth, "KK"], samples=100, seed=1)
    assert len(Range("(" * 100 + "AA" + ")" * 100)) == len(Range("AA"))
    assert len(Range("((AA,KK):$ds)!(AAA)")) > 0


def test_range_depth_limit_can_be_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_RANGE_DEPTH", 150)
    assert len(Range("(" * 150 + "AA" + ")" * 150)) == len(Range("AA"))
    monkeypatch.setattr(limits, "MAX_RANGE_DEPTH", 10**6)    # past the interpreter's own
    with pytest.raises(RangeLimitError):
        Range("(" * 5000 + "QQ" + ")" * 5000)


def test_range_text_length_is_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RangeLimitError, match="MAX_RANGE_TEXT"):
        Range("AA," * (limits.MAX_RANGE_TEXT // 3) + "KK")
    monkeypatch.setattr(limits, "MAX_RANGE_TEXT", 10)
    with pytest.raises(LimitError, match="MAX_RANGE_TEXT = 10"):
        Range("AA**,KK**,QQ")


def test_a_pattern_cannot_list_past_the_hand_limit() -> None:
    """Only the range of every hand was checked: a 6-card pattern such as ``A`` listed
    8 million hands (and ``A,K`` more), past MAX_RANGE_HANDS."""
    with pytest.raises(RangeLimitError, match="MAX_RANGE_HANDS"):
        Range("A", variant=SIX_CARD_OMAHA)


def test_a_union_cannot_list_past_the_hand_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_RANGE_HANDS", 20_000)
    assert len(Range("AA")) == 6961
    with pytest.raises(RangeLimitError, match="MAX_RANGE_HANDS = 20,000"):
        Range("AA,KK,QQ")             # each part under the limit, the union past it
    with pytest.raises(RangeLimitError):
        Range("AA-QQ")
    with pytest.raises(RangeLimitError):
        Range("$ds")


def test_building_a_range_has_a_work_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long text of parts each under the limit (the union small) took hours to build: the
    hands enumerated in all are bounded by WORK_FACTOR x MAX_RANGE_HANDS."""
    from omaha.analysis.ranges import WORK_FACTOR

    monkeypatch.setattr(limits, "MAX_RANGE_HANDS", 20_000)
    assert len(Range(",".join(["AA**"] * 2))) == 6961
    with pytest.raises(RangeLimitError, match="enumerate more than"):
        Range(",".join(["AA**"] * (WORK_FACTOR * 3)))
    assert len(Range(",".join(f"AA{r}" for r in "KQJT98765432"))) > 0   # small parts: fine


def test_the_parsed_range_cache_holds_only_small_ranges() -> None:
    from omaha.analysis import ranges

    for i in range(300):
        Range(f"AA{'KQJT98765432'[i % 12]}*:$ds" if i % 2 else f"({'(' * (i % 5)}AA**{')' * (i % 5)})")
    assert len(ranges._CACHE) <= 256
    assert sum(len(v[2]) for v in ranges._CACHE.values()) <= ranges._CACHE_HANDS


def test_copies_and_pickles_go_through_the_constructor(monkeypatch: pytest.MonkeyPatch) -> None:
    r = Range("AA**:$ds", variant="plo8")
    for twin in (copy.copy(r), copy.deepcopy(r), pickle.loads(pickle.dumps(r))):
        assert twin == r and str(twin) == str(r) and twin.variant == r.variant
    data = pickle.dumps(Range("AA,KK"))
    monkeypatch.setattr(limits, "MAX_RANGE_HANDS", 10_000)
    with pytest.raises(RangeLimitError):
        pickle.loads(data)


@pytest.mark.parametrize("text", [["AsAh2d3c"], ("AA",), b"AA", 5, None, {"AA": 1}])
def test_range_text_of_the_wrong_type_is_a_typed_error(text: Any) -> None:
    with pytest.raises(RangeTypeError, match="text: a range is text") as info:
        Range(text)
    assert isinstance(info.value, TypeError) and isinstance(info.value, OmahaTypeError)


@pytest.mark.parametrize("variant", [5, None, 4.0, ["plo"], True])
def test_range_variant_of_the_wrong_type_is_a_typed_error(variant: Any) -> None:
    with pytest.raises(OmahaTypeError, match="variant"):
        Range("AA", variant=variant)


# ----------------------------------------------------------------- simulate (class 5)

CONFIG = GameConfig.pot_limit(small_blind=1, big_blind=2)


def test_simulate_refuses_huge_hand_counts_before_allocating() -> None:
    started = time.perf_counter()
    with pytest.raises(ConfigError, match="hands must be at most MAX_SIMULATED_HANDS"):
        run_play(CONFIG, ["random", "random"], hands=10**15, seed=1)
    with pytest.raises(ConfigError, match="MAX_SIMULATED_HANDS"):
        run_play_on_ray(CONFIG, ["random", "random"], hands=10**15, seed=1)
    assert time.perf_counter() - started < 1


def test_ray_jobs_are_limited_in_tasks_before_ray_starts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match="MAX_CHUNKS.*chunk_hands"):
        run_play_on_ray(CONFIG, ["random", "random"], hands=10**9, chunk_hands=1, seed=1)
    monkeypatch.setattr(limits, "MAX_CHUNKS", 2)
    with pytest.raises(ConfigError, match="MAX_CHUNKS.*chunk_classes"):
        build_table(classes=["AcAdKcKd"] * 3, chunk_classes=1, samples=10, ray=True)


def test_local_simulations_build_chunks_one_at_a_time() -> None:
    from omaha.distributed.simulate import _chunks

    started = time.perf_counter()
    chunks = _chunks(CONFIG, ["random", "random"], 10**9, None, 1, 1, None, False)
    assert len(chunks) == 10**9 and time.perf_counter() - started < 1
    assert chunks[5][3:5] == (5, 1) and chunks[-1][3] == 10**9 - 1
    seen = []
    result = run_play(CONFIG, ["random", "random"], hands=5, chunk_hands=2, seed=3,
                      on_chunk=lambda index, part: seen.append((index, part.hands)))
    assert result.hands == 5 and seen == [(0, 2), (1, 2), (2, 1)]
    assert sum(s.net for s in result.seats.values()) == 0


def test_cli_simulate_refuses_huge_hands_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from omaha.cli import main

    assert main(["simulate", "--hands", str(10**15), "--players", "2", "--seed", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "MAX_SIMULATED_HANDS" in err[0]


# ----------------------------------------------------------------- preflop (class 6)


@pytest.mark.parametrize(("options", "error", "words"), [
    ({"chunk_classes": 0}, ConfigError, "chunk_classes must be at least 1"),
    ({"chunk_classes": "64"}, ConfigTypeError, "chunk_classes must be an integer"),
    ({"chunk_classes": 2.0}, ConfigTypeError, "chunk_classes must be an integer"),
    ({"classes": "AcAdKcKd"}, ConfigTypeError, "classes must be a list of hands"),
    ({"classes": b"AcAdKcKd"}, ConfigTypeError, "classes must be a list"),
    ({"classes": 5}, ConfigTypeError, "classes must be a list"),
    ({"classes": {"AcAdKcKd": 1}}, ConfigTypeError, "classes must be a list"),
    ({"classes": [5]}, ConfigTypeError, r"classes\[0\] must be a hand as text"),
    ({"classes": ["AcAd"]}, ConfigError, r"classes\[0\] must be a 4-card hand"),
    ({"classes": ["AcAdKcKx"]}, ConfigError, r"classes\[0\]"),
    ({"classes": ["AcAdKcKd", None]}, ConfigTypeError, r"classes\[1\]"),
    ({"opponents": 5}, ConfigTypeError, "opponents must be a list of counts"),
    ({"opponents": "12"}, ConfigTypeError, "opponents must be a list"),
    ({"opponents": [0]}, ConfigError, "opponents must be at least 1"),
    ({"opponents": [1.0]}, ConfigTypeError, "opponents must be an integer"),
    ({"samples": 0}, ConfigError, "samples must be at least 1"),
    ({"samples": 2**32}, ConfigError, "samples must be at most"),
    ({"samples": True}, ConfigTypeError, "samples must be an integer"),
    ({"seed": -1}, ConfigError, "seed must be at least 0"),
])
def test_build_table_refuses_wrong_arguments_by_name(options: dict[str, Any],
                                                     error: type[Exception], words: str) -> None:
    arguments: dict[str, Any] = {"classes": ["AcAdKcKd"], "opponents": [1], "samples": 10}
    arguments.update(options)
    with pytest.raises(error, match=words) as info:
        build_table(**arguments)
    assert isinstance(info.value, OmahaError)
    if error is ConfigTypeError:
        assert isinstance(info.value, TypeError)


def test_build_table_still_accepts_what_it_did() -> None:
    rows = build_table(classes=("acadkckd", "2c3d4h5s"), opponents=range(1, 3), samples=50,
                       chunk_classes=1)
    assert [row[:2] for row in rows] == [("acadkckd", 1), ("acadkckd", 2), ("2c3d4h5s", 1),
                                         ("2c3d4h5s", 2)]


def _table(classes: int = 3, samples: int = 100, counts: int = 2, values: int | None = None,
           magic: bytes = MAGIC) -> bytes:
    import array

    header = array.array("I", [classes, samples, counts]).tobytes()
    body = array.array("H", [40000] * (2 * counts * classes if values is None else values))
    return magic + header + body.tobytes()


def test_a_valid_small_table_loads(tmp_path: Path) -> None:
    path = tmp_path / "t.bin"
    path.write_bytes(_table())
    samples, values = load_table(str(path))
    assert samples == 100 and values.shape == (2, 2, 3)
    assert load_table(path)[0] == 100 and load_table(bytes(path))[0] == 100


@pytest.mark.parametrize(("data", "words"), [
    (b"", "wrong magic"),
    (b"OMPFN2\n" + _table()[7:], "wrong magic"),
    (_table()[:len(MAGIC) + 5], "truncated"),
    (_table()[:-1], "wrong size"),           # odd length: was a bare ValueError from array
    (_table()[:-2], "wrong size"),
    (_table() + b"\0\0", "wrong size"),
    (_table(values=2 * 2 * 3 + 1), "wrong size"),
    (_table(classes=0, values=0), "0 classes"),
    (_table(classes=16_433, values=4), "16433 classes"),
    (_table(classes=2**32 - 1, values=4), "classes"),
    (_table(samples=0), "0 samples"),
    (_table(counts=0, values=6), "0 opponent counts"),
    (_table(counts=10, values=6), "10 opponent counts"),
    (_table() + b"\0" * 700_000, "longer than the largest"),
])
def test_a_tampered_table_is_refused_on_load(tmp_path: Path, data: bytes, words: str) -> None:
    path = tmp_path / "t.bin"
    path.write_bytes(data)
    with pytest.raises(ConfigError, match=words):
        load_table(str(path))


def test_every_truncation_and_byte_flip_of_a_table_loads_or_is_refused(tmp_path: Path) -> None:
    good = _table(classes=2, counts=1)
    path = tmp_path / "t.bin"
    for cut in range(len(good)):
        path.write_bytes(good[:cut])
        with pytest.raises(ConfigError):
            load_table(str(path))
    for i in range(len(good)):
        for flip in (0x01, 0x80, 0xFF):
            data = bytearray(good)
            data[i] ^= flip
            path.write_bytes(bytes(data))
            try:
                samples, values = load_table(str(path))
            except ConfigError:
                continue
            assert samples >= 1 and ((values >= 0) & (values <= 1)).all()


@pytest.mark.parametrize("path", [0, 1, 3.5, ["a.bin"], True])
def test_load_table_refuses_a_path_of_the_wrong_type(path: Any) -> None:
    """An int was opened as a file descriptor (0 is stdin: the call blocked)."""
    with pytest.raises(ConfigTypeError, match="path must be a file name"):
        load_table(path)


def test_load_table_reads_no_more_than_the_largest_table() -> None:
    with pytest.raises(ConfigError, match="wrong magic"):
        load_table("/dev/zero")


@pytest.mark.parametrize("percent", ["10", [10], None, True, b"5"])
def test_top_hands_refuses_a_percent_of_the_wrong_type(percent: Any) -> None:
    from omaha.analysis.preflop import top_hands

    with pytest.raises(OmahaTypeError, match="percent must be a number"):
        top_hands(percent)


def test_top_hands_accepts_the_numbers_it_did() -> None:
    import numpy as np

    from omaha.analysis.preflop import top_hands

    assert top_hands(10) == top_hands(10.0) == top_hands(np.float32(10)) == top_hands(np.int64(10))
    with pytest.raises(OmahaError, match=r"percent must be in \(0, 100\]"):
        top_hands(float("nan"))


def test_write_binary_writes_only_what_load_table_reads(tmp_path: Path) -> None:
    from omaha.distributed.preflop import write_binary

    rows = [("AcAdKcKd", 1, 0.7, 0.01, 0.5, 0.01), ("2c3d4h5s", 1, 0.4, 0.01, 0.3, 0.01)]
    path = str(tmp_path / "t.bin")
    write_binary(rows, path, 100)
    samples, values = load_table(path)
    assert samples == 100 and values.shape == (1, 2, 2) and abs(values[0, 0, 0] - 0.7) < 1e-4
    for bad, words in [
        ([("AcAdKcKd", 1, float("nan"), 0.0, 0.5, 0.0)], "equity must be a number in"),
        ([("AcAdKcKd", 1, 1.5, 0.0, 0.5, 0.0)], "equity must be a number in"),
        ([("AcAdKcKd", 1, 0.5, 0.0, "0.5", 0.0)], "equity must be a number in"),
        ([("AcAdKcKd", 0, 0.5, 0.0, 0.5, 0.0)], "opponents must be at least 1"),
        ([("AcAdKcKd", 1, 0.5)], "must be a row"),
        ([], "at least one row"),
    ]:
        with pytest.raises(ConfigError, match=words):
            write_binary(bad, path, 100)
    with pytest.raises(ConfigError, match="samples must be at most"):
        write_binary(rows, path, 2**32)
    with pytest.raises(ConfigTypeError, match="rows must be a list"):
        write_binary("rows", path, 100)   # type: ignore[arg-type]
