"""Issue 21, class 4: the shipped JSON Schema and the server's parser give the same verdict
on every client message, valid or mutated (the same cases run through both)."""

import dataclasses
import json

import pytest

jsonschema = pytest.importorskip("jsonschema")
from hypothesis import given
from hypothesis import strategies as st

from omaha.arena import load_schema
from omaha.arena.messages import (
    MAX_INT,
    NAME_FORBIDDEN,
    Ping,
    ProtocolError,
    Tables,
    parse_client_message,
)

CLIENT = jsonschema.Draft202012Validator(
    {**{k: v for k, v in load_schema().items() if k != "oneOf"}, "$ref": "#/$defs/client_message"})

VALID = [
    {"type": "join", "name": "ann"},
    {"type": "join", "name": "ünïcode ♠ 名前", "table": 2, "token": "k" * 40},
    {"type": "join", "name": "a b", "table": None, "token": None},
    {"type": "resume", "token": "t" * 43, "last_seq": 0},
    {"type": "act", "action": "fold"},
    {"type": "act", "action": "bet_or_raise", "to": 12, "hand": 3, "seat": 2},
    {"type": "act", "action": "check_or_call", "to": None, "hand": None, "seat": None},
    {"type": "act", "action": "call", "decision": 812},
    {"type": "act", "action": "fold", "hand": 2, "decision": None},
    {"type": "leave", "token": "forged"},
    {"type": "watch", "table": 1},
    {"type": "watch", "table": 1, "last_seq": None},
    {"type": "watch", "table": 3, "last_seq": 7},
    {"type": "tables"},
    {"type": "history", "table": 1},
    {"type": "history", "table": 2, "before": 40, "limit": 20},
    {"type": "history", "table": 2, "before": None, "limit": None},
    {"type": "ping"},
]

ODD_VALUES = [None, True, False, 0, 1, -1, 2, 1.0, 2.5, -0.0, 1e308, float("nan"),
              float("inf"), MAX_INT, MAX_INT + 1, 2**64, 10**30, "", "x", "1", "ann\n", " ",
              "\ud800", "a\udfffb", "k" * 31, "k" * 32, "k" * 128, "k" * 129, "é" * 32,
              "é" * 33, "\u200b", "a\u2028b", "\x7f", "\u00a0", "name\u202e", "😀" * 5,
              "k" * 39 + "=", [], {}, ["fold"], {"a": 1}, "fold", "bet_or_raise", "raise",
              "join", "ping", "tables"]


def verdicts(message):
    """(parser accepts, schema accepts) for one message sent as JSON text."""
    text = json.dumps(message)
    try:
        parse_client_message(text)
        parsed = True
    except ProtocolError:
        parsed = False
    try:
        data = json.loads(text)
    except ValueError:
        return parsed, False
    return parsed, CLIENT.is_valid(data)


def mutations():
    for message in VALID:
        fields = ["type", "name", "table", "token", "last_seq", "action", "to", "hand", "seat",
                  "decision", "before", "limit"]
        for field in fields:
            if field in message:
                yield {k: v for k, v in message.items() if k != field}
            for value in ODD_VALUES:
                yield {**message, field: value}
        yield {**message, "extra": 1}


@pytest.mark.parametrize("message", VALID, ids=lambda m: m["type"])
def test_valid_messages_pass_both(message):
    assert verdicts(message) == (True, True)


def test_parser_and_schema_agree_on_every_mutation():
    disagree = [(m, v) for m in mutations() if (v := verdicts(m))[0] != v[1]]
    assert not disagree, disagree[:10]


def test_the_schema_name_rule_is_the_parsers():
    join = next(o for o in load_schema()["$defs"]["client_message"]["oneOf"]
                if o["properties"]["type"] == {"const": "join"})
    assert join["properties"]["name"]["not"]["pattern"] == NAME_FORBIDDEN


KEYS = st.sampled_from(["type", "name", "table", "token", "last_seq", "action", "to", "hand",
                        "seat", "decision", "before", "limit", "x"])
VALUES = st.one_of(st.sampled_from(ODD_VALUES), st.integers(-5, 2**54), st.text(max_size=40),
                   st.floats(allow_nan=False),
                   st.sampled_from(["join", "resume", "act", "leave", "watch", "tables", "history",
                                    "ping"]))


@given(st.dictionaries(KEYS, VALUES, max_size=6),
       st.sampled_from(["join", "resume", "act", "leave", "watch", "tables", "history", "ping",
                        None]))
def test_parser_and_schema_agree_on_random_messages(message, kind):
    if kind is not None:
        message = {**message, "type": kind}
    parsed, valid = verdicts(message)
    assert parsed == valid, message


FRAME_TEXT = st.one_of(
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=200),
    st.builds(json.dumps, st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20)),
        lambda inner: st.one_of(st.lists(inner, max_size=4),
                                st.dictionaries(st.text(max_size=8), inner, max_size=4)),
        max_leaves=20)),
    st.builds(lambda d, o: o[0] * d + "1" + o[1] * d, st.integers(0, 3000),
              st.sampled_from([("[", "]"), ('{"a":', "}")])))


@given(st.one_of(FRAME_TEXT, st.binary(max_size=100)))
def test_any_frame_is_parsed_or_refused_with_a_protocol_error(frame):
    """The one validation entry: any text or binary frame (lone surrogates, deep nesting,
    huge numbers included) is a message or a ProtocolError, and an accepted message holds
    only text that encodes (so it can be hashed and stored)."""
    try:
        message = parse_client_message(frame)
    except ProtocolError as exc:
        assert exc.code in ("bad_json", "bad_message", "unknown_type")
        return
    for value in dataclasses.astuple(message):
        if isinstance(value, str):
            value.encode("utf-8")


@pytest.mark.parametrize("field", ["table", "token", "owner", "last_seq", "x"])
@pytest.mark.parametrize("value", [None, 1, "", {}])
def test_tables_takes_no_field(field, value):
    """``tables`` (protocol 3) has no field at all: any field is refused by both, as the
    other messages' unknown fields are."""
    assert verdicts({"type": "tables", field: value}) == (False, False)
    with pytest.raises(ProtocolError, match="unknown fields in tables"):
        parse_client_message(json.dumps({"type": "tables", field: value}))


def test_tables_parses_to_its_message():
    assert parse_client_message('{"type": "tables"}') == Tables()
    assert parse_client_message('{"type": "tables"}') != Ping()
