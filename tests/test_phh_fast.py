"""The compiled PHH fast path (omahacore.phhfast, issue 22) against the general path.

The fast path may decline any hand (None: the caller replays it with
:func:`omaha.phh.replay.replay_history`), but whenever it answers, the answer must be the
general path's: the same final stacks, in the same units. The main guard is differential:
hands the engine plays, written as PHH, replayed both ways; then the same texts mutated at
random, where the fast path must never crash and never answer a hand the general path
refuses; then the PHH files kept under tests/data.
"""

from __future__ import annotations

import pathlib
import random
import re
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omaha.config import GameConfig
from omaha.errors import HistoryError
from omaha.game.bots import RandomBot, StrengthBot, act, situation
from omaha.game.hand import Hand
from omaha.phh import dumps, loads
from omaha.phh.export import history_from_events
from omaha.phh.replay import replay_history
from omaha.phh.variants import VARIANTS, engine_variant
from omahacore.phhfast import FIELDS, replay_text

DATA = pathlib.Path(__file__).parent / "data"
CODES = sorted(VARIANTS)


def engine_hand_text(seed: int, code: str | None = None, players: int | None = None) -> str:
    """One hand played by bots through the engine, written as PHH (the export's fields)."""
    rng = random.Random(seed)
    code = code or rng.choice(CODES)
    game = VARIANTS[code]
    most = min(10, (52 - 8) // game.hole_cards)
    n = players or rng.randint(2, most)
    n = min(n, most)
    big = rng.choice((2, 4, 10, 100))
    options: dict[str, object] = {
        "variant": engine_variant(game),
        "structure": game.engine_structure,
        "ante": rng.choice((0, 0, 1, big // 2)),
        "big_blind_ante": rng.choice((0, 0, 0, big)),
    }
    # A single blind (small_blind=0) now and then, as tournament files have it.
    small = rng.choice((big // 2, big // 2, big, 0))
    if game.fixed_limit:
        options.update(small_bet=big, big_bet=2 * big, big_blind=big, small_blind=small)
    else:
        options.update(big_blind=big, small_blind=small)
    config = GameConfig(**options)  # type: ignore[arg-type]
    seats = sorted(rng.sample(range(1, 11), n))
    stacks = {seat: rng.choice((rng.randint(1, 3 * big), rng.randint(big, 300 * big)))
              for seat in seats}
    hand = Hand(config, stacks=stacks, button=rng.choice(seats), rng=rng)
    random_bot, strength_bot = RandomBot(), StrengthBot()
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        bot = random_bot if seat % 2 else strength_bot
        act(hand, bot.decide(situation(hand), rng))
    return dumps(history_from_events(hand.events))


def general(text: str | bytes) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    """The general path: (decimals, finishing stacks, deep players), or None when it refuses
    the hand or the history is partial."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = replay_history(loads(text))
    except (HistoryError, UnicodeDecodeError):
        return None
    if not result.complete:
        return None
    history = result.history
    return (getattr(history, "decimals", 0), result.finishing_stacks,
            tuple(getattr(history, "deep_players", ())))


def assert_agrees(data: bytes) -> bool:
    """The fast path answers only what the general path answers the same; True if it did."""
    fast = replay_text(data)
    if fast is None:
        return False
    slow = general(data)
    assert slow is not None, f"the fast path answered a hand the general path refuses:\n{data!r}"
    decimals, finishing, deep_mask, _, _ = fast
    slow_decimals, slow_finishing, deep = slow
    assert decimals == slow_decimals
    assert deep_mask == sum(1 << p for p in deep)
    live = [i for i in range(len(finishing)) if not deep_mask >> i & 1]
    assert [finishing[i] for i in live] == [slow_finishing[i] for i in live], data
    return True


# --- differential: engine hands --------------------------------------------------------------


def test_engine_hands_replay_the_same_and_nearly_all_fast() -> None:
    answered = 0
    count = 600
    for seed in range(count):
        text = engine_hand_text(seed)
        data = text.encode()
        fast = replay_text(data)
        if assert_agrees(data):
            answered += 1
            assert fast is not None
            assert fast[0] == 0 and fast[1] == fast[3]   # the engine's own finishing stacks
    assert answered > 0.95 * count, f"only {answered} of {count} hands took the fast path"


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), code=st.sampled_from(CODES), players=st.integers(2, 10))
def test_engine_hands_hypothesis(seed: int, code: str, players: int) -> None:
    data = engine_hand_text(seed, code, players).encode()
    assert assert_agrees(data), "an engine hand must take the fast path"


def test_every_variant_takes_the_fast_path() -> None:
    for code in CODES:
        for seed in range(8):
            data = engine_hand_text(1000 + seed, code).encode()
            assert assert_agrees(data), (code, data)


# --- mutations: never crash, never answer what the general path refuses ----------------------

_NUMBER = re.compile(rb"\d+(\.\d+)?")


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(engine_hand_text(draw(st.integers(0, 400))).encode())
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(("byte", "delete", "insert", "line", "swap", "number",
                                    "text")))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if how == "byte" and data:
            data[at] = draw(st.integers(0, 255))
        elif how == "delete":
            del data[at:at + draw(st.integers(1, 8))]
        elif how == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=6))
        elif how == "text":
            data[at:at] = draw(st.sampled_from((
                b"inf", b"+inf", b".5", b"0", b"-1", b"\\", b"#", b"'", b'"', b"\r\n", b"\n",
                b"[", b"]", b",", b"??", b" sm ", b" cc", b"_x = 1\n", b"p1 f", b"d db As",
                b"9223372036854775807", b"1e3", b"2.50", b" # note",
            )))
        elif how in ("line", "swap"):
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if how == "line":
                lines.insert(j, lines[i]) if draw(st.booleans()) else lines.pop(i)
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"\n".join(lines))
        else:
            numbers = list(_NUMBER.finditer(bytes(data)))
            if numbers:
                m = numbers[draw(st.integers(0, len(numbers) - 1))]
                new = draw(st.sampled_from((b"0", b"1", b"2", b"3", b"7", b"0.5", b"2.25", b"100",
                                            b"1000000", b"10.0", b"99999999999999999999")))
                data[m.start():m.end()] = new
    return bytes(data)


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=mutated())
def test_mutated_hands(data: bytes) -> None:
    assert_agrees(data)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.binary(max_size=300), start=st.integers(0, 300), end=st.integers(-1, 300))
def test_any_bytes_any_range(data: bytes, start: int, end: int) -> None:
    if not 0 <= start <= (len(data) if end == -1 else end) <= len(data):
        with pytest.raises(ValueError):
            replay_text(data, start, end)
        return
    result = replay_text(data, start, end)
    if result is not None:
        assert_agrees(data[start:None if end == -1 else end])


def test_ranges_and_types() -> None:
    text = engine_hand_text(3).encode()
    whole = replay_text(text)
    assert whole is not None
    padded = b"[7]\n" + text + b"\n[8]\n"
    assert replay_text(padded, 4, 4 + len(text)) == whole
    assert replay_text(padded) is None   # a table header is outside the subset
    with pytest.raises(TypeError):
        replay_text(text.decode())  # type: ignore[arg-type]


# --- the subset: what falls back, and decimals and inf -------------------------------------

BASE = (b'variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n'
        b'starting_stacks = [100, 100, 100]\n'
        b'actions = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 QcQd", "p3 cbr 6", "p1 f",\n'
        b'  "p2 cc", # a comment\n  "d db 2h3h4s", "p2 cc", "p3 cc", "d db 8c", "p2 cc",\n'
        b'  "p3 cc", "d db 9d", "p2 cc", "p3 cc", "p2 sm KcKd", "p3 sm QcQd",\n]\n')


def test_a_plain_hand_and_its_fallbacks() -> None:
    assert replay_text(BASE) == (0, (99, 107, 94), 0, None, 0)
    assert_agrees(BASE)
    for old, new in ((b'"NT"', b'"F7S"'), (b"min_bet = 2", b"min_bet = 3"),
                     (b'"p1 f"', b'"p1 f # why"'), (b"[1, 2, 0]", b"[1, 2, 4]"),
                     (b'"p2 cc", # a', b'"p2 cc", "p2 cc", # a'), (b'"NT"', b'"N\\u0054"'),
                     (b"min_bet = 2\n", b"min_bet = 2\n_rake = 1\n"),
                     (b"min_bet = 2\n", b"min_bet = 2\nmin_bet = 2\n"),
                     (b"[100, 100, 100]", b"[100, 100, 1e2]"),
                     (b'"d db 8c"', b'"d db 8c8d"'), (b'"d db 9d"', b'"d db 2h"'),
                     (b'"p3 sm QcQd"', b'"p3 sm Qc Qd"'), (b'"p1 f"', b'"p1 f f"'),
                     (b'"d db 8c"', b'"d db 8c 9c"'), (b'"p3 cbr 6"', b'"p3 cbr 6 7"')):
        changed = BASE.replace(old, new)
        assert changed != BASE
        assert replay_text(changed) is None, new
    # Unknown hole cards are filled from what the player shows; a showdown needs them all.
    unknown = BASE.replace(b'"d dh p3 QcQd"', b'"d dh p3 ??Qd"')
    assert replay_text(unknown) == replay_text(BASE.replace(b'"p3 sm QcQd"', b'"p3 sm ????"'))
    assert replay_text(unknown) == replay_text(BASE)
    assert replay_text(unknown.replace(b'"p3 sm QcQd"', b'"p3 sm"')) is None
    assert replay_text(unknown.replace(b'"p3 sm QcQd"', b'"p3 sm QcQh"')) is None


def test_decimals_and_finishing_stacks() -> None:
    text = BASE.replace(b"[1, 2, 0]", b"[0.5, 1, 0]").replace(b"min_bet = 2", b"min_bet = 1.00")
    text = text.replace(b"cbr 6", b"cbr 3.0") + b"finishing_stacks = [99.50, 103.5, 97]\n"
    assert replay_text(text) == (1, (995, 1035, 970), 0, (995, 1035, 970), 0)
    assert_agrees(text)


def test_decimals_of_bet_amounts() -> None:
    text = BASE.replace(b"cbr 6", b"cbr 6.25")
    assert replay_text(text) == (2, (9900, 10725, 9375), 0, None, 0)
    assert_agrees(text)
    assert_agrees(BASE.replace(b'"p3 cbr 6"', b'"  p3  cbr   6.25 "'))
    # The general path finds the amounts that set the decimals by " cbr ": a tab falls back.
    assert replay_text(BASE.replace(b"p3 cbr 6", b"p3\tcbr 6.25")) is None
    assert replay_text(BASE.replace(b"cbr 6", b"cbr 6.1234567890123456789")) is None


def test_inf_stacks() -> None:
    text = BASE.replace(b"[100, 100, 100]", b"[100, inf, +inf]")
    result = replay_text(text)
    assert result is not None and result[2] == 0b110 and result[1][0] == 99
    assert_agrees(text)
    assert replay_text(text + b"finishing_stacks = [99, inf, inf]\n") is not None
    assert replay_text(text + b"finishing_stacks = [99, 7, inf]\n") is None   # inf finishes inf


def test_metadata_is_checked_like_the_general_path() -> None:
    good = (b"day = 29\nmonth = 2\nyear = 2024\nseats = [4, 7, 2]\nseat_count = 8\n"
            b"players = ['a', \"b\", 'c\xc3\xa9']\nhand = -5\ntable = 'T'\nlevel = 3\n"
            b"ante_trimming_status = true\nauthor = 'x'\ntime = 23:59:09.5\ntime_zone = 'ET'\n")
    assert replay_text(BASE + good) is not None
    assert_agrees(BASE + good)
    for bad in (b"day = 29\nmonth = 2\nyear = 2023\n", b"day = 0\n", b"month = 13\n",
                b"seats = [4, 7, 7]\n", b"seats = [4, 2, 7]\n", b"seats = [4, 7, 9]\nseat_count = 8\n",
                b"seat_count = 2\n", b"players = ['a', 'b']\n", b"players = ['a', 'b', 1]\n",
                b"level = -1\n", b"hand = 1.5\n", b"ante_trimming_status = 1\n", b"author = 1\n",
                b"time_limit = 5\n", b"time = 24:00:00\n", b"time = 10:00\n", b"time = '10:00:00'\n",
                b"time = 1979-05-27T07:32:00\n", b"players = ['\xff', 'b', 'c']\n", b"city = 'a\x01b'\n"):
        assert replay_text(BASE + bad) is None, bad
        assert general(BASE + bad) is None or bad in (b"time_limit = 5\n",), bad


def test_module_examples() -> None:
    import doctest

    import omahacore.phhfast

    result = doctest.testmod(omahacore.phhfast)
    assert result.attempted and not result.failed


def test_fields_tuple() -> None:
    assert b"actions" in FIELDS and b"_rake" not in FIELDS and len(set(FIELDS)) == len(FIELDS)


# --- the files kept under tests/data ------------------------------------------------------


def _sections(path: pathlib.Path) -> list[bytes]:
    data = path.read_bytes()
    if path.suffix == ".phh":
        return [data]
    parts = re.split(rb"^[ \t]*\[[^\]\r\n]*\][ \t]*\r?\n", data, flags=re.MULTILINE)
    return parts[1:]


@pytest.mark.parametrize("path", sorted(DATA.rglob("*.phh*")), ids=lambda p: p.name)
def test_data_files_give_their_finishing_stacks(path: pathlib.Path) -> None:
    for section in _sections(path):
        result = replay_text(section)
        if result is None:
            continue
        assert_agrees(section)
        _, finishing, deep_mask, expected, _ = result
        if expected is None:
            continue
        live = [i for i in range(len(finishing)) if not deep_mask >> i & 1]
        assert [finishing[i] for i in live] == [expected[i] for i in live]
