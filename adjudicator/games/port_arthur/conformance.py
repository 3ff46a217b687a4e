"""Running a Port Arthur conformance case (format: shared/cases/README.md).

The engine's generic runner (:mod:`adjudicator.engine.cases`) takes dice and answers
from the case's lists; Port Arthur loads the position and compares the expectations.
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine import Match, cases
from adjudicator.games.port_arthur.game import PortArthur

STATE_KEYS = ("turn", "phase", "cp", "initiative", "blockade", "port_arthur", "occupied", "landing")


def run_case(case: Mapping[str, Any], game: PortArthur | None = None) -> list[str]:
    """Run one case; return what differed (empty when the case passes)."""
    from adjudicator.games.port_arthur import conformance

    return cases.run_case(case, game or PortArthur(), conformance)


def setup(case: Mapping[str, Any]) -> dict[str, Any]:
    """The engine set-up of a case: its ``[position]`` (see :func:`state_from_position`)."""
    return {"position": case["position"]}


def compare(match: Match, expect: Mapping[str, Any], rejected: int) -> list[str]:
    """What differs from the case's ``[expect]``."""
    return _compare(match, expect, rejected)


def _compare(match: Match, expect: Mapping[str, Any], rejected: int) -> list[str]:
    state = match.state
    problems = []

    def differs(what: str, wanted: Any, got: Any) -> None:
        if wanted != got:
            problems.append(f"{what}: expected {wanted!r}, got {got!r}")

    for key in STATE_KEYS:
        if key in expect:
            differs(key, expect[key], getattr(state, key))
    if "waiting" in expect:
        decision = match.decision
        got = None if decision is None else {"ask": decision.kind, "side": decision.side}
        differs("waiting", dict(expect["waiting"]), got)
    if "winner" in expect:
        differs("winner", expect["winner"], state.result)
    differs("rejected", expect.get("rejected", 0), rejected)
    for key in ("hits", "criticals"):
        if key in expect:
            differs(key, expect[key], None if state.last_fire is None else getattr(state.last_fire, key))
    for name, wanted in expect.get("ship", {}).items():
        ship = state.ship(name)
        if ship is None:
            problems.append(f"ship {name}: not in play")
            continue
        if "sunk" in wanted:
            differs(f"ship {name} sunk", wanted["sunk"], ship.sunk)
        if "damaged" in wanted:
            differs(f"ship {name} damaged", wanted["damaged"], ship.damaged)
        if "at" in wanted:
            differs(f"ship {name} at", wanted["at"], ship.at)
    return problems
