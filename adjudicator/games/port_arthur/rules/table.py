"""The table the rules play on: the state, the board, the options, and what rules do
besides changing the state -- ask, roll and narrate (the engine's helper,
:class:`adjudicator.engine.table.Table`, with Port Arthur's typed answers and its fog
of war).

``ask`` is a generator, used with ``yield from``: it suspends the rules until the
question is answered; a question with a single legal answer is not asked (the rules
pass that answer as ``forced``). ``dice`` is the roll the rules yield (``(die,) =
yield table.dice(1, ...)``): they go on with the dice. ``say`` narrates at once,
through the ``narrate`` callback the engine gives the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Event, Roll
from adjudicator.engine.table import Steps
from adjudicator.engine.table import Table as RulesTable
from adjudicator.games.port_arthur.answers import READERS, Kind
from adjudicator.games.port_arthur.data import Board, other
from adjudicator.games.port_arthur.options import Options
from adjudicator.games.port_arthur.state import Ship, State


@dataclass
class Table(RulesTable):
    state: State
    narrate: Callable[[Event], None]
    board: Board
    options: Options
    known: dict = field(default_factory=dict, repr=False, compare=False)
    """Answers worked out once per game and asked again (a sortie's destinations):
    keyed by everything they depend on."""

    # -- asking ----------------------------------------------------------------

    def ask(
        self,
        side: str,
        kind: Kind,
        options: Any,
        prompt: str,
        check: Callable[[Any], Any],
        forced: Mapping[str, Any] | None = None,
        hidden: bool = False,
    ) -> Steps:
        """Ask ``side`` a question; ``check`` validates the typed answer and returns it
        (possibly with names made canonical), raising IllegalAnswer otherwise.

        With ``forced`` (the only legal answer) nothing is asked; ``hidden``: the
        answer is sealed in the public record until the game ends."""
        read = READERS[kind]

        def parse(raw: Mapping[str, Any]) -> Any:
            return check(read(raw))

        return (yield from RulesTable.ask(self, side, KIND_NAMES[kind], options, prompt, parse, forced, hidden))

    def dice(self, count: int, purpose: str, side: str | None, sides: int = 6, hidden: bool = False) -> Roll:
        """The Roll of ``count`` dice of ``sides`` faces, for the rules to yield: they
        receive the dice, a tuple (``(die,) = yield table.dice(1, "roll-off", JAPAN)``).
        The same Roll serves whenever nothing in it differs: a game rolls hundreds of times."""
        key = (count, purpose, side, self.state.turn, self.state.phase, sides, hidden)
        request = self.known.get(key)
        if request is None:
            request = self.known[key] = Roll(*key)
        return request

    def where(self) -> tuple[int, str]:
        """The (turn, phase) of a draw."""
        return self.state.turn, self.state.phase

    def say(self, kind: str, text: str, *values: Any, owner: str | None = None, seen_by_enemy: str | None = None,
            **data: Any) -> None:
        """Tell what happened (the narrative of the reports). With ``values``, ``text``
        (and ``seen_by_enemy``) are templates for them, written only when a report reads
        them (:meth:`Event.later`).

        Under the fog of war, an event about ``owner``'s ships is told in full to
        ``owner`` only; the enemy is told ``seen_by_enemy`` instead (rules-notes,
        Fog of war)."""
        if seen_by_enemy is None or owner is None or not self.options.fog_of_war:
            self.narrate(_later(kind, text, values, data) if values else Event(kind, text, data))
            return
        event = _later if values else _told
        self.narrate(event(kind, text, values, data, (owner,)))
        self.narrate(event(kind, seen_by_enemy, values, {"side": owner}, (other(owner),)))

    def tell(self, side: str, kind: str, text: str, **data: Any) -> None:
        """Tell ``side`` alone (its own orders' workings: which step of its plan was used)."""
        self.narrate(Event(kind, text, {"side": side, **data}, visible_to=(side,)))

    # -- names -----------------------------------------------------------------

    def own_ship(self, name: str, side: str) -> Ship:
        ship = self.state.ship(name)
        if ship is None or ship.side != side or ship.sunk:
            raise IllegalAnswer(f"{name!r} is not a {side.capitalize()} ship in play")
        return ship

    def zone(self, text: str) -> str:
        zone = self.board.zone_named(text)
        if zone is None:
            raise IllegalAnswer(f"{text!r} is not a maritime zone (zones: {', '.join(self.board.zones)})")
        return zone

    def place(self, text: str) -> str:
        """A zone or a port, by name."""
        return self.board.zone_named(text) or self.board.port_named(text) or self.zone(text)

    def ask_ships(self, side: str, kind: Kind, count: int, names: list[str], prompt: str, where: str) -> Steps:
        """Ask ``side`` to choose ``count`` of ``names`` (not asked when all must be chosen)."""
        forced = {"ships": names} if count == len(names) else None
        answer = yield from self.ask(
            side, kind, {"count": count, "ships": names}, prompt,
            lambda a: type(a)(self.pick_ships(a.ships, names, count, where)), forced=forced,
        )
        return answer.ships

    def pick_ships(self, names: tuple[str, ...], allowed: list[str], count: int, where: str) -> tuple[str, ...]:
        """``count`` different ships, each one of ``allowed`` (described by ``where``)."""
        chosen: list[str] = []
        for text in names:
            ship = self.state.ship(text)
            if ship is None or ship.name not in allowed:
                raise IllegalAnswer(f"{text!r} is not one of {where} ({', '.join(allowed)})")
            if ship.name in chosen:
                raise IllegalAnswer(f"{ship.name} is named twice")
            chosen.append(ship.name)
        if len(chosen) != count:
            raise IllegalAnswer(f"name {count} ship(s), not {len(chosen)}")
        return tuple(chosen)

    # -- the CP marker ---------------------------------------------------------

    def move_cp_marker(self, japan: int, russia: int, why: str) -> None:
        """Move the CP marker by the difference, capped at the track's ends
        (rulebook, Victory Conditions: "The maximum number of CPs that can be reached is 5")."""
        net = japan - russia
        if net == 0 and japan == 0:
            return
        limit = self.board.cp_limit
        before = self.state.cp
        self.state.cp = max(-limit, min(limit, before + net))
        self.narrate(Event.later(
            "cp", "{}: Japan {}, Russia {}; CP marker {} -> {}",
            (why, japan, russia, marker_text(before), marker_text(self.state.cp)),
            {"japan": japan, "russia": russia, "before": before, "after": self.state.cp},
        ))


KIND_NAMES = {kind: kind.value for kind in Kind}
"""Each decision kind's name (an enum's ``value`` is slow to read, and rules ask often)."""


_later = Event.later


def _told(kind: str, text: str, values: tuple, data: dict, visible_to: tuple[str, ...] | None) -> Event:
    return Event(kind, text, data, visible_to)


def marker_text(cp: int) -> str:
    if cp > 0:
        return f"Japan {cp}"
    if cp < 0:
        return f"Russia {-cp}"
    return "centre"
