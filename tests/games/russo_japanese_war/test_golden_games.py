"""Seeded whole games pinned to the digests the rules gave before they were made faster
(issue 12): the same questions (options and prompts), answers, dice, shuffles, events and
their text, refusals of probing answers, and final state, game for game.

The digests were written by the code before the speed work; a change to the rules that is
meant to change results regenerates them on purpose:

    .venv/bin/python -m tests.games.russo_japanese_war.test_golden_games > tests/games/russo_japanese_war/golden/games.json
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from adjudicator.engine import Match
from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA
from adjudicator.games.russo_japanese_war.players import RandomPlayer, ReasonablePlayer, dice_from

GOLDEN = Path(__file__).parent / "golden" / "games.json"
GAME = RussoJapaneseWar()
PLAYERS = {"random": (RandomPlayer, RandomPlayer), "reasonable": (ReasonablePlayer, ReasonablePlayer),
           "mixed": (ReasonablePlayer, RandomPlayer)}
CASES = [(kind, seed, naval) for kind in PLAYERS for seed in range(4) for naval in (False, True)]


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def _probe(match: Match, rng: random.Random) -> str:
    """An answer a player might send to the pending movement question, legal or not, and
    what the rules say of it (the refusal's text is part of the result)."""
    decision = match.decision
    units = sorted(match.state["units"])
    own = [u for u in units if match.state["units"][u]["side"] == decision.side]
    uid = rng.choice(own if rng.random() < 0.9 else units)
    at = match.state["units"][uid]["at"]
    board = GAME.data.board
    path = [at]
    for _ in range(rng.randint(1, 3)):
        around = board.land_neighbours.get(path[-1]) or sorted(board.hexes)[:3]
        path.append(rng.choice(sorted(around)))
    answer = {"rail" if rng.random() < 0.25 else "unit": uid, "path": path}
    try:
        return _json(decision.accept(answer))
    except IllegalAnswer as err:
        return "refused: " + str(err)


def play(kind: str, seed: int, naval: bool) -> dict:
    """One seeded game with everything the rules said along the way, digested."""
    japan, russia = PLAYERS[kind]
    players = {JAPAN: japan(GAME, seed), RUSSIA: russia(GAME, seed + 7919)}
    match = Match(GAME, options={"naval": True} if naval else {})
    dice = dice_from(random.Random(seed))
    probes = random.Random(seed + 1)
    asked = hashlib.sha256()
    refusals = hashlib.sha256()
    while not match.finished:
        decision = match.decision
        if decision is not None:
            asked.update(_json([decision.side, decision.kind, decision.options, decision.prompt]).encode())
            if decision.kind == "move":
                refusals.update(_probe(match, probes).encode())
            match.answer(decision.side, players[decision.side](decision, match.state))
        else:
            match.supply(dice(match.chance))
    events = hashlib.sha256()
    for event in match.events:
        events.update(_json([event.kind, event.text, event.data, event.visible_to]).encode())
    history = match.history_json()
    return {"kind": kind, "seed": seed, "naval": naval, "entries": len(history),
            "result": match.state["result"], "turn": match.state["turn"],
            "history": hashlib.sha256(_json(history).encode()).hexdigest(),
            "questions": asked.hexdigest(), "events": events.hexdigest(),
            "refusals": refusals.hexdigest(),
            "state": hashlib.sha256(_json(match.state).encode()).hexdigest()}


def _golden() -> dict:
    return {(g["kind"], g["seed"], g["naval"]): g for g in json.loads(GOLDEN.read_text())}


@pytest.mark.parametrize("kind,seed,naval", CASES)
def test_seeded_games_give_the_same_questions_dice_events_and_state_as_before(kind, seed, naval):
    assert play(kind, seed, naval) == _golden()[(kind, seed, naval)]


@pytest.mark.parametrize("kind,seed,naval", CASES[::5])
def test_a_seeded_game_replays_to_the_same_state_and_events(kind, seed, naval):
    expected = _golden()[(kind, seed, naval)]
    japan, russia = PLAYERS[kind]
    match = Match(GAME, options={"naval": True} if naval else {})
    players = {JAPAN: japan(GAME, seed), RUSSIA: russia(GAME, seed + 7919)}
    dice = dice_from(random.Random(seed))
    while not match.finished:
        if match.decision is not None:
            match.answer(match.decision.side, players[match.decision.side](match.decision, match.state))
        else:
            match.supply(dice(match.chance))
    replayed = Match(GAME, options=match.options, history=match.history_json())
    assert hashlib.sha256(_json(replayed.state).encode()).hexdigest() == expected["state"]
    assert [(e.kind, e.text) for e in replayed.events] == [(e.kind, e.text) for e in match.events]


if __name__ == "__main__":
    print(json.dumps([play(*case) for case in CASES], indent=1))
