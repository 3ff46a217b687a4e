"""The orders skeleton of each question: what a player fills in to answer it.

:func:`answer_template` gives, for a :class:`~adjudicator.engine.requests.Decision`, the
lines to put between BEGIN ORDERS and END ORDERS after the header: the block that answers
the question, the player's own units (or cards, hexes, ships) the question offers as
comments, and, as the one line not commented, the default answer -- so that the skeleton
sent back unchanged answers the question as silence would, and a player changes that line.
Every line fits in 74 columns (78 in the report, indented by 4).
"""

from __future__ import annotations

import textwrap
from typing import Any, Iterable, Mapping

WIDTH = 74


def comment(text: str, indent: str = "  ") -> list[str]:
    """``text`` as comment lines of at most :data:`WIDTH` columns."""
    return textwrap.wrap(text, WIDTH, initial_indent=indent + "# ", subsequent_indent=indent + "#   ",
                         break_on_hyphens=False, break_long_words=True)


def listing(label: str, items: Iterable[str]) -> list[str]:
    items = list(items)
    return comment(f"{label}: {', '.join(items)}") if items else []


def card_name(card: str) -> str:
    """A card as orders name it: its number (``#09`` -> ``9``; the reshuffle card by name)."""
    return card[1:].lstrip("0") if card.startswith("#") else card


def cards(cards_: Iterable[str]) -> str:
    return ", ".join(card_name(c) for c in cards_)


def answer_template(decision: Any) -> list[str]:
    """The skeleton answering ``decision`` (see the module docstring)."""
    make = TEMPLATES.get(decision.kind)
    return make(decision.options) if make else comment(f"(answer {decision.kind})", "")


def _extra_card(o: Mapping[str, Any]) -> list[str]:
    return ["replenish: no extra card"] + comment("or: replenish: extra card   (1 Morale for a fourth card, "
                                                  "decided before drawing, 10.1)", "")


def _move(o: Mapping[str, Any]) -> list[str]:
    at = o.get("at", {})
    lines = ["forced move:" if o.get("forced") else "move:"]
    lines += comment("one line per unit, in order: UNIT HEX-HEX-... (the path starts where the unit "
                     "is, e.g. korea-1015-1114); rail UNIT HEX-HEX-... (one rail move per phase); "
                     "done when no (further) unit moves")
    lines += listing("may move", (f"{u} at {at[u]}" if u in at else u for u in o["units"]))
    lines += listing("may move by rail", (f"{u} at {at[u]}" if u in at else u for u in o["rail"]))
    return lines + ["  done"]


def _attacks(o: Mapping[str, Any]) -> list[str]:
    lines = ["forced attack:" if o.get("forced") else "attack:"]
    lines += comment("every attack, in the order of resolution: TARGET with UNIT, UNIT [support "
                     "[using CARD] [if differential <= N]]")
    for target, units in sorted(o["targets"].items()):
        lines += comment(f"{target} with {', '.join(units)}")
    return lines + ["  none"]


def _support(o: Mapping[str, Any]) -> list[str]:
    heading = "forced attack:" if o.get("forced") else "attack:"
    target, units = o["target"], ", ".join(o.get("attackers", ())) or "UNIT"
    lines = [heading] + comment(f"support: discard a card for +1 (differential now {o['differential']:+d}); "
                                f"your hand: {cards(o['hand'])}; write: {target} with {units} support "
                                "[using CARD]")
    return lines + [f"  {target} with {units} no support"]


def _combat_event(o: Mapping[str, Any]) -> list[str]:
    facts = f"differential {o['differential']:+d}" + (f", result {o['result']}" if o.get("result") else "")
    if o.get("answering"):
        facts += f", the enemy has just played {card_name(o['answering'])}"
    lines = ["events:"] + comment(f"the attack on {o['target']} ({'before' if o['window'] == 'before_roll' else 'after'}"
                                  f" the die; you are the {o['role']}; {facts}); playable now: "
                                  f"{cards(o['playable'])}; one rule per line, the first that applies is "
                                  "played: CARD [if differential >= N | if result in DE, EX | if attacking | "
                                  "if enemy played CARD]")
    return lines + ["  none"]


def _reaction(o: Mapping[str, Any]) -> list[str]:
    return ["react:"] + comment(f"cancel the Russian event {card_name(o['event'])} with: "
                                f"{cards(o['playable'])}") + ["  none"]


def _loss(o: Mapping[str, Any]) -> list[str]:
    return ["losses:"] + comment(f"one of {', '.join(o['units'])} is eliminated at {o['target']}: "
                                 "protect UNIT, UNIT; weakest first | strongest first") + ["  weakest first"]


def _retreat(o: Mapping[str, Any]) -> list[str]:
    return ["retreat:"] + comment(f"{o['unit']} retreats to one of {', '.join(o['hexes'])}: write "
                                  f"{o['unit']} to HEX, HEX, or toward HEX (default: nearest your supply "
                                  "source)") + ["  none"]


def _chain(o: Mapping[str, Any]) -> list[str]:
    return ["chain:"] + comment(f"a unit in {o['hex']} makes way (chain retreat): one of "
                                f"{', '.join(o['units'])}; write UNIT, UNIT (first to make way) or "
                                "strongest first") + ["  weakest first"]


def _attacker_result(o: Mapping[str, Any]) -> list[str]:
    return ["AR:"] + comment(f"AR at {o['target']}: AR: retreat (every attacker retreats) or AR: "
                             "eliminate (AE: one attacker eliminated); default: retreat if a unit can") + ["  none"]


def _advance(o: Mapping[str, Any]) -> list[str]:
    return ["advance:"] + comment(f"{o['hex']} is empty: up to {o['limit']} of {', '.join(o['units'])} may "
                                  f"advance: {o['hex']} with UNIT, UNIT | always | never | key locations") + \
        ["  key locations"]


def _card_play(o: Mapping[str, Any]) -> list[str]:
    uses = o["uses"]
    lines = ["cards:"] + comment(f"your hand: {cards(o['hand'])}; one use per line, in order, then done: "
                                 "transport UNIT to HEX|korea|siberia, forced march movement|combat, "
                                 "strategic UNIT HEX-HEX-..., event CARD [on UNIT, UNIT], reorganise UNIT; "
                                 "[using CARD] [if CONDITION]")
    if "event" in uses:
        lines += listing("events playable", (card_name(c) for c in uses["event"]))
    if "transport" in uses:
        by_place: dict[str, list[str]] = {}
        for unit, places in uses["transport"].items():
            by_place.setdefault("|".join(places), []).append(unit)
        lines += listing("transports", (f"{', '.join(units)} to {places}" for places, units in by_place.items()))
    if "strategic" in uses:
        lines += listing("strategic movement", uses["strategic"])
    if "reorganise" in uses:
        lines += listing("reorganise", uses["reorganise"])
    if "forced-march" in uses:
        lines += comment("forced march: movement or combat (once per Player Turn); then write the "
                         "forced move: or forced attack: block")
    return lines + ["  done"]


def _naval(text: str):
    def make(o: Mapping[str, Any]) -> list[str]:
        values = {k: (", ".join(map(card_name, v)) or "none") if isinstance(v, list) else v for k, v in o.items()}
        if "fleet" in values:
            values["fleet"] = str(values["fleet"]).replace("_", "-")
        return ["naval:"] + comment(text.format(**values)) + ["  none"]
    return make


def _flagship(o: Mapping[str, Any]) -> list[str]:
    return ["naval:"] + comment(f"Makarov's flagship, secret (11.5): one of {', '.join(o['ships'])}") + \
        [f"  flagship {o['ships'][0]}"]


TEMPLATES = {
    "extra-card": _extra_card, "move": _move, "attacks": _attacks, "support": _support,
    "combat-event": _combat_event, "reaction": _reaction, "loss": _loss, "retreat": _retreat, "chain": _chain,
    "attacker-result": _attacker_result, "advance": _advance, "card-play": _card_play, "flagship": _flagship,
    "sortie": _naval("sortie {fleet} [using CARD] to sortie (cards held for it: {cards}); none: the fleet "
                     "stays in port"),
    "call-off": _naval("the sortie goes on with {unhurt} unhurt ship(s); call off below N to call it off"),
    "intercept": _naval("intercept port-arthur | intercept vladivostok to intercept with your fleet"),
    "naval-response": _naval("blockade; mines to use #1 and #3 against the sortie (held: blockade "
                             "{blockade}, mines {mines})"),
    "naval-damage": _naval("{steps} step(s) of damage from {why} to: {ships}; hit SHIP, SHIP (first), then "
                           "the strongest"),
    "akiyama": _naval("akiyama: play #4 so that your gunfire comes first (11.3.4)"),
    "second-fleet": _naval("withdraw SHIP (one of {ships}) to bring {returns} back undamaged (11.4)"),
    "line-up": _naval("line SHIP, SHIP, ...: the order of your line, the unhurt first ({unhurt}), then the "
                      "damaged ({damaged}), facing {enemy} one to one"),
    "repair": _naval("repair SHIP, SHIP: up to {count} of {ships} (default: the strongest)"),
}
