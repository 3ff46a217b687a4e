"""The verifier in the browser: one static page (``verifier.html``: HTML and JavaScript,
with the browser's own WebCrypto for SHA-256, HMAC and Ed25519, and nothing loaded from
anywhere) that checks a public record's signatures, hash links, seeds, contributions and
every die, shuffle and card draw from its published address, written from docs/dice.md
alone. ``export --verifier`` writes it beside the record, with the record inside it, so
that opening the page verifies the record at once (another record can be chosen on it)."""

from __future__ import annotations

import base64
from pathlib import Path

PAGE = Path(__file__).resolve().parent / "verifier.html"
PAGE_NAME = "verify.html"  # what export writes beside the record, and every report names
_SLOT = '<script id="embedded-record" type="text/plain"></script>'


def verifier_page(record: str | bytes | None = None) -> str:
    """The page, with ``record`` (JSON Lines) inside it, base64-encoded so that no text of
    the record can end the script element that holds it."""
    page = PAGE.read_text(encoding="utf-8")
    if record is None:
        return page
    data = record.encode("utf-8") if isinstance(record, str) else record
    filled = _SLOT.replace("></script>", f">{base64.b64encode(data).decode('ascii')}</script>")
    return page.replace(_SLOT, filled, 1)
