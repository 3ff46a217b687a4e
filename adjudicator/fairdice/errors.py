"""Exceptions raised by :mod:`adjudicator.fairdice`.

Every failure has its own class so that callers can react to exactly the
failure they expect; all of them derive from :class:`FairDiceError`, so a
command-line front end can catch that one class and show the message.

Messages are written for a referee or a player: they say what is wrong and,
where it helps, what to do. They never contain secret material.
"""

from __future__ import annotations

from adjudicator.errors import AdjudicatorError


class FairDiceError(AdjudicatorError):
    """Base class of every error raised by the fair-dice building blocks."""


class EncodingError(FairDiceError):
    """A value cannot be put into the canonical field encoding.

    Raised for unsupported field types (float, bool, None, ...), integers
    outside the signed 64-bit range, strings that are not valid Unicode,
    fields longer than 2**32 - 1 bytes, or a malformed encoding passed to
    the decoder.
    """


class NonCanonicalJson(FairDiceError):
    """A value cannot be written as canonical JSON.

    Raised for floats (including NaN and infinities), integers outside the
    range exactly representable in every JSON implementation, non-string
    object keys, invalid Unicode and types that JSON does not know.
    """


class ChainError(FairDiceError):
    """A seed chain is malformed or used outside its range.

    Raised for a bad seed length, a chain length or index out of range, or
    serialised chain data that does not hash to its recorded anchor.
    """


class InvalidDrawRequest(FairDiceError):
    """A die, uniform draw or shuffle was asked for with invalid arguments.

    Raised for a negative draw index, a non-integer turn, a non-string
    phase, an upper bound below 1, or a malformed batch key or seed.
    """


class KeyFileError(FairDiceError):
    """A referee key file cannot be read, written or understood."""


class KeyFileExists(KeyFileError):
    """Saving a key would overwrite an existing file and overwrite=False."""


class WrongPassphrase(KeyFileError):
    """The passphrase does not decrypt the referee key file."""


class PassphraseRequired(WrongPassphrase):
    """The key file is encrypted and no passphrase was given."""


class EmptyPassphrase(KeyFileError):
    """An empty passphrase was given to encrypt a key file.

    Pass ``None`` to store the key unencrypted instead (not recommended).
    """


class InvalidPublicKey(FairDiceError):
    """The text form of a public key is malformed."""


class InvalidFingerprint(FairDiceError):
    """A key fingerprint given to compare is not 32 hex digits."""


class RecordFormatError(FairDiceError):
    """A serialised record cannot be parsed or is not in canonical form.

    ``line`` is the 1-based line number in a JSON Lines export, or ``None``
    when a single record was being parsed.
    """

    def __init__(self, line: int | None, reason: str) -> None:
        self.line = line
        self.reason = reason
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"{where}{reason}")


class RecordInvalid(FairDiceError):
    """A record of the public log fails verification.

    ``seq`` is the position of the first bad record in the log (the index
    at which it was found, which is also the sequence number it should
    carry) and ``reason`` says why it was rejected.
    """

    def __init__(self, seq: int, reason: str) -> None:
        self.seq = seq
        self.reason = reason
        super().__init__(f"record {seq}: {reason}")


class InvalidDieValue(FairDiceError):
    """A value given to the dice statistics is not a face of the die."""
