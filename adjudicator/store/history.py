"""Verification of a campaign's hash-linked history.

An entry ``n`` is good when its sequence number is ``n``, its ``prev`` is the
hash of entry ``n - 1`` (:data:`GENESIS` for entry 0), its body is the canonical
JSON text of an object, and its ``hash`` is :func:`entry_hash` of its fields.
Verification stops at the first bad entry and raises :class:`HistoryCorrupt`
naming it, so a removed, reordered or altered entry is never passed on.

Local verification catches damage and naive tampering; it cannot stop someone
who rewrites a whole chain consistently.  That is what the signed, published
record is for.

A history checked whole is marked in the user's cache folder (:mod:`.checked`), so
that a new process parses only the bodies after the mark; the verdict on any history
is the one a whole check gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from .canonical import GENESIS, canonical_json, entry_hash, is_canonical_object
from .errors import HistoryCorrupt, InvalidValue
from .records import Entry

#: ``format`` field of an exported public history.
EXPORT_FORMAT = "adjudicator-campaign-history"
EXPORT_VERSION = 1

_RawRow = tuple[Any, ...]  # (seq, kind, body, prev, hash), text columns as bytes or str


def entries_from_rows(campaign: str, rows: Iterable[_RawRow]) -> Iterator[Entry]:
    """Turn stored rows into entries, refusing rows that cannot be read at all."""
    for index, row in enumerate(rows):
        yield _entry_from_row(campaign, index, row)


def verified_entries(campaign: str, rows: Iterable[_RawRow], known_canonical: int = 0) -> Iterator[Entry]:
    """Turn stored rows into entries, verifying each against the one before.

    The bodies of the first ``known_canonical`` entries are taken as canonical without
    parsing them (a history checked whole before, whose mark fits: :mod:`.checked`);
    their sequence numbers, links and hashes are checked as every entry's are. A
    failure among them may then be named differently from a whole check's: check again
    whole for the verdict to report."""
    prev = GENESIS
    for expected, row in enumerate(rows):
        _check_seq(campaign, expected, row[0])
        entry = _entry_from_row(campaign, expected, row)
        check_entry(entry, expected, prev, body_known_canonical=expected < known_canonical)
        prev = entry.hash
        yield entry


def check_entry(entry: Entry, expected_seq: int, expected_prev: str, *, body_known_canonical: bool = False) -> None:
    """Raise :class:`HistoryCorrupt` unless ``entry`` fits at ``expected_seq`` (with
    ``body_known_canonical``, its body is not parsed: only its link and hash are checked)."""
    campaign = entry.campaign
    _check_seq(campaign, expected_seq, entry.seq)
    if entry.prev != expected_prev:
        raise HistoryCorrupt(
            campaign,
            expected_seq,
            f"broken link: it follows {_short(entry.prev)} but the entry before it "
            f"has hash {_short(expected_prev)}",
        )
    fields = (campaign, entry.seq, entry.kind, entry.body_json, entry.prev, entry.hash)
    if body_known_canonical:
        problem = None if _hash_matches(*fields) else "its content does not match its hash: it was altered"
    else:
        problem = _content_problem(*fields)
    if problem is not None:
        raise HistoryCorrupt(campaign, expected_seq, problem)


@lru_cache(maxsize=2048)
def _hash_matches(campaign: str, seq: int, kind: str, body_json: str, prev: str, digest: str) -> bool:
    """Whether an entry's stored hash is the one its fields give (remembered, as
    :func:`_content_problem`: a command reads its history in each of its transactions)."""
    return entry_hash(campaign, seq, kind, body_json, prev) == digest


@lru_cache(maxsize=2048)
def _content_problem(campaign: str, seq: int, kind: str, body_json: str, prev: str, digest: str) -> str | None:
    """What is wrong with an entry's content, or None. A pure function of the stored
    fields, remembered: a process that reads a history several times (a step reads it
    to take the orders, then to adjudicate) checks each unchanged entry once."""
    if not is_canonical_object(body_json):
        return "its body is not the canonical JSON text of an object"
    recomputed = entry_hash(campaign, seq, kind, body_json, prev)
    if digest != recomputed:
        return (f"its content does not match its hash (stored {_short(digest)}, "
                f"recomputed {_short(recomputed)}): it was altered")
    return None


def check_tail(campaign: str, stored: int, last_hash: str, count: int, head: str) -> None:
    """Check that the history ends where the campaign says it does.

    ``stored``/``last_hash`` describe the entries found, ``count``/``head`` what
    the campaign row records.  Entries removed from the end break no link, so
    this comparison is what notices them.
    """
    if stored < count:
        raise HistoryCorrupt(
            campaign,
            stored,
            f"it is missing: the campaign records {count} entries but only {stored} "
            "are stored (entries were removed from the end)",
        )
    if stored > count:
        raise HistoryCorrupt(
            campaign,
            count,
            f"it is beyond the recorded end of the history ({count} entries)",
        )
    if last_hash != head:
        raise HistoryCorrupt(
            campaign,
            max(count - 1, 0),
            f"the last entry's hash {_short(last_hash)} is not the recorded head "
            f"{_short(head)}",
        )


def verify_chain(campaign: str, entries: Iterable[Entry]) -> list[Entry]:
    """Verify ``entries`` as the complete history of ``campaign`` and return them."""
    checked: list[Entry] = []
    prev = GENESIS
    for expected, entry in enumerate(entries):
        if entry.campaign != campaign:
            raise HistoryCorrupt(
                campaign, expected, f"it belongs to campaign {entry.campaign!r}"
            )
        check_entry(entry, expected, prev)
        checked.append(entry)
        prev = entry.hash
    return checked


def export_document(campaign: Mapping[str, Any], entries: list[Entry]) -> dict[str, Any]:
    """Build the JSON-able document of a campaign's stored history."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "campaign": dict(campaign),
        "entry_count": len(entries),
        "head": entries[-1].hash if entries else GENESIS,
        "entries": [
            {"seq": e.seq, "kind": e.kind, "body": e.body, "prev": e.prev, "hash": e.hash}
            for e in entries
        ],
    }


def verify_export(document: Mapping[str, Any]) -> list[Entry]:
    """Verify a document made by ``Store.export_history`` and return its entries.

    Needs no store and no secret: anyone holding the published document can run
    it.  Raises :class:`InvalidValue` for a document of the wrong shape and
    :class:`HistoryCorrupt` for a history that does not verify.
    """
    campaign = _export_campaign_id(document)
    raw_entries = document.get("entries")
    if not isinstance(raw_entries, list):
        raise InvalidValue("the exported document has no 'entries' list")
    entries = verify_chain(
        campaign, (_entry_from_export(campaign, i, e) for i, e in enumerate(raw_entries))
    )
    count, head = document.get("entry_count"), document.get("head")
    if type(count) is not int or not isinstance(head, str):
        raise InvalidValue("the exported document lacks its 'entry_count' and 'head'")
    check_tail(campaign, len(entries), entries[-1].hash if entries else GENESIS, count, head)
    return entries


def _export_campaign_id(document: Mapping[str, Any]) -> str:
    """Return the campaign id of an exported document after checking its format."""
    if not isinstance(document, Mapping) or document.get("format") != EXPORT_FORMAT:
        raise InvalidValue(f"not an exported campaign history (format {EXPORT_FORMAT!r})")
    if document.get("version") != EXPORT_VERSION:
        raise InvalidValue(
            f"exported history version {document.get('version')!r} is not supported "
            f"(this adjudicator reads version {EXPORT_VERSION}); upgrade the adjudicator"
        )
    campaign = document.get("campaign")
    if not isinstance(campaign, Mapping) or not isinstance(campaign.get("id"), str):
        raise InvalidValue("the exported document names no campaign id")
    return campaign["id"]


def _entry_from_export(campaign: str, index: int, item: Any) -> Entry:
    """Rebuild an :class:`Entry` from one item of an exported document."""
    try:
        seq, kind, body = item["seq"], item["kind"], item["body"]
        prev, digest = item["prev"], item["hash"]
        if not (isinstance(seq, int) and isinstance(kind, str) and isinstance(body, dict)):
            raise TypeError
        if not (isinstance(prev, str) and isinstance(digest, str)):
            raise TypeError
        body_json = canonical_json(body)
    except (KeyError, TypeError, InvalidValue):
        raise HistoryCorrupt(campaign, index, "it is not a well-formed entry") from None
    return Entry(campaign, seq, kind, body_json, prev, digest)


@lru_cache(maxsize=2048)
def _entry_from_row(campaign: str, index: int, row: _RawRow) -> Entry:
    """Build an :class:`Entry` from a stored row, decoding its text columns (remembered:
    the same row read again in another transaction of a process gives the same,
    immutable, entry)."""
    seq, *fields = row
    if type(seq) is not int:
        raise HistoryCorrupt(campaign, index, f"its sequence number {seq!r} is not an integer")
    try:
        kind, body, prev, digest = (
            f if isinstance(f, str) else bytes(f).decode("utf-8") for f in fields
        )
    except (TypeError, UnicodeDecodeError):
        raise HistoryCorrupt(campaign, index, "a stored field is not valid UTF-8 text") from None
    return Entry(campaign, seq, kind, body, prev, digest)


def _check_seq(campaign: str, expected: int, seq: Any) -> None:
    """Raise unless ``seq`` is the sequence number expected at this place."""
    if type(seq) is not int:
        raise HistoryCorrupt(campaign, expected, f"its sequence number {seq!r} is not an integer")
    if seq > expected:
        raise HistoryCorrupt(
            campaign, expected, f"it is missing (the next stored entry is {seq})"
        )
    if seq < expected:
        raise HistoryCorrupt(campaign, expected, f"entry {seq} appears again out of order")


def _short(digest: str) -> str:
    """Abbreviate a hex digest for messages."""
    return digest[:12] + "..." if isinstance(digest, str) and len(digest) > 12 else repr(digest)

