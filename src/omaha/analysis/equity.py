"""Equity: each entry's expected share of the pot, exact or sampled (rules C3-C6, S3).

An entry is a hand (``"AsAh2d3c"`` or ``Card``s) or a range (range syntax, see
:mod:`omaha.analysis.ranges`, or an :class:`omaha.Range`). By default every completion of the board
is enumerated when that is cheap enough (heads-up preflop Omaha hi/lo takes a few
milliseconds); otherwise deals are sampled.

>>> import omaha
>>> res = omaha.equity(["AsAh2d3c", "KsKhQdJc"], board="Kd7c4h", variant=omaha.OMAHA_HILO)
>>> res.exact, res.deals, [round(e, 4) for e in res.equity]
(True, 820, [0.4384, 0.5616])
>>> round(sum(res.equity), 12)
1.0

Hi/lo (S3): the pot splits in halves when a low qualifies (C5), each half splits between its
tied winners; a deal without a qualifying low gives the whole pot to the high. Odd chips are
ignored. Shares are counted exactly (integer counts of each split), so exact results are
exact rationals rounded once to ``float``.

A hand against any hand (``"****"``), sampled with a seed:

>>> res = omaha.equity(["AsAh2d3c", "****"], samples=100_000, seed=1, variant=omaha.OMAHA_HILO)
>>> res.exact, res.deals, 0.6 < res.equity[0] < 0.7, res.std_error[0] < 0.002
(False, 100000, True, True)
"""

from __future__ import annotations

import array
import itertools
import math
import secrets
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache

import omaha.limits as _limits
from omaha.analysis.ranges import Range
from omaha.cards import format_cards, parse_cards
from omaha.config import OMAHA_HIGH, Variant, variant_of
from omaha.errors import LimitError, OmahaError, OmahaTypeError
from omaha.limits import as_int, safe_repr
from omahacore import cards as _core_cards
from omahacore import equity as _kernel

__all__ = ["DEFAULT_SAMPLES", "EXACT_LIMIT", "Entry", "EquityResult", "equity", "variant_of"]

Entry = str | Range | Iterable[int | str]

DEFAULT_SAMPLES = 1_000_000
# Work units of an exact run: boards per set of hands plus the per-set table (~20,000 boards'
# worth). By default exact runs up to AUTO_LIMIT (well under a second); exact=True up to
# EXACT_LIMIT.
AUTO_LIMIT = 60_000_000
EXACT_LIMIT = 3_000_000_000
COMBO_SETUP = 20_000
PROGRESS_CHUNKS = 32     # chunks (of 16,384 deals) between progress reports
MAX_COMBOS = 2_000_000
KERNEL_SAMPLES = 2**62    # the kernels count deals in int64: the most MAX_SAMPLES may be raised to

_FIELDS = ("equity", "high", "low", "win", "tie", "scoop", "exact", "deals", "std_error",
           "variant")


class EquityResult:
    """What each entry wins, in entry order.

    * ``equity``: expected share of the pot (sums to 1).
    * ``high`` / ``low``: expected share of the high half / the low half; on a deal without a
      qualifying low the high "half" is the whole pot and the low share is 0.
    * ``win``: probability of winning the high or the low alone; ``tie``: of winning only
      shares of halves (something, but nothing alone); ``scoop``: of winning the whole pot
      alone. In high-only games ``win`` equals ``scoop``.
    * ``exact``: every deal was enumerated; ``deals``: how many deals were enumerated or
      sampled (each card-compatible combination of the entries' hands and each board
      completion weighs the same); ``std_error``: standard error of ``equity`` (0.0 exact).

    Read-only (every field is a property). ``omaha.equity`` keeps the kernel's integer outcome counts and turns them into
    these ratios on first access (a few microseconds that small exact spots would otherwise
    spend on every call); the values are the same either way.
    """

    __slots__ = ("_state", "_values")

    _state: tuple[array.array[int] | None, int, bool, int, Variant]   # counts, n, exact, deals
    _values: tuple[tuple[float, ...], ...] | None

    def __init__(self, equity: Sequence[float], high: Sequence[float], low: Sequence[float],
                 win: Sequence[float], tie: Sequence[float], scoop: Sequence[float],
                 exact: bool, deals: int, std_error: Sequence[float],
                 variant: Variant = OMAHA_HIGH) -> None:
        self._state = (None, 0, exact, deals, variant)
        self._values = (tuple(equity), tuple(high), tuple(low), tuple(win), tuple(tie),
                        tuple(scoop), tuple(std_error))

    @classmethod
    def _of_counts(cls, counts: array.array[int], n: int, deals: int, exact: bool,
                   variant: Variant) -> EquityResult:
        self = _new(cls)
        self._state = (counts, n, exact, deals, variant)
        self._values = None
        return self

    def _fields(self) -> tuple[tuple[float, ...], ...]:
        values = self._values
        if values is None:       # racing threads compute the same tuples; either one is kept
            counts, n, exact, deals, _ = self._state
            values = _ratios(counts, n, deals, exact)  # type: ignore[arg-type]
            self._values = values
        return values

    @property
    def exact(self) -> bool:
        """True when every deal was enumerated."""
        return self._state[2]

    @property
    def deals(self) -> int:
        """How many deals were enumerated or sampled."""
        return self._state[3]

    @property
    def variant(self) -> Variant:
        """The game the equities are for."""
        return self._state[4]

    @property
    def equity(self) -> tuple[float, ...]:
        """Expected share of the pot per entry."""
        return self._fields()[0]

    @property
    def high(self) -> tuple[float, ...]:
        """Expected share of the high half (the whole pot when no low qualifies)."""
        return self._fields()[1]

    @property
    def low(self) -> tuple[float, ...]:
        """Expected share of the low half."""
        return self._fields()[2]

    @property
    def win(self) -> tuple[float, ...]:
        """Probability of winning the high or the low alone."""
        return self._fields()[3]

    @property
    def tie(self) -> tuple[float, ...]:
        """Probability of winning only shares of halves."""
        return self._fields()[4]

    @property
    def scoop(self) -> tuple[float, ...]:
        """Probability of winning the whole pot alone."""
        return self._fields()[5]

    @property
    def std_error(self) -> tuple[float, ...]:
        """Standard error of ``equity`` (0.0 when exact)."""
        return self._fields()[6]

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EquityResult):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "EquityResult(" + ", ".join(f"{name}={getattr(self, name)!r}"
                                           for name in _FIELDS) + ")"

    def __reduce__(self) -> tuple[type[EquityResult], tuple[object, ...]]:
        return (EquityResult, self._key())

    def to_dict(self) -> dict[str, object]:
        """JSON-compatible fields."""
        return {"equity": list(self.equity), "high": list(self.high), "low": list(self.low),
                "win": list(self.win), "tie": list(self.tie), "scoop": list(self.scoop),
                "exact": self.exact, "deals": self.deals, "std_error": list(self.std_error),
                "variant": self.variant.name}


_new = object.__new__


def _cards(value: object, what: str) -> list[int]:
    if value is None:
        return []
    if isinstance(value, Mapping):   # its keys would read as cards: surely a mistake
        raise OmahaTypeError(f"{what}: expected cards, got {type(value).__name__} "
                             f"{safe_repr(value)}")
    try:
        return [int(c) for c in parse_cards(value)]  # type: ignore[arg-type]
    except (OmahaError, TypeError) as exc:   # a wrong type stays a TypeError, now named
        error = OmahaTypeError if isinstance(exc, TypeError) else OmahaError
        raise error(f"{what}: {exc}") from exc


def _entry_hands(entry: object, index: int, variant: Variant, blocked: int) -> bytes:
    """The entry's hands without board/dead cards, flat bytes; b"" means any hand."""
    nh = variant.hole_cards
    what = f"entry {index + 1}"
    if isinstance(entry, Range):
        rng = entry
        if rng.variant.hole_cards != nh:
            raise OmahaError(f"{what}: the range is for {rng.variant.hole_cards}-card hands, "
                             f"the variant deals {nh}")
    elif isinstance(entry, str):
        try:
            hand = [int(c) for c in parse_cards(entry)]
        except OmahaError:
            hand = []
        if len(hand) == nh:
            return _one_hand(hand, what, nh, blocked)
        rng = Range(entry, variant=variant)
    elif isinstance(entry, (bytes, bytearray, Mapping)) or not isinstance(entry, Iterable):
        raise OmahaTypeError(f"{what}: expected a hand, a range or a Range, got "
                             f"{type(entry).__name__} {safe_repr(entry)}")
    else:
        hand = _cards(list(entry), what)
        return _one_hand(hand, what, nh, blocked)
    if rng.is_any:
        return b""
    data = rng.without(blocked)
    if not data:
        raise OmahaError(f"{what}: the range {str(rng)!r} has no hand left once the board "
                         "and dead cards are removed")
    return data


def _one_hand(hand: list[int], what: str, nh: int, blocked: int) -> bytes:
    if len(hand) != nh:
        raise OmahaError(f"{what}: a hand has {nh} cards here, got {len(hand)}")
    for c in hand:
        if blocked >> c & 1:
            raise OmahaError(f"{what}: {format_cards([c])} is also on the board or dead")
    return bytes(hand)


def equity(entries: Sequence[Entry], board: object = None, dead: object = None, *,
           variant: Variant | str = OMAHA_HIGH, samples: int | None = None,
           exact: bool | None = None, seed: int | None = None, threads: int = 1,
           progress: Callable[[int, int], object] | None = None) -> EquityResult:
    """Each entry's share of the pot: exact when ``exact`` is true or (by default) cheap
    enough, otherwise ``samples`` Monte Carlo deals (default ``DEFAULT_SAMPLES``).

    ``board`` has 0, 3, 4 or 5 cards; ``dead`` cards are out of play. ``seed`` makes
    sampling reproducible (the OS's generator seeds it otherwise); results for a seed do not
    depend on ``threads``. ``progress(done, total)``, if given, is called (from the worker
    threads, one call at a time) as sampled deals finish. ``exact=True`` raises :class:`OmahaError` when enumeration would
    be too large; ``exact=False`` always samples.

    >>> res = equity(["AhAd2c3c", "KsKh6d8h"], board="2h7c4h5s", variant="plo8")
    >>> res.deals, res.equity, res.high, res.low, res.scoop   # the wheel vs the 8-high straight
    (40, (0.5, 0.5), (0.0, 1.0), (1.0, 0.0), (0.0, 0.0))
    """
    if samples is not None or seed is not None or progress is not None or exact is not None \
            or type(threads) is not int or not 1 <= threads <= _limits.MAX_THREADS:
        # else nothing to check (fast path)
        samples, seed, threads = _options(samples, exact, seed, threads, progress)
    if (exact is None or exact is True) and samples is None:
        known = variant if type(variant) is Variant else (
            _VARIANTS.get(variant) if type(variant) is str else None)
        if known is not None:
            got = _kernel.exact_text(entries, board, dead, known.hole_cards,
                                     known.hand_rule == "holdem", known.hi_lo, _PARSED)
            if got is not None:
                return EquityResult._of_counts(got[0], len(entries), got[1], True, known)
        fast = _exact_hands(entries, board, dead, variant)    # fills the cache on first use
        if fast is not None:
            return fast
    v = variant_of(variant)
    nh, holdem, hilo = v.hole_cards, v.hand_rule == "holdem", v.hi_lo
    if isinstance(entries, (str, bytes)) or not isinstance(entries, Sequence):
        raise OmahaTypeError(f"entries must be a list of hands or ranges, got "
                             f"{type(entries).__name__} {safe_repr(entries)}")
    n = len(entries)
    if n < 2:
        raise OmahaError(f"equity needs at least 2 entries, got {n}")
    board_cards = _cards(board, "board")
    dead_cards = _cards(dead, "dead")
    if len(board_cards) not in (0, 3, 4, 5):
        raise OmahaError(f"the board must have 0, 3, 4 or 5 cards, got {len(board_cards)}")
    blocked = 0
    for c in board_cards + dead_cards:
        if blocked >> c & 1:
            raise OmahaError(f"{format_cards([c])} is both on the board and dead, or twice")
        blocked |= 1 << c
    if n * nh + 5 + len(dead_cards) > 52 or n > _kernel.MAX_PLAYERS:
        raise OmahaError(f"{n} players with {nh} cards each, a board and {len(dead_cards)} "
                         "dead cards do not fit in one deck")
    if exact and samples is not None:
        raise OmahaError("exact=True and samples= contradict each other")
    hands = [_entry_hands(e, i, v, blocked) for i, e in enumerate(entries)]
    _check_fixed_disjoint(hands, nh)
    bytes_board, bytes_dead = bytes(board_cards), bytes(dead_cards)
    if exact is not False and samples is None:
        combos = _combos_if_small(hands, nh, n, exact is True)
        if combos is not None:
            setup = COMBO_SETUP if not board_cards else 50
            cost = (len(combos) // (n * nh)) * (_boards(52 - len(board_cards) - len(dead_cards)
                                                        - n * nh, 5 - len(board_cards)) + setup)
            if cost <= (EXACT_LIMIT if exact else AUTO_LIMIT):
                if not combos:
                    raise OmahaError("no combination of the entries' hands avoids sharing a card")
                counts, deals = _exact(combos, n, nh, bytes_board, bytes_dead, holdem, hilo,
                                       threads)
                return EquityResult._of_counts(counts, n, deals, True, v)
        if exact:
            raise OmahaError("exact=True: enumerating this spot is too large; pass samples=")
    total = samples if samples is not None else DEFAULT_SAMPLES
    counts, deals = _sample(hands, nh, bytes_board, bytes_dead, holdem, hilo, seed, total,
                            threads, progress)
    return EquityResult._of_counts(counts, n, deals, False, v)


# The fast path: every entry one hand as text. Text parses once (cached), the checks are bit
# operations, and the kernel's counts go straight into the result. Anything unusual (ranges,
# Card objects, any error) goes the general way, which gives the same answer or the error.
_PARSED: dict[str, tuple[bytes, int]] = {}
_PARSED_LIMIT = 4096
_VARIANTS: dict[str, Variant] = {}


def _parsed(text: str) -> tuple[bytes, int] | None:
    """Card bytes and bit mask of card text (cached), or None when it is not plain cards."""
    got = _PARSED.get(text)
    if got is None:
        try:
            cards = _core_cards.parse_cards(text)       # also refuses duplicates (C1)
        except (OmahaError, TypeError):
            return None
        bits = 0
        for c in cards:
            bits |= 1 << c
        got = (bytes(cards), bits)
        if len(_PARSED) < _PARSED_LIMIT:
            _PARSED[text] = got
    return got


def _exact_hands(entries: object, board: object, dead: object,
                 variant: Variant | str) -> EquityResult | None:
    """Exact equity of hands given as text, or None to take the general path."""
    if type(variant) is Variant:
        v = variant
    elif type(variant) is str and variant in _VARIANTS:
        v = _VARIANTS[variant]
    else:
        v = variant_of(variant)
        if type(variant) is str and len(_VARIANTS) < 64:
            _VARIANTS[variant] = v
    if type(entries) is not list and type(entries) is not tuple:
        return None
    n = len(entries)
    nh = v.hole_cards
    if n < 2 or n > _kernel.MAX_PLAYERS:
        return None
    board_bytes, blocked = b"", 0
    if board is not None:
        if type(board) is not str or (got := _parsed(board)) is None:
            return None
        board_bytes, blocked = got
    dead_bytes, dead_bits = b"", 0
    if dead is not None:
        if type(dead) is not str or (got := _parsed(dead)) is None:
            return None
        dead_bytes, dead_bits = got
    nb, nd = len(board_bytes), len(dead_bytes)
    if blocked & dead_bits or nb not in (0, 3, 4, 5) or n * nh + 5 + nd > 52:
        return None
    used = blocked | dead_bits
    hands = []
    for entry in entries:
        if type(entry) is not str or (got := _parsed(entry)) is None:
            return None
        cards, bits = got
        if len(cards) != nh or bits & used:
            return None
        used |= bits
        hands.append(cards)
    # One set of hands: at most C(48, 5) boards, always under AUTO_LIMIT, so always exact.
    counts, deals = _kernel.exact_counts(b"".join(hands), n, nh, board_bytes, dead_bytes,
                                         v.hand_rule == "holdem", v.hi_lo)
    return EquityResult._of_counts(counts, n, deals, True, v)


def _options(samples: object, exact: object, seed: object, threads: object,
             progress: object) -> tuple[int | None, int | None, int]:
    """``samples, seed, threads`` as exact ints, each option checked before any work and
    named when wrong (a wrong type as an OmahaTypeError)."""
    if exact is not None and type(exact) is not bool:
        raise OmahaTypeError(f"exact must be True, False or None, got {safe_repr(exact)}")
    if progress is not None and not callable(progress):
        raise OmahaTypeError(f"progress must be a function(done, total) or None, got "
                             f"{safe_repr(progress)}")
    return (None if samples is None else as_int(samples, "samples", low=1, high=KERNEL_SAMPLES,
                                                limit="MAX_SAMPLES", above=LimitError),
            None if seed is None else as_int(seed, "seed", low=0, high=2**64 - 1),
            as_int(threads, "threads", low=1, limit="MAX_THREADS", above=LimitError))


def _boards(left: int, k: int) -> int:
    return math.comb(left, k) if left >= k else 0


def _check_fixed_disjoint(hands: list[bytes], nh: int) -> None:
    seen = 0
    for i, data in enumerate(hands):
        if len(data) == nh:
            for c in data:
                if seen >> c & 1:
                    raise OmahaError(f"entry {i + 1}: {format_cards([c])} is in two hands")
                seen |= 1 << c


def _combos_if_small(hands: list[bytes], nh: int, n: int, forced: bool) -> bytes | None:
    """Every card-compatible combination of the entries' hands, flat, or None if too many."""
    if any(not h for h in hands):
        return None
    sizes = [len(h) // nh for h in hands]
    if all(size == 1 for size in sizes):      # hands only: checked disjoint already
        return b"".join(hands)
    limit = MAX_COMBOS if forced else 200_000
    if math.prod(sizes) > limit:
        return None
    lists = [[(h[j * nh:(j + 1) * nh], sum(1 << c for c in h[j * nh:(j + 1) * nh]))
              for j in range(size)] for h, size in zip(hands, sizes)]
    out = bytearray()
    for combo in itertools.product(*lists):
        bits = 0
        total = 0
        for _, b in combo:
            bits |= b
            total += nh
        if bits.bit_count() == total:
            for cards, _ in combo:
                out += cards
    return bytes(out)


def _exact(combos: bytes, n: int, nh: int, board: bytes, dead: bytes, holdem: bool,
           hilo: bool, threads: int) -> tuple[array.array[int], int]:
    per = n * nh
    count = len(combos) // per
    parts = min(threads, count)
    if parts <= 1:
        counts, deals = _kernel.exact_counts(combos, n, nh, board, dead, holdem, hilo)
        return counts, int(deals)
    bounds = [count * i // parts for i in range(parts + 1)]
    results: list[tuple[array.array[int], int]] = [None] * parts  # type: ignore[list-item]
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            chunk = combos[bounds[i] * per:bounds[i + 1] * per]
            results[i] = _kernel.exact_counts(chunk, n, nh, board, dead, holdem, hilo)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the calling thread
            errors.append(exc)

    _run_threads(work, parts)
    if errors:
        raise errors[0]
    return _add([r[0] for r in results]), sum(int(r[1]) for r in results)


def _sample(hands: list[bytes], nh: int, board: bytes, dead: bytes, holdem: bool,
            hilo: bool, seed: int | None, total: int, threads: int,
            progress: Callable[[int, int], object] | None) -> tuple[array.array[int], int]:
    if seed is None:
        seed = secrets.randbits(64)
    chunks = -(-total // _kernel.CHUNK)
    # Work goes out in steps of whole chunks; each chunk has its own stream, so the sum does
    # not depend on which thread ran which step.
    step = max(1, min(PROGRESS_CHUNKS, -(-chunks // threads)))
    steps = -(-chunks // step)        # step i starts at chunk i * step (never listed: O(1) memory)
    parts = max(1, min(threads, steps))
    summed: list[array.array[int]] = []     # the counts so far, added as steps finish
    errors: list[BaseException] = []
    lock = threading.Lock()
    done = [0, 0]        # next step, deals finished

    def work(_: int) -> None:
        while True:
            with lock:
                if errors or done[0] >= steps:
                    return
                first = done[0] * step
                done[0] += 1
            try:
                part = _kernel.sample_counts(hands, nh, board, dead, holdem, hilo, seed,
                                             total, first, min(first + step, chunks))
            except BaseException as exc:  # noqa: BLE001 - re-raised in the calling thread
                with lock:
                    errors.append(exc)
                return
            with lock:
                if errors:      # another thread failed (or its progress raised): stop
                    return
                summed[:] = [_add([summed[0], part[0]]) if summed else part[0]]
                done[1] += int(part[1])
                if progress is not None:
                    try:
                        progress(done[1], total)
                    except BaseException as exc:  # noqa: BLE001 - the caller's, re-raised
                        errors.append(exc)
                        return

    if parts == 1:
        work(0)
    else:
        _run_threads(work, parts)
    if errors:
        raise errors[0]
    return summed[0], done[1]


def _run_threads(work: object, parts: int) -> None:
    pool = [threading.Thread(target=work, args=(i,)) for i in range(parts)]  # type: ignore[arg-type]
    for t in pool:
        t.start()
    for t in pool:
        t.join()


def _add(parts: list[array.array[int]]) -> array.array[int]:
    total = parts[0]
    for part in parts[1:]:
        total = array.array("q", (a + b for a, b in zip(total, part)))
    return total


@lru_cache(maxsize=32)
def _shares(n: int) -> tuple[int, tuple[tuple[int, int, int, bool, bool, bool], ...]]:
    """Per outcome index ``kh * (n + 2) + kl``: high, low and pot shares in units of
    ``1 / (2 * lcm(1..n))`` of the pot (a half pot is ``lcm(1..n)`` units), and whether the
    player won alone (win), only shared (tie) or took the whole pot alone (scoop)."""
    width = n + 2
    half = math.lcm(*range(1, n + 1))
    rows = []
    for idx in range((n + 1) * width):
        kh, kl = divmod(idx, width)
        high = half // kh if kh else 0          # of the high half
        low = half // kl if 1 <= kl <= n else 0
        share = 2 * high if kl == n + 1 else high + low
        alone = kh == 1 or kl == 1
        rows.append((high, low, share, alone, bool(share) and not alone,
                     kh == 1 and kl in (1, n + 1)))
    return half, tuple(rows)


def _ratios(counts: array.array[int], n: int, deals: int,
            exact: bool) -> tuple[tuple[float, ...], ...]:
    """``equity, high, low, win, tie, scoop, std_error``: exact rationals from the outcome
    counts (see :mod:`omahacore.equity`).

    Shares are integers, so every sum is exact and each ratio is rounded once
    (``int / int`` rounds correctly).
    """
    half, rows = _shares(n)
    pot = 2 * half
    stride = len(rows)
    eq: list[float] = []
    hi: list[float] = []
    lo: list[float] = []
    win: list[float] = []
    tie: list[float] = []
    scoop: list[float] = []
    se: list[float] = []
    for p in range(n):
        s_eq = s_hi = s_lo = s_sq = 0
        n_win = n_tie = n_scoop = 0
        for idx, c in enumerate(counts[p * stride:(p + 1) * stride]):
            if not c:
                continue
            high, low, share, alone, tied, whole = rows[idx]
            s_eq += c * share
            s_hi += c * high
            s_lo += c * low
            s_sq += c * share * share
            if alone:
                n_win += c
            elif tied:
                n_tie += c
            if whole:
                n_scoop += c
        eq.append(s_eq / (pot * deals))
        hi.append(s_hi / (half * deals))
        lo.append(s_lo / (half * deals))
        win.append(n_win / deals)
        tie.append(n_tie / deals)
        scoop.append(n_scoop / deals)
        # variance of one deal's share, E[X^2] - E[X]^2, exact in integers
        var = (s_sq * deals - s_eq * s_eq) / (pot * pot * deals * deals)
        se.append(0.0 if exact else math.sqrt(max(var, 0.0) / deals))
    return (tuple(eq), tuple(hi), tuple(lo), tuple(win), tuple(tie), tuple(scoop), tuple(se))
