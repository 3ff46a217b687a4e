"""Running a conformance case (format: tests/cases/FORMAT.md), for any game.

The game loads the position (``conformance.setup(case)``) and checks the
expectations (``conformance.compare(match, expect, rejected)``); this module does
the rest, the same for every game: start at the position's phase, take each die from
``dice``, each shuffle from ``shuffles``, each card turned over from ``cards`` and
each answer from ``answers``, in order; stop at ``until``, at the first request the
lists have nothing left for, or at the end of the game; then require every list to
be used up.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from adjudicator.engine.driver import Source, drive
from adjudicator.engine.errors import EngineError, IllegalAnswer
from adjudicator.engine.match import Match
from adjudicator.engine.requests import Decision, Draw, Event, Roll, Shuffle


class CaseProblem(EngineError):
    """The case cannot be run as written (an answer to another question, a shuffle
    that is not an order of the cards shuffled, a card not in the pile)."""


def run_case(case: Mapping[str, Any], game: Any, conformance: Any) -> list[str]:
    """Run one case of ``game``; return what differed (empty when the case passes)."""
    try:
        match, supplies = play_case(case, game, conformance)
    except CaseProblem as err:
        return [str(err)]
    return supplies.leftovers() or list(conformance.compare(match, case.get("expect", {}), supplies.rejections))


def play_case(case: Mapping[str, Any], game: Any, conformance: Any) -> tuple[Match, "CaseSupplies"]:
    """Play one case of ``game`` as :func:`run_case` does, without comparing: the match
    as the case leaves it (paused at ``until`` when the case names it) and the lists it
    was supplied from. Raises :class:`CaseProblem` when the case cannot be run as written."""
    until = case.get("until")
    match = Match(game, conformance.setup(case), case.get("options", {}),
                  pause_on=stop_at_phase(until) if until else None)
    supplies = CaseSupplies(case, getattr(conformance, "answer_problem", None))
    drive(match, Source(chance=supplies.chance, answer=supplies.answer, rejected=supplies.rejected,
                        keep_pauses=True))
    return match, supplies


def stop_at_phase(until: str) -> Callable[[Event], bool]:
    """Pause at the start of phase ``until`` (an Event of kind "phase" whose data names
    it), but not at the first phase event: the case's own starting phase."""
    seen = {"first": False}

    def reached(event: Event) -> bool:
        if event.kind != "phase":
            return False
        if not seen["first"]:
            seen["first"] = True
            return False
        return event.data.get("phase") == until

    return reached


class CaseSupplies:
    """The case's lists, consumed in order as the rules ask."""

    def __init__(self, case: Mapping[str, Any],
                 answer_problem: Callable[[Decision, Mapping[str, Any]], str | None] | None = None) -> None:
        self.answer_problem = answer_problem
        self.dice = [int(d) for d in case.get("dice", [])]
        self.shuffles = [list(s) for s in case.get("shuffles", [])]
        self.cards = [str(c) for c in case.get("cards", [])]
        self.answers = [dict(a) for a in case.get("answers", [])]
        self.rejections = 0

    def chance(self, request: Roll | Shuffle | Draw) -> Sequence[int] | None:
        if isinstance(request, Shuffle):
            return self._shuffle(request)
        if isinstance(request, Draw):
            return self._draw(request)
        if len(self.dice) < request.count:
            return None
        taken, self.dice = self.dice[: request.count], self.dice[request.count:]
        return taken

    def _shuffle(self, request: Shuffle) -> Sequence[int] | None:
        if not self.shuffles:
            return None
        given = self.shuffles.pop(0)
        if request.cards and all(isinstance(c, str) for c in given):
            if sorted(given) != sorted(request.cards):
                raise CaseProblem(f"the shuffle for {request.purpose} is of {sorted(request.cards)}; "
                                  f"the case gives {given}")
            return _order_of(list(request.cards), given)
        if sorted(given) != list(range(request.size)):
            raise CaseProblem(f"the shuffle for {request.purpose} needs an order of {request.size} cards; "
                              f"the case gives {given}")
        return [int(i) for i in given]

    def _draw(self, request: Draw) -> Sequence[int] | None:
        chosen: list[int] = []
        pile = list(request.cards)
        for _ in range(request.count):
            if not self.cards:
                return None if not chosen else self._short(request, chosen)
            entry = self.cards.pop(0)
            side, _, card = entry.partition(" ") if " " in entry else ("", "", entry)
            if side and request.side is not None and side != request.side:
                raise CaseProblem(f"the rules draw for {request.side} ({request.purpose}); the case turns over "
                                  f"{entry!r}")
            free = [i for i, name in enumerate(pile) if name == card and i not in chosen]
            if not free:
                raise CaseProblem(f"{entry!r} is not in the pile drawn from ({request.purpose}): "
                                  f"{', '.join(pile) or 'empty'}")
            chosen.append(free[0])
        return chosen

    def _short(self, request: Draw, chosen: list[int]) -> None:
        raise CaseProblem(f"the rules draw {request.count} card(s) for {request.purpose}; "
                          f"the case's cards run out after {len(chosen)}")

    def answer(self, decision: Decision, state: Any) -> Mapping[str, Any] | None:
        if not self.answers:
            return None
        answer = self.answers.pop(0)
        ask, side = answer.pop("ask", None), answer.pop("side", None)
        if (ask, side) != (decision.kind, decision.side):
            raise CaseProblem(f"the rules asked {decision.side} for {decision.kind!r}, "
                              f"the case answers {side} for {ask!r}")
        problem = None if self.answer_problem is None else self.answer_problem(decision, answer)
        if problem:
            raise CaseProblem(f"the rules asked {decision.side} for {decision.kind!r}: {problem}")
        return answer

    def rejected(self, decision: Decision, answer: Mapping[str, Any], error: IllegalAnswer) -> bool:
        self.rejections += 1
        return True

    def leftovers(self) -> list[str]:
        problems = []
        if self.dice:
            problems.append(f"{len(self.dice)} die/dice left unused: {self.dice}")
        if self.shuffles:
            problems.append(f"{len(self.shuffles)} shuffle(s) left unused, the first: {self.shuffles[0]}")
        if self.cards:
            problems.append(f"{len(self.cards)} card(s) left unused: {self.cards}")
        if self.answers:
            problems.append(f"{len(self.answers)} answer(s) left unused, the first: {self.answers[0]}")
        return problems


def _order_of(cards: list[str], new_order: list[str]) -> list[int]:
    """The permutation that puts ``cards`` in ``new_order`` (equal names in turn)."""
    used: set[int] = set()
    order = []
    for name in new_order:
        index = next(i for i, card in enumerate(cards) if card == name and i not in used)
        used.add(index)
        order.append(index)
    return order
