"""Running a Russo-Japanese War conformance case (shared/cases/README.md, section
"Russo-Japanese War 1904-1905 cases").

Load the position with its own fixture map, units, cards and CRT columns; start at the
beginning of its phase; take dice, shuffles and answers from the case's lists in order
(a shuffle is given as the new deck, top first, by card name); stop at ``until``, when a
list runs dry or when the game ends; then compare every expectation.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from adjudicator.engine import Event, IllegalAnswer, Match
from adjudicator.games.russo_japanese_war.game import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.hexmap import ELIMINATED


def run_case(case: Mapping[str, Any], game: RussoJapaneseWar | None = None) -> list[str]:
    """Run one case; return what differed (empty when the case passes)."""
    game = game or RussoJapaneseWar()
    until = case.get("until")
    match = Match(game, {"position": case["position"]}, case.get("options", {}),
                  pause_on=stop_at_phase(until) if until else None)
    dice = [int(d) for d in case.get("dice", [])]
    shuffles = [list(s) for s in case.get("shuffles", [])]
    answers = [dict(a) for a in case.get("answers", [])]
    problems: list[str] = []
    rejected = drive(match, dice, shuffles, answers, problems)
    if problems:
        return problems
    for name, left in (("die/dice", dice), ("shuffle(s)", shuffles), ("answer(s)", answers)):
        if left:
            problems.append(f"{len(left)} {name} left unused, the first: {left[0]}")
    expect = case.get("expect", {})
    if match.decision is not None and match.paused_at is None and "waiting" not in expect:
        problems.append(f"the run stopped at a question: {match.decision.side} {match.decision.kind!r}")
    if match.finished and "winner" not in expect:
        problems.append(f"the game ended ({match.state['result']}) but the case names no winner")
    if match.pending is not None and match.decision is None and match.paused_at is None:
        problems.append(f"the run stopped waiting for dice or a shuffle ({match.pending.purpose})")
    problems += compare(match, expect, rejected)
    return problems


def stop_at_phase(until: str) -> Callable[[Event], bool]:
    """Pause at the start of ``until``, but not at the starting phase's own event."""
    seen = {"first": False}

    def reached(event: Event) -> bool:
        if event.kind != "phase":
            return False
        if not seen["first"]:
            seen["first"] = True
            return False
        return event.data.get("phase") == until

    return reached


def shuffle_order(match: Match, wanted: list[str]) -> list[int] | str:
    """The permutation that gives the deck ``wanted`` (top first), or what is wrong."""
    shuffled = match.state["cards"].get("shuffling", [])
    if sorted(wanted) != sorted(shuffled):
        return f"the case's shuffle {wanted} is not an order of the cards shuffled {shuffled}"
    return [shuffled.index(card) for card in wanted]


def drive(match: Match, dice: list[int], shuffles: list[list[str]], answers: list[dict], problems: list[str]) -> int:
    rejected = 0
    while match.paused_at is None and not match.finished:
        if match.roll is not None:
            roll = match.roll
            if len(dice) < roll.count:
                break
            match.supply_dice(dice[: roll.count])
            del dice[: roll.count]
            continue
        if match.shuffle is not None:
            if not shuffles:
                break
            order = shuffle_order(match, shuffles.pop(0))
            if isinstance(order, str):
                problems.append(order)
                break
            match.supply_shuffle(order)
            continue
        decision = match.decision
        if decision is None or not answers:
            break
        answer = answers.pop(0)
        ask, side = answer.pop("ask", None), answer.pop("side", None)
        if (ask, side) != (decision.kind, decision.side) or (
                ask == "retreat" and answer.get("unit") != decision.options.get("unit")):
            problems.append(f"the rules asked {decision.side} for {decision.kind!r}"
                            + (f" about {decision.options.get('unit')}" if decision.kind == "retreat" else "")
                            + f", the case answers {side} for {ask!r}"
                            + (f" about {answer.get('unit')}" if ask == "retreat" else ""))
            break
        try:
            match.answer(side, answer)
        except IllegalAnswer:
            rejected += 1
    return rejected


def compare(match: Match, expect: Mapping[str, Any], rejected: int) -> list[str]:
    state = match.state
    problems: list[str] = []

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


def runner() -> Callable[[Mapping[str, Any]], list[str]]:
    """A case runner sharing one game (and its data) across cases."""
    game = RussoJapaneseWar()
    return lambda case: run_case(case, game)
