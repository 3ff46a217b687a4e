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

NEXT = {INITIATIVE: ACTION, ACTION: REPAIR, TORPEDO: REPAIR, REPAIR: DAMAGE, DAMAGE: RELOAD}


def enter(table: Table, phase: str) -> Event:
    """Start a phase: the state says so, and the driver may pause here."""
    table.state.phase = phase
    if phase == INITIATIVE:
        table.state.log = []
    return Event("phase", f"Turn {table.state.turn}: {phase} phase.", {"phase": phase, "turn": table.state.turn})


def play(table: Table) -> Steps:
    """Play from the state's phase to the end of the game, or until a side concedes
    (R-END-2): the game then ends at once."""
    try:
        yield from play_turns(table)
    except Conceded as conceded:
        state = table.state
        concede(state, conceded.side)
        state.phase = ENDED
        table.say("end", f"{conceded.side.title()} concedes: {state.winner.title()} wins, "
                         f"{state.score['japan']} to {state.score['russia']} (Japan to Russia).",
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
                table.say("end", f"The battle ends after turn {state.turn}: "
                                 + (f"{state.winner.title()} wins a {state.victory} victory"
                                    if state.winner != "draw" else "a draw")
                                 + f", {state.score['japan']} to {state.score['russia']} (Japan to Russia).",
                          winner=state.winner, victory=state.victory, score=dict(state.score))
                return
            state.turn += 1
            phase = INITIATIVE
            continue
        phase = NEXT[phase]
