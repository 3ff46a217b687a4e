"""Automatic players: a random legal player and a reasonable one.

Both answer any question of the game from the question's options and the state, so that
whole games run without anybody (tests, benchmarks, the demo). The random player picks
uniformly among legal answers; the reasonable one attacks at good odds, brings units into
play, keeps its units together and retreats toward its supply source.
"""

from __future__ import annotations

import random
from itertools import repeat
from typing import Any, Mapping

from adjudicator.engine.requests import Decision, Roll, Shuffle
from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA, other
from adjudicator.games.russo_japanese_war.hexmap import ELIMINATED, EUROPE, distance
from adjudicator.games.russo_japanese_war.rules import movement
from adjudicator.games.russo_japanese_war.rules.card_play import unit_type


class RandomPlayer:
    """Uniformly random legal answers (seeded, so a game can be repeated)."""

    def __init__(self, game, seed: int | None = None, eagerness: float = 0.7,
                 rng: random.Random | None = None) -> None:
        self.game = game
        self.rng = rng or random.Random(seed)
        self.eagerness = eagerness
        self._answers: dict[str, Any] = {}  # decision kind -> the method that answers it

    def __call__(self, decision: Decision, state: dict) -> Mapping[str, Any]:
        answer = self._answers.get(decision.kind)
        if answer is None:
            answer = self._answers[decision.kind] = getattr(self, "_" + decision.kind.replace("-", "_"))
        return answer(decision, self.game.table(state))

    # -- each question ------------------------------------------------------------------

    def _extra_card(self, d, t):
        return {"use": self.rng.random() < 0.15 and t.s["morale"][d.side] > 3}

    # -- 11.0 Advanced naval rules --------------------------------------------------------

    def _flagship(self, d, t):
        return {"ship": self.rng.choice(d.options["ships"])}

    def _sortie(self, d, t):
        cards = d.options["cards"]
        go = self.rng.random() < 0.5
        return {"sortie": go, "card": self.rng.choice(cards) if go and cards and self.rng.random() < 0.5 else None}

    def _call_off(self, d, t):
        return {"continue": self.rng.random() < 0.8}

    def _intercept(self, d, t):
        return {"intercept": self.rng.random() < 0.7}

    def _naval_response(self, d, t):
        return {key: d.options[key] and self.rng.random() < 0.6 for key in ("blockade", "mines")}

    def _naval_damage(self, d, t):
        ships = t.s["naval"]["ships"]
        steps = [sid for sid in d.options["ships"] for _ in range(ships[sid]["steps"])]
        return {"ships": self.rng.sample(steps, d.options["steps"])}

    def _akiyama(self, d, t):
        return {"play": self.rng.random() < 0.5}

    def _second_fleet(self, d, t):
        return {"withdraw": self.rng.choice([None, *d.options["ships"]])}

    def _repair(self, d, t):
        return {"ships": self.rng.sample(d.options["ships"], d.options["count"])}

    def _line_up(self, d, t):
        o = d.options
        return {"order": self.rng.sample(o["unhurt"], len(o["unhurt"])) + self.rng.sample(o["damaged"], len(o["damaged"]))}

    def _move(self, d, t):
        rng = self.rng
        if rng.random() > self.eagerness:
            return {"done": True}
        rail = d.options["rail"]
        if rail and rng.random() < 0.3:
            uid = rng.choice(rail)
            dests = movement.long_reachable(t, uid, strategic=False)
            if dests:
                return {"rail": uid, "path": self.pick_path(t, uid, dests)}
        units = d.options["units"]
        if not units:
            return {"done": True}
        uid = rng.choice(units)
        dests = movement.reachable(t, uid)
        if not dests:
            return {"done": True}
        return {"unit": uid, "path": self.pick_path(t, uid, dests)}

    def pick_path(self, t, uid: str, dests: dict[str, list[str]]) -> list[str]:
        return dests[self.rng.choice(sorted(dests))]

    def _attacks(self, d, t):
        declare, used = [], set()
        for target, units in sorted(d.options["targets"].items()):
            free = [u for u in units if u not in used]
            if free and self.want_attack(t, d.side, target, free):
                chosen = self.attackers_for(t, target, free)
                used.update(chosen)
                declare.append({"target": target, "with": chosen})
        return {"declare": declare}

    def want_attack(self, t, side, target, units) -> bool:
        return self.rng.random() < 0.5

    def attackers_for(self, t, target, units) -> list[str]:
        return self.rng.sample(units, self.rng.randint(1, len(units)))

    def _support(self, d, t):
        return {"card": self.rng.choice(d.options["hand"])} if self.rng.random() < 0.3 else {"pass": True}

    def _combat_event(self, d, t):
        return {"card": self.rng.choice(d.options["playable"])} if self.rng.random() < 0.5 else {"pass": True}

    _reaction = _combat_event

    def _loss(self, d, t):
        return {"unit": self.rng.choice(d.options["units"])}

    def _attacker_result(self, d, t):
        return {"choose": self.rng.choice(["AR", "AE"])}

    def _retreat(self, d, t):
        return {"unit": d.options["unit"], "to": self.rng.choice(d.options["hexes"])}

    def _chain(self, d, t):
        return {"unit": self.rng.choice(d.options["units"])}

    def _advance(self, d, t):
        units = d.options["units"]
        return {"units": self.rng.sample(units, self.rng.randint(0, min(d.options["limit"], len(units))))}

    def _card_play(self, d, t):
        rng = self.rng
        uses = d.options["uses"]
        hand = d.options["hand"]
        if rng.random() < 0.25:
            return {"done": True}
        use = rng.choice(sorted(uses))
        return self.card_use(t, d.side, use, uses, hand)

    def card_use(self, t, side, use, uses, hand):
        rng = self.rng
        card = rng.choice(hand)
        if use == "event":
            card = rng.choice(uses["event"])
            return {"event": card, "units": self.event_units(t, side, card)}
        if use == "forced-march":
            return {"forced-march": card, "phase": rng.choice(["movement", "combat"])}
        if use == "transport":
            uid = rng.choice(sorted(uses["transport"]))
            return {"transport": card, "unit": uid, "to": rng.choice(uses["transport"][uid])}
        if use == "strategic":
            uid = rng.choice(uses["strategic"])
            dests = movement.long_reachable(t, uid, strategic=True)
            return {"strategic": card, "unit": uid, "path": self.pick_path(t, uid, dests)}
        return {"reorganise": card, "unit": rng.choice(uses["reorganise"])}

    def event_units(self, t, side: str, card: str) -> list[str]:
        """Units for the events that name them, chosen legally."""
        effect = t.data.half(card, side).effect
        kind = effect["kind"]
        rng = self.rng
        if kind == "zoc_lost":
            enemies = [u for u in t.units_of(other(side)) if t.on_map(u)]
            return rng.sample(enemies, min(len(enemies), int(effect["count"])))
        if kind == "reorganise":
            pool = [u for u in t.units_of(side, ELIMINATED)
                    if not effect.get("types") or unit_type(t, u) in effect["types"]]
            chosen, fives = [], 0
            for uid in rng.sample(pool, len(pool)):
                if len(chosen) == int(effect["max_units"]):
                    break
                if unit_type(t, uid) == "5-2":
                    if fives >= int(effect.get("max_five_two", 9)):
                        continue
                    fives += 1
                chosen.append(uid)
            return chosen
        if kind == "transport_event":
            pool = t.units_of(side, EUROPE)
            fives = [u for u in pool if t.units[u]["strength"] == 5]
            threes = [u for u in pool if t.units[u]["strength"] == 3]
            if fives and (not threes or rng.random() < 0.5):
                return [rng.choice(fives)]
            return rng.sample(threes, min(2, len(threes)))
        return []


class ReasonablePlayer(RandomPlayer):
    """Attacks at good odds, brings units into play and toward the enemy, keeps units
    together, retreats toward its supply source."""

    def __init__(self, game, seed: int | None = None, rng: random.Random | None = None) -> None:
        super().__init__(game, seed, eagerness=0.9, rng=rng)

    def goal(self, t, side: str) -> str:
        board = t.board
        if side == JAPAN:
            held = [h for h in sorted(board.key_locations) if t.controller(h) != JAPAN]
            return held[0] if held else board.supply.get(RUSSIA, next(iter(board.hexes)))
        lost = [h for h in sorted(board.key_locations) if t.controller(h) != RUSSIA]
        return lost[0] if lost else "1913" if "1913" in board.hexes else sorted(board.hexes)[0]

    def pick_path(self, t, uid, dests):
        """The path to the hex nearest the goal; among the nearest, one at random (a
        random number drawn for each hex, in the hexes' order)."""
        goal = self.goal(t, t.side_of(uid))
        hexes = sorted(dests)
        random_ = self.rng.random
        keys = list(zip(map(distance, hexes, repeat(goal)), [random_() for _ in hexes]))
        return dests[hexes[keys.index(min(keys))]]

    def want_attack(self, t, side, target, units) -> bool:
        attack = sum(t.strength(u) for u in units)
        defence = sum(t.strength(u) for u in t.occupants(target))
        defence += (target in t.board.wasteland) + (target in t.board.towns)
        return attack - defence >= 2

    def attackers_for(self, t, target, units):
        return list(units)

    def _support(self, d, t):
        return {"card": d.options["hand"][0]} if len(d.options["hand"]) >= 3 else {"pass": True}

    def _combat_event(self, d, t):
        return {"card": d.options["playable"][0]}

    def _attacker_result(self, d, t):
        return {"choose": "AR"}

    def _retreat(self, d, t):
        home = t.board.supply.get(d.side)
        hexes = d.options["hexes"]
        return {"unit": d.options["unit"], "to": min(hexes, key=lambda h: distance(h, home) if home else 0)}

    def _advance(self, d, t):
        return {"units": d.options["units"][: d.options["limit"]]}

    def _extra_card(self, d, t):
        return {"use": t.s["morale"][d.side] >= 5 and t.s["turn"] <= 9}

    def _card_play(self, d, t):
        uses = d.options["uses"]
        hand = d.options["hand"]
        if "transport" in uses and len(hand) > 1:
            return self.card_use(t, d.side, "transport", uses, hand)
        if "event" in uses:
            return self.card_use(t, d.side, "event", uses, hand)
        if "forced-march" in uses and len(hand) > 1:
            return {"forced-march": hand[0], "phase": "movement"}
        return {"done": True}


def dice_from(rng: random.Random):
    """A dice source for :func:`adjudicator.engine.play_out` (shuffles too)."""
    def source(request: Roll | Shuffle):
        if isinstance(request, Shuffle):
            return rng.sample(range(request.size), request.size)
        return [rng.randint(1, request.sides) for _ in range(request.count)]
    return source


def players_chooser(players: Mapping[str, Any]):
    return lambda decision, state: players[decision.side](decision, state)
