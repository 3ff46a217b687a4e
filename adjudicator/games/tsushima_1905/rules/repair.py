"""Rulebook, "Sequence of Play" 4-6 and "Combat Points, Damage and Repairs".

"During the Repair Phase, a player may roll as many dice as CPs remaining in the Bank
Pile. A single fire or flood token is repaired/removed with each roll of 4 or better.
Repairs can only be used to stop fires or floods and cannot be used to regain lost
CPs. During the Damage Phase, each unchecked fire or flood costs 1 CP of damage, paid
first from the Bank Pile, then the Spent Pile. During the Reload Phase, all tokens in
the Spent Pile are moved back to the Bank Pile." -- "At the end of the turn, add the
King back into the discard pile."

Rulings: R-REP-1 (each die costs a CP; the owner says which tokens go first), R-SEQ-4
(Kings back at the start of the Reload Phase), R-CP-1 (the category counters reset).
"""

from __future__ import annotations

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.tsushima_1905.answers import Kind, Repair
from adjudicator.games.tsushima_1905.rules.combat_points import check_fate, pay_damage
from adjudicator.games.tsushima_1905.state import ACTIVE, SIDES, Ship
from adjudicator.games.tsushima_1905.rules.table import Steps, Table
from adjudicator.games.tsushima_1905.words import counted, listed, some, spaced, Worded
from adjudicator.i18n import N_


def ask_repair(table: Table, ship: Ship) -> Steps:
    def check(answer: Repair) -> Repair:
        if table.resolve(answer.ship, [ship]) is not ship:
            raise IllegalAnswer(f"the question is about {ship.name}")
        if answer.dice > ship.bank:
            raise IllegalAnswer(f"{ship.name} has {ship.bank} CP in its Bank: at most {ship.bank} repair dice, "
                                f"not {answer.dice}")
        return Repair(ship.name, answer.dice, answer.first)

    answer = yield from table.ask(ship.side, Kind.REPAIR,
                                  {"ship": ship.name, "max": ship.bank, "fires": ship.fires, "floods": ship.floods},
                                  Worded(N_("{} has {} fire(s) and {} flood(s): how many repair dice (0-{}), "
                                            "and fire or flood first?"), ship.name, ship.fires, ship.floods,
                                         ship.bank), check)
    return answer


def repair_phase(table: Table) -> Steps:
    """Japan's ships, then Russia's, each in order of battle."""
    success = int(table.data.rules["repair"]["success"])
    for side in SIDES:
        for ship in table.state.side_ships(side):
            if ship.status != ACTIVE or not (ship.fires or ship.floods) or ship.bank <= 0:
                continue
            answer = yield from ask_repair(table, ship)
            ship.bank -= answer.dice
            ship.spent += answer.dice
            dice = yield from table.roll(answer.dice, f"repair {ship.name}", side)
            removed = []
            for _ in range(sum(1 for d in dice if d >= success)):
                order = ("fires", "floods") if answer.first == "fire" else ("floods", "fires")
                for token in order:
                    if getattr(ship, token):
                        setattr(ship, token, getattr(ship, token) - 1)
                        removed.append(token[:-1])
                        break
            tokens = listed([some(removed.count(t), t) for t in ("fire", "flood") if t in removed]) or N_("nothing")
            table.say("repair", "{} rolls {} for repairs ({}): {} removed.", ship.name, counted(len(dice), "die"),
                      spaced(dice), tokens,
                      ship=ship.name, dice=list(dice), removed=removed)


def damage_phase(table: Table) -> None:
    """Each unchecked fire or flood costs 1 CP (Bank, then Spent); then the fates."""
    per = table.data.rules["damage"]
    for ship in table.state.ships.values():
        if ship.status != ACTIVE or not (ship.fires or ship.floods):
            continue
        cost = ship.fires * int(per["per_fire"]) + ship.floods * int(per["per_flood"])
        paid = pay_damage(table, ship, cost)
        tokens = listed([counted(n, t) for n, t in ((ship.fires, "fire"), (ship.floods, "flood")) if n])
        table.say("damage", "{} loses {} to {}.", ship.name, counted(paid, "CP"), tokens,
                  ship=ship.name, lost=paid)
        check_fate(table, ship)


def reload_phase(table: Table) -> None:
    """Kings back to the discard piles; Spent -> Bank; the turn's counters cleared."""
    state = table.state
    for deck in state.decks.values():
        if deck.aside:
            deck.discard.append(deck.aside)
            deck.aside = None
    for ship in state.ships.values():
        ship.bank += ship.spent + ship.in_play
        ship.spent = ship.in_play = 0
        ship.used_move = ship.used_gun = ship.used_armor = 0
        ship.activated = ship.done = False
    state.admiral = {}
    state.prime = 0
    state.torpedo_attacks = 0
