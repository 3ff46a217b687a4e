"""4.0 Victory Conditions: Morale Checks (4.3.2) and the Victory Check Phase (4.1, 4.2).

At the start of the Victory Check Phase each side that lost units this Game Turn rolls a
die, Russia first (A7); a modified die at or below the threshold for its losses (1 unit: 1;
2: 1-3; 3 or more: 1-5) costs 1 Morale Point (A8; #16 Beriberi / #06 Scurvy give −1).
Then a side at 0 loses (both at 0: a draw, 4.1); after Game Turn 12 Russia wins (4.2).
"""

from __future__ import annotations

from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA
from adjudicator.i18n import N_


#: A Morale Check's outcome, as its line says it.
FAILS, PASSES = N_("fails"), N_("passes")


def threshold(t, losses: int) -> int:
    one, two, three = t.data.numbers.check_thresholds
    return one if losses == 1 else two if losses == 2 else three


def morale_checks(t):
    for side in (RUSSIA, JAPAN):
        losses = t.s["losses"][side]
        if losses <= 0:
            continue
        (die,) = yield from t.roll(1, f"{side} Morale Check", side)
        modifier = t.s["check_modifiers"].get(side, 0)
        limit = threshold(t, losses)
        failed = die + modifier <= limit
        if modifier:
            t.say("morale-check", "{} Morale Check ({} lost): die {} {}, fails on {} or less: {}.",
                  side.capitalize(), losses, die, f"{modifier:+d}", limit,
                  FAILS if failed else PASSES, side=side, die=die, failed=failed)
        else:
            t.say("morale-check", "{} Morale Check ({} lost): die {}, fails on {} or less: {}.",
                  side.capitalize(), losses, die, limit, FAILS if failed else PASSES,
                  side=side, die=die, failed=failed)
        if failed:
            t.add_morale(side, -1, N_("Morale Check, 4.3.2"))
    t.s["losses"] = {JAPAN: 0, RUSSIA: 0}
    t.s["check_modifiers"] = {}


def victory_check(t) -> str | None:
    """The result, if the game ends now (4.1, 4.2)."""
    morale = t.s["morale"]
    if morale[JAPAN] <= 0 and morale[RUSSIA] <= 0:
        return "draw"
    if morale[RUSSIA] <= 0:
        return JAPAN
    if morale[JAPAN] <= 0:
        return RUSSIA
    if t.s["turn"] >= t.data.numbers.turns:
        return RUSSIA
    return None


def victory_check_phase(t):
    yield from morale_checks(t)
    result = victory_check(t)
    if result:
        t.s["result"] = result
        if result == "draw":
            t.say("game-end", "The game ends in a draw (4.1).", winner=result)
        else:
            t.say("game-end", "{} wins ({}).", result.capitalize(),
                  "4.2" if min(t.s["morale"].values()) > 0 else "4.1", winner=result)
