"""What rules do besides changing the state -- ask, roll, shuffle, draw and say -- as
one helper every game's rules can build on.

``ask``, ``roll``, ``shuffle`` and ``draw`` are generators, used with ``yield from``:
they suspend the rules until the engine's driver answers. A question with a single
legal answer is not asked (the rules pass that answer as ``forced``). ``say`` narrates
at once, through the ``narrate`` callback the engine gives the rules.

``ask_together`` asks several sides at one stop (both sides' orders for a turn): each
question is made with ``question``; every side answers on its own, in any order, and
the rules go on once all have answered, with every answer at once (side -> answer).

``hidden=True`` marks what a side may not see at once: a hidden decision's answer is
sealed in the public record until the game ends; a hidden roll, shuffle or draw comes
from the hidden seed stream (docs/dice.md, "Secrets").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generator, Mapping, Sequence, TypeVar

from adjudicator.engine.requests import Decision, Draw, Event, Roll, Shuffle, Simultaneous

Steps = Generator[Any, Any, Any]
T = TypeVar("T")


@dataclass
class Table:
    """The rules' helper: ``state`` (its ``turn`` and ``phase``, when it has them,
    locate every draw) and the engine's ``narrate`` callback."""

    state: Any
    narrate: Callable[[Event], None]

    def where(self) -> tuple[int, str]:
        """The (turn, phase) of a draw: the state's, or (0, "")."""
        return int(getattr(self.state, "turn", 0) or 0), str(getattr(self.state, "phase", "") or "")

    def ask(self, side: str, kind: str, options: Any, prompt: str, parse: Callable[[Mapping[str, Any]], Any],
            forced: Mapping[str, Any] | None = None, hidden: bool = False) -> Steps:
        """Ask ``side``; ``parse`` turns a JSON answer into the typed answer or raises
        IllegalAnswer. With ``forced`` (the only legal answer) nothing is asked."""
        if forced is not None:
            return parse(forced)
        answer = yield Decision(side, str(kind), options, prompt, parse, hidden)
        return answer

    @staticmethod
    def question(side: str, kind: str, options: Any, prompt: str, parse: Callable[[Mapping[str, Any]], Any],
                 hidden: bool = False) -> Decision:
        """A question for ``side``, to ask with :meth:`ask_together`."""
        return Decision(side, str(kind), options, prompt, parse, hidden)

    def ask_together(self, questions: Sequence[Decision]) -> Steps:
        """See :func:`ask_together`."""
        return ask_together(questions)

    def roll(self, count: int, purpose: str, side: str | None, sides: int = 6, hidden: bool = False) -> Steps:
        """Roll ``count`` dice of ``sides`` faces. The rule that rolls narrates what they did."""
        turn, phase = self.where()
        dice = yield Roll(count, purpose, side, turn, phase, sides, hidden)
        return tuple(dice)

    def shuffle(self, cards: Sequence[T], purpose: str, side: str | None = None, hidden: bool = False,
                names: Callable[[T], str] = str) -> Steps:
        """The cards in a new, random order (nothing is asked for fewer than two)."""
        cards = list(cards)
        if len(cards) < 2:
            return cards
        turn, phase = self.where()
        order = yield Shuffle(len(cards), purpose, side, turn, phase, hidden, tuple(names(c) for c in cards))
        return [cards[i] for i in order]

    def draw(self, pile: Sequence[T], count: int, purpose: str, side: str | None = None, hidden: bool = False,
             names: Callable[[T], str] = str) -> Steps:
        """Turn over ``count`` cards of a face-down ``pile`` (its order means nothing),
        one at a time: the cards drawn, in order. The caller takes them off the pile."""
        pile = list(pile)
        count = min(count, len(pile))
        if count == 0:
            return []
        turn, phase = self.where()
        indexes = yield Draw(tuple(names(c) for c in pile), count, purpose, side, turn, phase, hidden)
        return [pile[i] for i in indexes]

    def say(self, kind: str, text: str, visible_to: Sequence[str] | None = None, **data: Any) -> None:
        """Tell what happened (the reports' narrative); ``visible_to``: only these sides read it."""
        self.narrate(Event(kind, text, data, None if visible_to is None else tuple(visible_to)))


def ask_together(questions: Sequence[Decision]) -> Steps:
    """Ask each of ``questions`` (one per side) at one stop: the sides answer on their
    own, in any order, and this returns once every side has answered, with side ->
    typed answer. A single question is asked as an ordinary Decision (its history is
    the same as :meth:`Table.ask`'s)."""
    questions = tuple(questions)
    if len(questions) == 1:
        answer = yield questions[0]
        return {questions[0].side: answer}
    answers = yield Simultaneous(questions)
    return dict(answers)
