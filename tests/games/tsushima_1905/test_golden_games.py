"""Golden games: fixed seeded games and relative moves whose results are pinned.

Speed work on the movement planner and the geometry must not change a single result:
the same answers from the same orders, so the same dice, events (their text too),
final state and history. Each game below is played with fixed dice and fixed players,
and a SHA-256 of its history, its events and its final state is compared with the
digest the code gave before the speed work. The relative moves are resolved for a
fixed, seeded set of positions (a third ship in the way in most of them) and the
answers hashed the same way.

If a rules change is meant to change these games, recompute the digests with
``python tests/games/tsushima_1905/test_golden_games.py`` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from adjudicator.engine import Match
from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.match import play_out
from adjudicator.games.tsushima_1905.players import RandomPlayer, ReasonablePlayer, random_dice
from adjudicator.games.tsushima_1905.commander import standing_orders
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.language import CODES, read
from adjudicator.games.tsushima_1905.plans import Plans
from adjudicator.games.tsushima_1905.planner import Relative, resolve
from adjudicator.games.tsushima_1905.rules.table import Table
from adjudicator.orders.problems import ProblemLog
from adjudicator.orders.text import clean

GAME = Tsushima1905()
SAMPLES = Path(__file__).resolve().parents[3] / "samples" / "tsushima-1905"
HEADER = "BEGIN ORDERS\ncampaign: c\nside: {side}\nturn: 1\npassword: x\n"


def orders_from(text: str):
    cleaned = clean(text)
    log = ProblemLog(list(cleaned.lines), codes=CODES)
    orders = read(cleaned, log)
    assert log.problems == []
    return orders


def sample_orders(side: str):
    return orders_from((SAMPLES / f"{side}-orders.txt").read_text())


def demo_orders(side: str):
    """The automatic commander's standing orders (the demo's and the benchmarks')."""
    return orders_from(HEADER.format(side=side) + "\n".join(standing_orders(side)) + "\nEND ORDERS\n")


def digest(match: Match) -> str:
    """SHA-256 of the history, every event (kind, text, data) and the final state."""
    record = {"history": match.history_json(),
              "events": [[event.kind, event.text, event.data] for event in match.events],
              "state": match.state.to_json()}
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()


def play(kind: str, seed: int, options: dict) -> Match:
    if kind == "sample-orders":
        player = Plans({"japan": sample_orders("japan"), "russia": sample_orders("russia")})
    elif kind == "demo-orders":
        player = Plans({"japan": demo_orders("japan"), "russia": demo_orders("russia")})
    elif kind == "random":
        player = RandomPlayer(seed)
    else:
        player = ReasonablePlayer()
    return play_out(Match(GAME, {}, options), random_dice(random.Random(seed)), player)


GAMES = {
    ("sample-orders", 5, ()):
        "35beff35e9d542d1883e52962e57c1dfe630f40f598cf7350b960641dac5ab8d",
    ("sample-orders", 11, (("partial_ahead", True),)):
        "2f03b2fd00950d9a514a95bb094579367990cafcacd8fa4a4db931d4f8852cb4",
    ("demo-orders", 1904, ()):
        "dfba257589036a8dcfe280c6579a4537e396a2618682f2ed68e4d5367f8f42ee",
    ("demo-orders", 7, (("collision_place", "step-start"), ("cadence", "activation"))):
        "558cf3e2d13889833135000ff153efaae7fed721f0bd675d1559f2a6bbd2255b",
    ("random", 3, ()):
        "5c655d9794abaeac7afad13c3ad96be8a9f37c2f40c0b9aba8a21d813cf27eca",
    ("reasonable", 4, (("split_fire", True),)):
        "0ece7474123316a98e92b374d5fac6184afc35fb7d23e3d3b74b3642729bf508",
}


@pytest.mark.parametrize("kind,seed,options", list(GAMES))
def test_a_fixed_seeded_game_plays_exactly_as_before(kind, seed, options):
    match = play(kind, seed, dict(options))
    assert match.finished
    assert digest(match) == GAMES[(kind, seed, options)]


SHIPS = [("Mikasa", "japan", "battleship"), ("Idzumo", "japan", "armoured_cruiser"),
         ("Kniaz Suvorov", "russia", "battleship"), ("Admiral Nakhimov", "russia", "armoured_cruiser")]
KINDS = ("follow", "close", "open", "steer", "station", "broadside", "ram")


def relative_positions(count: int, seed: int):
    """Seeded positions: a mover, its mark and a ship near the way, and an order."""
    rng = random.Random(seed)
    for _ in range(count):
        mover, mark, third = rng.sample(SHIPS, 3)
        x, y = rng.uniform(2, 18), rng.uniform(2, 26)
        ships = [{"name": mover[0], "side": mover[1], "class": mover[2], "at": [round(x, 3), round(y, 3)],
                  "heading": rng.randrange(360), "cp": rng.randint(1, 6)}]
        for other, reach in ((mark, 6), (third, 2)):
            ships.append({"name": other[0], "side": other[1], "class": other[2],
                          "at": [round(min(19.5, max(0.5, x + rng.uniform(-reach, reach))), 3),
                                 round(min(27.5, max(0.5, y + rng.uniform(-reach, reach))), 3)],
                          "heading": rng.randrange(360)})
        kind = rng.choice(KINDS)
        order = Relative(kind, mark[0], heading=rng.randrange(360), bearing=rng.choice((90, 135, 180, 270)),
                         distance=rng.choice((1500, 2000, 3000)))
        partial = rng.random() < 0.25
        yield ships, mover[0], order, partial


def relative_answers(count: int = 240, seed: int = 1905) -> list:
    answers = []
    for ships, name, order, partial in relative_positions(count, seed):
        position = {"turn": 1, "phase": "action", "offense": "japan", "prime": 1, "next": "japan", "ship": ships}
        state = GAME.new_state({"position": position}, {})
        table = Table(state, GAME.data, GAME.geo, Options(partial_ahead=partial), lambda event: None)
        try:
            answers.append([e.code for e in resolve(table, table.ship(name), order)])
        except IllegalAnswer as error:
            answers.append(str(error))
    return answers


RELATIVE_DIGEST = "4342da505874c38bf7e9f01f3702726341e6f37276c6a3950ce73b09a17e843c"


def test_fixed_seeded_relative_moves_resolve_exactly_as_before():
    answers = relative_answers()
    assert sum(isinstance(a, list) and len(a) > 0 for a in answers) > len(answers) // 2
    assert hashlib.sha256(json.dumps(answers).encode()).hexdigest() == RELATIVE_DIGEST


if __name__ == "__main__":
    for key in GAMES:
        print(key, digest(play(key[0], key[1], dict(key[2]))))
    print("relative", hashlib.sha256(json.dumps(relative_answers()).encode()).hexdigest())
