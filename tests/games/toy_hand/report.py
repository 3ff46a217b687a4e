"""The toy game's part of a report."""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine import Decision

from tests.games.toy_hand.game import value


def context(state: Any, view: Mapping[str, Any], side: str, options: Mapping[str, Any]) -> dict:
    return {"hand": view["hands"][side], "wins": view["wins"]}


def answer_hint(decision: Decision) -> list[str]:
    """A skeleton that reads as it stands and plays the default (the lowest card), the
    other cards as a comment."""
    lowest = min(decision.options["card"], key=value)
    return [f"play: {lowest}", f"# or: {' | '.join(c for c in decision.options['card'] if c != lowest)}"]
