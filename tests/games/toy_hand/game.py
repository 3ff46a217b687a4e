"""The toy game's rules, state and views."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from adjudicator.engine import Event, IllegalAnswer
from adjudicator.engine.errors import GameDataError
from adjudicator.engine.table import Table

SIDES = ("red", "blue")
CARDS = [str(n) for n in range(1, 10)]
RESERVE = ["B1", "B5", "B9"]


@dataclass
class HandState:
    deck: list[str] = field(default_factory=lambda: list(CARDS))
    reserve: list[str] = field(default_factory=lambda: list(RESERVE))
    hands: dict[str, list[str]] = field(default_factory=lambda: {side: [] for side in SIDES})
    wins: dict[str, int] = field(default_factory=lambda: {side: 0 for side in SIDES})
    turn: int = 0
    phase: str = "deal"
    result: str | None = None

    def to_json(self) -> dict:
        return {"deck": list(self.deck), "reserve": list(self.reserve),
                "hands": {s: list(h) for s, h in self.hands.items()}, "wins": dict(self.wins),
                "turn": self.turn, "phase": self.phase, "result": self.result}


def value(card: str) -> int:
    return 2 * int(card[1:]) if card.startswith("B") else int(card)


def play_parser(hand: list[str]) -> Callable[[Mapping[str, Any]], str]:
    def parse(answer: Mapping[str, Any]) -> str:
        card = str(answer.get("card", ""))
        if card not in hand:
            raise IllegalAnswer(f"play a card of your hand ({', '.join(hand)}), not {card!r}")
        return card
    return parse


class ToyHand:
    name = "toy-hand"
    title = "Toy Hand"
    sides = SIDES

    def new_state(self, setup: Mapping[str, Any], options: Mapping[str, Any]) -> HandState:
        if set(options) - {"rounds"}:
            raise GameDataError(f"unknown option(s) {sorted(set(options) - {'rounds'})}; the options are: rounds")
        state = HandState()
        position = setup.get("position")
        if position:
            state.deck = list(position.get("deck", state.deck))
            state.hands = {s: list(position.get("hands", {}).get(s, [])) for s in SIDES}
            state.phase = position.get("phase", "deal")
            state.turn = int(position.get("turn", 0))
        return state

    def data_hashes(self) -> dict[str, str]:
        return {}

    def rules(self, state: HandState, narrate: Callable[[Event], None]):
        table = Table(state, narrate)
        if state.phase == "deal":
            yield Event("phase", "Deal", {"phase": "deal"})
            state.deck = yield from table.shuffle(state.deck, "the deck", hidden=True)
            for side in SIDES:
                state.hands[side], state.deck = state.deck[:2], state.deck[2:]
                table.say("deal", f"{side} is dealt {', '.join(state.hands[side])}", visible_to=[side])
                table.say("deal", f"{side} is dealt two cards")  # what everyone reads
        rounds = 3
        while state.turn < rounds:
            state.turn += 1
            state.phase = "play"
            yield Event("phase", f"Round {state.turn}", {"phase": "play"})
            # both sides play at once: each answers on its own, the round goes on once both have
            played = yield from table.ask_together([
                table.question(side, "play", {"card": list(state.hands[side])},
                               f"{side}: play a card of your hand", play_parser(state.hands[side]), hidden=True)
                for side in SIDES])
            for side in SIDES:
                state.hands[side].remove(played[side])
            table.say("show", f"red shows {played['red']}, blue shows {played['blue']}", **played)
            winner = yield from self._winner(table, played)
            state.wins[winner] += 1
            if state.reserve:
                (bonus,) = yield from table.draw(state.reserve, 1, "bonus card", winner, hidden=True)
                state.reserve.remove(bonus)
                state.hands[winner].append(bonus)
                table.say("bonus", f"{winner} draws {bonus}", visible_to=[winner])
                table.say("bonus", f"{winner} draws a bonus card")
            if any(not hand for hand in state.hands.values()):
                break
        state.phase = "over"
        red, blue = state.wins["red"], state.wins["blue"]
        state.result = "red" if red > blue else "blue" if blue > red else "draw"
        table.say("end", f"the game ends: {state.result}")

    def _winner(self, table: Table, played: Mapping[str, str]):
        red, blue = value(played["red"]), value(played["blue"])
        while red == blue:
            red_die, blue_die = yield from table.roll(2, "tie-break", None)
            red, blue = red_die, blue_die
        return "red" if red > blue else "blue"

    def view(self, state: HandState, side: str | None) -> dict:
        data = state.to_json()
        if side is None:
            return data
        data["deck"] = len(state.deck)
        data["reserve"] = len(state.reserve)
        data["hands"] = {s: (list(h) if s == side else len(h)) for s, h in state.hands.items()}
        return data
