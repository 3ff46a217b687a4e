"""Signed orders: a player who holds an Ed25519 key signs the canonical text of the
orders (what the receipt echoes) instead of writing a password."""

from __future__ import annotations

import base64

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.fairdice import public_key_from_text
from adjudicator.orders import OrderSet, parse_orders


def signed_bytes(orders: OrderSet) -> bytes:
    """What a signature covers: the orders in canonical form (no credentials)."""
    return orders.canonical_text().encode("utf-8")


def sign_orders(data: bytes | str, key: Ed25519PrivateKey, game: str) -> str:
    """The orders as written, with a ``signature:`` line for their canonical text."""
    orders = parse_orders(data, game)
    signature = base64.b64encode(key.sign(signed_bytes(orders))).decode("ascii")
    text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    return text.rstrip("\n") + f"\nsignature: {signature}\n"


def signature_matches(orders: OrderSet, public_key_text: str) -> bool:
    """Whether the orders' signature line is the given player's signature of them."""
    signature = orders.credentials.signature
    if not signature:
        return False
    try:
        public_key_from_text(public_key_text).verify(base64.b64decode(signature, validate=True),
                                                     signed_bytes(orders))
    except (InvalidSignature, ValueError):
        return False
    return True
