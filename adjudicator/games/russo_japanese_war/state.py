"""The state of a game: plain JSON-serialisable data.

``units``: id -> side, strength, ma, at (a hex or a box), seq (stacking order), and for
the Port Arthur Garrison ``back`` and ``flipped``; ``control``: the hexes not controlled by
Russia (3.4); ``cards``: deck (top first), discard (bottom first), hands; ``limits``:
Japanese hand limits (10.4.3); ``barred``: the 10.4.1 state; ``check_modifiers``: this
turn's Morale Check modifiers; ``combats``: every combat of the game so far (target,
differential, column, result); ``result``.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from adjudicator.engine.errors import GameDataError
from adjudicator.games.russo_japanese_war.data import JAPAN, RESHUFFLE_CARD, RUSSIA, SIDES, GameData
from adjudicator.games.russo_japanese_war.hexmap import BOXES
from adjudicator.games.russo_japanese_war.rules.sequence import ALL_PHASES


class State(dict):
    """The game's state: a plain dict (JSON as it stands) with the attributes the engine
    and the campaign read (``turn``, ``phase``, ``result``) and ``to_json()``."""

    @property
    def turn(self) -> int:
        return self["turn"]

    @property
    def phase(self) -> str:
        return self["phase"]

    @property
    def result(self) -> str | None:
        return self["result"]

    def to_json(self) -> dict:
        return json.loads(json.dumps(self))


def blank_state(data: GameData, options: Mapping[str, Any]) -> State:
    numbers = data.numbers
    return State({
        "turn": 1, "phase": "setup",
        "morale": {JAPAN: numbers.morale_start, RUSSIA: numbers.morale_start},
        "losses": {JAPAN: 0, RUSSIA: 0},
        "units": {}, "seq": 0, "control": {},
        "cards": {"deck": [], "discard": [], "hands": {JAPAN: [], RUSSIA: []}},
        "limits": {}, "barred": False, "check_modifiers": {}, "siberia_frozen": False,
        "forced_march_used": False, "combats": [], "last_combat": None, "result": None,
        "deck_shuffled": False, "options": dict(options),
    })


def new_game(data: GameData, options: Mapping[str, Any]) -> dict:
    """3.0: the counters at their set-up places, the 16 cards in a deck to shuffle."""
    state = blank_state(data, options)
    for unit in data.units:
        add_unit(state, {"id": unit.id, "side": unit.side, "strength": unit.strength, "ma": unit.ma,
                         "at": unit.setup, **({"flipped": False} if unit.back is not None else {})}, data)
    state["cards"]["deck"] = list(data.deck)
    if options.get("naval"):
        from adjudicator.games.russo_japanese_war.rules.naval import naval_state
        state["naval"] = naval_state(data)
    occupy(state)
    return state


def add_unit(state: dict, entry: Mapping[str, Any], data: GameData) -> None:
    uid = str(entry["id"])
    if entry.get("side") not in SIDES:
        raise GameDataError(f"unit {uid!r}: side must be japan or russia, not {entry.get('side')!r}")
    at = str(entry["at"])
    if at not in BOXES and not (len(at) == 4 and at.isdigit()):
        raise GameDataError(f"unit {uid!r}: at must be a hex or one of {', '.join(BOXES)}, not {at!r}")
    state["seq"] += 1
    unit = {"side": entry["side"], "strength": int(entry["strength"]), "ma": int(entry["ma"]), "at": at,
            "seq": state["seq"]}
    if "flipped" in entry:
        garrison = next((u for u in data.units if u.back is not None), None)
        unit["back"] = garrison.back if garrison else unit["strength"] + 1
        unit["flipped"] = bool(entry["flipped"])
    if entry.get("zoc_lost"):
        unit["zoc_lost"] = True
    if uid in state["units"]:
        raise GameDataError(f"two units are named {uid!r}")
    state["units"][uid] = unit


def occupy(state: dict) -> None:
    """A hex holding units is its occupant's (3.4)."""
    for unit in state["units"].values():
        if unit["at"] not in BOXES:
            if unit["side"] == JAPAN:
                state["control"][unit["at"]] = JAPAN
            else:
                state["control"].pop(unit["at"], None)


def from_position(position: Mapping[str, Any], data: GameData, options: Mapping[str, Any]) -> dict:
    """A state from a conformance case's ``[position]``."""
    try:
        state = blank_state(data, options)
        state["turn"] = int(position.get("turn", 1))
        state["phase"] = str(position.get("phase", "setup"))
        if state["phase"] not in ALL_PHASES:
            raise GameDataError(f"unknown phase {state['phase']!r}; phases: {', '.join(ALL_PHASES)}")
        state["morale"].update({k: int(v) for k, v in dict(position.get("morale", {})).items()})
        state["losses"].update({k: int(v) for k, v in dict(position.get("losses", {})).items()})
        for hex_ in dict(position.get("control", {})).get(JAPAN, []):
            state["control"][hex_] = JAPAN
        state["limits"] = {k: int(v) for k, v in dict(position.get("limits", {})).items()}
        state["barred"] = bool(position.get("port_arthur_events_barred", False))
        state["check_modifiers"] = {k: int(v) for k, v in dict(position.get("check_modifiers", {})).items()}
        for entry in position.get("unit", []):
            add_unit(state, entry, data)
        cards = dict(position.get("cards", {}))
        hands = dict(cards.get("hands", {}))
        state["cards"] = {"deck": list(cards.get("deck", [])), "discard": list(cards.get("discard", [])),
                          "hands": {side: list(hands.get(side, [])) for side in SIDES}}
        state["deck_shuffled"] = True
    except (KeyError, TypeError, ValueError) as err:
        raise GameDataError(f"the position is incomplete or malformed: {err!r}") from err
    every = state["cards"]["deck"] + state["cards"]["discard"] + sum(state["cards"]["hands"].values(), [])
    if len(set(every)) != len(every):
        raise GameDataError("a card is in two places at once")
    occupy(state)
    return state


def all_cards(state: dict) -> list[str]:
    cards = state["cards"]
    return cards["deck"] + cards["discard"] + cards["hands"][JAPAN] + cards["hands"][RUSSIA]


__all__ = ["new_game", "from_position", "all_cards", "RESHUFFLE_CARD"]
