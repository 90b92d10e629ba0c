"""The Python face of ``omahacore.pots``: input validation, result objects, batch arrays."""

from __future__ import annotations

import doctest
import json
import pickle
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import omahacore.pots
from omahacore import ArrayError, PotError
from omahacore.pots import PotAward, PotLayer, Settlement, build_pots, settle, settle_batch

F, L = True, False


def example() -> Settlement:
    return settle([20, 100, 100, 60], [L, L, L, F], high=[9, 5, 5, 0], low=[3, 3, 0, 0],
                  order=[2, 3, 0, 1], rake=7)


# ---------------------------------------------------------------- input validation

def call(**changes: Any) -> dict[str, Any]:
    """Arguments of a valid two-player settle() call, with `changes` applied."""
    return {"contributions": [10, 10], "folded": [L, L], "high": [1, 2], **changes}


@pytest.mark.parametrize(("kwargs", "message"), [
    (call(contributions=[10, -1]), r"contributions\[1\] = -1"),
    (call(folded=[L]), "folded has 1 entries"),
    (call(high=[1]), "high has 1 entries"),
    (call(low=[1, 2, 3]), "low has 3"),
    (call(order=[0]), "order has 1"),
    (call(order=[0, 0]), "permutation"),
    (call(order=[1, 2]), "permutation"),
    (call(order=[-1, 0]), "permutation"),
    (call(low=[-1, 0]), r"low\[0\] = -1"),
    (call(rake=-1), "rake -1"),
    (call(rake=21), "rake 21"),
    (call(rake=1.0), "rake must be an int"),
    (call(contributions=[], folded=[], high=[]), "1 to 64 players, got 0"),
    (call(contributions=[0] * 65, folded=[L] * 65, high=[0] * 65), "got 65"),
    (call(contributions=[1.5, 2]), "must be an int, got float"),
    (call(contributions=[True, 2]), "must be an int, got bool"),
    (call(contributions=["5", 2]), "must be an int, got str"),
    (call(contributions=[2**63, 2]), "64-bit"),
    (call(contributions=[2**62, 2**62]), "more than 2"),
    (call(high=[2**31, 2]), "32-bit"),
    (call(low=[0, -(2**31) - 1]), "32-bit"),
    (call(folded=[L, "no"]), r"folded\[1\] must be a bool"),
    (call(folded=[L, 2]), r"folded\[1\] must be a bool"),
    (call(contributions=5), "must be a sequence"),
    (call(contributions="12"), "must be a sequence"),
    (call(contributions={1: 2}), "must be a sequence"),
    (call(high={1, 2}), "must be a sequence"),
])
def test_bad_input_raises_pot_error_naming_the_problem(kwargs: dict[str, Any],
                                                       message: str) -> None:
    with pytest.raises(PotError, match=message):
        settle(**kwargs)


def test_pot_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        settle([1, -1], [L, L], [0, 0])


def test_inputs_are_left_untouched_on_success_and_failure() -> None:
    args: list[list[Any]] = [[30, 50, 50], [L, L, F], [3, 2, 0], [1, 0, 0]]
    copies = [list(a) for a in args]
    settle(*args, order=[2, 0, 1], rake=3)
    with pytest.raises(PotError):
        settle(*args, rake=999)
    assert args == copies


def test_other_sequences_and_numpy_values_are_read() -> None:
    expected = settle([30, 50, 50], [L, L, F], [3, 2, 0], order=[2, 0, 1])
    assert settle((30, 50, 50), (L, L, F), range(3, 0, -1), order=(2, 0, 1)).payouts == \
        settle([30, 50, 50], [L, L, F], [3, 2, 1], order=[2, 0, 1]).payouts
    got = settle(np.array([30, 50, 50]), np.array([L, L, F]), np.array([3, 2, 0], np.int32),
                 order=np.array([2, 0, 1]), rake=np.int64(0))
    assert got == expected
    assert settle(iter([30, 50, 50]), iter([L, L, F]), iter([3, 2, 0])) == \
        settle([30, 50, 50], [L, L, F], [3, 2, 0])
    assert build_pots(iter([30, 50, 50]), iter([L, L, F])) == build_pots([30, 50, 50], [L, L, F])
    folded_np = [np.bool_(L), np.bool_(F), np.bool_(L)]
    assert settle([30, 50, 50], folded_np, [3, 2, 0]) == settle([30, 50, 50], [L, F, L], [3, 2, 0])
    mixed = settle([np.int64(30), 50, np.int32(50)], [0, 1, 0], [3, 2, 0])
    assert mixed.payouts == settle([30, 50, 50], [L, F, L], [3, 2, 0]).payouts


def test_one_player_gets_everything_back() -> None:
    s = settle([40], [L], [0])
    assert s.payouts == (40,) and s.returned == (40,) and s.pots == ()


def test_build_pots_validates_like_settle() -> None:
    with pytest.raises(PotError, match="folded has"):
        build_pots([1, 2], [L])
    with pytest.raises(PotError, match="nobody can win"):
        build_pots([5, 5], [F, F])


# ---------------------------------------------------------------- result objects

def test_results_are_immutable() -> None:
    s = example()
    pot = s.pots[0]
    layer = build_pots([1, 1], [L, L])[0][0]
    for obj, name in ((s, "payouts"), (s, "rake"), (pot, "amount"), (pot, "high_shares"),
                      (layer, "eligible")):
        with pytest.raises(AttributeError):
            setattr(obj, name, 0)
    with pytest.raises(TypeError, match="immutable"):
        s.__init__(pots=(), payouts=(1,), returned=(1,), rake=0, total=1)
    with pytest.raises(TypeError, match="immutable"):
        pot.__init__(amount=1, rake=0, eligible=(0,), high_winners=(0,),
                     high_shares=(1,))
    assert s == example()


def test_reprs_paste_back() -> None:
    s = example()
    namespace = {"Settlement": Settlement, "PotAward": PotAward, "PotLayer": PotLayer}
    assert eval(repr(s), namespace) == s
    layer = build_pots([10, 30], [L, L])[0][0]
    assert eval(repr(layer), namespace) == layer
    assert repr(layer) == "PotLayer(amount=20, eligible=(0, 1))"


def test_to_dict_is_json_and_round_trips() -> None:
    s = example()
    data = json.loads(json.dumps(s.to_dict()))
    assert Settlement.from_dict(data) == s
    assert data["payouts"] == list(s.payouts) and data["rake"] == 7
    assert PotAward.from_dict(data["pots"][0]) == s.pots[0]
    layer = build_pots([10, 30], [L, L])[0][0]
    assert PotLayer.from_dict(json.loads(json.dumps(layer.to_dict()))) == layer


def test_pickle_and_hash() -> None:
    s = example()
    assert pickle.loads(pickle.dumps(s)) == s
    assert pickle.loads(pickle.dumps(s.pots[1])) == s.pots[1]
    assert hash(s) == hash(example()) and len({s, example()}) == 1
    assert s != settle([20, 100, 100, 60], [L, L, L, F], high=[9, 5, 5, 0])
    assert s != "Settlement" and s.pots[0] != 1


def test_share_of_adds_both_halves() -> None:
    s = settle([40, 40, 40], [L, L, F], high=[9, 2, 0], low=[5, 5, 0])
    assert [s.pots[0].share_of(p) for p in range(3)] == [90, 30, 0]


@pytest.mark.parametrize("change", [
    {"payouts": [0, 0, 0, 0]},
    {"rake": 6},
    {"total": 281},
    {"returned": [1, 0, 0, 0]},
    {"payouts": [0, 0]},
    {"pots": ["pot"]},
])
def test_settlement_built_by_hand_must_add_up(change: dict[str, Any]) -> None:
    data = {**example().to_dict(), **change}
    with pytest.raises(PotError):
        Settlement.from_dict(data)


@pytest.mark.parametrize("change", [
    {"rake": 999}, {"high_winners": [7]}, {"high_shares": [1]}, {"eligible": [2, 1]},
    {"high_winners": []}, {"amount": -5}, {"low_shares": [True]},
])
def test_pot_award_built_by_hand_must_add_up(change: dict[str, Any]) -> None:
    data = {**example().pots[0].to_dict(), **change}
    with pytest.raises(PotError):
        PotAward.from_dict(data)


def test_from_dict_rejects_missing_and_unknown_keys() -> None:
    with pytest.raises(PotError, match="missing keys"):
        PotLayer.from_dict({"amount": 3})
    with pytest.raises(PotError, match="unknown keys"):
        PotLayer.from_dict({"amount": 3, "eligible": [0], "extra": 1})
    with pytest.raises(PotError, match="needs a dict"):
        Settlement.from_dict([])  # type: ignore[arg-type]


# ---------------------------------------------------------------- batch entry point

def batch_args(m: int = 3) -> dict[str, Any]:
    return {"contributions": np.tile(np.array([20, 100, 100, 60], np.int64), (m, 1)),
            "folded": np.tile(np.array([L, L, L, F]), (m, 1)),
            "high": np.tile(np.array([9, 5, 5, 0], np.int32), (m, 1)),
            "low": np.tile(np.array([3, 3, 0, 0], np.int32), (m, 1)),
            "order": np.array([2, 3, 0, 1]), "rake": np.full(m, 7, np.int64)}


def test_batch_defaults_and_shared_order() -> None:
    pay, taken = settle_batch(**batch_args())
    assert pay.dtype == np.int64 and pay.tolist() == [list(example().payouts)] * 3
    assert taken.tolist() == [7, 7, 7]
    args = batch_args(2)
    pay, taken = settle_batch(args["contributions"], args["folded"], args["high"])
    hi_only = settle([20, 100, 100, 60], [L, L, L, F], high=[9, 5, 5, 0])
    assert pay.tolist() == [list(hi_only.payouts)] * 2 and taken.tolist() == [0, 0]


def test_batch_of_zero_hands() -> None:
    args = {k: v[:0] if k not in ("order",) else v for k, v in batch_args().items()}
    pay, taken = settle_batch(**args)
    assert pay.shape == (0, 4) and taken.shape == (0,)


def test_batch_accepts_read_only_and_strided_arrays() -> None:
    args = batch_args(4)
    args["contributions"].setflags(write=False)
    args["high"] = np.asfortranarray(args["high"])
    args["order"] = np.array([[2, 3, 0, 1]] * 4, np.int32)
    pay, _ = settle_batch(**args)
    assert pay.tolist() == [list(example().payouts)] * 4


@pytest.mark.parametrize(("change", "message"), [
    ({"contributions": [[20, 100]]}, "2-D numpy array"),
    ({"contributions": np.zeros((3, 4), np.int32)}, "contributions must have dtype int64"),
    ({"contributions": np.zeros((3, 65), np.int64)}, "1 to 64 columns"),
    ({"folded": np.zeros((3, 4), np.int64)}, "folded must have dtype bool"),
    ({"high": np.zeros((3, 4), np.int64)}, "high must have dtype int32"),
    ({"high": np.zeros((3, 5), np.int32)}, "high must have shape"),
    ({"low": np.zeros((2, 4), np.int32)}, "low must have shape"),
    ({"order": np.array([0, 1, 2])}, "order must be an integer numpy array"),
    ({"order": np.array([0.0, 1, 2, 3])}, "order must be an integer numpy array"),
    ({"order": np.array([0, 1, 2, 2])}, "row 0: order must be a permutation"),
    ({"rake": np.array([7, 7, 999])}, "row 2: rake 999"),
    ({"rake": np.array([7, 7], np.int64)}, "rake must have shape"),
    ({"rake": [7, 7, 7]}, "rake must be a numpy array"),
])
def test_batch_validation_raises_array_error(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ArrayError, match=message):
        settle_batch(**{**batch_args(), **change})


def test_batch_value_errors_name_the_row() -> None:
    args = batch_args()
    args["contributions"] = args["contributions"].copy()
    args["contributions"][1, 2] = -4
    with pytest.raises(ArrayError, match=r"row 1: contributions\[2\] = -4"):
        settle_batch(**args)
    args = batch_args()
    args["low"] = args["low"].copy()
    args["low"][2, 0] = -1
    with pytest.raises(ArrayError, match=r"row 2: low\[0\] = -1"):
        settle_batch(**args)
    args = batch_args()
    args["folded"] = np.ones((3, 4), bool)
    with pytest.raises(ArrayError, match="row 0: every player folded"):
        settle_batch(**args)


# ---------------------------------------------------------------- module hygiene

def test_import_does_not_pull_in_numpy() -> None:
    code = "import sys, omahacore.pots; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_docstring_examples_run() -> None:
    failed, attempted = doctest.testmod(omahacore.pots)
    assert failed == 0 and attempted > 10
