"""Simulations in chunks and on Ray (issue 15): exact merging, banked scoring, PHH shards."""

import json
import math
import statistics

import pytest

from omaha import phh
from omaha.cli import main
from omaha.config import OMAHA_HILO, GameConfig
from omaha.distributed import SeatStats, run_play, run_play_on_ray
from omaha.distributed.simulate import play_chunk
from omaha.errors import ConfigError

CONFIG = GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO)
BOTS = ["strength", "random", "random", "strength"]


def test_a_failed_chunk_leaves_no_partial_shard(tmp_path, monkeypatch):
    """Shards are streamed to a temporary file and renamed only when the chunk finishes."""
    from omaha.distributed import simulate

    played = simulate._play_deal
    calls = []

    def fail_on_third(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("worker lost")
        return played(*args, **kwargs)

    monkeypatch.setattr(simulate, "_play_deal", fail_on_third)
    with pytest.raises(RuntimeError, match="worker lost"):
        play_chunk(CONFIG, BOTS, 300, 0, 10, 7, 0, str(tmp_path))
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    play_chunk(CONFIG, BOTS, 300, 0, 10, 7, 0, str(tmp_path))
    assert [p.name for p in tmp_path.iterdir()] == ["shard-000000.phhs"]


def test_chunk_sums_match_the_hands_written_as_phh(tmp_path):
    """The per-seat sums equal the finishing stacks of the PHH shard, replayed."""
    part = play_chunk(CONFIG, BOTS, 300, 5, 40, 7, 0, str(tmp_path))
    histories = dict(phh.read_histories(tmp_path / "shard-000000.phhs"))
    assert len(histories) == 40
    nets = {seat: [] for seat in range(1, 5)}
    for number, history in histories.items():
        h = int(number) - 1
        button = 1 + h % 4                               # the button moves one seat a hand
        order = [(button + k) % 4 + 1 for k in range(4)]  # p1 left of the button
        assert list(history.starting_stacks) == [300] * 4  # banked: every hand starts equal
        assert phh.replay_history(history).matches
        for p, seat in enumerate(order):
            nets[seat].append(history.finishing_stacks[p] - 300)
    for seat, values in nets.items():
        stats = part.seats[seat]
        assert stats == SeatStats(40, 40, sum(values), sum(v * v for v in values))
        mean = statistics.mean(values) / 2 * 100
        half = 1.959963984540054 * statistics.stdev(values) / math.sqrt(40) / 2 * 100
        assert stats.bb_per_100(2) == pytest.approx(mean)
        assert stats.ci95(2) == pytest.approx(half)


def test_chunks_merge_exactly_and_reproduce():
    whole = run_play(CONFIG, BOTS, hands=500, seed=3, chunk_hands=125)
    again = run_play(CONFIG, BOTS, hands=500, seed=3, chunk_hands=125)
    parts = [play_chunk(CONFIG, BOTS, 200, 125 * k, 125, 3, k) for k in range(4)]
    assert whole == again and whole.hands == 500
    for seat in range(1, 5):
        assert whole.seats[seat] == sum((p.seats[seat] for p in parts), SeatStats())
    assert sum(s.net for s in whole.seats.values()) == 0
    assert run_play(CONFIG, BOTS, hands=500, seed=4, chunk_hands=125) != whole


def test_duplicate_plays_each_deal_from_every_seat(tmp_path):
    """Duplicate mode: each deck is replayed once per seat, bots moving clockwise."""
    part = play_chunk(CONFIG, BOTS, 300, 0, 6, 5, 0, str(tmp_path), True)
    histories = phh.load_all(tmp_path / "shard-000000.phhs")
    assert len(histories) == 24 and part.hands == 24
    for d in range(6):
        dealt = [[a for a in h.actions if a.startswith("d dh")] for h in histories[4 * d:4 * d + 4]]
        assert all(cards == dealt[0] for cards in dealt)   # the same cards, four times
        assert all(phh.replay_history(h).matches for h in histories[4 * d:4 * d + 4])
    for stats in part.seats.values():
        assert (stats.hands, stats.samples) == (24, 6)
    whole = run_play(CONFIG, BOTS, hands=30, seed=5, chunk_hands=8, duplicate=True)
    assert whole.hands == 32 and {s.samples for s in whole.seats.values()} == {8}
    assert sum(s.net for s in whole.seats.values()) == 0


def test_bad_simulations_are_refused():
    for kwargs in ({"hands": 0}, {"hands": True}, {"hands": 10, "chunk_hands": 0},
                   {"hands": 10, "stack": 0}, {"hands": 10, "seed": 1.5},
                   {"hands": 10, "duplicate": 1}):
        with pytest.raises(ConfigError):
            run_play(CONFIG, BOTS, **kwargs)
    with pytest.raises(ConfigError):
        run_play(CONFIG, ["strength", "nobody"], hands=10)
    with pytest.raises(ConfigError):
        run_play(CONFIG, ["random"], hands=10)


def test_simulate_command_prints_intervals(capsys):
    assert main(["simulate", "--hands", "200", "--players", "3", "--seed", "1", "--chunk",
                 "50", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 200 and [row["hands"] for row in out["seats"]] == [200] * 3
    assert main(["simulate", "--hands", "10", "--bots", "nobody"]) == 2


def test_simulate_command_writes_phh_shards(tmp_path, capsys):
    assert main(["simulate", "--hands", "30", "--players", "2", "--seed", "4", "--chunk", "10",
                 "--phh", str(tmp_path)]) == 0
    assert "hands/s" in capsys.readouterr().out
    shards = sorted(tmp_path.glob("shard-*.phhs"))
    assert [p.name for p in shards] == [f"shard-{k:06d}.phhs" for k in range(3)]
    histories = [h for p in shards for h in phh.load_all(p)]
    assert len(histories) == 30 and all(phh.replay_history(h).matches for h in histories)


@pytest.fixture(scope="module")
def ray_session():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_runs_the_same_simulation_exactly(ray_session):
    local = run_play(CONFIG, BOTS, hands=1200, seed=9, chunk_hands=300)
    on_ray = run_play_on_ray(CONFIG, BOTS, hands=1200, seed=9, chunk_hands=300)
    assert on_ray == local
    assert (run_play_on_ray(CONFIG, BOTS, hands=200, seed=2, chunk_hands=40, duplicate=True)
            == run_play(CONFIG, BOTS, hands=200, seed=2, chunk_hands=40, duplicate=True))


def test_simulate_command_on_ray_matches_local(ray_session, capsys):
    args = ["simulate", "--hands", "400", "--players", "3", "--seed", "2", "--chunk", "100",
            "--json"]
    assert main(args) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*args, "--ray"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert on_ray["seats"] == local["seats"] and on_ray["ray"]


def test_play_command_on_ray_scores_like_simulate(ray_session, capsys):
    """``omaha play --ray`` runs the simulation's chunks on Ray: the same seats as simulate."""
    common = ["--hands", "300", "--players", "3", "--seed", "4", "--json"]
    assert main(["play", *common, "--ray"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert main(["simulate", *common, "--chunk", "20000"]) == 0
    simulated = json.loads(capsys.readouterr().out)
    assert played["ray"] and played["hands"] == 300
    assert played["seats"] == simulated["seats"]


def test_the_extras_are_imported_only_when_used():
    import subprocess
    import sys

    code = ("import sys, omaha, omaha.rl, omaha.distributed, omaha.cli; omaha.cli.build_parser(); "
            "print(sorted(m for m in ('ray', 'pettingzoo', 'gymnasium') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_preflop_table_rows_and_binary_round_trip(tmp_path):
    """Each row is omaha.equity's value for its class; the binary keeps it to 1/65535."""
    import omaha
    from omaha.distributed.preflop import build_table, load_table, write_binary

    hands = ["AcAdKcKd", "2c3d4h5s", "AcAd2c3d"]
    rows = build_table(classes=hands, opponents=(1, 2), samples=400, seed=1, chunk_classes=2)
    assert [(r[0], r[1]) for r in rows] == [(h, n) for h in hands for n in (1, 2)]
    for hand, n, high, high_se, hilo, hilo_se in rows:
        assert 0 < high < 1 and 0 < hilo < 1 and 0 < high_se < 0.03 and 0 < hilo_se < 0.03
    first = omaha.equity(["AcAdKcKd", "****"], samples=400, seed=(1 * 16_432 + 0) * 10 + 1,
                         variant=omaha.OMAHA_HIGH, exact=False)
    assert rows[0][2] == first.equity[0]
    assert rows == build_table(classes=hands, opponents=(1, 2), samples=400, seed=1,
                               chunk_classes=3)                    # chunking changes nothing
    write_binary(rows, str(tmp_path / "t.bin"), 400)
    samples, values = load_table(str(tmp_path / "t.bin"))
    assert samples == 400 and values.shape == (2, 2, 3)
    assert abs(values[1, 1, 2] - rows[5][4]) <= 1 / 65535


def test_preflop_table_on_ray_matches_local(ray_session, tmp_path):
    from omaha.distributed.preflop import build_table

    hands = ["AcAdKcKd", "2c3d4h5s", "JcTd9h8s"]
    local = build_table(classes=hands, opponents=(1, 3), samples=300, seed=2, chunk_classes=1)
    assert build_table(classes=hands, opponents=(1, 3), samples=300, seed=2, chunk_classes=1,
                       ray=True) == local
    assert main(["preflop-table", "--out", str(tmp_path / "t.csv"), "--limit", "2",
                 "--opponents", "2", "--samples", "200", "--ray"]) == 0
    assert (tmp_path / "t.csv").read_text().count("\n") == 1 + 2 * 2


def test_one_shipped_preflop_table_feeds_the_ordering_and_preflop_equity():
    """One data file: the top N% ordering is its 1-opponent column; within a few standard
    errors of exact equity for a few classes; equity falls with each extra opponent."""
    from importlib.resources import files

    import numpy as np

    import omaha
    from omaha.analysis import preflop
    from omaha.distributed.preflop import load_table, preflop_equity, standard_error_bound

    samples, values = load_table()
    assert values.shape == (5, 2, 16_432) and samples >= 10_000
    assert [p.name for p in (files("omaha") / "data").iterdir() if p.name.endswith(".bin")] \
        == ["preflop4_vs1-5.bin"]
    for hilo in (True, False):
        assert np.array_equal(preflop.equities(hilo=hilo), values[0, 1 if hilo else 0])
    bound = standard_error_bound(samples)
    for hand in ("AcAdKcKd", "2c3d7h9s"):
        again = omaha.equity([hand, "****"], variant=omaha.OMAHA_HIGH, samples=200_000, seed=7)
        assert abs(preflop_equity(hand, 1, hilo=False) - again.equity[0]) < 4 * bound
    # more opponents, less equity, for every class (C3-C5: the pot splits more ways)
    assert (np.diff(values, axis=0) < 0).mean() > 0.999
    assert preflop_equity("AcAdKcKd", 1, hilo=False) == values[0, 0, preflop.class_of("AcAdKcKd")]
    with pytest.raises(ConfigError):
        preflop_equity("AcAdKcKd", True)
    with pytest.raises(ConfigError):
        preflop_equity("AcAdKcKd", 6)
