"""PokerKit-compatible export (issue 13): standard codes PokerKit reads, the real one kept.

Cross-checked with the installed PokerKit (skipped without it): every compatible export
loads there, and for the games whose deal, betting and showdown PokerKit plays exactly
(PO, FO/8, FT, NT, and PT written as NT) PokerKit replays to the same finishing stacks.
"""

from __future__ import annotations

import random

import pytest

from omaha.config import GameConfig
from omaha.game.bots import RandomBot, act, situation
from omaha.game.hand import Hand
from omaha.phh import (
    PORTABLE_CODES,
    STANDARD_CODES,
    VARIANTS,
    HistoryError,
    dumps,
    dumps_all,
    history_from_events,
    loads,
    loads_all,
    pokerkit_compatible,
    replay_history,
)
from omaha.phh.variants import variant_for_name

EXACT = ("PO", "FO/8", "FT", "NT", "PT")
SHOWDOWN_DIFFERS = ("PO/8", "FO")
REFUSED = sorted(set(VARIANTS) - set(STANDARD_CODES) - set(PORTABLE_CODES))


def played(code: str, seed: int):
    """A random-bot hand of the game ``code`` as the package exports it."""
    meaning = variant_for_name(code)
    name = {"fixed": "fixed_limit", "pot": "pot_limit", "no": "no_limit"}[meaning.structure]
    stakes = {"small_bet": 2} if meaning.fixed_limit else {"small_blind": 1, "big_blind": 2}
    config = getattr(GameConfig, name)(variant=code, **stakes)
    rng = random.Random(seed)
    seats = sorted(rng.sample(range(1, 10), rng.randrange(2, 7)))
    hand = Hand(config, stacks={s: rng.randrange(10, 200) for s in seats},
                button=rng.choice(seats), rng=rng)
    bot = RandomBot()
    while not hand.is_over:
        act(hand, bot.decide(situation(hand), rng))
    return history_from_events(hand.events)


@pytest.mark.parametrize("code", [*EXACT, *SHOWDOWN_DIFFERS])
def test_compatible_export_writes_a_standard_code_and_reads_back_the_same(code):
    history = played(code, 1)
    portable = pokerkit_compatible(history)
    assert portable.variant in STANDARD_CODES
    assert portable.user_fields.get("_variant") == (None if code in STANDARD_CODES else code)
    text = dumps(history, compatible=True)
    assert loads(text) == history
    assert loads_all(dumps_all([history, history], compatible=True)) == [history, history]
    assert replay_history(loads(text)).matches


@pytest.mark.parametrize("code", REFUSED)
def test_compatible_export_refuses_games_without_a_faithful_encoding(code):
    assert code in ("NO", "NO/8") or code[1] in "56"
    with pytest.raises(HistoryError, match="no compatible export exists"):
        dumps(played(code, 2), compatible=True)


@pytest.mark.parametrize(
    ("variant", "real"), [("PO", "FO/8"), ("PO", 5), ("NT", "PO/8"), ("PO", "PO")]
)
def test_a_variant_field_that_is_not_an_export_pair_is_refused(variant, real):
    text = dumps(played("PO", 3)).replace('variant = "PO"', f"variant = {variant!r}".replace("'", '"'))
    text += f"_variant = {real!r}\n".replace("'", '"')
    with pytest.raises(HistoryError, match="_variant.*not a compatible export"):
        loads(text)


def test_plain_export_keeps_the_extension_code():
    assert dumps(played("PO/8", 4)).startswith('variant = "PO/8"\n')


# ---------------------------------------------------------------- with the installed PokerKit


def pokerkit_stacks(text: str) -> list[int]:
    pk = pytest.importorskip("pokerkit")
    states = list(pk.HandHistory.loads(text))
    return list(states[-1].stacks)


def mucks_a_side_pot(history) -> bool:
    """A showdown muck (``pN sm`` alone): PokerKit 0.7.7 fails an internal assertion when a
    player who alone is in a side pot mucks against an all-in player (its bug, not the file's:
    the engine awards the side pot to the one player in it). Rare: the tests count them."""
    return any(a.endswith(" sm") for a in history.actions)


@pytest.mark.parametrize("code", EXACT)
def test_pokerkit_replays_compatible_exports_to_the_same_stacks(code):
    checked = 0
    for seed in range(25):
        history = played(code, seed)
        text = dumps(history, compatible=True)
        try:
            stacks = pokerkit_stacks(text)
        except AssertionError:
            assert mucks_a_side_pot(history), text
            continue
        assert stacks == list(history.finishing_stacks), text
        checked += 1
    assert checked >= 20


def test_an_uncallable_raise_is_written_as_a_call():
    for seed in range(40):
        history = played("PO", seed)
        text = dumps(history, compatible=True)
        if text != dumps(history):
            break
    else:  # pragma: no cover - the seeds above include one (seed 15)
        pytest.fail("no uncallable raise in the seeds")
    portable = loads(text)
    assert len(portable.actions) == len(history.actions)
    changed = [(a, b) for a, b in zip(history.actions, portable.actions) if a != b]
    assert changed and all(" cbr " in a and b.endswith(" cc") for a, b in changed)
    assert replay_history(portable).finishing_stacks == tuple(history.finishing_stacks)


@pytest.mark.parametrize("code", SHOWDOWN_DIFFERS)
def test_pokerkit_loads_hi_lo_substitutes_and_differs_only_at_a_showdown(code):
    pk = pytest.importorskip("pokerkit")
    with pytest.raises(KeyError):  # the plain export: PokerKit's failure from the issue
        list(pk.HandHistory.loads(dumps(played(code, 0))))
    showdowns = 0
    for seed in range(25):
        history = played(code, seed)
        text = dumps(history, compatible=True)
        try:
            stacks = pokerkit_stacks(text)
        except AssertionError:
            assert mucks_a_side_pot(history), text
            continue
        assert sum(stacks) == sum(history.starting_stacks)
        if not any(" sm " in action for action in history.actions):
            assert stacks == list(history.finishing_stacks)
        else:
            showdowns += 1
    assert showdowns  # the showdown case was exercised (and only totals are comparable there)


def test_cli_play_pokerkit_writes_files_pokerkit_reads(tmp_path, capsys):
    from omaha.cli import main

    path = tmp_path / "hands.phhs"
    args = ["play", "--variant", "plo8", "--hands", "6", "--players", "3", "--seed", "5",
            "--phh", str(path), "--pokerkit", "--json"]
    assert main(args) == 0, capsys.readouterr().err
    hands = loads_all(path.read_text())
    assert len(hands) == 6 and all(h.variant == "PO/8" for h in hands)
    assert 'variant = "PO"' in path.read_text() and "_variant" in path.read_text()
    pk = pytest.importorskip("pokerkit")
    assert len(list(pk.HandHistory.loads_all(path.read_text()))) == 6
    assert main(["play", "--variant", "nlo", "--hands", "1", "--phh", str(path), "--pokerkit"]) == 2
    assert "no PHH standard code PokerKit reads" in capsys.readouterr().err
