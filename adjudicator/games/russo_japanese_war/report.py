"""What a report shows a side: the map (drawn in the HTML part, :mod:`.picture`; as text
grids in the plain part, :mod:`.textmap`), every unit by id, name and strength in its hex or
box, the key locations and their control, Morale and turn, the side's own hand with its
cards' texts and only the size of the opponent's, the top of the discard pile with both
halves' texts, the enemy's zone of control, each attack the side could declare with what
its differential is made of and its exact odds, and what is asked next.

The partials are ``templates/russo-japanese-war/situation.*.j2`` (the map's SVG is
``board.svg.j2``, its legend ``legend.html.j2``) and ``notes.*.j2`` (the map key); the HTML
is autoescaped, the SVG drawn from plain numbers and names.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping


from adjudicator.games.russo_japanese_war.data import JAPAN, RESULTS, RUSSIA, SIDE_ADJECTIVE, other
from adjudicator.games.russo_japanese_war.hexmap import BOXES
from adjudicator.games.russo_japanese_war.picture import board_picture, hex_parts, hex_words, legend
from adjudicator.games.russo_japanese_war.textmap import hexsides, key_grid, paths, position_grid
from adjudicator.games.russo_japanese_war.rules import combat as combat_rules
from adjudicator.games.russo_japanese_war.rules import naval as naval_rules
from adjudicator.games.russo_japanese_war.rules.sequence import phase_title
from adjudicator.i18n import N_
from adjudicator.reports.render import template_environment, wrap_text


def attack_odds(t, side: str) -> list[dict]:
    """Each attack ``side`` could declare now with every adjacent unit: the differential,
    the column and the exact chance of each result, without and with a support card."""
    rows = []
    for target, units in sorted(combat_rules.targets(t, side).items()):
        combat = {"target": target, "attackers": units, "attacker": side, "defender": other(side), "ignore": [],
                  "support": 0, "bonus_cards": []}
        base = combat_rules.compute_differential(t, combat)
        line = combat_rules.combat_strengths(t, combat)
        rows.append({"target": target, "units": units, "differential": base,
                     "strengths": format(line), "line": line,
                     "odds": odds(t, base), "supported": odds(t, base + t.data.numbers.support_value)})
    return rows


def odds(t, differential: int) -> dict[str, str]:
    if differential < t.data.numbers.min_differential:
        return {"NE": "1"}
    column = min(differential, t.data.numbers.max_column)
    counts = {r: 0 for r in RESULTS}
    for die in range(1, 7):
        counts[t.crt.read(column, die)] += 1
    return {r: str(Fraction(n, 6)) for r, n in counts.items() if n}


def phase_words(phase: str) -> str:
    """The phase as the reports name it (:func:`phase_title`), for ``status``."""
    return phase_title(phase)


def unit_label(t, uid: str, names: Mapping[str, str]) -> str:
    """'S2 2nd Siberian Corps 3-2': id, name (when the counter sheet has one), strength-MA."""
    name = names.get(uid)
    return f"{uid}{' ' + name if name else ''} {t.strength(uid)}-{t.units[uid]['ma']}"


#: The boxes beside the map (marked for the catalogue: the report translates them).
BOX_TITLES = {"korea": N_("Korean Peninsula"), "home": N_("Japanese Home Islands"), "siberia": N_("Siberia"),
              "europe": N_("European Russia"), "eliminated": N_("Eliminated Units")}


def card_lines(t, cards: Mapping[str, Any], side: str | None) -> dict:
    """The side's hand with the text of its own half of each card, and the top of the
    discard pile (public, 10.0) with both halves' texts."""
    data = t.data

    def half(card: str, who: str) -> dict:
        found = data.half(card, who)
        return {"label": data.card_label(card, who), "text": found.text if found else ""}

    top = cards.get("discard_top")
    return {
        "hand": [half(card, side) for card in cards.get("hand", [])] if side else [],
        "discard_top": {"label": data.card_label(top),
                        "halves": [{"side": SIDE_ADJECTIVE[who], **half(top, who)} for who in (JAPAN, RUSSIA)]}
        if top else None,
        "discard_count": cards.get("discard_count", 0),
    }


def limit_lines(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """10.4.3: the hand limits in force (the side's adjective and the number of
    cards; the partials put them into words)."""
    return [{"side": SIDE_ADJECTIVE.get(who, who), "count": n} for who, n in sorted(state["limits"].items())]


def report_context(game, state: Mapping[str, Any], side: str | None, waiting: Any = None) -> dict:
    """Everything the partials show ``side`` (None: the referee)."""
    t = game.table(state)
    view = game.view(state, side)
    board = t.board
    names = {unit.id: unit.name for unit in t.data.units}
    on_map = sorted({v["at"] for v in t.units.values() if v["at"] not in BOXES})
    boxes = [{"box": box, "title": BOX_TITLES[box],
              "units": [unit_label(t, u, names) for u in sorted((u for u, v in t.units.items() if v["at"] == box),
                                                                key=lambda u: t.units[u]["seq"])]}
             for box in BOXES]
    cards = view["cards"]
    return {
        "game_title": game.title, "turn": state["turn"], "turns": t.data.numbers.turns,
        "phase": state["phase"], "phase_title": phase_title(state["phase"]), "side": side or "referee",
        "side_title": side.capitalize() if side else "the referee",
        "morale": state["morale"], "losses": state["losses"], "result": state["result"],
        "key_locations": [{"hex": h, "name": n, "control": t.controller(h)}
                          for h, n in sorted(board.key_locations.items())],
        "stacks": [{"hex": hex_words(t, h), "where": hex_parts(t, h),
                    "units": [unit_label(t, u, names) for u in t.occupants(h)]}
                   for h in on_map],
        "boxes": boxes, "position_grid": position_grid(t, side), "key_grid": key_grid(board),
        "routes": {"roads": paths(board.roads), "railways": paths(board.railways),
                   "rivers": hexsides(board.rivers), "sea": hexsides(board.sea),
                   "harbours": [{"label": board.label(h), "southern": bool(board.harbours[h])}
                                for h in sorted(board.harbours)],
                   "towns": [board.label(h) for h in sorted(board.towns)],
                   "supply": [{"side": SIDE_ADJECTIVE[who], "hex": hex_} for who, hex_ in sorted(board.supply.items())],
                   "entries": [{"box": BOX_TITLES[box], "hex": hex_} for box, hex_ in sorted(board.entries.items())]},
        "picture": board_picture(t, side), "legend": legend(side),
        "cards": card_lines(t, cards, side),
        "opponent_hand_size": cards.get("opponent_hand_size", 0),
        "deck_count": cards["deck_count"],
        "odds": attack_odds(t, side) if side else [],
        "waiting": None if waiting is None else {"side": waiting.side, "kind": waiting.kind, "prompt": waiting.prompt},
        "limits": limit_lines(state), "barred": state["barred"],
        "zoc_lost": sorted(u for u, v in t.units.items() if v.get("zoc_lost")),
        "naval": naval_context(view.get("naval"), state),
    }


#: The fleets and the ships' conditions (marked for the catalogue: the report translates them).
FLEET_NAMES = {"first": N_("Japanese First Fleet"), "second": N_("Japanese Second Fleet"),
               "port_arthur": N_("Russian Port Arthur Fleet"), "vladivostok": N_("Russian Vladivostok Fleet")}
STEP_NAMES = {2: N_("undamaged"), 1: N_("damaged"), 0: N_("sunk")}
WITHDRAWN = N_("withdrawn")


def naval_context(naval: Mapping[str, Any] | None, state: Mapping[str, Any]) -> dict | None:
    """11.0: each fleet's ships with strength and state; Makarov's flagship only where the
    view shows it (Russia's own report, or once revealed); which reading of 11.2.1 the
    campaign plays (A65)."""
    if naval is None:
        return None
    fleets = {}
    for sid, ship in naval["ships"].items():
        condition = WITHDRAWN if ship.get("withdrawn") else STEP_NAMES[ship["steps"]]
        fleets.setdefault(ship["fleet"], []).append({"id": sid, "makarov": sid == naval["flagship"],
                                                     "strength": ship["strength"], "condition": condition})
    return {"fleets": [{"name": FLEET_NAMES[f], "ships": ships} for f, ships in fleets.items()],
            "home_blocked": naval["home_blocked"], "pa_eliminated": bool(naval.get("pa_eliminated")),
            "sortie_reading": naval_rules.sortie_reading(state)}


def render_report(game, state: Mapping[str, Any], side: str | None, waiting: Any = None) -> tuple[str, str]:
    """The game's partials for ``side`` on their own: (plain text, HTML)."""
    context = {"game": report_context(game, state, side, waiting)}
    plain = template_environment(False)
    text = wrap_text(plain.get_template("russo-japanese-war/situation.txt.j2").render(**context)
                     + plain.get_template("russo-japanese-war/notes.txt.j2").render(**context))
    html = template_environment(True).get_template("russo-japanese-war/situation.html.j2").render(**context)
    if waiting is not None:
        text += wrap_text(f"\nNext: {waiting.side} -- {waiting.prompt}") + "\n"
    return text, html


def context(state: Any, view: Mapping[str, Any], side: str, options: Mapping[str, Any]) -> dict:
    """The game's part of a player's report (the plug-in contract): drawn from what
    ``side`` may see (the hand comes from ``view``)."""
    from adjudicator.games.russo_japanese_war.game import RussoJapaneseWar

    return report_context(RussoJapaneseWar(), state, side)


HINTS = {
    "extra-card": ["replenish: extra card        (or: no extra card)"],
    "move": ["move:", "  UNIT HEX-HEX-HEX             (the path starts at the unit)",
             "  rail UNIT HEX-HEX-...         (one rail move per Movement Phase)"],
    "attacks": ["attack:", "  TARGET with UNIT, UNIT [support [if differential <= N]]", "attack: none"],
    "support": ["attack:", "  TARGET with UNIT, UNIT support"],
    "combat-event": ["events:", "  CARD [if differential < N | if result in DE, EX | if target is HEX]"],
    "reaction": ["react: CARD"],
    "loss": ["losses: protect UNIT, UNIT; weakest first"],
    "retreat": ["retreat: toward HEX"],
    "chain": ["losses: weakest first      (the weakest unit makes way)"],
    "attacker-result": ["AR: retreat        (or: AR: eliminate)"],
    "advance": ["advance: always | never | key locations | HEX with UNIT, UNIT"],
    "flagship": ["naval: flagship SHIP          (secret: only the referee sees it until sunk or the end)"],
    "sortie": ["naval: sortie port-arthur [using CARD]; sortie vladivostok"],
    "call-off": ["naval: call off below N       (call the sortie off with fewer than N unhurt ships)"],
    "intercept": ["naval: intercept port-arthur; intercept vladivostok   (the second needs #4 Akiyama)"],
    "naval-response": ["naval: blockade; mines"],
    "naval-damage": ["naval: hit SHIP, SHIP          (then the strongest first)"],
    "akiyama": ["naval: akiyama                 (Japanese gunfire first, 11.3.4)"],
    "second-fleet": ["naval: withdraw SHIP           (to bring the Second Fleet back, 11.4)"],
    "card-play": ["cards:", "  1. transport UNIT to HEX|korea|siberia [using CARD]",
                  "  2. forced march movement|combat", "  3. strategic UNIT HEX-HEX-...",
                  "  4. event CARD [on UNIT, UNIT]", "  5. reorganise UNIT", "  6. done"],
}


def answer_hint(decision) -> list[str]:
    """How to answer ``decision`` in the orders language: the orders skeleton of
    :mod:`.template` (the block, the choices as comments, the default answer)."""
    from adjudicator.games.russo_japanese_war.template import answer_template
    return answer_template(decision)


def answer_hint_in(decision, translations) -> list[str]:
    """:func:`answer_hint` for a reader of another language: the comments in the
    language of ``translations`` (the reader's gettext translations), the orders lines
    as they are (the orders language reads them whatever the reader's language)."""
    from adjudicator.games.russo_japanese_war.template import answer_template
    return answer_template(decision, translations.gettext)
