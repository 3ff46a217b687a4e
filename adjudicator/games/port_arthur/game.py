"""Port Arthur as an engine game: set-up, the rules generator, and each side's view."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from adjudicator.engine.requests import Event

from adjudicator.engine.errors import GameDataError
from adjudicator.games.port_arthur.data import JAPAN, RUSSIA, SIDES, Board, load_board
from adjudicator.games.port_arthur.options import InvalidOption, Options
from adjudicator.games.port_arthur.rules.sequence import play
from adjudicator.games.port_arthur.rules.table import Steps, Table
from adjudicator.games.port_arthur.state import PHASES, SETUP, Ship, State, turn_box

FLEET_HOMES = {"japan": "Japan", "port-arthur": "Port Arthur", "vladivostok": "Vladivostok"}


class PortArthur:
    """The naval game for two players, six turns (rulebook: Port Arthur)."""

    name = "port-arthur"
    title = "Port Arthur"
    sides = SIDES

    def __init__(self, board: Board | None = None) -> None:
        self.board = board or load_board()

    def data_hashes(self) -> dict[str, str]:
        """The board and counter sheet files read, with their SHA-256 (for the charter)."""
        return dict(self.board.data_hashes)

    # -- Game Set Up ---------------------------------------------------------------

    def new_state(self, setup: Mapping[str, Any], options: Mapping[str, Any]) -> State:
        """The rulebook's set-up, or a given position (``setup["position"]``)."""
        chosen = Options.from_json(options)
        track = list(chosen.track or self.board.track)
        if len(track) < self.board.army_meeples or len(set(track)) != len(track):
            raise InvalidOption(f"option 'track' needs at least {self.board.army_meeples} distinct spaces: {track}")
        if "position" in setup:
            return state_from_position(setup["position"], chosen, self.board)
        ships = {}
        for counter in self.board.counters:
            if counter.optional and not chosen.additional_ships:
                continue
            at = turn_box(counter.entry_turn) if counter.fleet == "baltic" else FLEET_HOMES[counter.fleet]
            ships[counter.name] = Ship(counter.name, counter.side, counter.firepower, counter.speed,
                                       counter.defense, at, False, counter.fleet)
        return State(
            turn=1, phase=SETUP, initiative=self.board.first_initiative, cp=0, blockade=False,
            port_arthur="port", track=track, occupied=0, landing=[], ships=ships,
            meeples=self.board.army_meeples, options=chosen.to_json(),
        )

    def rules(self, state: State, narrate: Callable[[Event], None]) -> Steps:
        table = Table(state, narrate, self.board, Options.from_json(state.options))
        return play(table)

    def restore_state(self, data: Mapping[str, Any]) -> State:
        """The state of a snapshot (its ``to_json()``): :func:`play` resumes from the
        start of its phase."""
        return State.from_json(data)

    # -- what each side sees ---------------------------------------------------------

    def view(self, state: State, side: str | None) -> dict:
        """The state as ``side`` may see it. With the fog-of-war option, a side sees
        only the top ship of each enemy squadron -- a stack at sea -- and how many ships
        are in it (rulings, "Fog of war, literally": ships in a harbour or a shipyard
        are in no squadron and stay visible to both sides)."""
        data = state.to_json()
        fog = Options.from_json(state.options).fog_of_war
        if side is None or not fog:
            return data
        visible, stacks = [], {}
        for ship in state.ships.values():
            if ship.side == side or ship.at not in self.board.zones:
                visible.append(ship.to_json())
            else:
                stacks.setdefault(ship.at, []).append(ship)
        for place, ships in stacks.items():
            top = top_of_stack(ships, state.top.get(ships[0].side, ()))
            visible.append(top.to_json() | {"stack": len(ships)})
        data["ships"] = visible
        data["fog_of_war"] = True
        return data


def top_of_stack(ships: list[Ship], preference: Sequence[str] = ()) -> Ship:
    """The ship on top of a squadron under the fog of war (rulings: the first ship of
    the owner's standing order ``top:`` that is in the squadron; else the ship with the
    highest current firepower; ties: the earlier counter on the sheet)."""
    here = {ship.name: ship for ship in ships}
    chosen = next((here[name] for name in preference if name in here), None)
    return chosen or max(ships, key=lambda s: s.current_firepower)


def state_from_position(position: Mapping[str, Any], options: Options, board: Board) -> State:
    """A state from a position in the conformance-case format."""
    try:
        phase = position.get("phase", "operations")
        if phase not in PHASES and phase != SETUP:
            raise GameDataError(f"unknown phase {phase!r}; phases: {', '.join((SETUP, *PHASES))}")
        ships = {}
        for entry in position.get("ship", []):
            ship = Ship.from_json({"fleet": "", **entry})
            if ship.side not in SIDES:
                raise GameDataError(f"ship {ship.name!r} has an unknown side {ship.side!r}")
            ships[ship.name] = ship
        state = State(
            turn=int(position.get("turn", 1)),
            phase=phase,
            initiative=position.get("initiative", JAPAN),
            cp=int(position.get("cp", 0)),
            blockade=bool(position.get("blockade", False)),
            port_arthur=position.get("port_arthur", "port"),
            track=list(position.get("track") or options.track or board.track),
            occupied=int(position.get("occupied", 0)),
            landing=list(position.get("landing", [])),
            ships=ships,
            meeples=board.army_meeples,
            options=options.to_json(),
            top={str(side): [str(name) for name in names] for side, names in position.get("top", {}).items()},
        )
    except (KeyError, TypeError, ValueError) as err:
        raise GameDataError(f"the position is incomplete or malformed: {err!r}") from err
    if state.initiative not in (JAPAN, RUSSIA):
        raise GameDataError(f"initiative must be japan or russia, not {state.initiative!r}")
    return state
