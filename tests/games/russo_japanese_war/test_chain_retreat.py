"""9.6 chain retreats that would go round in a circle.

9.6: a unit retreats one hex; "If a unit forced into a chain retreat cannot retreat, the
unit that retreated first must be eliminated (which means no chain retreat then occurs)."
A unit that has retreated in a chain has had its one hex: it does not make way a second
time. When only such units are left in the hex entered, the chain fails (rulings A21).
"""

from __future__ import annotations

import random
import tomllib

from adjudicator.engine import Match, play_out
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.conformance import run_case
from adjudicator.games.russo_japanese_war.players import ReasonablePlayer, dice_from, players_chooser

GAME = RussoJapaneseWar()

# J1 (0302) attacks R1 (0303); Kodama gives DR. R1's only hex is 0304 (R2, over the Russian
# limit: a chain retreat); R2's only hex is 0305 (R3: the chain goes on; 0303 is in J1's ZOC);
# R3's only hex is 0304, where only R1 is left, and R1 has already retreated: the chain fails,
# is undone, and R1 is eliminated. Japan may advance into 0303: no.
CIRCLE = tomllib.loads('''
id = "RJW-LOCAL-CHAIN-CIRCLE"
title = "A chain retreat that would come back to a unit that has already retreated fails"
rule = "9.6"
rulings = ["A21"]
until = "japan-card-play"
dice = []
answers = [
  { ask = "attacks", side = "japan", declare = [{ target = "0303", with = ["J1"] }] },
  { ask = "support", side = "japan", pass = true },
  { ask = "combat-event", side = "japan", card = "#09" },
  { ask = "advance", side = "japan", units = [] },
]

[position]
turn = 2
phase = "japan-combat"
unit = [
  { id = "R1", side = "russia", strength = 3, ma = 2, at = "0303" },
  { id = "R2", side = "russia", strength = 3, ma = 2, at = "0304" },
  { id = "R3", side = "russia", strength = 3, ma = 2, at = "0305" },
  { id = "J1", side = "japan", strength = 5, ma = 3, at = "0302" },
]

[position.map]
hexes = ["0302", "0303", "0304", "0305"]

[position.cards]
deck = []
discard = []
hands = { japan = ["#09"], russia = [] }

[expect]
phase = "japan-card-play"
result = "DR"
losses = { russia = 1 }

[expect.unit.R1]
at = "eliminated"

[expect.unit.R2]
at = "0304"

[expect.unit.R3]
at = "0305"
''')


def test_a_chain_retreat_that_comes_back_to_a_unit_that_retreated_fails_and_eliminates_the_first_unit():
    assert run_case(CIRCLE, GAME) == []


def test_whole_games_of_reasonable_players_that_met_such_a_circle_end():
    for seed in (115, 117):        # seeds whose chain retreats went round without end before
        chooser = players_chooser({"japan": ReasonablePlayer(GAME, seed),
                                   "russia": ReasonablePlayer(GAME, seed + 100_003)})
        match = play_out(Match(GAME), dice_from(random.Random(seed)), chooser)
        assert match.finished and match.state["result"] in ("japan", "russia", "draw")
