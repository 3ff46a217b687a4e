"""The one driver loop: run a match, taking chance (dice, shuffles, card draws) and
answers from a :class:`Source`, until the game ends or the source has nothing more.

Automatic play, adjudication from orders, the conformance cases and ``verify`` all
drive a match with this loop; they differ only in where dice and answers come from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal, Mapping, Sequence

from adjudicator.collector import garbage_collection_paused
from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.match import Match
from adjudicator.engine.requests import CHANCE, Decision, Draw, Roll, Shuffle, Simultaneous

Stop = Literal["finished", "paused", "chance", "decision", "rejected", "limit"]
"""Why :func:`drive` stopped: the game ended; a pause the source keeps; no values for
the pending roll, shuffle or draw; no answer to the pending question; an illegal
answer the source does not retry; the step limit."""


def _raise(decision: Decision, answer: Mapping[str, Any], error: IllegalAnswer) -> bool:
    raise error


@dataclass
class Source:
    """Where a driven match gets what it asks for.

    ``chance(request)``: the values of a Roll, Shuffle or Draw, or None when there are
    none (the drive stops). ``answer(decision, state)``: a JSON answer, or None (the
    drive stops). ``rejected(decision, answer, error)``: an answer was illegal (the
    match is unchanged); return True to ask again, False to stop; by default the
    error is raised. ``keep_pauses``: stop at a pause instead of going on.
    """

    chance: Callable[[Roll | Shuffle | Draw], Sequence[int] | None]
    answer: Callable[[Decision, Any], Mapping[str, Any] | None]
    rejected: Callable[[Decision, Mapping[str, Any], IllegalAnswer], bool] = _raise
    keep_pauses: bool = False


def drive(match: Match, source: Source, max_steps: int | None = None) -> Stop:
    """Run ``match`` with ``source`` until it ends or must stop; say why it stopped.

    The cycle collector is held off meanwhile (:func:`garbage_collection_paused`): a
    match keeps all it tells and is told, and a game makes little cyclic garbage."""
    with garbage_collection_paused():
        return _drive(match, source, max_steps)


def _drive(match: Match, source: Source, max_steps: int | None) -> Stop:
    steps = 0
    chance, answer_for = source.chance, source.answer
    supply_dice, supply, answer = match.supply_dice, match.supply, match.answer
    while not match.finished:
        if max_steps is not None and steps >= max_steps:
            return "limit"
        steps += 1
        if match.paused_at is not None:
            if source.keep_pauses:
                return "paused"
            match.resume()
            continue
        pending = match.pending
        kind = pending.__class__
        if kind is Roll or (kind is not Decision and isinstance(pending, CHANCE)):
            values = chance(pending)
            if values is None:
                return "chance"
            (supply_dice if kind is Roll else supply)(values)  # dice, most of what a game asks, straight in
            continue
        if kind is Simultaneous:
            stop = _answer_together(match, pending, source)
            if stop is not None:
                return stop
            continue
        if not isinstance(pending, Decision):
            return "paused"
        given = answer_for(pending, match.state)
        if given is None:
            return "decision"
        try:
            answer(pending.side, given)
        except IllegalAnswer as err:
            if not source.rejected(pending, given, err):
                return "rejected"
    return "finished"


def _answer_together(match: Match, stop: Simultaneous, source: Source) -> Stop | None:
    """Ask the source for each open question of a stop that asks several sides, in
    order; None when the stop was resolved (or an answer is to be asked again), else
    why the drive stops there: a side the source has no answer for, or an illegal
    answer it does not retry (the other sides' answers are taken all the same)."""
    stopped: Stop | None = None
    for decision in match.decisions:
        given = source.answer(decision, match.state)
        if given is None:
            stopped = stopped or "decision"
            continue
        try:
            match.answer(decision.side, given)
        except IllegalAnswer as err:
            if source.rejected(decision, given, err):
                return None
            stopped = "rejected"
    return None if match.pending is not stop else stopped
