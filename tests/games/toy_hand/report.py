"""The toy game's part of a report."""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine import Decision


def context(state: Any, view: Mapping[str, Any], side: str, options: Mapping[str, Any]) -> dict:
    return {"hand": view["hands"][side], "wins": view["wins"]}


def answer_hint(decision: Decision) -> list[str]:
    return [f"play: {' | '.join(decision.options['card'])}"]
