"""Player passwords, stored only as salted scrypt hashes (cryptography's Scrypt)."""

from __future__ import annotations

import base64
import os
from typing import Any, Mapping

from cryptography.exceptions import InvalidKey
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

# Interactive-login parameters (RFC 7914 suggests N = 2^14 for interactive use).
SCRYPT_N, SCRYPT_R, SCRYPT_P, LENGTH = 2**14, 8, 1, 32


def _kdf(salt: bytes, n: int, r: int, p: int) -> Scrypt:
    return Scrypt(salt=salt, length=LENGTH, n=n, r=r, p=p)


def hash_password(password: str) -> dict[str, Any]:
    """A salted scrypt hash of ``password``, as JSON-able data for the store's secrets."""
    salt = os.urandom(16)
    digest = _kdf(salt, SCRYPT_N, SCRYPT_R, SCRYPT_P).derive(password.encode("utf-8"))
    return {"scheme": "scrypt", "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P,
            "salt": base64.b64encode(salt).decode(), "hash": base64.b64encode(digest).decode()}


def password_matches(password: str, stored: Mapping[str, Any]) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (constant time)."""
    try:
        kdf = _kdf(base64.b64decode(stored["salt"]), int(stored["n"]), int(stored["r"]), int(stored["p"]))
        kdf.verify(password.encode("utf-8"), base64.b64decode(stored["hash"]))
    except (InvalidKey, KeyError, ValueError, TypeError):
        return False
    return True

