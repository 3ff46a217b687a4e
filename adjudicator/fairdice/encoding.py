"""Canonical byte encodings used for hashing, keying and signing.

Two encodings live here:

* :func:`encode` -- a length-prefixed, type-tagged, domain-separated
  encoding of a tuple of fields. It is the input of every hash and HMAC in
  the fair-dice protocol. Two different ``(domain, fields)`` pairs never
  encode to the same bytes, so a value computed for one purpose can never
  be passed off as a value for another.
* :func:`canonical_json` -- one exact JSON text for a JSON value, used to
  hash and sign public records.

Field encoding (all lengths and integers big-endian)::

    element  = tag (1 byte) || length (4 bytes, unsigned) || payload
    message  = element(tag 0x00, domain) || element(field_1) || ... || element(field_n)

    tag 0x00  domain    payload = the domain bytes (printable ASCII, no spaces)
    tag 0x01  bytes     payload = the bytes as they are
    tag 0x02  str       payload = the UTF-8 encoding of the string
    tag 0x03  int       payload = 8 bytes, two's-complement signed
                                  (range -2**63 .. 2**63 - 1)
    tag 0x04  sequence  payload = the concatenated elements of the items

Integers are *signed* so that every Python ``int`` the protocol uses
(turns, batch and draw numbers, counters, generations, bounds) has exactly
one encoding and negative values are representable rather than silently
wrapped. ``bool``, ``float`` and ``None`` are refused: their encoding would
be a matter of taste, and taste differs between languages.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Union

from adjudicator.canonical import canonical_text

from .errors import EncodingError, NonCanonicalJson

TAG_DOMAIN = 0x00
TAG_BYTES = 0x01
TAG_STR = 0x02
TAG_INT = 0x03
TAG_SEQUENCE = 0x04

INT_MIN = -(2**63)
INT_MAX = 2**63 - 1
MAX_FIELD_LENGTH = 2**32 - 1

#: Largest integer magnitude allowed in canonical JSON: every JSON
#: implementation (including IEEE-754-double based ones) represents
#: integers up to this value exactly.
JSON_SAFE_INT = 2**53 - 1

Field = Union[bytes, str, int, Sequence["Field"]]

_HEADER = struct.Struct(">BI")


def encode(domain: bytes, *fields: Field) -> bytes:
    """Encode ``fields`` under ``domain`` in the canonical field encoding.

    >>> encode(b"x/v1", "ab", 1).hex(" ")
    '00 00 00 00 04 78 2f 76 31 02 00 00 00 02 61 62 03 00 00 00 08 00 00 00 00 00 00 00 01'
    """
    return _element(TAG_DOMAIN, _domain_bytes(domain)) + b"".join(
        encode_field(field) for field in fields
    )


def encode_field(field: Field) -> bytes:
    """Encode one field (without a domain) as ``tag || length || payload``."""
    if isinstance(field, bool):
        raise EncodingError("booleans have no canonical encoding; use an int or a str")
    if isinstance(field, (bytes, bytearray)):
        return _element(TAG_BYTES, bytes(field))
    if isinstance(field, str):
        return _element(TAG_STR, _utf8(field))
    if isinstance(field, int):
        return _element(TAG_INT, _int_bytes(field))
    if isinstance(field, (tuple, list)):
        return _element(TAG_SEQUENCE, b"".join(encode_field(item) for item in field))
    raise EncodingError(f"cannot encode a field of type {type(field).__name__}")


def decode(message: bytes) -> tuple[bytes, tuple[Field, ...]]:
    """Invert :func:`encode`: return ``(domain, fields)``.

    Sequences come back as tuples. Raises :class:`EncodingError` for any
    input that :func:`encode` cannot have produced.
    """
    elements = _split_elements(message)
    if not elements or elements[0][0] != TAG_DOMAIN:
        raise EncodingError("an encoded message must start with a domain element")
    domain = _domain_bytes(elements[0][1])
    return domain, tuple(_decode_element(tag, payload) for tag, payload in elements[1:])


def canonical_json(value: object) -> bytes:
    """Return the one canonical JSON text of ``value``, as UTF-8 bytes.

    Object keys are sorted (by Unicode code point), there is no whitespace,
    non-ASCII characters are written as themselves (``ensure_ascii=False``),
    and only the characters JSON requires are escaped. Allowed values: dict
    with str keys, list, tuple (written as a list), str, int within
    +/-(2**53 - 1), bool and None. Floats are refused -- NaN and the
    infinities are not JSON, and finite floats are printed differently by
    different languages, which would make signatures unverifiable
    elsewhere; store real quantities as integers in a stated unit or as
    decimal strings.
    """
    if not _plainly_json(value):
        _check_json_value(value, path="$")  # says where and why, or accepts what the quick test left
    return canonical_text(value).encode("utf-8")


def _element(tag: int, payload: bytes) -> bytes:
    if len(payload) > MAX_FIELD_LENGTH:
        raise EncodingError(f"field of {len(payload)} bytes is longer than 2**32 - 1 bytes")
    return _HEADER.pack(tag, len(payload)) + payload


def _domain_bytes(domain: object) -> bytes:
    if not isinstance(domain, bytes):
        raise EncodingError("the domain must be bytes, e.g. b'adjudicator/die/v1'")
    if not domain or not all(0x20 < byte < 0x7F for byte in domain):
        raise EncodingError("the domain must be non-empty printable ASCII without spaces")
    return domain


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise EncodingError(f"string is not valid Unicode: {error.reason}") from None


def _int_bytes(value: int) -> bytes:
    if not INT_MIN <= value <= INT_MAX:
        raise EncodingError(f"integer {value} is outside the signed 64-bit range")
    return value.to_bytes(8, "big", signed=True)


def _split_elements(data: bytes) -> list[tuple[int, bytes]]:
    elements = []
    position = 0
    while position < len(data):
        if len(data) - position < _HEADER.size:
            raise EncodingError(f"truncated element header at byte {position}")
        tag, length = _HEADER.unpack_from(data, position)
        start = position + _HEADER.size
        end = start + length
        if end > len(data):
            raise EncodingError(f"element at byte {position} runs past the end")
        elements.append((tag, data[start:end]))
        position = end
    return elements


def _decode_element(tag: int, payload: bytes) -> Field:
    if tag == TAG_BYTES:
        return payload
    if tag == TAG_STR:
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            raise EncodingError("string element is not valid UTF-8") from None
    if tag == TAG_INT:
        if len(payload) != 8:
            raise EncodingError("integer element must be 8 bytes long")
        return int.from_bytes(payload, "big", signed=True)
    if tag == TAG_SEQUENCE:
        return tuple(_decode_element(t, p) for t, p in _split_elements(payload))
    raise EncodingError(f"unknown or misplaced element tag 0x{tag:02x}")


def _plainly_json(value: object) -> bool:
    """Whether ``value`` is made only of the plain JSON types (dict, list, tuple, str,
    int, bool, None; no subclasses) within the canonical limits: the quick yes/no of
    :func:`_check_json_value`, writing no path for each value it looks at. A no is
    not a refusal: :func:`_check_json_value` then decides (and says where)."""
    kind = value.__class__
    if kind is str:
        return value.isascii() or _encodes(value)
    if kind is int:
        return -JSON_SAFE_INT <= value <= JSON_SAFE_INT
    if value is None or kind is bool:
        return True
    if kind is dict:
        for key, item in value.items():
            if key.__class__ is not str or not (key.isascii() or _encodes(key)) or not _plainly_json(item):
                return False
        return True
    if kind is list or kind is tuple:
        for item in value:
            if not _plainly_json(item):
                return False
        return True
    return False


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_json_value(value: object, path: str) -> None:
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        _check_json_string(value, path)
    elif isinstance(value, int):
        if abs(value) > JSON_SAFE_INT:
            raise NonCanonicalJson(f"{path}: integer {value} is beyond +/-(2**53 - 1)")
    elif isinstance(value, float):
        raise NonCanonicalJson(f"{path}: floats ({value!r}) have no canonical JSON form")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _check_json_value(item, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise NonCanonicalJson(f"{path}: object key {key!r} is not a string")
            _check_json_string(key, path)
            _check_json_value(item, f"{path}.{key}")
    else:
        raise NonCanonicalJson(f"{path}: {type(value).__name__} is not a JSON value")


def _check_json_string(text: str, path: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise NonCanonicalJson(f"{path}: string contains an unpaired surrogate") from None
