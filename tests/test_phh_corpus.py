"""Corpus replay (issue 22): real hand histories hand by hand, decimals, inf, ????, per-hand
results, the fast path against the general path, processes, and the command line."""

from __future__ import annotations

import dataclasses
import json
import pathlib
import random
import re
import subprocess
import sys
import warnings
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omaha.config import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, GameConfig
from omaha.game.bots import RandomBot, act, situation
from omaha.game.hand import Hand
from omaha.phh import corpus, dumps, loads
from omaha.phh.amounts import DEEP_STACK, in_units
from omaha.phh.corpus import HandReport, iter_sections, replay_files, replay_section
from omaha.phh.export import history_from_events
from omaha.phh.replay import replay_history
from omaha.phh.variants import NOT_PLAYED

DATA = pathlib.Path(__file__).parent / "data" / "corpus"
FILES = sorted(DATA.glob("*.phh*"))


def reports(*paths: pathlib.Path, jobs: int = 1) -> list[HandReport]:
    return list(replay_files(paths, jobs=jobs))


def by_hand(path: pathlib.Path) -> dict[str | None, HandReport]:
    return {r.hand: r for r in reports(path)}


# --- the committed excerpts -----------------------------------------------------------------


def test_every_excerpt_with_finishing_stacks_matches_them():
    seen = 0
    for report in reports(*FILES):
        if report.expected_stacks is not None:
            seen += 1
            assert report.result == "matched", report
            assert report.finishing_stacks == report.expected_stacks
    assert seen >= 7


def test_decimal_stacks_come_back_in_the_files_units():
    hands = by_hand(DATA / "pluribus_88_128.phh")
    assert hands[None].finishing_stacks == (9950, 9475, 10000, Decimal("10287.5"), 10000,
                                           Decimal("10287.5"))
    abs_hands = by_hand(DATA / "handhq_abs_excerpt.phhs")
    # p1 raised to 3.00 and took the blinds: 200.30 + 1 (the big blind) = 201.3
    assert abs_hands["1"].finishing_stacks == (Decimal("201.3"), Decimal("80.6"), 197)
    assert sum(abs_hands["6"].finishing_stacks) == sum(
        Decimal(x) for x in ("53", "181.85", "200.30", "205.40"))   # chips conserved


def test_inf_stacks_replay_deeper_than_anything_and_report_inf():
    hands = by_hand(DATA / "handhq_ipoker_excerpt.phhs")
    assert hands["3"].result == "replayed"
    assert hands["3"].finishing_stacks == (float("inf"),) * 6
    assert hands["22"].result == "replayed"   # ends after the river card: a partial hand
    hh = loads((DATA / "handhq_ipoker_excerpt.phhs").read_text().split("[3]")[1].split("[9]")[0])
    assert hh.deep_players == tuple(range(6)) and set(hh.starting_stacks) == {DEEP_STACK}
    assert "starting_stacks = [inf, inf, inf, inf, inf, inf]" in dumps(hh)


def test_unknown_cards_that_decide_a_showdown_make_the_hand_unevaluable_not_invalid():
    hands = by_hand(DATA / "handhq_ipoker_excerpt.phhs")
    assert hands["1"].result == "unevaluable"
    assert "hole cards of p2" in hands["1"].error
    assert hands["9"].result == "replayed"   # ???? everywhere, but nobody shows down
    assert by_hand(DATA / "handhq_abs_excerpt.phhs")["2"].result == "unevaluable"


def test_a_single_blind_fixed_limit_hand_replays():
    report = by_hand(DATA / "wsop2023_43_5_76_fo8_single_blind.phh")[None]
    assert report.result == "matched"


def test_e1_a_stud_hand_replays_through_the_stud_engine():
    """A PokerKit-written WSOP seven-card stud hand (issue 26): matched."""
    report = by_hand(DATA / "wsop2023_43_5_9_stud.phh")[None]
    assert report.result == "matched", report.error
    assert report.finishing_stacks == (2600000, 11250000, 4475000, 6675000, 4700000)


def test_a_game_the_package_does_not_play_is_unsupported(tmp_path):
    path = tmp_path / "badugi.phh"
    path.write_text('variant = "FB"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n'
                    'small_bet = 2\nbig_bet = 4\nstarting_stacks = [50, 50]\nactions = []\n')
    report = by_hand(path)[None]
    assert report.result == "unsupported" and "badugi" in report.error


def test_one_broken_hand_does_not_stop_the_file():
    got = [(r.hand, r.result) for r in reports(DATA / "pluribus_with_one_broken_hand.phhs")]
    assert got == [("1", "matched"), ("2", "invalid"), ("3", "matched"), ("4", "matched")]
    bad = by_hand(DATA / "pluribus_with_one_broken_hand.phhs")["2"]
    assert "[2] actions[6] 'p3 cbr 1'" in bad.error and "B4" in bad.error


def test_the_fast_path_and_the_general_path_agree_on_every_excerpt():
    for path in FILES:
        for hand, text in iter_sections(path):
            fast = replay_section(str(path), hand, text)
            general = corpus._general_report(str(path), hand, text)
            assert fast == general, (path, hand)


def test_processes_give_the_same_reports_in_the_same_order():
    assert reports(*FILES, jobs=2) == reports(*FILES)


# --- bad input, per hand --------------------------------------------------------------------


def _pluribus(n: int) -> str:
    return (DATA / "pluribus_100_0.phh").read_text() if n == 0 else \
        (DATA / "pluribus_88_128.phh").read_text()


HEAD = b"variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        (b"variant = 'NT'\nantes = [0, 0\n", "bad TOML"),                       # truncated
        (b"variant = 'NT'\nplayers = ['\xff\xfe']\n", "not UTF-8"),             # non-UTF-8
        (b"x = " + b"[" * 100 + b"]" * 100 + b"\n", "nested deeper"),           # deep nesting
        (HEAD + b"starting_stacks = [5e18, 5e18]\nactions = []\n", "2**63-1"),     # int64
        (HEAD.replace(b"[1, 2]", b"[0.000000001, 2]")                              # scaled
         + b"starting_stacks = [9223372036, 1]\nactions = []\n", "2**63-1"),
        (HEAD + b"starting_stacks = [100, 100]\nactions = ['p1 cbr 50']\n", "p2's turn"),
    ],
)
def test_each_bad_hand_is_refused_by_name_and_the_next_replays(tmp_path, bad, words):
    good = _pluribus(0).encode()
    path = tmp_path / "mixed.phhs"
    path.write_bytes(b"[1]\n" + good + b"\n[2]\n" + bad + b"\n[3]\n" + good)
    got = reports(path)
    assert [r.result for r in got] == ["matched", "invalid", "matched"]
    assert f"{path} [2]" in got[1].error and words in got[1].error, got[1].error


def test_a_hand_past_the_size_limit_is_refused_without_reading_it_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(corpus, "MAX_PHH_BYTES", 4096)
    monkeypatch.setattr(corpus, "_IN_MEMORY", 1024)   # a big file: streamed line by line
    good = _pluribus(0)
    path = tmp_path / "big.phhs"
    path.write_text("[1]\n" + good + "_pad = '" + "x" * 100_000 + "'\n[2]\n" + good)
    (first, text), (second, _) = iter_sections(path)
    assert (first, second) == ("1", "2") and len(text) < 4096 + 70_000
    got = reports(path)
    assert [r.result for r in got] == ["invalid", "matched"]
    assert "larger than the limit of 4096 bytes" in got[0].error


def test_small_files_split_in_memory_exactly_as_big_ones_stream(tmp_path, monkeypatch):
    odd = tmp_path / "odd.phhs"   # comments first, quoted and indented headers, CRLF, no \n
    odd.write_bytes(b"# a collection\n\n  [\"hand one\"]  # first\r\n"
                    + _pluribus(0).encode() + b"\n[2]\n" + _pluribus(1).encode().rstrip())
    for path in [*FILES, odd]:
        whole = list(iter_sections(path))
        for chunk in (7, 100, 1 << 20):   # blocks end inside lines, headers, sections
            monkeypatch.setattr(corpus, "_IN_MEMORY", 0)
            monkeypatch.setattr(corpus, "_CHUNK", chunk)
            assert list(iter_sections(path)) == whole, (path, chunk)
            monkeypatch.undo()
    assert [name for name, _ in iter_sections(odd)] == ["hand one", "2"]
    long_comment = tmp_path / "long.phhs"   # a first line longer than any block
    long_comment.write_bytes(b"#" + b"x" * 200_000 + b"\n[1]\n" + _pluribus(0).encode() + b"\n")
    monkeypatch.setattr(corpus, "_IN_MEMORY", 0)
    monkeypatch.setattr(corpus, "_CHUNK", 4096)
    assert [name for name, _ in iter_sections(long_comment)] == ["1"]


def test_an_unreadable_file_is_one_invalid_report_and_the_rest_go_on(tmp_path):
    got = reports(tmp_path / "missing.phh", DATA / "pluribus_100_0.phh")
    assert [(r.hand, r.result) for r in got] == [(None, "invalid"), (None, "matched")]
    assert "cannot read the file" in got[0].error
    assert got[0].unreadable and not got[1].unreadable
    broken = tmp_path / "broken.phh"   # a file read but not valid: an invalid hand, readable
    broken.write_text("variant = 'PO'\nantes = [0, 0\n")
    assert not reports(broken)[0].unreadable


# --- round trips: decimals and inf out as they came in --------------------------------------


CONFIGS = [
    GameConfig(structure=POT_LIMIT, small_blind=1, big_blind=2),
    GameConfig(structure=NO_LIMIT, small_blind=1, big_blind=2, variant="holdem"),
    GameConfig(structure=FIXED_LIMIT, small_bet=2, variant="omaha8"),
]


def _played(seed: int, config: GameConfig, players: int):
    rng = random.Random(seed)
    stacks = {seat: rng.randrange(20, 400) for seat in range(1, players + 1)}
    hand = Hand(config, stacks=stacks, button=rng.choice(list(stacks)), rng=rng)
    bot = RandomBot()
    while not hand.is_over:
        act(hand, bot.decide(situation(hand), rng))
    return hand


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), config=st.sampled_from(CONFIGS), players=st.integers(2, 9),
       decimals=st.integers(0, 4))
def test_any_engine_hand_written_in_decimal_units_replays_to_the_same_stacks(
        seed, config, players, decimals):
    hand = _played(seed, config, players)
    engine = history_from_events(hand.events)
    # the same hand with every amount in units of 10**-decimals: the fields by `decimals`,
    # the cbr amounts rewritten in those units
    actions = [re.sub(r"cbr (\d+)", lambda m: f"cbr {in_units(int(m[1]), decimals)}", a)
               for a in engine.actions]
    history = dataclasses.replace(engine, decimals=decimals, actions=actions)
    text = dumps(history)
    back = loads(text)
    assert back.decimals <= decimals   # trailing zeros dropped: the smallest unit used
    result = replay_history(back)
    written = [Decimal(chips).scaleb(-decimals) for chips in history.finishing_stacks]
    assert [Decimal(x) for x in result.stacks_in_units()] == written
    report = replay_section("t.phh", None, text.encode())
    assert report.result == "matched"
    assert [Decimal(x) for x in report.finishing_stacks] == written


# --- the command line -------------------------------------------------------------------


def omaha(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "omaha", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_cli_json_gives_one_object_per_hand_with_exact_decimals():
    run = omaha("replay", "--json", str(DATA / "pluribus_88_128.phh"),
                str(DATA / "pluribus_with_one_broken_hand.phhs"))
    assert run.returncode == 2
    lines = [json.loads(line, parse_float=Decimal) for line in run.stdout.splitlines()]
    assert [(x["hand"], x["result"], x["ok"]) for x in lines] == [
        (None, "matched", True), ("1", "matched", True), ("2", "invalid", False),
        ("3", "matched", True), ("4", "matched", True)]
    assert lines[0]["finishing_stacks"][3] == Decimal("10287.5")
    assert '"finishing_stacks": [9950, 9475, 10000, 10287.5, 10000, 10287.5]' in run.stdout
    assert lines[2]["error"].endswith("B4: minimum raise is to 200, got 1")
    assert lines[2]["finishing_stacks"] is None


def test_cli_quiet_prints_only_the_summary_and_jobs_keep_the_order():
    files = [str(p) for p in FILES]
    quiet = omaha("replay", "--quiet", *files)
    assert len(quiet.stdout.splitlines()) == 1
    assert "2 unevaluable" in quiet.stdout and "unsupported" not in quiet.stdout
    one, two = omaha("replay", "--json", *files), omaha("replay", "--json", "-j", "2", *files)
    assert one.stdout == two.stdout and one.stdout.count("\n") == 19


def test_cli_exit_codes():
    assert omaha("replay", "-q", str(DATA / "pluribus_100_0.phh")).returncode == 0
    assert omaha("replay", "-q", str(DATA / "handhq_ipoker_excerpt.phhs")).returncode == 0
    assert omaha("replay", "-q", str(DATA / "pluribus_with_one_broken_hand.phhs")).returncode == 2
    bad_jobs = omaha("replay", "-j", "-1", str(DATA / "pluribus_100_0.phh"))
    assert bad_jobs.returncode == 2 and len(bad_jobs.stderr.strip().splitlines()) <= 2


# --- PokerKit, the PHH reference implementation, as a cross-check -----------------------------


def test_every_excerpt_hand_pokerkit_replays_to_its_finishing_stacks_matches_here_too():
    pokerkit = pytest.importorskip("pokerkit")   # a test (and bench) extra on Python >= 3.11
    agreed = 0
    for path in FILES:
        for hand, text in iter_sections(path):
            body = text if hand is None else text[text.find(b"\n") + 1:]
            try:
                with warnings.catch_warnings():   # PokerKit warns of fields it does not know
                    warnings.simplefilter("ignore", UserWarning)
                    history = pokerkit.HandHistory.loads(body.decode())
                *_, state = iter(history)
            except Exception:   # noqa: BLE001, S112 - a game or a field PokerKit does not take
                continue
            expected = history.finishing_stacks
            if expected is None or list(state.stacks) != list(expected):
                continue
            ours = replay_section(str(path), hand, text)
            if history.variant in NOT_PLAYED:   # draw games and short deck: not played
                assert ours.result == "unsupported"
                continue
            assert ours.result == "matched", (path, hand, ours)
            agreed += 1
    assert agreed >= 5


@pytest.mark.parametrize("extra", [0, 1])
def test_the_fast_and_general_paths_play_inf_stacks_equally_deep(extra):
    """Both paths give an inf stack DEEP_STACK chips: a bet of exactly that is all-in, one
    chip more is refused, on both (the compiled constant is the Python one)."""
    from omahacore.phhfast import replay_text

    text = (b"variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            b"starting_stacks = [inf, inf]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', "
            + f"'p2 cbr {DEEP_STACK + extra}', 'p1 f']\n".encode())
    general = corpus._general_report("t.phh", None, text)
    assert general.result == ("replayed" if extra == 0 else "invalid")
    assert (replay_text(text) is None) == (extra == 1)
    assert replay_section("t.phh", None, text) == general
