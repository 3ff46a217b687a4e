"""Tsushima 1905 as an engine game: set-up, the rules generator, and each side's view."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Callable, Mapping

from adjudicator.engine.errors import GameDataError
from adjudicator.engine.requests import Event
from adjudicator.games.tsushima_1905.data import GameData, bl_to_units, load_data
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.rules.sequence import play
from adjudicator.games.tsushima_1905.state import (
    ACTION, DAMAGE, INITIATIVE, RELOAD, REPAIR, SIDES, STATUSES, TORPEDO, Deck, Ship, State,
)
from adjudicator.games.tsushima_1905.rules.table import Steps, Table, geometry_of

START_PHASES = (INITIATIVE, ACTION, TORPEDO, REPAIR, DAMAGE, RELOAD)


class Tsushima1905:
    """Battle of Tsushima Strait (1905), "Monte Carlo on the High Seas"."""

    name = "tsushima-1905"
    title = "Tsushima 1905"
    sides = SIDES

    def __init__(self, data: GameData | None = None) -> None:
        self.data = data or load_data()
        self.geo = geometry_of(self.data)

    # -- Setting Up -------------------------------------------------------------------

    def new_state(self, setup: Mapping[str, Any], options: Mapping[str, Any]) -> State:
        """The historical set-up (X-SETUP), or a given position (``setup["position"]``)."""
        chosen = Options.from_json(options)
        if setup.get("continuous"):
            chosen = replace(chosen, cadence="continuous")
        if "position" in setup:
            return state_from_position(setup["position"], chosen, self.data)
        ships = {}
        for placement in self.data.placements:
            info = self.data.ship(placement.ship)
            cp = self.data.classes[info.ship_class].cp
            ships[info.name] = Ship(info.name, info.side, info.ship_class, placement.x, placement.y,
                                    placement.heading, cp, cp)
        ordered = {info.name: ships[info.name] for info in self.data.ships if info.name in ships}
        return State(turn=1, phase=INITIATIVE, ships=ordered, decks=fresh_decks(self.data, chosen),
                     options=chosen.to_json())

    def rules(self, state: State, narrate: Callable[[Event], None]) -> Steps:
        table = Table(state, self.data, self.geo, Options.from_json(state.options), narrate)
        return play(table)

    def restore_state(self, data: Mapping[str, Any]) -> State:
        """The state of a snapshot (its ``to_json()``), a copy: :func:`play` resumes
        from the start of its phase."""
        return State.from_json(json.loads(json.dumps(data)))

    def data_hashes(self) -> dict[str, str]:
        """Each data file read (games/tsushima-1905/*.toml) with its SHA-256."""
        return dict(self.data.hashes)

    # -- what each side sees ----------------------------------------------------------

    def view(self, state: State, side: str | None) -> dict:
        """Everything is public (rulings §5, item 10): the draw piles are unordered sets."""
        return state.to_json()


def fresh_decks(data: GameData, options: Options) -> dict[str, Deck]:
    source = data.decks if options.deck_suits == "both" else data.named_suit_decks
    return {side: Deck(list(source[side]), list(source[side]), []) for side in SIDES}


def _deck_from(entry: Mapping[str, Any] | None, cards: list[str], side: str) -> Deck:
    if entry is None:
        return Deck(list(cards), list(cards), [])
    draw, discard = list(entry.get("draw", [])), list(entry.get("discard", []))
    unknown = sorted(set(draw + discard) - set(cards))
    if unknown or len(set(draw) | set(discard)) != len(draw) + len(discard):
        raise GameDataError(f"the {side} deck lists unknown or repeated cards: {unknown or draw + discard}")
    deck = Deck(list(cards), draw, discard, entry.get("aside"))
    deck.sort_draw()
    return deck


def _ship_from(entry: Mapping[str, Any], data: GameData) -> Ship:
    ship_class = entry["class"]
    if ship_class not in data.classes:
        raise GameDataError(f"ship {entry['name']!r}: unknown class {ship_class!r}")
    start = data.classes[ship_class].cp
    cp, spent = int(entry.get("cp", start)), int(entry.get("spent", 0))
    if not 0 <= spent <= cp <= start:
        raise GameDataError(f"ship {entry['name']!r}: needs 0 <= spent <= cp <= {start}, got cp {cp}, spent {spent}")
    status = entry.get("status", "active")
    if status not in STATUSES or entry["side"] not in SIDES:
        raise GameDataError(f"ship {entry['name']!r}: unknown status {status!r} or side {entry['side']!r}")
    used = entry.get("used", {})
    x, y = (bl_to_units(v, data.units_per_bl) for v in entry["at"])
    return Ship(name=entry["name"], side=entry["side"], ship_class=ship_class, x=x, y=y,
                heading=int(entry.get("heading", 0)) % 360, start_cp=start, bank=cp - spent, spent=spent,
                lost=start - cp, fires=int(entry.get("fires", 0)), floods=int(entry.get("floods", 0)),
                used_move=int(used.get("move", 0)), used_gun=int(used.get("gun", 0)),
                used_armor=int(used.get("armor", 0)), activated=bool(entry.get("activated", False)),
                status=status)


def state_from_position(position: Mapping[str, Any], options: Options, data: GameData) -> State:
    """A state from a position in the conformance-case format (../shared/cases/README.md)."""
    try:
        phase = position.get("phase", INITIATIVE)
        if phase not in START_PHASES:
            raise GameDataError(f"unknown phase {phase!r}; phases: {', '.join(START_PHASES)}")
        roster = {info.name: i for i, info in enumerate(data.ships)}
        ships = sorted((_ship_from(entry, data) for entry in position.get("ship", [])),
                       key=lambda s: roster.get(s.name, len(roster)))
        decks_given = position.get("deck", {})
        source = fresh_decks(data, options)
        decks = {side: _deck_from(decks_given.get(side), source[side].cards, side) for side in SIDES}
        offense = position.get("offense")
        state = State(turn=int(position.get("turn", 1)), phase=phase, ships={s.name: s for s in ships},
                      decks=decks, options=options.to_json(), offense=offense,
                      prime=int(position.get("prime", 0)), next=position.get("next", offense),
                      admiral=dict(position.get("admiral", {})),
                      torpedo_attacks=int(position.get("torpedo_attacks", 0)))
    except (KeyError, TypeError, ValueError) as err:
        raise GameDataError(f"the position is incomplete or malformed: {err!r}") from err
    if phase != INITIATIVE and state.offense not in SIDES:
        raise GameDataError(f"a position in the {phase} phase needs offense = japan or russia")
    return state
