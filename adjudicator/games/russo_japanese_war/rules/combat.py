"""9.0 Combat and 10.4.5 the events that affect combat results.

9.1-9.3: at the start of his Combat Phase the attacker declares every attack (each unit
once, each target hex once, A10: attackers exert their ZOC into the target); they are
resolved one at a time in the declared order, each re-checked at its turn (A17).
9.4-9.5: strengths, terrain (all attackers across a river +1, A54; wasteland +1; town +1),
one support card (+1), the combat events; below −1: NE without a die (A18); a result fixed
by #09/#10 stands (A57); above +5: the +5 column.
10.4.5 / A30: two exchanges of events per combat, before and after the roll; the
attacker decides first; any pass closes the exchange except the attacker's opening pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Phrase
from adjudicator.games.russo_japanese_war.answers import Kind
from adjudicator.games.russo_japanese_war.data import RESULTS, other
from adjudicator.games.russo_japanese_war.hexmap import OFF_MAP
from adjudicator.games.russo_japanese_war.rules.results import apply_result
from adjudicator.games.russo_japanese_war.rules.table import in_forced_march
from adjudicator.games.russo_japanese_war.rules.zoc import exerts_zoc_into
from adjudicator.i18n import N_

BEFORE, AFTER = "before_roll", "after_roll"


def targets(t, side: str) -> dict[str, list[str]]:
    """Hexes holding enemy units into which ``side``'s units exert a ZOC, with the units."""
    found: dict[str, list[str]] = {}
    units = t.units
    stacks = t._stacks()
    enemy = other(side)
    neighbours = t.board.land_neighbours
    for uid in t.side_units(side):
        unit = units[uid]
        if unit["at"] in OFF_MAP or unit.get("zoc_lost"):
            continue
        for hex_ in neighbours.get(unit["at"], ()):
            occupants = stacks.get(hex_)
            if occupants and units[occupants[0]]["side"] == enemy:      # t.side_in(hex_)
                found.setdefault(hex_, []).append(uid)
    return found


def parse_declarations(t, side: str, answer: Mapping[str, Any]) -> list[dict]:
    declare = answer.get("declare")
    if not isinstance(declare, list):
        raise IllegalAnswer("declare = [{ target = \"1214\", with = [\"Gds\", \"2\"] }, ...], or [] for no attack")
    used_units: set[str] = set()
    used_targets: set[str] = set()
    combats = []
    for entry in declare:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("target"), str) \
                or not isinstance(entry.get("with"), list) or not entry["with"]:
            raise IllegalAnswer(f"each attack names a target hex and the units attacking it: {entry!r}")
        target, units = entry["target"], list(entry["with"])
        if target in used_targets:
            raise IllegalAnswer(f"{target} is attacked twice: a target hex is attacked once per Combat Phase (9.1)")
        if t.side_in(target) != other(side):
            raise IllegalAnswer(f"{target} holds no enemy unit")
        used_targets.add(target)
        for uid in units:
            if uid not in t.units or t.side_of(uid) != side:
                raise IllegalAnswer(f"{uid!r} is not a {side.capitalize()} unit")
            if uid in used_units:
                raise IllegalAnswer(f"{uid} attacks twice: each unit attacks once per Combat Phase (9.1)")
            if not exerts_zoc_into(t, uid, target):
                raise IllegalAnswer(f"{uid} does not exert its ZOC into {target} (9.1, A10)")
            used_units.add(uid)
        combats.append({"target": target, "with": units})
    return combats


def combat_phase(t):
    """9.3: declare every attack at the start of the phase, then resolve them in order."""
    side = t.phasing
    options = targets(t, side)
    if not options:
        return
    declarations = yield from t.ask(side, Kind.ATTACKS, {"targets": options, "forced": in_forced_march(t.s)},
                                    Phrase("{} Combat Phase: declare every attack (target hex and units), in "
                                           "the order of resolution", side.capitalize()),
                                    lambda answer: {"declare": parse_declarations(t, side, answer)})
    for combat in declarations["declare"]:
        yield from resolve(t, side, combat["target"], combat["with"])


# -- one combat -----------------------------------------------------------------------------

def resolve(t, attacker: str, target: str, declared: list[str]):
    defender = other(attacker)
    attackers = [uid for uid in declared if t.side_of(uid) == attacker and exerts_zoc_into(t, uid, target)]
    defenders = [uid for uid in t.occupants(target) if t.side_of(uid) == defender]
    record: dict[str, Any] = {"target": target}
    t.s["combats"].append(record)
    t.s["last_combat"] = record
    if not attackers or not defenders:
        record["result"] = "cancelled"
        t.say("combat", "The attack on {} is cancelled: no attacker or no defender left (A17).", target,
              target=target)
        return
    combat = {"attacker": attacker, "defender": defender, "target": target, "attackers": attackers,
              "support": 0, "bonus_cards": [], "ignore": [], "fixed": None, "die": None, "result": None}
    yield from support(t, combat)
    yield from exchange(t, combat, BEFORE)
    differential = compute_differential(t, combat)
    record["differential"] = differential
    line = combat_strengths(t, combat)
    if combat["fixed"]:
        combat["result"] = combat["fixed"]
        t.say("combat", "{}: {}, result fixed by {}: {}.", line, f"{differential:+d}", combat["fixed_by"],
              combat["result"], target=target, differential=differential, result=combat["result"], **line.data())
    elif differential < t.data.numbers.min_differential:
        record["result"] = "NE"
        t.say("combat", "{}: {}, below {}: no effect (9.5).", line, f"{differential:+d}",
              f"{t.data.numbers.min_differential:+d}", target=target, differential=differential, result="NE",
              **line.data())
        return
    else:
        column = min(differential, t.data.numbers.max_column)
        (die,) = yield from t.roll(1, f"combat at {target}", attacker)
        combat["die"] = die
        combat["column"] = column
        record["column"] = column
        combat["result"] = t.crt.read(column, die)
        t.say("combat", "{}: {}, column {}, die {}: {}.", line, f"{differential:+d}", f"{column:+d}", die,
              combat["result"], target=target, differential=differential, die=die, result=combat["result"],
              **line.data())
    yield from exchange(t, combat, AFTER)
    record["result"] = combat["result"]
    if "column" in combat:                        # A63: after a re-read, the re-read figures
        record["column"] = combat["column"]
    else:
        record.pop("column", None)
    record["differential"] = combat.get("differential", differential)
    yield from apply_result(t, combat)


def terrain(t, combat: dict) -> list[tuple[str, int]]:
    """9.4.1: the defence's terrain modifiers -- all attackers across a river +1 (A54),
    wasteland +1, town +1 -- less what an event makes the defender lose (``ignore``)."""
    target = combat["target"]
    board = t.board
    found = []
    if "river" not in combat["ignore"] and all(board.river_between(t.at(uid), target) for uid in combat["attackers"]):
        found.append(("river", 1))
    if "wasteland" not in combat["ignore"] and target in board.wasteland:
        found.append(("wasteland", 1))
    if target in board.towns:
        found.append(("town", 1))
    return found


def compute_differential(t, combat: dict) -> int:
    """9.4: the attack's strengths less the defence's (:func:`combat_strengths`), kept as
    the combat's differential."""
    combat["differential"] = combat_strengths(t, combat).differential
    return combat["differential"]


def support(t, combat: dict):
    """9.4.2 / 10.2.2: the attacker may discard one card for +1; the defender cannot."""
    side = combat["attacker"]
    hand = t.hand(side)
    if not hand:
        return

    def parse(answer: Mapping[str, Any]) -> dict:
        if answer.get("pass") is True:
            return {"pass": True}
        card = answer.get("card")
        if card not in hand:
            raise IllegalAnswer(f"{card!r} is not a card in the {side.capitalize()} hand ({', '.join(hand)})")
        return {"card": card}

    answer = yield from t.ask(side, Kind.SUPPORT, {"hand": list(hand), "target": combat["target"],
                                                   "attackers": list(combat["attackers"]),
                                                   "forced": in_forced_march(t.s),
                                                   "differential": compute_differential(t, combat)},
                              Phrase("Attack on {}: discard a card for +1 (attack support, 9.4.2), or pass",
                                     combat["target"]),
                              parse)
    if "card" in answer:
        t.discard(side, answer["card"], Phrase("attack support on {}", combat["target"]))
        combat["support"] = t.data.numbers.support_value


# -- 10.4.5 the exchange of combat events --------------------------------------------------

def role(combat: dict, side: str) -> str:
    return "attacker" if side == combat["attacker"] else "defender"


def condition_holds(t, condition: str, side: str, combat: dict) -> bool:
    """The card's condition (cards.toml ``condition``) for ``side`` in this combat."""
    text = condition.lower()
    if "garrison defends" in text:                # A61: Kondratenko in a combat
        return any("back" in t.units[uid] for uid in t.occupants(combat["target"])
                   if t.side_of(uid) == combat["defender"])
    if "port arthur" in text and combat["target"] != t.board.port_arthur():
        return False
    if "take part" in text or "attack or defend" in text:
        return True
    if "defend" in text:
        if role(combat, side) != "defender":
            return False
        return "key location" not in text or combat["target"] in t.board.key_locations
    if "attack" in text:
        return role(combat, side) == "attacker"
    return True


def playable_events(t, side: str, combat: dict, window: str, answering: bool) -> list[str]:
    """The events ``side`` may play at its turn in this exchange (10.4.5, A30, A55)."""
    playable = []
    for card in t.hand(side):
        half = t.data.half(card, side)
        if half is None:
            continue
        if half.forbidden_when == "pa_fleet_cannot_sortie" and t.s["barred"]:
            continue
        if half.effect.get("kind") == "take_top_discard":
            if answering and side == t.phasing and t.cards["discard"] and "own_player_turn" in half.timing:
                playable.append(card)
            continue
        if window in half.timing and condition_holds(t, half.condition, side, combat):
            playable.append(card)
    return playable


def exchange(t, combat: dict, window: str):
    """A30: the attacker may play or pass; after his opening pass the defender may play or
    pass; after a play the other side may answer; any other pass closes the exchange. A side
    with nothing playable is not asked and passes."""
    side = combat["attacker"]
    last_play: str | None = None
    last_card: str | None = None
    while True:
        answering = last_play is not None and last_play != side
        playable = playable_events(t, side, combat, window, answering)
        card = None
        if playable:
            card = yield from ask_event(t, side, combat, window, playable, last_card if answering else None)
        if card is None:
            if last_play is None and side == combat["attacker"]:
                side = combat["defender"]
                continue
            return
        play_combat_event(t, side, card, combat)
        last_play, last_card = side, card
        side = other(side)


def ask_event(t, side: str, combat: dict, window: str, playable: list[str], answering: str | None = None):
    """Ask ``side`` for a combat event; ``answering``: the event the opponent has just
    played in this exchange (for orders that answer it)."""
    def parse(answer: Mapping[str, Any]) -> dict:
        if answer.get("pass") is True:
            return {"pass": True}
        card = answer.get("card")
        if card not in playable:
            held = card in t.hand(side)
            raise IllegalAnswer(f"{card!r} cannot be played now" + (" (not in hand)" if not held else
                                f"; playable: {', '.join(playable)}"))
        return {"card": card}

    when = N_("before the die") if window == BEFORE else N_("after the die")
    # A68: the combat's current differential (after support and every strength event), for both sides
    answer = yield from t.ask(side, Kind.COMBAT_EVENT, {"playable": playable, "window": window,
                                                        "target": combat["target"], "result": combat["result"],
                                                        "role": role(combat, side), "answering": answering,
                                                        "differential": compute_differential(t, combat)},
                              Phrase("Attack on {} ({}): play a combat event, or pass", combat["target"], when),
                              parse)
    return answer.get("card")


def shift(result: str, favour_attacker: bool, steps: int) -> str:
    """Move a result along the ladder DE-EX-DR-NE-AR-AE (cards.toml ``result_shift``)."""
    index = RESULTS.index(result) + (-steps if favour_attacker else steps)
    return RESULTS[max(0, min(len(RESULTS) - 1, index))]


def play_combat_event(t, side: str, card: str, combat: dict) -> None:
    half = t.data.half(card, side)
    effect = half.effect
    kind = effect["kind"]
    if kind == "take_top_discard":
        t.take_top_discard(side, card)
        return
    t.discard(side, card, N_("a combat event"))
    if kind == "combat_set_result":
        combat["fixed"] = effect["result"]
        combat["fixed_by"] = half.name
    elif kind == "combat_strength":
        combat["bonus_cards"].append((half.name, int(effect["amount"])))
    elif kind == "combat_ignore_terrain":
        combat["ignore"] = list(effect["ignore"])
        combat["ignored_by"] = half.name
    elif kind == "result_shift":
        combat["result"] = shift(combat["result"], role(combat, side) == "attacker", int(effect["steps"]))
    elif kind == "replace_result":
        combat["result"] = effect["map"].get(combat["result"], combat["result"])
    elif kind == "flip_unit":
        from adjudicator.games.russo_japanese_war.rules.card_play import flip_garrison
        flip_garrison(t, effect)
        if effect.get("reread") and combat["die"] is not None and not combat["fixed"]:
            differential = compute_differential(t, combat)
            if differential < t.data.numbers.min_differential:
                combat["result"] = "NE"
                combat.pop("column", None)
            else:
                combat["column"] = min(differential, t.data.numbers.max_column)
                combat["result"] = t.crt.read(combat["column"], combat["die"])
    if combat["result"]:
        t.say("combat-event", "{} plays {} ({}): the result is now {}.", side.capitalize(), half.name,
              half.text.rstrip("."), combat["result"], card=card, side=side)
    else:
        t.say("combat-event", "{} plays {} ({}).", side.capitalize(), half.name, half.text.rstrip("."),
              card=card, side=side)


# -- narration: the combat line of a report ---------------------------------------------------

#: The combat line's words (:class:`CombatStrengths`), marked for the catalogue.
ATTACK_LINE = N_("Attack on {} ({}): {} {} = {} against {} {} = {}{}")
SUPPORT = N_("support {}")
TERRAIN_WORDS = (N_("clear"), N_("wasteland"), N_("town"), N_("river"))


def _as_written(message: str) -> str:
    return message


def _in_words(text: str, gettext: Callable[[str], str]) -> str:
    return text.in_words(gettext) if hasattr(text, "in_words") else text


@dataclass(frozen=True)
class CombatStrengths:
    """9.4: what the differential is made of -- each attacking and defending unit's
    strength, the support card, the strength events, the terrain (and what an event made the
    defender lose) -- written out only when a report reads the combat's line."""

    target: str
    place: str
    attacker: str
    attackers: tuple[tuple[str, int], ...]
    support: int
    cards: tuple[tuple[str, int], ...]
    defender: str
    defenders: tuple[tuple[str, int], ...]
    terrain: tuple[tuple[str, int], ...]
    ignored: str

    def __format__(self, spec: str) -> str:
        return self.in_words(_as_written)

    def in_words(self, gettext: Callable[[str], str], ngettext: Callable[..., str] | None = None) -> str:
        """The combat's line in the language of ``gettext`` (the units, the cards and the
        place's name as written; the terrain's words and the sides' names translated)."""
        attack = [f"{uid} ({value})" for uid, value in self.attackers]
        if self.support:
            attack.append(gettext(SUPPORT).format(self.support))
        attack += [f"{name} {value}" for name, value in self.cards]
        defence = [f"{uid} ({value})" for uid, value in self.defenders]
        defence += [f"{gettext(kind)} {value}" for kind, value in self.terrain]
        ignored = f" ({_in_words(self.ignored, gettext)})" if self.ignored else ""
        place = ", ".join(gettext(part) if part in TERRAIN_WORDS else part for part in self.place.split(", "))
        return gettext(ATTACK_LINE).format(self.target, place, gettext(self.attacker.capitalize()),
                                           " + ".join(attack), self.attack, gettext(self.defender.capitalize()),
                                           " + ".join(defence), self.defence, ignored)

    @property
    def attack(self) -> int:
        return sum(v for _, v in self.attackers) + self.support + sum(v for _, v in self.cards)

    @property
    def defence(self) -> int:
        return sum(v for _, v in self.defenders) + sum(v for _, v in self.terrain)

    @property
    def differential(self) -> int:
        return self.attack - self.defence

    def data(self) -> dict:
        return {"attack": [list(pair) for pair in self.attackers], "support": self.support,
                "cards": [list(pair) for pair in self.cards], "defence": [list(pair) for pair in self.defenders],
                "terrain": [list(pair) for pair in self.terrain]}


def combat_strengths(t, combat: dict) -> CombatStrengths:
    """9.4: the parts of the differential -- the units' strengths, the support card, the
    strength events (``bonus_cards``), the terrain (:func:`terrain`) -- for the differential
    and the combat's line."""
    target = combat["target"]
    board = t.board
    defenders = [uid for uid in t.occupants(target) if t.side_of(uid) == combat["defender"]]
    place = board.names.get(target) or board.key_locations.get(target)
    ground = ("wasteland" if target in board.wasteland else "clear") + (", town" if target in board.towns else "")
    ignored = combat.get("ignored_by")
    return CombatStrengths(
        target=target, place=f"{place}, {ground}" if place else ground, attacker=combat["attacker"],
        attackers=tuple((uid, t.strength(uid)) for uid in combat["attackers"]), support=combat["support"],
        cards=tuple(combat["bonus_cards"]), defender=combat["defender"],
        defenders=tuple((uid, t.strength(uid)) for uid in defenders), terrain=tuple(terrain(t, combat)),
        ignored=ignored_words(combat["ignore"], ignored) if ignored else "")


def ignored_words(kinds: list[str], by: str) -> str:
    """What an event makes the defender lose, for the combat's line: "river and wasteland
    ignored (Nogi Maresuke)" (a :class:`Phrase`, each terrain word translated)."""
    if len(kinds) == 1:
        return Phrase("{} ignored ({})", kinds[0], by)
    if len(kinds) == 2:
        return Phrase("{} and {} ignored ({})", kinds[0], kinds[1], by)
    return Phrase("{} ignored ({})", " and ".join(kinds), by)
