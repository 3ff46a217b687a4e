"""Signed orders: a player who holds an Ed25519 key signs the canonical text of the
orders (what the receipt echoes) instead of writing a password.

The signature line carries the time the orders were signed, so that an old signed
text cannot be sent again over newer orders (a replay): ``signature: TIME.SIG``,
where TIME is ISO 8601 UTC to the second (``2026-12-02T10:14:00Z``) and SIG the
base64 Ed25519 signature of the canonical orders followed by ``signed: TIME``.
"""

from __future__ import annotations

import base64
import re
from datetime import datetime, timezone

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.fairdice import public_key_from_text
from adjudicator.orders import OrderSet, parse_orders

_SIGNED = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)\.([A-Za-z0-9+/=]+)$")


def signed_bytes(orders: OrderSet, signed_at: str) -> bytes:
    """What a signature covers: the orders in canonical form (no credentials) and the
    time of signing."""
    return (orders.canonical_text() + f"signed: {signed_at}\n").encode("utf-8")


def sign_orders(data: bytes | str, key: Ed25519PrivateKey, game: str,
                now: datetime | None = None) -> str:
    """The orders as written, with a ``signature:`` line for their canonical text and
    the time of signing (now, unless ``now`` is given)."""
    orders = parse_orders(data, game)
    signed_at = (now or datetime.now(timezone.utc)).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    signature = base64.b64encode(key.sign(signed_bytes(orders, signed_at))).decode("ascii")
    text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    return text.rstrip("\n") + f"\nsignature: {signed_at}.{signature}\n"


def signed_time(orders: OrderSet) -> str | None:
    """The signing time a signature line carries (ISO 8601, UTC), or None."""
    found = _SIGNED.match(orders.credentials.signature or "")
    if found is None:
        return None
    try:
        datetime.strptime(found.group(1), "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return None
    return found.group(1).replace("Z", "+00:00")


def signature_matches(orders: OrderSet, public_key_text: str) -> bool:
    """Whether the orders' signature line is the given player's signature of them (and
    of the signing time it carries)."""
    found = _SIGNED.match(orders.credentials.signature or "")
    if found is None or signed_time(orders) is None:
        return False
    try:
        public_key_from_text(public_key_text).verify(base64.b64decode(found.group(2), validate=True),
                                                     signed_bytes(orders, found.group(1)))
    except (InvalidSignature, ValueError):
        return False
    return True
