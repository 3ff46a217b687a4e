"""Complete games between automatic players choosing at random among legal answers:
never a crash, the invariants hold at every step, and replay gives the same game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine import Decision, Match, Roll
from adjudicator.games.port_arthur.players import RandomPlayer, random_dice
from adjudicator.games.port_arthur.state import ENDED, PHASES, SETUP, SHIPYARD, SUNK
from tests.conftest import soak_size

OPTION_SETS = [
    {},
    {"additional_ships": True, "attack_on_port_arthur": True, "mines": True},
    {"fog_of_war": True, "partial_hits": "at-most"},
    {"mines": True, "track": ["Yalu", "Nanshan", "Liaoyang", "Mukden", "Siping", "Hill 203", "Port Arthur"]},
]
GAMES = soak_size(200, 2000, "PA_RANDOM_GAMES")  # thousands with ADJUDICATOR_SOAK=1


def places(game) -> set[str]:
    board = game.board
    harbours = set(board.ports)
    return (set(board.zones) | harbours | {p + SHIPYARD for p in harbours}
            | {f"turn {t}" for t in range(1, board.turns + 1)} | {SUNK})


def check_invariants(match: Match, game, legal_places: set[str]) -> None:
    state = match.state
    assert all(ship.at in legal_places for ship in state.ships.values())
    assert len(state.ships) == len({s.name for s in state.ships.values()})
    assert -game.board.cp_limit <= state.cp <= game.board.cp_limit
    assert state.occupied + len(state.landing) + state.meeple_pool == game.board.army_meeples
    assert state.meeple_pool >= 0 and 0 <= state.occupied <= len(state.track)
    assert len(set(state.landing)) == len(state.landing)
    assert state.initiative in ("japan", "russia")
    assert state.phase in PHASES + (SETUP, ENDED)
    assert 1 <= state.turn <= game.board.turns
    if state.port_arthur == "fallen":
        assert not state.ships_at("Port Arthur") and not state.blockade
    for ship in state.ships.values():
        if ship.at.endswith(SHIPYARD):
            assert ship.at != "Diego Suarez" + SHIPYARD


def play_checked(game, seed: int, options: dict) -> Match:
    rng = random.Random(seed)
    dice, player = random_dice(rng), RandomPlayer(rng)
    match = Match(game, {}, options)
    legal_places = places(game)
    steps = 0
    while not match.finished:
        check_invariants(match, game, legal_places)
        pending = match.pending
        if isinstance(pending, Roll):
            match.supply_dice(dice(pending))
        else:
            assert isinstance(pending, Decision)
            match.answer(pending.side, player(pending, match.state))
        steps += 1
        assert steps < 100_000, "the game does not end"
    check_invariants(match, game, legal_places)
    return match


@pytest.mark.soak("sized")
def test_thousands_of_random_games_end_after_turn_6_with_a_result(port_arthur):
    results = {}
    for seed in range(GAMES):
        match = play_checked(port_arthur, seed, OPTION_SETS[seed % len(OPTION_SETS)])
        assert match.state.turn == 6 and match.state.phase == ENDED
        assert match.state.result in ("japan", "russia", "draw")
        results[match.state.result] = results.get(match.state.result, 0) + 1
    assert sum(results.values()) == GAMES


@pytest.mark.parametrize("seed", range(12))
def test_replaying_a_finished_games_history_gives_the_same_state(port_arthur, seed):
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    match = play_checked(port_arthur, seed, options)
    replayed = Match(port_arthur, {}, options, match.history_json())
    assert replayed.finished
    assert replayed.state.to_json() == match.state.to_json()
    assert [e.text for e in replayed.events] == [e.text for e in match.events]


def test_replaying_part_of_a_history_resumes_where_it_stopped(port_arthur):
    match = play_checked(port_arthur, 7, {})
    half = match.history_json()[: len(match.history) // 2]
    resumed = Match(port_arthur, {}, {}, half)
    assert not resumed.finished and resumed.pending is not None
    for entry in match.history_json()[len(half):]:
        if "dice" in entry:
            resumed.supply_dice(entry["dice"])
        else:
            resumed.answer(entry["side"], entry["answer"])
    assert resumed.state.to_json() == match.state.to_json()


@given(st.integers(min_value=0, max_value=2**32), st.lists(st.integers(min_value=1, max_value=300), min_size=1,
                                                            max_size=40))
@settings(deadline=None, max_examples=200)
def test_the_random_players_draws_are_the_numbers_random_choice_and_randrange_give(seed, sizes):
    """The player draws with its own short path (``below``); seeded games stay the
    games they were only if it draws exactly what ``rng.randrange`` and ``rng.choice`` draw."""
    ours, theirs = RandomPlayer(random.Random(seed)), random.Random(seed)
    for size in sizes:
        assert ours.below(size) == theirs.randrange(size)
        items = list(range(size))
        assert ours.choice(items) == theirs.choice(items)
        assert ours.rng.random() == theirs.random()


def test_the_random_player_refuses_to_draw_from_nothing():
    player = RandomPlayer(random.Random(1))
    with pytest.raises(IndexError):
        player.choice([])
    with pytest.raises(ValueError):
        player.below(0)
