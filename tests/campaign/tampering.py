"""Public records changed as a dishonest referee could publish them: changed, then
signed and linked anew, for the tests that the verifiers refuse them."""

from __future__ import annotations

import json

from adjudicator.fairdice import records_from_jsonl, records_to_jsonl, sign_record


def resign(records, key, change=lambda pairs: pairs) -> str:
    """Rebuild a log from its (kind, body) pairs changed by ``change(pairs)``, signed and
    linked anew with ``key``; ``records`` are the records or their JSON Lines."""
    if isinstance(records, (str, bytes)):
        records = records_from_jsonl(records)
    pairs = change([(r.kind, json.loads(json.dumps(r.body))) for r in records])
    out, prev = [], "0" * 64
    for seq, (kind, body) in enumerate(pairs):
        record = sign_record(key, seq, kind, body, prev)
        out.append(record)
        prev = record.hash
    return records_to_jsonl(out)


def first_draw(pairs, key="dice"):
    """The first entry of a batch that holds ``key`` (dice, a draw, ...)."""
    return next(e for kind, body in pairs if kind == "batch" for e in body["entries"] if key in e)


def drop_russias_first_orders(pairs):
    """Batch 1 drawn without russia's confirmation: its orders record gone, and the batch
    neither counts its contribution nor lists it."""
    index = next(i for i, (kind, body) in enumerate(pairs) if kind == "orders" and body["side"] == "russia")
    del pairs[index]
    batch = next(body for kind, body in pairs if kind == "batch")
    batch["contributions"].pop("russia", None)
    batch["orders"] = [s - (s > index) for s in batch["orders"] if s != index]
    return pairs
