"""Answering Port Arthur's decisions from players' orders, and defaults for silence.

:func:`answer_for` gives the answer (in the JSON form of
:mod:`adjudicator.games.port_arthur.answers`) that a player's orders give to a
decision, or None when they do not answer it: then the campaign asks the player,
and if the player stays silent, :func:`default_answer` decides (NMR). Both only
ever give legal answers, built from the decision's own options.

How orders answer each kind of decision is described for players in
docs/orders.md; in short:

- sortie: the ships named go where ordered (``all to``: every ship that can reach the
  zone); an order the options do not allow leaves the decision to the player;
- navo: the operations plan is read top down; the first step that is legal now and
  whose condition holds is the answer (``ask``: stop and ask);
- reroll, seize, blockade: yes (if the condition holds), no, keep, or ask;
- dice: the number ordered, or the best count (:func:`odds.best_dice_count`);
- criticals, hits, mines, attack: the automatic rules of :mod:`odds`, led by the
  ships the player named;
- return: the ports named, then ``others to``, then the nearest port with a shipyard.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from adjudicator.engine.requests import Decision
from adjudicator.games.port_arthur import odds
from adjudicator.games.port_arthur.answers import Kind
from adjudicator.games.port_arthur.data import JAPAN, load_board, other
from adjudicator.i18n import N_, said
from adjudicator.games.port_arthur.state import PORT_INTACT, Ship, State, squadron_firepower, squadron_speed
from adjudicator.orders.model import OrderSet
from adjudicator.games.port_arthur.language.model import (
    ASK,
    KEEP,
    NO,
    Ask,
    Battle,
    Clause,
    Condition,
    Move,
    Pass,
)

#: What each default does, as reports say it ("no orders from Russia: passes").
DEFAULT_TEXT = {
    Kind.SORTIE: N_("no ship sorties and no troops land"),
    Kind.NAVO: N_("passes"),
    Kind.REROLL: N_("does not re-roll"),
    Kind.SEIZE: N_("does not seize first fire"),
    Kind.BLOCKADE: N_("keeps a blockade in place, places none"),
    Kind.DICE: N_("fires the best number of dice"),
    Kind.CRITICALS: N_("critical hits go where the automatic rule sends them"),
    Kind.HITS: N_("hits are applied by the automatic rule"),
    Kind.RETURN: N_("each ship returns to the nearest port with a shipyard"),
    Kind.MINES: N_("the ships that lose least take the mines"),
    Kind.ATTACK: N_("the strongest ships of the Port Arthur Fleet are attacked"),
}


class _Undetermined(Exception):
    """A condition cannot be judged (it says "there" where there is no zone)."""


Answer = dict[str, Any] | None
_STOP = object()  # an "ask" step of the plan: stop and ask the player


# -- public ----------------------------------------------------------------------------


def answer_for(decision: Decision, state: State, orders: OrderSet | None) -> Answer:
    """The answer ``orders`` give to ``decision``, or None when they do not answer it."""
    if orders is None or (orders.header.side is not None and orders.header.side != decision.side):
        return None
    handler = _FROM_ORDERS.get(decision.kind)
    block = orders.block(decision.kind)
    if handler is None or block is None:
        return None
    try:
        answer = handler(block, decision.options, state, decision.side)
    except _Undetermined:
        return None
    return _with_top(answer, decision, state, orders)


def _with_top(answer: Answer, decision: Decision, state: State, orders: OrderSet) -> Answer:
    """A sortie answer carries the standing order ``top:`` (the ships the side puts on
    top of its squadrons under the fog of war), less the ships sunk since."""
    top = orders.block(Kind.TOP)
    if answer is None or decision.kind != Kind.SORTIE or top is None:
        return answer
    afloat = [name for name in top.priority if (ship := state.ship(name)) is not None and not ship.sunk]
    return {**answer, "top": afloat} if afloat else answer


def why_not(decision: Decision, state: State, orders: OrderSet | None) -> list[tuple[str, str]]:
    """Fleet Sortie Phases: each order of ``orders`` that cannot be carried out now, as
    (the ship named, why): a sunk ship, a ship that is not the player's or cannot sortie,
    a zone the ship cannot reach from where it is."""
    block = None if orders is None else orders.block(Kind.SORTIE)
    if decision.kind != Kind.SORTIE or block is None:
        return []
    choices: Mapping[str, list[str]] = decision.options.get("ships", {})
    problems = []
    for ship, destination in block.moves:
        name, found = _named(ship, list(choices)), state.ship(ship)
        if found is not None and found.sunk:
            problems.append((ship, said("%(ship)s has been sunk: this order is not used", ship=found.name)))
        elif name is not None:
            if destination not in choices[name]:
                problems.append((ship, said("%(ship)s cannot reach %(zone)s from %(at)s", ship=name, zone=destination,
                                              at=state.ships[name].at)))
        elif found is None:
            problems.append((ship, said("there is no ship %(ship)s", ship=repr(ship))))
        elif found.side != decision.side:
            problems.append((ship, said("%(ship)s is not one of your ships", ship=found.name)))
        else:
            problems.append((ship, said("%(ship)s cannot sortie now (it is at %(at)s)", ship=found.name, at=found.at)))
    return problems


def default_answer(decision: Decision, state: State) -> dict[str, Any]:
    """The answer for a player who sends no orders (NMR); see :data:`DEFAULT_TEXT`."""
    return _DEFAULTS[decision.kind](decision.options, state, decision.side)


# -- helpers ---------------------------------------------------------------------------


def _partial_hits(state: State) -> str:
    options = state.options
    value = options.get("partial_hits") if isinstance(options, Mapping) else getattr(options, "partial_hits", None)
    return value or odds.LESS_THAN


def _ships(state: State, names: Sequence[str]) -> list[Ship]:
    return [state.ships[name] for name in names]


def _named(name: str, names: Sequence[str]) -> str | None:
    """The entry of ``names`` that is ``name`` (any case)."""
    key = name.casefold()
    return next((n for n in names if n.casefold() == key), None)


def _has_shipyard(port: str, state: State) -> bool:
    board_port = load_board().ports.get(port)
    if board_port is None or not board_port.shipyard:
        return False
    return port != "Port Arthur" or state.port_arthur == PORT_INTACT


def _nearest_shipyard(ports: Sequence[str], state: State) -> str:
    """Return to Port: a port with a shipyard where there is one, else the first."""
    return next((p for p in ports if _has_shipyard(p, state)), ports[0])


# -- conditions ------------------------------------------------------------------------


def _holds(
    condition: Condition | None,
    state: State,
    side: str,
    zone: str | None = None,
    arriving: Sequence[Ship] = (),
) -> bool:
    """Whether ``condition`` holds for ``side``; "there" is ``zone``, where ``arriving``
    ships (a squadron ordered to move there) count as the player's."""
    if condition is None:
        return True
    result = all(_clause(c, state, side, zone, arriving) for c in condition.clauses)
    return not result if condition.negated else result


_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    "=": lambda a, b: a == b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
}


def _clause(clause: Clause, state: State, side: str, zone: str | None, arriving: Sequence[Ship]) -> bool:
    if clause.test == "turn":
        return _COMPARE[clause.op](state.turn, clause.value)
    if clause.test == "score":
        score = state.cp if side == JAPAN else -state.cp
        return _COMPARE[clause.op](score, clause.value)
    place = clause.zone or zone
    if place is None:
        raise _Undetermined(clause.text())
    extra = [s for s in arriving if s.at != place]
    own = state.squadron(side, place) + extra
    enemy = state.squadron(other(side), place)
    if clause.test == "enemy":
        return bool(enemy)
    if clause.test == "no enemy":
        return not enemy
    if clause.test in ("stronger", "weaker"):
        mine, theirs = (squadron_firepower(s) if s else 0 for s in (own, enemy))
        return mine > theirs if clause.test == "stronger" else mine < theirs
    mine, theirs = (squadron_speed(s) if s else 0 for s in (own, enemy))
    return mine > theirs if clause.test == "faster" else mine < theirs


def _contested_zone(state: State) -> str | None:
    """The one zone where both sides have ships (where a battle is), if there is one."""
    zones = [z for z in load_board().zones if state.ships_at(z)]
    both = [z for z in zones if state.squadron(JAPAN, z) and state.squadron(other(JAPAN), z)]
    return both[0] if len(both) == 1 else None


# -- answers from orders -----------------------------------------------------------------


def _sortie(block, options: Mapping, state: State, side: str) -> Answer:
    """Fleet Sortie Phases: the ships named go where ordered; ``all to``: all that can."""
    choices: Mapping[str, list[str]] = options.get("ships", {})
    moves: dict[str, str] = {}
    for ship, destination in block.moves:
        name = _named(ship, list(choices))
        if name is None:
            if state.ship(ship) is not None and state.ship(ship).sunk:
                continue  # an order for a sunk ship is moot
            return None
        if destination not in choices[name]:
            return None
        moves[name] = destination
    if block.everyone is not None:
        for name, places in choices.items():
            if name not in moves and block.everyone in places:
                moves[name] = block.everyone
    land = list(block.land)
    if any(space not in options.get("land", []) for space in land) or len(land) > options.get("meeples", 0):
        return None
    return {"moves": moves, "land": land}


def _navo(block, options: Mapping, state: State, side: str) -> Answer:
    """Operations Phase: the first step of the plan that is legal now and whose condition
    holds (the answer says which: ``plan_step``, counted from 1, for the player's report)."""
    for number, step in enumerate(block.steps, start=1):
        answer = _plan_step(step.action, step.condition, options, state, side)
        if answer is not None:
            return None if answer is _STOP else {**answer, "plan_step": number}
    return None


def _plan_step(action, condition: Condition | None, options: Mapping, state: State, side: str):
    if isinstance(action, Ask):
        return _STOP if _holds(condition, state, side) else None
    if isinstance(action, Pass):
        return {"pass": True} if options.get("pass", True) and _holds(condition, state, side) else None
    if isinstance(action, Battle):
        zones = options.get("battle", [])
        for zone in zones if action.zone is None else [z for z in zones if z == action.zone]:
            if _holds(condition, state, side, zone):
                return {"battle": zone}
        return None
    if isinstance(action, Move):
        return _move(action, condition, options, state, side)
    return None


def _move(action: Move, condition: Condition | None, options: Mapping, state: State, side: str) -> Answer:
    for entry in options.get("move", []):
        if entry["from"] != action.origin or action.destination not in entry["to"]:
            continue
        if action.ships is None:
            ships = list(entry["ships"])
        else:
            ships = [n for s in action.ships if (n := _named(s, entry["ships"])) is not None]
            if not ships:
                return None
        if not _holds(condition, state, side, action.destination, _ships(state, ships)):
            return None
        answer: dict[str, Any] = {"move": action.origin, "to": action.destination}
        if entry.get("port") and action.ships is not None:
            answer["ships"] = ships
        return answer
    return None


def _flag(block, options: Mapping, state: State, side: str, zone: str | None = None) -> Answer:
    """Re-roll, seize, blockade: yes (if the condition holds), no, keep, or ask."""
    if block.choice == ASK:
        return None
    if block.choice == NO:
        use = False
    elif block.choice == KEEP:
        use = bool(state.blockade)
    else:
        use = _holds(block.condition, state, side, zone)
    return {"use": use} if use in options.get("use", [True, False]) else None


def _seize(block, options: Mapping, state: State, side: str) -> Answer:
    return _flag(block, options, state, side, _contested_zone(state))


def _blockade(block, options: Mapping, state: State, side: str) -> Answer:
    return _flag(block, options, state, side, load_board().blockade_zone)


def _dice(block, options: Mapping, state: State, side: str) -> Answer:
    counts = options.get("count", list(odds.DICE_COUNTS))
    if block.ask:
        return None
    if block.count is not None:
        return {"count": block.count} if block.count in counts else None
    return {"count": odds.best_dice_count(options["firepower"], counts, _partial_hits(state))}


def _targets(choose: Callable, key: str) -> Callable[..., Answer]:
    """Critical-hit targets, mine victims, attacked ships: ``choose``'s automatic rule,
    led by the ships the block names (ask: leave it to the player)."""

    def answer(block, options: Mapping, state: State, side: str) -> Answer:
        if block.ask:
            return None
        return {"ships": choose(options["count"], _ships(state, options[key]), block.priority)}

    return answer


_criticals = _targets(odds.auto_criticals, "targets")
_mines = _targets(odds.auto_mines, "ships")
_attack = _targets(odds.auto_attack, "ships")


def _hits(block, options: Mapping, state: State, side: str) -> Answer:
    if block.ask:
        return None
    ships = _ships(state, options["ships"])
    return {"apply": odds.auto_hits(options["hits"], ships, block.protect, block.prefer)}


def _return(block, options: Mapping, state: State, side: str) -> Answer:
    if block.ask:
        return None
    named = {ship.casefold(): port for ship, port in block.ports}
    ports = {}
    for name, places in options.get("ships", {}).items():
        wanted = named.get(name.casefold())
        if wanted is not None:
            if wanted not in places:
                return None
            ports[name] = wanted
        elif block.others is not None and block.others in places:
            ports[name] = block.others
        else:
            ports[name] = _nearest_shipyard(places, state)
    return {"ports": ports}




_FROM_ORDERS = {
    Kind.SORTIE: _sortie,
    Kind.NAVO: _navo,
    Kind.REROLL: _flag,
    Kind.SEIZE: _seize,
    Kind.BLOCKADE: _blockade,
    Kind.DICE: _dice,
    Kind.CRITICALS: _criticals,
    Kind.HITS: _hits,
    Kind.RETURN: _return,
    Kind.MINES: _mines,
    Kind.ATTACK: _attack,
}


# -- defaults for silence (NMR) -----------------------------------------------------------


def _one_of(use: bool, options: Mapping) -> dict:
    allowed = options.get("use", [True, False])
    return {"use": use if use in allowed else allowed[0]}


def _default_use(options: Mapping, state: State, side: str) -> dict:
    return _one_of(False, options)


def _default_blockade(options: Mapping, state: State, side: str) -> dict:
    """Keep a blockade in place when allowed; never place a new one."""
    return _one_of(bool(state.blockade), options)


def _default_return(options: Mapping, state: State, side: str) -> dict:
    return {"ports": {name: _nearest_shipyard(places, state) for name, places in options.get("ships", {}).items()}}


_DEFAULTS: dict[str, Callable[[Mapping, State, str], dict]] = {
    Kind.SORTIE: lambda options, state, side: {"moves": {}, "land": []},
    Kind.NAVO: lambda options, state, side: {"pass": True},
    Kind.REROLL: _default_use,
    Kind.SEIZE: _default_use,
    Kind.BLOCKADE: _default_blockade,
    Kind.DICE: lambda options, state, side: {
        "count": odds.best_dice_count(options["firepower"], options.get("count", odds.DICE_COUNTS), _partial_hits(state))
    },
    Kind.CRITICALS: lambda options, state, side: {
        "ships": odds.auto_criticals(options["count"], _ships(state, options["targets"]))
    },
    Kind.HITS: lambda options, state, side: {"apply": odds.auto_hits(options["hits"], _ships(state, options["ships"]))},
    Kind.RETURN: _default_return,
    Kind.MINES: lambda options, state, side: {"ships": odds.auto_mines(options["count"], _ships(state, options["ships"]))},
    Kind.ATTACK: lambda options, state, side: {"ships": odds.auto_attack(options["count"], _ships(state, options["ships"]))},
}
