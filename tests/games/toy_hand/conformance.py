"""The toy game's conformance cases: a position and a few expectations."""

from __future__ import annotations

from typing import Any, Mapping


def setup(case: Mapping[str, Any]) -> dict:
    return {"position": dict(case.get("position", {}))}


def compare(match, expect: Mapping[str, Any], rejected: int) -> list[str]:
    state, problems = match.state, []
    for key in ("result", "wins", "hands", "reserve"):
        if key in expect and expect[key] != getattr(state, key):
            problems.append(f"{key}: expected {expect[key]!r}, got {getattr(state, key)!r}")
    if expect.get("rejected", 0) != rejected:
        problems.append(f"rejected: expected {expect.get('rejected', 0)}, got {rejected}")
    return problems
