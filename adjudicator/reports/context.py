"""What goes into a player's report: built from the campaign's log, the replayed
match and the step just adjudicated. Only what this side may see goes in.

The generic frame (``templates/report.*.j2``) shows the header, what happened, what
is asked, the deadline and the fair dice; the game's partials
(``templates/<game>/situation.*.j2``, and optionally ``extras.*.j2`` after what is
asked and ``notes.*.j2`` at the end) draw ``game``: what the game's report module
gives (:meth:`ReportPartial.context`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping, Sequence

from adjudicator.engine import Event, Match
from adjudicator.fairdice import canonical_json, referee_fingerprint
from adjudicator.i18n import DEFAULT_LANGUAGE, say_in, side_title, words


def visible(events: Sequence[Event], side: str | None) -> list[Event]:
    """The events ``side`` may read (None: the referee reads all)."""
    return [e for e in events if side is None or e.visible_to is None or side in e.visible_to]


def phase_in_words(game_part: Mapping[str, Any], phase: Any) -> str:
    """The phase as players read it: the game's ``phase_title`` when its report part
    gives one, else the phase's id with its dashes as spaces."""
    title = game_part.get("phase_title") if isinstance(game_part, Mapping) else None
    return str(title or str(phase).replace("-", " "))


def hint_in_words(report: Any, decision: Any, translations: Any) -> list[str]:
    """The question's template (its orders skeleton) in the reader's language: the
    game's ``answer_hint_in(decision, translations)`` where its report module has one
    (the comments translated, the orders lines as they are), else its ``answer_hint``."""
    written = getattr(report, "answer_hint_in", None)
    return written(decision, translations) if written is not None else report.answer_hint(decision)


def partials(game: str) -> dict[str, str]:
    """The game's report partials (the frame includes each, by its part's name)."""
    return {part: f"{game}/{part}" for part in ("situation", "extras", "notes")}


def report_context(
    *,
    log: Any,
    match: Match,
    events: Sequence[Event],
    side: str,
    player: str,
    deadline: datetime,
    game_support: Any,  # the game's plug-in (adjudicator.engine.contract.GamePlugin)
    defaults: Sequence[str] = (),
    default_notes: Sequence[str] = (),
    refused: Sequence[str] = (),
    batch: Any = None,
    openings: Sequence[Mapping[str, Any]] = (),
    not_carried_out: Sequence[str] = (),
    earlier_events: int = 0,
    answered_on_file: bool = False,
    language: str = DEFAULT_LANGUAGE,
) -> dict[str, Any]:
    """The template context of ``side``'s report (``not_carried_out``: this side's
    notes on the orders it sent that were not carried out as written), in the
    player's ``language``. The first ``earlier_events`` of ``events`` are of steps
    before this one (a digest's): the report tells the defaults of this step after them
    and before the events of this step, which the defaults brought about.
    ``answered_on_file``: the side's orders on file answer its question at a stop that
    waits for another side too."""
    game = game_support.game()
    report = game_support.report
    state = match.state
    view = game.view(state, side)
    options = log.charter["options"]
    translations = words(language)
    decision = match.decision_for(side) or match.decision  # this side's question, else whom the game waits for
    waiting = None
    if decision is not None:
        waiting = {"side": decision.side, "side_title": side_title(decision.side, translations), "kind": decision.kind,
                   "prompt": say_in(decision.prompt, translations.gettext, translations.ngettext),
                   "mine": decision.side == side,
                   "hint": hint_in_words(report, decision, translations) if decision.side == side else [],
                   "on_file": answered_on_file and decision.side == side}
    batch_body = batch.body if batch is not None else None
    game_part = report.context(state, view, side, options)
    return {
        "campaign": log.campaign,
        "game_title": game_support.title,
        "side": side,
        "side_title": side_title(side, translations),
        "player": player,
        "turn": getattr(state, "turn", ""),
        "phase": translations.gettext(phase_in_words(game_part, getattr(state, "phase", ""))),
        "next_step": log.next_batch,
        "earlier_events": [{"kind": e.kind, "text": e.in_words(translations.gettext, translations.ngettext)}
                           for e in visible(events[:earlier_events], side)],
        "events": [{"kind": e.kind, "text": e.in_words(translations.gettext, translations.ngettext)}
                   for e in visible(events[earlier_events:], side)],
        "defaults": [side_title(s, translations) for s in defaults],
        "default_notes": [say_in(note, translations.gettext) for note in default_notes],
        "refused": [say_in(note, translations.gettext) for note in refused if note.startswith(side)],
        "not_carried_out": [say_in(note, translations.gettext) for note in not_carried_out],
        "game": game_part,
        "partials": partials(game_support.name),
        "waiting": waiting,
        "deadline": deadline.strftime("%Y-%m-%d %H:%M UTC"),
        "result": getattr(state, "result", None),
        "dice": None if batch_body is None else {
            "batch": batch_body["batch"],
            "seed": batch_body["seed"],
            "contributions": batch_body["contributions"],
            "rolls": [e["dice"] for e in batch_body["entries"] if "dice" in e],
        },
        "openings": [{**item, "open": canonical_json(item["open"]).decode("utf-8")} for item in openings],
        "anchor": log.charter["chain"]["anchor"],
        "charter_hash": log.record_hash(0),
        "head": log.record_hash(-1),
        "fingerprint": referee_fingerprint(log.charter),
        "language": language,
    }

