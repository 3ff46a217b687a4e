"""The orders template of each question (rulings §4.3): a skeleton of the blocks that
answer it, the player's own ships listed, the choices as comments, at most 78
columns. Sent as it is, a standing question's template (armour, counter-torpedo,
torpedo, torpedo targets, repairs) answers it with the documented default; an
activation's (``activate``, ``orders``) is a plan of its own: each column's leader
ahead, each follower following the ship ahead of it, every ship firing at the
nearest enemy with every die, and the standing orders' defaults. A player edits the
lines to choose otherwise.
"""

from __future__ import annotations

from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.data import GameData, load_data
from adjudicator.games.tsushima_1905.language.model import spell

WIDTH = 74      # the report indents the template by 4 columns: 78 in all
STANDING = {
    "armor": ["armour: max", "#   or: none | 1 against 2 dice; keep 1 for repairs"],
    "counter-torpedo": ["counter-torpedo: max", "#   or: none | a number of dice, e.g. 2 | keep 1 for repairs"],
    "torpedo": ["torpedo: yes if attacks >= 2", "#   or: yes | no | yes if attacks >= 3 and offense"],
    "torpedo-targets": ["torpedo targets: most damaged first",
                        "#   or: battleships first, most damaged first | ship names, in order"],
    "repair": ["repairs: all dice, flooding first", "#   or: 2 dice, fire first | all dice, keep 1 for repairs"],
}
TURN_STANDING = ["armour: max", "counter-torpedo: max", "torpedo: yes if attacks >= 2",
                 "torpedo targets: most damaged first", "repairs: all dice, flooding first", "prime: all",
                 "collision: avoid",
                 "#   armour: none | 1 against 2 dice; keep 1 for repairs",
                 "#   prime: stop after 2     collision: allow (moves as written)",
                 "#   concede: yes            (ends the game: the other side wins)"]


def answer_template(decision: Decision, data: GameData | None = None) -> list[str]:
    """The skeleton answering ``decision`` (see the module docstring)."""
    data = data or load_data()
    kind = decision.kind
    if kind in STANDING:
        return list(STANDING[kind]) + _about(decision)
    if kind in ("activate", "orders"):
        return _turn_plan(decision, data)
    return [f"# {kind}: see docs/games/tsushima-1905/orders.md"]


def _about(decision: Decision) -> list[str]:
    options = decision.options
    if "max" in options:
        return [f"#   ({options.get('ship', 'the ship')}: 0 to {options['max']} dice now)"]
    if "attacks" in options:
        return [f"#   ({options['attacks']} attack(s) offered)"]
    return []


def _own_ships(decision: Decision, data: GameData) -> list[str]:
    waiting = decision.options.get("ships")
    return list(waiting) if waiting else [s.name for s in data.ships if s.side == decision.side]


def _turn_plan(decision: Decision, data: GameData) -> list[str]:
    """The activation order, a move line and the fire line for the side's ships, by
    column (leader first), then the standing orders."""
    ships = _own_ships(decision, data)
    lines = ["# Activation order: the ships listed first, then the others column by",
             "# column, each leader first.  E.g.  order: Mikasa, Idzumo, others",
             "order: others",
             "# Moves: ahead | ahead 2 | ahead max | port 30 | starboard 45 |",
             "#   follow SHIP | close SHIP | open SHIP | steer 135 | ram SHIP |",
             "#   broadside SHIP | station on SHIP bearing 135 distance 3;",
             "#   options with ', else', conditions with 'if' (e.g. if cp <= 2)",
             "move:"]
    placed: set[str] = set()
    for squadron in data.squadrons:
        line = [name for name in squadron.ships if name in ships]
        if not line:
            continue
        lines.append(f"  # {squadron.name}")
        for index, name in enumerate(line):
            order = "ahead" if index == 0 else f"follow {spell(line[index - 1])}"
            lines.append(f"  {spell(name)}: {order}")
            placed.add(name)
    lines += [f"  {spell(name)}: ahead" for name in ships if name not in placed]
    lines += ["# Fire: at SHIP, else nearest | nearest battleship in broadside |",
              "#   flagship | most damaged; dice max | dice 2; keep 1 for repairs;",
              "#   hold fire [if cp <= 2].  A ship's own line wins over all's."]
    if decision.options.get("split_fire"):
        lines += ["#   split_fire: one target per arc, each 'at' a salvo of its own:",
                  "#   Mikasa: at nearest in starboard; at nearest in bow"]
    lines += ["fire:", "  all: at nearest; dice max"]
    return [line[:WIDTH] for line in lines] + TURN_STANDING
