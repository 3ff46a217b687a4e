"""Whole games between automatic players, checked after every step: CP conservation
per ship, no base overlapping another, every fate consistent with its tokens, the
end of the game reached, and a replay of the history bit-identical.

More games: 20 more with the soaks (ADJUDICATOR_SOAK=1), or
TSUSHIMA_SOAK=200 pytest tests/games/tsushima_1905/test_random_games.py
"""

import itertools
import json
import random

import pytest

from adjudicator.engine import Match
from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.players import RandomPlayer, ReasonablePlayer, random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.geometry import interiors_overlap
from adjudicator.games.tsushima_1905.rules.table import pose_of as _pose
from adjudicator.games.tsushima_1905.state import ABANDONED, ACTIVE, ON_TABLE, SUNK, SURRENDERED
from tests.conftest import soak_cases, soak_size

GAME = Tsushima1905()
#: How many more random games the sized soaks play: 20 with ADJUDICATOR_SOAK=1, or TSUSHIMA_SOAK=N.
MORE_GAMES = soak_size(0, 20, "TSUSHIMA_SOAK")


def questions(match, chance, most: int):
    """Each question of ``match`` in turn (its dice drawn from ``chance`` meanwhile), for
    the caller to answer before it takes the next; until the game asks nothing more. A
    stop that asks both sides at once gives each side's question in turn."""
    for _ in range(most):
        if match.chance is not None:
            match.supply(chance(match.chance))
            continue
        if not match.decisions:
            return
        yield match.decisions[0]


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


PLAYERS = [("random", seed) for seed in range(3)] + [("reasonable", seed) for seed in range(2)] + soak_cases(
    [("random", seed) for seed in range(3, 3 + MORE_GAMES)] + [("reasonable", seed) for seed in range(2, 2 + MORE_GAMES // 10)])


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


@pytest.mark.parametrize("seed", [1, 6, 7, 9, 10, 12])
def test_play_under_a_forbidden_table_edge_reaches_the_end_of_the_game(seed):
    """R-SEQ-5: `adjudicator play -o table_edge=forbid --seed N` (the same match, dice
    and player as the command) ends; a ship that cannot move without leaving the
    table is passed over, and the players' fall-back move stays on the table."""
    from adjudicator.engine.match import play_out
    from adjudicator.games.tsushima_1905.plugin import plugin

    support, rng = plugin(), random.Random(seed)
    match = Match(support.game(), {}, {"table_edge": "forbid"})
    play_out(match, support.dice(rng), support.player(rng), max_steps=200_000)
    assert match.finished and match.state.winner in ("japan", "russia", "draw")


def test_r_torp_6_and_r_cp_3b_never_bind_in_play():
    """R-NOTE-1: a torpedo turn has no Action Phase, so every target meets its attack
    with its whole Bank and no movement used: counter-torpedo is asked of every target
    with a CP, up to the movement maximum or the Bank (R-TORP-6, R-CP-3b)."""
    asked = 0
    for seed in range(12):
        player, chance, match = RandomPlayer(seed), random_dice(random.Random(seed)), Match(GAME)
        torpedoed = set()
        for decision in questions(match, chance, 100_000):
            if decision.kind == "counter-torpedo":
                ship = match.state.ships[decision.options["ship"]]
                cls = GAME.data.classes[ship.ship_class]
                assert ship.used_move == 0 and ship.spent == 0 and ship.name not in torpedoed
                assert decision.options["max"] == min(cls.max_movement, ship.bank) > 0
                torpedoed.add(ship.name)
                asked += 1
            if decision.kind in ("torpedo", "torpedo-targets"):
                torpedoed = set()
            match.answer(decision.side, player(decision, match.state))
    assert asked > 0
