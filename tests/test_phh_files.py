"""phh.load / load_all / dump / dump_all take a path or an open file (text or binary)."""

from __future__ import annotations

import io
import pathlib

import pytest

import omaha.phh.io as phh_io
from omaha.phh import (
    HistoryError,
    dump,
    dump_all,
    dumps,
    dumps_all,
    load,
    load_all,
    loads,
    loads_all,
    read_histories,
)

DATA = pathlib.Path(__file__).parent / "data"
MIXED = DATA / "pokerkit_mixed.phhs"
SINGLE = DATA / "pokerkit_po_3.phh"


def test_load_all_returns_a_list_in_file_order():
    hands = load_all(MIXED)
    assert isinstance(hands, list) and len(hands) > 1
    assert hands == [hand for _, hand in read_histories(MIXED)]
    assert loads_all(MIXED.read_text()) == hands
    assert load_all(SINGLE) == [load(SINGLE)]


@pytest.mark.parametrize("kind", ["str", "pathlike", "text", "binary", "stringio", "bytesio"])
def test_load_and_load_all_take_paths_and_open_files(kind):
    def source(path):
        if kind == "str":
            return str(path)
        if kind == "pathlike":
            return path
        if kind == "text":
            return open(path, encoding="utf-8")
        if kind == "binary":
            return open(path, "rb")
        if kind == "stringio":
            return io.StringIO(path.read_text(encoding="utf-8"))
        return io.BytesIO(path.read_bytes())

    expected_all = loads_all(MIXED.read_text(encoding="utf-8"))
    expected_one = loads(SINGLE.read_text(encoding="utf-8"))
    for path, reader, expected in ((MIXED, load_all, expected_all), (SINGLE, load, expected_one)):
        handle = source(path)
        try:
            assert reader(handle) == expected
        finally:
            if hasattr(handle, "close"):
                handle.close()


@pytest.mark.parametrize("mode", ["path", "text", "binary", "stringio", "bytesio"])
def test_dump_and_dump_all_write_paths_and_open_files(mode, tmp_path):
    hands = load_all(MIXED)
    for writer, payload, text in ((dump_all, hands, dumps_all(hands)), (dump, hands[0], dumps(hands[0]))):
        path = tmp_path / f"out-{writer.__name__}"
        if mode == "path":
            writer(payload, path)
            written = path.read_bytes()
        elif mode in ("text", "binary"):
            with open(path, "w" if mode == "text" else "wb") as file:
                writer(payload, file)
            written = path.read_bytes()
        else:
            buffer = io.StringIO() if mode == "stringio" else io.BytesIO()
            writer(payload, buffer)
            value = buffer.getvalue()
            written = value.encode("utf-8") if isinstance(value, str) else value
        assert written.decode("utf-8") == text


def test_errors_name_the_file_and_the_hand(tmp_path):
    bad = tmp_path / "bad.phhs"
    bad.write_text(MIXED.read_text().replace("variant = 'FO/8'", "variant = 'ZZ'", 1))
    with pytest.raises(HistoryError, match="bad.phhs") as caught:
        load_all(bad)
    with open(bad, "rb") as file, pytest.raises(HistoryError, match="bad.phhs"):
        load_all(file)
    with pytest.raises(HistoryError, match="unknown variant"):
        load_all(io.BytesIO(bad.read_bytes()))
    assert "ZZ" in str(caught.value) and "bad.phhs [2]" in str(caught.value)


def test_the_size_limit_holds_for_paths_and_open_files(monkeypatch, tmp_path):
    text = SINGLE.read_text()
    monkeypatch.setattr(phh_io, "MAX_PHH_BYTES", len(text.encode()) - 1)
    path = tmp_path / "big.phh"
    path.write_text(text)
    for source in (path, io.StringIO(text), io.BytesIO(text.encode())):
        with pytest.raises(HistoryError, match="larger than the limit"):
            load(source)
    # a text file whose characters fit but whose UTF-8 bytes do not
    wide = text.replace("\n", "\n# ééé\n", 1)
    monkeypatch.setattr(phh_io, "MAX_PHH_BYTES", len(wide) + 1)
    with pytest.raises(HistoryError, match="larger than the limit"):
        load(io.StringIO(wide))


def test_bad_sources_are_refused_cleanly(tmp_path):
    with pytest.raises(TypeError, match="path or an open file"):
        load(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="path or an open file"):
        dump(load(SINGLE), 42)  # type: ignore[arg-type]
    with pytest.raises(HistoryError, match="not UTF-8"):
        load(io.BytesIO(b"\xff\xfe"))
    path = tmp_path / "w.phh"
    with open(path, "w") as file, pytest.raises(HistoryError, match="cannot read"):
        load(file)
    closed = io.StringIO("x")
    closed.close()
    with pytest.raises(HistoryError, match="cannot read"):
        load(closed)
