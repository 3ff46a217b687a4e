"""Whole games between automatic players, checked after every step: CP conservation
per ship, no base overlapping another, every fate consistent with its tokens, the
end of the game reached, and a replay of the history bit-identical.

More games: TSUSHIMA_SOAK=200 pytest tests/tsushima_1905/test_random_games.py
"""

import itertools
import json
import os
import random

import pytest

from adjudicator.engine import Match
from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.autoplayer import RandomPlayer, ReasonablePlayer, random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.geometry import interiors_overlap
from adjudicator.games.tsushima_1905.table import pose_of as _pose
from adjudicator.games.tsushima_1905.state import ABANDONED, ACTIVE, ON_TABLE, SUNK, SURRENDERED

GAME = Tsushima1905()
SOAK = int(os.environ.get("TSUSHIMA_SOAK", "0"))


def check_invariants(state):
    for ship in state.ships.values():
        assert ship.bank + ship.in_play + ship.spent + ship.lost == ship.start_cp, ship
        assert min(ship.bank, ship.in_play, ship.spent, ship.lost, ship.fires, ship.floods) >= 0, ship
        if ship.status == ACTIVE:
            assert ship.cp > 0, ship
        elif ship.status in (SURRENDERED, ABANDONED, SUNK):
            assert ship.cp == 0, ship
            assert (ship.status == SUNK) == (ship.floods > 0), ship
            assert (ship.status == ABANDONED) == (ship.fires > 0 and ship.floods == 0), ship
    on_table = [s for s in state.ships.values() if s.status in ON_TABLE]
    for a, b in itertools.combinations(on_table, 2):
        if abs(a.x - b.x) < 1100 and abs(a.y - b.y) < 1100:
            corners_a = GAME.geo.corners(_pose(a))
            assert not interiors_overlap(corners_a, GAME.geo.corners(_pose(b))), (a.name, b.name)


def play_checked(player, seed):
    chance = random_dice(random.Random(seed))
    match = Match(GAME)
    for _ in range(100_000):
        pending = match.decision  # (at a stop that asks both sides: each side's question in turn)
        if match.chance is not None:
            match.supply(chance(match.chance))
        elif isinstance(pending, Decision):
            check_invariants(match.state)
            match.answer(pending.side, player(pending, match.state))
        else:
            break
    assert match.finished
    check_invariants(match.state)
    return match


PLAYERS = [("random", seed) for seed in range(3 + SOAK)] + [("reasonable", seed) for seed in range(2 + SOAK // 10)]


@pytest.mark.parametrize("kind,seed", PLAYERS)
def test_a_whole_game_keeps_every_invariant_and_replays_identically(kind, seed):
    player = RandomPlayer(seed) if kind == "random" else ReasonablePlayer()
    match = play_checked(player, seed)
    state = match.state
    assert state.winner in ("japan", "russia", "draw") and state.victory in ("decisive", "marginal", "draw")
    assert state.phase == "ended" and 1 <= state.turn <= 15
    replay = Match(GAME, history=json.loads(json.dumps(match.history_json())))
    assert replay.finished
    assert json.dumps(replay.state.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True)


def test_a_game_ends_when_a_side_has_no_ship_in_action_or_at_the_turn_cap():
    match = play_checked(RandomPlayer(7), 7)
    in_action = {side: any(s.side == side and s.status == ACTIVE for s in match.state.ships.values())
                 for side in ("japan", "russia")}
    assert not all(in_action.values()) or match.state.turn == 15
