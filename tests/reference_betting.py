"""The slow reference of the betting rules (B2-B8): one round as a small Python object.

The package states these rules once, compiled (``omahacore.transitions``); this second
statement lives only in the tests, which play both on many random hands and compare every
legal range and every refusal (its rule, its reason code and its words).

A :class:`BettingRound` holds what the rules need about the current street: the bet to call,
the size of the last full raise (B4), the fixed-limit level and count of bets toward the cap
(B3, B7) and the last aggressor (S1). It answers "what may this player do" without touching
the hand, so the hand can check an action completely before changing anything.

>>> from omaha.config import POT_LIMIT
>>> r = BettingRound(POT_LIMIT, unit=100, cap=None)   # a flop with 200 collected (B5)
>>> r.apply_raise(150, player=0)                          # A bets 150; B calls 150
>>> r.raise_range(bet=0, stack=10_000, pot_total=500, acted=False, others_can_act=True)
(300, 800)
"""

# ruff: noqa: PLR1730, FURB136 (hot paths: comparisons beat min()/max() calls here)

from __future__ import annotations

from omaha import LegalActions, Reason
from omaha.config import FIXED_LIMIT, POT_LIMIT, Structure
from omaha.errors import IllegalActionError
from omaha.limits import MAX_CHIPS, safe_repr

__all__ = ["BettingRound", "LegalActions"]

_new_tuple = tuple.__new__   # builds LegalActions without the named tuple's Python-level __new__


class BettingRound:
    """The betting state of one street and the rules that read it.

    ``unit`` is the fixed-limit bet of the street, or the big blind in pot and no limit
    (the minimum bet, B4). ``current_bet`` is the total to call; ``min_raise`` the size of the
    last full bet or raise (B4); ``full_level`` the fixed-limit total of the last bet that
    counted as full, and ``raises`` how many counted toward the cap ``cap`` (B3, B7).
    """

    __slots__ = ("aggressor", "cap", "current_bet", "full_level", "limit", "min_raise",
                 "pot_limit", "raises", "reopen_at", "unit")

    def __init__(self, structure: Structure, unit: int, cap: int | None, *,
                 current_bet: int = 0, raises: int = 0) -> None:
        self.limit = structure is FIXED_LIMIT
        self.pot_limit = structure is POT_LIMIT
        self.unit = unit
        self.cap = cap if self.limit else None
        self.current_bet = current_bet
        self.min_raise = unit
        self.full_level = current_bet
        self.raises = raises
        self.aggressor = -1
        self.reopen_at = self._reopening()

    @classmethod
    def of(cls, structure: Structure, unit: int, cap: int | None, current_bet: int,
           min_raise: int, full_level: int, raises: int, aggressor: int,
           reopen_at: int) -> BettingRound:
        """A round with every fact given (the compiled engine's numbers, read back)."""
        other = cls(structure, unit, cap, current_bet=current_bet, raises=raises)
        other.min_raise, other.full_level = min_raise, full_level
        other.aggressor, other.reopen_at = aggressor, reopen_at
        return other

    def _reopening(self) -> int:
        """The rule of reopening (B6, B7), stated once: a player who already acted may raise
        again only when what was added since is at least this much. No limit and pot limit:
        a full raise (several short all-ins add up, as in Robert's Rules). Fixed limit: half
        a unit counts as full.
        """
        return (self.unit + 1) // 2 if self.limit else self.min_raise

    def copy(self) -> BettingRound:
        """An independent copy (for :meth:`omaha.game.hand.Hand.copy`)."""
        other = object.__new__(BettingRound)
        other.limit, other.pot_limit = self.limit, self.pot_limit
        other.unit, other.cap, other.current_bet = self.unit, self.cap, self.current_bet
        other.min_raise, other.full_level = self.min_raise, self.full_level
        other.raises, other.aggressor, other.reopen_at = self.raises, self.aggressor, self.reopen_at
        return other

    def next_street(self, unit: int, cap: int | None) -> None:
        """Start a new betting round in place (nobody has bet)."""
        self.unit = unit
        self.cap = cap if self.limit else None
        self.current_bet = self.full_level = self.raises = 0
        self.min_raise = unit
        self.aggressor = -1
        self.reopen_at = self._reopening()

    def next_round(self, unit: int, cap: int | None) -> BettingRound:
        """A new round for the next street (this one is left as it was: the hand keeps
        rounds unchanged once made, so its undo records can hold them)."""
        other = self.copy()
        other.next_street(unit, cap)
        return other

    def raised(self, to: int, *, player: int) -> BettingRound:
        """A copy of this round with a bet or raise to ``to`` recorded (:meth:`apply_raise`)."""
        other = self.copy()
        other.apply_raise(to, player=player)
        return other

    def reopened_for(self, bet: int) -> bool:
        """Whether a player who already acted with ``bet`` in front faces a full raise (B6, B7;
        see :meth:`_reopening`)."""
        return self.current_bet - bet >= self.reopen_at

    def legal(self, seat: int, bet: int, stack: int, pot_total: int, acted: bool,
              others_can_act: bool) -> LegalActions:
        """What a player may do (B2-B8): ``bet`` is what they have in front this round,
        ``pot_total`` every chip in the pot including all bets, ``acted`` whether they acted
        this round already, ``others_can_act`` whether anyone else could still call a raise.

        A player who cannot make a full raise may still raise all-in for less (B7, B8).
        This runs before every decision, hence one flat function with no helper calls.
        """
        current = self.current_bet
        owed = current - bet
        call = (owed if owed < stack else stack) if owed > 0 else 0
        allin = bet + stack
        low = high = None
        # reopened: not acted yet, or facing a full raise since (the rule of _reopening)
        if allin > current and others_can_act and (not acted or owed >= self.reopen_at):
            if self.limit:
                if self.cap is None or self.raises < self.cap:
                    low = self.full_level + self.unit
                    if low > allin:
                        low = allin
                    high = low
            else:
                low = current + self.min_raise
                high = current + pot_total + owed if self.pot_limit else allin  # B5: call + pot
                if high < low:
                    high = low
                if low > allin:
                    low = allin
                if high > allin:
                    high = allin
        return _new_tuple(LegalActions, (seat, True, owed <= 0, call, low, high, False, False))

    def refusal(self, seat: int, to: int, *, bet: int, stack: int, acted: bool,
                others_can_act: bool, span: tuple[int, int] | None) -> IllegalActionError:
        """The rule a refused bet or raise by ``seat`` to ``to`` breaks, with the limits
        (``span``: the legal (min, max) totals, or None when no raise is allowed)."""
        if not -MAX_CHIPS <= to <= MAX_CHIPS:
            return IllegalActionError("B8", f"a bet to {safe_repr(to)} is beyond any stack (the "
                                      "limit is MAX_CHIPS = 2**63-1)", reason=Reason.BEYOND_ANY_STACK)
        current = self.current_bet
        word = "raise" if current else "bet"
        if span is None:
            if bet + stack <= current:
                return IllegalActionError("B8", f"seat {seat} has {stack} chips, not enough to "
                                          "raise; call (all-in) or fold", reason=Reason.TOO_SHORT_TO_RAISE)
            if not others_can_act:
                return IllegalActionError("B8", "every other player is all-in; nobody could "
                                          "call a raise, so call or fold", reason=Reason.NOBODY_TO_CALL)
            if acted and not self.reopened_for(bet):
                return IllegalActionError("B7", f"seat {seat} already acted and faces less than "
                                          "a full raise; only call or fold", reason=Reason.NOT_REOPENED)
            return IllegalActionError("B3", f"the betting is capped at {self.cap} bets this "
                                      "round; only call or fold", reason=Reason.CAPPED)
        low, high = span
        if low == high and self.limit:
            return IllegalActionError("B3", f"the {word} must be to exactly {low}, got {to}", reason=Reason.LIMIT_EXACT)
        if to < low:
            if low == bet + stack:
                return IllegalActionError("B8", f"seat {seat} can only {word} all-in to {low}, "
                                          f"got {to}", reason=Reason.ALL_IN_ONLY)
            return IllegalActionError("B4", f"minimum {word} is to {low}, got {to}", reason=Reason.BELOW_MINIMUM)
        if high < bet + stack and self.pot_limit:
            return IllegalActionError("B5", f"maximum {word} is to {high} (the pot), got {to}", reason=Reason.ABOVE_POT)
        return IllegalActionError("B8", f"seat {seat} has {stack} chips; maximum {word} is to "
                                  f"{high}, got {to}", reason=Reason.ABOVE_STACK)

    def raise_range(self, bet: int, stack: int, pot_total: int, acted: bool,
                    others_can_act: bool) -> tuple[int, int] | None:
        """The (min, max) total this player may bet or raise to, or None (see :meth:`legal`)."""
        legal = self.legal(0, bet, stack, pot_total, acted, others_can_act)
        if legal.min_raise_to is None or legal.max_raise_to is None:
            return None
        return (legal.min_raise_to, legal.max_raise_to)

    def apply_raise(self, to: int, *, player: int) -> None:
        """Record a bet or raise to ``to`` (already checked legal): sizes, level, cap, aggressor."""
        if self.limit:
            if 2 * (to - self.full_level) >= self.unit:   # full, or an all-in of half a unit (B7)
                self.full_level = to
                self.raises += 1
        elif to - self.current_bet >= self.min_raise:
            self.min_raise = to - self.current_bet
            self.raises += 1
            self.reopen_at = self.min_raise
        self.current_bet = to
        self.aggressor = player
