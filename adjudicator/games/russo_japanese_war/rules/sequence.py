"""5.0 Sequence of Play, 5.1 Game Turn 1, 3.0 set-up.

Up to 12 Game Turns; each: I Russian Player Turn, II Japanese Player Turn (each: Card
Replenishment, Movement, Combat, Card Play), III Victory Check. Turn 1 has no Russian
Player Turn and starts with the Japanese Movement Phase (5.1, A9).
"""

from __future__ import annotations

from adjudicator.engine.requests import Event
from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA
from adjudicator.games.russo_japanese_war.rules import naval
from adjudicator.games.russo_japanese_war.rules.card_play import card_play_phase
from adjudicator.games.russo_japanese_war.rules.combat import combat_phase
from adjudicator.games.russo_japanese_war.rules.deck import opening_hand, reshuffle
from adjudicator.games.russo_japanese_war.rules.movement import movement_phase
from adjudicator.games.russo_japanese_war.rules.table import GameOver
from adjudicator.games.russo_japanese_war.rules.victory import victory_check_phase
from adjudicator.i18n import N_

STEPS = ("replenish", "movement", "combat", "card-play")
RUN = {"movement": movement_phase, "combat": combat_phase, "card-play": card_play_phase}


#: Each phase as the rulebook names it (5.0), marked for the catalogue.
PHASE_TITLES = {
    "setup": N_("Set-up"), "victory-check": N_("Victory Check Phase"),
    "japan-replenish": N_("Japanese Card Replenishment Phase"), "japan-movement": N_("Japanese Movement Phase"),
    "japan-combat": N_("Japanese Combat Phase"), "japan-card-play": N_("Japanese Card Play Phase"),
    "russia-replenish": N_("Russian Card Replenishment Phase"), "russia-movement": N_("Russian Movement Phase"),
    "russia-combat": N_("Russian Combat Phase"), "russia-card-play": N_("Russian Card Play Phase"),
}


def phase_title(phase: str) -> str:
    """The phase as the rulebook names it (5.0): "Japanese Movement Phase"."""
    return PHASE_TITLES.get(phase, phase)


def phases_of(turn: int) -> list[str]:
    """The phases of a Game Turn, in order (5.0, 5.1)."""
    russian = [] if turn == 1 else [f"{RUSSIA}-{step}" for step in STEPS]
    japanese = [f"{JAPAN}-{step}" for step in (STEPS[1:] if turn == 1 else STEPS)]
    return russian + japanese + ["victory-check"]


ALL_PHASES = ("setup", *phases_of(2))

def play(t):
    """The whole game from the state's turn and phase."""
    try:
        yield from _play(t)
    except GameOver:
        pass
    if t.s["result"] and naval.enabled(t.s):
        naval.reveal_flagship(t, N_("the end of the game, 11.5"))


def _play(t):
    s = t.s
    if s["phase"] == "setup":
        yield Event("phase", N_("Set-up"), {"turn": s["turn"], "phase": "setup"})
        if not s.get("deck_shuffled"):
            yield from reshuffle(t, N_("3.0: the deck at set-up"))
            s["deck_shuffled"] = True
        yield from opening_hand(t)
        if naval.enabled(s):
            t.say("naval-reading", naval.sortie_reading(s), sortie_needs_card=naval.sortie_needs_card(s))  # A65
            yield from naval.choose_flagship(t)
        s["turn"], s["phase"] = 1, f"{JAPAN}-movement"
        start = s["phase"]
    else:
        start = s["phase"]
    first = True
    while True:
        phases = phases_of(s["turn"])
        if start not in phases:
            raise ValueError(f"turn {s['turn']} has no phase {start!r}")
        for phase in phases[phases.index(start):]:
            yield from run_phase(t, phase, first)
            first = False
            if s["result"]:
                return
        s["turn"] += 1
        start = phases_of(s["turn"])[0]


def run_phase(t, phase: str, first: bool):
    s = t.s
    s["phase"] = phase
    yield Event.later("phase", "Turn {}: {}", (s["turn"], phase_title(phase)), {"turn": s["turn"], "phase": phase})
    if phase == "victory-check":
        yield from victory_check_phase(t)
        return
    side, step = phase.split("-", 1)
    if step == "replenish" or _starts_player_turn(s, phase):
        s["forced_march_used"] = False          # one forced march per Player Turn (10.2.3)
    if step == "replenish":
        from adjudicator.games.russo_japanese_war.rules.deck import replenishment_phase
        yield from replenishment_phase(t)
    else:
        if step == "card-play" and side == RUSSIA and naval.enabled(s):
            yield from naval.sorties(t)             # 11.2: at the start of the Russian Card Play Phase
        yield from RUN[step](t)
    if step == "card-play":
        end_of_player_turn(t, side)


def _starts_player_turn(s: dict, phase: str) -> bool:
    return phase == f"{JAPAN}-movement" and s["turn"] == 1


def end_of_player_turn(t, side: str) -> None:
    """Effects that last "until the end of this Player Turn" / "the next Player Turn"."""
    s = t.s
    if side == JAPAN:
        s["limits"].pop(JAPAN, None)
        if "naval" in s:
            s["naval"]["home_blocked"] = False      # 11.2.5 lasts the Japanese Player Turn
        markers = [uid for uid, unit in t.units.items() if unit.pop("zoc_lost", None)]  # every one of them
        if markers:
            t.changed()
    else:
        s["siberia_frozen"] = False
