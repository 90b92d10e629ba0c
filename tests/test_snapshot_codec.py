"""The snapshot codec (omaha.history.sealing): one envelope for every kind, stored snapshots still load.

The files under tests/data/snapshots were written by the release before the codec was made
one module; each must restore, and snapshot again to exactly the stored data.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from omaha.arena.messages import load_schema
from omaha.errors import SnapshotError
from omaha.game.clocked import ClockedHand
from omaha.game.hand import Hand
from omaha.game.rake import SEED_POT_LIMIT_RAKE
from omaha.game.table import Table
from omaha.history.sealing import (
    CLOCKED_HAND,
    HAND,
    REFUSALS,
    SNAPSHOT_FORMATS,
    TABLE,
    SnapshotFormat,
    opened,
    refusal,
    sealed,
    unsealed,
)
from omaha.history.snapshot import HAND_FORMAT, TABLE_FORMAT, loads_snapshot

STORED = Path(__file__).parent / "data" / "snapshots"
KEY = b"fixture key"


def stored(name: str) -> dict[str, Any]:
    data: dict[str, Any] = loads_snapshot((STORED / name).read_text(encoding="utf-8"))
    return data


def restore_hand(data: dict[str, Any], key: bytes | None) -> Any:
    return Hand.restore(data, key=key)


def restore_table(data: dict[str, Any], key: bytes | None) -> Any:
    return Table.restore(data, key=key)


def restore_clocked(data: dict[str, Any], key: bytes | None) -> Any:
    return ClockedHand.restore(data, key=key, rake=SEED_POT_LIMIT_RAKE)


CASES: list[tuple[str, SnapshotFormat, Callable[[dict[str, Any], bytes | None], Any],
                  bytes | None]] = [
    ("hand_turn.json", HAND, restore_hand, None),
    ("hand_turn_signed.json", HAND, restore_hand, KEY),
    ("hand_over_single_blind.json", HAND, restore_hand, None),
    ("table_mid_hand.json", TABLE, restore_table, None),
    ("table_mid_hand_signed.json", TABLE, restore_table, KEY),
    ("clocked_hand.json", CLOCKED_HAND, restore_clocked, None),
    ("clocked_hand_signed.json", CLOCKED_HAND, restore_clocked, KEY),
]


@pytest.mark.parametrize(("name", "form", "restore", "key"), CASES)
def test_stored_snapshots_restore_and_snapshot_again_unchanged(
        name: str, form: SnapshotFormat, restore: Callable[[dict[str, Any], bytes | None], Any],
        key: bytes | None) -> None:
    data = stored(name)
    assert data["format"] == form.name
    again = restore(data, key).snapshot(key=key)
    assert json.dumps(again, sort_keys=True) == json.dumps(data, sort_keys=True)


@pytest.mark.parametrize(("name", "form", "restore", "key"), CASES)
def test_stored_snapshots_are_refused_when_edited_or_keyed_wrong(
        name: str, form: SnapshotFormat, restore: Callable[[dict[str, Any], bytes | None], Any],
        key: bytes | None) -> None:
    data = stored(name)
    with pytest.raises(SnapshotError, match="signed"):
        restore(data, None if key else KEY)
    for retired in form.retired:
        with pytest.raises(SnapshotError, match=f"{retired} is no longer restored"):
            restore({**data, "format": retired}, key)
    with pytest.raises(SnapshotError, match=f"not a {form.what}"):
        restore({**data, "format": "omaha-other/9"}, key)
    with pytest.raises(SnapshotError, match=r"unknown fields \['extra'\]"):
        restore({**data, "extra": 1}, key)


def test_one_table_of_formats_behind_the_old_names() -> None:
    assert (HAND_FORMAT, TABLE_FORMAT) == (HAND.name, TABLE.name)
    assert {form.name for form in SNAPSHOT_FORMATS} == {
        "omaha-hand/2", "omaha-table/2", "omaha-clocked-hand/2"}
    for form in SNAPSHOT_FORMATS:
        assert {"format", "digest"}.isdisjoint(form.fields)


def test_the_arena_schema_describes_the_codecs_formats() -> None:
    defs = load_schema()["$defs"]
    for form, name in ((HAND, "hand_snapshot"), (TABLE, "table_snapshot")):
        assert defs[name]["properties"]["format"] == {"const": form.name}
        assert set(defs[name]["required"]) == form.fields | {"format", "digest"}


def test_the_envelope_is_written_and_checked_in_one_place() -> None:
    demo = SnapshotFormat("demo", "demo/1", frozenset({"n"}), ("demo/0",))
    with pytest.raises(SnapshotError, match=r"demo snapshot: missing fields \['n'\]"):
        sealed(demo, {"m": 1}, None)
    body = sealed(demo, {"n": 1}, KEY)
    assert list(body) == ["format", "n", "digest"]
    assert opened(body, demo, KEY) == body
    edited = {**body, "n": 2}
    assert unsealed(edited, demo, KEY) == edited   # the digest is left to check_digest
    with pytest.raises(SnapshotError, match="does not match"):
        opened(edited, demo, KEY)
    with pytest.raises(SnapshotError, match="a demo snapshot is a dict, got list"):
        opened([], demo, None)
    with pytest.raises(SnapshotError, match="non-empty bytes"):
        opened(body, demo, b"")


def test_every_refusal_is_worded_by_the_table() -> None:
    assert str(refusal("format", what="hand snapshot", found="x", expected="omaha-hand/2")) == (
        "not a hand snapshot (format 'x'; this version restores omaha-hand/2)")
    for code in REFUSALS:
        assert isinstance(refusal(code, **{name: "?" for name in _blanks(REFUSALS[code])}),
                          SnapshotError)


def _blanks(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]
