"""The text report of a fixed game, kept as a golden file, and what each side may see.

The game: a fixed position of six ships in the action phase of turn 2 (Japan's
Admiral out, Kniaz Suvorov down to 2 CP and flooding), fixed answers for every ship
and seeded dice, played to the first stop of turn 3. Its report shows a Japanese
battleship's re-rolled 1s, the Admiral's +1, real and default armour dice, criticals,
a sinking after the salvo that caused it, the repair and damage phases, the next
turn's cards, the plot with its key and the ship table.

Regenerate after a change meant to alter it: UPDATE_GOLDEN=1 pytest
tests/games/tsushima_1905/test_report_golden.py, then read the new file by eye before
keeping it.

Tsushima has no hidden information under any option (rulings §5, item 10: no fog of
war; the draw piles are public and unordered): both sides' reports show the same
game, word for word.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from adjudicator.engine import Match
from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games import get as support
from adjudicator.games.tsushima_1905.answers import mark_after
from adjudicator.games.tsushima_1905.players import ReasonablePlayer, random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.options import CHOICES
from tests.games.tsushima_1905.test_report import rendered

GAME = Tsushima1905()
GOLDEN = Path(__file__).with_name("golden") / "report-japan-turn-3.txt"

SHIPS = [
    {"name": "Mikasa", "side": "japan", "class": "battleship", "at": [6, 16], "heading": 90},
    {"name": "Fuji", "side": "japan", "class": "battleship", "at": [6, 14.5], "heading": 90},
    {"name": "Idzumo", "side": "japan", "class": "armoured_cruiser", "at": [6, 13], "heading": 90, "cp": 5},
    {"name": "Kniaz Suvorov", "side": "russia", "class": "battleship", "at": [12, 10], "heading": 0, "cp": 2,
     "floods": 1},
    {"name": "Osliabia", "side": "russia", "class": "battleship", "at": [10.5, 8], "heading": 0},
    {"name": "Admiral Nakhimov", "side": "russia", "class": "armoured_cruiser", "at": [14, 8], "heading": 0},
]
POSITION = {"turn": 2, "phase": "action", "offense": "japan", "prime": 1, "next": "japan",
            "admiral": {"japan": "offense"}, "ship": SHIPS,
            "deck": {"japan": {"draw": ["AD", "3H", "4H", "5D", "6D", "6H"], "discard": ["3D", "4D", "5H"],
                               "aside": "KD"},
                     "russia": {"draw": ["AS", "2S", "3S", "4S", "5C", "5S"], "discard": ["2C", "3C", "4C"],
                                "aside": None}}}
#: each ship's move, and its targets in order of preference with the dice
PLANS = {
    "Mikasa": (["A"], ["Kniaz Suvorov", "Osliabia"], 3),
    "Fuji": (["A", "S30"], ["Kniaz Suvorov", "Osliabia"], 3),
    "Idzumo": (["A", "A"], ["Admiral Nakhimov", "Osliabia"], 2),
    "Kniaz Suvorov": (["A"], ["Fuji", "Mikasa"], 3),
    "Osliabia": (["A"], ["Mikasa", "Fuji"], 3),
    "Admiral Nakhimov": (["P45"], ["Idzumo", "Fuji"], 2),
}


def scripted(decision, state):
    """The fixed answers: each ship by its plan, firing at the first target its arcs
    and line of fire allow; one real armour die when allowed; all repair dice."""
    options = decision.options
    if decision.kind == "activate":
        ship = options["ships"][0]
        moves, targets, dice = PLANS[ship]
        for target in targets:
            for count in range(dice, 0, -1):
                answer = {"ship": ship, "move": moves, "fire": {"target": target, "dice": count}}
                try:
                    decision.parse(answer)
                except IllegalAnswer:
                    continue
                return answer
        return {"ship": ship, "move": moves, "fire": "none"}
    if decision.kind in ("armor", "counter-torpedo"):
        return {"dice": min(1, options["max"])} | ({"ship": options["ship"]} if "ship" in options else {})
    if decision.kind == "repair":
        return {"ship": options["ship"], "dice": options["max"], "first": "flood"}
    if decision.kind == "torpedo":
        return {"use": False}
    raise AssertionError(f"no scripted answer to {decision.kind}")


def golden_match() -> Match:
    """The fixed game, played to the stop where orders are due for turn 3 (both
    sides carry on with their orders at the stop of turn 2)."""
    match = Match(GAME, {"position": POSITION}, {})
    chance = random_dice(random.Random(1905))
    while not match.finished:
        if match.chance is not None:
            match.supply(chance(match.chance))
        elif match.decision.kind == "orders":
            if match.state.turn == 3:
                break
            match.answer(match.decision.side, {"orders": mark_after(match.decision.options["mark"])})
        else:
            match.answer(match.decision.side, scripted(match.decision, match.state))
    return match


def test_the_text_report_of_a_fixed_game_matches_the_golden_file():
    _, report = rendered(golden_match())
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(report.text, encoding="utf-8")
    assert GOLDEN.exists(), f"{GOLDEN} is missing: run once with UPDATE_GOLDEN=1, check it by eye, and keep it"
    assert report.text == GOLDEN.read_text(encoding="utf-8")


def test_the_golden_game_shows_what_the_rulings_ask_a_report_to_show():
    text = GOLDEN.read_text(encoding="utf-8")
    words = " ".join(text.split())
    for shown in ("re-rolled", "Admiral +1", "real die rolled", "default 1s", "critical (die",
                  "sinks and is removed from the table", "for repairs", "turns over"):
        assert shown in words, shown
    assert max(len(line) for line in text.splitlines()) <= 78


def without_addressee(text: str) -> list[str]:
    """A report's lines but those naming whom it is for and what that side is asked (also
    how that side asks the referee by mail: its own side line)."""
    lines = text.splitlines()
    if "ASK THE REFEREE BY MAIL" in lines:
        start = lines.index("ASK THE REFEREE BY MAIL")
        stop = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
        lines = lines[:start] + lines[stop:]
    asked = next((i for i, line in enumerate(lines) if line.startswith(("WHAT IS ASKED", "WAITING FOR"))),
                 len(lines))
    end = next((i for i, line in enumerate(lines) if i > asked and line == "FAIR DICE"), len(lines))
    return [line for line in lines[2:asked] + lines[end:]]


@pytest.mark.parametrize("option,value", [(name, value) for name, values in CHOICES.items()
                                          for value in values[1:]] + [("turns", 15)])
def test_no_option_hides_anything_so_both_sides_see_the_same_game(option, value):
    options = {option: value}
    assert support("tsushima-1905").secrets(options) is False
    match = Match(GAME, {}, options)
    chance = random_dice(random.Random(7))
    player = ReasonablePlayer()
    for _ in range(60):
        if match.chance is not None:
            match.supply(chance(match.chance))
        elif match.decision is not None:
            match.answer(match.decision.side, player(match.decision, match.state))
    state = match.state
    assert GAME.view(state, "japan") == GAME.view(state, "russia") == GAME.view(state, None)
    japan, russia = rendered(match, "japan")[1].text, rendered(match, "russia")[1].text
    assert without_addressee(japan) == without_addressee(russia)


def test_each_section_of_the_text_report_stands_after_a_blank_line():
    """FAIR DICE, after the question and its template, is a section of its own, as in
    Port Arthur's reports: a blank line before it."""
    _, report = rendered(golden_match())
    lines = report.text.splitlines()
    at = lines.index("FAIR DICE")
    assert lines[at - 1] == "", lines[at - 3:at + 1]
