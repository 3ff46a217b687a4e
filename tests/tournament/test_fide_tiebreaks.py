"""FIDE's Buchholz family with FIDE's rules for unplayed rounds (C.07, Art. 16), against
a hand computation.

Three players, scoring 2/1/0, a bye scores as a win, two rounds:
  round 1: A (japan) beats B over the board; C has the bye;
  round 2: C (japan) forfeits to B; A has the bye.
Totals: A 4, B 2, C 2.
Unplayed rounds: A's round 2 (bye); B's round 2 (forfeit win); C's both (bye, forfeit loss).
Adjusted scores (an unplayed round counts as a draw, 1): A = 2 + 1 = 3; B = 0 + 1 = 1; C = 1 + 1 = 2.
BH (own unplayed round: a dummy opponent with the player's own score):
  A = B's 1 + dummy 4 = 5; B = A's 3 + dummy 2 = 5; C = dummy 2 + dummy 2 = 4.
BH-C1 (a dummy's value is cut first): A = 1; B = 3; C = 2.
SB (points over a win's, times the value): A = 1x1 + 1x4 = 5; B = 0x3 + 1x2 = 2; C = 1x2 + 0x2 = 2.
The project's Buchholz (a bye adds nothing): A = B's 2 = 2; B = A's 4 + C's 2 = 6; C = B's 2 = 2.
"""

from __future__ import annotations

from adjudicator.tournament.charter import charter_from_toml
from adjudicator.tournament.standings import compute, render
from adjudicator.tournament.state import EventState, GameResult, GameSlot, RoundInfo

CHARTER = {"tournament": "hand", "game": "port-arthur", "format": "swiss", "sides": "random",
           "scoring": {"win": 2, "draw": 1, "loss": 0}, "bye": "win", "game_sides": ["japan", "russia"],
           "tiebreaks": ["fide-buchholz-cut1", "fide-buchholz", "fide-sonneborn-berger"]}


def event() -> EventState:
    state = EventState("hand", CHARTER, players={p: {"player": p} for p in "ABC"})
    one = GameSlot("g1", 1, {"japan": "A", "russia": "B"}, 1)
    two = GameSlot("g2", 2, {"japan": "C", "russia": "B"}, 1)
    state.rounds.append(RoundInfo(1, 1, "00" * 32, list("ABC"), [("A", "B")], ["C"], [], [one], "", ""))
    state.rounds.append(RoundInfo(2, 2, "00" * 32, list("ABC"), [("C", "B")], ["A"], [], [two], "", ""))
    state.results["g1"] = GameResult("g1", 1, dict(one.sides), "japan", "End of turn 6: Japan wins", 6, None,
                                     {"A": 2.0, "B": 0.0})
    state.results["g2"] = GameResult("g2", 2, dict(two.sides), "russia", "forfeit by C (japan): silent", 1, None,
                                     {"C": 0.0, "B": 2.0}, forfeit=True)
    return state


def test_fide_buchholz_cut1_and_sonneborn_berger_follow_fides_unplayed_round_rules():
    chain = ["fide-buchholz", "fide-buchholz-cut1", "fide-sonneborn-berger", "buchholz"]
    lines = {line.player: line for line in compute(event(), chain=chain)}
    assert {p: line.points for p, line in lines.items()} == {"A": 4, "B": 2, "C": 2}
    assert {p: line.tiebreaks["fide-buchholz"] for p, line in lines.items()} == {"A": 5, "B": 5, "C": 4}
    assert {p: line.tiebreaks["fide-buchholz-cut1"] for p, line in lines.items()} == {"A": 1, "B": 3, "C": 2}
    assert {p: line.tiebreaks["fide-sonneborn-berger"] for p, line in lines.items()} == {"A": 5, "B": 2, "C": 2}
    assert {p: line.tiebreaks["buchholz"] for p, line in lines.items()} == {"A": 2, "B": 6, "C": 2}


def test_a_round_still_being_played_counts_for_no_players_unplayed_rounds():
    state = event()
    running = GameSlot("g3", 3, {"japan": "A", "russia": "C"}, 1)
    state.rounds.append(RoundInfo(3, 3, "00" * 32, list("ABC"), [("A", "C")], ["B"], [], [running], "", ""))
    lines = {line.player: line for line in compute(state, chain=["fide-buchholz"])}
    assert lines["B"].points == 4   # the round-3 bye counts in B's score...
    assert {p: line.tiebreaks["fide-buchholz"] for p, line in lines.items()} == {"A": 5, "B": 5, "C": 4}  # ...not here


def test_the_fide_chain_ranks_b_above_c_on_buchholz_cut1_and_says_so():
    lines = compute(event())
    assert [line.player for line in lines] == ["A", "B", "C"]
    assert lines[1].decided_by == "fide-buchholz-cut1 3 against 2"
    assert "BH-C1" in render(lines, CHARTER["tiebreaks"])


def test_a_swiss_charter_breaks_ties_by_fides_list_unless_it_names_its_own():
    swiss = charter_from_toml({"tournament": {"name": "cup", "game": "port-arthur"}})
    assert swiss.tiebreaks[:2] == ("fide-buchholz-cut1", "fide-buchholz")
    robin = charter_from_toml({"tournament": {"name": "cup", "game": "port-arthur", "format": "round-robin"}})
    assert "fide-buchholz" not in robin.tiebreaks
    own = charter_from_toml({"tournament": {"name": "cup", "game": "port-arthur"}, "scoring": {"tiebreaks": ["buchholz"]}})
    assert own.tiebreaks == ("buchholz",)
