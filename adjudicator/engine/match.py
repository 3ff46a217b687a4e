"""The engine's driver: a game as a pure function of its history.

A :class:`Match` holds a game's rules (a generator), its state, the question or roll
it is waiting for, and the history of everything that answered it: each decision's
answer and each roll's dice. Replaying the same setup, options and history gives the
same state, which is how a stored campaign resumes, how undo works (replay a shorter
history) and how anyone verifies a finished game.
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
from adjudicator.engine.requests import Decision, Event, Roll, Shuffle


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


@dataclass(frozen=True)
class AnswerEntry:
    """One answered decision, as stored in a history."""

    side: str
    kind: str
    answer: Mapping[str, Any]

    def to_json(self) -> dict:
        return {"answer": dict(self.answer), "side": self.side, "kind": self.kind}


@dataclass(frozen=True)
class DiceEntry:
    """One roll's dice, as stored in a history."""

    values: tuple[int, ...]

    def to_json(self) -> dict:
        return {"dice": list(self.values)}


@dataclass(frozen=True)
class ShuffleEntry:
    """One shuffle's new order, as stored in a history."""

    order: tuple[int, ...]

    def to_json(self) -> dict:
        return {"shuffle": list(self.order)}


HistoryEntry = AnswerEntry | DiceEntry | ShuffleEntry


def entry_from_json(data: Mapping[str, Any]) -> HistoryEntry:
    """Read a history entry written by ``to_json``."""
    if "dice" in data:
        return DiceEntry(tuple(int(v) for v in data["dice"]))
    if "shuffle" in data:
        return ShuffleEntry(tuple(int(v) for v in data["shuffle"]))
    if "answer" in data:
        return AnswerEntry(str(data["side"]), str(data["kind"]), dict(data["answer"]))
    raise HistoryMismatch(f"a history entry must hold 'dice' or 'answer': {dict(data)!r}")


def _canonical_answer(typed: Any, given: Mapping[str, Any]) -> dict:
    to_json = getattr(typed, "to_json", None)
    return to_json() if callable(to_json) else dict(given)


class Match:
    """A game in progress, driven one answer or roll at a time.

    ``pause_on`` is an optional predicate on events: when it holds, the match stops
    *before* going on (``paused_at`` names the event) until :meth:`resume` is called.
    """

    def __init__(
        self,
        game: Game,
        setup: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
        history: Iterable[HistoryEntry | Mapping[str, Any]] = (),
        pause_on: Callable[[Event], bool] | None = None,
    ) -> None:
        self.game = game
        self.setup = dict(setup or {})
        self.options = dict(options or {})
        self.state = game.new_state(self.setup, self.options)
        self.history: list[HistoryEntry] = []
        self.events: list[Event] = []
        self.pending: Decision | Roll | Shuffle | None = None
        self.paused_at: Event | None = None
        self.finished = False
        self._pause_on = pause_on
        self._rules = game.rules(self.state, self.events.append)
        self._run(None)
        for entry in history:
            self.apply(entry if isinstance(entry, (AnswerEntry, DiceEntry, ShuffleEntry)) else entry_from_json(entry))

    # -- driving ---------------------------------------------------------------

    def _run(self, value: Any) -> None:
        """Send ``value`` into the rules and run to the next request (or pause, or end)."""
        self.pending = None
        try:
            item = self._rules.send(value)
            while isinstance(item, Event):
                self.events.append(item)
                if self._pause_on is not None and self._pause_on(item):
                    self.paused_at = item
                    return
                item = self._rules.send(None)
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
        """The question the match waits for, if any."""
        return self.pending if isinstance(self.pending, Decision) else None

    @property
    def roll(self) -> Roll | None:
        """The roll the match waits for, if any."""
        return self.pending if isinstance(self.pending, Roll) else None

    @property
    def shuffle(self) -> Shuffle | None:
        """The shuffle the match waits for, if any."""
        return self.pending if isinstance(self.pending, Shuffle) else None

    def answer(self, side: str, answer: Mapping[str, Any], kind: str | None = None) -> Any:
        """Answer the pending question for ``side``. Illegal answers change nothing."""
        decision = self.decision
        if decision is None:
            raise NotWaitingForAnswer(self._waiting_text())
        if side != decision.side or (kind is not None and kind != decision.kind):
            raise WrongRespondent(
                f"the game asks {decision.side} for {decision.kind!r}, "
                f"not {side} for {kind or decision.kind!r}"
            )
        typed = decision.accept(answer)
        self.history.append(AnswerEntry(side, decision.kind, _canonical_answer(typed, answer)))
        self._run(typed)
        return typed

    def supply_dice(self, values: Sequence[int]) -> tuple[int, ...]:
        """Give the pending roll its dice."""
        roll = self.roll
        if roll is None:
            raise NotWaitingForDice(self._waiting_text())
        dice = tuple(values)
        if len(dice) != roll.count or not all(type(d) is int and 1 <= d <= roll.sides for d in dice):
            raise HistoryMismatch(
                f"the roll for {roll.purpose} takes {roll.count} dice of 1-{roll.sides}, got {list(values)}"
            )
        self.history.append(DiceEntry(dice))
        self._run(dice)
        return dice

    def supply_shuffle(self, order: Sequence[int]) -> tuple[int, ...]:
        """Give the pending shuffle its new order (a permutation of range(size))."""
        shuffle = self.shuffle
        if shuffle is None:
            raise NotWaitingForDice(self._waiting_text())
        permutation = tuple(int(v) for v in order)
        if sorted(permutation) != list(range(shuffle.size)):
            raise HistoryMismatch(f"the shuffle for {shuffle.purpose} takes an order of 0-{shuffle.size - 1}, "
                                  f"got {list(order)}")
        self.history.append(ShuffleEntry(permutation))
        self._run(permutation)
        return permutation

    def apply(self, entry: HistoryEntry) -> None:
        """Replay one history entry; a mismatch raises HistoryMismatch."""
        while self.paused_at is not None:
            self.resume()
        try:
            if isinstance(entry, DiceEntry):
                self.supply_dice(entry.values)
            elif isinstance(entry, ShuffleEntry):
                self.supply_shuffle(entry.order)
            else:
                self.answer(entry.side, entry.answer, entry.kind)
        except (IllegalAnswer, WrongRespondent, NotWaitingForAnswer, NotWaitingForDice) as err:
            raise HistoryMismatch(f"history entry {len(self.history) + 1} does not fit: {err}") from err

    def _waiting_text(self) -> str:
        if self.finished:
            return "the game is over"
        if isinstance(self.pending, (Roll, Shuffle)):
            return f"the game waits for dice ({self.pending.purpose})"
        if isinstance(self.pending, Decision):
            return f"the game waits for {self.pending.side} to answer {self.pending.kind!r}"
        return "the game is paused"

    def history_json(self) -> list[dict]:
        """The history as plain JSON-able data."""
        return [entry.to_json() for entry in self.history]

    def view(self, side: str | None = None) -> dict:
        """What ``side`` may see (None: everything)."""
        return self.game.view(self.state, side)


DiceSource = Callable[[Roll | Shuffle], Sequence[int]]
Chooser = Callable[[Decision, Any], Mapping[str, Any]]


def play_out(match: Match, dice: DiceSource, choose: Chooser, max_steps: int = 1_000_000) -> Match:
    """Run ``match`` to its end, rolling and shuffling with ``dice`` and answering
    with ``choose``.

    ``choose(decision, state)`` returns a JSON-able answer; it is given the state so
    that automatic players can reason about the position.
    """
    for _ in range(max_steps):
        if match.paused_at is not None:
            match.resume()
        elif isinstance(match.pending, Roll):
            match.supply_dice(dice(match.pending))
        elif isinstance(match.pending, Shuffle):
            match.supply_shuffle(dice(match.pending))
        elif isinstance(match.pending, Decision):
            match.answer(match.pending.side, choose(match.pending, match.state))
        else:
            return match
    raise RuntimeError(f"the game did not end within {max_steps} steps")
