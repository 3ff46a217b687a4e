"""Running a Russo-Japanese War conformance case (shared/cases/README.md, section
"Russo-Japanese War 1904-1905 cases").

The engine's generic runner (:mod:`adjudicator.engine.cases`) takes the dice, the shuffles
(by card name: every Shuffle names its cards) and the answers from the case's lists; this
game loads the position -- with its own fixture map, units, cards and CRT columns -- and
compares the expectations.
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine import Match, cases
from adjudicator.games.russo_japanese_war.game import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.hexmap import ELIMINATED


def run_case(case: Mapping[str, Any], game: RussoJapaneseWar | None = None) -> list[str]:
    """Run one case with the engine's generic runner; return what differed."""
    from adjudicator.games.russo_japanese_war import conformance

    return cases.run_case(case, game or RussoJapaneseWar(), conformance)


def setup(case: Mapping[str, Any]) -> dict[str, Any]:
    """The engine set-up of a case: its ``[position]`` (own map, units, cards, CRT columns)."""
    return {"position": case["position"]}


def compare(match: Match, expect: Mapping[str, Any], rejected: int) -> list[str]:
    """What differs from the case's ``[expect]``; also a run that stopped at a question
    the case does not name, or a game that ended without the case naming the result."""
    state = match.state
    problems: list[str] = []
    if match.decision is not None and match.paused_at is None and "waiting" not in expect:
        problems.append(f"the run stopped at a question: {match.decision.side} {match.decision.kind!r}")
    if match.finished and "winner" not in expect:
        problems.append(f"the game ended ({state['result']}) but the case names no winner")

    def differs(what: str, wanted: Any, got: Any) -> None:
        if wanted != got:
            problems.append(f"{what}: expected {wanted!r}, got {got!r}")

    for key in ("turn", "phase"):
        if key in expect:
            differs(key, expect[key], state[key])
    if "waiting" in expect:
        decision = match.decision
        got = None if decision is None else {"ask": decision.kind, "side": decision.side}
        wanted = dict(expect["waiting"])
        if got is not None and "unit" in wanted:
            got["unit"] = decision.options.get("unit")
        differs("waiting", wanted, got)
    if "winner" in expect:
        differs("winner", expect["winner"], state["result"])
    differs("rejected", expect.get("rejected", 0), rejected)
    for key in ("morale", "losses"):
        for side, value in dict(expect.get(key, {})).items():
            differs(f"{key} {side}", value, state[key][side])
    if "limits" in expect:
        differs("limits", dict(expect["limits"]), state["limits"])
    if "port_arthur_events_barred" in expect:
        differs("port_arthur_events_barred", expect["port_arthur_events_barred"], state["barred"])
    for hex_, side in dict(expect.get("control", {})).items():
        differs(f"control of {hex_}", side, state["control"].get(hex_, "russia"))
    for uid, wanted in dict(expect.get("unit", {})).items():
        unit = state["units"].get(uid)
        if unit is None:
            problems.append(f"unit {uid}: not in play")
            continue
        if "at" in wanted:
            differs(f"unit {uid} at", wanted["at"], unit["at"])
        if "eliminated" in wanted:
            differs(f"unit {uid} eliminated", wanted["eliminated"], unit["at"] == ELIMINATED)
        for flag in ("flipped", "zoc_lost"):
            if flag in wanted:
                differs(f"unit {uid} {flag}", wanted[flag], bool(unit.get(flag)))
    problems += compare_cards(state["cards"], dict(expect.get("cards", {})))
    last = state.get("last_combat") or {}
    for key in ("result", "differential", "column"):
        if key in expect:
            differs(f"last combat {key}", expect[key], last.get(key))
    if "combats" in expect:
        got = state["combats"]
        if len(got) != len(expect["combats"]):
            problems.append(f"combats: expected {len(expect['combats'])}, got {len(got)}: {got}")
        for i, (wanted, actual) in enumerate(zip(expect["combats"], got)):
            for key in ("target", "differential", "column", "result"):
                if key in wanted:
                    differs(f"combat {i + 1} {key}", wanted.get(key), actual.get(key))
    return problems


def compare_cards(cards: Mapping[str, Any], wanted: Mapping[str, Any]) -> list[str]:
    problems = []
    for side, hand in dict(wanted.get("hands", {})).items():
        if sorted(hand) != sorted(cards["hands"][side]):
            problems.append(f"{side} hand: expected {sorted(hand)}, got {sorted(cards['hands'][side])}")
    if "discard_top" in wanted:
        top = cards["discard"][-1] if cards["discard"] else ""
        if wanted["discard_top"] != top:
            problems.append(f"discard top: expected {wanted['discard_top']!r}, got {top!r}")
    if "deck_count" in wanted and wanted["deck_count"] != len(cards["deck"]):
        problems.append(f"deck count: expected {wanted['deck_count']}, got {len(cards['deck'])}")
    for key in ("deck", "discard"):
        if key in wanted and list(wanted[key]) != cards[key]:
            problems.append(f"{key}: expected {list(wanted[key])}, got {cards[key]}")
    return problems

