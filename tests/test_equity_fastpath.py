"""The text-hands fast path of omaha.equity gives exactly what the general path gives (C3-C6, S3).

Hands as text take the fast path; the same hands as Card lists take the general path. Every
field must match on random spots (2-6 players, 0/3/4/5 board cards, dead cards, every variant).
"""

from __future__ import annotations

import pickle
import random

import pytest

import omaha
from omaha.cards import DECK, format_cards

VARIANTS = list(omaha.VARIANTS)


def _spot(rng: random.Random, variant: omaha.Variant) -> tuple[list[str], str, str]:
    nh = variant.hole_cards
    n = rng.randint(2, min(6, (52 - 5 - 2) // nh))
    nb = rng.choice((3, 4, 5)) if nh >= 5 or n > 3 else rng.choice((0, 3, 4, 5))
    cards = rng.sample(range(52), n * nh + nb + 2)
    hands = [format_cards(cards[i * nh:(i + 1) * nh]) for i in range(n)]
    board = format_cards(cards[n * nh:n * nh + nb])
    dead = format_cards(cards[n * nh + nb:n * nh + nb + rng.randint(0, 2)])
    return hands, board, dead


@pytest.mark.parametrize("seed", range(4))
def test_fast_path_equals_general_path_on_random_spots(seed):
    rng = random.Random(seed)
    for _ in range(12):
        variant = rng.choice(VARIANTS)
        hands, board, dead = _spot(rng, variant)
        fast = omaha.equity(hands, board=board or None, dead=dead or None, variant=variant)
        slow = omaha.equity([[DECK[c] for c in omaha.parse_cards(h)] for h in hands],
                            board=[DECK[c] for c in omaha.parse_cards(board)] if board else None,
                            dead=dead or None, variant=variant.name)
        by_name = omaha.equity(hands, board=board or None, dead=dead or None,
                               variant=variant.name)          # the variant cache, by name
        assert fast.exact and slow.exact
        assert fast == slow == by_name
        for name in ("equity", "high", "low", "win", "tie", "scoop", "std_error"):
            assert getattr(fast, name) == getattr(slow, name), name
        assert fast.deals == slow.deals
        assert abs(sum(fast.equity) - 1) < 1e-12


def test_fast_path_errors_match_general_path():
    # the fast path hands anything it does not take to the general path, errors included
    with pytest.raises(omaha.OmahaError, match="entry 2"):
        omaha.equity(["AsAh2d3c", "AsKhQdJc"], board="Kd7c4h", variant="plo8")
    with pytest.raises(omaha.OmahaError, match="board"):
        omaha.equity(["AsAh2d3c", "KsKhQdJc"], board="Kd7c", variant="plo8")
    with pytest.raises(omaha.OmahaError, match="dead"):
        omaha.equity(["AsAh2d3c", "KsKhQdJc"], board="Kd7c4h", dead="Kd", variant="plo8")
    with pytest.raises(TypeError):
        omaha.equity(["AsAh2d3c", "KsKhQdJc"], exact=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        omaha.equity(["AsAh2d3c", "KsKhQdJc"], threads=True)
    with pytest.raises(omaha.OmahaError, match="variant"):
        omaha.equity(["AsAh2d3c", "KsKhQdJc"], variant="no such game")


def test_lazy_result_is_immutable_comparable_and_pickles():
    res = omaha.equity(["AhAd2c3c", "KsKh6d8h"], board="2h7c4h5s", variant="plo8")
    again = pickle.loads(pickle.dumps(res))
    assert again == res and hash(again) == hash(res)
    assert repr(res).startswith("EquityResult(equity=(0.5, 0.5)")
    with pytest.raises(AttributeError):
        res.deals = 3  # type: ignore[misc]
    built = omaha.EquityResult(**{k: getattr(res, k) for k in (
        "equity", "high", "low", "win", "tie", "scoop", "exact", "deals", "std_error",
        "variant")})
    assert built == res


def test_compiled_text_path_declines_what_it_cannot_take():
    from omahacore import equity as kernel
    cache = {"AsAh2d3c": (bytes([51, 50, 1, 4]), 0), "KsKhQdJc": (bytes([47, 46, 41, 36]), 0),
             "Kd7c4h": (bytes([45, 20, 10]), 0)}
    hands = ["AsAh2d3c", "KsKhQdJc"]
    got = kernel.exact_text(hands, "Kd7c4h", None, 4, False, True, cache)
    assert got is not None
    counts, deals = got
    general = kernel.exact_counts(bytes([51, 50, 1, 4, 47, 46, 41, 36]), 2, 4,
                                  bytes([45, 20, 10]), b"", False, True)
    assert (list(counts), deals) == (list(general[0]), general[1])
    # not cached, not text, shared cards, bad cache values, wrong counts: None, never a crash
    assert kernel.exact_text(["AsAh2d3c", "QsQh2c3d"], None, None, 4, False, True, cache) is None
    assert kernel.exact_text([hands[0], 7], None, None, 4, False, True, cache) is None
    assert kernel.exact_text(["AsAh2d3c", "AsAh2d3c"], None, None, 4, False, True, cache) is None
    assert kernel.exact_text(hands, "Kd7c4h", "Kd", 4, False, True,
                             {**cache, "Kd": (bytes([45]), 0)}) is None
    for bad in ((bytes([51, 50, 1, 60]), 0), (bytes([51, 51, 1, 4]), 0), ("AsAh2d3c", 0), None, 5):
        assert kernel.exact_text(hands, None, None, 4, False, True,
                                 {**cache, "AsAh2d3c": bad}) is None
    assert kernel.exact_text(hands, None, None, 5, False, True, cache) is None
    assert kernel.exact_text(hands, None, None, 2, True, False, cache) is None
    assert kernel.exact_text("AsAh2d3c", None, None, 4, False, True, cache) is None
    assert kernel.exact_text([hands[0]], None, None, 4, False, True, cache) is None
