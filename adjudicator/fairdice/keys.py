"""The referee's Ed25519 signing key: creation, storage, exchange.

The private key is stored as PEM (PKCS#8), encrypted with the best
available scheme when a passphrase is given. The file is created with
mode 0600 from the very first byte, never widened afterwards.

The public key travels as text, ``"ed25519:" + base64(raw 32 bytes)``, and
players compare its :func:`fingerprint` with the referee out of band (by
phone, in person, on a forum post) before trusting any signed record.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .errors import (
    EmptyPassphrase,
    FairDiceError,
    InvalidFingerprint,
    InvalidPublicKey,
    KeyFileError,
    KeyFileExists,
    PassphraseRequired,
    WrongPassphrase,
)

PUBLIC_KEY_PREFIX = "ed25519:"
PUBLIC_KEY_SIZE = 32
PRIVATE_KEY_FILE_MODE = 0o600
FINGERPRINT_BYTES = 16

_PEM_BLOCK = re.compile(
    rb"-----BEGIN ([A-Z ]+)-----\r?\n([A-Za-z0-9+/=\r\n]+?)-----END \1-----", re.DOTALL
)
#: the DER of an unencrypted Ed25519 private key in PKCS#8 (RFC 8410, section 7) before
#: its 32-byte seed: SEQUENCE { version 0, AlgorithmIdentifier { 1.3.101.112 },
#: OCTET STRING { OCTET STRING seed } }, as :func:`save_private_key` writes it
_PLAIN_PKCS8_ED25519 = bytes.fromhex("302e020100300506032b657004220420")


def generate_keypair() -> tuple[Ed25519PrivateKey, Ed25519PublicKey]:
    """A fresh referee key pair ``(private_key, public_key)``."""
    private_key = Ed25519PrivateKey.generate()
    return private_key, private_key.public_key()


def save_private_key(
    path: str | os.PathLike[str],
    key: Ed25519PrivateKey,
    passphrase: str | None,
    *,
    overwrite: bool = False,
) -> None:
    """Write ``key`` to ``path`` as PEM PKCS#8, mode 0600.

    With a passphrase the key is encrypted (``BestAvailableEncryption``);
    with ``None`` it is stored in clear. An existing file is refused with
    :class:`KeyFileExists` unless ``overwrite=True``, in which case the new
    file is written beside it and renamed over it atomically.
    """
    pem = _private_pem(key, passphrase)
    target = Path(path)
    if overwrite:
        _replace_private_file(target, pem)
    else:
        _create_private_file(target, pem)


def load_private_key(path: str | os.PathLike[str], passphrase: str | None) -> Ed25519PrivateKey:
    """Read a referee key written by :func:`save_private_key`.

    Raises :class:`WrongPassphrase` (or its subclass
    :class:`PassphraseRequired`) when the passphrase does not open the
    file, and :class:`KeyFileError` when the file is missing, unreadable,
    damaged or holds something other than an Ed25519 private key.
    """
    target = Path(path)
    try:
        data = target.read_bytes()
    except OSError as error:
        raise KeyFileError(f"cannot read key file {target}: {error.strerror or error}") from None
    label = _pem_label(data, target)
    encrypted = label == b"ENCRYPTED PRIVATE KEY"
    if encrypted and passphrase is None:
        raise PassphraseRequired(f"key file {target} is encrypted: a passphrase is required")
    if not encrypted and passphrase is not None:
        raise KeyFileError(f"key file {target} is not encrypted, but a passphrase was given")
    plain = None if encrypted else _plain_ed25519(data)
    if plain is not None:
        return plain
    from cryptography.hazmat.primitives import serialization

    password = _passphrase_bytes(passphrase) if passphrase is not None else None
    try:
        key = serialization.load_pem_private_key(data, password=password)
    except (ValueError, TypeError):
        if encrypted:
            raise WrongPassphrase(
                f"wrong passphrase for key file {target} (or the file is damaged)"
            ) from None
        raise KeyFileError(f"key file {target} is damaged or not a private key") from None
    except Exception:  # any other failure inside the crypto backend
        raise KeyFileError(f"key file {target} could not be loaded") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"key file {target} holds a {type(key).__name__}, not an Ed25519 key")
    return key


def _plain_ed25519(data: bytes) -> Ed25519PrivateKey | None:
    """The key of an unencrypted PEM file in exactly the form :func:`save_private_key`
    writes, read without the serialization module (a third of a cold command's key
    loading); None for any other form, which the serialization module then reads."""
    block = _PEM_BLOCK.search(data)
    try:
        der = base64.b64decode(block.group(2), validate=False) if block else b""
    except (binascii.Error, ValueError):
        return None
    if len(der) != len(_PLAIN_PKCS8_ED25519) + 32 or not der.startswith(_PLAIN_PKCS8_ED25519):
        return None
    return Ed25519PrivateKey.from_private_bytes(der[len(_PLAIN_PKCS8_ED25519):])


def public_key_to_text(public_key: Ed25519PublicKey) -> str:
    """``"ed25519:"`` followed by the standard base64 of the raw 32-byte key."""
    return PUBLIC_KEY_PREFIX + base64.b64encode(public_key_bytes(public_key)).decode("ascii")


def public_key_from_text(text: str) -> Ed25519PublicKey:
    """Inverse of :func:`public_key_to_text` (surrounding whitespace allowed)."""
    if not isinstance(text, str):
        raise InvalidPublicKey("a public key must be given as text")
    stripped = text.strip()
    if not stripped.startswith(PUBLIC_KEY_PREFIX):
        raise InvalidPublicKey(f"a public key must start with {PUBLIC_KEY_PREFIX!r}")
    encoded = stripped[len(PUBLIC_KEY_PREFIX):]
    try:
        raw = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidPublicKey("the public key is not valid base64") from None
    if len(raw) != PUBLIC_KEY_SIZE or base64.b64encode(raw).decode("ascii") != encoded:
        raise InvalidPublicKey(f"the public key must be exactly {PUBLIC_KEY_SIZE} bytes")
    return Ed25519PublicKey.from_public_bytes(raw)


def public_key_bytes(public_key: Ed25519PublicKey) -> bytes:
    """The raw 32 bytes of an Ed25519 public key."""
    return public_key.public_bytes_raw()


def fingerprint(public_key: Ed25519PublicKey) -> str:
    """First 16 bytes of SHA-256 of the raw key, as 8 groups of 4 hex digits.

    For example ``"3f2a 91c0 5b7e 0d44 a1b2 c3d4 e5f6 0718"``; short enough
    to read aloud, long enough that no one can forge a key that matches.
    """
    digest = hashlib.sha256(public_key_bytes(public_key)).digest()[:FINGERPRINT_BYTES]
    hex_digits = digest.hex()
    return " ".join(hex_digits[i : i + 4] for i in range(0, len(hex_digits), 4))


def referee_fingerprint(charter: Mapping[str, Any]) -> str | None:
    """The fingerprint of the referee key a campaign's (or a tournament's) charter names
    in ``referee_key``, for a player to compare with the one the referee gave out of
    band; None when the charter names no key that can be read."""
    try:
        return fingerprint(public_key_from_text(charter["referee_key"]))
    except (KeyError, FairDiceError, ValueError):
        return None


def read_fingerprint(text: str) -> str:
    """A fingerprint as a person types it (any case, spaces or none, colons) in the
    form :func:`fingerprint` prints; InvalidFingerprint when it is not 32 hex digits."""
    digits = "".join(ch for ch in text.lower() if ch not in " :-\t")
    if len(digits) != 2 * FINGERPRINT_BYTES or any(ch not in "0123456789abcdef" for ch in digits):
        raise InvalidFingerprint(f"the fingerprint {text!r} is not 32 hex digits "
                                 "(copy it as the referee gave it, e.g. '24f6 ed6a cbfe 1009 c030 d7ca 567c 33ca')")
    return " ".join(digits[i: i + 4] for i in range(0, len(digits), 4))


def _private_pem(key: Ed25519PrivateKey, passphrase: str | None) -> bytes:
    from cryptography.hazmat.primitives import serialization

    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"only Ed25519 private keys are stored, not {type(key).__name__}")
    if passphrase is None:
        encryption: serialization.KeySerializationEncryption = serialization.NoEncryption()
    elif passphrase == "":
        raise EmptyPassphrase("an empty passphrase cannot encrypt a key; use None for no encryption")
    else:
        encryption = serialization.BestAvailableEncryption(_passphrase_bytes(passphrase))
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption
    )


def _passphrase_bytes(passphrase: str) -> bytes:
    try:
        return passphrase.encode("utf-8")
    except UnicodeEncodeError:
        raise KeyFileError("the passphrase contains characters that are not valid Unicode") from None


def _create_private_file(target: Path, pem: bytes) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(target, flags, PRIVATE_KEY_FILE_MODE)
    except FileExistsError:
        raise KeyFileExists(f"key file {target} already exists; refusing to overwrite it") from None
    except OSError as error:
        raise KeyFileError(f"cannot create key file {target}: {error.strerror or error}") from None
    try:
        _write_all(descriptor, pem)
    except OSError as error:
        os.close(descriptor)
        target.unlink(missing_ok=True)
        raise KeyFileError(f"cannot write key file {target}: {error.strerror or error}") from None
    os.close(descriptor)


def _replace_private_file(target: Path, pem: bytes) -> None:
    from adjudicator.files import write_atomically

    try:
        write_atomically(target, pem, durable=True, mode=PRIVATE_KEY_FILE_MODE)
    except OSError as error:
        raise KeyFileError(f"cannot write key file {target}: {error.strerror or error}") from None


def _write_all(descriptor: int, data: bytes) -> None:
    os.fchmod(descriptor, PRIVATE_KEY_FILE_MODE)  # exactly 0600, whatever the umask
    view = memoryview(data)
    while view:
        written = os.write(descriptor, view)
        view = view[written:]
    os.fsync(descriptor)


def _pem_label(data: bytes, target: Path) -> bytes:
    match = _PEM_BLOCK.search(data)
    if match is None:
        raise KeyFileError(f"key file {target} is not a PEM private key file")
    label = match.group(1)
    if label not in (b"PRIVATE KEY", b"ENCRYPTED PRIVATE KEY"):
        raise KeyFileError(
            f"key file {target} holds a {label.decode('ascii')!r} block, not a PKCS#8 private key"
        )
    return label
