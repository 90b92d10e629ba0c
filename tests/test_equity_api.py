"""omaha.equity: inputs, errors (typed OmahaError naming what), results, the CLI."""

from __future__ import annotations

import json

import pytest

import omaha
from omaha.analysis.equity import EquityResult, equity
from omaha.cli import main
from omahacore import equity as kernel

HANDS = ["AsAh2d3c", "KsKhQdJc"]


def test_exact_by_default_and_fields_are_consistent():
    res = equity(HANDS, board="Kd7c4h", variant=omaha.OMAHA_HILO)
    assert isinstance(res, EquityResult) and res.exact and res.deals == 820
    for p in range(2):
        assert 0 <= res.tie[p] <= 1 and res.scoop[p] <= res.win[p]
    assert sum(res.high) == pytest.approx(1.0)
    assert json.loads(json.dumps(res.to_dict()))["deals"] == 820


def test_entries_accept_cards_ranges_and_range_objects():
    a = equity([omaha.parse_cards(HANDS[0]), HANDS[1]], board="Kd7c4h")
    b = equity([omaha.Range(HANDS[0]), omaha.Range(HANDS[1])], board="Kd7c4h")
    assert a.equity == b.equity == equity(HANDS, board="Kd7c4h").equity


def test_hand_against_any_hand_is_the_sampling_form_used_for_tables():
    res = equity([HANDS[0], "****", "****"], samples=50_000, seed=3, variant=omaha.OMAHA_HILO)
    assert not res.exact and res.deals == 50_000 and res.std_error[0] > 0
    assert sum(res.equity) == pytest.approx(1.0)


def test_exact_true_refuses_too_large_and_exact_false_samples():
    with pytest.raises(omaha.OmahaError, match="too large"):
        equity([HANDS[0], "****"], exact=True)
    res = equity(HANDS, board="Kd7c4h", exact=False, samples=20_000, seed=1)
    assert not res.exact and res.deals == 20_000
    with pytest.raises(omaha.OmahaError, match="contradict"):
        equity(HANDS, exact=True, samples=10)


@pytest.mark.parametrize("kwargs, match", [
    ({"entries": ["AsAh2d3c", "AsKhQdJc"]}, "As is in two hands"),
    ({"entries": ["AsAh2d3c", "KsKhQdJc"], "board": "Kd7c"}, "0, 3, 4 or 5"),
    ({"entries": ["AsAh2d3c", "KsKhQdJc"], "board": "Kd7c4h", "dead": "Kd"}, "Kd"),
    ({"entries": ["AsAh2d3c", "KsKhQdJc"], "board": "As7c4h"}, "As"),
    ({"entries": ["AsAh2d3c4c", "KsKhQdJc"]}, "no 4-card hand"),
    ({"entries": ["AsAh2d3c", "AA**"], "dead": "AdAc"}, "no combination"),
    ({"entries": ["AsAh2d3c"]}, "at least 2"),
    ({"entries": ["AsAh2d3c", "KsKhQdJc"], "variant": "stud9"}, "unknown variant"),
    ({"entries": ["KsKh2d3c", "AA**"], "dead": "AdAcAh"}, "no hand left"),
    ({"entries": ["****"] * 12}, "do not fit"),
    ({"entries": ["AsAh2d3c", "Zz"]}, "range"),
    ({"entries": HANDS, "samples": 0}, "samples"),
    ({"entries": HANDS, "threads": 0}, "threads"),
    ({"entries": HANDS, "samples": 10, "seed": -1}, "seed"),
    ({"entries": ["AsAh**", "AsAh**"], "samples": 1000, "seed": 1}, "almost never"),
])
def test_bad_input_raises_omaha_error_naming_what(kwargs, match):
    with pytest.raises(omaha.OmahaError, match=match):
        equity(**kwargs)


@pytest.mark.parametrize("kwargs", [{"entries": "AsAh2d3cKsKhQdJc"}, {"entries": [HANDS[0], 5]},
                                    {"entries": HANDS, "samples": True},
                                    {"entries": HANDS, "exact": 1}])
def test_wrong_types_raise_type_error(kwargs):
    with pytest.raises(TypeError):
        equity(**kwargs)


def test_kernels_validate_their_own_input():
    with pytest.raises(TypeError):
        kernel.exact_counts([0, 1, 2, 3], 1, 4, b"", b"", False, False)
    with pytest.raises(omaha.OmahaError, match="0..51"):
        kernel.exact_counts(bytes([0, 1, 2, 60, 4, 5, 6, 7]), 2, 4, b"", b"", False, False)
    with pytest.raises(omaha.OmahaError, match="twice"):
        kernel.exact_counts(bytes([0, 1, 2, 3, 3, 5, 6, 7]), 2, 4, b"", b"", False, False)
    with pytest.raises(omaha.OmahaError, match="board"):
        kernel.exact_counts(bytes(range(8)), 2, 4, bytes([0, 9, 10]), b"", False, False)
    with pytest.raises(omaha.OmahaError):
        kernel.sample_counts([bytes(range(4)), bytes(range(4, 7))], 4, b"", b"", False, False,
                             1, 10, 0, 1)
    with pytest.raises(omaha.OmahaError):
        kernel.exact_counts(bytes(range(8)), 2, 3, b"", b"", False, False)
    with pytest.raises(omaha.OmahaError, match="not enough cards"):   # would never finish
        kernel.sample_counts([b"", b""], 4, b"", bytes(range(40)), False, False, 1, 10, 0, 1)


def test_cli_table_json_and_errors(capsys):
    assert main(["equity", *HANDS, "--board", "Kd7c4h", "--variant", "plo8"]) == 0
    out = capsys.readouterr().out
    assert "AsAh2d3c" in out and "820 deals, exact" in out and "low" in out
    assert main(["equity", "AA**:$ds", "****", "--samples", "20000", "--seed", "1",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deals"] == 20000 and data["exact"] is False and len(data["equity"]) == 2
    assert main(["equity", *HANDS, "--board", "Kd7c4h", "--dead", "Kd"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Kd" in err
    assert main(["equity", *HANDS, "--exact", "--dead", "2s", "--threads", "2"]) == 0


@pytest.mark.parametrize("name", ["equity.md", "ranges.md"])
def test_docs_pages_examples_run(name):
    import doctest
    import pathlib

    page = pathlib.Path(__file__).resolve().parent.parent / "docs" / name
    if not page.is_file():
        pytest.skip("docs/ is not beside the tests")
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_progress_reports_finished_deals_up_to_the_total():
    seen = []
    res = equity(HANDS, samples=1_200_000, seed=2, threads=2,
                 progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (1_200_000, 1_200_000) and len(seen) >= 2
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert res == equity(HANDS, samples=1_200_000, seed=2)
