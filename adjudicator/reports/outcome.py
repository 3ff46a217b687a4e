"""A finished game's result in words, as every report, mail and page says it.

A game's result is a side's name, ``"draw"``, or (Tsushima) a mapping whose
``winner`` is one of those."""

from __future__ import annotations

from typing import Any, Mapping


def outcome(result: Any) -> str:
    """"a draw", or "Japan wins"."""
    winner = result.get("winner") if isinstance(result, Mapping) else result
    return "a draw" if winner == "draw" else f"{str(winner).capitalize()} wins"
