"""Rulebook, "Torpedoes" (the attacks; the cards are in initiative.py).

"The Offensive players conducting torpedo attacks select target ships, and then roll
3D6 against each targeted ship. No more than one attack per target ship. Defending
ships may expend CPs and roll dice up to their maximum movement points. Compare the
single highest dice from each side after any Admiral bonuses are applied. If the
attacker has the highest single dice, then the target ship loses 2 CPs in damage and
receives 2 flooding hits. If the defender has the highest dice, the attack misses. If
the Defensive player spends no CPs on defense, torpedoes only miss if three 1's are
rolled. No other Action Phases occur that turn, and both sides move to the Repair
Phase."

Rulings: R-TORP-2..7 (counter-torpedo dice count as movement; ties miss; up to the
number of attacks; the undefended die takes no Admiral bonus; when it is asked).
"""

from __future__ import annotations

from typing import Sequence

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.tsushima_1905.answers import Count, Kind, Targets
from adjudicator.games.tsushima_1905.rules.combat_points import check_fate, pay_combat, settle, stake
from adjudicator.games.tsushima_1905.state import ACTIVE, Ship, other
from adjudicator.games.tsushima_1905.rules.table import Steps, Table
from adjudicator.games.tsushima_1905.words import counted, phrase, some, spaced, Worded
from adjudicator.i18n import N_


def ask_targets(table: Table, offense: str, attacks: int) -> Steps:
    enemies = [s for s in table.state.ships.values() if s.side != offense and s.status == ACTIVE]

    def check(answer: Targets) -> list[Ship]:
        ships = [table.resolve(name, enemies) for name in answer.ships]
        if len({s.name for s in ships}) != len(ships):
            raise IllegalAnswer("no more than one torpedo attack per target ship")
        if len(ships) > attacks:
            raise IllegalAnswer(f"{len(ships)} targets named, but only {counted(attacks, 'torpedo attack')} allowed")
        return ships

    targets = yield from table.ask(offense, Kind.TORPEDO_TARGETS,
                                   {"attacks": attacks, "ships": [s.name for s in enemies]},
                                   Worded(N_("Name up to {} for the torpedo attacks."),
                                          counted(attacks, "enemy ship")), check)
    return targets


def counter_torpedo_most(table: Table, ship: Ship) -> int:
    """Counter-torpedo dice allowed: movement points left this turn, within the Bank."""
    return max(0, min(table.cls(ship).max_movement - ship.used_move, ship.bank))


def ask_counter(table: Table, ship: Ship) -> Steps:
    """Asked only when the target could roll a die (R-TORP-6)."""
    most = counter_torpedo_most(table, ship)
    if most <= 0:
        return 0

    def check(count: Count) -> int:
        if count.ship and table.resolve(count.ship, [ship]) is not ship:
            raise IllegalAnswer(f"the question is about {ship.name}")
        if count.dice > most:
            raise IllegalAnswer(f"{ship.name} may roll at most {most} counter-torpedo dice, not {count.dice}")
        return count.dice

    dice = yield from table.ask(ship.side, Kind.COUNTER_TORPEDO, {"ship": ship.name, "max": most},
                                Worded(N_("Torpedoes at {}: how many counter-torpedo dice (0-{})?"), ship.name, most),
                                check)
    return dice


def torpedo_phase(table: Table) -> Steps:
    """The torpedo attacks, one target at a time in the order named."""
    rules = table.data.rules["torpedo"]
    offense = table.state.offense
    targets = yield from ask_targets(table, offense, table.state.torpedo_attacks)
    for target in targets:
        if target.status != ACTIVE:
            continue
        defence = yield from ask_counter(table, target)
        stake(target, defence)
        target.used_move += defence
        attack = yield from table.roll(int(rules["attack_dice"]), f"torpedo {target.name}", offense)
        counter = yield from table.roll(defence, f"counter-torpedo {target.name}", target.side)
        best_attack = max(attack) + table.bonus(offense, "offense")
        if counter:
            best_defence = max(counter) + table.bonus(other(offense), "defense")
        else:
            best_defence = int(rules["undefended_die"])
        hit = best_attack > best_defence
        if hit:
            pay_combat(table, target, int(rules["hit_cp"]))
            target.floods += int(rules["hit_floods"])
        settle(target)
        table.say("torpedo", *torpedo_told(table, target, attack, counter, best_attack, best_defence, hit),
                  target=target.name, attack=list(attack), defence=list(counter), hit=hit,
                  attack_bonus=table.bonus(offense, "offense"),
                  defence_bonus=table.bonus(other(offense), "defense") if counter else 0)
        table.state.log.append({"kind": "torpedo", "target": target.name, "hit": hit, "at": [target.x, target.y]})
        check_fate(table, target)


def torpedo_told(table: Table, target: Ship, attack: Sequence[int], counter: Sequence[int], best_attack: int,
                 best_defence: int, hit: bool) -> tuple:
    """A torpedo attack in words: every die, the Admirals' +1, the two highest
    compared (the narrative's template and its values)."""
    rules = table.data.rules["torpedo"]
    offense = table.state.offense
    bonus = table.bonus(offense, "offense")
    attack_bonus = phrase(N_(", Admiral +{}"), bonus) if bonus else ""
    if counter:
        guard = table.bonus(other(offense), "defense")
        defence = phrase(N_("; {} rolled {}{}"), counted(len(counter), "counter-torpedo die"), spaced(counter),
                         phrase(N_(", Admiral +{}"), guard) if guard else "")
    else:
        defence = phrase(N_("; no counter-torpedo dice (undefended)"))
    result = (phrase(N_("a hit: {} lost and {}"), counted(int(rules["hit_cp"]), "CP"),
                     some(int(rules["hit_floods"]), "flood")) if hit else phrase(N_("a miss")))
    return (N_("Torpedoes at {}: attack rolled {}{}{}. Highest {} v {}: {}."), target.name, spaced(attack),
            attack_bonus, defence, best_attack, best_defence, result)
