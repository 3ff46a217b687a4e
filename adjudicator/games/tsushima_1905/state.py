"""The state of a game of Tsushima 1905: plain data that serialises to JSON.

Per ship (rulebook, Combat Points, Damage and Repairs; rulings §1.12): its pose on
the table in integers, the four CP piles (Bank, In Play, Spent, Lost), the fire and
flood tokens, the CPs used this turn per category (the maxima are per turn, R-CP-1),
whether it has activated or is "done" after a collision, and its status. Per side:
a deck of cards, with an unordered draw pile (the order of a face-down pile is not
part of the state: a card is drawn at the moment it is turned), a face-up discard
pile and the King set aside this turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

JAPAN, RUSSIA = "japan", "russia"
SIDES = (JAPAN, RUSSIA)

ACTIVE, SURRENDERED, ABANDONED, SUNK, WITHDRAWN = "active", "surrendered", "abandoned", "sunk", "withdrawn"
STATUSES = (ACTIVE, SURRENDERED, ABANDONED, SUNK, WITHDRAWN)
ON_TABLE = (ACTIVE, SURRENDERED, ABANDONED)       # bases that block fire and moves (R-GEO-4)
OUT_OF_ACTION = (SURRENDERED, ABANDONED, SUNK)    # count their full CPs for the enemy (X-VICTORY)

INITIATIVE, ACTION, TORPEDO, REPAIR, DAMAGE, RELOAD, ENDED = (
    "initiative", "action", "torpedo", "repair", "damage", "reload", "ended")
PHASES = (INITIATIVE, ACTION, TORPEDO, REPAIR, DAMAGE, RELOAD)

MOVE, GUN, ARMOR = "move", "gun", "armor"


def other(side: str) -> str:
    return RUSSIA if side == JAPAN else JAPAN


@dataclass(slots=True)
class Ship:
    """A ship on (or off) the table, with its chips."""

    name: str
    side: str
    ship_class: str
    x: int
    y: int
    heading: int
    start_cp: int
    bank: int
    spent: int = 0
    lost: int = 0
    in_play: int = 0
    fires: int = 0
    floods: int = 0
    used_move: int = 0
    used_gun: int = 0
    used_armor: int = 0
    activated: bool = False
    done: bool = False
    status: str = ACTIVE

    @property
    def cp(self) -> int:
        """Bank + In Play + Spent: the CPs the ship still has (only ever decreases)."""
        return self.bank + self.in_play + self.spent

    @property
    def in_action(self) -> bool:
        return self.status == ACTIVE

    @property
    def on_table(self) -> bool:
        return self.status in ON_TABLE

    def used(self) -> dict[str, int]:
        return {MOVE: self.used_move, GUN: self.used_gun, ARMOR: self.used_armor}

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "side": self.side, "class": self.ship_class, "x": self.x, "y": self.y,
                "heading": self.heading, "start_cp": self.start_cp, "bank": self.bank, "in_play": self.in_play,
                "spent": self.spent, "lost": self.lost, "fires": self.fires, "floods": self.floods,
                "used": self.used(), "activated": self.activated, "done": self.done, "status": self.status}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Ship":
        used = data.get("used", {})
        return cls(
            name=data["name"], side=data["side"], ship_class=data["class"], x=int(data["x"]), y=int(data["y"]),
            heading=int(data["heading"]), start_cp=int(data["start_cp"]), bank=int(data["bank"]),
            in_play=int(data.get("in_play", 0)), spent=int(data.get("spent", 0)), lost=int(data.get("lost", 0)),
            fires=int(data.get("fires", 0)), floods=int(data.get("floods", 0)),
            used_move=int(used.get(MOVE, 0)), used_gun=int(used.get(GUN, 0)), used_armor=int(used.get(ARMOR, 0)),
            activated=bool(data.get("activated", False)), done=bool(data.get("done", False)),
            status=data.get("status", ACTIVE),
        )


@dataclass(slots=True)
class Deck:
    """One side's initiative deck (Card Deck Preparation)."""

    cards: list[str]                 # the whole deck, in the data file's order
    draw: list[str]                  # face down, kept in the deck's order (unordered in play)
    discard: list[str]               # face up, in the order turned (the last is showing)
    aside: str | None = None         # the King set aside this turn

    def sort_draw(self) -> None:
        rank = {card: i for i, card in enumerate(self.cards)}
        self.draw.sort(key=rank.__getitem__)

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "draw": list(self.draw), "discard": list(self.discard), "aside": self.aside}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Deck":
        deck = cls(list(data["cards"]), list(data["draw"]), list(data["discard"]), data.get("aside"))
        deck.sort_draw()
        return deck


@dataclass(slots=True)
class State:
    """The whole game: where play stands, the decks and the ships in roster order."""

    turn: int
    phase: str
    ships: dict[str, Ship]
    decks: dict[str, Deck]
    options: dict[str, Any]
    offense: str | None = None
    prime: int = 0
    next: str | None = None
    admiral: dict[str, str] = field(default_factory=dict)   # side -> "offense" | "defense"
    torpedo_attacks: int = 0
    winner: str | None = None
    victory: str | None = None
    score: dict[str, int] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)   # this turn's geometry events (tracks, fire lines)
    marks: dict[str, str] = field(default_factory=dict)   # side -> the orders that carried play past the last stop

    @property
    def result(self) -> dict[str, Any] | None:
        """None while the battle goes on; then the winner, the kind of victory and the score."""
        if self.winner is None:
            return None
        return {"winner": self.winner, "victory": self.victory, "score": dict(self.score)}

    def side_ships(self, side: str) -> list[Ship]:
        return [ship for ship in self.ships.values() if ship.side == side]

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn, "phase": self.phase, "offense": self.offense, "prime": self.prime,
            "next": self.next, "admiral": dict(self.admiral), "torpedo_attacks": self.torpedo_attacks,
            "winner": self.winner, "victory": self.victory, "score": dict(self.score),
            "decks": {side: deck.to_json() for side, deck in self.decks.items()},
            "ships": [ship.to_json() for ship in self.ships.values()],
            "options": dict(self.options), "log": list(self.log),
        } | ({"marks": dict(self.marks)} if self.marks else {})

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "State":
        ships = [Ship.from_json(entry) for entry in data["ships"]]
        return cls(
            turn=int(data["turn"]), phase=data["phase"], ships={s.name: s for s in ships},
            decks={side: Deck.from_json(deck) for side, deck in data["decks"].items()},
            options=dict(data["options"]), offense=data.get("offense"), prime=int(data.get("prime", 0)),
            next=data.get("next"), admiral=dict(data.get("admiral", {})),
            torpedo_attacks=int(data.get("torpedo_attacks", 0)), winner=data.get("winner"),
            victory=data.get("victory"), score=dict(data.get("score", {})), log=list(data.get("log", [])),
            marks=dict(data.get("marks", {})),
        )
