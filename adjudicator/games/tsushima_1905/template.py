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

from typing import Any, Callable

from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.data import GameData, load_data
from adjudicator.games.tsushima_1905.language.model import spell
from adjudicator.i18n import N_, N_plural

WIDTH = 74      # the report indents the template by 4 columns: 78 in all
#: Each standing question's orders line and, as one message, the comments under it
#: (a reader's language translates the comments; the orders stay as they are).
STANDING = {
    "armor": ("armour: max", N_("#   or: none | 1 against 2 dice; keep 1 for repairs")),
    "counter-torpedo": ("counter-torpedo: max", N_("#   or: none | a number of dice, e.g. 2 | keep 1 for repairs")),
    "torpedo": ("torpedo: yes if attacks >= 2", N_("#   or: yes | no | yes if attacks >= 3 and offense")),
    "torpedo-targets": ("torpedo targets: fewest cp first",
                        N_("#   (the ships with the fewest CPs left, by name on a tie)\n"
                           "#   or: most damaged first | battleships first, fewest cp first |\n"
                           "#   ship names, in order")),
    "repair": ("repairs: all dice, flooding first", N_("#   or: 2 dice, fire first | all dice, keep 1 for repairs")),
}
TURN_STANDING = ["armour: max", "counter-torpedo: max", "torpedo: yes if attacks >= 2",
                 "torpedo targets: fewest cp first", "repairs: all dice, flooding first", "prime: all",
                 "collision: avoid"]
TURN_STANDING_CHOICES = N_("#   armour: none | 1 against 2 dice; keep 1 for repairs\n"
                           "#   torpedo targets: most damaged first | battleships first\n"
                           "#   prime: stop after 2     collision: allow (moves as written)\n"
                           "#   concede: yes            (ends the game: the other side wins)")
CARRY_ON = "carry on: yes"
CARRY_ON_NOTE = N_("#   The orders on file carry play on from here, unchanged (as silence\n"
                   "#   does at the deadline).")
SILENCE_PLAYS = N_("#   The plan below is what silence plays: edit it to choose otherwise.")
TAKE_UP = N_("#   For new orders, take up the blocks you change from the plan\n"
             "#   below (delete the '# ' before their lines): each block sent\n"
             "#   replaces the one on file, the others stay in force.")
ACTIVATION_ORDER = N_("# Activation order: the ships listed first, then the others column by")
EACH_LEADER_FIRST = N_("# column, each leader first.")
FOR_EXAMPLE = N_("E.g.  {}")
MOVES = N_("# Moves: auto (the planner's best move, as silence) | ahead |\n"
           "#   ahead 2 | ahead max | port 30 | starboard 45 | follow SHIP |\n"
           "#   close SHIP | open SHIP | steer 135 | ram SHIP | broadside SHIP |\n"
           "#   station on SHIP bearing 135 distance 3; options with ', else',\n"
           "#   conditions with 'if' (e.g. close Orel if cp > 2, else auto)")
FIRE = N_("# Fire: auto (the planner's salvo after the move made, as silence) |\n"
          "#   at SHIP, else nearest | nearest battleship in broadside |\n"
          "#   flagship | most damaged; dice max | dice 2; keep 1 for repairs;\n"
          "#   hold fire [if cp <= 2].  A ship's own line wins over all's.")
SPLIT_FIRE = N_("#   split_fire: one target per arc, each 'at' a salvo of its own:\n"
                "#   Mikasa: at nearest in starboard; at nearest in bow")
FOLLOW = N_("# or: follow {}")
DICE_NOW = N_("#   ({}: 0 to {} dice now)")
SECOND_PAIR = N_plural("#   (yes: a second pair of cards decides the attacks; no: a normal\n"
                       "#   turn with {} prime activation(s))",
                       "#   (yes: a second pair of cards decides the attacks; no: a normal\n"
                       "#   turn with {} prime activation(s))")
THE_SHIP = N_("the ship")
ATTACKS_OFFERED = N_plural("#   ({} attack(s) offered)", "#   ({} attack(s) offered)")
FOLLOW_COLUMN = 30      # where a move line's "# or: follow" comment starts, when it fits


class _English:
    """The messages as written (a template in English)."""

    @staticmethod
    def gettext(message: str) -> str:
        return message

    @staticmethod
    def ngettext(singular: str, plural: str, count: int) -> str:
        return singular if count == 1 else plural


def _lines(gettext: Callable[[str], str], message: str) -> list[str]:
    """A comment block (one message) as lines, in the reader's language."""
    return gettext(message).split("\n")


def answer_template(decision: Decision, data: GameData | None = None, translations: Any = None) -> list[str]:
    """The skeleton answering ``decision`` (see the module docstring), its comments in
    the language of ``translations`` (English when None; the orders lines are the
    same in every language)."""
    data = data or load_data()
    words = translations or _English
    kind = decision.kind
    if kind in STANDING:
        line, comments = STANDING[kind]
        return [line, *_lines(words.gettext, comments)] + _about(decision, words)
    if kind == "activate":
        return _turn_plan(decision, data, words)
    if kind == "orders":
        return _orders_due(decision, data, words)
    return [f"# {kind}: see docs/games/tsushima-1905/orders.md"]


def _about(decision: Decision, words: Any) -> list[str]:
    options = decision.options
    if "max" in options:
        ship = options["ship"] if "ship" in options else words.gettext(THE_SHIP)
        return [words.gettext(DICE_NOW).format(ship, options["max"])]
    if options.get("second_pair"):
        return words.ngettext(*SECOND_PAIR, options["prime"]).format(options["prime"]).split("\n")
    if "attacks" in options:
        return [words.ngettext(*ATTACKS_OFFERED, options["attacks"]).format(options["attacks"])]
    return []


def _orders_due(decision: Decision, data: GameData, words: Any) -> list[str]:
    """``carry on: yes``, then the turn plan: as it is where no orders have carried
    play yet (``mark`` None), else commented out, with how to take it up."""
    plan = _turn_plan(decision, data, words)
    carry_on = [CARRY_ON, *_lines(words.gettext, CARRY_ON_NOTE)]
    if decision.options.get("mark") is None:
        return carry_on + _lines(words.gettext, SILENCE_PLAYS) + plan
    return carry_on + _lines(words.gettext, TAKE_UP) + [_commented(line) for line in plan]


def _commented(line: str) -> str:
    """A plan line as a comment, to take up by deleting its first two characters."""
    return line if line.startswith("#") else f"# {line}"


def _own_ships(decision: Decision, data: GameData) -> list[str]:
    waiting = decision.options.get("ships")
    return list(waiting) if waiting else [s.name for s in data.ships if s.side == decision.side]


def _move_line(name: str, ahead: str | None, words: Any = _English) -> str:
    """A ship's ``auto`` move line, with the follow order of a ship in column as a
    comment beside it."""
    line = f"  {spell(name)}: auto"
    if ahead is None:
        return line
    comment = words.gettext(FOLLOW).format(spell(ahead))
    padded = line.ljust(FOLLOW_COLUMN) if len(line) < FOLLOW_COLUMN and FOLLOW_COLUMN + len(comment) <= WIDTH \
        else line + "  "
    return padded + comment


def _order_example(ships: list[str], data: GameData, words: Any = _English) -> list[str]:
    """The activation order's example: the first two column leaders among ``ships``
    (the ships in action), on the comment's line where it fits."""
    leaders = [line[0] for squadron in data.squadrons
               if (line := [name for name in squadron.ships if name in ships])]
    example = (leaders + [name for name in ships if name not in leaders])[:2]
    column = words.gettext(EACH_LEADER_FIRST)
    if not example:
        return [column]
    said = words.gettext(FOR_EXAMPLE).format(f"order: {', '.join(spell(name) for name in example)}, others")
    line = f"{column}  {said}"
    return [line] if len(line) <= WIDTH else [column, f"#   {said}"]


def _turn_plan(decision: Decision, data: GameData, words: Any = _English) -> list[str]:
    """The activation order, a move line and the fire line for the side's ships, by
    column (leader first), every ship ``auto``, then the standing orders."""
    ships = _own_ships(decision, data)
    lines = [*_lines(words.gettext, ACTIVATION_ORDER), *_order_example(ships, data, words), "order: others",
             *_lines(words.gettext, MOVES), "move:"]
    placed: set[str] = set()
    for squadron in data.squadrons:
        line = [name for name in squadron.ships if name in ships]
        if not line:
            continue
        lines.append(f"  # {squadron.name}")
        for index, name in enumerate(line):
            lines.append(_move_line(name, line[index - 1] if index else None, words))
            placed.add(name)
    lines += [_move_line(name, None, words) for name in ships if name not in placed]
    lines += _lines(words.gettext, FIRE)
    if decision.options.get("split_fire"):
        lines += _lines(words.gettext, SPLIT_FIRE)
    lines += ["fire:", "  all: auto"]
    return lines + TURN_STANDING + _lines(words.gettext, TURN_STANDING_CHOICES)
