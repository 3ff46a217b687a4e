"""Sequence of Play (rulebook: "Sequence of Play", "Game Set Up", "Arrival of the Baltic
Fleet", "Victory Conditions"; Optional Rule: "Attack on Port Arthur").

Six turns of six phases: the Baltic Fleet's arrival (turns 4 and 5 only), Japan's
sortie, Russia's sortie, operations, scoring, return to port; after turn 6 the winner
is decided.
"""

from __future__ import annotations

from adjudicator.engine.requests import Event
from adjudicator.games.port_arthur.answers import Kind
from adjudicator.games.port_arthur.data import JAPAN, RUSSIA
from adjudicator.games.port_arthur.rules.operations import operations_phase
from adjudicator.games.port_arthur.rules.ports import PORT_ARTHUR
from adjudicator.games.port_arthur.rules.return_to_port import return_to_port_phase
from adjudicator.games.port_arthur.rules.scoring import scoring_phase
from adjudicator.games.port_arthur.rules.sortie import fleet_sortie
from adjudicator.games.port_arthur.rules.table import Steps, Table
from adjudicator.games.port_arthur.state import ENDED, PHASES, SETUP, shipyard_of, turn_box
from adjudicator.i18n import N_, said

MUKDEN = "Mukden"


def play(table: Table) -> Steps:
    """Play from where the state stands (the start of ``state.phase``) to the end."""
    state = table.state
    if state.phase == SETUP:
        if table.options.attack_on_port_arthur:
            yield Event("phase", "Before turn 1: the attack on Port Arthur.", {"turn": 0, "phase": SETUP})
            yield from attack_on_port_arthur(table)
        state.phase = PHASES[0]
    start = PHASES.index(state.phase)
    while state.turn <= table.board.turns:
        for phase in PHASES[start:]:
            state.phase = phase
            if phase == "arrival" and not baltic_fleet_due(table):
                continue
            yield Event.later("phase", "Turn {}: {}.", (state.turn, PHASE_TITLES[phase]),
                              {"turn": state.turn, "phase": phase})
            yield from PHASE_RULES[phase](table)
        start = 0
        if state.turn == table.board.turns:
            break
        state.turn += 1
    victory(table)


def baltic_fleet_due(table: Table) -> bool:
    """Phase 1 is only played in turns 4 and 5 (rulebook, Sequence of Play), or when
    a Baltic ship is due this turn (a counter sheet may give other entry turns)."""
    state = table.state
    return state.turn in (4, 5) or bool(state.ships_at(turn_box(state.turn)))


def arrival_of_the_baltic_fleet(table: Table) -> None:
    """Turns 4 and 5: the Baltic ships due enter Diego Suarez's harbour intact; at the
    start of turn 4 Russia receives the Initiative Marker."""
    state = table.state
    if state.turn == table.board.baltic_initiative_turn and state.initiative != RUSSIA:
        state.initiative = RUSSIA
        table.say("initiative", "The Baltic Fleet sails: Russia receives the Initiative Marker.")
    arriving = state.ships_at(turn_box(state.turn))
    for ship in arriving:
        state.move(ship, "Diego Suarez")
        ship.damaged = False
    if arriving:
        table.say("arrival", "The Baltic Fleet arrives at Diego Suarez: {}.", ", ".join(s.name for s in arriving),
                  ships=[s.name for s in arriving])


def arrival_phase(table: Table) -> Steps:
    arrival_of_the_baltic_fleet(table)
    return
    yield  # the arrival asks nothing


def sortie_japan(table: Table) -> Steps:
    yield from fleet_sortie(table, JAPAN)


def sortie_russia(table: Table) -> Steps:
    yield from fleet_sortie(table, RUSSIA)


def end_of_turn(table: Table) -> Steps:
    yield from return_to_port_phase(table)


PHASE_RULES = {
    "arrival": arrival_phase,
    "sortie-japan": sortie_japan,
    "sortie-russia": sortie_russia,
    "operations": operations_phase,
    "scoring": scoring_phase,
    "return": end_of_turn,
}

PHASE_TITLES = {
    "arrival": N_("Arrival Phase of the Baltic Fleet"),
    "sortie-japan": N_("Sortie Phase of the Japanese Fleet"),
    "sortie-russia": N_("Sortie Phase of the Russian Fleet"),
    "operations": N_("Operations Phase"),
    "scoring": N_("Scoring Phase"),
    "return": N_("Return to Port Phase"),
}


def victory(table: Table) -> None:
    """Without an Army meeple in Mukden, Russia wins; otherwise the CP marker decides."""
    state = table.state
    if not state.occupies(MUKDEN):
        state.result = RUSSIA
        told = N_("End of turn {}: Russia wins (Japan does not hold Mukden).")
    elif state.cp > 0:
        state.result = JAPAN
        told = N_("End of turn {}: Japan wins (Japan holds Mukden and the CP marker stands at Japan {}).")
    elif state.cp < 0:
        state.result = RUSSIA
        told = N_("End of turn {}: Russia wins (the CP marker stands at Russia {}).")
    else:
        state.result = "draw"
        told = N_("End of turn {}: The game is a draw (Japan holds Mukden and the CP marker is in the "
                  "centre).")
    state.phase = ENDED
    table.say("victory", told, state.turn, abs(state.cp), result=state.result)


def attack_on_port_arthur(table: Table) -> Steps:
    """Japan rolls a die and halves it (rounding down): that many ships of the Port
    Arthur Fleet, chosen by Japan, are damaged and placed in the Port Arthur shipyard."""
    state = table.state
    (die,) = yield table.dice(1, "attack on Port Arthur", JAPAN)
    fleet = [s for s in state.ships_at(PORT_ARTHUR, RUSSIA) if not s.damaged]
    count = min(die // 2, len(fleet))
    table.say("attack", "Japan's destroyers attack Port Arthur: {} halved is {}.", die, die // 2)
    if count == 0:
        return
    chosen = yield from table.ask_ships(
        JAPAN, Kind.ATTACK, count, [s.name for s in fleet],
        said("Japan: choose %(count)s ship(s) of the Port Arthur Fleet to damage.", count=count),
        "the Port Arthur Fleet's intact ships in harbour")
    for name in chosen:
        ship = state.ships[name]
        ship.damaged = True
        state.move(ship, shipyard_of(PORT_ARTHUR))
        table.say("damaged", "{} is torpedoed at anchor: damaged, into the Port Arthur shipyard.", name, ship=name)
