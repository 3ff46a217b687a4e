"""The table the rules play on: the state, the board, the rulebook's bookkeeping, and
what rules do besides changing the state -- ask, roll, shuffle and narrate (the engine's
helper, :class:`adjudicator.engine.table.Table`, with the Russo-Japanese War's answers).

The state is plain JSON-serialisable data (see :mod:`..state`); a :class:`Table` wraps
it with the map, the Combat Results Table and the card texts, and keeps what every part of
the rules needs: where each unit stands, hex control (3.4), Morale (4.3), losses for the
Morale Checks (4.3.2) and sudden death (4.4).

``ask``, ``roll`` and ``shuffle`` are generators, used with ``yield from``: they suspend
the rules until the question is answered, the dice rolled or the deck shuffled.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from adjudicator.engine.requests import Event, Phrase
from adjudicator.engine.table import Steps
from adjudicator.engine.table import Table as RulesTable
from adjudicator.games.russo_japanese_war.answers import READERS, Kind
from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA, Crt, GameData, other
from adjudicator.games.russo_japanese_war.hexmap import ELIMINATED, OFF_MAP, HexMap
from adjudicator.games.russo_japanese_war.rules.zoc import zone_of_control

__all__ = ["GameOver", "Steps", "Table", "in_forced_march"]


def in_forced_march(s: Any) -> bool:
    """10.2.3: moves and attacks asked in a Card Play Phase are a forced march's (its own
    Movement or Combat Phase), answered by the ``forced move`` and ``forced attack`` orders."""
    return str(s["phase"]).endswith("card-play")


class GameOver(Exception):
    """The game has ended (sudden death, 4.4): the result is in the state."""


class Table(RulesTable):
    """One game being played: the state plus everything fixed about the game. ``s`` is
    the state (a dict; ``state`` too, as the engine's table names it)."""

    __eq__ = object.__eq__                  # one game being played: a table is itself alone
    __hash__ = object.__hash__

    def __init__(self, state: dict, data: GameData, board: HexMap, crt: Crt,
                 narrate: Callable[[Event], None]) -> None:
        super().__init__(state, narrate)
        self.s = state
        self.data = data
        self.board = board
        self.crt = crt
        self.units: dict[str, dict] = state["units"]
        self._occupants: dict[str, list[str]] | None = None
        self._zoc: dict[str, frozenset[str]] = {}
        self._limits = dict(data.numbers.stacking)
        self._by_side: dict[str, list[str]] | None = None
        self._closed: dict[str, set[str]] = {}

    # -- asking, rolling, shuffling, narrating ---------------------------------------------

    def ask(self, side: str, kind: Kind, options: Any, prompt: str, check: Callable[[dict], Any],
            forced: Mapping[str, Any] | None = None, hidden: bool = False) -> Steps:
        """Ask ``side`` a question of ``kind``: its answer is read (:data:`READERS`), then
        ``check`` says whether it is legal here (IllegalAnswer, with the rule, if not) and
        returns what the rules go on with. With ``forced`` (the only legal answer) nothing
        is asked; ``hidden``: the answer is sealed in the public record until the game
        ends (Makarov's flagship, 11.5)."""
        read = READERS[kind]

        def parse(raw: Mapping[str, Any]) -> Any:
            return check(read(raw))

        return (yield from super().ask(side, kind, options, prompt, parse, forced, hidden))

    def where(self) -> tuple[int, str]:
        """The (turn, phase) of a roll or a shuffle: the state's (a dict)."""
        return self.s["turn"], self.s["phase"]


    def say(self, kind: str, text: str, *values: Any, visible_to: tuple[str, ...] | None = None,
            **data: Any) -> None:
        """Tell what happened. With ``values``, ``text`` is a template for them, written
        only when a report reads it (:meth:`Event.later`)."""
        if values:
            self.narrate(Event.later(kind, text, values, data, visible_to))
        else:
            self.narrate(Event(kind, text, data, visible_to))

    @property
    def phasing(self) -> str:
        return self.s["phase"].split("-", 1)[0] if "-" in self.s["phase"] else JAPAN

    # -- units ---------------------------------------------------------------------------------

    def strength(self, uid: str) -> int:
        unit = self.units[uid]
        return unit["back"] if unit.get("flipped") else unit["strength"]

    def side_of(self, uid: str) -> str:
        return self.units[uid]["side"]

    def at(self, uid: str) -> str:
        return self.units[uid]["at"]

    def on_map(self, uid: str) -> bool:
        return self.units[uid]["at"] not in OFF_MAP

    def limit(self, side: str) -> int:
        return self._limits[side]

    def _stacks(self) -> dict[str, list[str]]:
        if self._occupants is None:
            units = self.units
            stacks: dict[str, list[str]] = {}
            shared = False
            for uid, unit in units.items():
                hex_ = unit["at"]
                if hex_ in OFF_MAP:
                    continue
                here = stacks.get(hex_)
                if here is None:
                    stacks[hex_] = [uid]
                else:
                    here.append(uid)
                    shared = True
            if shared:                                # the stacking order: who entered first (7.0)
                for here in stacks.values():
                    if len(here) > 1:
                        here.sort(key=lambda uid: units[uid]["seq"])
            self._occupants = stacks
        return self._occupants

    def occupants(self, hex_: str) -> list[str]:
        """The units in ``hex_`` in stacking order (a unit that enters joins last)."""
        return self._stacks().get(hex_, [])

    def side_in(self, hex_: str) -> str | None:
        stacks = self._occupants if self._occupants is not None else self._stacks()
        occupants = stacks.get(hex_)
        return self.units[occupants[0]]["side"] if occupants else None

    def friends_in(self, hex_: str, side: str, besides: str | None = None) -> int:
        stacks = self._occupants if self._occupants is not None else self._stacks()
        occupants = stacks.get(hex_)
        if not occupants or self.units[occupants[0]]["side"] != side:
            return 0
        return len(occupants) - (besides in occupants)

    def side_units(self, side: str) -> list[str]:
        """``side``'s units in the order of the set-up (do not change the list)."""
        by_side = self._by_side
        if by_side is None:                       # no unit changes side or joins after the set-up
            by_side = self._by_side = {}
            for uid, unit in self.units.items():
                by_side.setdefault(unit["side"], []).append(uid)
        return by_side.get(side, [])

    def closed_to(self, side: str) -> set[str]:
        """The hexes a unit of ``side`` coming from another hex may not enter: enemy units
        there, or ``side``'s stacking limit reached (7.0, 7.3). Kept up to date as units
        move: read it, do not change it."""
        closed = self._closed.get(side)
        if closed is None:
            units = self.units
            limit = self._limits[side]
            closed = self._closed[side] = {
                hex_ for hex_, occupants in self._stacks().items()
                if units[occupants[0]]["side"] != side or len(occupants) >= limit}
        return closed

    def units_of(self, side: str, where: str | None = None) -> list[str]:
        """``side``'s units (in the order of the set-up), or those of them at ``where``."""
        uids = self.side_units(side)
        if where is None:
            return list(uids)
        units = self.units
        return [uid for uid in uids if units[uid]["at"] == where]

    def changed(self) -> None:
        """Forget what was computed from the positions (after any unit changes)."""
        self._occupants = None
        self._zoc = {}
        self._closed = {}

    def place(self, uid: str, where: str) -> None:
        """Put a unit somewhere (a hex or a box), last in the stacking order. What was
        computed from the positions follows: the stacks, the hexes closed to each side, and
        the moving side's ZOC."""
        self.s["seq"] += 1
        unit = self.units[uid]
        left = unit["at"]
        stacks = self._occupants
        if stacks is not None:
            old = stacks.get(left)
            if old is not None and uid in old:
                old.remove(uid)
                if not old:
                    del stacks[left]
            if where not in OFF_MAP:
                stacks.setdefault(where, []).append(uid)
        unit["at"] = where
        unit["seq"] = self.s["seq"]
        self._zoc.pop(unit["side"], None)
        if self._closed:
            if stacks is None:
                self._closed = {}
            else:                                     # only the hexes left and entered change
                for side, closed in self._closed.items():
                    self._close(closed, side, left)
                    self._close(closed, side, where)

    def _close(self, closed: set[str], side: str, hex_: str) -> None:
        """Whether ``hex_`` is closed to ``side`` (see :meth:`closed_to`), after a move."""
        occupants = self._occupants.get(hex_)
        if occupants and (self.units[occupants[0]]["side"] != side or len(occupants) >= self._limits[side]):
            closed.add(hex_)
        else:
            closed.discard(hex_)

    def eliminate(self, uid: str, why: str) -> None:
        """Into the Eliminated Units box (9.5); a loss for this turn's Morale Check (4.3.2, A7)."""
        side = self.side_of(uid)
        self.place(uid, ELIMINATED)
        self.units[uid].pop("zoc_lost", None)
        self.s["losses"][side] += 1
        self.say("eliminated", "{} {} is eliminated ({}).", side.capitalize(), uid, why, unit=uid, side=side)

    # -- zones of control (6.0) ----------------------------------------------------------

    def zoc(self, side: str) -> frozenset[str]:
        """Every hex into which a unit of ``side`` exerts its ZOC (6.0, 6.4)."""
        cached = self._zoc.get(side)
        if cached is None:
            cached = self._zoc[side] = zone_of_control(self, side)
        return cached

    def enemy_zone(self, side: str) -> frozenset[str]:
        """The hexes in a zone of control of ``side``'s enemy (its EZOC, 6.0)."""
        enemy = RUSSIA if side == JAPAN else JAPAN
        zone = self._zoc.get(enemy)
        return zone if zone is not None else self.zoc(enemy)

    def in_ezoc(self, hex_: str, side: str) -> bool:
        """Is ``hex_`` in a zone of control of ``side``'s enemy?"""
        return hex_ in self.enemy_zone(side)

    # -- control, Morale, sudden death (3.4, 4.3, 4.4) -------------------------------------

    def controller(self, hex_: str) -> str:
        """3.4: all hexes start Russian; a unit placed in or passing through takes it."""
        return self.s["control"].get(hex_, RUSSIA)

    def enter(self, uid: str, hex_: str) -> None:
        """A unit enters ``hex_`` (any entry, A3/A38): control, key locations, sudden death."""
        side = self.side_of(uid)
        if self.controller(hex_) != side:
            loser = self.controller(hex_)
            if side == RUSSIA:
                self.s["control"].pop(hex_, None)
            else:
                self.s["control"][hex_] = side
            if hex_ in self.board.key_locations:
                name = self.board.key_locations[hex_]
                self.say("control", "{} takes {} ({}).", side.capitalize(), name, hex_, hex=hex_, side=side)
                self.add_morale(loser, -1, Phrase("{} lost (4.3.1)", name))
            if hex_ == self.board.port_arthur() and side == JAPAN and not self.s["barred"]:
                self.s["barred"] = True
                if self.s.get("naval"):
                    from adjudicator.games.russo_japanese_war.rules.naval import port_arthur_falls
                    port_arthur_falls(self)
                self.say("barred", "Port Arthur is Japanese: the Russian events #01 and #06 can no longer "
                         "be played (10.4.1).")
        if self.board.supply.get(other(side)) == hex_:
            self.s["result"] = side
            self.say("sudden-death", "{0} {1} enters the enemy supply source {2}: {0} wins (4.4).", side.capitalize(),
                     uid, hex_, winner=side)
            raise GameOver(side)

    def add_morale(self, side: str, delta: int, why: str) -> None:
        """Morale stays within the track, 0..6 (4.3.3, A6)."""
        numbers = self.data.numbers
        before = self.s["morale"][side]
        after = max(numbers.morale_min, min(numbers.morale_max, before + delta))
        self.s["morale"][side] = after
        self.say("morale", "{} Morale {} -> {} ({}).", side.capitalize(), before, after, why, side=side, morale=after)

    # -- cards ----------------------------------------------------------------------------------

    @property
    def cards(self) -> dict:
        return self.s["cards"]

    def hand(self, side: str) -> list[str]:
        return self.s["cards"]["hands"][side]

    def discard(self, side: str, card: str, use: str) -> None:
        """A used card goes at once face up on the discard pile (10.0)."""
        self.hand(side).remove(card)
        self.cards["discard"].append(card)
        self.say("card", "{} uses {} for {}.", side.capitalize(), self.data.card_label(card, side), use,
                 side=side, card=card, use=use)

    def take_top_discard(self, side: str, card: str) -> None:
        """#13 Gunshin: the card on top of the discard pile when it is played goes to the
        hand, then Gunshin goes on the pile (A59)."""
        top = self.cards["discard"].pop()
        self.hand(side).append(top)
        self.discard(side, card, Phrase("an event: takes {} from the discard pile", self.data.card_label(top)))
