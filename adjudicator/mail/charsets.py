"""Turning the bytes of a mail part or header into text, whatever the label says.

Mail in the wild is often mislabelled: a Latin-1 body declared as UTF-8, an
unknown charset name, raw 8-bit bytes in a header.  :func:`decode_bytes` never
fails; it tries, in order:

1. the declared charset (when Python knows it as a text encoding);
2. UTF-8;
3. Windows-1252 (a superset of Latin-1 in practice, the most common mislabel);
4. the first of these that exists, replacing undecodable bytes with U+FFFD.

Whenever the declared charset was not the one that worked, a problem is
reported so that the caller can tell the sender.
"""

from __future__ import annotations

import codecs

#: Codecs Python offers under a charset-like name that are not charsets of
#: mail text; a label naming one of these is treated as unknown.
_NOT_MAIL_CHARSETS = frozenset(
    {
        "idna",
        "mbcs",
        "oem",
        "palmos",
        "punycode",
        "raw_unicode_escape",
        "undefined",
        "unicode_escape",
    }
)

_FALLBACKS = ("utf-8", "cp1252")


def known_charset(label: str | None) -> str | None:
    """Return Python's codec name for a mail charset label, or None if unknown."""
    if not label:
        return None
    label = label.strip().strip('"').lower()
    if label in ("", "unknown-8bit", "x-unknown"):
        return None
    try:
        info = codecs.lookup(label)
    except (LookupError, ValueError, TypeError):
        return None
    if info.name in _NOT_MAIL_CHARSETS:
        return None
    try:
        b"a".decode(info.name, "ignore")
    except Exception:  # noqa: BLE001 - LookupError for bytes-to-bytes codecs such as base64
        return None
    return info.name


def decode_bytes(data: bytes, declared: str | None) -> tuple[str, str | None]:
    """Decode ``data`` labelled with charset ``declared``; never raises.

    Returns ``(text, problem)`` where ``problem`` is None when the bytes were
    valid in the declared charset (or were plain ASCII / UTF-8 with no label),
    else a sentence describing what was done.
    """
    codec = known_charset(declared)
    candidates = ([codec] if codec else []) + [c for c in _FALLBACKS if c != codec]
    for candidate in candidates:
        try:
            text = data.decode(candidate)
        except (UnicodeDecodeError, LookupError):
            continue
        if has_surrogates(text):  # UTF-7 and UTF-16 can decode to lone surrogates: not text
            return without_surrogates(text), (
                f"text in {_label(declared)} holds characters that cannot exist (lone surrogates); "
                "they were replaced by U+FFFD")
        return text, _charset_problem(declared, codec, candidate)
    try:
        text = data.decode(codec or "utf-8", errors="replace")
    except Exception:  # noqa: BLE001 - a codec that fails even with replacement
        text = data.decode("utf-8", errors="replace")
    text = without_surrogates(text)
    return text, (f"text is not valid {_label(declared)}; undecodable bytes were replaced")


def _charset_problem(declared: str | None, codec: str | None, used: str) -> str | None:
    """Describe a decoding that did not go as the label said, or return None."""
    if codec == used:
        return None
    if declared is None or codec == "ascii":
        if used == "utf-8":
            return None  # unlabelled or "us-ascii" 8-bit text that is UTF-8: common, harmless
        return f"text is not valid {_label(declared)}; decoded as {used}"
    if codec is None:
        return f"unknown charset {declared!r}; decoded as {used}"
    return f"text is not valid {declared}; decoded as {used}"


def _label(declared: str | None) -> str:
    return declared if declared else "us-ascii"


def has_surrogates(text: str) -> bool:
    """Tell whether ``text`` holds surrogate-escaped bytes (undecoded 8-bit data)."""
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def without_surrogates(text: str) -> str:
    """``text`` with every surrogate code point replaced by U+FFFD (always valid UTF-8)."""
    return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)


def repair_surrogates(text: str) -> str:
    """Replace surrogate-escaped raw bytes in ``text`` by the characters they encode.

    The standard parser keeps 8-bit header bytes as lone surrogates; these are
    decoded as UTF-8 (RFC 6532), else Windows-1252.  The result is always valid
    Unicode text that can be encoded as UTF-8.
    """
    if not has_surrogates(text):
        return text
    if not _all_escapes(text):  # not from the parser: no bytes to recover
        return text.encode("utf-8", errors="surrogatepass").decode("utf-8", errors="replace")
    return decode_bytes(text.encode("utf-8", errors="surrogateescape"), "utf-8")[0]


def _all_escapes(text: str) -> bool:
    """Tell whether every surrogate in ``text`` is a surrogateescape (U+DC80..U+DCFF)."""
    return all(not ("\ud800" <= ch <= "\udfff") or "\udc80" <= ch <= "\udcff" for ch in text)
