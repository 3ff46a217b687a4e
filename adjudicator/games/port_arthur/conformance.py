"""Running a Port Arthur conformance case (format: shared/cases/README.md).

Load the position, start at the beginning of its phase, take dice and answers from
the case's lists in order, stop at ``until`` (or when a list runs dry, or at the end
of the game), then compare every expectation.
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine import Event, IllegalAnswer, Match
from adjudicator.games.port_arthur.game import PortArthur

STATE_KEYS = ("turn", "phase", "cp", "initiative", "blockade", "port_arthur", "occupied", "landing")


def run_case(case: Mapping[str, Any], game: PortArthur | None = None) -> list[str]:
    """Run one case; return what differed (empty when the case passes)."""
    game = game or PortArthur()
    until = case.get("until")
    match = Match(game, {"position": case["position"]}, case.get("options", {}),
                  pause_on=_stop_at_phase(until) if until else None)
    dice = [int(d) for d in case.get("dice", [])]
    answers = [dict(a) for a in case.get("answers", [])]
    problems: list[str] = []
    rejected = _drive(match, dice, answers, problems)
    if problems:
        return problems
    if dice:
        problems.append(f"{len(dice)} die/dice left unused: {dice}")
    if answers:
        problems.append(f"{len(answers)} answer(s) left unused, the first: {answers[0]}")
    problems += _compare(match, case.get("expect", {}), rejected)
    return problems


def _stop_at_phase(until: str):
    """Pause at the start of ``until``, but not at the start phase's own event."""
    seen = {"first": False}

    def reached(event: Event) -> bool:
        if event.kind != "phase":
            return False
        if not seen["first"]:
            seen["first"] = True
            return False
        return event.data.get("phase") == until

    return reached


def _drive(match: Match, dice: list[int], answers: list[dict], problems: list[str]) -> int:
    rejected = 0
    while match.paused_at is None and not match.finished:
        roll = match.roll
        if roll is not None:
            if len(dice) < roll.count:
                break
            match.supply_dice(dice[: roll.count])
            del dice[: roll.count]
            continue
        decision = match.decision
        if decision is None or not answers:
            break
        answer = answers.pop(0)
        ask, side = answer.pop("ask", None), answer.pop("side", None)
        if (ask, side) != (decision.kind, decision.side):
            problems.append(f"the rules asked {decision.side} for {decision.kind!r}, "
                            f"the case answers {side} for {ask!r}")
            break
        try:
            match.answer(side, answer)
        except IllegalAnswer:
            rejected += 1
    return rejected


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
