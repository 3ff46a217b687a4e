"""Campaign options for Tsushima 1905: the readings a referee may rule otherwise.

The defaults are the rulings (``games/tsushima-1905/game.toml [options]``); each
option names its ruling. Options the adjudicator does not implement are refused
rather than silently ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, Mapping

from adjudicator.engine.errors import GameDataError

CHOICES: dict[str, tuple[Any, ...]] = {
    "deck_suits": ("both", "named-suit"),                 # R-CARD-1
    "reshuffle": ("on-last-card", "on-empty-draw"),       # R-CARD-4
    "must_move": (True, False),                           # R-SEQ-3
    "prime_may_stop": (True, False),                      # R-SEQ-2
    "split_fire": (False, True),                          # R-FIRE-2
    "admiral_on_default_dice": (True, False),             # R-FIRE-6
    "armour_caps": ("per-turn", "per-attack"),            # R-CP-1
    "partial_ahead": (False, True),                       # R-MOVE-1
    "table_edge": ("withdraw", "forbid"),                 # X-EDGE
    "collision_place": ("contact", "step-start"),        # R-GEO-5
    "cadence": ("turn", "prime", "activation", "continuous"),  # rulings §4.1 (orders by email)
}


class InvalidOption(GameDataError):
    """A campaign option that does not exist or has a value it cannot take."""


@dataclass(frozen=True)
class Options:
    """The rulings' defaults; every field is a campaign option of the same name."""

    deck_suits: str = "both"
    reshuffle: str = "on-last-card"
    must_move: bool = True
    prime_may_stop: bool = True
    split_fire: bool = False
    admiral_on_default_dice: bool = True
    armour_caps: str = "per-turn"
    partial_ahead: bool = False
    table_edge: str = "withdraw"
    collision_place: str = "contact"
    cadence: str = "turn"
    turns: int = 15                                       # X-END: the safety cap

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None) -> "Options":
        try:
            return _options_of(tuple(sorted((key, type(value).__name__, value) for key, value in (raw or {}).items())))
        except TypeError:         # a value that cannot be hashed: checked (and refused) below
            return cls._read(raw)

    @classmethod
    def _read(cls, raw: Mapping[str, Any] | None) -> "Options":
        raw = dict(raw or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise InvalidOption(f"unknown option(s) {', '.join(map(repr, unknown))}; "
                                f"the options are: {', '.join(sorted(known))}")
        for name, value in raw.items():
            if name == "turns":
                if type(value) is not int or value < 1:
                    raise InvalidOption(f"option 'turns' is a whole number of turns (1 or more), not {value!r}")
            elif value not in CHOICES[name] or type(value) is not type(CHOICES[name][0]):
                raise InvalidOption(f"option {name!r} takes one of {list(CHOICES[name])}, not {value!r}")
        return cls(**raw)

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != f.default}


@lru_cache(maxsize=64)
def _options_of(items: tuple[tuple[str, str, Any], ...]) -> Options:
    """The options of a campaign, read once (they are read at every question); the
    type is part of the key, so that 1 is never taken for True."""
    return Options._read({key: value for key, _, value in items})
