"""Player passwords, stored only as salted hashes.

New hashes are Argon2id (cryptography's ``Argon2id``) at the OWASP minimum for
Argon2id: 19 MiB of memory, 2 passes, 1 lane. Hashes made by earlier versions (scrypt,
N = 2^14) are still accepted; :func:`check_password` then returns a new Argon2id hash
for the caller to store in place of the old one, so that each player's hash is upgraded
at their next successful check.
"""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass
from typing import Any, Mapping

from cryptography.exceptions import InvalidKey

ARGON2_MEMORY_KIB, ARGON2_PASSES, ARGON2_LANES = 19 * 1024, 2, 1  # OWASP Password Storage Cheat Sheet minimum
SALT_BYTES, LENGTH = 16, 32


@dataclass(frozen=True)
class PasswordCheck:
    """The outcome of a check: whether the password matched, and (when it did, over a
    hash weaker than today's) the new hash to store instead."""

    matches: bool
    upgraded: dict[str, Any] | None = None


def hash_password(password: str) -> dict[str, Any]:
    """A salted Argon2id hash of ``password``, as JSON-able data for the store's secrets."""
    salt = os.urandom(SALT_BYTES)
    digest = _argon2id(salt, ARGON2_MEMORY_KIB, ARGON2_PASSES, ARGON2_LANES).derive(password.encode("utf-8"))
    return {"scheme": "argon2id", "m": ARGON2_MEMORY_KIB, "t": ARGON2_PASSES, "p": ARGON2_LANES,
            "salt": _b64(salt), "hash": _b64(digest)}


def check_password(password: str, stored: Mapping[str, Any]) -> PasswordCheck:
    """Check ``password`` against ``stored`` (constant time); a match over an scrypt or
    weaker Argon2id hash comes with its upgrade."""
    if not password_matches(password, stored):
        return PasswordCheck(False)
    return PasswordCheck(True, hash_password(password) if needs_upgrade(stored) else None)


def password_matches(password: str, stored: Mapping[str, Any]) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (constant time)."""
    try:
        kdf = _kdf_for(stored)
        kdf.verify(password.encode("utf-8"), base64.b64decode(stored["hash"]))
    except (InvalidKey, KeyError, ValueError, TypeError):
        return False
    return True


def needs_upgrade(stored: Mapping[str, Any]) -> bool:
    """Whether ``stored`` is weaker than a hash made today (scrypt, or Argon2id below the minimum)."""
    if stored.get("scheme") != "argon2id":
        return True
    try:
        return (int(stored["m"]) < ARGON2_MEMORY_KIB or int(stored["t"]) < ARGON2_PASSES
                or int(stored["p"]) < ARGON2_LANES)
    except (KeyError, ValueError, TypeError):
        return True


def _kdf_for(stored: Mapping[str, Any]) -> Any:
    salt = base64.b64decode(stored["salt"])
    scheme = stored.get("scheme", "scrypt")
    if scheme == "argon2id":
        return _argon2id(salt, int(stored["m"]), int(stored["t"]), int(stored["p"]))
    if scheme == "scrypt":
        from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

        return Scrypt(salt=salt, length=LENGTH, n=int(stored["n"]), r=int(stored["r"]), p=int(stored["p"]))
    raise ValueError(f"unknown password hash scheme {scheme!r}")


def _argon2id(salt: bytes, memory_kib: int, passes: int, lanes: int) -> Any:
    from cryptography.hazmat.primitives.kdf.argon2 import Argon2id

    return Argon2id(salt=salt, length=LENGTH, iterations=passes, lanes=lanes, memory_cost=memory_kib)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()
