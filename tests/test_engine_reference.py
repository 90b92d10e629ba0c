"""Cross-check :class:`omaha.game.hand.Hand` against the frozen pure-Python :class:`ReferenceHand`
(issue 12: the hand's betting core is being compiled; this must pass before and after).

Both engines get the same arguments and the same dealt cards, then the same random
actions, legal and illegal, through the public API only. After every step every public
fact must agree: turn, street, board, stacks, bets, contributions, pot, legal actions (or
the error when nobody acts), each seat's state, the current bet, the event log (as dicts),
the pots, and at the end the result. An illegal attempt must raise the same error class
with the same rule on both and change neither (B1-B8, D2, S1, T1, T5, K1). A copy of the
hand is played on and undone back, and must be where the reference was.
"""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from omaha.config import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, VARIANTS, GameConfig, Structure
from omaha.errors import RakeError
from omaha.game.clock import TimeoutPolicy
from omaha.game.dealing import dealt_sequence
from omaha.game.hand import Hand
from omaha.game.rake import (
    SEED_POT_LIMIT_RAKE,
    NoRake,
    PercentageRake,
    PlayersBracket,
    Threshold,
    ThresholdRake,
)
from reference_engine import ReferenceHand

POLICIES = list(TimeoutPolicy)
LOOP_HANDS = 2000


class FlakyRake:
    """A rake rule (K1) that answers nonsense or raises for its first ``failures`` asks,
    then takes one chip per ten. Each engine gets its own instance."""

    def __init__(self, mode: str, failures: int) -> None:
        self.mode = mode
        self.failures = failures

    def rake_for(self, pot_total: int, players_dealt: int, saw_flop: bool) -> Any:
        if self.failures <= 0:
            return pot_total // 10
        self.failures -= 1
        if self.mode == "raise":
            raise ZeroDivisionError("a broken rake rule")
        return {"negative": -1, "float": 1.0, "bool": True, "too_much": pot_total + 1,
                "text": "3", "none": None}[self.mode]


class Chips(int):
    """An int subclass: a legal amount (the engine takes its int value)."""


def _rake_factory(rng: random.Random) -> tuple[Any, str]:
    """A way to make one rake rule per engine, and its kind: "stateful" (flaky), "partial"
    (raises for more than 3 players dealt in, so such a hand can never be awarded) or ""."""
    pick = rng.randrange(7)
    if pick == 0:
        return (lambda: SEED_POT_LIMIT_RAKE), ""
    if pick == 1:
        return NoRake, ""
    if pick == 2:
        rule = PercentageRake(per_unit=1, unit=3, caps=((2, 5), (5, 9)))
        return (lambda: rule), ""
    if pick == 3:   # covers 2-3 players only: more raise RakeError at the award (K1)
        rule = ThresholdRake(brackets=(PlayersBracket(
            min_players=2, max_players=3,
            thresholds=(Threshold(pot=10, rake=1), Threshold(pot=40, rake=3))),))
        return (lambda: rule), "partial"
    if pick == 4:
        mode = rng.choice(["raise", "negative", "float", "bool", "too_much", "text", "none"])
        failures = rng.randint(1, 3)
        return (lambda: FlakyRake(mode, failures)), "stateful"
    return (lambda: None), ""


def random_setup(rng: random.Random, *, players: int | None = None,
                 structure: Structure | None = None, manual: bool | None = None,
                 ) -> tuple[dict[str, Any], Any, str]:
    """Hand arguments (without rake), a rake factory and its kind (see _rake_factory).
    ``players`` (capped at the variant's most), ``structure`` and ``manual`` (showdown) may
    be fixed; the rest is drawn from ``rng``."""
    variant = rng.choice(VARIANTS)
    structure = structure or rng.choice([FIXED_LIMIT, POT_LIMIT, NO_LIMIT])
    extras: dict[str, Any] = {"ante": rng.choice([0, 0, 0, 1, 3]),
                              "big_blind_ante": rng.choice([0, 0, 0, 2, 5])}
    if structure is FIXED_LIMIT:
        config = GameConfig.fixed_limit(small_bet=rng.choice([2, 4, 10]), variant=variant,
                                        max_raises=rng.choice([4, 3, 1, None]),
                                        uncapped_heads_up=rng.random() < 0.4, **extras)
    else:
        big = rng.choice([2, 4, 5])
        small = rng.choice([0, 1, big // 2, big])   # 0: a single blind (T3)
        config = GameConfig(structure=structure, small_blind=small, big_blind=big,
                            variant=variant, **extras)
    n = rng.choice([2, 2, 3, rng.randint(2, variant.max_players)])
    if players is not None:
        n = min(players, variant.max_players)
    seats = sorted(rng.sample(range(1, 11), n))
    deep = rng.random() < 0.5
    stacks = {s: (rng.randint(20, 400) if deep and rng.random() < 0.8 else rng.randint(1, 25))
              for s in seats}
    button = rng.choice(seats)
    live: list[int] = []
    if n >= 4 and rng.random() < 0.3:
        b = seats.index(button)
        blinds = {seats[(b + 1) % n], seats[(b + 2) % n]}
        live = [s for s in seats if s not in blinds and rng.random() < 0.3]
    args: dict[str, Any] = {"config": config, "stacks": stacks, "button": button,
                            "manual_showdown": rng.random() < 0.4 if manual is None else manual,
                            "live_blinds": live}
    if rng.random() < 0.1:   # some cards fixed, the rest shuffled (T6)
        deck = rng.sample(range(52), variant.hole_cards + 2)
        args["hole_cards"] = {rng.choice(seats): deck[:variant.hole_cards]}
        args["board"] = deck[variant.hole_cards:]
    factory, rake_kind = _rake_factory(rng)
    return args, factory, rake_kind


# --- comparing ------------------------------------------------------------------------

def outcome(call: Any) -> tuple[str, Any]:
    """What a call did: ("ok", value) or ("error", (class, rule, reason code))."""
    try:
        return "ok", call()
    except Exception as exc:  # noqa: BLE001 (a rake rule may raise anything; compared)
        return "error", (type(exc), getattr(exc, "rule", None), getattr(exc, "reason", None))


def public(hand: Any) -> dict[str, Any]:
    """Every public fact of a hand (Hand or ReferenceHand), read only through its API."""
    seats = sorted(hand.stacks)
    out = {
        "to_act": hand.to_act, "street": hand.street, "board": hand.board,
        "stacks": hand.stacks, "bets": hand.bets, "contributions": hand.contributions,
        "pot_total": hand.pot_total, "is_over": hand.is_over,
        "current_bet": hand.current_bet(), "legal": outcome(hand.legal_actions),
        "states": [hand.state(s) for s in seats],
        "holes": [hand.hole_cards(s) for s in seats],
        "events": [ev.to_dict() for ev in hand.events],
        "pots": hand.pots(), "shown_hands": hand.shown_hands(),
        "positions": (hand.button, hand.small_blind_seat, hand.big_blind_seat),
    }
    result = hand.result
    out["result"] = None if result is None else (result, result.to_dict())
    return out


def assert_same(hand: Hand, ref: ReferenceHand) -> dict[str, Any]:
    mine, theirs = public(hand), public(ref)
    for key in mine:
        assert mine[key] == theirs[key], key
    assert type(mine["street"]) is type(theirs["street"])
    return mine


def both(hand: Hand, ref: ReferenceHand, method: str, *args: Any, **kwargs: Any
         ) -> tuple[str, Any]:
    """Call ``method`` on both; they must agree on the outcome. An error changes nothing."""
    before = public(hand)
    got = outcome(lambda: getattr(hand, method)(*args, **kwargs))
    want = outcome(lambda: getattr(ref, method)(*args, **kwargs))
    assert got == want, (method, args, kwargs, got, want)
    if got[0] == "error":
        assert public(hand) == before, (method, args, kwargs)
    assert_same(hand, ref)
    return got


def features(args: dict[str, Any], ref_args: dict[str, Any]) -> list[Any]:
    """What a hand's setup covers, to check the random loop reaches everything."""
    config, stacks = args["config"], args["stacks"]
    n = len(stacks)
    out: list[Any] = [config.variant.name, config.structure, ("players", n)]
    out += [name for name, on in (
        ("ante", config.ante), ("big_blind_ante", config.big_blind_ante),
        ("single_blind", config.small_blind == 0), ("live_blinds", args["live_blinds"]),
        ("short_stack", min(stacks.values()) < config.big_blind),
        ("uncapped_heads_up", config.uncapped_heads_up and n == 2),
        ("manual_showdown", args["manual_showdown"]), ("fixed_cards", "board" in args),
        ("deck", "deck" in ref_args)) if on]
    return out


# --- choosing actions -------------------------------------------------------------------

def legal_choice(hand: Any, rng: random.Random) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    """A random action that is legal now (given the legal actions)."""
    legal = hand.legal_actions()
    if legal.can_show:
        return rng.choice([("show", (), {}), ("muck", (), {}), ("timeout", (), {}),
                           ("show", (), {"seat": legal.seat})])
    r = rng.random()
    if r < 0.08:
        return "timeout", (), {"policy": rng.choice(POLICIES)}
    if r < 0.18 and legal.call_amount or r < 0.2:
        return "fold", (), {}
    if r < 0.24 and legal.call_amount and hand.contributions[legal.seat]:
        return "protect_all_in", (), {}
    if r < 0.44 and legal.min_raise_to is not None:
        low, high = legal.min_raise_to, legal.max_raise_to
        to = rng.choice([low, high, rng.randint(low, high)])
        return "bet_or_raise", (Chips(to) if rng.random() < 0.1 else to,), {}
    if r < 0.48:
        return "all_in", (), {}   # sometimes refused (a raise it may not make): compared too
    if r < 0.6:
        return ("call", (), {}) if legal.call_amount else ("check", (), {"seat": legal.seat})
    return "check_or_call", (), {}


def illegal_choice(hand: Any, rng: random.Random) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    """An attempt that is usually illegal (B1-B8, D2, S1, T1); whatever it does is compared."""
    seats = sorted(hand.stacks)
    turn = hand.to_act
    other = rng.choice([s for s in seats if s != turn])
    legal = outcome(hand.legal_actions)
    low = high = None
    if legal[0] == "ok":
        low, high = legal[1].min_raise_to, legal[1].max_raise_to
    picks: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
        ("fold", (), {"seat": other}),                     # B1: not their turn
        ("check_or_call", (), {"seat": 11}),               # B1: not dealt in
        ("call", (), {"seat": True}),                      # T1: bool is never a seat
        ("check", (), {"seat": 1.0}),                      # T1: float seat
        ("check", (), {}),                                  # B2 when owing
        ("call", (), {}),                                   # B2 when nothing is owed
        ("bet_or_raise", (True,), {}),                      # B2: bool amount
        ("bet_or_raise", (float(low or 2),), {}),          # B2: float amount
        ("bet_or_raise", ("10",), {}),                      # B2: text amount
        ("bet_or_raise", (0,), {}),
        ("bet_or_raise", (-5,), {}),
        ("bet_or_raise", (2**70,), {}),                    # B8: beyond any stack
        ("protect_all_in", (), {}),                         # D2 when a check is free
        ("timeout", (), {"policy": "fold"}),              # D2: not a policy
        ("timeout", (), {"seat": other, "policy": rng.choice(POLICIES)}),
        ("show", (), {}),                                   # S1 during betting
        ("muck", (), {"seat": other}),
        ("all_in", (), {"seat": other}),
        ("state", (0,), {}), ("state", (False,), {}), ("hole_cards", (12,), {}),
    ]
    if low is not None and high is not None:
        picks += [("bet_or_raise", (low - 1,), {}), ("bet_or_raise", (high + 1,), {}),
                  ("bet_or_raise", (rng.randint(0, low),), {})]
    return rng.choice(picks)


def play(hand: Any, rng: random.Random, step: tuple[str, tuple[Any, ...], dict[str, Any]]) -> None:
    """Play ``step`` on one hand, ignoring refusals (used on copies)."""
    name, args, kwargs = step
    outcome(lambda: getattr(hand, name)(*args, **kwargs))


# --- one hand -----------------------------------------------------------------------------

def check_copy_undo(hand: Hand, ref: ReferenceHand, rng: random.Random) -> Hand:
    """Copy the hand, play on the copy, undo back: it must be where the reference is now.
    Half the time the undone copy becomes the hand played on."""
    saved = public(ref)
    branch = hand.copy()
    assert public(branch) == saved
    taken = 0
    for _ in range(rng.randint(1, 6)):
        if branch.is_over:
            break
        depth = branch.undo_depth
        play(branch, rng, legal_choice(branch, rng))
        taken += branch.undo_depth - depth
        assert public(hand) == saved   # playing on the copy leaves the hand alone
    assert branch.undo_depth == taken
    for _ in range(taken):
        branch.undo()
    assert public(branch) == saved
    assert public(hand) == saved
    kind, err = outcome(branch.undo)
    assert kind == "error" and err[1] is None   # the copy has no earlier history
    return branch if rng.random() < 0.5 else hand


def play_one(seed: int, seen: Counter[Any] | None = None, **fixed: Any) -> int:
    """Play one random hand on both engines, comparing after every step; its step count.
    ``fixed`` goes to :func:`random_setup`."""
    rng = random.Random(seed)
    args, rake_factory, rake_kind = random_setup(rng, **fixed)
    deal_seed = rng.getrandbits(64)
    made = outcome(lambda: Hand(**args, rng=random.Random(deal_seed), rake=rake_factory()))
    ref_args = dict(args)
    if made[0] == "ok" and rng.random() < 0.5:
        # The reference may get the Hand's dealt sequence whole instead (T6).
        seats = tuple(sorted(args["stacks"]))
        sb = seats.index(made[1].small_blind_seat)
        ref_args["deck"] = dealt_sequence(args["config"], seats, sb, random.Random(deal_seed),
                                          args.get("hole_cards"), args.get("board"), None)
    ref_made = outcome(lambda: ReferenceHand(**ref_args, rng=random.Random(deal_seed),
                                             rake=rake_factory()))
    if made[0] == "error":   # a hand over as dealt whose rake rule failed (K1)
        assert ref_made == made
        if seen is not None:
            seen[("setup", made[1])] += 1
        return 0
    assert ref_made[0] == "ok", ref_made
    hand, ref = made[1], ref_made[1]
    assert_same(hand, ref)
    if seen is not None:
        seen.update(("setup", feature) for feature in features(args, ref_args))
    steps = refused = 0
    while steps < 400:
        steps += 1
        if hand.is_over:
            step = rng.choice([("check_or_call", (), {}), ("show", (), {}),
                               ("timeout", (), {}), ("fold", (), {"seat": hand.button})])
            got = both(hand, ref, step[0], *step[1], **step[2])
            assert got[0] == "error"
            if seen is not None:
                seen[("over", got[1])] += 1
            break
        if rake_kind != "stateful" and rng.random() < 0.08:
            # (a stateful rule is shared by a copy, so the copy's asks would count)
            hand = check_copy_undo(hand, ref, rng)
            assert_same(hand, ref)
            if seen is not None:
                seen["copy_undo"] += 1
        illegal = rng.random() < 0.2
        step = (illegal_choice if illegal else legal_choice)(hand, rng)
        got = both(hand, ref, step[0], *step[1], **step[2])
        if seen is not None:
            seen[(step[0], got[0] if got[0] == "ok" else got[1])] += 1
            if step[0] == "timeout" and got[0] == "ok":
                seen[("timeout", step[2].get("policy"), got[1])] += 1
        if got[0] == "error" and got[1][0] is RakeError:
            refused += 1
            if refused == 3:   # a rule that covers too few players refuses every award
                break
    if rake_kind == "partial" and len(args["stacks"]) > 3:
        assert not hand.is_over   # every award refused (RakeError), the hand left as it was
        return steps
    assert hand.is_over and ref.is_over
    result = hand.result
    assert result is not None and sum(result.stacks.values()) + result.rake == sum(args["stacks"].values())
    return steps


# --- the tests -------------------------------------------------------------------------------

def test_hand_matches_reference_on_random_hands() -> None:
    """B1-B8, D2, S1, S4, K1, T3-T6: many seeded random hands, every step compared."""
    seen: Counter[Any] = Counter()
    steps = sum(play_one(seed, seen) for seed in range(LOOP_HANDS))
    assert steps > 5 * LOOP_HANDS
    rules = {what[1][1] for what in seen if isinstance(what[1], tuple)}
    # Every kind of refusal was met and agreed on, not just the easy ones.
    assert {"B1", "B2", "B3", "B4", "B5", "B7", "B8", "D2", "S1", "T1", "K1"} <= rules, rules
    setups = {what[1] for what in seen if what[0] == "setup"}
    assert {variant.name for variant in VARIANTS} <= setups
    assert {FIXED_LIMIT, POT_LIMIT, NO_LIMIT} <= setups
    assert {("players", n) for n in range(2, 11)} <= setups
    assert {"ante", "big_blind_ante", "single_blind", "live_blinds", "short_stack",
            "uncapped_heads_up", "manual_showdown", "fixed_cards", "deck"} <= setups
    timeouts = {what[1:] for what in seen if what[0] == "timeout" and len(what) == 3}
    assert {(p, p.decide(can_check=c, has_chips_in=True)) for p in POLICIES for c in (True, False)
            } <= timeouts, timeouts
    assert any(action == "muck" for _, action in timeouts)   # a timeout at manual showdown
    assert seen["copy_undo"] > LOOP_HANDS // 5
    names = {what[0] for what in seen if what[1] == "ok"}
    assert {"fold", "check", "call", "check_or_call", "bet_or_raise", "all_in",
            "protect_all_in", "timeout", "show", "muck"} <= names, names


@settings(max_examples=100)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1),
       players=st.none() | st.integers(min_value=2, max_value=10),
       structure=st.none() | st.sampled_from([FIXED_LIMIT, POT_LIMIT, NO_LIMIT]),
       manual=st.none() | st.booleans())
def test_hand_matches_reference_hypothesis(seed: int, players: int | None,
                                           structure: Structure | None,
                                           manual: bool | None) -> None:
    """The same cross-check, seeds and some options chosen (and shrunk) by Hypothesis."""
    play_one(seed, players=players, structure=structure, manual=manual)


def test_reference_does_not_import_the_engine_it_checks() -> None:
    """The reference stays independent of the code being rewritten (issue 12)."""
    tree = ast.parse(Path(__file__).with_name("reference_engine.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert "reference_betting" in imported   # the walk sees the imports
    assert not imported & {"omaha.game.hand", "omaha.state", "omaha.game.award", "engine_helpers",
                            "omahacore.engine", "omahacore.transitions"}
