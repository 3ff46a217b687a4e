"""What a Port Arthur report shows: the situation drawn in text, how to answer the
open question in the orders language, and the odds of this side's possible battles.

The situation is given as values (ships, places, markers), which the templates put
into words in the reader's language; the words this module writes for them are marked
for the catalogue (``N_``) and translated there."""

from __future__ import annotations

import textwrap

from typing import Any, Mapping

from adjudicator.engine import Decision
from adjudicator.games.port_arthur.data import JAPAN, RUSSIA, Board
from adjudicator.i18n import N_

KEYWORD = {"reroll": "reroll", "seize": "seize", "blockade": "blockade"}


def phase_words(phase: str) -> str:
    """The phase as the rulebook names it ("Sortie Phase of the Russian Fleet")."""
    from adjudicator.games.port_arthur.rules.sequence import PHASE_TITLES

    return PHASE_TITLES.get(phase, str(phase))


def context(state: Any, view: Mapping[str, Any], side: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Port Arthur's part of a player's report: the situation, the odds of this
    side's possible battles, and the note on reconstructed counter values."""
    from adjudicator.games.port_arthur.data import load_board
    from adjudicator.games.port_arthur.picture import board_picture


    board = load_board()
    return {
        "phase_title": phase_words(getattr(state, "phase", "")),
        "situation": situation(view, board),
        "picture": board_picture(view, board),
        "odds": battle_odds(state, side, options.get("partial_hits", "less-than"),
                            bool(options.get("fog_of_war"))),
        "reconstructed": True,
    }


#: The words of the situation that the templates translate (the marker's centre, the
#: blockade's yes and no, Port Arthur's states, the phase once the game is over).
WORDS = (N_("centre"), N_("yes"), N_("no"), N_("port"), N_("no-shipyard"), N_("fallen"),
         N_("ended"))  # (the phase of a game over)


def situation(view: Mapping[str, Any], board: Board) -> dict[str, Any]:
    """The situation as rows a template lays out: tracks, zones, ports, sunk ships.
    A place's ships are ``{"ships": [...], "hidden": n}`` (each ship its name, whether
    it is damaged, and its figures), "-" where there are none."""
    ships = view["ships"]
    fog = view.get("fog_of_war", False)

    def listed(place: str, side: str) -> Any:
        here = [s for s in ships if s["at"] == place and s["side"] == side]
        if not here:
            return "-"
        if fog and here[0].get("stack", 1) > 1:
            return {"ships": [_label(here[0])], "hidden": here[0]["stack"] - 1}
        return {"ships": [_label(s) for s in here], "hidden": 0}

    zones = [{"zone": z, "japan": listed(z, JAPAN), "russia": listed(z, RUSSIA),
              "key": board.zones[z].key} for z in board.zones]
    ports = []
    for port in board.ports:
        for place, kind in ((port, "harbour"), (f"{port} shipyard", "shipyard")):
            side = board.ports[port].side
            held = listed(place, side)
            if held != "-" or place == port:
                ports.append({"port": port, "kind": kind, "ships": held})
    track = [f"[{space}{'*' if i < view['occupied'] else ''}]" for i, space in enumerate(view["track"])]
    pending = sorted({s["at"] for s in ships if s["at"].startswith("turn ")})
    cp = view["cp"]
    return {
        "header": {"turn": view["turn"], "turns": board.turns, "initiative": view["initiative"].capitalize(),
                   "cp": {"side": "Japan" if cp > 0 else "Russia" if cp < 0 else None, "points": abs(cp)},
                   "blockade": "yes" if view["blockade"] else "no", "port_arthur": view["port_arthur"]},
        "track": {"spaces": " ".join(track), "landing": ", ".join(view["landing"])},
        "zones": zones,
        "ports": ports,
        "baltic": [{"turn": int(box.split()[1]), "ships": ", ".join(s["name"] for s in ships if s["at"] == box)}
                   for box in pending],
        "sunk": ", ".join(s["name"] for s in ships if s["at"] == "sunk"),
        "fog": fog,
    }


def _label(ship: Mapping[str, Any]) -> dict[str, Any]:
    fp, sp = ship["firepower"], ship["speed"]
    figures = f"{fp[1]}/{sp[1]}/{ship['defense']}" if ship["damaged"] else f"{fp[0]}/{sp[0]}"
    return {"name": ship["name"], "damaged": bool(ship["damaged"]), "figures": figures}


HINT_WIDTH = 74
"""A template line's width at most: the report prints the template indented by 4, in 78 columns."""


def _comment(text: str, lead: str = "# ", more: str = "#     ") -> list[str]:
    """``text`` as comment lines of the template, each within :data:`HINT_WIDTH`."""
    return textwrap.wrap(text, HINT_WIDTH, initial_indent=lead, subsequent_indent=more,
                         break_long_words=False, break_on_hyphens=False)


def answer_hint(decision: Decision) -> list[str]:
    """How to answer ``decision`` in the orders language: a skeleton of the orders
    that reads as it stands and gives the default answer (docs/orders.md), with the
    legal choices as comments ("#") to write in its place."""
    return answer_hint_in(decision, None)


def answer_hint_in(decision: Decision, translations: Any) -> list[str]:
    """:func:`answer_hint` with its comments in the language of ``translations`` (the
    reader's gettext translations; English when None); the orders lines and the choices
    written as orders are the same in every language, so the template reads and answers
    alike."""
    tr = translations.gettext if translations is not None else _as_written
    options = decision.options
    kind = decision.kind
    if kind == "sortie":
        lines = ["sortie: none", *_comment(tr("or one line per ship that sails (ships not named stay in port):"))]
        for ship, places in options["ships"].items():
            lines += _comment(f"{ship} to {' | '.join(places)}", "#   ")
        if options.get("land"):
            lines += _comment(f"land in {', '.join(options['land'])}", "#   ")
        return lines
    if kind == "navo":
        lines = ["operations:", "  pass",
                 *_comment(tr("or, above 'pass', one line per NAVO you foresee (the first that applies is "
                              "carried out):"))]
        for zone in options["battle"]:
            lines += _comment(f"battle in {zone}", "#   ")
        for move in options["move"]:
            who = f"{', '.join(move['ships'])} from {move['from']}" if move["port"] else f"squadron from {move['from']}"
            lines += _comment(f"move {who} to {' | '.join(move['to'])}", "#   ")
        return lines
    if kind in KEYWORD:
        default = "yes" if kind == "blockade" and options.get("keep") and True in options.get("use", ()) else "no"
        return [f"{KEYWORD[kind]}: {default}", "# " + tr("or: %(answer)s") % {"answer": "no" if default == "yes" else "yes"}]
    if kind == "dice":
        return ["dice: auto", *_comment(tr("or a number of dice, 1-6 (your SFP is %(sfp)s)") % {
            "sfp": options["firepower"]})]
    if kind == "criticals":
        return ["criticals: auto", *_comment(tr("or the %(count)s ship(s) to take them, in order, of: %(ships)s") % {
            "count": options["count"], "ships": ", ".join(options["targets"])})]
    if kind == "hits":
        return ["hits: auto", *_comment(tr("or: protect %(ships)s (last to be hit first); %(hits)s hit(s) to apply") % {
            "ships": ", ".join(options["ships"]), "hits": options["hits"]})]
    if kind == "return":
        lines = ["return: auto", *_comment(tr("or one line per ship:"))]
        for ship, ports in options["ships"].items():
            lines += _comment(f"{ship} to {' | '.join(ports)}", "#   ")
        return lines
    if kind in ("mines", "attack"):
        return [f"{kind}: auto", *_comment(tr("or the %(count)s ship(s), in order, of: %(ships)s") % {
            "count": options["count"], "ships": ", ".join(options["ships"])})]
    return [f"{kind}: ..."]


def _as_written(message: str) -> str:
    return message


def battle_odds(state: Any, side: str, partial_hits: str, fog: bool = False) -> list[dict[str, Any]]:
    """For each zone where this side and the enemy both have ships: the odds of each
    side's fire at each dice count (under the fog of war, only this side's own)."""
    from adjudicator.games.port_arthur.odds import best_dice_count, odds_table
    from adjudicator.games.port_arthur.state import squadron_firepower

    tables = []
    for zone in state.positions(side):
        enemy = state.squadron(RUSSIA if side == JAPAN else JAPAN, zone)
        own = state.squadron(side, zone)
        if not enemy or not own or zone.endswith("shipyard") or zone.startswith("turn"):
            continue
        for firer, ships in ((side, own),) if fog else ((side, own), ("enemy", enemy)):
            sfp = squadron_firepower(ships)
            rows = [{"count": o.count, "full": f"{float(o.full_success):.0%}",
                     "hits": f"{float(o.expected_hits):.2f}", "criticals": f"{float(o.expected_criticals):.2f}"}
                    for o in odds_table(sfp, partial_hits)]
            tables.append({"zone": zone, "firer": firer, "sfp": sfp, "rows": rows,
                           "best": best_dice_count(sfp, partial_hits=partial_hits)})
    return tables
