"""Tie-break values against a hand-computed example.

Four players, scoring 2/1/0, three rounds:
  round 1: A beats B (A japan), C draws D (C japan)
  round 2: A draws C (C japan), B beats D (B japan)
  round 3: D beats A (D russia), B beats C (B russia)
Totals: B 4, A 3, D 3, C 2.
Buchholz: A = B4 + C2 + D3 = 9; D = C2 + B4 + A3 = 9; B = 8; C = 10.
Sonneborn-Berger (points / 2 x opponent's total): A = 1x4 + 0.5x2 + 0 = 5; D = 0.5x2 + 0 + 1x3 = 4.
Median Buchholz (without best and worst of three): A = 3; D = 3.
Cumulative: A = 2 + 3 + 3 = 8; D = 1 + 1 + 3 = 5.
Head-to-head between A and D: D 2, A 0.
"""

from __future__ import annotations

from adjudicator.tournament.standings import compute, render
from adjudicator.tournament.state import EventState, GameResult, GameSlot, RoundInfo

CHARTER = {"tournament": "hand", "game": "port-arthur", "format": "swiss", "sides": "random",
           "scoring": {"win": 2, "draw": 1, "loss": 0}, "bye": "win", "game_sides": ["japan", "russia"],
           "tiebreaks": ["sonneborn-berger"]}
GAMES = [  # round, japan, russia, result
    (1, "A", "B", "japan"), (1, "C", "D", "draw"),
    (2, "C", "A", "draw"), (2, "B", "D", "japan"),
    (3, "A", "D", "russia"), (3, "C", "B", "russia"),
]


def event() -> EventState:
    state = EventState("hand", CHARTER, players={p: {"player": p} for p in "ABCD"})
    points = {"win": 2.0, "draw": 1.0, "loss": 0.0}
    for number in (1, 2, 3):
        slots = [GameSlot(f"g{number}{i}", number, {"japan": j, "russia": r}, i)
                 for i, (n, j, r, _) in enumerate(GAMES) if n == number]
        state.rounds.append(RoundInfo(number, number, "00" * 32, list("ABCD"),
                                      [(s.sides["japan"], s.sides["russia"]) for s in slots], [], [], slots, "", ""))
    for i, (number, japan, russia, result) in enumerate(GAMES):
        sides = {"japan": japan, "russia": russia}
        outcome = GameResult(f"g{number}{i}", number, sides, result, "hand", 6, None, {})
        state.results[outcome.game] = GameResult(outcome.game, number, sides, result, "hand", 6, None,
                                                 {p: points[outcome.outcome_for(p)] for p in sides.values()})
    return state


def by_player(lines):
    return {line.player: line for line in lines}


def test_points_and_every_tie_break_value_match_the_hand_computation():
    chain = ["sonneborn-berger", "buchholz", "median-buchholz", "cumulative", "head-to-head", "side-wins"]
    lines = by_player(compute(event(), chain=chain))
    assert {p: line.points for p, line in lines.items()} == {"A": 3, "B": 4, "C": 2, "D": 3}
    assert lines["A"].tiebreaks["buchholz"] == 9 and lines["D"].tiebreaks["buchholz"] == 9
    assert lines["B"].tiebreaks["buchholz"] == 8 and lines["C"].tiebreaks["buchholz"] == 10
    assert lines["A"].tiebreaks["sonneborn-berger"] == 5 and lines["D"].tiebreaks["sonneborn-berger"] == 4
    assert lines["A"].tiebreaks["median-buchholz"] == 3 and lines["D"].tiebreaks["median-buchholz"] == 3
    assert lines["A"].tiebreaks["cumulative"] == 8 and lines["D"].tiebreaks["cumulative"] == 5
    assert lines["B"].tiebreaks["side-wins"] == 1   # B won once with each side
    assert lines["A"].tiebreaks["side-wins"] == 0   # A won only with Japan


def test_sonneborn_berger_puts_a_above_d_and_says_so():
    lines = compute(event(), chain=["sonneborn-berger"])
    assert [line.player for line in lines] == ["B", "A", "D", "C"]
    assert lines[1].decided_by == "sonneborn-berger 5 against 4"


def test_head_to_head_puts_d_above_a():
    lines = compute(event(), chain=["median-buchholz", "head-to-head"])
    assert [line.player for line in lines] == ["B", "D", "A", "C"]
    assert lines[1].decided_by == "head-to-head 2 against 0"
    assert "H2H" in render(lines, ["median-buchholz", "head-to-head"])


def test_a_tie_left_after_the_chain_is_drawn_from_the_seed_and_the_draw_is_repeatable():
    first = compute(event(), (1, bytes(range(32))), chain=["buchholz", "median-buchholz"])
    again = compute(event(), (1, bytes(range(32))), chain=["buchholz", "median-buchholz"])
    assert [line.player for line in first] == [line.player for line in again]
    tied = [line for line in first if line.player in "AD"]
    assert tied[0].decided_by == "seeded draw (seed 1)"
