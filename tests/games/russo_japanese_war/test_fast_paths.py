"""The quick yes/no tests the rules and the automatic players use to list legal moves
agree with the tests that write the reason (``step_error``, ``long_step_error``, ...) and
with the searches as first written on them, in positions from seeded whole games."""

from __future__ import annotations

import random

import pytest

from adjudicator.engine import Match
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA, SIDES
from adjudicator.games.russo_japanese_war.hexmap import ENTRY_BOXES, grid_neighbours
from adjudicator.games.russo_japanese_war.players import RandomPlayer, ReasonablePlayer, dice_from
from adjudicator.games.russo_japanese_war.rules import movement

GAME = RussoJapaneseWar()


def positions(seed: int, player, naval: bool, every: int = 3) -> list:
    """Tables of every ``every``-th question of a seeded game (a copy of its state each)."""
    match = Match(GAME, options={"naval": True} if naval else {})
    players = {JAPAN: player(GAME, seed), RUSSIA: player(GAME, seed + 1)}
    dice = dice_from(random.Random(seed))
    found = []
    while not match.finished:
        decision = match.decision
        if decision is not None:
            if len(match.history) % every == 0:
                found.append(GAME.table(GAME.restore_state(match.state)))
            match.answer(decision.side, players[decision.side](decision, match.state))
        else:
            match.supply(dice(match.chance))
    return found


POSITIONS = [t for seed, player, naval in ((1, RandomPlayer, False), (2, RandomPlayer, True),
                                           (3, ReasonablePlayer, False), (4, ReasonablePlayer, True))
             for t in positions(seed, player, naval)]


def reference_reachable(t, uid):
    """reachable() as first written, on step_error."""
    side, start, ma = t.side_of(uid), t.at(uid), t.units[uid]["ma"]
    found, frontier, best = {}, [[start]], {start: ma}
    while frontier:
        nxt = []
        for path in frontier:
            a = path[-1]
            left = ma - (len(path) - 1)
            for b in movement.exits(t, a):
                if b == start or movement.step_error(t, uid, side, a, b, len(path) == 1, True):
                    continue
                new = path + [b]
                if t.friends_in(b, side, besides=uid) < t.limit(side) and b not in found:
                    found[b] = new
                along = t.board.along_road_or_railway(a, b)
                stop = t.in_ezoc(b, side) or ((b in t.board.wasteland or (
                    a not in ENTRY_BOXES and t.board.river_between(a, b))) and not along)
                if left - 1 > 0 and best.get(b, -1) < left - 1 and not stop:
                    best[b] = left - 1
                    nxt.append(new)
        frontier = nxt
    return found


def reference_long_reachable(t, uid, strategic):
    side, start = t.side_of(uid), t.at(uid)
    found, seen, frontier = {}, {start}, [[start]]
    while frontier:
        nxt = []
        for path in frontier:
            for b in movement.long_exits(t, path[-1], strategic):
                if b in seen or movement.long_step_error(t, uid, side, path[-1], b, strategic):
                    continue
                seen.add(b)
                found[b] = path + [b]
                nxt.append(path + [b])
        frontier = nxt
    return found


def candidates(t, a: str) -> list[str]:
    """Hexes a step from ``a`` might name: its neighbours on any grid, its exits, and a few others."""
    near = list(grid_neighbours(a)) if a.isdigit() else []
    return near + list(movement.exits(t, a)) + ["0101", "9999", "siberia", "korea"]


def test_there_are_many_positions():
    assert len(POSITIONS) > 200


@pytest.mark.parametrize("side", SIDES)
def test_the_quick_step_tests_agree_with_the_reasoned_ones(side):
    for t in POSITIONS:
        for uid in t.side_units(side):
            a = t.at(uid)
            for b in candidates(t, a):
                for first in (True, False):
                    for last in (True, False):
                        assert movement.step_allowed(t, uid, side, a, b, first, last) == (
                            movement.step_error(t, uid, side, a, b, first, last) is None), (uid, a, b, first, last)
                for strategic in (True, False):
                    assert movement.long_step_allowed(t, uid, side, a, b, strategic) == (
                        movement.long_step_error(t, uid, side, a, b, strategic) is None), (uid, a, b, strategic)
                assert movement.may_enter(t, uid, side, b) == (movement.entry_error(t, uid, side, b) is None)


@pytest.mark.parametrize("side", SIDES)
def test_the_units_offered_are_those_with_a_legal_first_step(side):
    rng = random.Random(5)
    for t in POSITIONS:
        units = t.side_units(side)
        moved = set(rng.sample(units, rng.randint(0, 3)))
        expected = [uid for uid in units if movement.unit_may_move(t, uid, side, moved) is None and any(
            movement.step_error(t, uid, side, t.at(uid), b, True, True) is None
            for b in movement.exits(t, t.at(uid)))]
        assert movement.movable_units(t, side, moved) == expected
        for strategic, may in ((False, movement.may_use_railway), (True, movement.may_move_strategically)):
            expected = [uid for uid in units if may(t, uid, side) is None and any(
                movement.long_step_error(t, uid, side, t.at(uid), b, strategic) is None
                for b in movement.long_exits(t, t.at(uid), strategic))]
            assert movement.long_movable_units(t, side, strategic) == expected


@pytest.mark.parametrize("side", SIDES)
def test_the_moves_found_are_those_the_reasoned_tests_find(side):
    for t in POSITIONS[::2]:
        for uid in t.side_units(side):
            if t.at(uid) in t.board.hexes or t.at(uid) in ENTRY_BOXES:
                assert movement.reachable(t, uid) == reference_reachable(t, uid)
                for strategic in (True, False):
                    assert movement.long_reachable(t, uid, strategic) == reference_long_reachable(t, uid, strategic)


@pytest.mark.parametrize("seed,player,naval", [(6, RandomPlayer, False), (7, RandomPlayer, True),
                                               (8, ReasonablePlayer, False), (9, ReasonablePlayer, True)])
def test_the_table_readers_share_knows_the_positions_as_a_new_table_would(seed, player, naval):
    """Players and orders read the game through the table the rules play on: at every
    question its stacks and zones of control are those worked out afresh from the state."""
    game = RussoJapaneseWar()
    match = Match(game, options={"naval": True} if naval else {})
    players = {JAPAN: player(game, seed), RUSSIA: player(game, seed + 1)}
    dice = dice_from(random.Random(seed))
    checked = 0
    while not match.finished:
        decision = match.decision
        if decision is not None:
            shared = game.table(match.state)
            fresh = game.table(match.state, lambda event: None)
            assert shared is not fresh and shared is game.table(match.state)
            assert shared._stacks() == fresh._stacks()
            for side in SIDES:
                assert shared.zoc(side) == fresh.zoc(side)
                assert shared.closed_to(side) == fresh.closed_to(side)
            checked += 1
            match.answer(decision.side, players[decision.side](decision, match.state))
        else:
            match.supply(dice(match.chance))
    assert checked > 50


@pytest.mark.parametrize("index", range(0, len(POSITIONS), 7))
def test_the_reasonable_players_path_is_the_one_its_plain_choice_gives(index):
    """``pick_path`` draws its random numbers in a batch; the hex chosen, and what the
    generator gives next, are those of ``min(sorted(hexes), key=(distance, random))``."""
    from adjudicator.games.russo_japanese_war.hexmap import distance

    t = POSITIONS[index]
    for uid in [u for side in SIDES for u in movement.movable_units(t, side, set())][:6]:
        dests = movement.reachable(t, uid)
        if not dests:
            continue
        player = ReasonablePlayer(GAME, seed=index)
        plain = random.Random(index)
        goal = player.goal(t, t.side_of(uid))
        expected = dests[min(sorted(dests), key=lambda h: (distance(h, goal), plain.random()))]
        assert player.pick_path(t, uid, dests) == expected
        assert player.rng.random() == plain.random()
