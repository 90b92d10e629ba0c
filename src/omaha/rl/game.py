"""One learning episode = one hand of a fixed table, and its observation encoding.

:class:`Episode` is what every environment in :mod:`omaha.rl` drives: it deals a hand to
``players`` seats, each starting with ``stack`` chips (banked scoring: stacks are reset
every hand), moves the button one seat per episode, turns discrete actions
(:class:`~omaha.rl.actions.ActionSet`) into engine actions, and reports rewards in big
blinds. Cards come from the OS generator (C2) unless :meth:`Episode.reset` gets a seed; a
seeded reset replays exactly, and the unseeded resets after it continue from that seed. The
engine checks every action, so the rules are the engine's.

The reward policy of every environment (issue 23), stated here once: :meth:`Episode.play`
plays a *masked* (illegal) action of the action space as a **fold** — exactly the outcome of
folding in that state, even where a check was free (B2 allows folding at any time) — so a
masked action is never worth more than the legal action it replaces; it reports the action
actually played. A value that is not an action of the space (NaN, a float, a bool, an array,
an index out of range) raises :class:`~omaha.errors.IllegalActionError` (its TypeError
subclass for a wrong type) naming the space, and changes nothing. :meth:`Episode.step` is
the strict form: it refuses a masked action too.

Observation: a float32 vector; chip amounts are in big blinds and players are listed from
the observer clockwise (the observer first):

========================  ==========================================================
slice                     meaning
========================  ==========================================================
``[0, 52)``               own hole cards, one-hot by card index ``4 * rank + suit``
``[52, 104)``             board cards, one-hot
``[104, 108)``            street: preflop, flop, turn, river, one-hot
``[108, 112)``            pot, amount to call, minimum and maximum raise total (0: none)
``[112 + 7k, 119 + 7k)``  player ``k`` seats after the observer: stack, bet this round,
                          chips put in this hand, active, all-in, folded, has the button
========================  ==========================================================

Bounds (:meth:`Episode.observation_bounds`): every value is at least 0; a flag or card is at
most 1; a chip amount (pot, call, raise totals, stacks, bets, chips in) is at most the
table's total chips in big blinds, ``players * stack / big_blind``, which no amount can pass.

>>> episode = Episode(players=3)
>>> episode.reset(seed=1)
>>> episode.observation_size, episode.actor
(133, 0)
>>> obs = episode.observation(0)
>>> int(obs[:52].sum()), float(obs[108]), float(obs[109])   # 4 hole cards, pot 1.5 bb, call 1
(4, 1.5, 1.0)
>>> episode.step(1); episode.step(1); episode.step(1)      # call, call, check: the flop
>>> int(episode.observation(0)[52:104].sum())
3
"""

from __future__ import annotations

import inspect
import random
from typing import Any

import numpy as np
import numpy.typing as npt

from omaha.config import FIXED_LIMIT, GameConfig, parse_variant
from omaha.errors import ArrayError, ConfigError, ConfigTypeError, IllegalActionError
from omaha.game.hand import Hand
from omaha.limits import as_int, safe_repr
from omaha.rl.actions import CHECK_CALL, FOLD, ActionSet
from omahacore.actions import LegalActions
from omahacore.vector import PLAYER_FEATURES, TABLE_FEATURES, action_totals, observe_hand

__all__ = ["PLAYER_FEATURES", "TABLE_FEATURES", "Episode", "amount_pair", "choice_option",
           "deprecated_illegal_reward", "make_config", "model_policy", "options_option",
           "reward_option", "seed_option"]

# the chip features of the observation (the rest are 0/1 flags and one-hot cards)
_TABLE_CHIPS = (108, 109, 110, 111)
_PLAYER_CHIPS = (0, 1, 2)

# The observation layout is the compiled kernel's (omahacore.vector), stated there once.


def make_config(game: str = "PO", blinds: tuple[int, int] = (1, 2),
                stakes: tuple[int, int] = (2, 4)) -> GameConfig:
    """A game from any name of :data:`omaha.config.VARIANT_NAMES` (``PO``, ``NO``, ``FO/8``,
    ``plo8``, ``nlh``, ``omaha8``...), in the structure it says or its usual one.

    ``blinds`` are used in pot and no limit (a small blind of 0 is a single blind, T3),
    ``stakes`` (small/big bet) in fixed limit, whose blinds are derived from them (for a
    fixed-limit single blind pass ``config=GameConfig.fixed_limit(..., small_blind=0)``).

    >>> make_config("plo8").variant.name, make_config("FO/8").big_blind
    ('Omaha Hi/Lo 8-or-better', 2)

    Raises:
        ConfigError: an unknown name (the message lists the accepted names) or bad stakes.
    """
    small_blind, big_blind = amount_pair(blinds, "blinds")
    small_bet, big_bet = amount_pair(stakes, "stakes")
    if parse_variant(game).usual is FIXED_LIMIT:
        return GameConfig.named(game, small_bet=small_bet, big_bet=big_bet)
    return GameConfig.named(game, small_blind=small_blind, big_blind=big_blind)


def amount_pair(value: object, what: str) -> tuple[int, int]:
    """``value`` (``blinds`` or ``stakes``) as two integers: a list, tuple or 1-D NumPy array
    of two items, each read by the one validator (the game checks their ranges).

    >>> amount_pair([1, 2], "blinds")
    (1, 2)
    >>> amount_pair((1,), "blinds")
    Traceback (most recent call last):
    ...
    omaha.errors.ConfigError: T3: blinds must be a pair of integers (small, big), got (1,)
    """
    items: tuple[object, ...] | None = None
    if type(value) in (list, tuple):
        items = tuple(value)   # type: ignore[arg-type]
    elif isinstance(value, np.ndarray) and value.ndim == 1:
        items = tuple(value.tolist())
    if items is None or len(items) != 2:
        error = ConfigTypeError if items is None else ConfigError
        raise error("T3", f"{what} must be a pair of integers (small, big), "
                          f"got {safe_repr(value)}")
    return (as_int(items[0], f"{what}[0]", error=ConfigError, rule="T3"),
            as_int(items[1], f"{what}[1]", error=ConfigError, rule="T3"))


class Episode:
    """A table of ``players`` seats playing one hand per episode (see the module notes).

    ``config`` is the game (default pot-limit Omaha 1/2), ``stack`` each seat's chips at
    the start of every hand (default 100 big blinds), ``actions`` the discrete actions.
    Player ``i`` (0-based) sits in seat ``i + 1``.
    """

    def __init__(self, config: GameConfig | None = None, *, players: int = 2,
                 stack: int | None = None, actions: ActionSet | None = None) -> None:
        config = config if config is not None else make_config()
        if not isinstance(config, GameConfig):
            raise ConfigError(None, f"config must be a GameConfig, got {safe_repr(config)}")
        players = as_int(players, "players", low=2, high=config.variant.max_players,
                         error=ConfigError, rule="T1")
        forced = config.ante + config.big_blind + config.big_blind_ante
        # above the forced bets: every hand must have a decision, nobody all-in from them alone
        stack = (100 * config.big_blind if stack is None else
                 as_int(stack, "stack", low=forced + 1, high=10**12, error=ConfigError, rule="B8"))
        self.config = config
        self.players = players
        self.stack = stack
        self.actions = actions if actions is not None else ActionSet()
        if not isinstance(self.actions, ActionSet):
            raise ConfigError(None, f"actions must be an ActionSet, got {safe_repr(self.actions)}")
        self.observation_size = TABLE_FEATURES + PLAYER_FEATURES * players
        self._scale = 1.0 / config.big_blind
        self._rng: random.Random | None = None
        self._episodes = 0
        self.hand: Hand | None = None
        self._legal: LegalActions | None = None
        size = self.actions.size
        self._size = size
        self._no_mask = [0] * size
        self._mask: list[int] = self._no_mask
        self._totals: tuple[int, ...] = ()
        self._actor: int | None = None
        self.masked = False   # whether the last action given to play() was masked
        # the compiled sizing kernel's fractions; the sizes and mask of each betting
        # situation met (read-only: the mask array is copied before it is handed out)
        self._fractions = np.array(self.actions.fractions, np.float64)
        self._known: dict[tuple[int | None, ...], tuple[tuple[int, ...], list[int],
                                                        npt.NDArray[np.int8]]] = {}
        self._mask_buffer = np.zeros(size, np.int8)
        self._space = f"Discrete({size})"

    # --- episode flow ------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> None:
        """Deal a new hand; a ``seed`` (an integer, :func:`seed_option`) restarts the card
        generator and the button (seat 1); without one the cards continue from the last seed
        given (the OS generator when none ever was)."""
        seed = seed_option(seed)
        if seed is not None:
            self._rng = random.Random(seed)
            self._episodes = 0
        button = 1 + self._episodes % self.players
        self._episodes += 1
        stacks = dict.fromkeys(range(1, self.players + 1), self.stack)
        self.hand = Hand(self.config, stacks=stacks, button=button, rng=self._rng)
        self._refresh()

    def _refresh(self) -> None:
        hand = self._require()
        if hand._to_act < 0 or hand.is_over:
            self._legal, self._mask, self._totals = None, self._no_mask, ()
            self._actor = None
            return
        self._actor = hand._to_act
        legal = hand.legal_actions()
        self._legal = legal
        # ActionSet.evaluate (the compiled kernel), remembered per betting situation: the
        # same few situations come back hand after hand (the AEC hot path)
        key = (legal.call_amount, legal.min_raise_to, legal.max_raise_to, hand._current_bet,
               hand._pot)
        known = self._known.get(key)
        if known is None:
            known = self._evaluate(legal, hand._current_bet, hand._pot)
            if len(self._known) >= 4096:
                self._known.clear()
            self._known[key] = known
        self._totals, self._mask, self._mask_buffer = known

    def _evaluate(self, legal: LegalActions, current: int,
                  pot: int) -> tuple[tuple[int, ...], list[int], npt.NDArray[np.int8]]:
        """The raise totals, the mask (a list) and the mask as a read-only int8 array."""
        low = legal.min_raise_to
        totals = np.zeros(self._size - 2, np.int64)
        mask = np.zeros(self._size, np.int8)
        action_totals(legal.call_amount, low or 0, legal.max_raise_to or 0, current, pot,
                      self._fractions, self.actions.min_raise, self.actions.max_raise,
                      totals, mask)
        mask.flags.writeable = False
        return (tuple(totals.tolist()) if low is not None else ()), mask.tolist(), mask

    @property
    def _hand(self) -> Hand:
        return self._require()

    def _require(self) -> Hand:
        if self.hand is None:
            raise IllegalActionError("B1", "no hand yet: call reset() first")
        return self.hand

    @property
    def is_over(self) -> bool:
        """Whether the hand is finished."""
        return self._hand.is_over

    @property
    def actor(self) -> int | None:
        """The 0-based player to act, or None once the hand is over."""
        self._require()
        return self._actor

    @property
    def mask(self) -> list[int]:
        """The action mask of the player to act (all zeros once the hand is over)."""
        self._require()
        return list(self._mask)

    def action_index(self, action: object) -> int:
        """``action`` as an index of the action space ``Discrete(actions.size)``, by the one
        validator: an integer (a NumPy integer or a 0-d integer array counts; NaN, floats,
        bools, text and arrays do not: :class:`~omaha.errors.IllegalActionTypeError`) from 0
        to ``actions.size - 1`` (else :class:`~omaha.errors.IllegalActionError`); the error
        names the argument and the space. Whether it is legal now is :meth:`play`'s and
        :meth:`step`'s question; nothing changes here.

        >>> episode = Episode()
        >>> episode.action_index(7)
        Traceback (most recent call last):
        ...
        omahacore.errors.IllegalActionError: B2: action (of the action space Discrete(6)) must be at most 5, got 7
        """
        if type(action) is int and 0 <= action < self._size:
            return action
        return as_int(action, self._describe_space, low=0, high=self._size - 1,
                      error=IllegalActionError, rule="B2")

    def _describe_space(self) -> str:
        return f"action (of the action space {self._space})"

    def play(self, action: object) -> int:
        """Apply ``action`` for the player to act under THE reward policy (module notes): a
        masked action is played as a fold. Returns the action actually played (``action``,
        or :data:`~omaha.rl.actions.FOLD`) and sets :attr:`masked` (whether ``action`` was
        masked; a masked fold, where a check was free, is still masked). A non-action
        (:meth:`action_index`) raises and changes nothing.

        >>> episode = Episode()
        >>> episode.reset(seed=1)
        >>> episode.mask                       # the pot-limit maximum is the 1x-pot raise
        [1, 1, 1, 1, 0, 0]
        >>> episode.play(5), episode.is_over   # masked: played as a fold, heads-up it ends
        (0, True)
        """
        self._require()
        index = self.action_index(action)
        masked = not self._mask[index]
        self._apply(FOLD if masked else index)
        self.masked = masked
        return FOLD if masked else index

    def step(self, action: object) -> None:
        """Apply discrete ``action`` for the player to act, strictly: refuses a non-action
        (:meth:`action_index`) and a masked one (:class:`~omaha.errors.IllegalActionError`),
        changing nothing. The environments use :meth:`play` (a masked action folds)."""
        self._require()
        index = self.action_index(action)
        if not self._mask[index]:
            allowed = self.actions.describe(self._mask)
            raise IllegalActionError("B2", f"action {index} is not legal now; legal: {allowed}")
        self._apply(index)

    def _apply(self, action: int) -> None:
        hand = self.hand
        if hand is None or self._actor is None:
            raise IllegalActionError("B1", "the hand is over: call reset() first")
        if action == FOLD:
            hand.fold()
        elif action == CHECK_CALL:
            hand.check_or_call()
        else:
            hand.bet_or_raise(self._totals[action - 2])
        self._refresh()

    def play_bot(self, bot: Any, rng: random.Random) -> None:
        """Let a built-in bot (:mod:`omaha.game.bots`) make the decision of the player to act."""
        from omaha.game.bots import act, situation

        act(self._hand, bot.decide(situation(self._hand), rng))
        self._refresh()

    def rewards(self) -> list[float]:
        """Each player's result in big blinds (zeros until the hand is over)."""
        hand = self._hand
        if not hand.is_over:
            return [0.0] * self.players
        bb, stack = self.config.big_blind, self.stack
        return [(chips - stack) / bb for chips in hand._stacks]   # exact: chips / big blind

    def history(self) -> Any:
        """The hand so far as a PHH :class:`~omaha.phh.HandHistory` (its text: ``phh.dumps``)."""
        from omaha.phh.export import history_from_events

        return history_from_events(self._hand.events)

    # --- observation -------------------------------------------------------------------

    def observation(self, player: int,
                    out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """What ``player`` (0-based) sees, encoded as in the module notes.

        ``out`` is an array of :attr:`observation_size` float32 to write into (else a new one).
        """
        hand = self._hand
        n = self.players
        if type(player) is not int or not 0 <= player < n:
            player = as_int(player, "player", low=0, high=n - 1, error=IllegalActionError,
                            rule="T1")
        if out is None:   # the kernel writes every value (zeroing the one-hot part itself)
            obs = np.empty(self.observation_size, np.float32)
        else:
            if out.shape != (self.observation_size,) or out.dtype != np.float32:
                raise ArrayError(f"out must be float32 of shape ({self.observation_size},), "
                                 f"got {out.dtype} {out.shape}")
            obs = out
        observe_hand(hand, player, obs, self._scale)
        return obs

    def observation_bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``(low, high)`` of every observation value (module notes): 0 and 1, and for chip
        amounts the table's total chips in big blinds.

        >>> low, high = Episode(players=2).observation_bounds()   # 2 x 100 big blinds
        >>> float(low.min()), float(high.max()), float(high[0])
        (0.0, 200.0, 1.0)
        """
        total = np.float32(self.players * self.stack * self._scale)
        high = np.ones(self.observation_size, np.float32)
        high[list(_TABLE_CHIPS)] = total
        for k in range(self.players):
            base = TABLE_FEATURES + PLAYER_FEATURES * k
            high[[base + i for i in _PLAYER_CHIPS]] = total
        return np.zeros(self.observation_size, np.float32), high

    def render_text(self, player: int | None, names: list[str] | None = None) -> str:
        """The hand as ``player`` (0-based; None: a spectator) may see it, as text: the
        board, the pot, every seat's stack, bet and state, the viewer's own hole cards and
        the cards shown at showdown (``??`` for every other hidden card), and the public
        action so far. ``names`` are the players' names (default ``player_i``).

        >>> episode = Episode(players=2)
        >>> episode.reset(seed=3)
        >>> print(episode.render_text(0))   # doctest: +NORMALIZE_WHITESPACE
        Omaha High pot limit 1/2 - the view of player_0 (seat 1) - preflop
        board: -   pot: 3 (1.5 bb)   to act: player_0 (seat 1)
          seat 1 player_0  3dJc6c9h  stack 199  bet 1  active  button
          seat 2 player_1  ????????  stack 198  bet 2  active
        actions: p1 sb 1, p2 bb 2
        """
        hand = self._hand
        names = names if names is not None else [f"player_{i}" for i in range(self.players)]
        seat = None if player is None else player + 1
        view = hand.view(seat)
        config = self.config
        structure = config.structure.name.lower().replace("_", " ")
        who = "a spectator" if seat is None else f"{names[player or 0]} (seat {seat})"
        title = (f"{config.variant.name} {structure} {config.small_blind}/{config.big_blind} - "
                 f"the view of {who} - {view.street}")
        lines = [title]
        bb = config.big_blind
        board = _text(hand.board) or "-"
        acting = ("-" if view.to_act is None else
                  f"{names[view.to_act - 1]} (seat {view.to_act})")
        lines.append(f"board: {board}   pot: {view.pot_total} ({view.pot_total / bb:g} bb)   "
                     f"to act: {acting}")
        holes = self.config.variant.hole_cards
        for p in view.players:
            cards = "??" * holes if p.cards is None else _text(p.cards)
            extra = "  button" if p.seat == view.button else ""
            lines.append(f"  seat {p.seat} {names[p.seat - 1]}  {cards}  stack {p.stack}  "
                         f"bet {p.bet}  {str(p.state).replace('_', '-')}{extra}")
        lines.append("actions: " + (", ".join(_public_actions(hand)) or "-"))
        result = hand.result
        if result is not None:
            net = ", ".join(f"seat {s} {v:+d}" for s, v in sorted(result.net.items()))
            lines.append(f"result: {net}")
        return "\n".join(lines)


def _text(cards: Any) -> str:
    from omahacore.cards import format_cards

    return str(format_cards(tuple(int(c) for c in cards)))


def _public_actions(hand: Hand) -> list[str]:
    """The public actions of ``hand``, PHH-like (``p2 cbr 6``): blinds, checks, calls, bets,
    folds, the board and the hands shown; never a hidden hole card or a burn."""
    from omaha.game import events as ev

    out: list[str] = []
    for event in hand.events:
        if isinstance(event, ev.Posted):
            out.append(f"p{event.seat} {_POSTED.get(event.what, event.what)} {event.amount}")
        elif isinstance(event, ev.Folded):
            out.append(f"p{event.seat} f")
        elif isinstance(event, ev.Checked):
            out.append(f"p{event.seat} cc")
        elif isinstance(event, ev.Called):
            out.append(f"p{event.seat} cc {event.amount}")
        elif isinstance(event, ev.BetOrRaised):
            out.append(f"p{event.seat} cbr {event.to}")
        elif isinstance(event, ev.BoardDealt):
            out.append("board " + _text(event.cards))
        elif isinstance(event, ev.Shown):
            out.append(f"p{event.seat} shows " + _text(event.cards))
        elif isinstance(event, ev.Mucked):
            out.append(f"p{event.seat} mucks")
    return out


_POSTED = {"small_blind": "sb", "big_blind": "bb"}


def model_policy(model: Any, *, deterministic: bool | None = None) -> Any:
    """A model with ``predict`` (Stable-Baselines3's convention) as a policy
    ``(observation, mask) -> action``, one statement for every env and the evaluator:
    ``action_masks=mask`` goes to ``predict`` when its signature takes it (sb3-contrib's
    ``MaskablePPO``), ``deterministic`` when given; of an ``(action, state)`` answer the
    action is kept.

    >>> class Model:
    ...     def predict(self, observation, action_masks=None, deterministic=False):
    ...         return int(np.flatnonzero(action_masks)[-1]), None
    >>> model_policy(Model())({"observation": None}, np.array([True, True, False]))
    1
    """
    predict = model.predict
    try:
        parameters = inspect.signature(predict).parameters
    except (TypeError, ValueError):   # a builtin without a signature: the plain call
        parameters = {}  # type: ignore[assignment]
    masks = "action_masks" in parameters   # named: a **kwargs predict may forward it anywhere
    extra = {} if deterministic is None else {"deterministic": deterministic}

    def policy(observation: Any, mask: Any) -> Any:
        chosen = (predict(observation, action_masks=mask, **extra) if masks
                  else predict(observation, **extra))
        return chosen[0] if isinstance(chosen, tuple) and len(chosen) == 2 else chosen

    return policy


def reward_option(value: object, what: str) -> float | None:
    """A reward option (the deprecated ``illegal_reward``): None, or a finite real number (an int, a float,
    a NumPy number; never a bool, NaN or infinity), as a float.

    >>> reward_option(-1, "illegal_reward"), reward_option(None, "illegal_reward")
    (-1.0, None)
    """
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        raise ConfigTypeError(None, f"{what} must be None or a number, got {safe_repr(value)}")
    number = float(value)
    if not np.isfinite(number):
        raise ConfigError(None, f"{what} must be a finite number, got {safe_repr(value)}")
    return number


def deprecated_illegal_reward(value: object) -> None:
    """The removed ``illegal_reward`` option: still read (a bad value is still a typed
    :class:`~omaha.errors.ConfigError`), and a number warns (DeprecationWarning) that it is
    ignored: a masked action is played as a fold (the module notes), never fined."""
    if reward_option(value, "illegal_reward") is not None:
        import warnings

        warnings.warn("illegal_reward is deprecated and ignored: a masked action is played as a "
                      "fold (see docs/rl.md, 'The reward policy')", DeprecationWarning,
                      stacklevel=3)


def choice_option(value: object, what: str, choices: tuple[str | None, ...]) -> Any:
    """``value`` if it is one of ``choices`` (compared by type and value: no object is asked
    to compare itself), else a :class:`~omaha.errors.ConfigError` listing them."""
    if (value is None or type(value) is str) and value in choices:
        return value
    listed = ", ".join(repr(choice) for choice in choices)
    error = ConfigError if value is None or type(value) is str else ConfigTypeError
    raise error(None, f"{what} must be one of {listed}, got {safe_repr(value)}")


def options_option(options: object) -> None:
    """A ``reset`` ``options``: None or a dict (Gymnasium's and PettingZoo's signature; no
    key is read, as PettingZoo's ``api_test`` expects of an env that defines none); anything
    else is refused with :class:`~omaha.errors.ConfigTypeError`."""
    if options is not None and not isinstance(options, dict):
        raise ConfigTypeError(None, f"options must be None or a dict, got {safe_repr(options)}")


def seed_option(seed: object, *, low: int | None = None) -> int | None:
    """A ``reset`` seed: None (the OS generator) or an integer (NumPy integers count; a float,
    NaN, a bool or text is refused with :class:`~omaha.errors.ConfigTypeError`), at least
    ``low`` where the generator needs it (NumPy's and Gymnasium's: 0).

    >>> import numpy as np
    >>> seed_option(np.int64(3)), seed_option(None)
    (3, None)
    """
    return None if seed is None else as_int(seed, "seed", low=low, error=ConfigError)

