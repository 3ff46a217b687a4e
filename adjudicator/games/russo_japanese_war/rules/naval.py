"""11.0 Advanced Naval Rules (optional: the campaign option ``naval``).

11.0: the Russian events #1, #5, #6 and the Japanese events #1, #3, #4 are not played as
events; they are used as this rule says. 11.1: Japan has 7 naval units (First Fleet 6,
Second Fleet 1), Russia 8 (Port Arthur Fleet 7, Vladivostok Fleet 1); each has 2 steps
(undamaged, damaged) and is sunk when it loses both. 11.2: at the start of the Russian
Card Play Phase, the sorties. 11.3: naval battles. 11.4: repairs (at 11.2.9, A45).
11.5: Admiral Makarov's flagship, chosen secretly at set-up (a hidden decision, A47).
11.6: Port Arthur Japanese -> the Port Arthur Fleet is eliminated.

The ships are in the state under ``naval``: ``ships`` (id -> side, fleet, strength,
steps), ``flagship`` (the secret choice; hidden from Japan and from the public record
until sunk or the end of the game, see :meth:`RussoJapaneseWar.view`), ``revealed``,
``home_blocked`` (11.2.5: no transport from the Home Islands this Japanese Player Turn).
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Phrase
from adjudicator.games.russo_japanese_war.answers import Kind
from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA
from adjudicator.i18n import N_

# 11.0: the card halves used only as this rule says (by card number).
NAVAL_HALVES = {RUSSIA: (1, 5, 6), JAPAN: (1, 3, 4)}
PA_SORTIE_CARDS, VLADIVOSTOK_CARD = (1, 6), 5
BLOCKADE, MINES, AKIYAMA = 1, 3, 4
OPPONENT_FLEET = {"port_arthur": "first", "vladivostok": "second"}


def enabled(s: Mapping[str, Any]) -> bool:
    return bool(s.get("options", {}).get("naval"))


def naval_state(data) -> dict:
    """11.1: every naval unit face up (undamaged, 2 steps) beside its player."""
    return {"ships": {ship.id: {"side": ship.side, "fleet": ship.fleet, "strength": ship.strength, "steps": 2}
                      for ship in data.ships},
            "flagship": None, "revealed": False, "home_blocked": False, "sunk": []}


def sortie_needs_card(s: Mapping[str, Any]) -> bool:
    """A65: option ``sortie_needs_card`` (off by default) reads A41's flagged slip."""
    return bool(s.get("options", {}).get("sortie_needs_card"))


def sortie_reading(s: Mapping[str, Any]) -> str:
    """The one line a report of the naval option gives: which reading of 11.2.1 the
    campaign uses (A65)."""
    if sortie_needs_card(s):
        return N_("Port Arthur Fleet sortie: needs card #1 or #6 (option sortie_needs_card, "
                  "rulings A65)")
    return N_("Port Arthur Fleet sortie: may be declared without a card, as 11.2.1 is printed "
              "(rulings A41, A65)")


def is_naval_half(t, card: str, side: str) -> bool:
    """11.0: this half is not an event under the advanced naval rules."""
    half = t.data.half(card, side)
    return half is not None and enabled(t.s) and half.number in NAVAL_HALVES[side]


def _cards(t, side: str, numbers) -> list[str]:
    return [c for c in t.hand(side) if (h := t.data.half(c, side)) and h.number in numbers]


def afloat(t, fleet: str) -> list[str]:
    """The fleet's ships still in play, in the order of the counter sheet."""
    return [sid for sid, ship in t.s["naval"]["ships"].items() if ship["fleet"] == fleet and ship["steps"] > 0]


def unhurt(t, fleet: str) -> list[str]:
    return [sid for sid in afloat(t, fleet) if t.s["naval"]["ships"][sid]["steps"] == 2]


# -- 11.5 Admiral Makarov: the secret flagship ------------------------------------------------

def choose_flagship(t):
    """11.5, A47: at the start of the game Russia secretly chooses the Port Arthur Fleet
    ship carrying Makarov. The answer is a hidden decision: the public record carries a
    salted commitment, opened when the ship is sunk or at the end."""
    ships = afloat(t, "port_arthur")

    def parse(answer: Mapping[str, Any]) -> dict:
        if answer.get("ship") not in ships:
            raise IllegalAnswer(f"name the flagship: one of {', '.join(ships)} (ship = \"{ships[0]}\")")
        return {"ship": answer["ship"]}

    answer = yield from t.ask(RUSSIA, Kind.FLAGSHIP, {"ships": ships},
                              Phrase("Russia: which Port Arthur Fleet ship carries Admiral Makarov (secret, 11.5)?"),
                              parse, hidden=True)
    t.s["naval"]["flagship"] = answer["ship"]
    t.say("flagship", "Russia has chosen Makarov's flagship in secret (11.5).")


def reveal_flagship(t, why: str) -> None:
    naval = t.s["naval"]
    if naval["flagship"] and not naval["revealed"]:
        naval["revealed"] = True
        t.say("flagship-revealed", "Makarov's flagship was {} ({}).", naval["flagship"], why, ship=naval["flagship"])


# -- damage ------------------------------------------------------------------------------------

def damage(t, sid: str, steps: int, why: str) -> int:
    """11.1: one step lost turns the ship to its damaged side, two sink it; damage beyond
    what sinks it is lost (11.3.2). 11.5: the flagship sunk -> revealed, Russian Morale -1.
    Returns the steps actually lost."""
    ship = t.s["naval"]["ships"][sid]
    lost = min(steps, ship["steps"])
    if not lost:
        return 0
    ship["steps"] -= lost
    if ship["steps"] == 0:
        t.s["naval"]["sunk"].append(sid)
        t.say("ship-sunk", "{} {} is sunk ({}).", ship["side"].capitalize(), sid, why, ship=sid, side=ship["side"])
        if sid == t.s["naval"]["flagship"]:
            reveal_flagship(t, N_("sunk, 11.5"))
            t.add_morale(RUSSIA, -1, N_("Makarov's flagship sunk, 11.5"))
    else:
        t.say("ship-damaged", "{} {} is damaged ({}).", ship["side"].capitalize(), sid, why, ship=sid,
              side=ship["side"])
    return lost


def parse_steps(ships: list[str], steps: int, state_ships: Mapping[str, dict]):
    """An allocation of ``steps`` steps of damage to ``ships``: one ship id per step, a
    ship named at most as many times as it has steps (11.2.2: Japan chooses)."""
    def parse(answer: Mapping[str, Any]) -> list[str]:
        chosen = answer.get("ships")
        if not isinstance(chosen, list) or len(chosen) != steps:
            raise IllegalAnswer(f"name {steps} ship(s), one per step of damage, from {', '.join(ships)}")
        for sid in set(chosen):
            if sid not in ships:
                raise IllegalAnswer(f"{sid!r} is not an afloat Port Arthur Fleet ship ({', '.join(ships)})")
            if chosen.count(sid) > state_ships[sid]["steps"]:
                raise IllegalAnswer(f"{sid} has only {state_ships[sid]['steps']} step(s)")
        return list(chosen)
    return parse


# -- 11.2 Russian Fleet Sorties --------------------------------------------------------------

def sorties(t):
    """11.2: at the start of the Russian Card Play Phase. Repairs follow (11.4, A45)."""
    sortied: set[str] = set()
    interfered = False
    if afloat(t, "port_arthur") and not t.s["naval"].get("pa_eliminated"):
        interfered = yield from port_arthur_sortie(t, sortied)
    if afloat(t, "vladivostok"):
        yield from vladivostok_sortie(t, sortied, interfered)
    yield from repairs(t, sortied)       # 11.2.9: ships return to port; 11.4 repairs


def port_arthur_sortie(t, sortied: set[str]):
    """11.2.1-11.2.5. Returns True when the Port Arthur Fleet interfered with transport."""
    cards = _cards(t, RUSSIA, PA_SORTIE_CARDS)
    needs_card = sortie_needs_card(t.s)
    if needs_card and not cards:
        return False                     # A65: without #1 or #6 there is nothing to ask

    def parse(answer: Mapping[str, Any]) -> dict:
        if not isinstance(answer.get("sortie"), bool):
            raise IllegalAnswer("answer sortie = true or sortie = false (11.2.1)")
        card = answer.get("card")
        if card is not None and card not in cards:
            raise IllegalAnswer(f"a sortie card must be #1 or #6 in hand ({', '.join(cards) or 'none held'})")
        if needs_card and answer["sortie"] and card is None:
            raise IllegalAnswer(f"this campaign plays option sortie_needs_card (A65): a sortie uses #1 or #6 "
                                f"({', '.join(cards)})")
        return {"sortie": answer["sortie"], "card": card if answer["sortie"] else None}

    if needs_card:
        prompt = Phrase("Russia: sortie the Port Arthur Fleet (11.2.1)? It needs a card, #1 or #6 (option "
                        "sortie_needs_card, A65)")
    else:
        prompt = Phrase("Russia: sortie the Port Arthur Fleet (11.2.1)? A card (#1 or #6) may be used; it is "
                        "not needed")
    answer = yield from t.ask(RUSSIA, Kind.SORTIE, {"fleet": "port_arthur", "cards": cards, "needs_card": needs_card},
                              prompt, parse)
    if not answer["sortie"]:
        return False
    sortied.add("port_arthur")
    if answer["card"]:
        t.discard(RUSSIA, answer["card"], N_("the Port Arthur Fleet sortie (11.2.1)"))
    t.say("sortie", "The Port Arthur Fleet sorties (11.2.1).", fleet="port_arthur")
    yield from japanese_response(t)
    if not afloat(t, "port_arthur"):
        return False
    answer = yield from t.ask(RUSSIA, Kind.CALL_OFF, {"fleet": "port_arthur", "unhurt": len(unhurt(t, "port_arthur"))},
                              Phrase("Russia: carry on with the sortie, or call it off (11.2.3)?"),
                              _parse_flag("continue"))
    if not answer["continue"]:
        t.say("sortie", "Russia calls the Port Arthur sortie off (11.2.3).", fleet="port_arthur")
        return False
    if afloat(t, "first"):
        answer = yield from t.ask(JAPAN, Kind.INTERCEPT, {"fleet": "first", "card": None},
                                  Phrase("Japan: intercept the Port Arthur Fleet with the First Fleet (11.2.4)?"),
                                  _parse_flag("intercept"))
        if answer["intercept"]:
            sortied.add("first")
            yield from battle(t, "port_arthur", "first")
    return transport_interference(t)


def _parse_flag(key: str):
    def parse(answer: Mapping[str, Any]) -> dict:
        if not isinstance(answer.get(key), bool):
            raise IllegalAnswer(f"answer {key} = true or {key} = false")
        return {key: answer[key]}
    return parse


def japanese_response(t):
    """11.2.2: #1 Port Arthur Harbour Blockade -> one die halved, rounded up, steps; #3
    Mines -> one die, steps; both may be used together. Japan chooses the ships hit."""
    held = {"blockade": _cards(t, JAPAN, (BLOCKADE,)), "mines": _cards(t, JAPAN, (MINES,))}
    if not (held["blockade"] or held["mines"]):
        return

    def parse(answer: Mapping[str, Any]) -> dict:
        chosen = {}
        for key in ("blockade", "mines"):
            value = answer.get(key, False)
            if not isinstance(value, bool) or (value and not held[key]):
                raise IllegalAnswer(f"{key} = true needs the card in hand; answer blockade/mines = true or false")
            chosen[key] = value
        return chosen

    answer = yield from t.ask(JAPAN, Kind.NAVAL_RESPONSE,
                              {"blockade": bool(held["blockade"]), "mines": bool(held["mines"])},
                              Phrase("Japan: use #1 Port Arthur Harbour Blockade and/or #3 Mines against the "
                                     "sortie (11.2.2)?"),
                              parse)
    for key, halve in (("blockade", True), ("mines", False)):
        if not answer[key]:
            continue
        t.discard(JAPAN, held[key][0], Phrase("{} against the Port Arthur Fleet (11.2.2)", key))
        (die,) = yield from t.roll(1, f"{key} against the Port Arthur Fleet", JAPAN)
        steps = (die + 1) // 2 if halve else die
        yield from allocate(t, steps, key)


def allocate(t, steps: int, why: str):
    """11.2.2: Japan removes ``steps`` steps from the Port Arthur Fleet, choosing the ships
    (beyond the fleet's steps the excess is lost)."""
    ships = afloat(t, "port_arthur")
    state_ships = t.s["naval"]["ships"]
    steps = min(steps, sum(state_ships[s]["steps"] for s in ships))
    if steps <= 0:
        return
    answer = yield from t.ask(JAPAN, Kind.NAVAL_DAMAGE, {"ships": ships, "steps": steps, "why": why},
                              Phrase("Japan: {} step(s) of damage from {}: name the Port Arthur Fleet ship for "
                                     "each step (11.2.2)", steps, why), parse_steps(ships, steps, state_ships))
    for sid in answer:
        damage(t, sid, 1, why)


def transport_interference(t) -> bool:
    """11.2.5, A42: the Japanese hand limit next Japanese Player Turn is 3 less one per
    unhurt sortied ship, at least 1; 3 or more unhurt also forbid transport from the Home
    Islands. 11.5: with the flagship afloat and 3 or more unhurt ships, Russian Morale +1
    (the flagship need not be revealed)."""
    count = len(unhurt(t, "port_arthur"))
    if not count:
        return False
    limit = max(1, t.data.numbers.hand_refill_to - count)
    t.s["limits"][JAPAN] = min(limit, t.s["limits"].get(JAPAN, 99))
    t.say("interference", "{} unhurt Port Arthur ship(s) interfere with Japanese transport: the Japanese "
          "hand limit next Player Turn is {} (11.2.5).", count, t.s["limits"][JAPAN], limit=t.s["limits"][JAPAN])
    if count >= 3:
        t.s["naval"]["home_blocked"] = True
        t.say("interference", "No Japanese transport from the Home Islands next Player Turn (11.2.5).")
        flagship = t.s["naval"]["flagship"]
        if flagship and t.s["naval"]["ships"][flagship]["steps"] > 0:
            t.add_morale(RUSSIA, 1, N_("Makarov leads a successful sortie, 11.5"))
    return True


def vladivostok_sortie(t, sortied: set[str], interfered: bool):
    """11.2.6-11.2.8: only with #5; intercepted only by the Second Fleet playing #4."""
    cards = _cards(t, RUSSIA, (VLADIVOSTOK_CARD,))
    if not cards:
        return
    answer = yield from t.ask(RUSSIA, Kind.SORTIE, {"fleet": "vladivostok", "cards": cards},
                              Phrase("Russia: sortie the Vladivostok Fleet with #5 (11.2.6)?"), _parse_flag("sortie"))
    if not answer["sortie"]:
        return
    sortied.add("vladivostok")
    t.discard(RUSSIA, cards[0], N_("the Vladivostok Fleet sortie (11.2.6)"))
    akiyama = _cards(t, JAPAN, (AKIYAMA,))
    if akiyama and afloat(t, "second"):
        answer = yield from t.ask(JAPAN, Kind.INTERCEPT, {"fleet": "second", "card": akiyama[0]},
                                  Phrase("Japan: intercept the Vladivostok Fleet with the Second Fleet by playing "
                                         "#4 Akiyama Saneyuki (11.2.7)?"), _parse_flag("intercept"))
        if answer["intercept"]:
            sortied.add("second")
            t.discard(JAPAN, akiyama[0], N_("the Second Fleet sortie (11.2.7)"))
            yield from battle(t, "vladivostok", "second")    # A66: the card is spent: fire is simultaneous
    if unhurt(t, "vladivostok"):
        if interfered:
            t.say("interference", "The Vladivostok Fleet's interference has no effect: the Port Arthur Fleet "
                  "already interfered (11.2.8).")
        else:
            t.s["limits"][JAPAN] = min(2, t.s["limits"].get(JAPAN, 99))
            t.say("interference", "The Vladivostok Fleet interferes: the Japanese hand limit next Player Turn "
                  "is {} (11.2.8).", t.s["limits"][JAPAN], limit=t.s["limits"][JAPAN])


# -- 11.3 Resolving Naval Battles ------------------------------------------------------------

def line(t, fleet: str) -> list[str]:
    """11.3.1, A43: unhurt ships first, then damaged ones; within each, the strongest
    first (the documented automatic order, rules notes)."""
    ships = t.s["naval"]["ships"]
    return sorted(afloat(t, fleet), key=lambda s: (-ships[s]["steps"], -ships[s]["strength"], s))


def order_line(t, side: str, fleet: str, ships: list[str], enemy: list[str]):
    """A43: the owner orders his unhurt ships, then his damaged ones (asked only when a
    group holds more than one ship); the default is :func:`line`'s order."""
    state_ships = t.s["naval"]["ships"]
    unhurt_ = [s for s in ships if state_ships[s]["steps"] == 2]
    damaged = [s for s in ships if state_ships[s]["steps"] == 1]
    if len(unhurt_) < 2 and len(damaged) < 2:
        return ships

    def parse(answer: Mapping[str, Any]) -> dict:
        order = answer.get("order")
        if not isinstance(order, list) or sorted(order[:len(unhurt_)]) != sorted(unhurt_) \
                or sorted(order[len(unhurt_):]) != sorted(damaged):
            raise IllegalAnswer(f"order = every ship of the line, the unhurt first ({', '.join(unhurt_)}), then the "
                                f"damaged ({', '.join(damaged) or 'none'}) (11.3.1, A43)")
        return {"order": list(order)}

    answer = yield from t.ask(side, Kind.LINE_UP, {"fleet": fleet, "unhurt": unhurt_, "damaged": damaged,
                                                   "enemy": list(enemy)},
                              Phrase("{}: the order of the {}'s line, facing {} one to one (11.3.1, A43)?",
                                     side.capitalize(), FLEET_LABELS[fleet], ", ".join(enemy)), parse)
    return answer["order"]


def line_up(own: list[str], enemy: list[str]) -> dict[str, str]:
    """11.3.1: one-to-one pairings in line order; surplus ships go to enemy ships so that
    each enemy ship has two before any has a third (here: from the front of the line)."""
    targets = {}
    for index, sid in enumerate(own):
        targets[sid] = enemy[index % len(enemy)]
    return targets


def battle(t, russian_fleet: str, japanese_fleet: str):
    """11.3: line up, then each ship fires once, one die per step, a die <= its strength
    is a step of damage to the ship facing it (excess lost). Fire is simultaneous, unless
    Japan plays #4 Akiyama Saneyuki after the line-up (11.3.4): then Japan fires first.
    A66: Akiyama is played once; spent on the Second Fleet's sortie (11.2.7) it is no
    longer in hand at that battle's line-up."""
    japanese, russian = line(t, japanese_fleet), line(t, russian_fleet)
    if not (japanese and russian):
        return
    russian = yield from order_line(t, RUSSIA, russian_fleet, russian, japanese)
    japanese = yield from order_line(t, JAPAN, japanese_fleet, japanese, russian)
    aims = {**line_up(japanese, russian), **line_up(russian, japanese)}
    t.say("naval-battle", "Naval battle: {} against {} (11.3.1).", ", ".join(japanese), ", ".join(russian),
          japanese=japanese, russian=russian, aims=aims)
    first = False
    cards = _cards(t, JAPAN, (AKIYAMA,))
    if cards:
        answer = yield from t.ask(JAPAN, Kind.AKIYAMA, {"card": cards[0]},
                                  Phrase("Japan: play #4 Akiyama Saneyuki so that Japanese gunfire comes first "
                                         "(11.3.4)?"),
                                  _parse_flag("play"))
        if answer["play"]:
            t.discard(JAPAN, cards[0], N_("Japanese gunfire first (11.3.4)"))
            first = True
    if first:
        hits = yield from gunfire(t, japanese, aims)
        apply(t, hits)
        hits = yield from gunfire(t, [s for s in russian if t.s["naval"]["ships"][s]["steps"]], aims)
        apply(t, hits)
    else:
        hits = yield from gunfire(t, japanese, aims)
        hits_back = yield from gunfire(t, russian, aims)
        apply(t, hits + hits_back)


def gunfire(t, firing: list[str], aims: Mapping[str, str]):
    """11.3.2: one die per step of the firing ship; each die <= its strength is a hit."""
    ships = t.s["naval"]["ships"]
    hits: list[tuple[str, int]] = []
    for sid in firing:
        ship = ships[sid]
        dice = yield from t.roll(ship["steps"], f"gunfire of {sid}", ship["side"])
        count = sum(1 for die in dice if die <= ship["strength"])
        t.say("gunfire", "{} fires at {}: {}, {} hit(s) (11.3.2).", sid, aims[sid], str(list(dice)), count,
              ship=sid, target=aims[sid], dice=list(dice), hits=count)
        hits.append((aims[sid], count))
    return hits


def apply(t, hits: list[tuple[str, int]]) -> None:
    """Damage applied together; excess beyond sinking is lost (11.3.2)."""
    total: dict[str, int] = {}
    for target, count in hits:
        total[target] = total.get(target, 0) + count
    for target, count in total.items():
        damage(t, target, count, N_("gunfire, 11.3.2"))


# -- 11.4 Repair of Ships (at 11.2.9, A45) -----------------------------------------------------

REPAIRS = {"port_arthur": 1, "vladivostok": 0, "first": 2, "second": 1}


def repairs(t, sortied: set[str]):
    """11.4: a fleet that did not sortie repairs damaged ships: Port Arthur 1,
    Vladivostok none, First 2, Second 1. A67: first, with the Second Fleet sunk, Japan may
    withdraw a First Fleet ship undamaged at that moment (whether or not the First Fleet
    sortied) to bring the Second Fleet ship back undamaged (A46); then each owner chooses
    which damaged ships are repaired (asked only when there are more than the fleet
    repairs; the default is the strongest)."""
    yield from second_fleet_return(t)
    ships = t.s["naval"]["ships"]
    for fleet, count in REPAIRS.items():
        if fleet in sortied or not count:
            continue
        damaged = sorted((s for s in afloat(t, fleet) if ships[s]["steps"] == 1),
                         key=lambda s: (-ships[s]["strength"], s))
        chosen = damaged[:count]
        if len(damaged) > count:
            chosen = yield from ask_repairs(t, fleet, damaged, count)
        for sid in chosen:
            ships[sid]["steps"] = 2
            t.say("repair", "{} is repaired (11.4).", sid, ship=sid)


def ask_repairs(t, fleet: str, damaged: list[str], count: int):
    """A67: the owner names the damaged ships repaired (at most ``count``)."""
    owner = t.s["naval"]["ships"][damaged[0]]["side"]

    def parse(answer: Mapping[str, Any]) -> dict:
        chosen = answer.get("ships")
        if not isinstance(chosen, list) or len(chosen) > count or len(set(chosen)) != len(chosen) \
                or any(sid not in damaged for sid in chosen):
            raise IllegalAnswer(f"name up to {count} damaged ship(s) of the fleet to repair: {', '.join(damaged)}")
        return {"ships": list(chosen)}

    answer = yield from t.ask(owner, Kind.REPAIR, {"fleet": fleet, "ships": damaged, "count": count},
                              Phrase("{}: which damaged ship(s) of the {} are repaired (up to {}, 11.4)?",
                                     owner.capitalize(), FLEET_LABELS[fleet], count), parse)
    return answer["ships"]


FLEET_LABELS = {"port_arthur": N_("Port Arthur Fleet"), "vladivostok": N_("Vladivostok Fleet"),
                "first": N_("First Fleet"), "second": N_("Second Fleet")}


def second_fleet_return(t):
    """A46, A67: at the start of the repairs, Japan may withdraw one undamaged First Fleet
    ship to bring the sunk Second Fleet ship back undamaged."""
    ships = t.s["naval"]["ships"]
    second = [s for s, ship in ships.items() if ship["fleet"] == "second"]
    spare = unhurt(t, "first")
    if not (second and not afloat(t, "second") and spare):
        return

    def parse(answer: Mapping[str, Any]) -> dict:
        ship = answer.get("withdraw")
        if ship is not None and ship not in spare:
            raise IllegalAnswer(f"withdraw one of {', '.join(spare)}, or withdraw = none")
        return {"withdraw": ship}

    answer = yield from t.ask(JAPAN, Kind.SECOND_FLEET, {"ships": spare, "returns": second[0]},
                              Phrase("Japan: withdraw an undamaged First Fleet ship to bring {} back (11.4)?",
                                     second[0]),
                              parse)
    if answer["withdraw"]:
        ships[answer["withdraw"]]["steps"] = 0
        ships[answer["withdraw"]]["withdrawn"] = True
        ships[second[0]]["steps"] = 2
        t.say("repair", "{} is withdrawn; {} returns undamaged (11.4).", answer["withdraw"], second[0],
              ship=second[0])


# -- 11.6 Port Arthur -------------------------------------------------------------------------

def port_arthur_falls(t) -> None:
    """11.6: Port Arthur Japanese -> the Port Arthur Fleet is eliminated (no Morale loss
    for the flagship, which stays secret until the end)."""
    naval = t.s["naval"]
    if naval.get("pa_eliminated"):
        return
    naval["pa_eliminated"] = True
    for sid in afloat(t, "port_arthur"):
        naval["ships"][sid]["steps"] = 0
    t.say("fleet-eliminated", "Port Arthur is Japanese: the Port Arthur Fleet is eliminated (11.6).")


def liaodong_open(t) -> bool:
    """11.6: with 2 or fewer unhurt Port Arthur ships, Japan may transport to any harbour."""
    return enabled(t.s) and len(unhurt(t, "port_arthur")) <= 2
