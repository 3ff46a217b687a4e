"""What goes into a player's report: built from the campaign's log, the replayed
match and the step just adjudicated. Only what this side may see goes in."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Sequence

from adjudicator.engine import Event, Match


def visible(events: Sequence[Event], side: str | None) -> list[Event]:
    """The events ``side`` may read (None: the referee reads all)."""
    return [e for e in events if side is None or e.visible_to is None or side in e.visible_to]


def report_context(
    *,
    log: Any,
    match: Match,
    events: Sequence[Event],
    side: str,
    player: str,
    deadline: datetime,
    game_support: Any,
    defaults: Sequence[str] = (),
    default_notes: Sequence[str] = (),
    refused: Sequence[str] = (),
    batch: Any = None,
) -> dict[str, Any]:
    """The template context of ``side``'s report."""
    game = game_support.game()
    report = game_support.report()
    state = match.state
    view = game.view(state, side)
    options = log.charter["options"]
    decision = match.decision
    waiting = None
    if decision is not None:
        waiting = {"side": decision.side, "side_title": decision.side.capitalize(), "kind": decision.kind,
                   "prompt": decision.prompt, "mine": decision.side == side,
                   "hint": report.answer_hint(decision) if decision.side == side else []}
    batch_body = batch.body if batch is not None else None
    return {
        "campaign": log.campaign,
        "game_title": game_support.title,
        "side": side,
        "side_title": side.capitalize(),
        "player": player,
        "turn": getattr(state, "turn", ""),
        "phase": getattr(state, "phase", ""),
        "next_step": log.next_batch,
        "events": [{"kind": e.kind, "text": e.text} for e in visible(events, side)],
        "defaults": [s.capitalize() for s in defaults],
        "default_notes": list(default_notes),
        "refused": [note for note in refused if note.startswith(side)],
        "situation": report.situation(view, game.board),
        "waiting": waiting,
        "deadline": deadline.strftime("%Y-%m-%d %H:%M UTC"),
        "odds": report.battle_odds(state, side, options.get("partial_hits", "less-than"),
                                   bool(options.get("fog_of_war"))),
        "result": getattr(state, "result", None),
        "reconstructed": True,
        "dice": None if batch_body is None else {
            "batch": batch_body["batch"],
            "seed": batch_body["seed"],
            "contributions": batch_body["contributions"],
            "rolls": [e["dice"] for e in batch_body["entries"] if "dice" in e],
        },
        "anchor": log.charter["chain"]["anchor"],
        "charter_hash": log.records[0].hash,
        "head": log.records[-1].hash,
    }
