"""Running a Tsushima 1905 conformance case (format: ../shared/cases/README.md,
section "Tsushima 1905 cases").

The engine's generic runner (:mod:`adjudicator.engine.cases`) takes the cards turned
over, the dice and the answers from the case's lists; this game loads the position
(:func:`setup`) and compares the expectations (:func:`compare`).
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine import Match, cases
from adjudicator.games.tsushima_1905.data import bl_to_units, load_data
from adjudicator.games.tsushima_1905.game import Tsushima1905

STATE_KEYS = ("turn", "phase", "offense", "prime", "admiral", "winner", "victory", "score")


def run_case(case: Mapping[str, Any], game: Tsushima1905 | None = None) -> list[str]:
    """Run one case; return what differed (empty when the case passes)."""
    from adjudicator.games.tsushima_1905 import conformance

    return cases.run_case(case, game or Tsushima1905(), conformance)


def setup(case: Mapping[str, Any]) -> dict[str, Any]:
    """The engine set-up of a case: its ``[position]``, played without the stops of
    the mail cadence (the cases test the rules, not the mail)."""
    return {"position": case["position"], "continuous": True}


def compare(match: Match, expect: Mapping[str, Any], rejected: int) -> list[str]:
    """What differs from the case's ``[expect]``."""
    return _compare(match, expect, rejected, load_data().units_per_bl)


def _ship_value(ship: Any, key: str) -> Any:
    if key == "at":
        return [ship.x, ship.y]
    if key == "cp":
        return ship.cp
    if key == "used":
        return ship.used()
    return getattr(ship, key)


def _expected_value(key: str, value: Any, units: int) -> Any:
    if key == "at":
        return [bl_to_units(v, units) for v in value]
    if key == "used":
        return {"move": 0, "gun": 0, "armor": 0} | dict(value)
    return value


def _compare(match: Match, expect: Mapping[str, Any], rejected: int, units: int) -> list[str]:
    state = match.state
    problems = []
    if "waiting" in expect:
        want = dict(expect["waiting"])
        decision = match.decision
        got = {"ask": decision.kind, "side": decision.side} if decision else None
        if got != {k: want[k] for k in ("ask", "side") if k in want}:
            problems.append(f"waiting: expected {want}, got {got or 'no question'}")
    if int(expect.get("rejected", 0)) != rejected:
        problems.append(f"rejected: expected {expect.get('rejected', 0)}, got {rejected}")
    for key in STATE_KEYS:
        if key in expect:
            got = getattr(state, key)
            if key == "phase" and got == "ended":
                got = state.phase
            if got != expect[key]:
                problems.append(f"{key}: expected {expect[key]!r}, got {got!r}")
    for name, wanted in expect.get("ship", {}).items():
        ship = state.ships.get(name)
        if ship is None:
            problems.append(f"ship {name}: not in the game")
            continue
        for key, value in wanted.items():
            got, want = _ship_value(ship, key), _expected_value(key, value, units)
            if got != want:
                problems.append(f"ship {name} {key}: expected {want!r}, got {got!r}")
    for side, wanted in expect.get("deck", {}).items():
        deck = state.decks[side]
        for key in ("draw", "discard"):
            if key in wanted and sorted(getattr(deck, key)) != sorted(wanted[key]):
                problems.append(f"deck {side} {key}: expected {sorted(wanted[key])}, got {sorted(getattr(deck, key))}")
        if "draw_count" in wanted and len(deck.draw) != wanted["draw_count"]:
            problems.append(f"deck {side} draw_count: expected {wanted['draw_count']}, got {len(deck.draw)}")
    return problems
