"""What a report shows a side: the map (ASCII in the text part, SVG in the HTML part),
every stack, the key locations and their control, Morale and turn, the side's own hand
and only the size of the opponent's, the top of the discard pile, the ZOC of the enemy,
the exact odds of each attack the side could declare, and what is asked next.

The partials are ``templates/russo-japanese-war/report.txt.j2`` and ``report.html.j2``
(HTML autoescaped: the SVG is drawn by the template from plain numbers and names).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

import jinja2

from adjudicator.games.russo_japanese_war.data import JAPAN, RESULTS, RUSSIA, other
from adjudicator.games.russo_japanese_war.hexmap import BOXES, hex_name, parse_hex
from adjudicator.games.russo_japanese_war.rules import combat as combat_rules
from adjudicator.resources import data_dir

SIZE = 18          # hex radius in the SVG, pixels
INITIAL = {JAPAN: "J", RUSSIA: "R"}


def attack_odds(t, side: str) -> list[dict]:
    """Each attack ``side`` could declare now with every adjacent unit: the differential,
    the column and the exact chance of each result, without and with a support card."""
    rows = []
    for target, units in sorted(combat_rules.targets(t, side).items()):
        combat = {"target": target, "attackers": units, "defender": other(side), "ignore": [],
                  "support": 0, "bonus": 0}
        base = combat_rules.compute_differential(t, combat)
        rows.append({"target": target, "units": units, "differential": base,
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


def text_map(t) -> list[str]:
    """One line per map column, north (high columns) first; odd columns shifted half a cell.
    Each cell: the stack (J2, R1 = side and count) or the terrain (. clear, w wasteland),
    then K key location / T town."""
    board = t.board
    columns = sorted({parse_hex(h)[0] for h in board.hexes}, reverse=True)
    rows = sorted({parse_hex(h)[1] for h in board.hexes})
    lines = ["      row: " + "".join(f"{r:02d}  " for r in rows)]
    for c in columns:
        cells = []
        for r in rows:
            h = hex_name(c, r)
            if h not in board.hexes:
                cells.append("    ")
                continue
            stack = t.occupants(h)
            mark = f"{INITIAL[t.side_of(stack[0])]}{len(stack)}" if stack else ("w" if h in board.wasteland else ".")
            mark += "K" if h in board.key_locations else "T" if h in board.towns else ""
            cells.append(f"{mark:<4}")
        shift = "  " if c % 2 else ""
        lines.append(f"col {c:02d}    {shift}" + "".join(cells).rstrip())
    return lines


def svg_hexes(t, side: str | None) -> dict:
    """Plain numbers for the template's SVG: one polygon per hex (north up: higher columns
    on top, rows left to right), the terrain, control, the stack, enemy ZOC shading."""
    board = t.board
    enemy_zoc = t.zoc(other(side)) if side else frozenset()
    cells = []
    width = SIZE * math.sqrt(3)
    columns = [parse_hex(h)[0] for h in board.hexes]
    top = max(columns)
    for h in sorted(board.hexes):
        c, r = parse_hex(h)
        x = width * r + (width / 2 if c % 2 else 0) + SIZE
        y = 1.5 * SIZE * (top - c) + SIZE
        points = " ".join(f"{x + SIZE * math.cos(math.radians(a)):.1f},{y + SIZE * math.sin(math.radians(a)):.1f}"
                          for a in range(30, 390, 60))
        stack = t.occupants(h)
        cells.append({
            "hex": h, "x": round(x, 1), "y": round(y, 1), "points": points,
            "terrain": "wasteland" if h in board.wasteland else "clear",
            "town": h in board.towns, "key": board.key_locations.get(h, ""),
            "control": t.controller(h), "zoc": h in enemy_zoc,
            "stack": [f"{u} {t.strength(u)}-{t.units[u]['ma']}" for u in stack],
            "side": t.side_of(stack[0]) if stack else "",
        })
    height = 1.5 * SIZE * (top - min(columns)) + 2 * SIZE
    rows = [parse_hex(h)[1] for h in board.hexes]
    return {"cells": cells, "width": round(width * (max(rows) + 1.5) + SIZE, 1), "height": round(height + SIZE, 1)}


def report_context(game, state: Mapping[str, Any], side: str | None, waiting: Any = None) -> dict:
    """Everything the partials show ``side`` (None: the referee)."""
    t = game.table(state)
    view = game.view(state, side)
    boxes = {box: sorted(u for u, v in t.units.items() if v["at"] == box) for box in BOXES}
    stacks = [{"hex": t.board.label(h), "units": [f"{u} ({t.side_of(u)}, {t.strength(u)}-{t.units[u]['ma']})"
                                                 for u in t.occupants(h)]}
              for h in sorted({v["at"] for v in t.units.values() if v["at"] not in BOXES})]
    cards = view["cards"]
    return {
        "game_title": game.title, "turn": state["turn"], "phase": state["phase"], "side": side or "referee",
        "morale": state["morale"], "losses": state["losses"], "result": state["result"],
        "key_locations": [{"hex": h, "name": n, "control": t.controller(h)}
                          for h, n in sorted(t.board.key_locations.items())],
        "stacks": stacks, "boxes": boxes, "map_lines": text_map(t), "svg": svg_hexes(t, side),
        "hand": [t.data.card_label(c, side) for c in cards.get("hand", [])] if side else [],
        "opponent_hand_size": cards.get("opponent_hand_size", 0),
        "discard_top": t.data.card_label(cards["discard_top"]) if cards["discard_top"] else "",
        "deck_count": cards["deck_count"],
        "odds": attack_odds(t, side) if side else [],
        "waiting": None if waiting is None else {"side": waiting.side, "kind": waiting.kind, "prompt": waiting.prompt},
        "limits": state["limits"], "barred": state["barred"],
        "zoc_lost": sorted(u for u, v in t.units.items() if v.get("zoc_lost")),
        "naval": naval_context(view.get("naval")),
    }


FLEET_NAMES = {"first": "Japanese First Fleet", "second": "Japanese Second Fleet",
               "port_arthur": "Russian Port Arthur Fleet", "vladivostok": "Russian Vladivostok Fleet"}
STEP_NAMES = {2: "undamaged", 1: "damaged", 0: "sunk"}


def naval_context(naval: Mapping[str, Any] | None) -> dict | None:
    """11.0: each fleet's ships with strength and state; Makarov's flagship only where the
    view shows it (Russia's own report, or once revealed)."""
    if naval is None:
        return None
    fleets = {}
    for sid, ship in naval["ships"].items():
        state = "withdrawn" if ship.get("withdrawn") else STEP_NAMES[ship["steps"]]
        mark = " (Makarov)" if sid == naval["flagship"] else ""
        fleets.setdefault(ship["fleet"], []).append(f"{sid}{mark} {ship['strength']} {state}")
    return {"fleets": [{"name": FLEET_NAMES[f], "ships": ships} for f, ships in fleets.items()],
            "home_blocked": naval["home_blocked"], "pa_eliminated": bool(naval.get("pa_eliminated"))}


@lru_cache(maxsize=2)
def _environment(autoescape: bool) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(data_dir("templates"))), autoescape=autoescape,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              keep_trailing_newline=True)


def render_report(game, state: Mapping[str, Any], side: str | None, waiting: Any = None) -> tuple[str, str]:
    """The game's partials for ``side`` on their own: (plain text, HTML)."""
    context = {"game": report_context(game, state, side, waiting)}
    text = _environment(False).get_template("russo-japanese-war/situation.txt.j2").render(**context)
    html = _environment(True).get_template("russo-japanese-war/situation.html.j2").render(**context)
    if waiting is not None:
        text += f"\nNext: {waiting.side} -- {waiting.prompt}\n"
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
    :mod:`..skeleton` (the block, the choices as comments, the default answer)."""
    from adjudicator.games.russo_japanese_war.skeleton import answer_template
    return answer_template(decision)
