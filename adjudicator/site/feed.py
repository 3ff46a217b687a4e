"""The campaign's public events as one signed JSON document (``feed.json``), for a
club's own site or chat bot.

The feed is a record of kind ``feed`` in the public record's own form, signed with
the referee's Ed25519 key as every record is (:func:`adjudicator.fairdice.sign_record`):
its ``prev`` is the hash of the public record's last record (the head it was drawn
from), and its body lists one event per public record. Anyone checks it with the
charter's ``referee_key`` (:func:`feed_is_signed`). Like the site, it is drawn from the
public record alone: no sealed entry is in it before the opening.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Mapping

from adjudicator.campaign.protocol import BATCH, CHAIN, CHARTER, FORFEIT, OPENING, ORDERS, PAUSE, PRESS, REPLACE, UNDO
from adjudicator.campaign.errors import CampaignError
from adjudicator.errors import AdjudicatorError
from adjudicator.fairdice import Record, public_key_from_text, public_key_to_text, sign_record, signature_is_valid
from adjudicator.site.replay import PublicCampaign

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

FEED_KIND = "feed"
FEED_NAME = "feed.json"


class NotTheRefereeKey(CampaignError):
    """The key given to sign the feed is not the campaign's referee key."""


def feed_body(public: PublicCampaign) -> dict[str, Any]:
    """The feed's content: the campaign, its state and one event per public record."""
    steps = {step.seq: step for step in public.steps}
    return {
        "campaign": public.campaign, "game": public.game, "sides": list(public.sides),
        "result": public.result, "waiting": dict(public.waiting) if public.waiting else None,
        "secrets_opened": public.opened, "records": len(public.records),
        "events": [_event(record, steps.get(record.seq)) for record in public.records],
    }


def _event(record: Record, step: Any) -> dict[str, Any]:
    body = record.body
    event: dict[str, Any] = {"seq": record.seq, "kind": record.kind, "hash": record.hash}
    if record.kind == CHARTER:
        event.update(game=body.get("game"), options=body.get("options", {}),
                     sides=[p["side"] for p in body.get("players", [])])
    elif record.kind == ORDERS:
        event.update(side=body.get("side"), step=body.get("step"))
    elif record.kind == BATCH and step is not None:
        event.update(step=step.number, turn=step.turn, phase=step.phase,
                     dice=[{"side": side, "faces": list(faces)} for side, faces in step.dice],
                     sealed=sum(1 for row in step.rows if row.sealed), waiting=step.waiting,
                     result=step.result, voided=step.voided is not None,
                     happened=None if step.events is None else [text for text, _ in step.events])
    elif record.kind == UNDO:
        event.update(back_to=body.get("back_to"), reason=body.get("reason"))
    elif record.kind == PAUSE:
        event.update(paused_from=body.get("from"), until=body.get("until"), by=body.get("by"),
                     reason=body.get("reason"))
    elif record.kind == PRESS:  # a message between players: its hash, never its text
        event.update(side=body.get("side"), to=body.get("to"), sha256=body.get("sha256"),
                     deliver_at=body.get("deliver_at"))
    elif record.kind == REPLACE:
        event.update(side=body.get("side"), step=body.get("step"), player=body.get("player"))
    elif record.kind == FORFEIT:
        event.update(forfeited=body.get("forfeited"), result=body.get("result"))
    elif record.kind == OPENING:
        event.update(opened=len(body.get("openings", [])))
    elif record.kind == CHAIN:
        event.update(first_batch=body.get("first_batch"))
    return event


def signed_feed(public: PublicCampaign, key: "Ed25519PrivateKey") -> str:
    """The feed, signed with ``key`` (which must be the charter's referee key), as JSON."""
    if public_key_to_text(key.public_key()) != public.referee_key:
        raise NotTheRefereeKey(f"the key given is not the referee key of campaign {public.campaign!r} "
                               f"({public.referee_key}): give the campaign's own key with --key")
    head = public.records[-1].hash
    record = sign_record(key, len(public.records), FEED_KIND, feed_body(public), head)
    return json.dumps(record.to_dict(), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def feed_is_signed(text: str, referee_key: str, head: str | None = None) -> bool:
    """Whether ``text`` is a feed signed by ``referee_key`` (and drawn from the record
    whose last hash is ``head``, when given)."""
    try:
        data: Mapping[str, Any] = json.loads(text)
        record = Record.from_dict(data)
    except (ValueError, TypeError, KeyError, AdjudicatorError):
        return False
    if record.kind != FEED_KIND or (head is not None and record.prev != head):
        return False
    return signature_is_valid(record, public_key_from_text(referee_key))
