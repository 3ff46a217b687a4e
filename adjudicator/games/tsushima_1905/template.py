"""The orders template of each question (rulings §4.3): a skeleton of the blocks that
answer it, the player's own ships listed, the choices as comments, at most 78
columns. Sent as it is, every template answers its question as silence would (the
default of :data:`..plans.DEFAULT_TEXT`), and says so in the orders language:

- a standing question's (armour, counter-torpedo, torpedo, torpedo targets,
  repairs) writes the documented default as a standing order;
- an activation's (``activate``) is a turn plan: ``order: others``, every ship's move
  and fire ``auto`` (the planner's best move and salvo, the default for silence),
  the standing orders' defaults; the other choices are comments;
- a stop of the cadence (``orders``) writes ``carry on: yes`` (the orders on file
  carry play on, unchanged, as at the deadline). Where no orders have carried play
  yet, the turn plan follows it as active lines (what silence then plays); once they
  have, it follows as comments, to take up for new orders: a block written replaces
  the one on file, so an active plan would replace the orders on file.

A player edits the lines to choose otherwise.
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
    "torpedo-targets": ["torpedo targets: fewest cp first",
                        "#   (the ships with the fewest CPs left, by name on a tie)",
                        "#   or: most damaged first | battleships first, fewest cp first |",
                        "#   ship names, in order"],
    "repair": ["repairs: all dice, flooding first", "#   or: 2 dice, fire first | all dice, keep 1 for repairs"],
}
TURN_STANDING = ["armour: max", "counter-torpedo: max", "torpedo: yes if attacks >= 2",
                 "torpedo targets: fewest cp first", "repairs: all dice, flooding first", "prime: all",
                 "collision: avoid",
                 "#   armour: none | 1 against 2 dice; keep 1 for repairs",
                 "#   torpedo targets: most damaged first | battleships first",
                 "#   prime: stop after 2     collision: allow (moves as written)",
                 "#   concede: yes            (ends the game: the other side wins)"]
CARRY_ON = ["carry on: yes",
            "#   The orders on file carry play on from here, unchanged (as silence",
            "#   does at the deadline)."]
FOLLOW_COLUMN = 30      # where a move line's "# or: follow" comment starts, when it fits


def answer_template(decision: Decision, data: GameData | None = None) -> list[str]:
    """The skeleton answering ``decision`` (see the module docstring)."""
    data = data or load_data()
    kind = decision.kind
    if kind in STANDING:
        return list(STANDING[kind]) + _about(decision)
    if kind == "activate":
        return _turn_plan(decision, data)
    if kind == "orders":
        return _orders_due(decision, data)
    return [f"# {kind}: see docs/games/tsushima-1905/orders.md"]


def _about(decision: Decision) -> list[str]:
    options = decision.options
    if "max" in options:
        return [f"#   ({options.get('ship', 'the ship')}: 0 to {options['max']} dice now)"]
    if options.get("second_pair"):
        return ["#   (yes: a second pair of cards decides the attacks; no: a normal",
                f"#   turn with {options['prime']} prime activation(s))"]
    if "attacks" in options:
        return [f"#   ({options['attacks']} attack(s) offered)"]
    return []


def _orders_due(decision: Decision, data: GameData) -> list[str]:
    """``carry on: yes``, then the turn plan: as it is where no orders have carried
    play yet (``mark`` None), else commented out, with how to take it up."""
    plan = _turn_plan(decision, data)
    if decision.options.get("mark") is None:
        return CARRY_ON + ["#   The plan below is what silence plays: edit it to choose otherwise."] + plan
    return (CARRY_ON
            + ["#   For new orders, take up the blocks you change from the plan",
               "#   below (delete the '# ' before their lines): each block sent",
               "#   replaces the one on file, the others stay in force."]
            + [_commented(line) for line in plan])


def _commented(line: str) -> str:
    """A plan line as a comment, to take up by deleting its first two characters."""
    return line if line.startswith("#") else f"# {line}"


def _own_ships(decision: Decision, data: GameData) -> list[str]:
    waiting = decision.options.get("ships")
    return list(waiting) if waiting else [s.name for s in data.ships if s.side == decision.side]


def _move_line(name: str, ahead: str | None) -> str:
    """A ship's ``auto`` move line, with the follow order of a ship in column as a
    comment beside it."""
    line = f"  {spell(name)}: auto"
    if ahead is None:
        return line
    comment = f"# or: follow {spell(ahead)}"
    padded = line.ljust(FOLLOW_COLUMN) if len(line) < FOLLOW_COLUMN and FOLLOW_COLUMN + len(comment) <= WIDTH \
        else line + "  "
    return padded + comment


def _order_example(ships: list[str], data: GameData) -> list[str]:
    """The activation order's example: the first two column leaders among ``ships``
    (the ships in action), on the comment's line where it fits."""
    leaders = [line[0] for squadron in data.squadrons
               if (line := [name for name in squadron.ships if name in ships])]
    example = (leaders + [name for name in ships if name not in leaders])[:2]
    if not example:
        return ["# column, each leader first."]
    said = f"E.g.  order: {', '.join(spell(name) for name in example)}, others"
    line = f"# column, each leader first.  {said}"
    return [line] if len(line) <= WIDTH else ["# column, each leader first.", f"#   {said}"]


def _turn_plan(decision: Decision, data: GameData) -> list[str]:
    """The activation order, a move line and the fire line for the side's ships, by
    column (leader first), every ship ``auto``, then the standing orders."""
    ships = _own_ships(decision, data)
    lines = ["# Activation order: the ships listed first, then the others column by",
             *_order_example(ships, data),
             "order: others",
             "# Moves: auto (the planner's best move, as silence) | ahead |",
             "#   ahead 2 | ahead max | port 30 | starboard 45 | follow SHIP |",
             "#   close SHIP | open SHIP | steer 135 | ram SHIP | broadside SHIP |",
             "#   station on SHIP bearing 135 distance 3; options with ', else',",
             "#   conditions with 'if' (e.g. close Orel if cp > 2, else auto)",
             "move:"]
    placed: set[str] = set()
    for squadron in data.squadrons:
        line = [name for name in squadron.ships if name in ships]
        if not line:
            continue
        lines.append(f"  # {squadron.name}")
        for index, name in enumerate(line):
            lines.append(_move_line(name, line[index - 1] if index else None))
            placed.add(name)
    lines += [_move_line(name, None) for name in ships if name not in placed]
    lines += ["# Fire: auto (the planner's salvo after the move made, as silence) |",
              "#   at SHIP, else nearest | nearest battleship in broadside |",
              "#   flagship | most damaged; dice max | dice 2; keep 1 for repairs;",
              "#   hold fire [if cp <= 2].  A ship's own line wins over all's."]
    if decision.options.get("split_fire"):
        lines += ["#   split_fire: one target per arc, each 'at' a salvo of its own:",
                  "#   Mikasa: at nearest in starboard; at nearest in bow"]
    lines += ["fire:", "  all: auto"]
    return lines + TURN_STANDING
