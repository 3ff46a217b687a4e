"""Rulebook, "Sequence of Play": the six phases of a turn, turn after turn.

"1. Initiative Phase ... 2. Prime Action Phase ... 3. Alternating Action Phase ...
4. Repair Phase ... 5. Damage Phase ... 6. Reload Phase". A torpedo turn replaces
both action phases ("No other Action Phases occur that turn", R-TORP-7). The game
ends as reconstructed in end.py.
"""

from __future__ import annotations

from adjudicator.engine.requests import Event
from adjudicator.games.tsushima_1905.rules.activation import action_phases
from adjudicator.games.tsushima_1905.rules.end import concede, decide, game_over
from adjudicator.games.tsushima_1905.rules.initiative import determine_initiative
from adjudicator.games.tsushima_1905.rules.repair import damage_phase, reload_phase, repair_phase
from adjudicator.games.tsushima_1905.rules.torpedoes import torpedo_phase
from adjudicator.games.tsushima_1905.state import ACTION, DAMAGE, ENDED, INITIATIVE, RELOAD, REPAIR, TORPEDO
from adjudicator.games.tsushima_1905.rules.table import Conceded, Steps, Table
from adjudicator.i18n import N_

NEXT = {INITIATIVE: ACTION, ACTION: REPAIR, TORPEDO: REPAIR, REPAIR: DAMAGE, DAMAGE: RELOAD}


def enter(table: Table, phase: str) -> Event:
    """Start a phase: the state says so, and the driver may pause here."""
    table.state.phase = phase
    if phase == INITIATIVE:
        table.state.log = []
    return Event.later("phase", PHASE_BEGINS[phase], (table.state.turn,), {"phase": phase, "turn": table.state.turn})


#: The narrative's line at the start of each phase.
PHASE_BEGINS = {INITIATIVE: N_("Turn {}: initiative phase."), TORPEDO: N_("Turn {}: torpedo phase."),
                ACTION: N_("Turn {}: action phase."), REPAIR: N_("Turn {}: repair phase."),
                DAMAGE: N_("Turn {}: damage phase."), RELOAD: N_("Turn {}: reload phase.")}


def play(table: Table) -> Steps:
    """Play from the state's phase to the end of the game, or until a side concedes
    (R-END-2): the game then ends at once."""
    try:
        yield from play_turns(table)
    except Conceded as conceded:
        state = table.state
        concede(state, conceded.side)
        state.phase = ENDED
        table.say("end", "{} concedes: {} wins, {} to {} (Japan to Russia).", conceded.side.title(),
                  state.winner.title(), state.score["japan"], state.score["russia"],
                  winner=state.winner, victory=state.victory, score=dict(state.score), conceded=conceded.side)


def play_turns(table: Table) -> Steps:
    """Turn after turn, from the state's phase to the end of the game."""
    state = table.state
    phase = state.phase
    while True:
        yield enter(table, phase)
        if phase == INITIATIVE:
            yield from determine_initiative(table)
            phase = TORPEDO if state.torpedo_attacks else ACTION
            continue
        if phase == ACTION:
            yield from action_phases(table)
        elif phase == TORPEDO:
            yield from torpedo_phase(table)
        elif phase == REPAIR:
            yield from repair_phase(table)
        elif phase == DAMAGE:
            damage_phase(table)
        elif phase == RELOAD:
            reload_phase(table)
            if game_over(state, table.options.turns):
                decide(state, int(table.data.rules["victory"]["decisive_ratio"]))
                state.phase = ENDED
                score = state.score["japan"], state.score["russia"]
                if state.winner == "draw":
                    told = (N_("The battle ends after turn {}: a draw, {} to {} (Japan to Russia)."),
                            state.turn, *score)
                else:
                    told = (N_("The battle ends after turn {}: {} wins a {} victory, {} to {} (Japan to Russia)."),
                            state.turn, state.winner.title(), state.victory, *score)
                table.say("end", *told,
                          winner=state.winner, victory=state.victory, score=dict(state.score))
                return
            state.turn += 1
            phase = INITIATIVE
            continue
        phase = NEXT[phase]
