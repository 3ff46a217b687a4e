"""Answering Tsushima 1905's questions from a side's standing orders (rulings §4.3).

:meth:`Plans.answer_for` gives the answer (in the JSON form of
:mod:`adjudicator.games.tsushima_1905.answers`) that a side's orders give to a
question; where the orders say nothing, :meth:`Plans.default_answer` gives the
documented default (:data:`DEFAULT_TEXT`). Both only give legal answers: moves are
checked with the rules' own move planner, targets with the rules' own arcs and line of
fire. :func:`why_not` names each order that cannot be carried out as written (the
receipts' and reports' notes); :class:`StandingAnswers` is the plug-in's face of both.

- which ship next: the ``order:`` list, skipping ships that have activated, are done
  or out of action; then the others in order of battle;
- its move: the ship's own ``move`` entry, else its squadron's, else ``all``'s; the
  options are tried in turn (``else``), each when its condition holds, and the first
  that can be carried out is used (``collision: avoid``, the default, refuses a move
  that collides unless it is a ``ram``); a squadron's ``follow`` its leader makes each
  ship follow the one ahead of it in the squadron; ``auto`` is the move the default
  for silence makes (the planner's best, :meth:`ReasonablePlayer.best_move_and_fire`);
- its fire: the ship's ``fire`` entry, else its squadron's, else ``all``'s: the first
  target of the ``at`` chain that can be fired at, with ``dice max`` less ``keep``;
  under the option ``split_fire`` each further ``at`` chain fires a further salvo, at a
  target of its own from an arc still free (R-FIRE-2); ``auto`` fires what the
  default for silence fires after the move made;
- armour, counter-torpedo, torpedo, torpedo targets, repairs, prime: the policies;
- at a stop of the cadence, ``carry on: yes`` carries play on with the orders on file,
  as silence does at the deadline, for that stop only.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Mapping

from adjudicator.canonical import canonical_text
from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.answers import Element, mark_after, parse_element
from adjudicator.games.tsushima_1905.players import ReasonablePlayer, fire_json
from adjudicator.games.tsushima_1905.data import GameData, load_data
from adjudicator.games.tsushima_1905.geometry import ARCS, BOW, STERN
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.language.model import (
    ALL, Clause, Condition, FireOrder, MoveOption, MoveOrder, TargetRule, spell,
)
from adjudicator.games.tsushima_1905.planner import NoMove, nearest_clear, resolve
from adjudicator.games.tsushima_1905.rules.gunnery import bases_on_table, dice_in_arc, gun_dice_left, line_clear
from adjudicator.games.tsushima_1905.rules.movement import ahead_length, free_moves, paid_moves_left, plan_move
from adjudicator.games.tsushima_1905.state import ACTIVE, ON_TABLE, Ship, State, other
from adjudicator.games.tsushima_1905.rules.table import Table, geometry_of, pose_of
from adjudicator.orders.model import OrderSet

def orders_mark(orders: OrderSet) -> str:
    """The fingerprint of a side's orders in force: their canonical text, header included."""
    return hashlib.sha256("\n".join(orders.canonical_lines()).encode()).hexdigest()[:32]


DEFAULT_TEXT = {
    "orders": "carries on with the orders on file, for this stop only (the next stop asks again)",
    "activate": "the next ship in line order (each column's leader first) makes the move, among one or two "
                "aheads and turns of 45 or 90 degrees, that brings the most gunnery dice to bear on the most "
                "damaged enemy without colliding or leaving the table, and fires them (under split_fire, then "
                "at the best target of each arc still free while gunnery points are left)",
    "armor": "rolls every real armour die it may",
    "counter-torpedo": "rolls every counter-torpedo die it may",
    "torpedo": "launches torpedoes when two or more attacks are offered",
    "torpedo-targets": "the enemy ships with the fewest CPs left (by name on a tie)",
    "repair": "all dice, flooding first",
}
MOVES_KEPT = 32    # the moves a Plans keeps, so that a question's notes and its answer plan a move once
CMP = {"<": int.__lt__, "<=": int.__le__, "=": int.__eq__, ">=": int.__ge__, ">": int.__gt__}


def prime_activations_made(state: State, side: str) -> int:
    """The activations ``side`` has made this turn, asked while its prime activations
    last (only the Offense activates then): each activation leaves one track in the
    turn's log; a ship passed over (R-SEQ-3, R-SEQ-5) or struck by another's collision
    has none, as it made no activation."""
    own = {s.name for s in state.side_ships(side)}
    return sum(1 for entry in state.log if entry.get("kind") == "track" and entry.get("ship") in own)


def line_order(data: GameData, names: list[str]) -> list[str]:
    """``names`` column by column (the scenario's squadrons, each in its line's order,
    the leader first), then the ships in no column, in the order given (R-LINE-1)."""
    ordered = [name for squadron in data.squadrons for name in squadron.ships if name in names]
    return list(dict.fromkeys(ordered + list(names)))


@dataclass(frozen=True)
class _Named:
    """A per-ship choice of a standing order, found as move and fire entries are."""

    who: str
    choice: Any


class Plans:
    """Answers questions for the sides from their orders (None: no orders for a side)."""

    def __init__(self, orders: Mapping[str, OrderSet | None], data: GameData | None = None) -> None:
        self.orders = dict(orders)
        self.data = data or load_data()
        self.geo = geometry_of(self.data)
        self.default_player = ReasonablePlayer(self.data)
        self._moves: dict[tuple[str, str, bytes], tuple[list[Element], list[tuple[MoveOption | None, str]]]] = {}
        self._auto: dict[tuple[str, bytes], tuple[list[Element], list]] = {}

    def __call__(self, decision: Decision, state: State) -> Mapping[str, Any]:
        return self.answer_for(decision, state) or self.default_answer(decision, state)

    def default_answer(self, decision: Decision, state: State) -> Mapping[str, Any]:
        return self.default_player(decision, state)

    def answer_for(self, decision: Decision, state: State) -> Mapping[str, Any] | None:
        return self.answer_with(decision, state, self.orders.get(decision.side))

    def answer_with(self, decision: Decision, state: State, orders: OrderSet | None) -> Mapping[str, Any] | None:
        """The answer ``orders`` give to ``decision`` (None: they do not answer it)."""
        if orders is None:
            return None
        concession = orders.block("concede")
        if concession is not None and concession.concede:
            return {"concede": True}
        table = Table(state, self.data, self.geo, Options.from_json(state.options), lambda event: None)
        handler = getattr(self, "_" + decision.kind.replace("-", "_"))
        return handler(decision, table, orders)

    def _orders(self, decision: Decision, table: Table, orders: OrderSet) -> dict[str, str] | None:
        """A cadence stop (rulings §4.1): the orders on file carry play on only if they
        are not the ones that brought play here (sent again, or new, after the stop).
        A one-line confirmation (the header and its entropy, no orders block in force)
        gives no orders, so it carries nothing on: it is what step 1 waits for before
        the set-up is drawn (docs/dice.md §8.1), and the first orders are asked after.

        ``carry on: yes`` answers as silence does at the deadline (the same mark,
        :func:`mark_after`), and names the orders it keeps (their standing orders, the
        header included), which are then the ones that brought play to the next stop:
        it carries play past this stop only. The mark is of the standing orders, so
        that the ``carry on`` line, which is not one, leaves it as it was.

        Silence at the deadline keeps the orders on file the same way, for that stop
        only (R-AUTO-2a, :func:`..answers.carried_on_in_silence`). A record kept before
        silence named the orders it kept has, at the next stop, the mark silence gave
        after them: that mark too is theirs, and they do not answer that stop."""
        if not orders.blocks:
            return None
        mark = orders_mark(orders.standing())
        if decision.options.get("mark") in (mark, mark_after(mark)):
            return None
        if orders.block("carry on") is not None:
            return {"orders": mark_after(decision.options.get("mark")), "kept": mark}
        return {"orders": mark}

    # -- conditions -------------------------------------------------------------------

    def holds(self, condition: Condition | None, table: Table, side: str, ship: Ship | None = None,
              attacks: int = 0) -> bool:
        if condition is None:
            return True
        result = all(self._clause(c, table, side, ship, attacks) for c in condition.clauses)
        return not result if condition.negate else result

    def _clause(self, clause: Clause, table: Table, side: str, ship: Ship | None, attacks: int) -> bool:
        state = table.state
        kind = clause.kind
        if kind == "offense":
            return state.offense == side
        if kind == "defense":
            return state.offense not in (None, side)
        if kind in ("admiral", "enemy-admiral"):
            return state.admiral.get(side if kind == "admiral" else other(side)) is not None
        if kind in ("cp", "fires", "floods"):
            subject = state.ships.get(clause.ship) if clause.ship else ship
            if subject is None:
                return False
            value = {"cp": subject.cp, "fires": subject.fires, "floods": subject.floods}[kind]
            return CMP[clause.cmp](value, clause.value)
        if kind == "within":
            there = state.ships.get(clause.ship)
            if ship is None or there is None or there.status not in ON_TABLE:
                return False
            return (ship.x - there.x) ** 2 + (ship.y - there.y) ** 2 <= clause.value ** 2
        if kind in ("cards", "enemy-cards"):
            deck = state.decks[side if kind == "cards" else other(side)]
            return CMP[clause.cmp](len(deck.draw), clause.value)
        value = attacks if kind == "attacks" else state.turn
        return CMP[clause.cmp](value, clause.value)

    # -- activations ------------------------------------------------------------------

    def _activate(self, decision: Decision, table: Table, orders: OrderSet) -> Mapping[str, Any] | None:
        waiting = list(decision.options["ships"])
        prime = orders.block("prime")
        side = decision.side
        if (decision.options.get("may_pass") and prime is not None and prime.stop_after is not None
                and prime_activations_made(table.state, side) >= prime.stop_after):
            return {"pass": True}
        ship = table.ship(self.next_ship(waiting, orders.block("order")))
        elements, notes = self.move_with_notes(table, ship, orders)
        fire, fire_notes = self.fire_with_notes(table, ship, elements, orders)
        answer = {"ship": ship.name, "move": [e.code for e in elements], "fire": fire}
        return answer | ({"notes": notes + fire_notes} if notes or fire_notes else {})

    def next_ship(self, waiting: list[str], order) -> str:
        """The ``order:`` list's first ship still waiting; then, for ``others`` (or
        without a list), column by column, front to back in each line's order, the
        leader first; ships in no column last, in order of battle (R-LINE-1)."""
        listed = [name for name in (order.ships if order else ()) if name in waiting]
        if listed:
            return listed[0]
        return line_order(self.data, waiting)[0]

    def _entry(self, ship: Ship, entries):
        """The ship's own entry, else its squadron's, else ``all``'s."""
        by_who = {e.who: e for e in entries}
        if ship.name in by_who:
            return by_who[ship.name]
        for squadron in self.data.squadrons:
            if ship.name in squadron.ships and squadron.name in by_who and squadron.side == ship.side:
                return by_who[squadron.name]
        return by_who.get(ALL)

    def move_with_notes(self, table: Table, ship: Ship, orders: OrderSet) -> tuple[list[Element], list[str]]:
        """The ship's move and what the orders could not carry out as written (see
        :meth:`move_with_options`)."""
        elements, noted = self.move_with_options(table, ship, orders)
        return elements, [note for _, note in noted]

    def move_with_options(self, table: Table, ship: Ship,
                          orders: OrderSet) -> tuple[list[Element], list[tuple[MoveOption | None, str]]]:
        """The ship's move and what the orders could not carry out as written, each
        note with the option it is about (None: about the move made instead) (see
        :meth:`plan_move_of`). The last :data:`MOVES_KEPT` are kept, by ship, orders
        and position: the notes on a question (:func:`why_not`) and its answer plan
        the move once."""
        key = (ship.name, orders_mark(orders), _position_key(table.state))
        if key not in self._moves:
            if len(self._moves) >= MOVES_KEPT:
                del self._moves[next(iter(self._moves))]
            self._moves[key] = self.plan_move_of(table, ship, orders)
        elements, notes = self._moves[key]
        return list(elements), list(notes)

    def plan_move_of(self, table: Table, ship: Ship,
                     orders: OrderSet) -> tuple[list[Element], list[tuple[MoveOption | None, str]]]:
        """The ship's move and the notes of :meth:`move_with_options`, planned now.

        The entry's options are tried in turn (``else``), each when its condition
        holds; the first that can be carried out is used. Under ``collision: avoid``
        (the default) an option that would collide is not used (unless it is a
        ``ram``); when no option, nor the default single ahead, is free of collision,
        the move is the legal one that ends nearest where the first of them would
        have ended without colliding (a shorter ahead, a turn, or no move where
        R-SEQ-3 allows). Each step away from the orders as written is noted."""
        block = orders.block("move")
        entry: MoveOrder | None = self._entry(ship, block.orders) if block else None
        collision = orders.block("collision")
        allow = collision is not None and collision.allow
        notes: list[tuple[MoveOption | None, str]] = []
        intended: list[Element] | None = None
        for option in (entry.options if entry else ()):
            if not self.holds(option.condition, table, ship.side, ship):
                continue
            if option.auto:      # the planner's best: it avoids collisions where any move does
                return self.auto_activation(table, ship)[0], notes
            elements, plan, noted = self.option_plan(table, ship, entry, option)
            notes += [(option, note) for note in noted]
            if plan is None:
                continue
            if plan.struck and not (allow or _rams(option)):
                notes.append((option, f"{ship.name}'s move \"{option.text()}\" would collide with "
                                      f"{', '.join(plan.struck)} (collision: avoid)"))
                intended = intended or elements
                continue
            return elements, notes
        can = free_moves(table, ship) + paid_moves_left(table, ship)
        default = [Element(0)] if can else []
        if intended is None:
            if not default:
                return [], notes
            try:
                plan = plan_move(table, ship, default)
            except IllegalAnswer:
                plan = None
            if plan is not None and not plan.struck:
                if entry is not None:
                    notes.append((None, f"{ship.name} moves one ahead instead (the default move)"))
                return default, notes
            if allow and plan is not None:
                return default, notes
            intended = default
        point = self.free_end(table, ship, intended)
        avoiding = nearest_clear(table, ship, point)
        moves = " ".join(e.code for e in intended)
        if avoiding is None:
            notes.append((None, f"{ship.name}: no legal move avoids a collision; it moves {moves}"))
            return intended, notes
        done = " ".join(e.code for e in avoiding) or "no move"
        notes.append((None, f"{ship.name} avoids a collision (collision: avoid): {done} instead of {moves}"))
        return avoiding, notes

    def option_plan(self, table: Table, ship: Ship, entry: MoveOrder,
                    option: MoveOption) -> tuple[list[Element] | None, Any, list[str]]:
        """One option tried for ``ship`` now: its elements, their plan and a note of
        what of it cannot be done as written; or (None, None, and the note of why it
        cannot be carried out), a ``ram`` that no legal move brings into contact with
        its target included."""
        written = f"{ship.name}'s move \"{option.text()}\""
        elements, why = self._option(table, ship, entry, option)
        if elements is None:
            return None, None, [f"{written} cannot be carried out: {why}"]
        notes = [f"{written}: {why}"] if why else []
        try:
            plan = plan_move(table, ship, elements)
        except IllegalAnswer as err:
            return None, None, notes + [f"{written} cannot be carried out: {err}"]
        if _rams(option) and option.relative.ship not in plan.struck:
            return None, None, notes + [f"{written} cannot be carried out: no legal move reaches "
                                        f"{option.relative.ship}"]
        return elements, plan, notes

    def free_end(self, table: Table, ship: Ship, elements: list[Element]) -> tuple[int, int]:
        """Where ``elements`` would take the ship on an empty table."""
        geo, pose = table.geo, pose_of(ship)
        for element in elements:
            pose = geo.turn(pose, element.degrees) if element.is_turn else geo.advance(pose, ahead_length(geo, element))
        return pose.x, pose.y

    def _option(self, table: Table, ship: Ship, entry: MoveOrder,
                option: MoveOption) -> tuple[list[Element] | None, str]:
        """The elements of one option now, and what of it cannot be done as written
        (None: nothing of it can)."""
        elements: list[Element] = []
        if option.relative is not None:
            relative = option.relative
            if relative.kind == "follow" and entry.who != ship.name:
                relative = self._follow_in_line(ship, entry.who, relative)
                if relative is None:
                    return None, f"{ship.name} leads its line and follows no ship"
            target = table.state.ships.get(relative.ship) if relative.ship else None
            if target is not None and target.status not in ON_TABLE:
                return None, f"{target.name} is {target.status}"
            try:
                elements = resolve(table, ship, relative)
            except (NoMove, IllegalAnswer) as err:
                return None, str(err)
        most = free_moves(table, ship) + paid_moves_left(table, ship)
        turns = table.cls(ship).turns_per_activation - sum(1 for e in elements if e.is_turn)
        dropped: list[str] = []
        for code in option.elements:
            if code == "MAX":
                elements += [Element(0)] * max(0, most - len(elements))
                continue
            element = parse_element(code)
            if element.is_partial and not table.options.partial_ahead:
                return None, "aheads are whole base lengths in this campaign"
            if element.is_turn:
                if turns <= 0:
                    dropped.append(code)
                    continue
                turns -= 1
            if len(elements) < most:
                elements.append(element)
            else:
                dropped.append(code)
        if not elements and most > 0:
            return None, "no element of it can be made"
        if dropped and option.relative is None:
            return None, (f"{ship.name} has {most} move element(s) left this turn "
                          f"({paid_moves_left(table, ship)} paid, Bank {ship.bank}), not {len(option.elements)}")
        why = f"{' '.join(dropped)} left out (the ship's limits)" if dropped else ""
        return elements, why

    def _follow_in_line(self, ship: Ship, who: str, relative) -> Any:
        """In a squadron's "follow X", each ship follows the one ahead of it in line."""
        for squadron in self.data.squadrons:
            if squadron.name == who and ship.name in squadron.ships:
                index = squadron.ships.index(ship.name)
                if ship.name == relative.ship or index == 0:
                    return None
                return type(relative)("follow", squadron.ships[index - 1])
        return relative if relative.ship != ship.name else None

    # -- fire -------------------------------------------------------------------------

    def fire_with_notes(self, table: Table, ship: Ship, elements: list[Element],
                        orders: OrderSet) -> tuple[Any, list[str]]:
        """The fire the orders give after ``elements``, and a note for each part of the
        fire ordered that does not take place (see :meth:`fire_with_lines`)."""
        fire, noted = self.fire_with_lines(table, ship, elements, orders)
        return fire, [note for _, note in noted]

    def fire_with_lines(self, table: Table, ship: Ship, elements: list[Element],
                        orders: OrderSet) -> tuple[Any, list[tuple[str, str]]]:
        """The fire the orders give after ``elements``, and for each part of the fire
        ordered that does not take place, the name its line is found by and a note:
        the move ends the ship's turn (R-ACT-2), an ``at`` chain finds no target it can
        fire at (each chain under ``split_fire``), or no gunnery dice are left for it."""
        plan = plan_move(table, ship, elements)
        block = orders.block("fire")
        entry: FireOrder | None = self._entry(ship, block.orders) if block else None
        if plan.stops_the_ship:
            if entry is not None and entry.hold_always:
                return "none", []
            why = (f"its move collides with {', '.join(plan.struck)}" if plan.struck
                   else "its move takes it off the table")
            return "none", [(_who(entry) if entry else ship.name,
                             f"{ship.name} does not fire: {why}, and a ship that collides or leaves the table "
                             f"is done for the turn (R-ACT-2)")]
        pose = plan.end or pose_of(ship)
        bank = ship.bank - max(0, len(plan.poses) - plan.free)
        if entry is None:
            fire, _ = self.default_player._best_fire(table, ship, plan, 0, bases_on_table(table))
            return fire_json(fire, table.options.split_fire), []
        if entry.hold_always or (entry.hold is not None and self.holds(entry.hold, table, ship.side, ship)):
            return "none", []
        if entry.auto:
            return fire_json(self.auto_fire(table, ship, elements, plan, entry), table.options.split_fire), []
        left = gun_dice_left(table, ship, bank - entry.keep)
        bases = bases_on_table(table)
        enemies = [s for s in table.state.ships.values() if s.side != ship.side and s.status == ACTIVE]
        split = table.options.split_fire
        chains = entry.chains if split else entry.chains[:1]
        free_arcs, salvos, noted = list(ARCS), [], []
        for chain in chains or ((TargetRule("nearest"),),):
            written = f"{ship.name}'s fire \"at {', else '.join(rule.text() for rule in chain)}\""
            line = f"at {_target_word(chain[0])}" if entry.chains else _who(entry)
            if left <= 0:
                kept = f" after keeping {entry.keep} for repairs" if entry.keep else ""
                noted.append((line, f"{written} is not fired: no gunnery dice are left for it{kept}"))
                continue
            salvo = self._salvo(table, ship, pose, chain, enemies, bases, free_arcs, left, entry.dice,
                                {s[0].name for s in salvos})
            if salvo is None:
                free = ", from an arc not yet fired from" if salvos else ""
                noted.append((line, f"{written} finds no enemy it can fire at now (none in an arc it "
                                    f"allows{free}, with guns that bear and a clear line of fire): "
                                    + ("this salvo is not fired" if salvos or len(chains) > 1 else "it does not fire")))
                continue
            salvos.append(salvo)
            free_arcs.remove(salvo[2])
            left -= salvo[1]
        return fire_json(salvos, split), noted

    def auto_activation(self, table: Table, ship: Ship) -> tuple[list[Element], list]:
        """The move and salvos of the default for silence for ``ship`` now (the last
        :data:`MOVES_KEPT` kept, by ship and position: ``auto`` in ``move`` and in
        ``fire`` search once)."""
        key = (ship.name, _position_key(table.state))
        if key not in self._auto:
            if len(self._auto) >= MOVES_KEPT:
                del self._auto[next(iter(self._auto))]
            self._auto[key] = self.default_player.best_move_and_fire(table, ship)
        elements, salvos = self._auto[key]
        return list(elements), list(salvos)

    def auto_fire(self, table: Table, ship: Ship, elements: list[Element], plan, entry: FireOrder) -> list:
        """``fire: auto``: after the move the default for silence makes, its salvos;
        after any other move, the salvos it would choose there (the same scoring, the
        same CP kept for repairs when the ship burns or floods, or ``keep`` if more);
        ``dice N`` caps each salvo."""
        best_move, salvos = self.auto_activation(table, ship)
        reserve = self.default_player.reserve(ship)
        if elements != best_move or entry.keep > reserve:
            salvos, _ = self.default_player._best_fire(table, ship, plan, max(reserve, entry.keep),
                                                       bases_on_table(table))
        if entry.dice.isdigit():
            salvos = [(enemy, min(dice, int(entry.dice)), arc) for enemy, dice, arc in salvos if int(entry.dice)]
        return salvos

    def _salvo(self, table: Table, ship: Ship, pose, chain, enemies, bases, free_arcs, left, dice_rule, taken):
        """The first target of ``chain`` in a free arc with a clear line: (enemy, dice, arc)."""
        for rule in chain:
            if not self.holds(rule.condition, table, ship.side, ship):
                continue
            for enemy in self._candidates(table, pose, rule, enemies):
                if enemy.name in taken:
                    continue
                arcs = [a for a in table.geo.arcs_of(pose, (enemy.x, enemy.y)) if a in free_arcs]
                if rule.broadside:
                    arcs = [a for a in arcs if a not in (BOW, STERN)]
                if rule.arc:
                    arcs = [a for a in arcs if a == rule.arc]
                if not arcs or not line_clear(table, ship, pose, enemy, bases):
                    continue
                arc = max(arcs, key=lambda a: dice_in_arc(table, ship, a))
                most = dice_in_arc(table, ship, arc)
                dice = min(most, left) if dice_rule in ("max", "auto") else min(most, left, int(dice_rule))
                return (enemy, dice, arc) if dice > 0 else None
        return None

    def _candidates(self, table: Table, pose, rule: TargetRule, enemies: list[Ship]) -> list[Ship]:
        if rule.kind == "ship":
            return [e for e in enemies if e.name == rule.ship]
        if rule.kind == "flagship":
            flagged = {info.name for info in self.data.ships if info.flag}
            return [e for e in enemies if e.name in flagged][:1]
        if rule.kind == "most-damaged":
            return sorted(enemies, key=lambda e: (e.cp - e.start_cp, e.cp))
        wanted = {"battleship": "battleship", "cruiser": "armoured_cruiser"}.get(rule.ship_class)
        pool = [e for e in enemies if wanted is None or e.ship_class == wanted]
        return sorted(pool, key=lambda e: table.geo.range_squared((pose.x, pose.y), (e.x, e.y)))

    # -- the other questions ----------------------------------------------------------

    def _dice(self, policy, options: Mapping[str, Any], attack: int, bank: int) -> dict | None:
        if policy is None:
            return None
        wanted = dict(policy.by_attack).get(attack) if policy.by_attack else None
        if wanted is None:
            wanted = {"max": options["max"], "none": 0, "auto": options["max"]}.get(policy.rule)
            if wanted is None:
                wanted = int(policy.rule)
        wanted = max(0, min(wanted, options["max"], bank - policy.keep))
        return {"ship": options["ship"], "dice": wanted}

    def choice_for(self, ship: Ship, policy):
        """A standing order's choice for ``ship``: its own, else its squadron's, else
        ``all``'s, else the block's general one."""
        if policy is None or not policy.per_ship:
            return policy
        chosen = self._entry(ship, [_Named(who, choice) for who, choice in policy.per_ship])
        return chosen.choice if chosen is not None else policy

    def _armor(self, decision: Decision, table: Table, orders: OrderSet) -> dict | None:
        ship = table.ship(decision.options["ship"])
        policy = self.choice_for(ship, orders.block("armour"))
        return self._dice(policy, decision.options, decision.options["attack_dice"], ship.bank)

    def _counter_torpedo(self, decision: Decision, table: Table, orders: OrderSet) -> dict | None:
        ship = table.ship(decision.options["ship"])
        return self._dice(self.choice_for(ship, orders.block("counter-torpedo")), decision.options, 0,
                          ship.bank)

    def _torpedo(self, decision: Decision, table: Table, orders: OrderSet) -> dict | None:
        policy = orders.block("torpedo")
        if policy is None or policy.use == "auto":
            return None
        attacks = decision.options["attacks"]
        return {"use": policy.use == "yes" and self.holds(policy.condition, table, decision.side, attacks=attacks)}

    def _torpedo_targets(self, decision: Decision, table: Table, orders: OrderSet) -> dict | None:
        policy = orders.block("torpedo targets")
        if policy is None:
            return None
        pool = [table.ship(name) for name in decision.options["ships"]]
        named = [s for name in policy.priorities for s in pool if s.name == name]

        def rank(ship: Ship) -> tuple:
            key = []
            for priority in policy.priorities:
                if priority == "battleships first":
                    key.append(ship.ship_class != "battleship")
                elif priority == "most damaged first":
                    key.append(ship.cp - ship.start_cp)
                elif priority == "fewest cp first":      # as the default for silence: by name on a tie
                    key.append((ship.cp, ship.name))
            return tuple(key)

        ordered = named + sorted((s for s in pool if s not in named), key=rank)
        return {"ships": [s.name for s in ordered[: decision.options["attacks"]]]}

    def _repair(self, decision: Decision, table: Table, orders: OrderSet) -> dict | None:
        policy = self.choice_for(table.ship(decision.options["ship"]), orders.block("repairs"))
        if policy is None:
            return None
        most = decision.options["max"]
        dice = most if policy.dice == "all" else min(most, int(policy.dice))
        return {"ship": decision.options["ship"], "dice": max(0, min(dice, most - policy.keep) if policy.keep else dice),
                "first": policy.first}


class StandingAnswers:
    """The plug-in's answers: orders in, legal answers out (see the module's docstring)."""

    DEFAULT_TEXT = DEFAULT_TEXT

    def __init__(self) -> None:
        self._plans: Plans | None = None

    @property
    def plans(self) -> Plans:
        if self._plans is None:
            self._plans = Plans({})
        return self._plans

    def answer_for(self, decision: Decision, state: State, orders: OrderSet | None) -> dict | None:
        answer = self.plans.answer_with(decision, state, orders)
        return dict(answer) if answer is not None else None

    def default_answer(self, decision: Decision, state: State) -> dict:
        return dict(self.plans.default_answer(decision, state))

    def why_not(self, decision: Decision, state: State, orders: OrderSet | None) -> list[tuple[str, str]]:
        """See :func:`why_not` (the moves it plans are kept for :meth:`answer_for`)."""
        return why_not(decision, state, orders, self.plans.data, self.plans)


# -- why an order cannot be carried out (receipts, check --store --campaign) -----------


def why_not(decision: Decision | None, state: State, orders: OrderSet | None,
            data: GameData | None = None, plans: Plans | None = None) -> list[tuple[str, str]]:
    """Each order of ``orders`` that cannot be carried out as written in the position
    ``state``, as (the name its line is found by, why and what is done instead): a ship
    out of action given orders or named as a target; an order line that activates a
    follower before the ship ahead of it in its column (R-LINE-1); a move entry that
    cannot be carried out now, or whose move would collide and is avoided; a fire
    entry whose target (each salvo's, under ``split_fire``) cannot be fired at; at a
    stop of the cadence (the ``orders`` question), a ``ram`` that cannot reach its
    target as the ships stand; armour, counter-torpedo and repair dice beyond what any
    ship may roll. ``plans`` plans the moves (a new one for ``data`` when None)."""
    if orders is None:
        return []
    data = data or (plans.data if plans is not None else load_data())
    side = orders.header.side or (decision.side if decision is not None else None)
    found: list[tuple[str, str]] = []
    found += _out_of_action(state, orders)
    found += _followers_first(data, state, orders)
    if decision is not None and decision.kind == "activate" and decision.side == side:
        found += _activation_not_as_written(plans or Plans({}, data), state, orders, decision)
    if decision is not None and decision.kind == "orders" and side is not None:
        found += _rams_out_of_reach(plans or Plans({}, data), state, orders, side)
    found += _dice_beyond_limits(data, orders)
    return list(dict.fromkeys(found))


def _status(state: State, name: str) -> str | None:
    ship = state.ships.get(name)
    return None if ship is None or ship.status == ACTIVE else ship.status


def _out_of_action(state: State, orders: OrderSet) -> list[tuple[str, str]]:
    found = []
    order = orders.block("order")
    for name in (order.ships if order else ()):
        if (status := _status(state, name)) is not None:
            found.append((name, f"order: {name} is {status} and does not activate"))
    move = orders.block("move")
    for entry in (move.orders if move else ()):
        if (status := _status(state, entry.who)) is not None:
            found.append((_in_block("move", f"{entry.who}:"), f"move: {entry.who} is {status}: this order is not used"))
        for option in entry.options:
            target = option.relative.ship if option.relative is not None else ""
            if target and (status := _status(state, target)) is not None:
                found.append((_in_block("move", f"{option.relative.kind} {target}"), f"move: {entry.who}'s \"{option.text()}\": {target} is {status}; the next "
                                      f"option (else), or the default move, is used"))
    fire = orders.block("fire")
    for entry in (fire.orders if fire else ()):
        if (status := _status(state, entry.who)) is not None:
            found.append((_in_block("fire", f"{entry.who}:"), f"fire: {entry.who} is {status}: this order is not used"))
        for chain in entry.chains:
            for index, rule in enumerate(chain):
                if rule.kind == "ship" and (status := _status(state, rule.ship)) is not None:
                    found.append((_in_block("fire", f"{'else' if index else 'at'} {rule.ship}"), f"fire: {entry.who} cannot fire at {rule.ship}, which is {status}; "
                                             f"the next target (else) is taken"))
    targets = orders.block("torpedo targets")
    for name in (targets.priorities if targets else ()):
        if (status := _status(state, name)) is not None:
            found.append(("torpedo targets", f"torpedo targets: {name} is {status} and cannot be attacked"))
    return found


def _followers_first(data: GameData, state: State, orders: OrderSet) -> list[tuple[str, str]]:
    """R-LINE-1: "A receipt warns when an order line activates a follower before the
    ship ahead of it in the same column"."""
    order = orders.block("order")
    if order is None:
        return []
    found, listed = [], list(order.ships)
    for squadron in data.squadrons:
        line = [name for name in squadron.ships if name in state.ships and _status(state, name) is None]
        for ahead, astern in zip(line, line[1:]):
            if astern in listed and (ahead not in listed or listed.index(astern) < listed.index(ahead)):
                found.append((astern, f"order: {astern} activates before {ahead}, the ship ahead of it in "
                                      f"{squadron.name}: the half-length advance of a turn then brings them into "
                                      f"contact (R-LINE-1); list {ahead} first"))
    return found


def _activation_not_as_written(plans: Plans, state: State, orders: OrderSet,
                               decision: Decision) -> list[tuple[str, str]]:
    """The move and fire of the ship the orders activate now, where they are not the
    move and fire as written (the other ships' depend on the moves made before
    theirs)."""
    move, fire = orders.block("move"), orders.block("fire")
    waiting = list(decision.options.get("ships", ()))
    if (move is None and fire is None) or not waiting:
        return []
    table = Table(state, plans.data, plans.geo, Options.from_json(state.options), lambda event: None)
    ship = table.ship(plans.next_ship(waiting, orders.block("order")))
    elements, notes = plans.move_with_notes(table, ship, orders)
    entry = plans._entry(ship, move.orders) if move else None
    found = [(_in_block("move", _who(entry)), f"move: {note}") for note in notes] if entry is not None else []
    if fire is not None and plans._entry(ship, fire.orders) is not None:
        _, noted = plans.fire_with_lines(table, ship, elements, orders)
        found += [(_in_block("fire", line), f"fire: {note}") for line, note in noted]
    return found


def _position_key(state: State) -> bytes:
    """A fingerprint of the whole position (ships, decks, options, the turn's log)."""
    return hashlib.sha256(canonical_text(state.to_json()).encode()).digest()


def _rams(option: MoveOption) -> bool:
    return option.relative is not None and option.relative.kind == "ram"


def _rams_out_of_reach(plans: Plans, state: State, orders: OrderSet, side: str) -> list[tuple[str, str]]:
    """At a stop of the cadence (rulings §4.1), the ``ram`` each of the side's ships
    still to activate would try (its first option whose condition holds, after those
    that cannot be carried out) and that no legal move brings into contact with its
    target as the ships stand now: the ships that move before it may change that, but
    the player hears of it before sending the orders that carry play on."""
    move = orders.block("move")
    if move is None or not any(_rams(o) for entry in move.orders for o in entry.options):
        return []
    table = Table(state, plans.data, plans.geo, Options.from_json(state.options), lambda event: None)
    found = []
    for ship in state.side_ships(side):
        if ship.status != ACTIVE or ship.activated or plans._entry(ship, move.orders) is None:
            continue
        _, noted = plans.move_with_options(table, ship, orders)
        found += [(_in_block("move", f"ram {option.relative.ship}"), f"move: {note} (as the ships stand now)")
                  for option, note in noted
                  if option is not None and _rams(option) and _status(state, option.relative.ship) is None]
    return found


def _in_block(heading: str, name: str) -> str:
    """The name a line of the block ``heading`` is found by: the first line naming
    ``name`` after the block's heading (the contract's ``HEADING\\nNAME``), so that a
    ship's ``fire:`` line is not taken for its ``move:`` line."""
    return f"{heading}\n{name}"


def _who(entry) -> str:
    """The name an entry's line is found by: ``Mikasa:``, ``all:``."""
    return f"{entry.who}:"


def _target_word(rule: TargetRule) -> str:
    """The words an ``at`` target's line is found by: ``Orel``, ``nearest``."""
    return {"ship": rule.ship, "flagship": "flagship", "most-damaged": "most damaged"}.get(rule.kind, "nearest")


def _a(ship_class) -> str:
    name = ship_class.name.replace("_", " ")
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def _classes_of(data: GameData, who: str) -> list:
    """The classes of the ships a per-ship choice covers: a ship's, a squadron's
    ships', or (``all``, the block's general line) every class."""
    if who == ALL:
        return list(data.classes.values())
    ships = {info.name: info.ship_class for info in data.ships}
    names = [who] if who in ships else [n for sq in data.squadrons if sq.name == who for n in sq.ships]
    kinds = dict.fromkeys(ships[name] for name in names if name in ships)
    return [data.classes[kind] for kind in kinds]


def _dice_beyond_limits(data: GameData, orders: OrderSet) -> list[tuple[str, str]]:
    """Armour, counter-torpedo and repair dice beyond what the ships a line covers may
    roll: the block's general line against every class, each per-ship choice against
    the classes of the ships it names."""
    most_attack = max(max(c.dice_broadside, c.dice_end_arc) for c in data.classes.values())
    found = []
    for kind in ("armour", "counter-torpedo", "repairs"):
        block = orders.block(kind)
        for who, choice in ([(ALL, block), *block.per_ship] if block is not None else ()):
            classes = _classes_of(data, who)
            if classes:
                found += _choice_beyond_limits(kind, who, choice, classes, most_attack)
    return found


def _choice_beyond_limits(kind: str, who: str, choice, classes: list, most_attack: int) -> list[tuple[str, str]]:
    whose = "" if who == ALL else f"{who}'s "
    first = choice.own_entry() if kind == "repairs" else choice.own_entries()[0]
    line = kind if who == ALL else f"{spell(who)}: {first}"
    found = []
    if kind == "armour":
        for attack, real in choice.by_attack:
            written = f"armour: {whose}\"{real} against {attack} dice\""
            if attack > most_attack:
                found.append((line, f"{written}: no salvo has more than {most_attack} dice, "
                                                          f"so this line is never used"))
            too_many = [c for c in classes if real > min(c.max_armor, attack)]
            if too_many:
                rolls = ", ".join(f"{_a(c)} rolls {min(c.max_armor, attack)}" for c in too_many)
                found.append((line, f"{written}: real dice are at most the attack dice and "
                                                          f"the armour maximum, so {rolls}"))
    elif kind == "counter-torpedo" and choice.rule.isdigit():
        too_many = [c for c in classes if int(choice.rule) > c.max_movement]
        if too_many:
            rolls = ", ".join(f"{_a(c)} rolls {c.max_movement}" for c in too_many)
            found.append((line,
                          f"counter-torpedo: {whose}{choice.rule} dice: at most the movement maximum, so {rolls}"))
    elif kind == "repairs" and choice.dice.isdigit():
        most_cp = max(c.cp for c in classes)
        if int(choice.dice) > most_cp:
            found.append((line,
                          f"repairs: {whose}{choice.dice} dice: a ship rolls at most as many dice as CPs in its "
                          f"Bank ({most_cp} at most); every Bank CP is rolled"))
    return found
