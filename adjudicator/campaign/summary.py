"""Where a campaign stands, told without running its game: the step's deadline, and a
summary of the game's position (turn, phase, result, the question asked) that each
step keeps beside the history, so that ``status`` loads neither the game nor its
rules and replays nothing.

The summary is derived data, like the game snapshot (docs/snapshots.md): a private
value of the campaign, never exported, and used only while it still describes the
campaign. It names the last entry of the history when it was kept; it holds while
that entry is still there and every entry after it is an order set (orders answer
the next step: they do not move the game). It also names this adjudicator's version
and the game's data files (their hash), which the question's wording comes from. An
undo, a forfeit, a new step, another version or edited game data: the summary is not
used, and ``status`` replays the game as before.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, Mapping, Sequence

from adjudicator import __version__
from adjudicator.campaign.record_kinds import BATCH, CHARTER, ORDERS, PAUSE, PRESS, UNDO
from adjudicator.resources import game_data_dir

#: Name of the stored value (beside the history, never exported).
STATUS_SUMMARY = "derived-status-summary"


def step_deadline(entries: Sequence[Any], meta: Mapping[str, Any]) -> datetime:
    """The deadline of the current step: when it opened (the charter, the last
    batch, or an undo that sends a voided step round again) plus the campaign's
    deadline hours of time outside every pause
    (:func:`adjudicator.campaign.pause.clock_deadline`), moved past any absence of a
    player it falls in (:func:`adjudicator.campaign.absence.moved_deadline`); it waits
    while a side's reminder did not arrive (:mod:`adjudicator.campaign.delivery`)."""
    from adjudicator.campaign.absence import ABSENCES, moved_deadline
    from adjudicator.campaign.delivery import DELIVERY, held_deadline
    from adjudicator.campaign.pause import clock_deadline, pause_records, spans

    if meta.get(DELIVERY):  # a reminder that did not reach its player holds the deadline back
        return held_deadline(entries, meta, step_deadline)

    opened = datetime.fromisoformat(max(when for entry in entries if entry.kind in (CHARTER, BATCH, UNDO)
                                        and (when := _opened(entry.body_json)) is not None))
    deadline = opened + timedelta(hours=float(meta["deadline_hours"]))
    paused = spans(pause_records(entries)) if any(entry.kind == PAUSE for entry in entries) else []
    if paused:
        deadline = clock_deadline(opened, float(meta["deadline_hours"]), paused)
    if not meta.get(ABSENCES):
        return deadline
    return moved_deadline(deadline, opened, meta, paused)  # (every step opens at a time in UTC: see campaign.utc)


@lru_cache(maxsize=4096)
def _opened(body_json: str) -> str | None:
    """When a charter, batch or undo entry opened its step, from the entry's stored
    text (remembered: a command asks for the deadline in several of its transactions,
    and the entries' texts do not change); None for an undo recorded without it."""
    return json.loads(body_json).get("private", {}).get("opened")


def phase_words(game: str, phase: Any) -> str:
    """The phase as the game's reports name it: its report part's ``phase_words``
    when it has one, else the phase's id with its dashes as spaces."""
    from adjudicator.campaign.games import support

    words = getattr(support(game).report, "phase_words", None)
    return str(words(phase)) if words is not None else str(phase).replace("-", " ")


def position_of(match: Any, game: str) -> dict[str, Any]:
    """The game's position as ``status`` tells it: turn, phase (its id, and its name
    in the game's words), result and the question asked (side, kind and its wording),
    from the match of ``game``."""
    state, decision = match.state, match.decision
    waiting = None if decision is None else {"side": decision.side, "ask": decision.kind, "prompt": decision.prompt}
    if len(match.decisions) > 1:  # a stop that asks several sides
        waiting["sides"] = [d.side for d in match.decisions]
    phase = getattr(state, "phase", None)
    return {"turn": getattr(state, "turn", None), "phase": phase,
            "phase_title": None if phase is None else phase_words(game, phase),
            "result": getattr(state, "result", None), "waiting": waiting}


def keep_summary(tx: Any, game: str, match: Any) -> None:
    """Keep the position of ``match`` (the game as the transaction's history leaves
    it) beside the history, for ``status``."""
    stored = tx.campaign()
    tx.set_secret(STATUS_SUMMARY, {"version": __version__, "data": data_digest(game),
                                   "after": {"seq": stored.entry_count - 1, "hash": stored.head_hash},
                                   "position": position_of(match, game)})


def kept_position(entries: Sequence[Any], game: str, stored: Any) -> dict[str, Any] | None:
    """The position the stored summary gives, when it still describes the campaign
    whose history is ``entries``; None otherwise (the game must be run)."""
    if not isinstance(stored, dict) or stored.get("version") != __version__:
        return None
    after, position = stored.get("after"), stored.get("position")
    if not isinstance(after, dict) or not isinstance(position, dict) or not isinstance(after.get("seq"), int):
        return None
    seq = after["seq"]
    if not 0 <= seq < len(entries) or entries[seq].hash != after.get("hash"):
        return None
    if any(entry.kind not in (ORDERS, PAUSE, PRESS) for entry in entries[seq + 1:]):  # nor pause nor press moves it
        return None
    if stored.get("data") != data_digest(game):
        return None
    return position


@lru_cache(maxsize=None)
def data_digest(game: str) -> str | None:
    """SHA-256 over the game's data files (``games/<game>/``, names and contents);
    None when the game has no such folder. Read once per process, as the game's data."""
    folder = game_data_dir(game)
    if not folder.is_dir():
        return None
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = path.relative_to(folder).as_posix().encode("utf-8")
        content = path.read_bytes()
        digest.update(len(name).to_bytes(8, "big") + name + len(content).to_bytes(8, "big") + content)
    return digest.hexdigest()
