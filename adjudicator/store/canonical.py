"""Canonical JSON and the hash of a history entry.

A body is stored as its *canonical JSON*: keys sorted, no insignificant white
space, UTF-8 text (no ``\\u`` escapes for printable characters), no NaN or
infinities.  Two equal JSON values therefore always have the same text, and the
hash of an entry depends only on its content.

The hash of an entry is SHA-256 over a length-prefixed encoding of a domain tag
and the fields ``(campaign, seq, kind, body, prev)``: each field is UTF-8
encoded and preceded by its length as 8 big-endian bytes, so no two different
field tuples share an encoding.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

from adjudicator.canonical import canonical_text

from .errors import InvalidValue

#: Domain tag hashed in front of every entry, so entry hashes cannot be confused
#: with any other hash the adjudicator computes.
ENTRY_HASH_DOMAIN = "adjudicator/store/entry/v1"

#: The ``prev`` of a campaign's first entry (seq 0).
GENESIS = "0" * 64


def canonical_json(value: Any, *, what: str = "value") -> str:
    """Return the canonical JSON text of ``value``.

    ``value`` may be built of dicts with string keys, lists, tuples (stored as
    lists), strings, integers, finite floats, booleans and None.  Anything else
    raises :class:`InvalidValue` naming ``what`` and the path to the bad part
    (the value itself is never quoted: it may be a secret).
    """
    _check_jsonable(value, what, "$", set())
    return canonical_text(value)


def canonical_object(value: Any, *, what: str) -> str:
    """Return the canonical JSON text of ``value``, which must be a dict."""
    if not isinstance(value, dict):
        raise InvalidValue(
            f"{what} must be a JSON object (a dict), not {type(value).__name__}"
        )
    return canonical_json(value, what=what)


def is_canonical_object(text: str) -> bool:
    """Tell whether ``text`` is the canonical JSON text of a JSON object."""
    try:
        value = json.loads(text)
        if not isinstance(value, dict):
            return False
        text.encode("utf-8")  # no lone surrogate; a value read from JSON text is otherwise plain data
        return canonical_text(value) == text
    except (ValueError, RecursionError):
        return False


def entry_hash(campaign: str, seq: int, kind: str, body_json: str, prev: str) -> str:
    """Return the SHA-256 hex digest that links an entry into its history."""
    digest = hashlib.sha256()
    for field in (ENTRY_HASH_DOMAIN, campaign, str(seq), kind, body_json, prev):
        data = field.encode("utf-8")
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


def sha256_hex(data: bytes) -> str:
    """Return the SHA-256 hex digest of ``data`` (e.g. an email's content hash)."""
    return hashlib.sha256(data).hexdigest()


def _check_jsonable(value: Any, what: str, path: str, active: set[int]) -> None:
    """Raise :class:`InvalidValue` unless ``value`` is plain JSON data."""
    if value is None or isinstance(value, (bool, int)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidValue(f"{what} holds a non-finite number at {path}; JSON has none")
        return
    if isinstance(value, str):
        _check_text(value, what, path)
        return
    if isinstance(value, (dict, list, tuple)):
        _check_container(value, what, path, active)
        return
    raise InvalidValue(
        f"{what} holds a {type(value).__name__} at {path}; only dicts, lists, "
        "strings, numbers, booleans and None can be stored"
    )


def _check_container(value: Any, what: str, path: str, active: set[int]) -> None:
    """Check the members of a dict, list or tuple, refusing cycles."""
    if id(value) in active:
        raise InvalidValue(f"{what} contains itself at {path}; JSON cannot hold a cycle")
    active.add(id(value))
    if isinstance(value, dict):
        for key, member in value.items():
            if not isinstance(key, str):
                raise InvalidValue(
                    f"{what} has a {type(key).__name__} key at {path}; keys must be strings"
                )
            _check_text(key, what, path)
            _check_jsonable(member, what, f"{path}.{key}", active)
    else:
        for index, member in enumerate(value):
            _check_jsonable(member, what, f"{path}[{index}]", active)
    active.discard(id(value))


def _check_text(text: str, what: str, path: str) -> None:
    """Refuse strings that cannot be written as UTF-8 (lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidValue(
            f"{what} has a string at {path} that is not valid Unicode (a lone surrogate)"
        ) from None
