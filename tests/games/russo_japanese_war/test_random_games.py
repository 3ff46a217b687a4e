"""Whole random games between automatic players, with the rulebook's invariants checked
after every answer, die and shuffle, and a replay of every finished game."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from adjudicator.engine import Match
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA, SIDES
from adjudicator.games.russo_japanese_war.hexmap import BOXES
from adjudicator.games.russo_japanese_war.players import RandomPlayer, ReasonablePlayer, dice_from
from tests.conftest import soak_size

GAME = RussoJapaneseWar()
#: Games per player mix: 12 by default, 40 with ADJUDICATOR_SOAK=1, or RJW_RANDOM_GAMES=N.
GAMES = soak_size(12, 40, "RJW_RANDOM_GAMES")
SETUP_HEX = {u.id: u.setup for u in GAME.data.units}


def check_invariants(state: dict) -> None:
    numbers = GAME.data.numbers
    stacks: dict[str, list[str]] = {}
    for uid, unit in state["units"].items():
        if unit["at"] not in BOXES:
            stacks.setdefault(unit["at"], []).append(uid)
            assert unit["at"] in GAME.data.board.hexes, f"{uid} is off the map at {unit['at']}"
        if unit["ma"] == 0:
            assert unit["at"] in (SETUP_HEX[uid], "eliminated"), f"the 0-MA unit {uid} moved to {unit['at']}"
    for hex_, uids in stacks.items():
        sides = {state["units"][u]["side"] for u in uids}
        assert len(sides) == 1, f"enemy units share {hex_}: {uids}"
        side = sides.pop()
        if "chain_retreat" not in state:     # during a chain retreat one hex holds one unit too many (9.6)
            assert len(uids) <= numbers.stacking[side], f"{hex_} holds {uids}: over the {side} stacking limit"
        assert state["control"].get(hex_, RUSSIA) == side, f"{hex_} is occupied by {side} but not controlled"
    cards = state["cards"]
    every = cards["deck"] + cards["discard"] + cards.get("shuffling", []) + cards["hands"][JAPAN] + cards["hands"][RUSSIA]
    assert Counter(every) == Counter(GAME.data.deck), \
        f"the 16 cards are not all in play once: {sorted(every)}"
    for side in SIDES:
        assert numbers.morale_min <= state["morale"][side] <= numbers.morale_max
    assert 1 <= state["turn"] <= numbers.turns


def play_checked(seed: int, players) -> Match:
    match = Match(GAME)
    dice = dice_from(random.Random(seed))
    for _ in range(100_000):
        if match.finished:
            break
        if match.decision is not None:
            decision = match.decision
            match.answer(decision.side, players[decision.side](decision, match.state))
        elif match.roll is not None:
            match.supply_dice(dice(match.roll))
        else:
            match.supply_shuffle(dice(match.shuffle))
        check_invariants(match.state)
    return match


@pytest.mark.soak("sized")
@pytest.mark.parametrize("kind", ["random", "reasonable", "mixed"])
def test_whole_games_keep_the_invariants_and_end_by_turn_12_with_a_result(kind):
    results = Counter()
    for seed in range(GAMES):
        japan = (ReasonablePlayer if kind != "random" else RandomPlayer)(GAME, seed)
        russia = (ReasonablePlayer if kind == "reasonable" else RandomPlayer)(GAME, seed + 7919)
        match = play_checked(seed, {JAPAN: japan, RUSSIA: russia})
        assert match.finished
        state = match.state
        assert state["result"] in ("japan", "russia", "draw")
        assert state["turn"] <= 12
        results[state["result"]] += 1
        replayed = Match(GAME, history=match.history_json())
        assert json.dumps(replayed.state, sort_keys=True) == json.dumps(state, sort_keys=True)
    assert sum(results.values()) == GAMES


def test_a_game_reaching_turn_12_is_won_by_russia_unless_decided_before():
    for seed in range(40):
        match = play_checked(seed, {JAPAN: RandomPlayer(GAME, seed, 0.3), RUSSIA: RandomPlayer(GAME, seed + 1, 0.3)})
        state = match.state
        if state["turn"] == 12 and min(state["morale"].values()) > 0 and state["phase"] == "victory-check":
            assert state["result"] == RUSSIA
            return
    pytest.fail("no random game lasted to the end of turn 12")
