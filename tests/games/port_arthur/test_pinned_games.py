"""Seeded complete games of Port Arthur give, bit for bit, what they gave when the golden
file was written: every question asked (side, kind, options, prompt, hidden), every roll
asked for, every event (kind, text, data, who may see it), every answer and die of the
history, the state at each phase boundary (the snapshots) and at the end, each side's
view when it is asked, and the same again when the finished game is replayed.

The golden file, ``golden/seeded_games.json``, holds one digest of each of these per game.
It was computed by the engine before it was made faster; a faster engine must part from
it nowhere (issue 12: "A speed-up must not change results"). Run with
``UPDATE_GOLDEN=1`` only when the rules themselves change, and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from adjudicator.engine import Match, play_out
from adjudicator.engine.requests import Decision
from adjudicator.games.port_arthur.players import RandomPlayer, random_dice

GOLDEN = Path(__file__).with_name("golden") / "seeded_games.json"

OPTION_SETS = {
    "rulebook": {},
    "mines": {"additional_ships": True, "attack_on_port_arthur": True, "mines": True},
    "fog": {"fog_of_war": True, "partial_hits": "at-most"},
    "track": {"mines": True, "blockade": "no-russian-ships",
              "track": ["Yalu", "Nanshan", "Liaoyang", "Mukden", "Siping", "Hill 203", "Port Arthur"]},
}
SEEDS = range(30)


class Digest:
    """A running SHA-256 of lines of text."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()

    def add(self, *parts: object) -> None:
        self._hash.update(repr(parts).encode("utf-8") + b"\n")

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def _json(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


def event_lines(match: Match) -> Digest:
    digest = Digest()
    for event in match.events:
        digest.add(event.kind, event.text, _json(event.data), event.visible_to)
    return digest


def pinned(game, options: dict, seed: int) -> dict:
    """What the seeded game gave: its digests, its result and its length."""
    rng = random.Random(seed)
    roll, choose = random_dice(rng), RandomPlayer(rng)
    requests, views = Digest(), Digest()

    def dice(request):
        requests.add("chance", repr(request))
        return roll(request)

    def answer(decision: Decision, state):
        requests.add("decision", decision.side, decision.kind, _json(decision.options), decision.prompt,
                     decision.hidden)
        views.add(_json(game.view(state, decision.side)))
        return choose(decision, state)

    match = play_out(Match(game, {}, options, snapshots=True), dice, answer)
    history = match.history_json()
    states = Digest()
    for snapshot in match.snapshots:
        states.add(_json(snapshot.to_json()))
    final = _json(match.state.to_json())
    replayed = Match(game, {}, options, history)
    assert replayed.finished
    assert _json(replayed.state.to_json()) == final
    assert event_lines(replayed).hexdigest() == event_lines(match).hexdigest()
    return {
        "result": match.state.result,
        "entries": len(history),
        "events": len(match.events),
        "requests": requests.hexdigest(),
        "views": views.hexdigest(),
        "history": hashlib.sha256(_json(history).encode()).hexdigest(),
        "narrative": event_lines(match).hexdigest(),
        "snapshots": states.hexdigest(),
        "final": hashlib.sha256(final.encode()).hexdigest(),
        "final_views": hashlib.sha256(_json([game.view(match.state, side) for side in (None, *game.sides)])
                                      .encode()).hexdigest(),
    }


def all_pinned(game) -> dict:
    return {f"{name}/{seed}": pinned(game, options, seed) for name, options in OPTION_SETS.items() for seed in SEEDS}


@pytest.fixture(scope="module")
def golden(port_arthur) -> dict:
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(all_pinned(port_arthur), indent=1, sort_keys=True) + "\n")
    assert GOLDEN.exists(), f"{GOLDEN} is missing: run once with UPDATE_GOLDEN=1 on the engine it pins"
    return json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("name", OPTION_SETS)
def test_seeded_games_ask_roll_narrate_and_end_exactly_as_pinned(port_arthur, golden, name):
    for seed in SEEDS:
        key = f"{name}/{seed}"
        got = pinned(port_arthur, OPTION_SETS[name], seed)
        want = golden[key]
        differing = [part for part in want if got.get(part) != want[part]]
        assert not differing, f"game {key} parts from the pinned game in: {', '.join(differing)}"


def test_the_golden_file_pins_every_seeded_game_and_both_sides_winning(golden):
    assert set(golden) == {f"{name}/{seed}" for name in OPTION_SETS for seed in SEEDS}
    assert {entry["result"] for entry in golden.values()} >= {"japan", "russia"}
