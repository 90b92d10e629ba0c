"""Rake schedules (rules K1-K4): the seeds' charts row by row, caps, minimums, JSON round trips.

The K2 chart is transcribed below from RULES.md as text and parsed here, independently of
the literal in ``omaha.game.rake``; the K3 rule is re-implemented in a few obvious lines.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omaha.game.rake import (
    SEED_FIXED_LIMIT_CHART,
    SEED_POT_LIMIT_RAKE,
    FixedLimitRakeChart,
    NoRake,
    PercentageRake,
    PlayersBracket,
    RakeError,
    RakeSchedule,
    StakesBand,
    Threshold,
    ThresholdRake,
    rake_from_dict,
    rake_to_dict,
)
from omahacore.errors import OmahaError

# RULES.md K2, copied as written: stakes | players | pot >= -> rake.
K2_TEXT = """
$0.50/$1 and $1/$2 | 2-10 | $5→$0.50, $12→$0.75, $20→$1.00
$2/$4 to $10/$20 | 2-3 | $20→$1.00
$2/$4 to $10/$20 | 4-5 | $20→$1.00, $30→$1.50, $40→$2.00
$2/$4 to $10/$20 | 6-10 | $20→$1.00, $30→$1.50, $40→$2.00, $50→$2.50, $60→$3.00
$15/$30 to $30/$60 | 2-3 | $40→$1.00
$15/$30 to $30/$60 | 4-5 | $40→$1.00, $55→$1.50, $70→$2.00
$15/$30 to $30/$60 | 6-10 | $40→$1.00, $55→$1.50, $70→$2.00, $85→$2.50, $100→$3.00
"""


def cents(text: str) -> int:
    """'$0.50' -> 50, '$12' -> 1200."""
    match = re.fullmatch(r"\$(\d+)(?:\.(\d\d))?", text.strip())
    assert match, text
    return int(match.group(1)) * 100 + int(match.group(2) or 0)


def big_bets(stakes: str) -> list[int]:
    """Every big bet named in a stakes cell: '$2/$4 to $10/$20' -> [400, 2000]."""
    return [cents(big) for _small, big in re.findall(r"(\$[\d.]+)/(\$[\d.]+)", stakes)]


Steps = tuple[tuple[int, int], ...]


def k2_lines() -> list[tuple[list[int], int, int, Steps]]:
    """Each K2 line as (big bets named, min players, max players, ((pot, rake), ...))."""
    lines = []
    for line in K2_TEXT.strip().splitlines():
        stakes, players, steps = (cell.strip() for cell in line.split("|"))
        low, high = (int(n) for n in players.split("-"))
        pairs = tuple((cents(pot), cents(rake))
                      for pot, rake in (step.split("→") for step in steps.split(",")))
        lines.append((big_bets(stakes), low, high, pairs))
    return lines


K2_CASES = [
    pytest.param(big, players, steps, id=f"bb{big}-p{players}")
    for bigs, low, high, steps in k2_lines() for big in bigs for players in range(low, high + 1)
]


@pytest.mark.parametrize(("big_bet", "players", "steps"), K2_CASES)
def test_k2_every_row_at_threshold_and_just_below(big_bet: int, players: int, steps: Steps) -> None:
    schedule = SEED_FIXED_LIMIT_CHART.for_big_bet(big_bet)
    previous = 0
    for pot, rake in steps:
        assert schedule.rake_for(pot - 1, players, True) == previous
        assert schedule.rake_for(pot, players, True) == rake
        previous = rake
    assert schedule.rake_for(steps[-1][0] * 10, players, True) == steps[-1][1]
    assert schedule.rake_for(0, players, True) == 0


def test_k2_chart_holds_exactly_the_rows_of_the_rules() -> None:
    ours = {(band.min_big_bet, b.min_players, b.max_players,
             tuple((t.pot, t.rake) for t in b.thresholds))
            for band in SEED_FIXED_LIMIT_CHART.bands for b in band.brackets}
    theirs = {(min(bigs), low, high, steps) for bigs, low, high, steps in k2_lines()}
    assert ours == theirs


@pytest.mark.parametrize(("big_bet", "band"), [
    (50, "$0.50/$1 and $1/$2"),      # below the chart: lowest band
    (100, "$0.50/$1 and $1/$2"),
    (200, "$0.50/$1 and $1/$2"),
    (300, "$0.50/$1 and $1/$2"),     # $1.50/$3, between bands: the lower band
    (400, "$2/$4 to $10/$20"),
    (600, "$2/$4 to $10/$20"),
    (2_000, "$2/$4 to $10/$20"),
    (2_400, "$2/$4 to $10/$20"),     # $12/$24, between bands: the lower band
    (2_999, "$2/$4 to $10/$20"),
    (3_000, "$15/$30 to $30/$60"),
    (6_000, "$15/$30 to $30/$60"),
    (20_000, "$15/$30 to $30/$60"),  # above the chart: highest band
])
def test_k2_stakes_select_band(big_bet: int, band: str) -> None:
    assert SEED_FIXED_LIMIT_CHART.band_for(big_bet).name == band


def k3_reference(pot: int, players: int) -> int:
    rake = 5 * (pot // 100)
    rake = min(rake, 100 if players <= 3 else 200 if players <= 5 else 300)
    return 0 if rake < 10 else rake


@pytest.mark.parametrize("players", range(2, 11))
def test_k3_caps_per_player_count(players: int) -> None:
    cap = {2: 100, 3: 100, 4: 200, 5: 200}.get(players, 300)
    cap_pot = cap // 5 * 100              # the smallest pot whose rake reaches the cap
    assert SEED_POT_LIMIT_RAKE.rake_for(cap_pot - 1, players, True) == cap - 5
    assert SEED_POT_LIMIT_RAKE.rake_for(cap_pot, players, True) == cap
    assert SEED_POT_LIMIT_RAKE.rake_for(10**9, players, True) == cap


@pytest.mark.parametrize(("pot", "rake"), [
    (0, 0), (99, 0), (100, 0), (199, 0),  # $0.05 is under $0.10: zero
    (200, 10), (299, 10), (300, 15), (1_999, 95), (2_000, 100),
])
def test_k3_whole_dollars_and_under_ten_cents_rule(pot: int, rake: int) -> None:
    assert SEED_POT_LIMIT_RAKE.rake_for(pot, 2, True) == rake


@given(pot=st.integers(0, 10**7), players=st.integers(2, 10))
def test_k3_matches_reference(pot: int, players: int) -> None:
    assert SEED_POT_LIMIT_RAKE.rake_for(pot, players, True) == k3_reference(pot, players)


def seed_schedules() -> list[RakeSchedule]:
    return [SEED_POT_LIMIT_RAKE, NoRake(),
            *(SEED_FIXED_LIMIT_CHART.for_big_bet(b) for b in (100, 2_000, 6_000))]


@pytest.mark.parametrize("schedule", seed_schedules(), ids=repr)
def test_k1_no_flop_no_drop_by_default(schedule: RakeSchedule) -> None:
    for players in (2, 6, 10):
        assert schedule.rake_for(100_000, players, False) == 0


def test_k1_no_flop_no_drop_can_be_turned_off() -> None:
    pct = PercentageRake(per_unit=5, unit=100, caps=((2, 300),), minimum=10, no_flop_no_drop=False)
    assert pct.rake_for(1_000, 2, False) == 50
    chart = FixedLimitRakeChart.from_dict({**SEED_FIXED_LIMIT_CHART.to_dict(),
                                           "no_flop_no_drop": False})
    assert chart.for_big_bet(2_000).rake_for(6_000, 6, False) == 300
    assert chart.for_big_bet(2_000).no_flop_no_drop is False


@pytest.mark.parametrize("schedule", [*seed_schedules(), SEED_FIXED_LIMIT_CHART], ids=repr)
def test_k4_json_round_trip(schedule: object) -> None:
    data = rake_to_dict(schedule)  # type: ignore[arg-type]
    assert rake_from_dict(json.loads(json.dumps(data))) == schedule


def test_k4_user_schedule_from_json() -> None:
    user = rake_from_dict(json.loads(
        '{"kind": "thresholds", "brackets": [{"players": [2, 4], "thresholds": [[100, 5]]},'
        ' {"players": [5, 9], "thresholds": [[100, 5], [1000, 40]]}]}'))
    assert isinstance(user, ThresholdRake)
    assert [user.rake_for(p, n, True) for p, n in ((99, 2), (100, 4), (5_000, 4), (5_000, 5))] \
        == [0, 5, 5, 40]
    with pytest.raises(RakeError, match="no rake bracket covers 10"):
        user.rake_for(5_000, 10, True)


def test_repr_pastes_back() -> None:
    band = SEED_FIXED_LIMIT_CHART.for_big_bet(400)
    namespace = {"ThresholdRake": ThresholdRake, "PlayersBracket": PlayersBracket,
                 "Threshold": Threshold, "PercentageRake": PercentageRake}
    assert eval(repr(band), namespace) == band
    assert eval(repr(SEED_POT_LIMIT_RAKE), namespace) == SEED_POT_LIMIT_RAKE


def threshold_reference(steps: list[tuple[int, int]], pot: int) -> int:
    return max([rake for threshold, rake in steps if pot >= threshold], default=0)


@st.composite
def threshold_steps(draw: st.DrawFn) -> list[tuple[int, int]]:
    pots = sorted(draw(st.sets(st.integers(1, 10_000), min_size=1, max_size=6)))
    rakes = sorted(draw(st.lists(st.integers(0, pots[0]), min_size=len(pots), max_size=len(pots))))
    return list(zip(pots, rakes))


@given(steps=threshold_steps(), pot=st.integers(0, 20_000))
def test_threshold_rake_matches_reference_and_round_trips(
        steps: list[tuple[int, int]], pot: int) -> None:
    schedule = ThresholdRake(brackets=(PlayersBracket(
        min_players=2, max_players=10,
        thresholds=tuple(Threshold(pot=p, rake=r) for p, r in steps)),))
    rake = schedule.rake_for(pot, 7, True)
    assert rake == threshold_reference(steps, pot)
    assert 0 <= rake <= pot
    assert rake_from_dict(json.loads(json.dumps(schedule.to_dict()))) == schedule


@given(per_unit=st.integers(0, 100), unit=st.integers(100, 1_000), minimum=st.integers(0, 50),
       cap=st.integers(0, 1_000), pot=st.integers(0, 10**6), players=st.integers(2, 10))
def test_percentage_rake_never_exceeds_pot_or_cap(
        per_unit: int, unit: int, minimum: int, cap: int, pot: int, players: int) -> None:
    schedule = PercentageRake(per_unit=per_unit, unit=unit, caps=((2, cap),), minimum=minimum)
    rake = schedule.rake_for(pot, players, True)
    expected = min(per_unit * (pot // unit), cap)
    assert rake == (0 if expected < minimum else expected)
    assert 0 <= rake <= min(pot, cap)


@pytest.mark.parametrize(("build", "message"), [
    (lambda: PercentageRake(per_unit=101, unit=100), "per_unit 101 exceeds unit 100"),
    (lambda: PercentageRake(per_unit=5, unit=0), "unit must be at least 1"),
    (lambda: PercentageRake(per_unit=5.0, unit=100),  # type: ignore[arg-type]
     "per_unit must be an integer"),
    (lambda: PercentageRake(per_unit=5, unit=100, caps=((3, 100),)), "first cap must start at 2"),
    (lambda: PercentageRake(per_unit=5, unit=100, caps=((2, 100), (2, 200))), "sorted"),
    (lambda: Threshold(pot=10, rake=11), "exceeds its pot"),
    (lambda: Threshold(pot=True, rake=0), "threshold pot must be an integer"),
    (lambda: PlayersBracket(min_players=4, max_players=3, thresholds=()), "max_players"),
    (lambda: PlayersBracket(min_players=2, max_players=3,
                            thresholds=(Threshold(pot=10, rake=2), Threshold(pot=10, rake=3))),
     "rise in pot"),
    (lambda: ThresholdRake(brackets=(
        PlayersBracket(min_players=2, max_players=3, thresholds=()),
        PlayersBracket(min_players=5, max_players=9, thresholds=()))), "contiguous"),
    (lambda: ThresholdRake(brackets=()), "non-empty"),
    (lambda: StakesBand(name="x", min_big_bet=0, brackets=(
        PlayersBracket(min_players=2, max_players=3, thresholds=()),)), "min_big_bet"),
    (lambda: rake_from_dict({"kind": "flat"}), "unknown rake kind 'flat'"),
    (lambda: rake_from_dict({"kind": "percentage", "unit": 100}), "needs 'per_unit'"),
    (lambda: rake_from_dict({"kind": "none", "extra": 1}), "unknown none field"),
    (lambda: rake_from_dict({"kind": "percentage", "per_unit": 5, "unit": 100,
                             "caps": [[2]]}), r"\[a, b\] pairs"),
    (lambda: rake_from_dict([1, 2]), "must be a mapping"),  # type: ignore[arg-type]
])
def test_bad_schedules_are_refused_with_a_named_error(build: object, message: str) -> None:
    with pytest.raises(RakeError, match=message) as info:
        build()  # type: ignore[operator]
    assert isinstance(info.value, OmahaError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("schedule", seed_schedules(), ids=repr)
@pytest.mark.parametrize(("args", "message"), [
    ((-1, 2, True), "pot_total must be at least 0"),
    ((100, 1, True), "players_dealt must be at least 2"),
    ((100.0, 2, True), "pot_total must be an integer"),
    ((100, 2, 1), "saw_flop must be true or false"),
])
def test_bad_questions_are_refused(schedule: RakeSchedule, args: tuple[object, ...],
                                   message: str) -> None:
    with pytest.raises(RakeError, match=message):
        schedule.rake_for(*args)  # type: ignore[arg-type]


def test_schedules_satisfy_the_protocol() -> None:
    for schedule in seed_schedules():
        assert isinstance(schedule, RakeSchedule)
    assert not isinstance(SEED_FIXED_LIMIT_CHART, RakeSchedule)  # needs stakes first


def test_docstring_examples_run() -> None:
    import doctest

    import omaha.game.rake

    result = doctest.testmod(omaha.game.rake, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 10 and result.failed == 0
