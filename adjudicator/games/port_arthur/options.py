"""Campaign options for Port Arthur: the optional rules and the rulings a referee may
choose otherwise (see docs/games/port-arthur/rules-notes.md)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from adjudicator.engine.errors import GameDataError

PARTIAL_HITS = ("less-than", "at-most")
BLOCKADE = ("not-controlled", "no-russian-ships")


class InvalidOption(GameDataError):
    """A campaign option that does not exist or has a value it cannot take."""


@dataclass(frozen=True)
class Options:
    """Rulebook defaults; every field is a campaign option of the same name."""

    additional_ships: bool = False      # Optional Rule: Mines -- Additional ships
    attack_on_port_arthur: bool = False  # Optional Rule: Mines -- Attack on Port Arthur
    mines: bool = False                 # Optional Rule: Mines -- Detonation of the mines
    fog_of_war: bool = False            # Ship Movement: The Fog of War
    partial_hits: str = "less-than"     # rulings, Naval battle: "less-than" | "at-most"
    blockade: str = "not-controlled"    # rulings: "not-controlled" (English rule) | "no-russian-ships"
    track: tuple[str, ...] | None = None  # rulings: the Manchuria Track's order

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None) -> "Options":
        raw = dict(raw or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise InvalidOption(
                f"unknown option(s) {', '.join(map(repr, unknown))}; the options are: {', '.join(sorted(known))}"
            )
        for name in ("additional_ships", "attack_on_port_arthur", "mines", "fog_of_war"):
            if name in raw and not isinstance(raw[name], bool):
                raise InvalidOption(f"option {name!r} is true or false, not {raw[name]!r}")
        if raw.get("partial_hits", "less-than") not in PARTIAL_HITS:
            raise InvalidOption(f"option 'partial_hits' is one of {PARTIAL_HITS}, not {raw['partial_hits']!r}")
        if raw.get("blockade", "not-controlled") not in BLOCKADE:
            raise InvalidOption(f"option 'blockade' is one of {BLOCKADE}, not {raw['blockade']!r}")
        if raw.get("track") is not None:
            track = raw["track"]
            if isinstance(track, str):  # the command line's form: -o track="Yalu,Nanshan,..."
                track = [space.strip() for space in track.split(",") if space.strip()]
            if not isinstance(track, (list, tuple)) or not all(isinstance(s, str) for s in track):
                raise InvalidOption(f"option 'track' is a list of the track's spaces in order, not {track!r}")
            raw["track"] = tuple(track)
        return cls(**raw)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                data[f.name] = list(value) if isinstance(value, tuple) else value
        return data
