"""One spelling of "no small blind" in every structure (issue 22, rule T3).

``small_blind=None`` (the default) derives the small blind from the big blind, half of it
rounded down to ``blind_unit``; ``small_blind=0`` is a single blind, which is the big blind
(Robert's Rules reading): posted by the first player left of the button (heads-up, the
button), the action starting left of it. A fixed-limit game with one blind and a big blind
ante (WSOP Omaha hi/lo) plays; configs round-trip through ``to_dict``/``from_dict``,
snapshots, the command line, the arena settings and the learning kernel.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from omaha.cli import EXIT_INVALID, EXIT_OK, build_parser, main
from omaha.cli.arena import _settings
from omaha.cli.shared import game_config
from omaha.config import FIXED_LIMIT, NO_LIMIT, OMAHA_HILO, POT_LIMIT, GameConfig, Structure
from omaha.errors import ConfigError
from omaha.game.events import Posted
from omaha.game.hand import Hand
from omaha.game.table import Table
from omaha.history.snapshot import loads_snapshot
from reference_engine import ReferenceHand
from test_engine_reference import assert_same, both, illegal_choice, legal_choice
from test_rl_vector_kernel import play_side_by_side

STORED = Path(__file__).parent / "data" / "snapshots"

# The WSOP 2023 Omaha hi/lo structure: one blind, and the big blind posts the table's ante.
WSOP_FL = GameConfig.fixed_limit(small_bet=10, big_bet=20, small_blind=0, big_blind_ante=10,
                                 variant=OMAHA_HILO)
SINGLE = {
    FIXED_LIMIT: WSOP_FL,
    POT_LIMIT: GameConfig.pot_limit(small_blind=0, big_blind=10, big_blind_ante=10),
    NO_LIMIT: GameConfig.no_limit(small_blind=0, big_blind=10, big_blind_ante=10),
}


def posts(hand: Hand) -> list[tuple[int, str, int]]:
    return [(e.seat, e.what, e.amount) for e in hand.events if isinstance(e, Posted)]


# --- the config ---------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda **o: GameConfig.fixed_limit(small_bet=10, **o),
    lambda **o: GameConfig.pot_limit(big_blind=10, **o),
    lambda **o: GameConfig.no_limit(big_blind=10, **o),
    lambda **o: GameConfig(structure=POT_LIMIT, big_blind=10, **o),
    lambda **o: GameConfig.named("flo8", small_bet=10, **o),
    lambda **o: GameConfig.named("plo", big_blind=10, **o),
    lambda **o: GameConfig.named("nlh", big_blind=10, **o),
])
def test_none_derives_and_zero_is_none_in_every_structure(make: Any) -> None:
    assert make().small_blind == 5                    # the default: derived (T3)
    assert make(small_blind=None).small_blind == 5
    assert make(small_blind=0).small_blind == 0       # no small blind
    assert make(small_blind=3).small_blind == 3
    assert make(blind_unit=4).small_blind == 4        # half of 10 rounded down to 4
    for small in (None, 0, 3):
        config = make(small_blind=small)
        assert type(config.small_blind) is int and config.big_blind == 10


def test_a_derived_small_blind_of_zero_says_how_to_pass_one_or_none() -> None:
    for make in (lambda **o: GameConfig.fixed_limit(small_bet=1, **o),
                 lambda **o: GameConfig.pot_limit(big_blind=1, **o),
                 lambda **o: GameConfig.no_limit(big_blind=10, blind_unit=20, **o)):
        with pytest.raises(ConfigError, match=r"T3.*small_blind=0 for no small blind"):
            make()
        assert make(small_blind=0).small_blind == 0
    assert GameConfig.fixed_limit(small_bet=1, small_blind=1).small_blind == 1


def test_fixed_limit_single_blind_keeps_its_bets() -> None:
    assert (WSOP_FL.small_blind, WSOP_FL.big_blind, WSOP_FL.big_blind_ante) == (0, 10, 10)
    assert [WSOP_FL.bet_unit(street) for street in range(4)] == [10, 10, 20, 20]
    derived = GameConfig.fixed_limit(small_bet=10, big_bet=20, variant=OMAHA_HILO)
    assert (derived.small_blind, derived.big_blind) == (5, 10)   # as before


def test_refusals_are_unchanged() -> None:
    with pytest.raises(ConfigError, match="T3"):
        GameConfig.pot_limit(small_blind=11, big_blind=10)
    with pytest.raises(ConfigError, match="T3"):
        GameConfig.no_limit(small_blind=-1, big_blind=10)
    with pytest.raises(ConfigError, match="T3"):
        GameConfig(structure=NO_LIMIT, small_blind=0)     # still needs a big blind
    with pytest.raises(ConfigError):
        GameConfig.pot_limit(small_blind=1.5, big_blind=10)  # type: ignore[arg-type]


# --- to_dict / from_dict and snapshots ----------------------------------------------------

@pytest.mark.parametrize("config", [*SINGLE.values(),
                                    GameConfig.fixed_limit(small_bet=10),
                                    GameConfig.pot_limit(big_blind=2)])
def test_to_dict_writes_the_resolved_blind_and_from_dict_reads_it_back(config: GameConfig) -> None:
    data = config.to_dict()
    assert data["small_blind"] == config.small_blind
    assert GameConfig.from_dict(data) == config
    assert GameConfig.from_dict(json.loads(json.dumps(data))) == config


def test_from_dict_reads_a_missing_or_null_small_blind_as_derived_and_zero_as_none() -> None:
    data = WSOP_FL.to_dict()
    assert GameConfig.from_dict(data).small_blind == 0
    missing = {k: v for k, v in data.items() if k != "small_blind"}
    assert GameConfig.from_dict(missing).small_blind == 5
    assert GameConfig.from_dict({**data, "small_blind": None}).small_blind == 5
    pl = {"variant": "PO", "structure": "pot-limit", "big_blind": 2}
    assert GameConfig.from_dict(pl).small_blind == 1
    assert GameConfig.from_dict({**pl, "small_blind": 0}).small_blind == 0


@pytest.mark.parametrize("name", sorted(p.name for p in STORED.glob("*.json")))
def test_stored_snapshots_keep_their_blinds(name: str) -> None:
    """Snapshots written before issue 22 always hold the resolved small blind: every config in
    them reads back to exactly what was stored (the single-blind one stays single)."""
    text = (STORED / name).read_text(encoding="utf-8")
    configs: list[dict[str, Any]] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if "structure" in value and "small_blind" in value and "variant" in value:
                configs.append(value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(loads_snapshot(text))
    assert configs
    for stored in configs:
        assert GameConfig.from_dict(stored).to_dict() == stored
    if "single_blind" in name:
        assert any(stored["small_blind"] == 0 for stored in configs)


@pytest.mark.parametrize("structure", list(SINGLE))
@pytest.mark.parametrize("players", [2, 4])
def test_a_single_blind_hand_snapshots_and_restores(structure: Structure, players: int) -> None:
    hand = Hand(SINGLE[structure], stacks={s: 300 for s in range(1, players + 1)}, button=1,
                rng=random.Random(5))
    hand.check_or_call()
    again = Hand.restore(json.loads(json.dumps(hand.snapshot())))
    assert again.config == hand.config and again.config.small_blind == 0
    assert again.to_act == hand.to_act and again.stacks == hand.stacks
    while not hand.is_over:
        hand.check_or_call()
        again.check_or_call()
    assert hand.result is not None and again.result is not None
    assert hand.result.stacks == again.result.stacks


# --- playing hands ------------------------------------------------------------------------

@pytest.mark.parametrize("structure", list(SINGLE))
def test_heads_up_the_button_posts_the_lone_blind_and_the_other_acts_first(
        structure: Structure) -> None:
    hand = Hand(SINGLE[structure], stacks={3: 300, 7: 300}, button=7, rng=random.Random(1))
    assert posts(hand) == [(7, "big_blind", 10), (7, "big_blind_ante", 10)]
    assert (hand.small_blind_seat, hand.big_blind_seat) == (7, 7)
    assert hand.to_act == 3 and hand.current_bet() == 10
    hand.check_or_call()
    assert hand.to_act == 7 and hand.legal_actions().can_check   # the big blind's option
    hand.check_or_call()
    assert hand.street == 1 and hand.to_act == 3                  # after the flop: left of it
    assert hand.pot_total == 30


@pytest.mark.parametrize("structure", list(SINGLE))
def test_multiway_the_lone_blind_is_left_of_the_button_and_action_starts_after_it(
        structure: Structure) -> None:
    hand = Hand(SINGLE[structure], stacks={1: 300, 2: 300, 4: 300, 6: 300}, button=4,
                rng=random.Random(2))
    assert posts(hand) == [(6, "big_blind", 10), (6, "big_blind_ante", 10)]
    assert hand.big_blind_seat == 6 and hand.to_act == 1
    for seat in (1, 2, 4):
        assert hand.to_act == seat and hand.legal_actions().call_amount == 10
        hand.check_or_call()
    assert hand.to_act == 6 and hand.legal_actions().can_check
    hand.check_or_call()
    assert hand.street == 1 and hand.to_act == 6 and hand.pot_total == 50


def test_fixed_limit_single_blind_bets_in_units_and_the_blind_is_the_first_bet() -> None:
    hand = Hand(WSOP_FL, stacks={s: 1000 for s in range(1, 5)}, button=1,
                rng=random.Random(3))
    raises = []
    while (legal := hand.legal_actions()).min_raise_to is not None:
        assert legal.min_raise_to == legal.max_raise_to                # fixed limit (B3)
        raises.append(legal.min_raise_to)
        hand.bet_or_raise(legal.min_raise_to)
    assert raises == [20, 30, 40]        # the blind and three raises: the cap of four (B3)
    while hand.street == 0:
        hand.check_or_call()
    assert hand.legal_actions().min_raise_to == 10                   # small bet on the flop
    while hand.street == 1:
        hand.check_or_call()
    assert hand.legal_actions().min_raise_to == 20                   # big bet on the turn
    while not hand.is_over:
        hand.check_or_call()
    result = hand.result
    assert result is not None and sum(result.stacks.values()) == 4000


@pytest.mark.parametrize("seed", range(150))
def test_single_blind_hands_match_the_reference_engine(seed: int) -> None:
    """Random single-blind hands (every structure, big blind ante, 2-10 players) played on
    the engine and the frozen reference, every public fact compared after each step."""
    rng = random.Random(seed)
    structure = [FIXED_LIMIT, POT_LIMIT, NO_LIMIT][seed % 3]
    unit = rng.choice([2, 4, 10])
    options: dict[str, Any] = {"small_blind": 0, "ante": rng.choice([0, 0, 1]),
                               "big_blind_ante": rng.choice([0, unit, unit // 2])}
    if structure is FIXED_LIMIT:
        config = GameConfig.fixed_limit(small_bet=unit, variant=rng.choice(["flo8", "flo"]),
                                        max_raises=rng.choice([4, 3, None]),
                                        uncapped_heads_up=rng.random() < 0.3, **options)
    else:
        config = GameConfig(structure=structure, big_blind=unit, **options)
    players = rng.choice([2, 2, 3, rng.randint(2, 10)])
    seats = sorted(rng.sample(range(1, 11), players))
    stacks = {s: rng.choice([rng.randint(1, 30), rng.randint(30, 400)]) for s in seats}
    args = {"config": config, "stacks": stacks, "button": rng.choice(seats)}
    deal = rng.getrandbits(32)
    hand = Hand(**args, rng=random.Random(deal))
    ref = ReferenceHand(**args, rng=random.Random(deal))
    assert_same(hand, ref)
    assert hand.small_blind_seat == hand.big_blind_seat
    for _ in range(300):
        if hand.is_over:
            break
        step = (illegal_choice if rng.random() < 0.15 else legal_choice)(hand, rng)
        both(hand, ref, step[0], *step[1], **step[2])
    assert hand.is_over and ref.is_over
    result = hand.result
    assert result is not None
    assert sum(result.stacks.values()) + result.rake == sum(stacks.values())


@pytest.mark.parametrize("structure", list(SINGLE))
def test_a_single_blind_table_moves_the_button_and_restores(structure: Structure) -> None:
    table = Table(SINGLE[structure], seats=6, rng=random.Random(4))
    for seat in (1, 3, 5):
        table.sit(seat, stack=500)
    seen = []
    for _ in range(4):
        hand = table.start_hand()
        seen.append((hand.button, hand.big_blind_seat, posts(hand)[0]))
        while not hand.is_over:
            hand.check_or_call()
    assert seen == [(1, 3, (3, "big_blind", 10)), (3, 5, (5, "big_blind", 10)),
                    (5, 1, (1, "big_blind", 10)), (1, 3, (3, "big_blind", 10))]
    table.start_hand()
    again = Table.restore(json.loads(json.dumps(table.snapshot())))
    assert again.config == table.config and again.config.small_blind == 0


@pytest.mark.parametrize("config", list(SINGLE.values()))
@pytest.mark.parametrize("players", [2, 5])
def test_the_learning_kernel_plays_single_blind_games_as_the_engine(
        config: GameConfig, players: int) -> None:
    assert play_side_by_side(config, players, 120, tables=6, steps=40, seed=players) > 0


# --- the command line and the arena -------------------------------------------------------

def test_cli_game_config_default_derives_and_zero_is_none() -> None:
    assert game_config("plo", blinds=None, stakes=None).small_blind == 1       # 1/2 as before
    assert game_config("plo", blinds=(None, 10), stakes=None).small_blind == 5
    assert game_config("plo", blinds=(0, 10), stakes=None).small_blind == 0
    fl = game_config("flo8", blinds=None, stakes=(10, 20))
    assert (fl.small_blind, fl.big_blind) == (5, 10)                           # derived
    fl = game_config("flo8", blinds=(0, 10), stakes=(10, 20))
    assert (fl.small_blind, fl.big_blind, fl.structure) == (0, 10, FIXED_LIMIT)


@pytest.mark.parametrize("command", ["play", "simulate", "serve"])
def test_cli_help_says_what_blinds_mean(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "BB alone to derive the small blind" in text
    assert "SB 0 means no small blind" in text


def test_cli_plays_a_fixed_limit_single_blind_game(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "--variant", "flo8", "--stakes", "10/20", "--blinds", "0/10",
                 "--players", "3", "--hands", "4", "--seed", "1", "--json"])
    out = capsys.readouterr()
    assert code == EXIT_OK, out.err
    assert json.loads(out.out)["big_blind"] == 10


@pytest.mark.parametrize("blinds", ["0/0", "1/0", "-1/2", "a/2", "x", ""])
def test_cli_bad_blinds_are_refused(blinds: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--blinds", blinds, "--hands", "1"])
    assert exit_info.value.code == EXIT_INVALID
    assert "--blinds" in capsys.readouterr().err


def test_serve_settings_default_and_single_blind() -> None:
    def game(*argv: str) -> GameConfig:
        args = build_parser().parse_args(["serve", "--db", "unused", *argv])
        return GameConfig.from_dict(_settings(args).game)

    assert game() == GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO)
    assert game("--blinds", "1/2") == game()
    assert game("--blinds", "2") == game()
    assert game("--variant", "flo8", "--blinds", "0/10") == GameConfig.fixed_limit(
        small_bet=10, big_bet=20, small_blind=0, big_blind=10, variant=OMAHA_HILO)
    assert game("--variant", "flo8") == GameConfig.fixed_limit(small_bet=2, variant=OMAHA_HILO)
    single = game("--variant", "plo", "--structure", "no-limit", "--blinds", "0/4")
    assert (single.structure, single.small_blind, single.big_blind) == (NO_LIMIT, 0, 4)
