"""How far a campaign's history has had its bodies checked for canonical form, kept in
the user's cache folder so that a new command does not check them all again.

Reading a history verifies every entry (:mod:`.history`): its sequence number, its link
to the entry before, its hash recomputed from its fields, and its body being the
canonical JSON text of an object. The last check parses and re-writes every body, and
was what made a command cost more the longer its campaign had run. Its verdict is a
pure function of the body; and an entry's hash binds its body and, through ``prev``,
every entry before it. So once a history whose entry ``count - 1`` has hash ``head``
has been checked whole, a later read whose entry ``count - 1`` still has that stored
hash, and whose first ``count`` entries still have the hashes and links recomputed
from their fields, holds the same bodies, already found canonical: only the bodies
after them need parsing (:func:`.history.verified_entries`, ``known_canonical``).

A mark is named by the campaign and the stored hash of its first entry, so that
campaigns of the same name in other stores do not share one. A mark that does not fit
the history read (another store, a history rewritten, a damaged or missing file) is
not used: the history is checked whole, as without marks. A folder that cannot be
written only means checking whole every time.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, NamedTuple, Sequence

from adjudicator.resources import cache_dir

_FOLDER = "checked-histories"


class Mark(NamedTuple):
    """The first ``count`` entries of a history, the last of them with hash ``head``,
    were verified whole."""

    count: int
    head: str


def _mark_file(campaign: str, first_hash: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    name = hashlib.sha256(f"{campaign}\0{first_hash}".encode("utf-8")).hexdigest()[:40]
    return folder / _FOLDER / f"{name}.json"


def recall(campaign: str, rows: Sequence[Sequence[Any]]) -> Mark | None:
    """The mark kept for the history ``rows`` (stored rows: seq, kind, body, prev,
    hash), if there is one and it names an entry whose stored hash it holds."""
    if not rows:
        return None
    path = _mark_file(campaign, _text(rows[0][4]))
    if path is None:
        return None
    try:
        data = json.loads(path.read_bytes())
        mark = Mark(data["count"], data["head"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if type(mark.count) is not int or not 0 < mark.count <= len(rows) or type(mark.head) is not str:
        return None
    return mark if _text(rows[mark.count - 1][4]) == mark.head else None


def remember(campaign: str, first_hash: str, mark: Mark) -> None:
    """Keep ``mark`` for the campaign whose first entry has hash ``first_hash``: whole
    or not at all, silently not where the cache folder cannot be written."""
    path = _mark_file(campaign, first_hash)
    if path is None:
        return
    from adjudicator.files import keep_if_possible

    try:
        path.parent.mkdir(exist_ok=True)
    except OSError:
        return
    keep_if_possible(path, json.dumps({"count": mark.count, "head": mark.head}).encode("utf-8"))


def _text(value: Any) -> str:
    """A stored text column as text (SQLite gives the store's columns as bytes)."""
    return value if isinstance(value, str) else bytes(value).decode("utf-8", "replace")
