"""Campaign options for Russo-Japanese War 1904-1905: the optional rules a referee may
choose, and the readings a referee may rule otherwise (docs/games/russo-japanese-war/).

Options the adjudicator does not implement are refused rather than silently ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from adjudicator.engine.errors import GameDataError


class InvalidOption(GameDataError):
    """A campaign option that does not exist or has a value it cannot take."""


@dataclass(frozen=True)
class Options:
    """The rulebook's game without the optional rules; every field is a campaign option
    of the same name."""

    naval: bool = False
    """11.0 Advanced Naval Rules."""
    sortie_needs_card: bool = False
    """Ruling A65: a sortie (11.2.1) needs a card played for it; only with ``naval``."""

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None) -> "Options":
        raw = dict(raw or {})
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise InvalidOption(f"unknown option(s) {unknown}; options: {', '.join(known)}")
        for name, value in raw.items():
            if type(value) is not bool:
                raise InvalidOption(f"option {name!r} is true or false, not {value!r}")
        options = cls(**raw)
        if options.sortie_needs_card and not options.naval:
            raise InvalidOption("option sortie_needs_card reads a rule of the advanced naval rules (11.2.1, A65): "
                                "it needs the option naval too")
        return options

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != f.default}


OPTIONS = tuple(f.name for f in fields(Options))
