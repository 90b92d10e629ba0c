"""The tournament: tables, hands, levels, eliminations and prizes (N1-N8).

A :class:`Tournament` owns its tables and plays hands through the engine's :class:`Hand`
(every betting, pot and showdown rule is the engine's): one *round* deals one hand at every
table, in table order. Between hands it applies the tournament rules:

* N1 the level of each hand (levels counted in rounds, or in seconds on an injected clock);
* N2 the seating draw; N3 the dead button (:mod:`omaha.tournament.button`);
* N4 balancing and N5 breaking tables after each hand (:mod:`omaha.tournament.seating`); a
  player who moves in is not dealt in between the button and the small blind;
* N6 hand for hand at the bubble: a round then counts as one hand, its eliminations as
  simultaneous;
* N7 places (ties share), N8 prizes (:mod:`omaha.tournament.places`, :mod:`~omaha.tournament.structure`).

Every seating change, level, elimination and prize is an event (:attr:`Tournament.events`);
:meth:`Tournament.snapshot` between hands restores with :meth:`Tournament.restore` and, with
a seeded generator, resumes exactly.

>>> import random
>>> from omaha.tournament.structure import Level, Payouts, Structure
>>> structure = Structure(levels=(Level(10, 20, hands=5), Level(20, 40, hands=5)),
...                       starting_stack=400, seats=6, payouts=Payouts(shares=(650, 350)))
>>> tour = Tournament(structure, [f"p{i}" for i in range(1, 9)], rng=random.Random(7))
>>> tour.run()
>>> sorted(tour.prizes.values(), reverse=True)[:3], sum(tour.prizes.values()) == tour.prize_pool
([520, 280, 0], True)
>>> sorted(place for place, _ in tour.places.values())
[1, 2, 3, 4, 5, 6, 7, 8]
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from omaha.config import GameConfig
from omaha.errors import TournamentError
from omaha.game.bots import BOTS, Bot, act, situation
from omaha.game.hand import Hand
from omaha.tournament.button import Positions, engine_positions, first_positions, next_positions
from omaha.tournament.places import award, place_eliminations
from omaha.tournament.seating import (
    Move,
    balance_move,
    break_moves,
    draw_seats,
    table_to_break,
)
from omaha.tournament.structure import Level, Structure

__all__ = ["Tournament", "entry_player"]

SNAPSHOT_FORMAT = "omaha-tournament/2"
OLD_FORMATS = ("omaha-tournament/1",)   # between rounds only: read as a round not open
OnHand = Callable[[int, Hand], None]


class Tournament:
    """A sit-and-go or multi-table tournament between ``entrants`` (distinct names).

    ``bots`` gives each player's decisions (a :class:`~omaha.game.bots.Bot`, one for all or
    a mapping by name; default :class:`~omaha.game.bots.StrengthBot`); ``rng`` draws the
    seats and shuffles the decks (the OS generator if None); ``clock`` gives seconds for
    levels counted in time; ``on_hand(table, hand)`` sees every finished hand.
    """

    def __init__(self, structure: Structure, entrants: Sequence[str], *,
                 rng: random.Random | None = None, bots: Bot | Mapping[str, Bot] | None = None,
                 clock: Callable[[], float] | None = None,
                 on_hand: OnHand | None = None) -> None:
        names = list(entrants)
        if len(names) < 2:
            raise TournamentError("N2", f"entrants: a tournament needs at least 2 players, got "
                                  f"{len(names)}")
        if len(set(names)) != len(names) or not all(_entry_name(n) for n in names):
            raise TournamentError("N2", "entrants: names must be distinct non-empty strings "
                                  "without '#' (which marks re-entries)")
        self.structure = structure
        self.entrants = tuple(names)
        self.rng = rng if rng is not None else random.SystemRandom()
        self.clock = clock if clock is not None else time.monotonic
        self.on_hand = on_hand
        self._bots = bots if bots is not None else BOTS["strength"]()
        self.prize_table = structure.prize_table(len(names))
        self.prize_pool = sum(self.prize_table)
        self.stacks = dict.fromkeys(names, structure.starting_stack)
        self.tables: dict[int, dict[int, str]] = {}
        self.positions: dict[int, Positions | None] = {}
        self.fresh: set[str] = set()        # moved in, not yet dealt at their new table
        self.places: dict[str, tuple[int, int]] = {}
        self.prizes: dict[str, int] = {}
        self.events: list[dict[str, Any]] = []
        self.rounds = 0
        self.hands = 0
        self.level = -1
        self.started = self.clock()
        self._configs: dict[tuple[int, bool], GameConfig] = {}
        self._new_round_state()
        self._new_late_state()
        self._draw()

    def _new_late_state(self) -> None:
        self.late_closed = not self.structure.late_entry_levels
        self.entries_of = {name: 1 for name in self.entrants}   # a player's entries so far
        # N2/N7: entries busted while late entries are open, in order, placed at the close
        # (the field is not known before): {entry: stack at the start of its last hand}
        self.late_out: list[dict[str, int]] = []
        self._out_at: dict[str, tuple[int, int]] = {}   # where each sat when it busted

    def _new_round_state(self) -> None:
        self.round_open = False   # dealt by deal_round, not yet ended by end_round
        self.together = False     # this round is hand for hand (N6)
        self.round_busted: dict[str, int] = {}   # its eliminations, placed at its end
        # the hands in play by table: each dealt seat's player and stack at the deal
        self.playing: dict[int, dict[int, tuple[str, int]]] = {}

    # --- queries -----------------------------------------------------------------------

    @property
    def remaining(self) -> list[str]:
        """The players still in (with chips), in entry order."""
        return [n for n in self.entrants if n not in self.places and n not in self._out_at]

    @property
    def players_left(self) -> int:
        """How many players are still in (with chips)."""
        return len(self.entrants) - len(self.places) - len(self._out_at)

    @property
    def late_open(self) -> bool:
        """N2: whether late entries (and re-entries) are taken now, between rounds: until the
        structure's ``late_entry_levels`` have begun their last hand."""
        return not self.late_closed and \
            self.current_level()[0] < self.structure.late_entry_levels

    @property
    def is_over(self) -> bool:
        """Whether one player has every chip (and every place is given)."""
        return len(self.places) == len(self.entrants)

    @property
    def hand_for_hand(self) -> bool:
        """N6: at the bubble (one elimination from the paid places) with several tables."""
        if not self.late_closed:   # the field, and so the paid places, are not final yet
            return False
        paid = sum(1 for prize in self.prize_table if prize > 0)
        return len(self.tables) > 1 and self.players_left == paid + 1

    def entry_of(self, player: str) -> str:
        """A player's latest entry: ``player``, or ``player#k`` after re-entries (N2)."""
        count = self.entries_of.get(player, 1)
        return player if count <= 1 else f"{player}#{count}"

    def seat_of(self, player: str) -> tuple[int, int]:
        """(table, seat) of a player still in; :class:`~omaha.errors.TournamentError` else."""
        where = self._seat_of.get(player)
        if where is None:
            raise TournamentError(None, f"{player!r} is not seated (eliminated, or no entrant)")
        return where

    def current_level(self) -> tuple[int, Level]:
        """The level of the next hand (N1): by rounds dealt, or by seconds since the start."""
        if self.structure.levels[0].hands is not None:
            return self.structure.level_for_hand(self.rounds)
        return self.structure.level_for_time(self.clock() - self.started)

    # --- seating (N2, N4, N5) ----------------------------------------------------------

    def _draw(self) -> None:
        self.tables = draw_seats(self.entrants, seats=self.structure.seats, rng=self.rng)
        # the draw's order (table, then seat): who gets a tie's odd chips first (N7)
        self.draw_order = tuple(p for t in sorted(self.tables)
                                for _, p in sorted(self.tables[t].items()))
        self._index()
        for number, seats in self.tables.items():
            self.positions[number] = None
            for seat, player in sorted(seats.items()):
                self._event("seated", player=player, table=number, seat=seat)

    def _move(self, move: Move, why: str) -> None:
        source = self.tables[move.from_table]
        _, seat = self._seat_of[move.player]
        self._resize(move.from_table, -1)
        del source[seat]
        self._resize(move.to_table, +1)
        self.tables[move.to_table][move.to_seat] = move.player
        self._seat_of[move.player] = (move.to_table, move.to_seat)
        self.fresh.add(move.player)
        self._event("moved", player=move.player, table=move.to_table, seat=move.to_seat,
                    from_table=move.from_table, from_seat=seat, why=why)

    def _index(self) -> None:
        """Where each player sits, and how many tables have each size (kept by every move
        and elimination: a hand's checks then cost nothing whatever the field)."""
        self._seat_of = {p: (t, s) for t, seats in self.tables.items() for s, p in seats.items()}
        self._sizes: dict[int, int] = {}
        for seats in self.tables.values():
            self._sizes[len(seats)] = self._sizes.get(len(seats), 0) + 1

    def _resize(self, table: int, change: int) -> None:
        """Before ``table`` gains (+1) or loses (-1) a player."""
        old = len(self.tables[table])
        self._sizes[old] -= 1
        if not self._sizes[old]:
            del self._sizes[old]
        self._sizes[old + change] = self._sizes.get(old + change, 0) + 1

    def _shortest(self) -> int:
        return min(self._sizes)

    def _next_big(self, table: int) -> int | None:
        last, seats = self.positions.get(table), self.tables[table]
        if last is None or len(seats) < 2:
            return None
        return next_positions(set(seats), last).big

    def _rearrange(self, table: int | None) -> None:
        """After a hand (at ``table``; None: after a hand-for-hand round, every table):
        break a table if the field fits one fewer (N5), else balance (N4)."""
        size = self.structure.seats
        while self.players_left <= (len(self.tables) - 1) * size and \
                (broken := table_to_break(self.tables, seats=size,
                                          order=self.structure.break_order)) is not None:
            for moved in break_moves(self.tables, broken, seats=self.structure.seats,
                                     rng=self.rng):
                self._move(moved, "table broken")
            self._sizes[0] -= 1   # its players are gone: an empty table
            if not self._sizes[0]:
                del self._sizes[0]
            del self.tables[broken]
            self.positions.pop(broken, None)
            self._event("table_broken", table=broken)
        shortest = self._shortest()
        for source in ([table] if table is not None else sorted(self.tables)):
            while source in self.tables and len(self.tables[source]) >= shortest + 2:
                move = balance_move(self.tables, source, seats=size, next_big=self._next_big)
                if move is None:
                    break
                self._move(move, "balancing")
                shortest = self._shortest()

    # --- play --------------------------------------------------------------------------

    def _config(self, index: int, level: Level, small_blind: bool) -> GameConfig:
        key = (index, small_blind)
        config = self._configs.get(key)
        if config is None:
            config = self.structure.game_config(level)
            if not small_blind and config.small_blind:   # N3: a dead small blind
                config = GameConfig.from_dict({**config.to_dict(), "small_blind": 0})
            self._configs[key] = config
        return config

    def _bot(self, player: str) -> Bot:
        bots = self._bots
        return bots[player] if isinstance(bots, Mapping) else bots

    def deal_round(self) -> dict[int, Hand]:
        """Begin a round: the level of its hands (N1), then one hand dealt at every table of
        two players or more (N3), in table order; returns them by table (none on a break
        level, which ends the round at once). Play each hand to its end, hand it to
        :meth:`finish_hand`, then call :meth:`end_round`.

        Hands of one round are dealt together: a table never deals ahead of another (N6
        holds in every round; at the bubble the round's eliminations also count as one)."""
        if self.is_over:
            raise TournamentError(None, "the tournament is over")
        if self.round_open:
            raise TournamentError(None, "a round is in play: finish its hands, then end it")
        index, level = self.current_level()
        if not self.late_closed and index >= self.structure.late_entry_levels:
            self._close_late()
        if index != self.level:
            self.level = index
            self._event("level", level=index + 1, small_blind=level.small_blind,
                        big_blind=level.big_blind, ante=level.ante,
                        big_blind_ante=level.big_blind_ante, is_break=level.is_break)
        self.round_open = True
        self.together = False
        self.round_busted = {}
        if level.is_break:
            self.end_round()
            return {}
        self.together = self.hand_for_hand
        if self.together:
            self._event("hand_for_hand", players=self.players_left, tables=len(self.tables))
        hands = {}
        for table in sorted(self.tables):
            if len(self.tables[table]) >= 2:
                hands[table] = self._deal(table, index, level)
        return hands

    def _deal(self, table: int, index: int, level: Level) -> Hand:
        """N3: the button, blinds and the players dealt in at ``table``; the hand dealt."""
        seats = self.tables[table]
        occupied = set(seats)
        last = self.positions.get(table)
        if last is None:   # the first hand: the button by draw (the first seat drawn)
            positions = first_positions(occupied, self.rng.choice(sorted(occupied)))
        else:
            positions = next_positions(occupied, last)
        dealt = [s for s in sorted(occupied)
                 if s == positions.big or not (seats[s] in self.fresh
                                               and _between(positions.button, s,
                                                            positions.small))]
        if len(dealt) < 2:
            dealt = sorted(occupied)
        button, small_blind = engine_positions(positions, dealt)
        config = self._config(index, level, small_blind)
        self.positions[table] = positions
        self.playing[table] = {s: (seats[s], self.stacks[seats[s]]) for s in dealt}
        self.hands += 1
        return Hand(config, stacks={s: chips for s, (_, chips) in self.playing[table].items()},
                    button=button, rng=self.rng)

    def finish_hand(self, table: int, hand: Hand) -> None:
        """``hand``, dealt at ``table`` by :meth:`deal_round`, is over: the stacks it leaves,
        and its eliminations placed at once (N7; at the bubble, with the round's)."""
        dealt = self.playing.get(table)
        if dealt is None or not hand.is_over or set(hand.stacks) != set(dealt):
            raise TournamentError(None, f"table {table}: not a finished hand of this round")
        del self.playing[table]
        busted = {}
        for seat, chips in hand.stacks.items():
            player, start = dealt[seat]
            self.stacks[player] = chips
            self.fresh.discard(player)
            if chips == 0:
                busted[player] = start
        if self.on_hand is not None:
            self.on_hand(table, hand)
        if self.together:
            self.round_busted.update(busted)
        else:
            self._eliminate(busted)

    def end_round(self) -> None:
        """Every hand of the round is finished: the bubble's eliminations together (N6),
        then tables broken (N5) and balanced (N4)."""
        if self.playing:
            raise TournamentError(None, f"tables {sorted(self.playing)} are still in a hand")
        if self.round_busted:
            self._eliminate(self.round_busted)
        self.round_busted, self.round_open, self.together = {}, False, False
        if not self.is_over:
            self._rearrange(None)
        self.rounds += 1

    def play_hand(self, table: int, hand: Hand) -> None:
        """Play ``hand`` to its end with the players' bots."""
        seats = self.tables[table]
        while not hand.is_over:
            actor = hand.to_act
            assert actor is not None
            bot = self._bot(seats[actor])
            act(hand, bot.decide(situation(hand), self.rng))

    def _eliminate(self, busted: Mapping[str, int]) -> None:
        """N7: the players busted together (one hand, or one hand-for-hand round) leave their
        tables and are placed; while late entries are open, placed at their close."""
        if not busted:
            return
        for player in sorted(busted):
            number, seat = self._out_at[player] = self._seat_of.pop(player)
            self._resize(number, -1)
            del self.tables[number][seat]
        if not self.late_closed:
            self.late_out.append(dict(busted))
            for player in sorted(busted):
                number, seat = self._out_at[player]
                self._event("busted", player=player, table=number, seat=seat,
                            stack=busted[player])
            if self.players_left <= 1:   # nobody left to enter against: the field is final
                self._close_late()
            return
        self._place(busted)
        self._won()

    def _place(self, busted: Mapping[str, int]) -> None:
        """N7: places for players busted together, out of the places still open."""
        places = place_eliminations(busted, len(self.entrants) - len(self.places))
        for player, (high, low) in sorted(places.items(), key=lambda item: item[1]):
            self.places[player] = (high, low)
            number, seat = self._out_at.pop(player)
            self._event("eliminated", player=player, table=number, seat=seat,
                        place=high, tied_to=low, stack=busted[player])

    def _close_late(self) -> None:
        """N2: late entries close; the entries busted meanwhile take their places, the first
        busted the lowest (N7), now that the field is known."""
        self.late_closed = True
        self._event("late_entries_closed", entrants=len(self.entrants),
                    prize_pool=self.prize_pool)
        for busted in self.late_out:
            self._place(busted)
        self.late_out = []
        self._won()

    def enter(self, name: str) -> str:
        """N2: a late entry between rounds, or a re-entry of a player busted while late
        entries are open (named ``name#2``, ``name#3``, ...); it draws a random empty seat
        at a table with the fewest players (a new table when all are full, balanced at once,
        N4), with the starting stack, and waits for the big blind as a moved player does.
        Returns the entry's name. The prize pool and the payout table grow with the field.

        Raises:
            TournamentError: late entries closed, a round in play, a name taken, a player
                still in, or re-entries used up.
        """
        if self.round_open:
            raise TournamentError("N2", "enter between rounds, not while hands are in play")
        if not self.late_open:
            raise TournamentError("N2", "late entries are closed")
        if not _entry_name(name):
            raise TournamentError("N2", f"entrants: {name!r} is not a name (non-empty text "
                                  "without '#')")
        count = self.entries_of.get(name, 0)
        if count:
            last = name if count == 1 else f"{name}#{count}"
            if last not in self._out_at:
                raise TournamentError("N2", f"{name} is still in: only a busted player "
                                      "enters again")
            if count > self.structure.re_entries:
                raise TournamentError("N2", f"{name} has used the {self.structure.re_entries} "
                                      "re-entries the structure allows")
        entry = name if not count else f"{name}#{count + 1}"
        table, seat, opened = self._seat_for_entry()
        self.entries_of[name] = count + 1
        self.entrants += (entry,)
        self.draw_order += (entry,)
        self.stacks[entry] = self.structure.starting_stack
        self.prize_table = self.structure.prize_table(len(self.entrants))
        self.prize_pool = sum(self.prize_table)
        if opened:
            self.tables[table], self.positions[table] = {}, None
            self._sizes[0] = self._sizes.get(0, 0) + 1
            self._event("table_opened", table=table)
        self._resize(table, +1)
        self.tables[table][seat] = entry
        self._seat_of[entry] = (table, seat)
        self.fresh.add(entry)
        self._event("entered", player=entry, table=table, seat=seat, re_entry=bool(count))
        if opened:
            self._rearrange(None)
        return entry

    def _seat_for_entry(self) -> tuple[int, int, bool]:
        """A random empty seat at a table with the fewest players, or a new table's."""
        size = self.structure.seats
        short = [t for t, seats in self.tables.items() if len(seats) < size]
        if not short:
            table = min(n for n in range(1, len(self.tables) + 2) if n not in self.tables)
            return table, self.rng.randint(1, size), True
        fewest = min(len(self.tables[t]) for t in short)
        free = [(t, s) for t in sorted(short) if len(self.tables[t]) == fewest
                for s in range(1, size + 1) if s not in self.tables[t]]
        table, seat = self.rng.choice(free)
        return table, seat, False

    def _won(self) -> None:
        """The last player with chips wins; the prizes are awarded (N8)."""
        if self.players_left == 1 and self.late_closed:
            winner = self.remaining[0]
            self.places[winner] = (1, 1)
            self._event("won", player=winner, stack=self.stacks[winner])
            self.prizes = award(self.places, self.prize_table, self.draw_order)
            for player in sorted(self.prizes, key=lambda p: self.places[p]):
                if self.prizes[player]:
                    self._event("prize", player=player, place=self.places[player][0],
                                amount=self.prizes[player])

    def play_round(self) -> None:
        """One round between the bots: every table deals (:meth:`deal_round`), each hand is
        played and finished in table order, then the round ends (:meth:`end_round`)."""
        for table, hand in self.deal_round().items():
            self.play_hand(table, hand)
            self.finish_hand(table, hand)
        if self.round_open:
            self.end_round()

    def run(self, *, max_rounds: int = 1_000_000) -> None:
        """Play until one player holds every chip."""
        for _ in range(max_rounds):
            if self.is_over:
                return
            self.play_round()
        raise TournamentError(None, f"not over after {max_rounds} rounds")

    def _event(self, kind: str, **fields: Any) -> None:
        self.events.append({"type": kind, "round": self.rounds, **fields})

    # --- snapshots ---------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The whole tournament between hands, as JSON-compatible data (with the seeded
        generator's state; None for the OS generator, which has none)."""
        try:
            state: Any = self.rng.getstate()
            state = [state[0], list(state[1]), state[2]]
        except NotImplementedError:
            state = None
        return {"format": SNAPSHOT_FORMAT, "structure": self.structure.to_dict(),
                "entrants": list(self.entrants), "draw_order": list(self.draw_order),
                "stacks": dict(self.stacks),
                "tables": {str(t): {str(s): p for s, p in seats.items()}
                           for t, seats in self.tables.items()},
                "positions": {str(t): None if p is None else [p.button, p.small, p.big]
                              for t, p in self.positions.items()},
                "fresh": sorted(self.fresh),
                "places": {p: list(r) for p, r in self.places.items()},
                "prizes": dict(self.prizes), "rounds": self.rounds, "hands": self.hands,
                "level": self.level, "rng": state,
                "late": {"closed": self.late_closed, "entries_of": dict(self.entries_of),
                         "out": [dict(group) for group in self.late_out],
                         "out_at": {p: list(at) for p, at in self._out_at.items()}},
                "round": {"open": self.round_open, "together": self.together,
                          "busted": dict(self.round_busted),
                          "playing": {str(t): {str(s): [p, c] for s, (p, c) in dealt.items()}
                                      for t, dealt in self.playing.items()}}}

    @classmethod
    def restore(cls, data: Mapping[str, Any], *, bots: Bot | Mapping[str, Bot] | None = None,
                clock: Callable[[], float] | None = None,
                on_hand: OnHand | None = None) -> Tournament:
        """The tournament a :meth:`snapshot` describes, checked: chips, seats and places must
        agree with the entrants, or :class:`~omaha.errors.TournamentError` names the fault."""
        try:
            if data.get("format") not in (SNAPSHOT_FORMAT, *OLD_FORMATS):
                raise TournamentError(None, f"format: expected {SNAPSHOT_FORMAT!r}")
            structure = Structure.from_dict(data["structure"])
            rng: random.Random
            if data["rng"] is None:
                rng = random.SystemRandom()
            else:
                version, internal, gauss = data["rng"]
                rng = random.Random()
                rng.setstate((version, tuple(internal), gauss))
            tour = cls.__new__(cls)
            tour.structure = structure
            tour.entrants = tuple(data["entrants"])
            tour.draw_order = tuple(data["draw_order"])
            tour.rng, tour.on_hand = rng, on_hand
            tour.clock = clock if clock is not None else time.monotonic
            tour._bots = bots if bots is not None else BOTS["strength"]()
            tour.prize_table = structure.prize_table(len(tour.entrants))
            tour.prize_pool = sum(tour.prize_table)
            tour.stacks = {str(p): _count(c, f"stacks[{p}]") for p, c in data["stacks"].items()}
            tour.tables = {int(t): {int(s): str(p) for s, p in seats.items()}
                           for t, seats in data["tables"].items()}
            tour.positions = {int(t): None if p is None else Positions(*map(int, p))
                              for t, p in data["positions"].items()}
            tour.fresh = set(data["fresh"])
            tour.places = {str(p): (int(r[0]), int(r[1])) for p, r in data["places"].items()}
            tour.prizes = {str(p): _count(a, f"prizes[{p}]") for p, a in data["prizes"].items()}
            tour.rounds, tour.hands = _count(data["rounds"], "rounds"), _count(data["hands"],
                                                                               "hands")
            tour.level = int(data["level"])
            tour.events, tour._configs = [], {}
            tour._new_late_state()
            late = data.get("late")
            if late is not None:
                tour.late_closed = bool(late["closed"])
                tour.entries_of = {str(p): _count(c, f"late.entries_of[{p}]")
                                   for p, c in late["entries_of"].items()}
                tour.late_out = [{str(p): _count(c, "late.out") for p, c in group.items()}
                                 for group in late["out"]]
                tour._out_at = {str(p): (int(at[0]), int(at[1]))
                                for p, at in late["out_at"].items()}
            tour._new_round_state()
            round_ = data.get("round")
            if round_ is not None:
                tour.round_open = bool(round_["open"])
                tour.together = bool(round_["together"])
                tour.round_busted = {str(p): _count(c, f"round.busted[{p}]")
                                     for p, c in round_["busted"].items()}
                tour.playing = {int(t): {int(s): (str(pc[0]), _count(pc[1], "round.playing"))
                                         for s, pc in dealt.items()}
                                for t, dealt in round_["playing"].items()}
            tour.started = tour.clock()
            tour._index()
        except TournamentError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise TournamentError(None, f"not a tournament snapshot: {exc!r}") from None
        tour._check()
        return tour

    def _check(self) -> None:
        seated = [p for seats in self.tables.values() for p in seats.values()]
        # over: the winner, placed first, still sits at the last table
        left = self.remaining or [p for p, place in self.places.items() if place == (1, 1)]
        if sorted(seated) != sorted(left):
            raise TournamentError("N2", "tables: the seated players are not the players left")
        if sorted(self.draw_order) != sorted(self.entrants):
            raise TournamentError("N2", "draw_order: not the entrants, each once")
        if set(self.stacks) != set(self.entrants):
            raise TournamentError("N1", "stacks: not one per entrant")
        total = self.structure.starting_stack * len(self.entrants)
        if sum(self.stacks.values()) != total:
            raise TournamentError("N1", f"stacks: {sum(self.stacks.values())} chips, not {total}")
        if any(self.stacks[p] == 0 and p not in self.round_busted for p in self.remaining):
            raise TournamentError("N7", "stacks: a player left has no chips")
        out = [p for group in self.late_out for p in group]
        if sorted(out) != sorted(self._out_at) or len(set(out)) != len(out) \
                or (self.late_closed and out) \
                or any(p not in self.stacks or self.stacks[p] or p in self.places for p in out):
            raise TournamentError("N2", "late.out: not the entries busted during late "
                                  "entries, each once, without chips or a place")
        if not self.round_open and (self.playing or self.round_busted):
            raise TournamentError(None, "round: hands in play but no round open")
        for number, dealt in self.playing.items():
            seats = self.tables.get(number, {})
            if any(seats.get(s) != p or self.stacks[p] != c for s, (p, c) in dealt.items()):
                raise TournamentError(None, f"round.playing[{number}]: not who sits there "
                                      "with the chips they had")
        for number, seats in self.tables.items():
            if any(not 1 <= s <= self.structure.seats for s in seats):
                raise TournamentError("T1", f"tables[{number}]: a seat outside "
                                      f"1-{self.structure.seats}")


def entry_player(entry: str) -> str:
    """The player an entry belongs to: ``ann#2`` (a re-entry) is ``ann``'s."""
    return entry.split("#", 1)[0]


def _entry_name(name: object) -> bool:
    """Whether ``name`` can name an entrant: non-empty text without ``#`` (re-entries)."""
    return isinstance(name, str) and bool(name) and "#" not in name


def _between(low: int, seat: int, high: int) -> bool:
    """Whether ``seat`` is strictly between ``low`` and ``high`` going clockwise."""
    if low == high:
        return False
    if low < high:
        return low < seat < high
    return seat > low or seat < high


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TournamentError(None, f"{what}: expected a count, got {value!r}")
    return value
