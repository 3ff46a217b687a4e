"""The engine's driver: a game as a pure function of its history.

A :class:`Match` holds a game's rules (a generator), its state, the question or roll
it is waiting for, and the history of everything that answered it: each decision's
answer and each roll's dice. Replaying the same setup, options and history gives the
same state, which is how a stored campaign resumes, how undo works (replay a shorter
history) and how anyone verifies a finished game.

At a :class:`~adjudicator.engine.requests.Simultaneous` stop the match waits for several
sides (``decisions``: the questions still open); each answer is taken as it comes, and
the rules go on once the last is in. Until then the answers given sit in the match
only, not in the rules: :meth:`Match.withdraw_open_answers` takes them back (a campaign
records a stop's answers in one batch, once all are in).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

from adjudicator.engine.errors import (
    HistoryMismatch,
    IllegalAnswer,
    NotWaitingForAnswer,
    NotWaitingForDice,
    WrongRespondent,
)
from adjudicator.engine.requests import CHANCE, Decision, Draw, Event, Roll, Shuffle, Simultaneous, quick_init

RESUME_EVENT = "phase"
"""The kind of Event the rules yield at a resume point: the start of a phase (its
``data`` names the phase and the turn)."""


class Game(Protocol):
    """What the engine needs of a game."""

    name: str
    sides: tuple[str, ...]

    def new_state(self, setup: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
        """The state before the first rule runs."""

    def rules(self, state: Any, narrate: Callable[[Event], None]) -> Any:
        """A generator of Decision and Roll that plays the game on ``state``.

        The rules tell what happens through ``narrate``; they may also yield an Event
        where a driver may want to pause (the start of a phase, say)."""

    def view(self, state: Any, side: str | None) -> dict:
        """What ``side`` may see of ``state`` (None: the referee, everything)."""


@quick_init
@dataclass(frozen=True, slots=True)
class AnswerEntry:
    """One answered decision, as stored in a history."""

    side: str
    kind: str
    answer: Mapping[str, Any]

    def to_json(self) -> dict:
        return {"answer": dict(self.answer), "side": self.side, "kind": self.kind}


@quick_init
@dataclass(frozen=True, slots=True)
class DiceEntry:
    """One roll's dice, as stored in a history."""

    values: tuple[int, ...]

    def to_json(self) -> dict:
        return {"dice": list(self.values)}


@quick_init
@dataclass(frozen=True, slots=True)
class ShuffleEntry:
    """One shuffle's new order, as stored in a history."""

    order: tuple[int, ...]

    def to_json(self) -> dict:
        return {"shuffle": list(self.order)}


@quick_init
@dataclass(frozen=True, slots=True)
class DrawEntry:
    """One draw's cards (indexes in the pile the Draw named), as stored in a history."""

    indexes: tuple[int, ...]

    def to_json(self) -> dict:
        return {"draw": list(self.indexes)}


HistoryEntry = AnswerEntry | DiceEntry | ShuffleEntry | DrawEntry
ENTRY_TYPES = (AnswerEntry, DiceEntry, ShuffleEntry, DrawEntry)

#: history key of a chance entry -> (the request it answers, the entry type)
CHANCE_KEYS = {"dice": (Roll, DiceEntry), "shuffle": (Shuffle, ShuffleEntry), "draw": (Draw, DrawEntry)}


def chance_key(request: Roll | Shuffle | Draw) -> str:
    """The history key of what answers ``request``: "dice", "shuffle" or "draw"."""
    return next(key for key, (kind, _) in CHANCE_KEYS.items() if isinstance(request, kind))


def entry_from_json(data: Mapping[str, Any]) -> HistoryEntry:
    """Read a history entry written by ``to_json``."""
    for key, (_, entry_type) in CHANCE_KEYS.items():
        if key in data:
            return entry_type(tuple(int(v) for v in data[key]))
    if "answer" in data:
        return AnswerEntry(str(data["side"]), str(data["kind"]), dict(data["answer"]))
    raise HistoryMismatch(f"a history entry must hold 'dice', 'shuffle', 'draw' or 'answer': {dict(data)!r}")


@dataclass(frozen=True)
class Snapshot:
    """A match at a resume point: ``state`` (the game state's ``to_json()`` when the
    rules yielded the resume point's Event, whose ``data`` is ``at``), ``entries``
    (history entries answered before it) and ``events`` (events narrated before it).
    Plain JSON (:meth:`to_json`), so that a campaign can keep it beside its history."""

    state: Mapping[str, Any]
    entries: int
    events: int
    at: Mapping[str, Any]

    def to_json(self) -> dict:
        return {"state": self.state, "entries": self.entries, "events": self.events, "at": dict(self.at)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Snapshot":
        """Read what :meth:`to_json` wrote; HistoryMismatch when it is not a snapshot."""
        try:
            state, entries, events, at = data["state"], data["entries"], data["events"], data["at"]
        except (KeyError, TypeError):
            raise HistoryMismatch("not a match snapshot") from None
        if not (isinstance(state, Mapping) and isinstance(at, Mapping) and type(entries) is int
                and type(events) is int and entries >= 0 and events >= 0):
            raise HistoryMismatch("not a match snapshot")
        return cls(state, entries, events, at)


def can_resume(game: Any) -> bool:
    """Whether ``game``'s rules can restart from a snapshot (it has ``restore_state``)."""
    return callable(getattr(game, "restore_state", None))


class Match:
    """A game in progress, driven one answer or roll at a time.

    ``pause_on`` is an optional predicate on events: when it holds, the match stops
    *before* going on (``paused_at`` names the event) until :meth:`resume` is called.

    With ``snapshots`` (and a game that has ``restore_state``), the match takes a
    :class:`Snapshot` at every resume point it passes (``self.snapshots``, in order).
    """

    def __init__(
        self,
        game: Game,
        setup: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
        history: Iterable[HistoryEntry | Mapping[str, Any]] = (),
        pause_on: Callable[[Event], bool] | None = None,
        snapshots: bool = False,
    ) -> None:
        self._begin(game, setup, options, pause_on, snapshots, game.new_state(dict(setup or {}), dict(options or {})))
        self._run(None)
        for entry in history:
            self.apply(entry if isinstance(entry, ENTRY_TYPES) else entry_from_json(entry))

    @classmethod
    def from_snapshot(
        cls,
        game: Game,
        setup: Mapping[str, Any] | None,
        options: Mapping[str, Any] | None,
        snapshot: Snapshot,
        history: Sequence[HistoryEntry | Mapping[str, Any]],
        pause_on: Callable[[Event], bool] | None = None,
        snapshots: bool = False,
    ) -> "Match":
        """The match of ``history`` (the whole history, from the start), run from
        ``snapshot`` instead of from the start: the rules restart from the snapshot's
        state at its resume point and replay the entries after it.

        The entries before the snapshot are taken as they are (the caller knows they
        are the ones the snapshot came from) and read only if ``history`` is asked
        for (``entry_count`` and ``history_json`` do without); ``asked`` holds None
        for them, and
        ``events`` only the events from the resume point on (``events_offset`` came
        before). HistoryMismatch when the game cannot resume there or the rest of the
        history does not fit."""
        if not can_resume(game):
            raise HistoryMismatch(f"the game {getattr(game, 'name', game)!r} cannot resume from a snapshot")
        if snapshot.entries > len(history):
            raise HistoryMismatch(f"the snapshot follows {snapshot.entries} history entries; the history has "
                                  f"{len(history)}")
        match = cls.__new__(cls)
        match._begin(game, setup, options, pause_on, snapshots, game.restore_state(snapshot.state))
        match._before = history[:snapshot.entries]
        match.asked = [None] * snapshot.entries
        match.events_offset = snapshot.events
        match._run(None)
        first = match.events[0] if match.events else None
        if first is None or first.kind != RESUME_EVENT or dict(first.data) != dict(snapshot.at):
            raise HistoryMismatch(f"the rules did not resume at the snapshot's point {dict(snapshot.at)!r}")
        for entry in history[snapshot.entries:]:
            match.apply(entry if isinstance(entry, ENTRY_TYPES) else entry_from_json(entry))
        return match

    def _begin(self, game: Game, setup: Mapping[str, Any] | None, options: Mapping[str, Any] | None,
               pause_on: Callable[[Event], bool] | None, snapshots: bool, state: Any) -> None:
        self.game = game
        self.setup = dict(setup or {})
        self.options = dict(options or {})
        self.state = state
        self._before: Sequence[HistoryEntry | Mapping[str, Any]] = ()  # entries before a snapshot, not yet read
        self._entries: list[HistoryEntry] = []
        # the request each history entry answered (a question without its options, Decision.spent)
        self.asked: list[Decision | Roll | Shuffle | Draw | None] = []
        self.events: list[Event] = []
        self.events_offset = 0  # events narrated before ``events[0]`` (a match run from a snapshot)
        self.snapshots: list[Snapshot] = []
        self.pending: Decision | Simultaneous | Roll | Shuffle | Draw | None = None
        self._together: dict[str, Any] = {}  # at a Simultaneous stop: side -> its typed answer, as they came
        self.paused_at: Event | None = None
        self.finished = False
        self._pause_on = pause_on
        self._dice_entries: dict[tuple[int, ...], DiceEntry] = {}
        self._spent: dict[tuple[str, str, bool], Decision] = {}
        self._take_snapshots = snapshots and can_resume(game)
        self._rules = game.rules(self.state, self.events.append)
        self._send = self._rules.send

    @property
    def history(self) -> list[HistoryEntry]:
        """Every entry answered, from the start of the game."""
        if self._before:
            self._entries[:0] = [e if isinstance(e, ENTRY_TYPES) else entry_from_json(e) for e in self._before]
            self._before = ()
        return self._entries

    @property
    def entry_count(self) -> int:
        """How many history entries the game has had answered so far, from its start."""
        return len(self._before) + len(self._entries)

    @property
    def event_count(self) -> int:
        """How many events the game has narrated so far, from its start."""
        return self.events_offset + len(self.events)

    def events_since(self, count: int) -> list[Event] | None:
        """The events after the first ``count`` of the game; None when this match
        does not hold them (it was run from a later snapshot)."""
        if count < self.events_offset:
            return None
        return self.events[count - self.events_offset:]

    # -- driving ---------------------------------------------------------------

    def _run(self, value: Any) -> None:
        """Send ``value`` into the rules and run to the next request (or pause, or end)."""
        self.pending = None
        send = self._send
        try:
            item = send(value)
            while item.__class__ is Event:
                if self._take_snapshots and item.kind == RESUME_EVENT:
                    self.snapshots.append(Snapshot(self.state.to_json(), self.entry_count, self.event_count,
                                                   dict(item.data)))
                self.events.append(item)
                if self._pause_on is not None and self._pause_on(item):
                    self.paused_at = item
                    return
                item = send(None)
        except StopIteration:
            self.finished = True
            return
        self.pending = item

    def resume(self) -> None:
        """Go on after a pause."""
        if self.paused_at is None:
            return
        self.paused_at = None
        self._run(None)

    @property
    def decision(self) -> Decision | None:
        """The question the match waits for, if any; at a stop that asks several sides,
        the first still open (``decisions`` lists them all)."""
        pending = self.pending
        if isinstance(pending, Decision):
            return pending
        if pending.__class__ is Simultaneous:
            return next(d for d in pending.decisions if d.side not in self._together)
        return None

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """Every question the match waits for: one, or at a stop that asks several sides
        each side's still unanswered, in the order the rules gave; () when it asks none."""
        pending = self.pending
        if isinstance(pending, Decision):
            return (pending,)
        if pending.__class__ is Simultaneous:
            return tuple(d for d in pending.decisions if d.side not in self._together)
        return ()

    def decision_for(self, side: str) -> Decision | None:
        """The question the match waits for ``side`` to answer, if any."""
        return next((d for d in self.decisions if d.side == side), None)

    @property
    def answered_together(self) -> tuple[str, ...]:
        """At a stop that asks several sides: the sides that have answered so far."""
        return tuple(self._together)

    def withdraw_open_answers(self) -> int:
        """Take back the answers given so far to a stop that still waits for other sides
        (the rules have not seen them: the state is as it was when the stop was
        reached); return how many history entries went."""
        count = len(self._together)
        if count:
            del self._entries[len(self._entries) - count:]
            del self.asked[len(self.asked) - count:]
            self._together = {}
        return count

    @property
    def roll(self) -> Roll | None:
        """The roll the match waits for, if any."""
        return self.pending if isinstance(self.pending, Roll) else None

    @property
    def shuffle(self) -> Shuffle | None:
        """The shuffle the match waits for, if any."""
        return self.pending if isinstance(self.pending, Shuffle) else None

    @property
    def draw(self) -> Draw | None:
        """The card draw the match waits for, if any."""
        return self.pending if isinstance(self.pending, Draw) else None

    @property
    def chance(self) -> Roll | Shuffle | Draw | None:
        """The roll, shuffle or draw the match waits for, if any."""
        return self.pending if isinstance(self.pending, CHANCE) else None

    def answer(self, side: str, answer: Mapping[str, Any], kind: str | None = None) -> Any:
        """Answer the pending question for ``side``. Illegal answers change nothing.
        At a stop that asks several sides, the rules go on once the last side answers."""
        decision = self.pending
        together = decision.__class__ is Simultaneous
        if together:
            decision = self.decision_for(side) or self._wrong_respondent(side, kind)
        elif decision.__class__ is not Decision and not isinstance(decision, Decision):
            raise NotWaitingForAnswer(self._waiting_text())
        asked = decision.kind
        if side != decision.side or (kind is not None and kind != asked):
            raise WrongRespondent(
                f"the game asks {decision.side} for {asked!r}, "
                f"not {side} for {kind or asked!r}"
            )
        typed = decision.accept(answer)
        to_json = getattr(typed, "to_json", None)
        self._entries.append(AnswerEntry(side, asked, to_json() if to_json is not None else dict(answer)))
        key = (side, asked, decision.hidden)
        spent = self._spent.get(key)
        if spent is None:
            spent = self._spent[key] = decision.spent()
        self.asked.append(spent)
        if together:
            self._together[side] = typed
            stop = self.pending
            if len(self._together) == len(stop.decisions):
                answers = {d.side: self._together[d.side] for d in stop.decisions}
                self._together = {}
                self._run(answers)
            return typed
        self._run(typed)
        return typed

    def _wrong_respondent(self, side: str, kind: str | None) -> Decision:
        asked = ", ".join(f"{d.side} for {d.kind!r}" for d in self.decisions)
        done = f" ({side} has answered already)" if side in self._together else ""
        raise WrongRespondent(f"the game asks {asked}, not {side} for {kind or 'an answer'!r}{done}")

    def supply_dice(self, values: Sequence[int]) -> tuple[int, ...]:
        """Give the pending roll its dice."""
        roll = self.pending
        if roll.__class__ is not Roll and not isinstance(roll, Roll):
            raise NotWaitingForDice(self._waiting_text())
        dice = values if values.__class__ is tuple else tuple(values)
        sides = roll.sides
        if len(dice) != roll.count:
            raise self._wrong_dice(roll, values)
        for die in dice:
            if die.__class__ is not int or not 0 < die <= sides:
                raise self._wrong_dice(roll, values)
        entry = self._dice_entries.get(dice)
        if entry is None:  # the same dice come again and again: one entry for each throw seen
            entry = self._dice_entries[dice] = DiceEntry(dice)
        self._entries.append(entry)
        self.asked.append(roll)
        self._run(dice)
        return dice

    @staticmethod
    def _wrong_dice(roll: Roll, values: Sequence[int]) -> HistoryMismatch:
        return HistoryMismatch(f"the roll for {roll.purpose} takes {roll.count} dice of 1-{roll.sides}, "
                               f"got {list(values)}")

    def supply_shuffle(self, order: Sequence[int]) -> tuple[int, ...]:
        """Give the pending shuffle its new order (a permutation of range(size))."""
        shuffle = self.shuffle
        if shuffle is None:
            raise NotWaitingForDice(self._waiting_text())
        permutation = tuple(int(v) for v in order)
        if sorted(permutation) != list(range(shuffle.size)):
            raise HistoryMismatch(f"the shuffle for {shuffle.purpose} takes an order of 0-{shuffle.size - 1}, "
                                  f"got {list(order)}")
        self._entries.append(ShuffleEntry(permutation))
        self.asked.append(shuffle)
        self._run(permutation)
        return permutation

    def supply_draw(self, indexes: Sequence[int]) -> tuple[int, ...]:
        """Give the pending draw its cards: distinct indexes into the Draw's ``cards``."""
        draw = self.draw
        if draw is None:
            raise NotWaitingForDice(self._waiting_text())
        chosen = tuple(int(v) for v in indexes)
        if len(chosen) != draw.count or len(set(chosen)) != len(chosen) or not all(
                0 <= i < len(draw.cards) for i in chosen):
            raise HistoryMismatch(f"the draw for {draw.purpose} takes {draw.count} distinct card(s) of "
                                  f"0-{len(draw.cards) - 1}, got {list(indexes)}")
        self._entries.append(DrawEntry(chosen))
        self.asked.append(draw)
        self._run(chosen)
        return chosen

    def supply(self, values: Sequence[int]) -> tuple[int, ...]:
        """Give the pending roll, shuffle or draw its values."""
        kind = type(self.pending)
        if kind is Roll:
            return self.supply_dice(values)
        if kind is Shuffle:
            return self.supply_shuffle(values)
        if kind is Draw:
            return self.supply_draw(values)
        return self.supply_dice(values)

    def apply(self, entry: HistoryEntry) -> None:
        """Replay one history entry; a mismatch raises HistoryMismatch."""
        while self.paused_at is not None:
            self.resume()
        try:
            if isinstance(entry, DiceEntry):
                self.supply_dice(entry.values)
            elif isinstance(entry, ShuffleEntry):
                self.supply_shuffle(entry.order)
            elif isinstance(entry, DrawEntry):
                self.supply_draw(entry.indexes)
            else:
                self.answer(entry.side, entry.answer, entry.kind)
        except (IllegalAnswer, WrongRespondent, NotWaitingForAnswer, NotWaitingForDice) as err:
            raise HistoryMismatch(f"history entry {self.entry_count + 1} does not fit: {err}") from err

    def _waiting_text(self) -> str:
        if self.finished:
            return "the game is over"
        if isinstance(self.pending, CHANCE):
            return f"the game waits for dice ({self.pending.purpose})"
        if self.decisions:
            return "the game waits for " + " and ".join(f"{d.side} to answer {d.kind!r}" for d in self.decisions)
        return "the game is paused"

    def history_json(self, start: int = 0) -> list[dict]:
        """The history (from entry ``start``) as plain JSON-able data."""
        before = [entry.to_json() if isinstance(entry, ENTRY_TYPES) else dict(entry) for entry in self._before[start:]]
        return before + [entry.to_json() for entry in self._entries[max(0, start - len(self._before)):]]

    def view(self, side: str | None = None) -> dict:
        """What ``side`` may see (None: everything)."""
        return self.game.view(self.state, side)


def play_out(match: Match, dice: Callable[[Any], Sequence[int]], choose: Callable[[Decision, Any], Mapping[str, Any]],
             max_steps: int = 1_000_000) -> Match:
    """Run ``match`` to its end, rolling, shuffling and drawing with ``dice`` and
    answering with ``choose(decision, state)`` (automatic players reason on the state).
    See :func:`adjudicator.engine.driver.drive`."""
    from adjudicator.engine.driver import Source, drive

    stop = drive(match, Source(chance=dice, answer=choose), max_steps=max_steps)
    if stop == "limit":
        raise RuntimeError(f"the game did not end within {max_steps} steps")
    return match
