"""Reading header values of received mail robustly.

Headers are read from the raw values the parser kept (never from its lazy,
occasionally raising, structured objects), then:

* unfolded (line breaks removed) and cleaned of raw 8-bit bytes
  (:func:`~.charsets.repair_surrogates`);
* decoded (RFC 2047 encoded words, RFC 6532 UTF-8) with the standard header
  registry, falling back to the cleaned raw text if that fails.

Every function here returns a value or None and never raises.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from email import errors, policy, utils
from email.message import EmailMessage, Message
from typing import Any

from .charsets import repair_surrogates

_FOLD = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_ANGLE_ID = re.compile(r"<([^<>]*)>")
_SPACE = re.compile(r"\s+")

#: Longest message id kept (the longest line RFC 5322 allows); longer ones are ignored.
MAX_MESSAGE_ID_LENGTH = 998


class ParsedOnce(EmailMessage):
    """A message read from bytes whose structured header values are each parsed once,
    on first use (``message["To"]``, ``get_content_type()``): the standard library
    parses a header again on every read. What a read returns is what
    :class:`~email.message.EmailMessage` returns; a header changed since is parsed
    again."""

    def get(self, name: str, failobj: Any = None) -> Any:
        wanted = name.lower()
        for key, value in self._headers:
            if key.lower() == wanted:
                parsed = self.__dict__.setdefault("_parsed", {})
                kept = parsed.get(wanted)
                if kept is not None and kept[0] is key and kept[1] is value:
                    return kept[2]
                header = self.policy.header_fetch_parse(key, value)
                parsed[wanted] = (key, value, header)
                return header
        return failobj


def raw_values(message: Message, name: str) -> list[str]:
    """Return every raw value of header ``name`` (case-insensitive), cleaned."""
    wanted = name.lower()
    values = []
    try:
        for key, value in message.raw_items():
            if isinstance(key, str) and key.lower() == wanted:
                values.append(clean_raw(value))
    except Exception:  # noqa: BLE001 - a damaged header list is simply unreadable
        return []
    return values


def raw_value(message: Message, name: str) -> str | None:
    """Return the first raw value of header ``name``, cleaned, or None."""
    values = raw_values(message, name)
    return values[0] if values else None


def clean_raw(value: object) -> str:
    """Unfold a raw header value and make it valid, printable Unicode."""
    text = value if isinstance(value, str) else str(value)
    text = repair_surrogates(text)
    text = _FOLD.sub("", text)  # unfolding removes the line break, keeps the white space
    return _CONTROL.sub(" ", text).strip()


def decode_text(name: str, raw: str | None) -> tuple[str, list[str]]:
    """Decode an unstructured header (such as Subject); return (text, problems)."""
    if raw is None:
        return "", []
    try:
        header = policy.default.header_factory(name, raw)
        text = clean_raw(str(header))
        problems = [f"{name} header: {defect}" for defect in header.defects if str(defect)]
        return text, problems
    except Exception as exc:  # noqa: BLE001
        return raw, [f"{name} header could not be decoded ({type(exc).__name__})"]


def parse_address(name: str, raw: str | None) -> tuple[str | None, str, list[str]]:
    """Parse an address header; return (addr_spec or None, display name, problems).

    Only the first address is used.  The domain is lower-cased (domains are
    case-insensitive); the local part is kept as written.
    """
    if raw is None:
        return None, "", []
    try:
        header = policy.default.header_factory(name, raw)
        addresses = header.addresses
    except Exception as exc:  # noqa: BLE001
        return (
            _fallback_address(raw),
            "",
            [f"{name} header could not be parsed ({type(exc).__name__})"],
        )
    if not addresses:
        return _fallback_address(raw), "", [f"{name} header holds no address"]
    first = addresses[0]
    addr = _join_addr(clean_raw(first.username), clean_raw(first.domain))
    return addr, clean_raw(first.display_name), []


#: What a reply may be sent to: a plain ``local@domain`` (dot-atom local part, a
#: domain of letters, digits and hyphens with at least one dot), at most 254 characters.
_PLAIN_ADDRESS = re.compile(
    r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}"
)
MAX_ADDRESS_LENGTH = 254


def plain_address(raw: str | None) -> str | None:
    """The one plain address of a From header that a reply may go to, else None.

    None for group syntax (``team: a@b, c@d;``), more than one address, any parsing
    defect, a quoted or non-ASCII local part, a domain without a dot, or more than
    254 characters: a crafted From never picks where the referee's mail goes.
    """
    if raw is None:
        return None
    try:
        header = policy.default.header_factory("From", raw)
        groups, addresses, defects = header.groups, header.addresses, header.defects
    except Exception:  # noqa: BLE001 - unparseable: no reply
        return None
    if ([d for d in defects if not _harmless(d)] or len(addresses) != 1 or len(groups) != 1
            or groups[0].display_name is not None):
        return None
    address = addresses[0].addr_spec
    if len(address) > MAX_ADDRESS_LENGTH or not _PLAIN_ADDRESS.fullmatch(address):
        return None
    local, _, domain = address.rpartition("@")
    return f"{local}@{domain.lower()}"


def _harmless(defect: Exception) -> bool:
    """A defect that does not touch the address: an unquoted period in the display name
    (``Adm. Togo <togo@example.org>``), the obsolete syntax RFC 5322 still reads
    ("obs-phrase"), which mail programs write."""
    return isinstance(defect, errors.ObsoleteHeaderDefect) and str(defect) == "period in 'phrase'"


def _join_addr(local: str, domain: str) -> str | None:
    if not local:
        return None
    return f"{local}@{domain.lower()}" if domain else local


def _fallback_address(raw: str) -> str | None:
    """Take the text between angle brackets, or a lone word with an @, if any."""
    match = _ANGLE_ID.search(raw)
    candidate = match.group(1).strip() if match else raw.strip()
    if "@" not in candidate or _SPACE.search(candidate):
        return None
    local, _, domain = candidate.rpartition("@")
    return _join_addr(local, domain)


def message_ids(raw: str | None) -> tuple[str, ...]:
    """Return the normalised message ids in a Message-ID/In-Reply-To/References value.

    A normalised id is ``<left@right>``: angle brackets kept, white space and
    comments removed.  A value without brackets counts as one id per word.
    Empty ids and ids longer than :data:`MAX_MESSAGE_ID_LENGTH` are left out.
    """
    if raw is None:
        return ()
    found = _ANGLE_ID.findall(raw)
    if not found:
        found = [word for word in raw.split() if "@" in word] or raw.split()[:1]
    ids = []
    for item in found:
        compact = _SPACE.sub("", item).strip("<>")
        if compact and len(compact) + 2 <= MAX_MESSAGE_ID_LENGTH:
            ids.append(f"<{compact}>")
    return tuple(ids)


def message_id(raw: str | None) -> str | None:
    """Return the normalised first message id in a header value, or None."""
    ids = message_ids(raw)
    return ids[0] if ids else None


def parse_date(raw: str | None) -> datetime | None:
    """Parse a Date header into an aware datetime (UTC when the zone is unknown)."""
    if not raw:
        return None
    try:
        value = utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value
