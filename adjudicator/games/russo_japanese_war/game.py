"""Russo-Japanese War 1904-1905 as an engine game: set-up, the rules, each side's view."""

from __future__ import annotations

import json
import weakref
from typing import Any, Callable, Mapping

from adjudicator.engine.requests import Event
from adjudicator.games.russo_japanese_war.data import RUSSIA, SIDES, GameData, default_data, other
from adjudicator.games.russo_japanese_war.hexmap import HexMap, fixture_map
from adjudicator.games.russo_japanese_war.options import Options
from adjudicator.games.russo_japanese_war.rules.sequence import play
from adjudicator.games.russo_japanese_war.rules.table import Table
from adjudicator.games.russo_japanese_war.state import State, from_position, new_game


class RussoJapaneseWar:
    """The land game for two players, twelve turns (rulebook: Russo-Japanese War 1904-1905)."""

    name = "russo-japanese-war"
    title = "Russo-Japanese War 1904-1905"
    sides = SIDES

    def __init__(self, data: GameData | None = None) -> None:
        self.data = data or default_data()
        # the table the rules are playing on, by the id of its state (while it lives)
        self._playing: weakref.WeakValueDictionary[int, Table] = weakref.WeakValueDictionary()

    def new_state(self, setup: Mapping[str, Any], options: Mapping[str, Any]) -> dict:
        """The rulebook's set-up (3.0), or a given position (``setup["position"]``, the
        conformance-case format, with its own map and CRT columns)."""
        Options.from_json(options)
        if options.get("naval") and "position" in setup:
            from adjudicator.engine.errors import GameDataError
            raise GameDataError("the advanced naval rules (11.0) start from the rulebook's set-up, not a position")
        if "position" in setup:
            position = setup["position"]
            state = from_position(position, self.data, options)
            if "map" in position:
                state["board"] = dict(position["map"])
            crt = position.get("crt")
            if crt:
                state["crt"] = {str(k): list(v) for k, v in dict(crt).items()}
            return state
        return new_game(self.data, options)

    def data_hashes(self) -> dict[str, str]:
        """Each data file with its SHA-256."""
        return dict(self.data.hashes)

    def board(self, state: Mapping[str, Any]) -> HexMap:
        spec = state.get("board")
        return self.data.board if spec is None else _fixture(spec)

    def table(self, state: dict, narrate: Callable[[Event], None] | None = None) -> Table:
        """The table of ``state``: to read a game (players, orders, reports), the one the
        rules are playing on when they are (what it knows of the positions -- stacks, zones
        of control -- is kept up to date move by move, not worked out again for every
        question); with ``narrate``, a new one."""
        if narrate is None:
            playing = self._playing.get(id(state))
            if playing is not None and playing.s is state:
                return playing
            narrate = _silent
        crt = self.data.crt.with_columns(state["crt"]) if state.get("crt") else self.data.crt
        return Table(state, self.data, self.board(state), crt, narrate)

    def rules(self, state: dict, narrate: Callable[[Event], None]):
        table = self.table(state, narrate)
        self._playing[id(state)] = table
        return play(table)

    def restore_state(self, data: Mapping[str, Any]) -> State:
        """The state of a snapshot (its ``to_json()``), a copy: :func:`play` resumes
        from the start of its phase."""
        return State(json.loads(json.dumps(data)))

    def view(self, state: Mapping[str, Any], side: str | None) -> dict:
        """What ``side`` sees: everything on the table, its own hand, the opponent's hand
        size, the top of the discard pile and the deck's size (10.0)."""
        data = {key: value for key, value in state.items() if key not in ("cards", "naval")}
        if "naval" in state:
            data["naval"] = naval_view(state, side)
        cards = state["cards"]
        public = {"deck_count": len(cards["deck"]), "discard_count": len(cards["discard"]),
                  "discard_top": cards["discard"][-1] if cards["discard"] else None,
                  "hand_sizes": {s: len(cards["hands"][s]) for s in SIDES}}
        if side is None:
            data["cards"] = {**{k: v for k, v in cards.items() if k != "shuffling"}, **public}
        else:
            data["cards"] = {**public, "hand": list(cards["hands"][side]), "side": side,
                             "opponent_hand_size": len(cards["hands"][other(side)])}
        return data


def naval_view(state: Mapping[str, Any], side: str | None) -> dict:
    """11.5: Makarov's flagship is Russia's secret until sunk or the end of the game."""
    naval = dict(state["naval"])
    if not (side == RUSSIA or naval["revealed"] or state["result"]):
        naval["flagship"] = None
    return naval


def _silent(event: Event) -> None:
    """A reader's table tells nothing."""


_FIXTURES: dict[str, HexMap] = {}


def _fixture(spec: Mapping[str, Any]) -> HexMap:
    import json
    key = json.dumps(spec, sort_keys=True)
    if key not in _FIXTURES:
        _FIXTURES[key] = fixture_map(spec)
    return _FIXTURES[key]
