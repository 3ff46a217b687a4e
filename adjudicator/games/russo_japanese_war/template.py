"""The orders skeleton of each question: what a player fills in to answer it.

:func:`answer_template` gives, for a :class:`~adjudicator.engine.requests.Decision`, the
lines to put between BEGIN ORDERS and END ORDERS after the header: the block that answers
the question, the player's own units (or cards, hexes, ships) the question offers as
comments, and, as the one line not commented, the default answer -- so that the skeleton
sent back unchanged answers the question as silence would, and a player changes that line.
Every line fits in 74 columns (78 in the report, indented by 4).

The comments are written in a reader's language (:func:`answer_template` takes the
reader's gettext, ``tr``; English without); the orders lines stay as the orders
language writes them, which reads them whatever the reader's language.
"""

from __future__ import annotations

import textwrap
from typing import Any, Callable, Iterable, Mapping

from adjudicator.i18n import N_

WIDTH = 74


def comment(text: str, indent: str = "  ") -> list[str]:
    """``text`` as comment lines of at most :data:`WIDTH` columns."""
    return textwrap.wrap(text, WIDTH, initial_indent=indent + "# ", subsequent_indent=indent + "#   ",
                         break_on_hyphens=False, break_long_words=True)


def listing(label: str, items: Iterable[str], tr: Callable[[str], str] | None = None) -> list[str]:
    """``label: item, item`` as comment lines (none without items), in the language of ``tr``."""
    items = list(items)
    return comment((tr or _english)(LISTING) % {"label": label, "items": ", ".join(items)}) if items else []


#: A listing's line (:func:`listing`), marked for the catalogue.
LISTING = N_("%(label)s: %(items)s")


def card_name(card: str) -> str:
    """A card as orders name it: its number (``#09`` -> ``9``; the reshuffle card by name)."""
    return card[1:].lstrip("0") if card.startswith("#") else card


def cards(cards_: Iterable[str]) -> str:
    return ", ".join(card_name(c) for c in cards_)


Tr = Callable[[str], str]


def _english(message: str) -> str:
    return message


def answer_template(decision: Any, tr: Tr | None = None) -> list[str]:
    """The skeleton answering ``decision`` (see the module docstring), its comments in
    the language of ``tr`` (English without)."""
    tr = tr or _english
    make = TEMPLATES.get(decision.kind)
    return make(decision.options, tr) if make else comment(f"(answer {decision.kind})", "")


def _extra_card(o: Mapping[str, Any], tr: Tr) -> list[str]:
    return ["replenish: no extra card"] + comment(tr("or: replenish: extra card   (1 Morale for a fourth card, "
                                                     "decided before drawing, 10.1)"), "")


def _move(o: Mapping[str, Any], tr: Tr) -> list[str]:
    at = o.get("at", {})
    lines = ["forced move:" if o.get("forced") else "move:"]
    lines += comment(tr("one line per unit, in order: UNIT HEX-HEX-... (the path starts where the unit "
                        "is, e.g. korea-1015-1114); rail UNIT HEX-HEX-... (one rail move per phase); "
                        "done when no (further) unit moves"))
    lines += listing(tr("may move"), (tr("%(unit)s at %(hex)s") % {"unit": u, "hex": at[u]} if u in at else u
                                      for u in o["units"]), tr)
    lines += listing(tr("may move by rail"), (tr("%(unit)s at %(hex)s") % {"unit": u, "hex": at[u]} if u in at
                                              else u for u in o["rail"]), tr)
    return lines + ["  done"]


def _attacks(o: Mapping[str, Any], tr: Tr) -> list[str]:
    lines = ["forced attack:" if o.get("forced") else "attack:"]
    lines += comment(tr("every attack, in the order of resolution: TARGET with UNIT, UNIT [support "
                        "[using CARD] [if differential <= N]]"))
    for target, units in sorted(o["targets"].items()):
        lines += comment(f"{target} with {', '.join(units)}")
    return lines + ["  none"]


def _support(o: Mapping[str, Any], tr: Tr) -> list[str]:
    heading = "forced attack:" if o.get("forced") else "attack:"
    target, units = o["target"], ", ".join(o.get("attackers", ())) or "UNIT"
    lines = [heading] + comment(tr("support: discard a card for +1 (differential now %(differential)s); "
                                   "your hand: %(hand)s; write: %(target)s with %(units)s support [using CARD]")
                                % {"differential": f"{o['differential']:+d}", "hand": cards(o["hand"]),
                                   "target": target, "units": units})
    return lines + [f"  {target} with {units} no support"]


def _combat_event(o: Mapping[str, Any], tr: Tr) -> list[str]:
    facts = tr("differential %(differential)s") % {"differential": f"{o['differential']:+d}"}
    if o.get("result"):
        facts += tr(", result %(result)s") % {"result": o["result"]}
    if o.get("answering"):
        facts += tr(", the enemy has just played %(card)s") % {"card": card_name(o["answering"])}
    before = o["window"] == "before_roll"
    text = (tr("the attack on %(target)s (before the die; you are the %(role)s; %(facts)s); playable now: "
               "%(playable)s; one rule per line, the first that applies is played: CARD [if differential >= N "
               "| if result in DE, EX | if attacking | if enemy played CARD]") if before else
            tr("the attack on %(target)s (after the die; you are the %(role)s; %(facts)s); playable now: "
               "%(playable)s; one rule per line, the first that applies is played: CARD [if differential >= N "
               "| if result in DE, EX | if attacking | if enemy played CARD]"))
    lines = ["events:"] + comment(text % {"target": o["target"], "role": tr(o["role"]), "facts": facts,
                                          "playable": cards(o["playable"])})
    return lines + ["  none"]


#: The roles in a combat, as the combat event's template names them.
ROLES = (N_("attacker"), N_("defender"))


def _reaction(o: Mapping[str, Any], tr: Tr) -> list[str]:
    return ["react:"] + comment(tr("cancel the Russian event %(event)s with: %(playable)s")
                                % {"event": card_name(o["event"]), "playable": cards(o["playable"])}) + ["  none"]


def _loss(o: Mapping[str, Any], tr: Tr) -> list[str]:
    return ["losses:"] + comment(tr("one of %(units)s is eliminated at %(target)s: protect UNIT, UNIT; weakest "
                                    "first | strongest first") % {"units": ", ".join(o["units"]),
                                                                   "target": o["target"]}) + ["  weakest first"]


def _retreat(o: Mapping[str, Any], tr: Tr) -> list[str]:
    return ["retreat:"] + comment(tr("%(unit)s retreats to one of %(hexes)s: write %(unit)s to HEX, HEX, or "
                                     "toward HEX (default: nearest your supply source)")
                                  % {"unit": o["unit"], "hexes": ", ".join(o["hexes"])}) + ["  none"]


def _chain(o: Mapping[str, Any], tr: Tr) -> list[str]:
    return ["chain:"] + comment(tr("a unit in %(hex)s makes way (chain retreat): one of %(units)s; write UNIT, "
                                   "UNIT (first to make way) or strongest first")
                                % {"hex": o["hex"], "units": ", ".join(o["units"])}) + ["  weakest first"]


def _attacker_result(o: Mapping[str, Any], tr: Tr) -> list[str]:
    return ["AR:"] + comment(tr("AR at %(target)s: AR: retreat (every attacker retreats) or AR: eliminate (AE: "
                                "one attacker eliminated); default: retreat if a unit can")
                             % {"target": o["target"]}) + ["  none"]


def _advance(o: Mapping[str, Any], tr: Tr) -> list[str]:
    return ["advance:"] + comment(tr("%(hex)s is empty: up to %(limit)s of %(units)s may advance: %(hex)s with "
                                     "UNIT, UNIT | always | never | key locations")
                                  % {"hex": o["hex"], "limit": o["limit"], "units": ", ".join(o["units"])}) + \
        ["  key locations"]


def _card_play(o: Mapping[str, Any], tr: Tr) -> list[str]:
    uses = o["uses"]
    lines = ["cards:"] + comment(tr("your hand: %(hand)s; one use per line, in order, then done: transport UNIT "
                                    "to HEX|korea|siberia, forced march movement|combat, strategic UNIT "
                                    "HEX-HEX-..., event CARD [on UNIT, UNIT], reorganise UNIT; [using CARD] [if "
                                    "CONDITION]") % {"hand": cards(o["hand"])})
    if "event" in uses:
        lines += listing(tr("events playable"), (card_name(c) for c in uses["event"]), tr)
    if "transport" in uses:
        by_place: dict[str, list[str]] = {}
        for unit, places in uses["transport"].items():
            by_place.setdefault("|".join(places), []).append(unit)
        lines += listing(tr("transports"), (f"{', '.join(units)} to {places}" for places, units in by_place.items()),
                         tr)
    if "strategic" in uses:
        lines += listing(tr("strategic movement"), uses["strategic"], tr)
    if "reorganise" in uses:
        lines += listing(tr("reorganise"), uses["reorganise"], tr)
    if "forced-march" in uses:
        lines += comment(tr("forced march: movement or combat (once per Player Turn); then write the "
                            "forced move: or forced attack: block"))
    return lines + ["  done"]


def _naval(text: str):
    def make(o: Mapping[str, Any], tr: Tr) -> list[str]:
        values = {k: (", ".join(map(card_name, v)) or tr("none")) if isinstance(v, list) else v for k, v in o.items()}
        if "fleet" in values:
            values["fleet"] = str(values["fleet"]).replace("_", "-")
        return ["naval:"] + comment(tr(text).format(**values)) + ["  none"]
    return make


def _flagship(o: Mapping[str, Any], tr: Tr) -> list[str]:
    return ["naval:"] + comment(tr("Makarov's flagship, secret (11.5): one of %(ships)s")
                                % {"ships": ", ".join(o["ships"])}) + [f"  flagship {o['ships'][0]}"]


TEMPLATES = {
    "extra-card": _extra_card, "move": _move, "attacks": _attacks, "support": _support,
    "combat-event": _combat_event, "reaction": _reaction, "loss": _loss, "retreat": _retreat, "chain": _chain,
    "attacker-result": _attacker_result, "advance": _advance, "card-play": _card_play, "flagship": _flagship,
    "sortie": _naval(N_("sortie {fleet} [using CARD] to sortie (cards held for it: {cards}); none: the fleet "
                        "stays in port")),
    "call-off": _naval(N_("the sortie goes on with {unhurt} unhurt ship(s); call off below N to call it off")),
    "intercept": _naval(N_("intercept port-arthur | intercept vladivostok to intercept with your fleet")),
    "naval-response": _naval(N_("blockade; mines to use #1 and #3 against the sortie (held: blockade "
                                "{blockade}, mines {mines})")),
    "naval-damage": _naval(N_("{steps} step(s) of damage from {why} to: {ships}; hit SHIP, SHIP (first), then "
                              "the strongest")),
    "akiyama": _naval(N_("akiyama: play #4 so that your gunfire comes first (11.3.4)")),
    "second-fleet": _naval(N_("withdraw SHIP (one of {ships}) to bring {returns} back undamaged (11.4)")),
    "line-up": _naval(N_("line SHIP, SHIP, ...: the order of your line, the unhurt first ({unhurt}), then the "
                         "damaged ({damaged}), facing {enemy} one to one")),
    "repair": _naval(N_("repair SHIP, SHIP: up to {count} of {ships} (default: the strongest)")),
}
