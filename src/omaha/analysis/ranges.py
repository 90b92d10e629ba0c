"""Ranges of starting hands in ProPokerTools-style syntax (see ``docs/ranges.md``).

A *pattern* lists card slots; a hand matches when its cards can be assigned to the slots
(one card each; slots left over in the hand are free), so ``AA**`` or just ``AA`` is every
hand with at least two aces:

>>> len(Range("AA**")), len(Range("AA"))
(6961, 6961)

A slot is a rank (``AKQJT98765432``), ``*`` (any rank), or a bracket of ranks (``[AKQ]``,
``[A-T]``), optionally followed by a suit: ``c d h s`` or a suit variable ``w x y z`` (same
letter same suit, different letters different suits). A bare suit letter is any rank of that
suit. ``,`` is union, ``!`` exclusion, ``:`` intersection (binding tightest), with
parentheses; macros ``$ds $ss $r $np $pair $L $B``; rank spans ``KK-88``, ``AK-AT``; and
``top N%`` from the shipped preflop ordering (4-card Omaha).

>>> r = Range("AA**:xxyy")        # double-suited aces
>>> len(r), "AsAh2s3h" in r, "AsAh2s3d" in r
(864, True, False)
>>> str(Range("kk-qq!KKK* , $ds:AK"))
'KK-QQ!KKK*,$ds:AK'
>>> Range(str(r)) == r
True
"""

from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import omaha.limits as _limits
from omaha.cards import DECK, Card, CardsLike, format_cards, parse_cards
from omaha.config import OMAHA_HIGH, SHORT_NAMES, Variant, variant_of
from omaha.errors import LimitError, OmahaError, OmahaTypeError
from omaha.limits import safe_repr

if TYPE_CHECKING:  # NumPy is imported only when a macro or "any hand" list is needed
    import numpy as np

__all__ = ["MACROS", "MAX_LISTED", "Range", "RangeError", "RangeLimitError", "RangeTypeError",
           "variant_of"]

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_VARS = "wxyz"
MAX_LISTED = _limits.MAX_RANGE_HANDS   # the old name of omaha.limits.MAX_RANGE_HANDS


class RangeError(OmahaError):
    """A range that does not parse, or that lists no hand / too many hands."""


class RangeTypeError(RangeError, OmahaTypeError):
    """A range argument of the wrong type (a list where range text goes, a number as a
    variant); also a :class:`TypeError`."""


class RangeLimitError(RangeError, LimitError):
    """A range past one of the limits of :mod:`omaha.limits` (:data:`~omaha.limits.MAX_RANGE_TEXT`,
    :data:`~omaha.limits.MAX_RANGE_DEPTH`, :data:`~omaha.limits.MAX_RANGE_HANDS`)."""


class _TooMany(RangeLimitError):
    """A part that lists past MAX_RANGE_HANDS (an intersection may still filter it)."""


def _too_many(count: int | str, what: str = "the range") -> RangeLimitError:
    limit = _limits.MAX_RANGE_HANDS
    return _TooMany(f"{what} lists {count} hands, more than MAX_RANGE_HANDS = {limit:,}; "
                           "narrow it with a pattern (or raise omaha.limits.MAX_RANGE_HANDS)")


WORK_FACTOR = 4
"""Building one range may enumerate or test at most ``WORK_FACTOR * MAX_RANGE_HANDS`` hands
in all (every part together): a long text of many large parts, each under the limit, would
otherwise take hours to build a range that is itself small."""

_BUDGET = threading.local()


def _spend(count: int) -> None:
    """Count ``count`` hands about to be enumerated or tested against the build's budget."""
    left: int | None = getattr(_BUDGET, "left", None)
    if left is None:
        return
    _BUDGET.left = left - count
    if left < count:
        limit = _limits.MAX_RANGE_HANDS
        raise RangeLimitError(f"building the range would enumerate more than {WORK_FACTOR} x "
                              f"MAX_RANGE_HANDS = {WORK_FACTOR * limit:,} hands in all; "
                              "simplify it (or raise omaha.limits.MAX_RANGE_HANDS)")


def _check_size(hands: frozenset[int] | set[int]) -> None:
    if len(hands) > _limits.MAX_RANGE_HANDS:
        raise _too_many(f"{len(hands):,}")


# ---------------------------------------------------------------- hands as bit masks

def _mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _cards_of(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _check_listable(nh: int) -> None:
    if math.comb(52, nh) > _limits.MAX_RANGE_HANDS:
        raise _too_many(f"{math.comb(52, nh):,}", f"listing every {nh}-card hand")


@lru_cache(maxsize=8)
def _universe_cards(nh: int) -> tuple[np.ndarray, list[int]]:
    """Every hand as sorted card indices (N, nh) and as bit masks."""
    _check_listable(nh)
    import numpy as np
    cards = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), nh)),
                        dtype=np.int64, count=nh * math.comb(52, nh)).reshape(-1, nh)
    masks = np.zeros(len(cards), dtype=np.uint64)
    for i in range(nh):
        masks |= np.uint64(1) << cards[:, i].astype(np.uint64)
    return cards, masks.tolist()


@lru_cache(maxsize=8)
def _universe(nh: int) -> frozenset[int]:
    return frozenset(_universe_cards(nh)[1])


# ---------------------------------------------------------------- the syntax tree

class _Node:
    def hands(self, nh: int) -> frozenset[int]:
        """Every matching hand (as card bit masks)."""
        raise NotImplementedError

    def text(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class _Slot:
    ranks: frozenset[int]      # allowed ranks 0..12
    suit: str                  # "" (any), a concrete suit "cdhs" or a variable "wxyz"

    def text(self) -> str:
        if len(self.ranks) == 13:
            r = "*"
        elif len(self.ranks) == 1:
            r = RANK_CHARS[next(iter(self.ranks))]
        else:
            r = "[" + "".join(RANK_CHARS[x] for x in sorted(self.ranks, reverse=True)) + "]"
        if r == "*" and self.suit:
            return self.suit
        return r + self.suit


class _Pattern(_Node):
    def __init__(self, slots: tuple[_Slot, ...]) -> None:
        self.slots = slots
        self._bindings: list[list[tuple[frozenset[int], int]]] | None = None

    @property
    def is_any(self) -> bool:
        return all(len(s.ranks) == 13 and not s.suit for s in self.slots)

    def text(self) -> str:
        out = []
        for i, s in enumerate(self.slots):
            t = s.text()
            # a bare suit letter after a slot without a suit would read as that slot's suit
            if len(t) == 1 and t in SUIT_CHARS + SUIT_VARS and i and not self.slots[i - 1].suit:
                t = "*" + t
            out.append(t)
        return "".join(out)

    def _concrete(self) -> Iterator[list[tuple[frozenset[int], int]]]:
        """Each binding of the suit variables: slots as (ranks, suit or -1)."""
        variables = sorted({s.suit for s in self.slots if s.suit and s.suit in SUIT_VARS})
        for suits in itertools.permutations(range(4), len(variables)):
            bound = dict(zip(variables, suits))
            yield [(s.ranks, bound[s.suit] if s.suit in bound else
                    (SUIT_CHARS.index(s.suit) if s.suit else -1)) for s in self.slots]

    def hands(self, nh: int) -> frozenset[int]:
        if len(self.slots) > nh:
            return frozenset()
        out: set[int] = set()
        for slots in self._concrete():
            fixed = [s for s in slots if not (len(s[0]) == 13 and s[1] < 0)]
            free = nh - len(fixed)
            groups: dict[tuple[frozenset[int], int], int] = {}
            for s in fixed:
                groups[s] = groups.get(s, 0) + 1
            partial: set[int] = {0}
            for (ranks, suit), count in groups.items():
                cands = [c for c in range(52) if c >> 2 in ranks and (suit < 0 or c & 3 == suit)]
                nxt: set[int] = set()
                for base in partial:
                    avail = [c for c in cands if not base >> c & 1]
                    _spend(math.comb(len(avail), count))
                    for combo in itertools.combinations(avail, count):
                        nxt.add(base | _mask(combo))
                    _check_size(nxt)
                partial = nxt
            each = math.comb(52 - len(fixed), free)     # completions of one base
            _spend(each * len(partial))
            if free == 0:
                out |= partial
                _check_size(out)
                continue
            for base in partial:
                if len(out) + each > 2 * _limits.MAX_RANGE_HANDS:
                    raise _too_many(f"more than {2 * _limits.MAX_RANGE_HANDS:,}",
                                    f"the pattern {self.text()!r}")
                rest = [c for c in range(52) if not base >> c & 1]
                for combo in itertools.combinations(rest, free):
                    out.add(base | _mask(combo))
                _check_size(out)
        return frozenset(out)

    def test(self, mask: int) -> bool:
        cards = _cards_of(mask)
        if len(self.slots) > len(cards):
            return False
        if self._bindings is None:
            self._bindings = list(self._concrete())
        for slots in self._bindings:
            if _assign(slots, 0, cards, 0):
                return True
        return False


def _assign(slots: list[tuple[frozenset[int], int]], i: int, cards: tuple[int, ...],
            used: int) -> bool:
    if i == len(slots):
        return True
    ranks, suit = slots[i]
    return any(not used >> j & 1 and c >> 2 in ranks and (suit < 0 or c & 3 == suit)
               and _assign(slots, i + 1, cards, used | 1 << j) for j, c in enumerate(cards))


class _Span(_Node):
    """``KK-88``: ranks that differ between the ends step down together."""

    def __init__(self, high: _Pattern, low: _Pattern, where: str) -> None:
        a, b = high.slots, low.slots
        if len(a) != len(b) or any(x.suit != y.suit for x, y in zip(a, b)) or any(
                len(x.ranks) != 1 or len(y.ranks) != 1 for x, y in zip(a, b)
                if x.ranks != y.ranks):
            raise RangeError(f"span {where!r}: both ends need the same shape and suits")
        steps = {next(iter(x.ranks)) - next(iter(y.ranks)) for x, y in zip(a, b)
                 if x.ranks != y.ranks}
        if len(steps) != 1 or min(steps) <= 0:
            raise RangeError(f"span {where!r}: the changing ranks must step down by the same "
                             "amount from the first end to the second")
        self.high, self.low, self.step = high, low, steps.pop()
        self.members = [_Pattern(tuple(
            x if x.ranks == y.ranks else _Slot(frozenset({next(iter(x.ranks)) - k}), x.suit)
            for x, y in zip(a, b))) for k in range(self.step + 1)]

    def text(self) -> str:
        return f"{self.high.text()}-{self.low.text()}"

    def hands(self, nh: int) -> frozenset[int]:
        out: set[int] = set()
        for m in self.members:
            out |= m.hands(nh)
            _check_size(out)
        return frozenset(out)

    def test(self, mask: int) -> bool:
        return any(m.test(mask) for m in self.members)


def _suit_sorted(cards: np.ndarray) -> np.ndarray:
    import numpy as np
    counts = np.stack([(cards & 3 == s).sum(axis=1) for s in range(4)], axis=1)
    return -np.sort(-counts, axis=1)


def _has_pair(cards: np.ndarray) -> np.ndarray:
    import numpy as np
    ranks = cards >> 2          # cards ascending, so ranks are too
    paired: np.ndarray = np.any(ranks[:, 1:] == ranks[:, :-1], axis=1)
    return paired


def _all_low(cards: np.ndarray) -> np.ndarray:
    import numpy as np
    low: np.ndarray = np.all(np.isin(cards >> 2, (12, 0, 1, 2, 3, 4, 5, 6)), axis=1)
    return low


def _all_broadway(cards: np.ndarray) -> np.ndarray:
    import numpy as np
    high: np.ndarray = np.all(cards >> 2 >= 8, axis=1)
    return high


MACROS: dict[str, tuple[str, Callable[[np.ndarray], np.ndarray]]] = {
    "$ds": ("double-suited: two suits held at least twice each (4 cards: xxyy)",
            lambda c: _suit_sorted(c)[:, 1] >= 2),
    "$ss": ("single-suited: exactly one suit held twice or more",
            lambda c: (_suit_sorted(c)[:, 0] >= 2) & (_suit_sorted(c)[:, 1] < 2)),
    "$r": ("rainbow: no suit held twice", lambda c: _suit_sorted(c)[:, 0] <= 1),
    "$np": ("no pair: every rank different", lambda c: ~_has_pair(c)),
    "$pair": ("paired: some rank held twice or more", _has_pair),
    "$L": ("low cards: every card A-8", _all_low),
    "$B": ("broadway: every card T-A", _all_broadway),
}


@lru_cache(maxsize=32)
def _macro_hands(name: str, nh: int) -> frozenset[int]:
    cards, masks = _universe_cards(nh)
    keep = MACROS[name][1](cards)
    return frozenset(m for m, k in zip(masks, keep.tolist()) if k)


class _Macro(_Node):
    def __init__(self, name: str) -> None:
        self.name = name

    def text(self) -> str:
        return self.name

    def hands(self, nh: int) -> frozenset[int]:
        return _macro_hands(self.name, nh)


class _Top(_Node):
    def __init__(self, percent: str, ordering: str) -> None:
        self.percent, self.ordering = percent, ordering
        value = float(percent)
        if not 0 < value <= 100:
            raise RangeError(f"top {percent}%: the percentage must be in (0, 100]")
        self.value = value
        self._set: frozenset[int] | None = None

    def text(self) -> str:
        return f"top {self.percent}%{self.ordering}"

    def _hands(self, nh: int, hilo: bool) -> frozenset[int]:
        if nh != 4:
            raise RangeError("top N% uses the 4-card Omaha preflop ordering")
        from omaha.analysis.preflop import top_hands
        hi = hilo if not self.ordering else self.ordering == "hilo"
        return top_hands(self.value, hilo=hi)

    def hands(self, nh: int) -> frozenset[int]:   # replaced per Range (needs the variant)
        raise AssertionError


class _Union(_Node):
    def __init__(self, parts: list[_Node]) -> None:
        self.parts = parts

    def text(self) -> str:
        return ",".join(p.text() for p in self.parts)


class _Intersection(_Node):
    def __init__(self, parts: list[_Node]) -> None:
        self.parts = parts

    def text(self) -> str:
        return ":".join(_wrap(p, (_Union, _Exclusion)) for p in self.parts)


class _Exclusion(_Node):
    def __init__(self, base: _Node, excluded: list[_Node]) -> None:
        self.base, self.excluded = base, excluded

    def text(self) -> str:
        return "!".join(_wrap(p, (_Union, _Exclusion)) for p in [self.base, *self.excluded])


def _wrap(node: _Node, kinds: tuple[type, ...]) -> str:
    return f"({node.text()})" if isinstance(node, kinds) else node.text()


# ---------------------------------------------------------------- parsing

class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.s = "".join(text.split())
        self.i = 0
        self.depth = 0

    def fail(self, why: str) -> RangeError:
        return RangeError(f"range {safe_repr(self.text)}: {why} at position {self.i + 1}")

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def parse(self) -> _Node:
        if not self.s:
            raise RangeError("a range cannot be empty")
        node = self.union()
        if self.i != len(self.s):
            raise self.fail(f"unexpected {self.peek()!r}")
        return node

    def union(self) -> _Node:
        parts = [self.exclusion()]
        while self.peek() == ",":
            self.i += 1
            parts.append(self.exclusion())
        return parts[0] if len(parts) == 1 else _Union(parts)

    def exclusion(self) -> _Node:
        base = self.intersection()
        excluded = []
        while self.peek() == "!":
            self.i += 1
            excluded.append(self.intersection())
        return _Exclusion(base, excluded) if excluded else base

    def intersection(self) -> _Node:
        parts = [self.atom()]
        while self.peek() == ":":
            self.i += 1
            parts.append(self.atom())
        return parts[0] if len(parts) == 1 else _Intersection(parts)

    def atom(self) -> _Node:
        ch = self.peek()
        if ch == "(":
            self.depth += 1
            if self.depth > _limits.MAX_RANGE_DEPTH:
                raise RangeLimitError(
                    f"range {safe_repr(self.text)}: parentheses nested deeper than "
                    f"MAX_RANGE_DEPTH = {_limits.MAX_RANGE_DEPTH} at position {self.i + 1} "
                    "(raise omaha.limits.MAX_RANGE_DEPTH to allow more)")
            self.i += 1
            node = self.union()
            if self.peek() != ")":
                raise self.fail("missing ')'")
            self.i += 1
            self.depth -= 1
            return node
        if ch == "$":
            for name in sorted(MACROS, key=len, reverse=True):
                if self.s.startswith(name, self.i):
                    end = self.i + len(name)
                    if end < len(self.s) and self.s[end].isalnum():
                        continue
                    self.i = end
                    return _Macro(name)
            raise self.fail(f"unknown macro (known: {' '.join(MACROS)})")
        if self.s[self.i:self.i + 3].lower() == "top":
            return self.top()
        start = self.i
        first = self.pattern()
        if self.peek() == "-":
            self.i += 1
            second = self.pattern()
            return _Span(first, second, self.s[start:self.i])
        return first

    def top(self) -> _Node:
        self.i += 3
        j = self.i
        while self.peek() and (self.peek().isdigit() or self.peek() == "."):
            self.i += 1
        number = self.s[j:self.i]
        if not number or self.peek() != "%":
            raise self.fail("expected 'top N%'")
        self.i += 1
        ordering = ""
        for word in ("hilo", "high"):
            if self.s[self.i:self.i + len(word)].lower() == word:
                ordering = word
                self.i += len(word)
                break
        try:
            float(number)
        except ValueError:
            raise self.fail(f"bad percentage {number!r}") from None
        return _Top(number, ordering)

    def pattern(self) -> _Pattern:
        slots: list[_Slot] = []
        while True:
            ch = self.peek()
            up = ch.upper()
            if ch == "*":
                ranks = frozenset(range(13))
                self.i += 1
            elif up in RANK_CHARS and ch:
                ranks = frozenset({RANK_CHARS.index(up)})
                self.i += 1
            elif self.s.startswith("10", self.i):      # "10" is a ten, as in card text
                ranks = frozenset({RANK_CHARS.index("T")})
                self.i += 2
            elif ch == "[":
                ranks = self.bracket()
            elif ch and ch in SUIT_CHARS + SUIT_VARS:
                slots.append(_Slot(frozenset(range(13)), ch))
                self.i += 1
                continue
            else:
                break
            suit = ""
            nxt = self.peek()
            if nxt and nxt in SUIT_CHARS + SUIT_VARS:
                suit = nxt
                self.i += 1
            slots.append(_Slot(ranks, suit))
        if not slots:
            raise self.fail("expected cards, ranks, '*', a macro or '('")
        return _Pattern(tuple(slots))

    def bracket(self) -> frozenset[int]:
        self.i += 1
        ranks: set[int] = set()
        while self.peek() and self.peek() != "]":
            a = self.peek().upper()
            if a not in RANK_CHARS:
                raise self.fail(f"bad rank {self.peek()!r} in brackets")
            self.i += 1
            if self.peek() == "-":
                self.i += 1
                b = self.peek().upper()
                if not b or b not in RANK_CHARS:
                    raise self.fail("bad rank span in brackets")
                self.i += 1
                lo, hi = sorted((RANK_CHARS.index(a), RANK_CHARS.index(b)))
                ranks.update(range(lo, hi + 1))
            else:
                ranks.add(RANK_CHARS.index(a))
        if self.peek() != "]" or not ranks:
            raise self.fail("unclosed or empty '[...]'")
        self.i += 1
        return frozenset(ranks)


# ---------------------------------------------------------------- evaluation

def _evaluate(node: _Node, nh: int, hilo: bool) -> frozenset[int]:
    if isinstance(node, _Top):
        return node._hands(nh, hilo)
    if isinstance(node, _Union):
        out: set[int] = set()
        for p in node.parts:      # one part at a time, each checked: never k parts in memory
            out |= _evaluate(p, nh, hilo)
            _check_size(out)
        return frozenset(out)
    if isinstance(node, _Intersection):
        parts = sorted(node.parts, key=lambda p: not isinstance(p, (_Pattern, _Span)))
        base = _evaluate(parts[0], nh, hilo)
        for p in parts[1:]:
            base = _filter(base, p, nh, hilo, keep=True)
        return base
    if isinstance(node, _Exclusion):
        base = _evaluate(node.base, nh, hilo)
        for p in node.excluded:
            base = _filter(base, p, nh, hilo, keep=False)
        return base
    if isinstance(node, _Pattern) and _is_any(node):
        return _universe(nh)
    return node.hands(nh)


def _filter(base: frozenset[int], node: _Node, nh: int, hilo: bool,
            keep: bool) -> frozenset[int]:
    """``base`` and (or minus) the hands of ``node``: tested one by one when ``base`` is
    small and ``node`` a pattern, otherwise as a set operation."""
    if isinstance(node, (_Pattern, _Span)) and len(base) < 20_000:
        _spend(len(base))
        return frozenset(m for m in base if node.test(m) == keep)
    try:
        other = _evaluate(node, nh, hilo)
    except _TooMany:
        if not isinstance(node, (_Pattern, _Span)):
            raise
        # the pattern alone lists too many hands (6-card "xxyy"): test the base's instead
        _spend(len(base))
        return frozenset(m for m in base if node.test(m) == keep)
    return base & other if keep else base - other


def _is_any(node: _Node) -> bool:
    return isinstance(node, _Pattern) and node.is_any


_Compiled = tuple[str, bool, tuple[int, ...]]
_CACHE: dict[tuple[str, int, bool, int], _Compiled] = {}
_CACHE_HANDS = 3_000_000      # most hands kept in the cache of parsed ranges, all together


def _compiled(text: str, nh: int, hilo: bool) -> _Compiled:
    """Canonical text, is-any and sorted masks of range text, cached (the cache holds at
    most ``_CACHE_HANDS`` hands and 256 ranges in all, whatever the ranges parsed; the
    oldest go first)."""
    key = (text, nh, hilo, _limits.MAX_RANGE_HANDS)
    got = _CACHE.get(key)
    if got is not None:
        return got
    _BUDGET.left = WORK_FACTOR * _limits.MAX_RANGE_HANDS
    try:
        node = _Parser(text).parse()
        canonical = node.text()
        if _is_any(node):
            got = (canonical, True, ())
        else:
            masks = _evaluate(node, nh, hilo)
            _check_size(masks)
            got = (canonical, False, tuple(sorted(masks)))
    except RecursionError:     # raised MAX_RANGE_DEPTH past what the interpreter allows
        raise RangeLimitError(f"range {safe_repr(text)} is nested too deeply for this "
                              "interpreter's recursion limit") from None
    finally:
        _BUDGET.left = None
    size = len(got[2])
    if size <= _CACHE_HANDS:
        while _CACHE and sum(len(v[2]) for v in _CACHE.values()) + size > _CACHE_HANDS:
            del _CACHE[next(iter(_CACHE))]
        if len(_CACHE) >= 256:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[key] = got
    return got


class Range:
    """A set of starting hands, parsed once; ``len()``, iteration, ``in`` and ``str()``.

    ``variant`` (a :class:`Variant` or a name of :data:`omaha.config.VARIANT_NAMES`, such
    as ``"plo8"``) sets the number of hole
    cards and which ``top N%`` ordering applies (hi/lo for hi/lo games). A range that is
    only wildcards (``"****"``) is *any hand*: it is never listed for equity, which deals it
    from the cards left.

    >>> r = Range("AKQJ:$ds,  KK-QQ:$r")
    >>> len(r), str(r)
    (1856, 'AKQJ:$ds,KK-QQ:$r')
    >>> next(iter(Range("AcAdAhAs")))
    (Card('Ac'), Card('Ad'), Card('Ah'), Card('As'))
    """

    __slots__ = ("_any", "_data", "_masks", "_set", "text", "variant")

    def __init__(self, text: str, variant: Variant | str = OMAHA_HIGH) -> None:
        if not isinstance(text, str):
            raise RangeTypeError(f"text: a range is text, got {type(text).__name__} "
                                 f"{safe_repr(text)}")
        text = str.__str__(text)        # a str subclass: its text, none of its methods
        if len(text) > _limits.MAX_RANGE_TEXT:
            raise RangeLimitError(f"text: a range of {len(text):,} characters is longer than "
                                  f"MAX_RANGE_TEXT = {_limits.MAX_RANGE_TEXT:,} (raise "
                                  "omaha.limits.MAX_RANGE_TEXT to allow more)")
        if not isinstance(variant, (Variant, str)):
            raise RangeTypeError(f"variant must be a Variant or a variant name, got "
                                 f"{type(variant).__name__} {safe_repr(variant)}")
        self.variant = variant_of(variant)
        nh = self.variant.hole_cards
        self.text, self._any, self._masks = _compiled(text, nh, self.variant.hi_lo)
        if not self._any and not self._masks:
            raise RangeError(f"range {text!r} has no {nh}-card hand")
        self._set: frozenset[int] | None = None
        self._data: bytes | None = None

    @property
    def is_any(self) -> bool:
        """True for the range of every hand (only wildcards)."""
        return self._any

    def __len__(self) -> int:
        return math.comb(52, self.variant.hole_cards) if self._any else len(self._masks)

    def __iter__(self) -> Iterator[tuple[Card, ...]]:
        if self._any:
            yield from itertools.combinations(DECK, self.variant.hole_cards)
            return
        for m in self._masks:
            yield tuple(DECK[c] for c in _cards_of(m))

    def __contains__(self, hand: object) -> bool:
        try:
            cards = parse_cards(hand)  # type: ignore[arg-type]
        except (OmahaError, TypeError):
            return False
        if len(cards) != self.variant.hole_cards:
            return False
        if self._any:
            return True
        if self._set is None:
            self._set = frozenset(self._masks)
        return _mask(tuple(int(c) for c in cards)) in self._set

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        if self.variant == OMAHA_HIGH:
            return f"Range({self.text!r})"
        alias = SHORT_NAMES.get(self.variant)
        return f"Range({self.text!r}, variant={alias!r})" if alias else \
            f"Range({self.text!r}, variant={self.variant!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Range):
            return NotImplemented
        return (self.variant.hole_cards == other.variant.hole_cards and self._any == other._any
                and self._masks == other._masks)

    def __hash__(self) -> int:
        return hash((self.variant.hole_cards, self._any, self._masks))

    def __reduce__(self) -> tuple[type[Range], tuple[str, Variant]]:
        """Copies and pickles are rebuilt from the text, through the constructor's checks
        (a pickle cannot plant hands past the limits)."""
        return (Range, (self.text, self.variant))

    def hands_data(self) -> bytes:
        """Every hand's card indices, flat, ascending within each hand (for the kernels)."""
        if self._any:
            raise RangeError("the range of every hand is not listed")
        if self._data is None:
            self._data = b"".join(bytes(_cards_of(m)) for m in self._masks)
        return self._data

    def without(self, blocked: int) -> bytes:
        """:meth:`hands_data` less the hands that hold a card of the ``blocked`` bit mask."""
        if not blocked:
            return self.hands_data()
        return b"".join(bytes(_cards_of(m)) for m in self._masks if not m & blocked)


def hand_text(cards: CardsLike) -> str:
    """Text of a hand: ``hand_text([Card("Ah"), Card("Kd")]) == "AhKd"``."""
    return format_cards(parse_cards(cards))
