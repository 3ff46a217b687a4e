"""The kinds of a campaign's records (see :mod:`adjudicator.campaign.protocol`), apart
from the protocol's dice and seals, so that reading a history (``status``) loads neither;
and the body of a record as the store keeps it."""

from __future__ import annotations

import json
from typing import Any, Mapping

CHARTER, ORDERS, BATCH, CHAIN, UNDO, FORFEIT = "charter", "orders", "batch", "chain", "undo", "forfeit"
OPENING = "opening"
REVEAL = "reveal"  # a seed reveal in a log with no game (docs/dice.md §10.5)
PAUSE = "pause"  # the campaign's clock stops, by consent of every side or the referee's ruling
PRESS = "press"  # a message between players: its hash, never its text
REPLACE = "replace"  # a side's player replaced by the referee: the side, the step it takes effect, the name


def record_body(entry: Any) -> Mapping[str, Any]:
    """The public body of a stored entry (its ``body_json`` text, or its ``body`` mapping)
    or of a record read from a public record (its ``body``)."""
    text = getattr(entry, "body_json", None)
    if isinstance(text, str):
        return json.loads(text)["record"]["body"]
    body = entry.body
    return body["record"]["body"] if "record" in body else body
