"""9.5 Combat Results, 9.6 Retreat (chain retreats), 9.7 Advance After Combat.

DE: one defender eliminated (the owner chooses, A19), the others retreat. DR: every
defender retreats. EX: one defender, then one attacker, eliminated; no retreat, no
advance. AR: the attacker chooses AR or AE (9.6, A22); AR: every attacker retreats. AE: one
attacker eliminated. Retreats go one unit at a time (defenders in stacking order,
attackers in declared order), one hex, never into an EZOC, off the map, across all-sea or
beyond stacking -- unless the only hexes left break the stacking limit: then a chain
retreat (9.6, A21). A unit with no hex, or with movement allowance 0 (9.6.1), is
eliminated. After DE or DR leaving the target empty, attackers within the stacking limit
may advance, ignoring EZOC (9.7, 6.3).
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Phrase
from adjudicator.games.russo_japanese_war.answers import Kind
from adjudicator.i18n import N_


def alive(t, uids: list[str]) -> list[str]:
    return [uid for uid in uids if t.on_map(uid)]


def choose_loss(t, side: str, candidates: list[str], combat: dict):
    """The owner picks which unit is eliminated (A19); asked whenever there is a choice."""
    if not candidates:
        return
    if len(candidates) == 1:
        uid = candidates[0]
    else:
        def parse(answer: Mapping[str, Any]) -> dict:
            if answer.get("unit") not in candidates:
                raise IllegalAnswer(f"choose one of {', '.join(candidates)} to eliminate; got {answer.get('unit')!r}")
            return {"unit": answer["unit"]}

        answer = yield from t.ask(side, Kind.LOSS, {"units": candidates, "target": combat["target"]},
                                  Phrase("{} at {}: which unit is eliminated?", combat["result"], combat["target"]),
                                  parse)
        uid = answer["unit"]
    t.eliminate(uid, Phrase("{} at {}", combat["result"], combat["target"]))


def apply_result(t, combat: dict):
    result = combat["result"]
    target = combat["target"]
    defenders = [uid for uid in t.occupants(target) if t.side_of(uid) == combat["defender"]]
    attackers = alive(t, combat["attackers"])
    if result == "DE":
        yield from choose_loss(t, combat["defender"], defenders, combat)
        for uid in alive(t, defenders):
            yield from retreat(t, uid)
    elif result == "DR":
        for uid in defenders:
            yield from retreat(t, uid)
    elif result == "EX":
        yield from choose_loss(t, combat["defender"], defenders, combat)
        yield from choose_loss(t, combat["attacker"], attackers, combat)
    elif result == "AR":
        choice = yield from attacker_result(t, combat)
        if choice == "AE":
            yield from choose_loss(t, combat["attacker"], attackers, combat)
        else:
            for uid in attackers:
                yield from retreat(t, uid)
    elif result == "AE":
        yield from choose_loss(t, combat["attacker"], attackers, combat)
    if result in ("DE", "DR") and not t.occupants(target):
        yield from advance(t, combat)


def attacker_result(t, combat: dict):
    """9.6: "If an attacker cannot retreat, or does not wish to retreat, it may
    voluntarily change the combat result AR to AE" (asked on every AR)."""
    def parse(answer: Mapping[str, Any]) -> dict:
        if answer.get("choose") not in ("AR", "AE"):
            raise IllegalAnswer("choose = \"AR\" (retreat) or \"AE\" (one attacking unit eliminated)")
        return {"choose": answer["choose"]}

    answer = yield from t.ask(combat["attacker"], Kind.ATTACKER_RESULT,
                              {"choices": ["AR", "AE"], "target": combat["target"]},
                              Phrase("AR at {}: retreat every attacker, or take AE instead?", combat["target"]),
                              parse)
    return answer["choose"]


# -- 9.6 retreat -----------------------------------------------------------------------------

def retreat_options(t, uid: str) -> tuple[list[str], list[str]]:
    """(hexes within stacking, hexes that break it): never an EZOC, enemy units, off map,
    across all-sea; never a box (A20)."""
    side = t.side_of(uid)
    free, crowded = [], []
    for hex_ in t.board.land_neighbours.get(t.at(uid), ()):
        occupant = t.side_in(hex_)
        if occupant is not None and occupant != side:
            continue
        if t.in_ezoc(hex_, side):
            continue
        if t.friends_in(hex_, side, besides=uid) >= t.limit(side):
            crowded.append(hex_)
        else:
            free.append(hex_)
    return free, crowded


def ask_retreat(t, uid: str, options: list[str]):
    if len(options) == 1:
        return options[0]

    def parse(answer: Mapping[str, Any]) -> dict:
        if answer.get("to") not in options:
            raise IllegalAnswer(f"{uid} may retreat to {', '.join(options)}; not {answer.get('to')!r} (9.6)")
        return {"unit": uid, "to": answer["to"]}

    answer = yield from t.ask(t.side_of(uid), Kind.RETREAT, {"unit": uid, "hexes": options},
                              Phrase("{} must retreat one hex from {}: where to?", uid, t.at(uid)), parse)
    return answer["to"]


def retreat(t, uid: str):
    """One unit retreats one hex (9.6), or is eliminated."""
    if t.units[uid]["ma"] <= 0:
        t.eliminate(uid, N_("movement allowance 0, cannot retreat (9.6.1)"))
        return
    free, crowded = retreat_options(t, uid)
    options = free or crowded
    if not options:
        t.eliminate(uid, N_("no hex to retreat to (9.6)"))
        return
    to = yield from ask_retreat(t, uid, options)
    if to in free:
        t.place(uid, to)
        t.say("retreat", "{} retreats to {}.", uid, to, unit=uid, to=to)
        t.enter(uid, to)
        return
    moves: list[tuple[str, str, str]] = []           # (unit, from, to), tentative
    t.s["chain_retreat"] = to                        # a hex may hold one unit too many meanwhile
    ok = yield from chain(t, uid, to, moves)
    del t.s["chain_retreat"]
    if not ok:
        for unit, origin, _ in reversed(moves):
            t.units[unit]["at"] = origin
        t.changed()
        t.eliminate(uid, N_("its chain retreat failed (9.6)"))
        return
    for unit, _, dest in moves:
        if unit != uid:
            t.say("retreat", "{} retreats to {} (chain retreat).", unit, dest, unit=unit, to=dest)
        else:
            t.say("retreat", "{} retreats to {}.", unit, dest, unit=unit, to=dest)
        t.enter(unit, dest)


def chain(t, uid: str, to: str, moves: list):
    """9.6, A21: ``uid`` enters the full hex ``to``; one unit there must make way. A unit
    that has retreated in this chain has had its one hex of retreat (9.6) and does not make
    way again: when only such units are there, the chain fails (it would go round for ever)."""
    side = t.side_of(uid)
    retreated = {unit for unit, _, _ in moves}
    moves.append((uid, t.at(uid), to))
    in_hex = [u for u in t.occupants(to) if t.side_of(u) == side and u != uid and u not in retreated]
    t.place(uid, to)
    if not in_hex:
        return False
    if len(in_hex) == 1:
        leaving = in_hex[0]
    else:
        def parse(answer: Mapping[str, Any]) -> dict:
            if answer.get("unit") not in in_hex:
                raise IllegalAnswer(f"one of {', '.join(in_hex)} makes way for {uid} (9.6, A21)")
            return {"unit": answer["unit"]}

        answer = yield from t.ask(side, Kind.CHAIN, {"hex": to, "units": in_hex},
                                  Phrase("{} retreats into {}: which unit there makes way (chain retreat)?", uid, to),
                                  parse)
        leaving = answer["unit"]
    if t.units[leaving]["ma"] <= 0:
        return False
    free, crowded = retreat_options(t, leaving)
    options = free or crowded
    if not options:
        return False
    dest = yield from ask_retreat(t, leaving, options)
    if dest in free:
        moves.append((leaving, t.at(leaving), dest))
        t.place(leaving, dest)
        return True
    return (yield from chain(t, leaving, dest, moves))


# -- 9.7 advance after combat -------------------------------------------------------------------

def advance(t, combat: dict):
    side = combat["attacker"]
    target = combat["target"]
    eligible = [uid for uid in alive(t, combat["attackers"]) if t.units[uid]["ma"] > 0]
    if not eligible:
        return
    limit = t.limit(side)

    def parse(answer: Mapping[str, Any]) -> dict:
        units = answer.get("units")
        if not isinstance(units, list) or any(u not in eligible for u in units) or len(set(units)) != len(units):
            raise IllegalAnswer(f"units = a list among {', '.join(eligible)} (possibly empty)")
        if len(units) > limit:
            raise IllegalAnswer(f"at most {limit} {side.capitalize()} unit(s) may advance (9.7, stacking)")
        return {"units": list(units)}

    answer = yield from t.ask(side, Kind.ADVANCE, {"units": eligible, "hex": target, "limit": limit},
                              Phrase("{} is empty: advance after combat with up to {} unit(s)?", target, limit),
                              parse)
    for uid in answer["units"]:
        t.place(uid, target)
        t.say("advance", "{} advances into {}.", uid, target, unit=uid, to=target)
        t.enter(uid, target)
