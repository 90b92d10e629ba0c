"""An arena's settings: the tables, the game and the house rules, stored at the first start,
and what a restart may change (:func:`settings_changes`, :data:`FIXED_SETTINGS`).

>>> ArenaSettings(tables=2, seats=6).game_config().variant.name
'Omaha Hi/Lo 8-or-better'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from omaha.config import GameConfig
from omaha.errors import OmahaError, TableError
from omaha.game.clock import ClockConfig
from omaha.game.table import Table, TableConfig, table_config
from omaha.limits import as_amount, as_int

__all__ = ["FIXED_SETTINGS", "ArenaSettings", "SettingsChanged", "settings_changes"]


@dataclass(frozen=True)
class ArenaSettings:
    """How many tables of how many seats play which game, and the house rules.

    ``game`` is the ``to_dict`` of a flop :class:`~omaha.config.GameConfig`, a stud
    :class:`~omaha.game.stud.StudConfig` or a mixed game's
    :class:`~omaha.game.rotation.RotationConfig` (E8).

    ``buy_in`` chips for a new player (and for a ``rebuy`` when busted); ``hand_pause_ms``
    before each hand; ``clock`` the action clock (D1-D3); ``spectators`` the most
    connections watching one table.
    """

    tables: int = 4
    seats: int = 6
    game: dict[str, Any] | None = None
    buy_in: int = 200
    rebuy: bool = True
    hand_pause_ms: int = 0
    clock: dict[str, Any] | None = None
    spectators: int = 16

    def __post_init__(self) -> None:
        # Kept as exact ints (a NumPy int would not go into JSON); the seats, the table checks.
        for name, value in (
                ("tables", as_int(self.tables, "tables", low=1, high=10_000, error=TableError,
                                  rule="T1")),
                ("buy_in", as_amount(self.buy_in, "buy_in", low=1, error=TableError, rule="B8")),
                ("hand_pause_ms", as_int(self.hand_pause_ms, "hand_pause_ms", low=0,
                                         error=TableError)),
                ("spectators", as_int(self.spectators, "spectators", low=0, high=100_000,
                                      error=TableError))):
            object.__setattr__(self, name, value)
        self.game_config()   # refuse a bad game or clock now, not at the first hand
        self.clock_config()
        Table(self.game_config(), seats=self.seats)

    def game_config(self) -> TableConfig:
        """The game every table plays (default pot-limit Omaha hi/lo 1/2)."""
        if self.game is None:
            from omaha.config import OMAHA_HILO
            return GameConfig.pot_limit(small_blind=1, big_blind=2, variant=OMAHA_HILO)
        return table_config(self.game)

    def clock_config(self) -> ClockConfig:
        """The action clock of every hand."""
        return ClockConfig() if self.clock is None else ClockConfig.from_dict(self.clock)

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible settings (stored in the database at the first start)."""
        out = asdict(self)
        out["game"] = self.game_config().to_dict()
        out["clock"] = self.clock_config().to_dict()
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ArenaSettings:
        """Inverse of :meth:`to_dict`."""
        return cls(**data)


class SettingsChanged(OmahaError):
    """The settings given to :meth:`Arena.open` differ from those stored at the first start
    (``changes``: what differs, as :func:`settings_changes` words it)."""

    def __init__(self, message: str, changes: list[str]) -> None:
        super().__init__(message)
        self.changes = changes


FIXED_SETTINGS = ("seats", "game")
"""Settings no restart changes, ``--reconfigure`` or not: every table's stored snapshot (and
its last hand) holds its seat count and game, which the engine restores as they were."""


def _flat(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and key != "variant":
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


def _shown(value: Any) -> str:
    if isinstance(value, dict) and "name" in value:   # a variant: its name
        return str(value["name"])
    return str(value).lower() if isinstance(value, bool) else str(value)


def settings_changes(stored: ArenaSettings, given: ArenaSettings) -> list[str]:
    """What differs between two settings, one ``name stored -> given`` item each (the
    game's and the clock's fields by their dotted names: ``game.big_blind 2 -> 4``).

    >>> settings_changes(ArenaSettings(seats=6), ArenaSettings(seats=9, buy_in=300))
    ['seats 6 -> 9', 'buy_in 200 -> 300']
    """
    old, new = _flat(stored.to_dict()), _flat(given.to_dict())
    return [f"{name} {_shown(old.get(name))} -> {_shown(new[name])}"
            for name in new if old.get(name) != new[name]]
