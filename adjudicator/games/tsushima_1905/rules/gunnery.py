"""Rulebook, "Gunnery" (with the armour dice and hits).

"All ships are considered to be within gunnery range at all times. Ships roll 1D6 for
gunnery fire off the bow or stern (plus or minus 45 degrees), and up to 2D6 for
broadside fire (plus or minus 45 degrees of the beam). Battleships may fire an
additional secondary battery broadside for a total of 3D6. Ships may not fire over
interposing ships, including abandoned or surrendered ships. Each dice rolled costs
1 CP. Due to the excellence of Japanese gunners, Japanese battleships may re-roll once
any 1's."

"Targeted ships automatically 'roll' free (no CP cost) imaginary armor dice equal to
the number of attacking dice rolled. These default dice always have a value of 1. The
target ship may chose to roll real dice in place of the default dice up to their
armor/defensive point maximum; each real dice rolled costs 1 CP. Each player's highest
dice are paired and compared after adding any Admiral bonuses; if the attacker's is
greater, the defender is hit and surrenders 1 CP. Ties are scored as misses. If the
winning dice is greater by 4 or more, a critical hit has occurred. Roll 1D6 again, 1-4
indicates a fire, 5-6 flooding. ... Compare the next highest dice, real or imaginary,
in similar fashion."

Rulings: R-FIRE-1..7, R-GEO-3/4, R-CARD-6, R-CP-1/2, R-FATE-1 (the procedure of §1.10).
R-FIRE-2: "(1 battery forward or aft, 3 broadside)": one target per activation, dice
by that target's arc; with the campaign option ``split_fire``, one target per arc
(each battery its own target), the dice of all salvos within the gunnery maximum.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import Any, Callable, Sequence

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Event, value_in_words
from adjudicator.games.tsushima_1905.answers import Count, Fire, Kind
from adjudicator.games.tsushima_1905.geometry import ARCS, BOW, STERN, Pose
from adjudicator.games.tsushima_1905.rules.combat_points import falls, pay_combat, settle, stake, tell_fate
from adjudicator.games.tsushima_1905.state import ACTIVE, JAPAN, ON_TABLE, Ship
from adjudicator.games.tsushima_1905.rules.table import Steps, Table
from adjudicator.games.tsushima_1905.words import counted, listed, some, spaced, Worded
from adjudicator.i18n import N_, N_plural


@dataclass(frozen=True, slots=True)
class Salvo:
    """A checked salvo: the target, the dice, and the arc (battery) that fires them."""

    target: Ship
    dice: int
    arc: str


def dice_in_arc(table: Table, firer: Ship, arc: str) -> int:
    """"1D6 ... off the bow or stern", "up to 2D6 for broadside fire" (3D6 for battleships)."""
    cls = table.cls(firer)
    return cls.dice_end_arc if arc in (BOW, STERN) else cls.dice_broadside


def arc_limit(table: Table, firer: Ship, pose: Pose, target: Ship) -> int:
    """The most dice the firer's arcs allow at ``target``, line of fire aside.

    A target on a 45-degree line is in two arcs, and the firer uses either (R-FIRE-1)."""
    arcs = table.geo.arcs_of(pose, (target.x, target.y))
    return max((dice_in_arc(table, firer, arc) for arc in arcs), default=0)


def bases_on_table(table: Table) -> list[tuple[str, tuple[int, int, int]]]:
    """Every base that can interpose, as (name, (x, y, heading)): surrendered and
    abandoned ships included (R-GEO-4)."""
    return [(s.name, (s.x, s.y, s.heading)) for s in table.state.ships.values() if s.status in ON_TABLE]


def line_clear(table: Table, firer: Ship, pose: Pose, target: Ship,
               bases: list[tuple[str, tuple[int, int, int]]] | None = None) -> bool:
    """No other base on the table touches the centre-to-centre line (R-GEO-3, R-GEO-4)."""
    return not table.geo.line_blocked_by((pose.x, pose.y), (target.x, target.y),
                                         bases if bases is not None else bases_on_table(table),
                                         (firer.name, target.name))


def arc_dice(table: Table, firer: Ship, pose: Pose, target: Ship) -> int:
    """The most dice the firer may roll at ``target`` from ``pose`` (0: no line of fire)."""
    most = arc_limit(table, firer, pose, target)
    return most if most and line_clear(table, firer, pose, target) else 0


def gun_dice_left(table: Table, firer: Ship, bank: int) -> int:
    """The gunnery points left this turn, within the Bank (R-CP-1)."""
    return max(0, min(table.cls(firer).max_gunnery - firer.used_gun, bank))


def check_fire(table: Table, firer: Ship, pose: Pose, fire: Fire, bank: int) -> Ship:
    """The target of a legal fire order from ``pose`` with ``bank`` CPs left, or IllegalAnswer."""
    target = check_target(table, firer, pose, fire)
    most = arc_limit(table, firer, pose, target)
    if fire.dice > most:
        arcs = table.geo.arcs_of(pose, (target.x, target.y))
        raise IllegalAnswer(f"{target.name} is in {firer.name}'s {' and '.join(arcs)} arc: at most {most} "
                            f"dice, not {fire.dice}")
    left = gun_dice_left(table, firer, bank)
    if fire.dice > left:
        raise IllegalAnswer(f"{firer.name} may roll {left} more gunnery dice this turn (gunnery maximum, "
                            f"Bank), not {fire.dice}")
    return target


def check_target(table: Table, firer: Ship, pose: Pose, fire: Fire) -> Ship:
    """An enemy ship in action with a clear line of fire from ``pose``, or IllegalAnswer."""
    target = table.resolve(fire.target, [s for s in table.state.ships.values() if s.side != firer.side])
    if target.status != ACTIVE:
        raise IllegalAnswer(f"{target.name} is {target.status}: it can no longer be targeted (R-FATE-2)")
    if arc_dice(table, firer, pose, target) == 0:
        raise IllegalAnswer(f"{firer.name} has no line of fire to {target.name}: an interposing ship blocks it")
    return target


def check_salvos(table: Table, firer: Ship, pose: Pose, fire: Sequence[Fire], bank: int) -> list[Salvo]:
    """The salvos of a legal fire answer, each with its arc, or IllegalAnswer (R-FIRE-2).

    Without ``split_fire``: at most one target. With it: one target per arc -- distinct
    targets, each in an arc of its own (an arc named in the answer is kept), each
    within that arc's dice, all of them within the gunnery points left and the Bank."""
    if not fire:
        return []
    if len(fire) > 1 and not table.options.split_fire:
        raise IllegalAnswer(f"{firer.name} fires at {len(fire)} targets: one target per activation (R-FIRE-2); "
                            f"the campaign option split_fire allows one target per arc")
    if not table.options.split_fire and not fire[0].arc:
        target = check_fire(table, firer, pose, fire[0], bank)
        return [Salvo(target, fire[0].dice, _arc_for(table, firer, pose, target, fire[0].dice))]
    targets = [check_target(table, firer, pose, salvo) for salvo in fire]
    named = [t.name for t in targets]
    twice = sorted({n for n in named if named.count(n) > 1})
    if twice:
        raise IllegalAnswer(f"{firer.name} fires more than one salvo at {', '.join(twice)}: one target per arc, "
                            f"each target once (R-FIRE-2, split_fire)")
    total, left = sum(s.dice for s in fire), gun_dice_left(table, firer, bank)
    if total > left:
        raise IllegalAnswer(f"{firer.name} may roll {left} more gunnery dice this turn (gunnery maximum, "
                            f"Bank), not {total}")
    arcs = [table.geo.arcs_of(pose, (t.x, t.y)) for t in targets]
    for assignment in permutations(ARCS, len(fire)):
        if all(arc in held and (not salvo.arc or salvo.arc == arc) and salvo.dice <= dice_in_arc(table, firer, arc)
               for arc, held, salvo in zip(assignment, arcs, fire)):
            return [Salvo(t, s.dice, arc) for t, s, arc in zip(targets, fire, assignment)]
    where = "; ".join(f"{t.name} {s.dice} dice in the {' or '.join(held)} arc"
                      for t, s, held in zip(targets, fire, arcs))
    dice = table.cls(firer)
    ends = f"{dice.dice_end_arc} {'die' if dice.dice_end_arc == 1 else 'dice'}"
    raise IllegalAnswer(f"{firer.name} cannot give each salvo an arc of its own within its dice ({where}): "
                        f"one target per arc, {ends} from the bow or stern, "
                        f"{dice.dice_broadside} from a beam (R-FIRE-2)")


def _arc_for(table: Table, firer: Ship, pose: Pose, target: Ship, dice: int) -> str:
    """The arc that fires a salvo of ``dice``: the first in bow, starboard, stern, port
    order that holds the target and allows the dice (R-FIRE-1: either, on a 45° line)."""
    arcs = table.geo.arcs_of(pose, (target.x, target.y))
    return next(arc for arc in arcs if dice <= dice_in_arc(table, firer, arc))


def armour_left(table: Table, target: Ship) -> int:
    cls = table.cls(target)
    used = 0 if table.options.armour_caps == "per-attack" else target.used_armor
    return max(0, cls.max_armor - used)


def ask_armour(table: Table, target: Ship, attack_dice: int) -> Steps:
    """The target's real armour dice, chosen before any die is rolled (R-FIRE-3);
    not asked when it has no choice (no Bank CP or no armour point left)."""
    most = min(attack_dice, armour_left(table, target), target.bank)
    if most <= 0:
        return 0

    def check(count: Count) -> int:
        if count.dice > most:
            raise IllegalAnswer(f"{target.name} may roll at most {most} real armour dice here "
                                f"(attack dice, armour points left this turn, Bank), not {count.dice}")
        return count.dice

    dice = yield from table.ask(target.side, Kind.ARMOR, {"ship": target.name, "attack_dice": attack_dice,
                                                          "max": most},
                                Worded(N_("{} is fired at with {} dice: how many real armour dice (0-{})?"),
                                       target.name, attack_dice, most), check)
    return dice


def roll_attack(table: Table, firer: Ship, count: int) -> Steps:
    """The attack dice, and a Japanese battleship's re-roll of each 1 (R-FIRE-5):
    the dice as rolled, the re-rolls (one per natural 1, in order), and the dice that
    stand."""
    natural = tuple((yield from table.roll(count, f"gunnery {firer.name}", firer.side)))
    dice, again = list(natural), ()
    rerolls_ok = table.data.rules["gunnery"]["japanese_battleship_reroll_ones"]
    if rerolls_ok and firer.side == JAPAN and firer.ship_class == "battleship":
        ones = [i for i, d in enumerate(dice) if d == 1]
        again = tuple((yield from table.roll(len(ones), f"re-roll of 1s {firer.name}", firer.side)))
        for i, value in zip(ones, again):
            dice[i] = value
    return natural, again, dice


@dataclass(frozen=True, slots=True)
class Pair:
    """One pair of a salvo as compared: the two values (Admirals' +1 included), and
    what came of it: "hit", "miss", or "not compared" (the target was out of action);
    a critical's die and effect ("fire" or "flood")."""

    attack: int
    armour: int
    result: str
    critical_die: int = 0
    effect: str = ""

    def in_words(self, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> str:
        if self.result != "hit":
            return gettext(MISSED[self.result]).format(self.attack, self.armour)
        if not self.critical_die:
            return gettext(N_("{} v {} hit")).format(self.attack, self.armour)
        return gettext(CRITICAL[self.effect]).format(self.attack, self.armour, self.critical_die)


MISSED = {"miss": N_("{} v {} miss"), "not compared": N_("{} v {} not compared")}
CRITICAL = {"fire": N_("{} v {} hit and critical (die {}: fire)"),
            "flood": N_("{} v {} hit and critical (die {}: flood)")}
#: The salvo's first sentence, by the arc that fired (none named but under split_fire).
FIRES = {"": N_("{} fires {} at {}."), "bow": N_("{} fires {} from its bow arc at {}."),
         "stern": N_("{} fires {} from its stern arc at {}."), "port": N_("{} fires {} from its port arc at {}."),
         "starboard": N_("{} fires {} from its starboard arc at {}.")}
#: The narrative's template of a salvo: the salvo writes itself (:meth:`SalvoTale.in_words`).
SALVO = "{}"


def _english(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


@dataclass(frozen=True, slots=True)
class SalvoTale:
    """A salvo told in words, written only when a report reads it (rulings §4.4:
    every attack die, re-roll, armour die, pair, hit and critical), in the reader's
    language (:meth:`in_words`; ``str()`` is the English)."""

    firer: str
    target: str
    arc: str                # the arc that fired under split_fire, else ""
    natural: tuple[int, ...]
    rerolled: tuple[int, ...]
    attack_bonus: int
    real: tuple[int, ...]
    defaults: int
    default_value: int
    armour_bonus: int
    default_bonus: int
    pairs: tuple[Pair, ...]

    def in_words(self, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> str:
        def said(template: str, *values: Any) -> str:
            return gettext(template).format(*(value_in_words(value, gettext, ngettext) for value in values))

        count = len(self.natural)
        attack = said(N_("Attack: rolled {}"), spaced(self.natural))
        if self.rerolled:
            attack += said(N_(", the 1 re-rolled: {}") if len(self.rerolled) == 1 else N_(", the 1s re-rolled: {}"),
                           spaced(self.rerolled))
        if self.attack_bonus:
            attack += said(N_(", Admiral +{}"), self.attack_bonus)
        parts = []
        if self.real:
            parts.append(said(N_("{} rolled {}"), counted(len(self.real), "real die"), spaced(self.real)))
            if self.armour_bonus and not self.default_bonus:
                parts[-1] += said(N_(" (Admiral +{})"), self.armour_bonus)
        if self.defaults:
            parts.append(ngettext(*DEFAULT_DICE, self.defaults).format(self.defaults, self.default_value))
        armour = said(N_("Armour: {}"), listed(parts))
        if self.default_bonus:
            armour += said(N_(", Admiral +{}"), self.armour_bonus)
        hits = sum(1 for pair in self.pairs if pair.result == "hit")
        effects = [e for e in ("fire", "flood") if any(p.effect == e for p in self.pairs)]
        outcome = str(value_in_words(counted(hits, "hit"), gettext, ngettext)) if hits else gettext(N_("No hit"))
        if effects:
            outcome += ", " + listed([some(sum(1 for p in self.pairs if p.effect == e), e)
                                      for e in effects]).in_words(gettext, ngettext)
        pairs = said(N_("Pairs: {}") if count > 1 else N_("Pair: {}"),
                     "; ".join(pair.in_words(gettext, ngettext) for pair in self.pairs))
        return (said(FIRES[self.arc], self.firer, counted(count, "die"), self.target)
                + f" {attack}. {armour}. {pairs}. {outcome}.")

    def __str__(self) -> str:
        return self.in_words(str, _english)


#: "1 default 4", "2 default 4s": the armour dice a player did not roll.
DEFAULT_DICE = N_plural("{} default {}", "{} default {}s")


def resolve_fire(table: Table, firer: Ship, target: Ship, count: int, arc: str = "") -> Steps:
    """The whole salvo: stake, armour, dice, pairs, hits, criticals, fates (§1.10).
    Under ``split_fire`` the narrative and the log name the arc that fired. The salvo
    is told before the fate it brought (R-FATE-1: the fate is checked after each pair)."""
    rules = table.data.rules["gunnery"]
    stake(firer, count)
    firer.used_gun += count
    real = yield from ask_armour(table, target, count)
    stake(target, real)
    target.used_armor += real
    natural, rerolled, attack = yield from roll_attack(table, firer, count)
    armour = tuple((yield from table.roll(real, f"armour {target.name}", target.side)))
    attack_bonus = table.bonus(firer.side, "offense")
    armour_bonus = table.bonus(target.side, "defense")
    default_bonus = armour_bonus if table.options.admiral_on_default_dice else 0
    default_die = int(rules["default_armour_die"])
    attack_values = sorted((d + attack_bonus for d in attack), reverse=True)
    armour_values = sorted([d + armour_bonus for d in armour]
                           + [default_die + default_bonus] * (count - real), reverse=True)
    hits = criticals = 0
    effects = []
    pairs = []
    fallen = False
    for a, d in zip(attack_values, armour_values):
        if target.status != ACTIVE:
            pairs.append(Pair(a, d, "not compared"))
            continue
        if a <= d:
            pairs.append(Pair(a, d, "miss"))
            continue
        hits += 1
        pay_combat(table, target, int(rules["hit_cp"]))
        pair = Pair(a, d, "hit")
        if a - d >= int(rules["critical_margin"]):
            criticals += 1
            (die,) = yield from table.roll(1, f"critical {target.name}", firer.side)
            if die in rules["critical_fire"]:
                target.fires += 1
                effects.append("fire")
            else:
                target.floods += 1
                effects.append("flood")
            pair = Pair(a, d, "hit", die, effects[-1])
        pairs.append(pair)
        fallen = fallen or falls(target)
    settle(firer)
    settle(target)
    battery = arc if arc and table.options.split_fire else ""
    tale = SalvoTale(firer.name, target.name, battery, natural, rerolled, attack_bonus, armour, count - real,
                     default_die, armour_bonus, default_bonus, tuple(pairs))
    extra = {"arc": arc} if battery else {}
    table.narrate(Event.later("fire", SALVO, (tale,), dict(
        ship=firer.name, target=target.name, dice=count, natural=list(natural), rerolled=list(rerolled),
        attack_bonus=attack_bonus, real=list(armour), armour_bonus=armour_bonus, default_bonus=default_bonus,
        attack=attack_values, armour=armour_values,
        pairs=[[p.attack, p.armour, p.result, p.critical_die, p.effect] for p in pairs],
        hits=hits, criticals=criticals, effects=effects, **extra)))
    table.state.log.append({"kind": "fire", "ship": firer.name, "target": target.name, "dice": count,
                            "hits": hits, "effects": effects, "from": [firer.x, firer.y], "to": [target.x, target.y]}
                           | extra)
    if fallen:
        tell_fate(table, target)
