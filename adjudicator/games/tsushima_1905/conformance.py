"""Running a Tsushima 1905 conformance case (format: ../shared/cases/README.md,
section "Tsushima 1905 cases").

Load the position, start at the beginning of its phase, take every card turned over
from ``cards``, every die from ``dice`` and every answer from ``answers``, in order;
stop at ``until``, when a list runs dry, or at the end of the game; then compare
every expectation. A card is "drawn" by answering the draw's roll with the card's
place in the (unordered, canonically sorted) draw pile.
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine import Event, IllegalAnswer, Match
from adjudicator.engine.requests import Roll
from adjudicator.games.tsushima_1905.data import bl_to_units
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.table import CARD_PURPOSE

STATE_KEYS = ("turn", "phase", "offense", "prime", "admiral", "winner", "victory", "score")


class MalformedCase(Exception):
    """The case names a card that is not in the draw pile at that moment."""


def run_case(case: Mapping[str, Any], game: Tsushima1905 | None = None) -> list[str]:
    """Run one case; return what differed (empty when the case passes)."""
    game = game or Tsushima1905()
    until = case.get("until")
    match = Match(game, {"position": case["position"]}, case.get("options", {}),
                  pause_on=_stop_at_phase(until) if until else None)
    feed = {"dice": [int(d) for d in case.get("dice", [])],
            "cards": [str(c) for c in case.get("cards", [])],
            "answers": [dict(a) for a in case.get("answers", [])]}
    problems: list[str] = []
    try:
        rejected = _drive(match, feed, problems)
    except MalformedCase as err:
        return [f"malformed case: {err}"]
    if problems:
        return problems
    for key, left in feed.items():
        if left:
            problems.append(f"{len(left)} {key} left unused, the first: {left[0]}")
    problems += _compare(match, case.get("expect", {}), rejected, game)
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


def _card_face(match: Match, roll: Roll, entry: str) -> int:
    side, _, card = entry.partition(" ")
    if side != roll.side:
        raise MalformedCase(f"the rules turn over a {roll.side} card, the case gives {entry!r}")
    pile = match.state.decks[side].draw
    if card not in pile:
        raise MalformedCase(f"{entry!r}: {card} is not in {side}'s draw pile {sorted(pile)}")
    return pile.index(card) + 1


def _drive(match: Match, feed: dict[str, list], problems: list[str]) -> int:
    rejected = 0
    dice, cards, answers = feed["dice"], feed["cards"], feed["answers"]
    while match.paused_at is None and not match.finished:
        roll = match.roll
        if roll is not None:
            if roll.purpose.startswith(CARD_PURPOSE):
                if not cards:
                    break
                match.supply_dice([_card_face(match, roll, cards.pop(0))])
                continue
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


def _ship_value(ship: Any, key: str, units: int) -> Any:
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


def _compare(match: Match, expect: Mapping[str, Any], rejected: int, game: Tsushima1905) -> list[str]:
    state = match.state
    problems = []
    units = game.data.units_per_bl
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
            got, want = _ship_value(ship, key, units), _expected_value(key, value, units)
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
