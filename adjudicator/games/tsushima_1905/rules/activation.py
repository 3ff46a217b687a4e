"""Rulebook, "Sequence of Play" 2-3: the Prime and Alternating Action Phases.

"Prime Action Phase: Offense moves AND attacks with as many ships as his initiative
allows. Alternating Action Phase: After the Offense has completed the prime moves,
each player, starting with Defense, moves and attacks with one ship in alternation."
"After the fourth Japanese ship moves, players would then enter the Alternating
Action Phase, starting with the Defense until all Offensive ships have moved (all
ships capable of movement must move). Any unmoved Defensive ships move in order at
this time."

Rulings: R-SEQ-1 (alternation and its tail), R-SEQ-2 (the prime phase may stop
early), R-SEQ-3 (every capable ship activates and moves; others are passed over),
R-FIRE-4 (move, then fire).
"""

from __future__ import annotations

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.tsushima_1905.answers import Activation, Kind, OrdersDue
from adjudicator.games.tsushima_1905.rules.gunnery import check_salvos, resolve_fire
from adjudicator.games.tsushima_1905.rules.movement import (
    can_move, carry_out, check_limits, no_move_stays_on_table, plan_move,
)
from adjudicator.games.tsushima_1905.state import ACTIVE, Ship, other
from adjudicator.games.tsushima_1905.rules.table import Steps, Table, pose_of
from adjudicator.games.tsushima_1905.words import Worded
from adjudicator.i18n import N_


#: A stop's prompt: (at the end of the prime activations, both sides due) -> template.
ORDERS_PROMPTS = {
    (True, False): N_("{}: orders for turn {} from the end of the prime activations"),
    (False, False): N_("{}: orders for turn {} from here"),
    (True, True): N_("{}: orders for turn {} from the end of the prime activations -- both sides' orders are due "
                     "at this stop: {} and {} send them now, and play goes on once both are in"),
    (False, True): N_("{}: orders for turn {} from here -- both sides' orders are due at this stop: {} and {} "
                      "send them now, and play goes on once both are in"),
}


def waiting(table: Table, side: str) -> list[Ship]:
    """``side``'s ships still to activate this turn, in roster order."""
    return [s for s in table.state.ships.values() if s.side == side and s.status == ACTIVE and not s.activated]


def pass_over(table: Table) -> None:
    """Ships that cannot move are passed over: they count as activated (R-SEQ-3). Under
    ``table_edge = "forbid"`` so is a ship none of whose single move elements keeps it
    on the table, unless ``must_move`` is off: it is then asked, and may fire without
    moving (R-SEQ-5)."""
    for ship in table.state.ships.values():
        if ship.status != ACTIVE or ship.activated:
            continue
        if not can_move(table, ship):
            ship.activated = True
            table.say("passed-over", "{} cannot move and is passed over.", ship.name, ship=ship.name)
        elif table.options.must_move and no_move_stays_on_table(table, ship):
            ship.activated = True
            table.say("passed-over", "{} cannot move without leaving the table (table_edge = forbid) "
                                     "and is passed over (R-SEQ-5).", ship.name, ship=ship.name)


def check_activation(table: Table, side: str, answer: Activation, may_pass: bool):
    """The ship, its move and its salvos, checked against the position (a rejected
    answer is void as a whole, its move included)."""
    if answer.passed:
        if not may_pass:
            raise IllegalAnswer("only the Offense may pass, and only during its prime activations")
        return answer, None, None, []
    ship = table.resolve(answer.ship, waiting(table, side))
    check_limits(table, ship, answer.moves)
    plan = plan_move(table, ship, answer.moves)
    salvos = []
    if answer.fire:
        if plan.stops_the_ship:
            why = "collides" if plan.struck else "leaves the table"
            raise IllegalAnswer(f"{ship.name}'s move {' '.join(e.code for e in answer.moves)} {why}: "
                                f"it may not fire this turn (write fire = \"none\")")
        paid = max(0, len(plan.poses) - plan.free)
        salvos = check_salvos(table, ship, plan.end or pose_of(ship), answer.fire, ship.bank - paid)
    return answer, ship, plan, salvos


def activate(table: Table, side: str, may_pass: bool) -> Steps:
    """One activation: ask, then move, then fire. Returns False when the Offense passed."""
    state = table.state
    options = {"ships": [s.name for s in waiting(table, side)], "may_pass": may_pass, "prime": state.prime}
    if table.options.split_fire:
        options["split_fire"] = True          # the answer may give one target per arc (R-FIRE-2)

    def check(answer: Activation):
        return check_activation(table, side, answer, may_pass)

    answer, ship, plan, salvos = yield from table.ask(
        side, Kind.ACTIVATE, options, Worded(N_("{}: which ship activates, with what move and fire?"), side.title()),
        check)
    if answer.passed:
        table.say("pass", "{} ends its prime activations.", side.title(), side=side)
        return False
    ship.activated = True
    for note in answer.notes:
        table.say("orders-note", note, ship=ship.name, side=side)
    carry_out(table, ship, answer.moves, plan)
    for salvo in salvos:
        if ship.status == ACTIVE and not ship.done:
            yield from resolve_fire(table, ship, salvo.target, salvo.dice, salvo.arc)
    return True


def orders_due(table: Table, sides: tuple[str, ...], stop: str) -> Steps:
    """A stop of the mail cadence (rulings §4.1): each of ``sides`` gives the orders
    that carry play on, named by a mark other than the one that brought play here --
    so orders already on file do not run past the stop; new orders (or the default at
    the deadline, or ``carry on``) do. An answer that names the orders it ``kept``
    (``carry on``, or the default at the deadline) leaves their mark as the one that
    brought play to the next stop: the orders on file carry play past this stop only,
    and the next one asks again. Where both sides are due, both are asked at once (one
    simultaneous stop): each side's orders are taken as they come, in any order, and
    play goes on once both are in, so one email per side carries a turn. The question
    names the side's ships still in action, the ones its template lists (rulings §4.3)."""
    state = table.state
    questions = []
    for side in sides:
        mark = state.marks.get(side)

        def check(answer: OrdersDue, mark=mark) -> OrdersDue:
            if answer.mark == mark:
                raise IllegalAnswer("these are the orders that brought play to this stop: send new orders to go on")
            return answer

        prompt = ORDERS_PROMPTS[stop == "prime", len(sides) == 2]
        prompt = Worded(prompt, side.title(), state.turn, *(s.title() for s in sides if len(sides) == 2))
        in_action = [ship.name for ship in state.side_ships(side) if ship.status == ACTIVE]
        questions.append(table.question(side, Kind.ORDERS, {"mark": mark, "stop": stop, "ships": in_action},
                                        prompt, check))
    answers = yield from table.ask_together(questions)
    for side in sides:
        state.marks[side] = answers[side].kept or answers[side].mark


def action_phases(table: Table) -> Steps:
    """The Prime Action Phase, then the alternation, until no ship is left to activate.
    The mail cadence stops play where the ``cadence`` option says (rulings §4.1):
    ``turn`` before the turn's activations, ``prime`` also after the prime
    activations, ``activation`` before every activation; ``continuous`` never."""
    state = table.state
    offense = state.offense
    cadence = table.options.cadence
    if cadence in ("turn", "prime"):
        yield from orders_due(table, (offense, other(offense)), "turn")
    while True:
        pass_over(table)
        left = {offense: waiting(table, offense), other(offense): waiting(table, other(offense))}
        if not left[offense] and not left[other(offense)]:
            break
        if state.prime > 0 and left[offense]:
            if cadence == "activation":
                yield from orders_due(table, (offense,), "activation")
            went = yield from activate(table, offense, table.options.prime_may_stop)
            state.prime = state.prime - 1 if went else 0
            if state.prime == 0:
                state.next = other(offense)
                if cadence == "prime":
                    yield from orders_due(table, (other(offense), offense), "prime")
            continue
        state.prime = 0
        side = state.next if left[state.next or offense] else other(state.next)
        if cadence == "activation":
            yield from orders_due(table, (side,), "activation")
        yield from activate(table, side, False)
        state.next = other(side)
