"""A campaign's latest game snapshot, kept beside its history so that a command
replays the game from the last phase boundary instead of from the start
(docs/snapshots.md).

The snapshot is derived data, never part of the public record: it is stored apart
from the history as a private value of the campaign (never exported), and it is used
only when everything it depends on still holds:

- its key: this adjudicator's version, the game's data hashes and the charter;
- the history prefix it was taken after: the batches in force that hold its entries
  (a batch's entries never change once recorded, and batch numbers are never reused,
  so an undo that voided one of them makes the snapshot stale);
- the match run from it reaches the state whose hash the last batch in force
  published and signed (sealed, in a campaign with hidden information).

Otherwise it is ignored and the game is replayed from the start, which stays the
truth (``verify`` never uses a snapshot); the next adjudication keeps a fresh one.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Callable, Mapping, Sequence

from adjudicator.canonical import canonical_text
from adjudicator import __version__
from adjudicator.campaign.log import CampaignLog
from adjudicator.campaign.protocol import STATE_POSITION, seal, seal_salt, state_hash
from adjudicator.campaign.secrets import HIDDEN_CHAIN_SECRET
from adjudicator.engine import HistoryMismatch
from adjudicator.engine.match import Match, Snapshot
from adjudicator.fairdice import SeedChain

#: Name of the stored value (beside the history, never exported).
GAME_SNAPSHOT = "derived-game-snapshot"

Secret = Callable[[str], Any]
"""Reads one private value of the campaign by name (None when there is none)."""


def snapshot_key(log: CampaignLog, data_hashes: Mapping[str, str]) -> str:
    """What a snapshot is valid for: this adjudicator, the game's data, the charter."""
    return _digest([__version__, dict(data_hashes), log.records[0].hash])


def batch_layout(log: CampaignLog) -> list[tuple[int, int]]:
    """Each batch in force, in order, with how many history entries it holds."""
    return [(record.body["batch"], len(record.body["entries"])) for record in log.effective_batches()]


def prefix_digest(layout: Sequence[tuple[int, int]], entries: int) -> str:
    """What identifies the first ``entries`` history entries: the batches in force
    that hold them (``layout``, from :func:`batch_layout`) and their number."""
    covering, count = [], 0
    for number, size in layout:
        if count >= entries:
            break
        covering.append([number, size])
        count += size
    return _digest([covering, entries])


def _digest(value: Any) -> str:
    return hashlib.sha256(canonical_text(value).encode("utf-8")).hexdigest()


def replay(log: CampaignLog, game: Any, data_hashes: Mapping[str, str], secret: Secret) -> Match:
    """The campaign's match: run from its stored snapshot when that is valid, else
    replayed from the start. Either way the match takes snapshots as it goes on."""
    charter = log.charter
    history = log.history()
    resumed = _resumed(log, game, data_hashes, secret, history)
    if resumed is not None:
        return resumed
    return Match(game, charter.get("setup", {}), charter["options"], history, snapshots=True)


def _resumed(log: CampaignLog, game: Any, data_hashes: Mapping[str, str], secret: Secret,
             history: list[dict]) -> Match | None:
    stored = secret(GAME_SNAPSHOT)
    if not history or not isinstance(stored, dict):
        return None
    if stored.get("key") != snapshot_key(log, data_hashes):
        return None
    try:
        snapshot = _from_stored_form(stored.get("match"))
    except HistoryMismatch:
        return None
    if snapshot.entries > len(history) or stored.get("prefix") != prefix_digest(batch_layout(log), snapshot.entries):
        return None
    charter = log.charter
    try:
        match = Match.from_snapshot(game, charter.get("setup", {}), charter["options"], snapshot, history,
                                    snapshots=True)
    except Exception:  # a damaged or altered snapshot may fail in any way; it is simply not used
        return None
    return match if _reaches_published_state(log, match, secret) else None


def _stored_form(snapshot: Snapshot) -> dict:
    """The snapshot as kept in the store, its state as JSON text in the state's own key
    order. (The store writes canonical JSON, which sorts keys; a game's rules may go
    through a mapping in its order, so a resumed game must see the order the running
    game had, or it could part from the full replay.)"""
    data = snapshot.to_json()
    data["state"] = json.dumps(data["state"], ensure_ascii=False, separators=(",", ":"))
    return data


def _from_stored_form(data: Any) -> Snapshot:
    """What :func:`_stored_form` wrote, back; HistoryMismatch when it is not that."""
    if not isinstance(data, dict) or not isinstance(data.get("state"), str):
        raise HistoryMismatch("not a stored match snapshot")
    try:
        state = json.loads(data["state"])
    except ValueError:
        raise HistoryMismatch("not a stored match snapshot") from None
    return Snapshot.from_json({**data, "state": state})


def _reaches_published_state(log: CampaignLog, match: Match, secret: Secret) -> bool:
    """Whether the match stands where the last batch in force said, by its signed state hash."""
    batches = log.effective_batches()
    if not batches:
        return False
    body = batches[-1].body
    published = body.get("state_hash")
    try:
        digest = state_hash(match.state.to_json())
    except Exception:
        return False
    if "hidden_chain" not in log.charter:
        return digest == published
    if body.get("batch") in log.clear_state_hashes:  # the referee's own copy of what the seal commits to
        return digest == log.clear_state_hashes[body["batch"]]
    try:  # an older campaign: the seal recomputed, with the hidden chain
        number = int(body["batch"])
        seed = SeedChain.from_secret_dict(secret(HIDDEN_CHAIN_SECRET)).reveal(number)
    except Exception:
        return False
    sealed = seal(log.campaign, number, STATE_POSITION, seal_salt(log.campaign, number, STATE_POSITION, seed), digest)
    return sealed == published


def latest(match: Match, events_from: int | None = None) -> Snapshot | None:
    """The match's latest snapshot, not after event ``events_from`` (events a report
    still has to tell must stay in a match run from it)."""
    found = None
    for snapshot in match.snapshots:
        if snapshot.entries > match.entry_count or (events_from is not None and snapshot.events > events_from):
            break
        found = snapshot
    return found


def keep(log: CampaignLog, match: Match, data_hashes: Mapping[str, str], secret: Secret,
         set_secret: Callable[[str, Any], None], events_from: int | None = None, batch: int | None = None) -> None:
    """Store the match's latest snapshot for the next command (inside the transaction
    that recorded the match's history), unless the stored one is the same. The match
    went on from ``log``'s history with the entries of ``batch`` (if any)."""
    snapshot = latest(match, events_from)
    if snapshot is None:
        return
    layout = batch_layout(log)
    added = match.entry_count - sum(size for _, size in layout)
    if added and batch is not None:
        layout.append((batch, added))
    elif added:
        return  # entries that are in no batch: no snapshot after them can be named
    value = {"key": snapshot_key(log, data_hashes), "prefix": prefix_digest(layout, snapshot.entries),
             "match": _stored_form(snapshot)}
    stored = secret(GAME_SNAPSHOT)
    if isinstance(stored, dict) and {k: stored.get(k) for k in ("key", "prefix")} == \
            {k: value[k] for k in ("key", "prefix")} and isinstance(stored.get("match"), dict) and \
            (stored["match"].get("entries"), stored["match"].get("events")) == (snapshot.entries, snapshot.events):
        return
    set_secret(GAME_SNAPSHOT, value)


def earliest_unreported_event(meta: Mapping[str, Any]) -> int | None:
    """The first event a player who takes one report per turn has not been told yet
    (the mailroom's ``digest``: side -> the turn and event count of their last
    report); None when every player takes a report per step."""
    digests = dict(meta.get("digest", {}))
    counts = [int(dict(digests.get(side) or {}).get("events", 0))
              for side, player in dict(meta.get("players", {})).items() if player.get("reports") == "turn"]
    return min(counts) if counts else None
