"""The table the rules play on: the state, the game data, the geometry kernel, the
options, and what rules do besides changing the state -- ask, roll, draw and narrate
(the engine's helper, :class:`adjudicator.engine.table.Table`, with Tsushima's typed
answers and its concession, R-END-2).

``ask``, ``roll`` and ``draw_card`` are generators, used with ``yield from``: they
suspend the rules until the question is answered, the dice are rolled or the card is
turned. ``say`` narrates at once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Decision, Event
from adjudicator.engine.table import Steps
from adjudicator.engine.table import Table as RulesTable
from adjudicator.games.tsushima_1905.answers import READERS, Kind
from adjudicator.games.tsushima_1905.data import GameData, ShipClass, load_data
from adjudicator.games.tsushima_1905.geometry import Geometry, Pose
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.state import ON_TABLE, Ship, State

__all__ = ["CARD_PURPOSE", "Conceded", "Steps", "Table", "geometry_of", "pose_of"]

CONCEDED = "concede"


class Conceded(Exception):
    """A side has conceded (R-END-2): raised out of the question it answered, through
    the rules, to the sequence of play, which ends the game."""

    def __init__(self, side: str) -> None:
        super().__init__(f"{side} concedes")
        self.side = side


CARD_PURPOSE = "card"


def geometry_of(data: GameData) -> Geometry:
    """The geometry kernel of ``data``: one kernel for the installed data, so that the
    rules, the automatic players and the standing orders share its caches (a move
    planned by a player is not swept again when the rules check it)."""
    if data is load_data():
        return _installed_geometry()
    return _geometry(data)


def _geometry(data: GameData) -> Geometry:
    return Geometry(data.sin_table, data.trig_scale, data.units_per_bl, data.base_width, data.table)


@lru_cache(maxsize=1)
def _installed_geometry() -> Geometry:
    return _geometry(load_data())


def pose_of(ship: Ship) -> Pose:
    return Pose(ship.x, ship.y, ship.heading)


def _reader(kind: Kind, check: Callable[[Any], Any]) -> Callable[[Mapping[str, Any]], Any]:
    """The reader of an answer to ``kind``: ``{"concede": true}`` is the side's
    concession (R-END-2); any other answer is read (:data:`READERS`), then checked."""
    read = READERS[kind]

    def parse(raw: Mapping[str, Any]) -> Any:
        if isinstance(raw, Mapping) and raw.get("concede") is True:
            return CONCEDED
        return check(read(raw))

    return parse


class Table(RulesTable):
    """One battle being fought: the state, and the data, geometry and options it is
    fought with."""

    state: State

    def __init__(self, state: State, data: GameData, geo: Geometry, options: Options,
                 narrate: Callable[[Event], None]) -> None:
        super().__init__(state, narrate)
        self.data = data
        self.geo = geo
        self.options = options

    # -- asking, rolling, telling ----------------------------------------------------

    def ask(self, side: str, kind: Kind, options: Any, prompt: str, check: Callable[[Any], Any]) -> Steps:
        """Ask ``side``; ``check`` validates the typed answer (IllegalAnswer if not).
        Any question may be answered ``{"concede": true}``: the side concedes, and
        :class:`Conceded` ends play at once (R-END-2)."""
        answer = yield from super().ask(side, kind.value, options, prompt, _reader(kind, check))
        if answer is CONCEDED:
            raise Conceded(side)
        return answer

    def ask_together(self, questions: Iterable[Decision]) -> Steps:
        """Ask each of ``questions`` (from :meth:`question`, one per side) at one stop,
        answered in any order: side -> typed answer once every side has answered. A
        concession is a possible answer here too (R-END-2): the first side of the
        stop, in the rules' order, that conceded ends play."""
        questions = tuple(questions)
        answers = yield from super().ask_together(questions)
        for question in questions:
            if answers[question.side] is CONCEDED:
                raise Conceded(question.side)
        return answers

    @staticmethod
    def question(side: str, kind: Kind, options: Any, prompt: str, check: Callable[[Any], Any]) -> Decision:
        """A question for ``side`` whose answer ``check`` validates once read (see
        :meth:`ask`): ``{"concede": true}`` is read as the side's concession."""
        return RulesTable.question(side, kind.value, options, prompt, _reader(kind, check))

    def say(self, kind: str, text: str, *values: Any, **data: Any) -> None:
        """Tell what happened (the reports' narrative). With ``values``, ``text`` is
        their template, written when a report reads it (:meth:`Event.later`), in the
        reader's language."""
        self.narrate(Event.later(kind, text, values, data) if values else Event(kind, text, data))

    def where(self) -> tuple[int, str]:
        """The (turn, phase) of a roll or a draw: the state's."""
        return self.state.turn, self.state.phase

    def roll(self, count: int, purpose: str, side: str | None, sides: int = 6, hidden: bool = False) -> Steps:
        """Roll ``count`` dice of ``sides`` faces (none asked for 0 dice)."""
        if count <= 0:
            return ()
        return (yield from super().roll(count, purpose, side, sides, hidden))

    def draw_card(self, cards: list[str], purpose: str, side: str) -> Steps:
        """Turn over one card of the face-down ``cards``, chosen at the moment of drawing."""
        (card,) = yield from self.draw(cards, 1, purpose, side)
        return card

    # -- ships -----------------------------------------------------------------------

    def cls(self, ship: Ship) -> ShipClass:
        return self.data.classes[ship.ship_class]

    def ship(self, name: str) -> Ship:
        return self.state.ships[name]

    def resolve(self, name: str, among: Iterable[Ship] | None = None) -> Ship:
        """A ship by its name, an alias or a unique prefix (case-insensitive)."""
        ships = list(self.state.ships.values()) if among is None else list(among)
        wanted = name.casefold()
        exact = [s for s in ships if s.name.casefold() == wanted]
        if exact:
            return exact[0]
        known = {info.name: info for info in self.data.ships}
        by_alias = [s for s in ships if s.name in known and wanted in
                    (a.casefold() for a in (*known[s.name].aliases, known[s.name].short))]
        if len(by_alias) == 1:
            return by_alias[0]
        prefixed = [s for s in ships if s.name.casefold().startswith(wanted)]
        if len(prefixed) == 1:
            return prefixed[0]
        names = ", ".join(s.name for s in (by_alias or prefixed)) or ", ".join(s.name for s in ships)
        raise IllegalAnswer(f"{name!r} is not a ship that fits here; the ships are: {names}")

    def obstacles_near(self, ship: Ship, reach: int) -> tuple[tuple[str, Pose], ...]:
        """Every base on the table (surrendered and abandoned included) but ``ship``'s,
        whose centre lies within ``reach`` of its centre, in the state's order."""
        x, y, limit, name = ship.x, ship.y, reach * reach, ship.name
        return tuple((s.name, Pose(s.x, s.y, s.heading)) for s in self.state.ships.values()
                     if s.status in ON_TABLE and s.name != name and (s.x - x) ** 2 + (s.y - y) ** 2 <= limit)

    def bonus(self, side: str, role: str) -> int:
        """The Admiral's +1 for ``side`` in ``role`` ("offense" or "defense") this turn."""
        if self.state.admiral.get(side) != role:
            return 0
        key = "offense_bonus" if role == "offense" else "defense_bonus"
        return int(self.data.rules["admiral"][key])
