"""10.2 Using Cards, 10.3 restrictions, 10.4 notes on events: the Card Play Phase.

In his Card Play Phase the phasing player uses cards one at a time, in any order (10.4.2),
as long as he holds a card with a legal use: an event of his own half playable now
(10.2.1: no stated time = own Card Play Phase; 10.4.1 bars Russian #01/#06), one forced
march per Player Turn (10.2.3), a strategic movement (10.2.4), a transport (10.2.5) or,
for Russia, a reorganisation (10.2.6).
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Phrase
from adjudicator.games.russo_japanese_war.answers import Kind
from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA, other
from adjudicator.games.russo_japanese_war.hexmap import ELIMINATED, EUROPE, HOME, KOREA, SIBERIA
from adjudicator.games.russo_japanese_war.rules import combat as combat_rules
from adjudicator.games.russo_japanese_war.rules import movement, naval
from adjudicator.games.russo_japanese_war.rules.deck import random_discards
from adjudicator.i18n import N_

CARD_PLAY_TIMINGS = ("own_card_play", "own_player_turn")
_CARD_PLAY_TIMINGS = frozenset(CARD_PLAY_TIMINGS)
USES = ("event", "forced-march", "strategic", "transport", "reorganise")
TIMING_WORDS = {"before_roll": "in a combat, before the die is rolled", "after_roll": "in a combat, after the die",
                "reaction": "as a reaction to the other side's event", "on_draw": "when it is drawn"}
JAPAN_DOES_NOT_REORGANISE = "only the Russian player reorganises by discarding a card (10.2.6)"


def unit_type(t, uid: str) -> str:
    unit = t.units[uid]
    return f"{unit['strength']}-{unit['ma']}"


def is_type(t, uid: str, strength: int, ma: int) -> bool:
    """``unit_type(t, uid) == f"{strength}-{ma}"``, without writing it."""
    unit = t.units[uid]
    return unit["strength"] == strength and unit["ma"] == ma


# -- what a card may do now ------------------------------------------------------------------

def event_never_playable(t, side: str, card: str) -> str | None:
    """Why ``side`` may never play its half of ``card`` as an event in its Card Play
    Phase, whatever the position (None: it may, where the position allows)."""
    half = t.data.half(card, side)
    if half is None:
        return f"{card} carries no event"
    if naval.is_naval_half(t, card, side):
        return f"{half.name} is used only as the advanced naval rules say (11.0); the card may still be discarded"
    if _CARD_PLAY_TIMINGS.isdisjoint(half.timing):
        return f"{half.name} is played at another time ({', '.join(TIMING_WORDS.get(w, w) for w in half.timing)})"
    return None


def event_playable(t, side: str, card: str) -> str | None:
    """Why ``side`` may not play its half of ``card`` as an event now (None: it may)."""
    never = event_never_playable(t, side, card)
    if never is not None:
        return never
    half = t.data.half(card, side)
    if half.forbidden_when == "pa_fleet_cannot_sortie" and t.s["barred"]:
        return f"{half.name} can no longer be played as an event (10.4.1); the card may still be discarded"
    if half.effect["kind"] == "take_top_discard" and not t.cards["discard"]:
        return (f"{half.name} takes the top card of the discard pile, and the pile is empty: it is not a legal "
                "use now (A64)")
    return None


def landing_harbours(t) -> list[str]:
    """10.2.5: the southern harbours (every harbour once 10.4.1 holds) without Russian
    units and within the Japanese stacking limit (A34)."""
    return [hex_ for hex_, southern in sorted(t.board.harbours.items())
            if (southern or t.s["barred"] or naval.liaodong_open(t)) and t.side_in(hex_) != RUSSIA
            and t.friends_in(hex_, JAPAN) < t.limit(JAPAN)]


def transport_destinations(t, side: str, uid: str, harbours: list[str] | None = None) -> list[str]:
    """10.2.5: Russia 3-2 European Russia -> Siberia; Japan 2-3 Home -> Korea, or any unit
    Home -> a landing harbour."""
    unit = t.units[uid]
    if side == RUSSIA:
        return [SIBERIA] if unit["at"] == EUROPE and is_type(t, uid, 3, 2) else []
    if unit["at"] != HOME or t.s.get("naval", {}).get("home_blocked"):
        return []
    found = [KOREA] if is_type(t, uid, 2, 3) else []
    return found + (landing_harbours(t) if harbours is None else harbours)


def legal_uses(t, side: str) -> dict[str, Any]:
    """What the cards in hand may do now (for the question, the reports and the players)."""
    hand = t.hand(side)
    uses: dict[str, Any] = {}
    events = [card for card in hand if event_playable(t, side, card) is None]
    if events:
        uses["event"] = events
    if not t.s["forced_march_used"]:
        uses["forced-march"] = ["movement", "combat"]
    units = t.units
    own = t.units_of(side)
    waiting = [uid for uid in own if units[uid]["at"] in (HOME, EUROPE)]
    harbours = landing_harbours(t) if side == JAPAN and waiting else []
    transports = {uid: transport_destinations(t, side, uid, harbours) for uid in waiting}
    transports = {uid: dests for uid, dests in transports.items() if dests}
    if transports:
        uses["transport"] = transports
    strategic = movement.long_movable_units(t, side, strategic=True)
    if strategic:
        uses["strategic"] = strategic
    if side == RUSSIA:
        reorganisable = [uid for uid in own if units[uid]["at"] == ELIMINATED and is_type(t, uid, 3, 2)]
        if reorganisable:
            uses["reorganise"] = reorganisable
    return uses


# -- the phase ------------------------------------------------------------------------------

def card_play_phase(t):
    side = t.phasing
    t.s["plays"] = []                       # the uses made, for the answers from orders
    while t.hand(side):
        uses = legal_uses(t, side)
        if not uses:
            return
        answer = yield from t.ask(side, Kind.CARD_PLAY, {"hand": list(t.hand(side)), "uses": uses},
                                  Phrase("{} Card Play Phase: use a card (event, forced march, strategic "
                                         "movement, transport, reorganisation) or done", side.capitalize()),
                                  lambda a, side=side: parse_card_play(t, side, a))
        if answer.get("done"):
            return
        t.s["plays"].append(play_key(answer))
        yield from use_card(t, side, answer)
        if t.s["result"]:
            return


def play_key(answer: Mapping[str, Any]) -> str:
    """A card use without the card discarded for it (how a plan step is recognised)."""
    use = next(key for key in USES if key in answer)
    parts = [use, answer[use] if use == "event" else "", answer.get("unit", ""), answer.get("to", ""),
             "-".join(answer.get("path", [])), answer.get("phase", "")]
    return " ".join(str(p) for p in parts)


def _card_in_hand(t, side: str, card: Any) -> str:
    if card not in t.hand(side):
        raise IllegalAnswer(f"{card!r} is not in the {side.capitalize()} hand ({', '.join(t.hand(side))})")
    return card


def parse_card_play(t, side: str, answer: Mapping[str, Any]) -> dict:
    if answer.get("done") is True:
        return {"done": True}
    used = [key for key in USES if key in answer]
    if len(used) != 1:
        raise IllegalAnswer("name one use: event, forced-march, strategic, transport or reorganise (or done = true)")
    use = used[0]
    card = _card_in_hand(t, side, answer[use])
    if use == "event":
        problem = event_playable(t, side, card)
        if problem:
            raise IllegalAnswer(problem)
        units = answer.get("units", [])
        check_event_units(t, side, card, units)
        return {"event": card, "units": list(units)}
    if use == "forced-march":
        if t.s["forced_march_used"]:
            raise IllegalAnswer("only one card may be used for a forced march in one Player Turn (10.2.3)")
        if answer.get("phase") not in ("movement", "combat"):
            raise IllegalAnswer("a forced march gives phase = \"movement\" or phase = \"combat\" (10.2.3)")
        return {"forced-march": card, "phase": answer["phase"]}
    uid = answer.get("unit")
    if uid not in t.units or t.side_of(uid) != side:
        raise IllegalAnswer(f"{uid!r} is not a {side.capitalize()} unit")
    if use == "strategic":
        path = movement._path(answer)
        problem = movement.long_move_error(t, uid, path, side, strategic=True)
        if problem:
            raise IllegalAnswer(f"strategic movement of {uid} refused: {problem}")
        return {"strategic": card, "unit": uid, "path": path}
    if use == "transport":
        destinations = transport_destinations(t, side, uid)
        if answer.get("to") not in destinations:
            raise IllegalAnswer(f"{uid} cannot be transported to {answer.get('to')!r} (10.2.5)"
                                + (f"; it may go to {', '.join(destinations)}" if destinations else ""))
        return {"transport": card, "unit": uid, "to": answer["to"]}
    if side != RUSSIA:
        raise IllegalAnswer(JAPAN_DOES_NOT_REORGANISE)
    if t.at(uid) != ELIMINATED or unit_type(t, uid) != "3-2":
        raise IllegalAnswer(f"only an eliminated 3-2 unit may be reorganised (10.2.6); {uid} is not one")
    return {"reorganise": card, "unit": uid}


def use_card(t, side: str, answer: dict):
    if "event" in answer:
        yield from play_event(t, side, answer["event"], answer["units"])
    elif "forced-march" in answer:
        t.s["forced_march_used"] = True
        t.discard(side, answer["forced-march"], Phrase("a forced march (movement phase)")
                  if answer["phase"] == "movement" else Phrase("a forced march (combat phase)"))
        if answer["phase"] == "movement":
            yield from movement.movement_phase(t)
        else:
            yield from combat_rules.combat_phase(t)
    elif "strategic" in answer:
        t.discard(side, answer["strategic"], Phrase("strategic movement of {}", answer["unit"]))
        t.say("move", "{} moves strategically {}.", answer["unit"], "-".join(answer["path"]),
              unit=answer["unit"], path=answer["path"])
        movement.walk(t, answer["unit"], answer["path"])
    elif "transport" in answer:
        t.discard(side, answer["transport"], Phrase("transport of {} to {}", answer["unit"], answer["to"]))
        t.place(answer["unit"], answer["to"])
        if answer["to"] in t.board.hexes:
            t.enter(answer["unit"], answer["to"])
    else:
        t.discard(side, answer["reorganise"], Phrase("reorganisation of {}", answer["unit"]))
        t.place(answer["unit"], EUROPE)


# -- events --------------------------------------------------------------------------------------

def event_units_never(t, side: str, card: str, units) -> str | None:
    """Why the units named for ``side``'s event ``card`` can never be the ones it takes,
    whatever the position: too many, or units of the wrong side, or any for an event that
    names none (None: they may be, where the position allows). In the wording of
    :func:`check_event_units`."""
    half = t.data.half(card, side)
    if half is None or not units or any(u not in t.units for u in units):
        return None
    effect = half.effect
    kind = effect["kind"]
    if kind == "zoc_lost" and (len(units) > int(effect["count"]) or any(t.side_of(u) == side for u in units)):
        return f"name up to {effect['count']} enemy units on the map"
    if kind == "reorganise":
        if len(units) > int(effect["max_units"]):
            return f"at most {effect['max_units']} units"
        wrong = [u for u in units if t.side_of(u) != side]
        return f"{wrong[0]} is not an eliminated {side.capitalize()} unit" if wrong else None
    if kind == "transport_event":
        return f"name units in the {effect['from']} box" if any(t.side_of(u) != side for u in units) else None
    if kind not in ("zoc_lost", "reorganise", "transport_event"):
        return f"{half.name} names no units"
    return None


def check_event_units(t, side: str, card: str, units: Any) -> None:
    effect = t.data.half(card, side).effect
    kind = effect["kind"]
    if not isinstance(units, list) or len(set(units)) != len(units) or any(u not in t.units for u in units):
        raise IllegalAnswer(f"units = a list of unit ids; got {units!r}")
    if kind == "zoc_lost":
        if len(units) > int(effect["count"]) or any(t.side_of(u) == side or not t.on_map(u) for u in units):
            raise IllegalAnswer(f"name up to {effect['count']} enemy units on the map")
    elif kind == "reorganise":
        if len(units) > int(effect["max_units"]):
            raise IllegalAnswer(f"at most {effect['max_units']} units")
        allowed = effect.get("types")
        fives = 0
        for uid in units:
            if t.side_of(uid) != side or t.at(uid) != ELIMINATED:
                raise IllegalAnswer(f"{uid} is not an eliminated {side.capitalize()} unit")
            if allowed and unit_type(t, uid) not in allowed:
                raise IllegalAnswer(f"{uid} is a {unit_type(t, uid)}; only {', '.join(allowed)} units")
            fives += unit_type(t, uid) == "5-2"
        if fives > int(effect.get("max_five_two", len(units))):
            raise IllegalAnswer(f"at most {effect['max_five_two']} 5-2 unit")
    elif kind == "transport_event":
        if any(t.side_of(u) != side or t.at(u) != effect["from"] for u in units):
            raise IllegalAnswer(f"name units in the {effect['from']} box")
        types = [t.units[u]["strength"] for u in units]
        if not any(len(types) <= c["count"] and all(s == c["strength"] for s in types) for c in effect["choice"]):
            raise IllegalAnswer("one 5-2 unit, or up to two 3-2 units")
    elif units:
        raise IllegalAnswer(f"{t.data.half(card, side).name} names no units")


def flip_garrison(t, effect: Mapping[str, Any]) -> None:
    """10.4.4: the Port Arthur Garrison's two sides (2-0 / 3-0). A60: an event never acts
    on a unit in the Eliminated Units box: an eliminated garrison is not turned, and
    Japan's #08 then costs Russia no Morale."""
    for uid, unit in t.units.items():
        if "back" not in unit:
            continue
        if unit["at"] == ELIMINATED:
            t.say("flip", "{} is eliminated: the event does not act on it (A60).", uid, unit=uid)
            continue
        was = bool(unit.get("flipped"))
        unit["flipped"] = effect["to"] == "back"
        t.say("flip", "{} is turned to its {}-{} side.", uid, t.strength(uid), unit["ma"], unit=uid)
        bonus = effect.get("morale_if_flipped")
        if bonus and was and not unit["flipped"]:
            t.add_morale(bonus["side"], int(bonus["delta"]), N_("the Port Arthur Garrison turned back to its front"))


def play_event(t, side: str, card: str, units: list[str]):
    half = t.data.half(card, side)
    effect = half.effect
    kind = effect["kind"]
    if kind == "take_top_discard":
        t.take_top_discard(side, card)
        return
    t.discard(side, card, Phrase("the event {}", half.name))
    cancelled = yield from reaction(t, side, card)
    if cancelled:
        return
    if kind == "hand_limit":
        target = effect["side"]
        t.s["limits"][target] = min(int(effect["limit"]), t.s["limits"].get(target, 99))
    elif kind == "no_sortie_flag":
        t.s["barred"] = True
    elif kind == "freeze_siberia":
        t.s["siberia_frozen"] = True
    elif kind == "morale_check_modifier":
        target = effect["side"]
        t.s["check_modifiers"][target] = t.s["check_modifiers"].get(target, 0) + int(effect["modifier"])
    elif kind == "morale":
        t.add_morale(effect["side"], int(effect["delta"]), half.name)
    elif kind == "flip_unit":
        flip_garrison(t, effect)
    elif kind == "zoc_lost":
        for uid in units:
            t.units[uid]["zoc_lost"] = True
        t.changed()
    elif kind == "reorganise":
        for uid in units:
            t.place(uid, effect["to"])
    elif kind == "transport_event":
        for uid in units:
            t.place(uid, effect["to"])
    elif kind == "random_discard":
        target = effect["side"]
        hand = t.hand(target)
        yield from random_discards(t, target, max(0, len(hand) - int(effect["count"])), half.name)
    t.say("event", "{} plays {}: {}", side.capitalize(), half.name, half.text, side=side, card=card)


def reaction(t, side: str, card: str):
    """The reconstructed reactions (A37): Japan may cancel a Russian event with a card
    whose ``reacts_to`` names it. Returns True when the event was cancelled."""
    if side != RUSSIA:
        return False
    responder = other(side)
    number = t.data.half(card, side).number
    candidates = [c for c in t.hand(responder)
                  if (h := t.data.half(c, responder)) and h.timing == ("reaction",)
                  and not naval.is_naval_half(t, c, responder)
                  and f"{side}:{number}" in h.reacts_to]
    if not candidates:
        return False

    def parse(answer: Mapping[str, Any]) -> dict:
        if answer.get("pass") is True:
            return {"pass": True}
        if answer.get("card") not in candidates:
            raise IllegalAnswer(f"react with {', '.join(candidates)}, or pass")
        return {"card": answer["card"]}

    answer = yield from t.ask(responder, Kind.REACTION, {"playable": candidates, "event": card},
                              Phrase("Russia plays {}: cancel it with a reaction card?", t.data.card_label(card, side)),
                              parse)
    if "card" not in answer:
        return False
    t.discard(responder, answer["card"], Phrase("cancelling {}", t.data.half(card, side).name))
    return True
