"""The referee's public record: signed, hash-linked, exportable.

Each :class:`Record` carries ``seq`` (0, 1, 2, ...), a ``kind`` (such as
``"charter"``, ``"reveal"``, ``"batch"``, ``"chain-extension"``), a JSON
``body``, ``prev`` (the hash of the previous record; 64 zeros for record
0) and ``signature``: the base64 Ed25519 signature of::

    canonical_json({"body": body, "kind": kind, "prev": prev, "seq": seq})

The record's hash is the lowercase hex SHA-256 of the canonical JSON of
all five fields, signature included. Removing, inserting, reordering or
altering any record therefore breaks a link or a signature; only cutting
records off the *end* goes unseen, which is why a verifier should compare
the head hash (or the record count) with the latest report.

``export --public`` writes one record per line, each line the canonical
JSON of the record's five fields (JSON Lines); :func:`records_from_jsonl`
accepts only that exact form.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the signature library is loaded when a signature is made or checked
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .encoding import canonical_json
from .errors import FairDiceError, RecordFormatError, RecordInvalid

GENESIS_PREV = "0" * 64
RECORD_FIELDS = frozenset({"seq", "kind", "body", "prev", "signature"})
SIGNATURE_SIZE = 64

_HEX_HASH = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Record:
    """One signed entry of the public record.

    The body is copied on construction (through its canonical JSON), so a
    record never shares mutable state with the dict it was made from.
    """

    seq: int
    kind: str
    body: dict[str, Any] = field(hash=False)
    prev: str
    signature: str

    def __post_init__(self) -> None:
        self._check_fields()
        object.__setattr__(self, "body", json.loads(_canonical(self.body)))

    def _check_fields(self) -> None:
        if isinstance(self.seq, bool) or not isinstance(self.seq, int) or self.seq < 0:
            raise RecordFormatError(None, f"seq must be an integer >= 0, not {self.seq!r}")
        if not isinstance(self.kind, str) or not self.kind:
            raise RecordFormatError(None, "kind must be a non-empty string")
        if not isinstance(self.body, dict):
            raise RecordFormatError(None, "body must be a JSON object")
        if not isinstance(self.prev, str) or not _HEX_HASH.fullmatch(self.prev):
            raise RecordFormatError(None, "prev must be 64 lowercase hex digits")
        if not isinstance(self.signature, str):
            raise RecordFormatError(None, "signature must be a base64 string")

    def signed_payload(self) -> bytes:
        """The exact bytes the signature covers."""
        return signed_payload(self.seq, self.kind, self.body, self.prev)

    def to_dict(self) -> dict[str, Any]:
        """The five fields as a JSON-able dict."""
        return {
            "seq": self.seq,
            "kind": self.kind,
            "body": self.body,
            "prev": self.prev,
            "signature": self.signature,
        }

    @property
    def hash(self) -> str:
        """Lowercase hex SHA-256 of the canonical JSON of the whole record."""
        return hashlib.sha256(self._canonical_form()).hexdigest()

    def to_json_line(self) -> str:
        """The record as one line of JSON Lines (without the newline)."""
        return self._canonical_form().decode("utf-8")

    def _canonical_form(self) -> bytes:
        """The canonical JSON of the whole record: kept when the record was read from
        a line already checked to be exactly that (:meth:`from_json_line`), else made."""
        kept = self.__dict__.get("_line")
        return kept if kept is not None else _canonical(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Record:
        """Build a record from its five fields; raises :class:`RecordFormatError`."""
        if not isinstance(data, Mapping):
            raise RecordFormatError(None, "a record must be a JSON object")
        if set(data) != RECORD_FIELDS:
            missing = sorted(RECORD_FIELDS - set(data))
            extra = sorted(set(data) - RECORD_FIELDS)
            raise RecordFormatError(None, f"record fields wrong (missing {missing}, unexpected {extra})")
        return cls(data["seq"], data["kind"], data["body"], data["prev"], data["signature"])

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> Record:
        """A record read back from the campaign store, where it was kept as the
        canonical JSON the store verifies (its hash links it into the history):
        ``data`` is a fresh parse of that text, so its body is taken as it is rather
        than copied through canonical JSON again. Its fields are checked as by
        :meth:`from_dict`."""
        if not isinstance(data, Mapping) or set(data) != RECORD_FIELDS:
            return cls.from_dict(data)  # raises the reason
        record = cls.__new__(cls)
        for name in ("seq", "kind", "body", "prev", "signature"):
            object.__setattr__(record, name, data[name])
        record._check_fields()
        return record

    @classmethod
    def from_json_line(cls, line: str) -> Record:
        """Parse one canonical JSON line; anything else is refused."""
        try:
            data = json.loads(line, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as error:
            raise RecordFormatError(None, f"not valid JSON ({error})") from None
        record = cls.from_stored(data)  # a fresh parse: its body need not be copied
        encoded = _canonical(record.to_dict())
        if encoded != line.encode("utf-8", "surrogatepass"):
            raise RecordFormatError(None, "record is not in canonical JSON form")
        object.__setattr__(record, "_line", encoded)
        return record


def signed_payload(seq: int, kind: str, body: Mapping[str, Any], prev: str) -> bytes:
    """``canonical_json({"seq", "kind", "body", "prev"})`` -- what gets signed."""
    return _canonical({"seq": seq, "kind": kind, "body": body, "prev": prev})


def sign_record(
    private_key: Ed25519PrivateKey, seq: int, kind: str, body: Mapping[str, Any], prev: str
) -> Record:
    """Sign a new record with the referee's key."""
    unsigned = Record(seq, kind, dict(body), prev, signature="")
    signature = private_key.sign(unsigned.signed_payload())
    return Record(seq, kind, unsigned.body, prev, base64.b64encode(signature).decode("ascii"))


def signature_is_valid(record: Record, public_key: Ed25519PublicKey) -> bool:
    """True when ``record.signature`` is the key's signature of the record."""
    from cryptography.exceptions import InvalidSignature

    signature = _decode_signature(record.signature)
    if signature is None:
        return False
    try:
        public_key.verify(signature, record.signed_payload())
    except InvalidSignature:
        return False
    return True


def verify_log(
    records: Sequence[Record],
    public_key: Ed25519PublicKey,
    *,
    expected_head: str | None = None,
) -> str:
    """Check a whole log and return the hash of its last record.

    Checks, record by record in order: sequence numbers run 0, 1, 2, ...;
    each ``prev`` is the hash of the record before (64 zeros for the
    first); each signature is valid for ``public_key``. Raises
    :class:`RecordInvalid` naming the FIRST bad record and why. With
    ``expected_head`` (a hash from the latest report) it also detects
    records cut off the end. An empty log has head ``GENESIS_PREV``.
    """
    head = GENESIS_PREV
    for position, record in enumerate(records):
        _check_record_in_log(position, record, head, public_key)
        head = record.hash
    if expected_head is not None and head != expected_head:
        raise RecordInvalid(
            len(records),
            f"the log ends with hash {head}, but its head should be {expected_head} "
            "(records are missing from the end, or this is another log)",
        )
    return head


@dataclass(frozen=True)
class RecordLog:
    """An immutable log of records; :meth:`appended` returns a longer log.

    Build one from untrusted records with :meth:`verified`.
    """

    records: tuple[Record, ...] = ()

    @property
    def next_seq(self) -> int:
        """The ``seq`` of the next record."""
        return len(self.records)

    @property
    def head_hash(self) -> str:
        """The hash of the last record (``GENESIS_PREV`` when empty)."""
        return self.records[-1].hash if self.records else GENESIS_PREV

    @property
    def last(self) -> Record | None:
        """The last record, or ``None`` when the log is empty."""
        return self.records[-1] if self.records else None

    def appended(
        self, private_key: Ed25519PrivateKey, kind: str, body: Mapping[str, Any]
    ) -> RecordLog:
        """A new log with one more record, signed and linked to this one."""
        record = sign_record(private_key, self.next_seq, kind, body, self.head_hash)
        return RecordLog(self.records + (record,))

    def to_jsonl(self) -> str:
        """The log as JSON Lines."""
        return records_to_jsonl(self.records)

    @classmethod
    def verified(
        cls,
        records: Iterable[Record],
        public_key: Ed25519PublicKey,
        *,
        expected_head: str | None = None,
    ) -> RecordLog:
        """A log made of ``records`` after :func:`verify_log` accepted them."""
        checked = tuple(records)
        verify_log(checked, public_key, expected_head=expected_head)
        return cls(checked)


def records_to_jsonl(records: Iterable[Record]) -> str:
    """One canonical JSON record per line, each line ending in ``\\n``."""
    return "".join(record.to_json_line() + "\n" for record in records)


def records_from_jsonl(data: str | bytes) -> list[Record]:
    """Parse JSON Lines written by :func:`records_to_jsonl`.

    Raises :class:`RecordFormatError` with the 1-based line number of the
    first line that is not a canonical record. The final newline may be
    missing; blank lines are refused. Parsing checks form only: call
    :func:`verify_log` to check links and signatures.
    """
    text = _as_text(data)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    records = []
    for number, line in enumerate(lines, start=1):
        try:
            records.append(Record.from_json_line(line))
        except RecordFormatError as error:
            raise RecordFormatError(number, error.reason) from None
    return records


def _check_record_in_log(
    position: int, record: object, expected_prev: str, public_key: Ed25519PublicKey
) -> None:
    if not isinstance(record, Record):
        raise RecordInvalid(position, f"not a record but a {type(record).__name__}")
    if record.seq != position:
        raise RecordInvalid(position, f"sequence number is {record.seq}, expected {position}")
    if record.prev != expected_prev:
        raise RecordInvalid(
            position, f"prev is {record.prev}, but the previous record's hash is {expected_prev}"
        )
    if _decode_signature(record.signature) is None:
        raise RecordInvalid(position, "signature is not canonical base64 of 64 bytes")
    if not signature_is_valid(record, public_key):
        raise RecordInvalid(position, "signature does not match the referee's public key")


def _decode_signature(text: str) -> bytes | None:
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(raw) != SIGNATURE_SIZE or base64.b64encode(raw).decode("ascii") != text:
        return None
    return raw


def _canonical(value: object) -> bytes:
    try:
        return canonical_json(value)
    except FairDiceError as error:
        raise RecordFormatError(None, str(error)) from None


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _as_text(data: str | bytes) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise RecordFormatError(line, f"not UTF-8 text (byte {error.start})") from None
