"""The streaming PHH writer (issue 22): an engine hand straight to PHH text.

:func:`omaha.phh.export.phh_text` and :class:`~omaha.phh.export.PhhWriter` must write byte for
byte what ``dumps(history_from_events(...))`` and ``dumps_all``/``dump`` write of the same
hand, so ``omaha replay`` and PokerKit read the files as before. Checked on many random hands:
every variant code, the three structures, 2 to the game's maximum players, antes, big-blind
antes, single blinds, short stacks (all-ins, uncallable raises), timeouts (with protected
all-ins), live blinds and rake, with and without the PokerKit-compatible codes.
"""

from __future__ import annotations

import io
import random

import pytest

from omaha.cli import main
from omaha.config import GameConfig
from omaha.errors import HistoryError
from omaha.game.bots import RandomBot, StrengthBot, act, situation
from omaha.game.hand import Hand
from omaha.game.table import Table
from omaha.phh import (
    PORTABLE_CODES,
    STANDARD_CODES,
    VARIANTS,
    HandHistory,
    dump,
    dumps,
    dumps_all,
    load_all,
    loads,
    read_histories,
)
from omaha.phh.export import PhhWriter, history_from_events, phh_text, pokerkit_compatible
from omaha.phh.variants import variant_for_name

CODES = sorted(VARIANTS)
PORTABLE = set(STANDARD_CODES) | set(PORTABLE_CODES)


def _config(code: str, rng: random.Random) -> GameConfig:
    """A random game of the variant ``code``: stakes, antes, big-blind antes, single blinds."""
    meaning = variant_for_name(code)
    forced = {"ante": rng.choice([0, 0, 1, 3]), "big_blind_ante": rng.choice([0, 0, 2])}
    if meaning.structure == "fixed":
        extra = {}
        if rng.random() < 0.3:
            extra = {"max_raises": rng.choice([None, 3, 5]), "uncapped_heads_up": rng.random() < .5}
        return GameConfig.fixed_limit(small_bet=rng.choice([2, 4, 10]), variant=code, **forced,
                                      **extra)
    build = GameConfig.pot_limit if meaning.structure == "pot" else GameConfig.no_limit
    big = rng.choice([2, 4, 10])
    small = 0 if rng.random() < 0.15 else big // 2
    return build(small_blind=small, big_blind=big, variant=code, **forced)


def _play(hand: Hand, rng: random.Random, *, timeouts: bool) -> Hand:
    bot = RandomBot() if rng.random() < 0.5 else StrengthBot()
    while not hand.is_over:
        if timeouts and rng.random() < 0.15:
            hand.timeout()
        else:
            act(hand, bot.decide(situation(hand), rng))
    return hand


def _random_hand(code: str, seed: int) -> Hand:
    rng = random.Random(f"{code}:{seed}")
    config = _config(code, rng)
    players = rng.randrange(2, config.variant.max_players + 1)
    seats = rng.sample(range(1, 11), players)
    stacks = {s: rng.randrange(1, 60) * max(config.big_blind, 1) + rng.randrange(3)
              for s in seats}
    hand = Hand(config, stacks=stacks, button=rng.choice(seats), rng=rng)
    return _play(hand, rng, timeouts=seed % 3 == 0)


def _expected(hand: Hand, number: int | None, compatible: bool) -> str:
    metadata = None if number is None else {"hand": number}
    return dumps(history_from_events(hand.events, metadata=metadata), compatible=compatible)


@pytest.mark.parametrize("code", CODES)
def test_the_text_is_dumps_of_the_history_byte_for_byte(code):
    for seed in range(40):
        hand = _random_hand(code, seed)
        number = None if seed % 7 == 0 else seed * 1000 + 1
        assert phh_text(hand, number=number) == _expected(hand, number, False)
        assert phh_text(hand.events, number=number) == _expected(hand, number, False)
        if code in PORTABLE:
            text = phh_text(hand, number=number, compatible=True)
            assert text == _expected(hand, number, True)
            assert phh_text(hand.events, number=number, compatible=True) == text
        else:
            with pytest.raises(HistoryError, match="no compatible export exists"):
                phh_text(hand, compatible=True)


def test_a_raise_nobody_can_call_is_written_as_a_call_as_dumps_writes_it():
    rewritten = 0
    for seed in range(300):
        hand = _random_hand("NT", seed)
        text = phh_text(hand, compatible=True)
        assert text == _expected(hand, None, True)
        rewritten += text.count(" cc") > phh_text(hand).count(" cc")
    assert rewritten   # the case was met


def test_timeouts_and_protected_all_ins_are_written_as_dumps_writes_them():
    seen = set()
    for seed in range(300):
        hand = _random_hand("PO", seed * 3)   # every third seed times out
        text = phh_text(hand, number=seed)
        assert text == _expected(hand, seed, False)
        seen.update(note for note in ("timed out (D2)", "protected all-in (D2)") if note in text)
    assert seen == {"timed out (D2)", "protected all-in (D2)"}


def test_live_blinds_and_rake_are_written_as_dumps_writes_them():
    class TenPercent:
        def rake_for(self, pot_total, players_dealt, saw_flop):
            return pot_total // 10

    rng = random.Random(4)
    table = Table(GameConfig.pot_limit(small_blind=1, big_blind=2), seats=6, rng=rng,
                  rake=TenPercent())
    for seat in (1, 3, 5):
        table.sit(seat, stack=200)
    texts = []
    for number in range(1, 13):
        if number == 5:   # newcomers post a live big blind to be dealt in at once (T5)
            table.sit(4, stack=150, post_big_blind=True)
            table.sit(2, stack=150, post_big_blind=True)
        for seat, chips in table.stacks.items():
            if chips < 200:
                table.rebuy(seat, 200 - chips)
        hand = _play(table.start_hand(), rng, timeouts=False)
        for compatible in (False, True):
            text = phh_text(hand, number=number, compatible=compatible)
            assert text == _expected(hand, number, compatible)
        texts.append(text)
    assert any("_live_blinds" in text for text in texts)
    assert any("_rake" in text for text in texts)


@pytest.mark.parametrize("compatible", [False, True])
def test_a_phhs_file_is_dumps_all_of_the_histories(tmp_path, compatible):
    hands = [_random_hand(code, seed) for seed in range(6) for code in ("PO/8", "FO", "NT")]
    path = tmp_path / "hands.phhs"
    with PhhWriter(path, compatible=compatible) as writer:
        for hand in hands:
            writer.write(hand)
    histories = {str(i): history_from_events(hand.events, metadata={"hand": i})
                 for i, hand in enumerate(hands, 1)}
    text = path.read_bytes().decode("utf-8")
    assert text == dumps_all(histories, compatible=compatible)
    assert [name for name, _ in read_histories(path)] == list(histories)
    expected = list(histories.values())
    if compatible:   # what PokerKit replays: the raises nobody could call as calls
        expected = [loads(dumps(pokerkit_compatible(h))) for h in expected]
    assert load_all(path) == expected


def test_a_folder_holds_one_dump_per_hand_and_numbers_can_be_given(tmp_path):
    hands = [_random_hand("PO", seed) for seed in range(4)]
    with PhhWriter(tmp_path / "out") as writer:
        for number, hand in zip((7, 8, 20, 21), hands):
            writer.write(hand, number)
    for number, hand in zip((7, 8, 20, 21), hands):
        expected = tmp_path / f"expected-{number}.phh"
        dump(history_from_events(hand.events, metadata={"hand": number}), expected)
        assert (tmp_path / "out" / f"hand-{number:06d}.phh").read_bytes() == expected.read_bytes()


def test_a_writer_given_an_open_file_writes_tables_and_leaves_it_open():
    hands = [_random_hand("PO", seed) for seed in range(3)]
    out = io.StringIO()
    with PhhWriter(out) as writer:
        for hand in hands:
            writer.write(hand)
    assert not out.closed
    assert out.getvalue() == dumps_all(
        [history_from_events(h.events, metadata={"hand": i}) for i, h in enumerate(hands, 1)])


def test_a_hand_not_over_and_a_bad_log():
    hand = Hand(GameConfig.pot_limit(small_blind=1, big_blind=2), stacks={1: 50, 2: 50, 3: 50},
                button=1, rng=random.Random(2))
    hand.call()
    assert phh_text(hand) == dumps(history_from_events(hand.events))   # no finishing_stacks
    assert "finishing_stacks" not in phh_text(hand)
    for log in ([], hand.events[1:]):
        with pytest.raises(HistoryError, match="starts with HandStarted"):
            phh_text(log)


def test_strings_to_escape_are_written_as_format_value_writes_them():
    """The emitter's fast path for plain action texts is format_value's text, and others
    take format_value itself."""
    from omaha.phh.toml import format_actions, format_value

    base = {"variant": "PO", "antes": [0, 0], "blinds_or_straddles": [1, 2], "min_bet": 2,
            "starting_stacks": [5, 5]}
    for actions in (["p1 f"], ["p1 f", "p2 cbr 6 # caf\u00e9 \u2603 \u00a0"],
                    ['p1 f # say "hi"', "# back\\slash", "# tab\there", "# \x7f\x01",
                     "# caf\u00e9 \u2603 \u00a0", "p2 cc"], ["# \u2028"], ["# \x85"]):
        general = "actions = [\n" + "".join(f"  {format_value(a)},\n" for a in actions) + "]\n"
        assert format_actions(actions) == general
        assert dumps(HandHistory(**base, actions=actions)).endswith(general)


def test_play_writes_what_dumps_all_writes(tmp_path, capsys):
    path = tmp_path / "hands.phhs"
    args = ["play", "--variant", "plo8", "--players", "4", "--hands", "60", "--seed", "3"]
    assert main([*args, "--phh", str(path)]) == 0
    text = path.read_text(encoding="utf-8")
    hands = read_histories(path)
    assert [name for name, _ in hands] == [str(i) for i in range(1, 61)]
    assert text == dumps_all({name: h for name, h in hands if name is not None})
    assert main([*args, "--pokerkit", "--phh", str(tmp_path / "pk.phhs")]) == 0
    portable = (tmp_path / "pk.phhs").read_text(encoding="utf-8")
    assert portable == dumps_all({name: h for name, h in hands if name is not None},
                                 compatible=True)
    capsys.readouterr()
