"""Building blocks of the verifiable dice protocol (see ``docs/dice.md``).

- :mod:`.encoding` -- canonical field encoding and canonical JSON;
- :mod:`.chain`    -- committed hash chains of seeds (referee and players);
- :mod:`.prf`      -- batch keys and the dice stream (dice, uniform draws, shuffles);
- :mod:`.keys`     -- the referee's Ed25519 key: files, text form, fingerprint;
- :mod:`.records`  -- the signed, hash-linked public record and its JSON Lines form;
- :mod:`.stats`    -- per-side dice statistics with a chi-square test;
- :mod:`.errors`   -- one exception class per failure, all under FairDiceError.

This package depends on nothing else in ``adjudicator`` (but the generic lazy
loading of :mod:`adjudicator.lazy`); the engine and the store call it.
"""

from adjudicator.lazy import exports

from .errors import (
    ChainError,
    EmptyPassphrase,
    EncodingError,
    FairDiceError,
    InvalidDieValue,
    InvalidDrawRequest,
    InvalidPublicKey,
    KeyFileError,
    KeyFileExists,
    NonCanonicalJson,
    PassphraseRequired,
    RecordFormatError,
    InvalidFingerprint,
    RecordInvalid,
    WrongPassphrase,
)

#: the other public names -> their module, imported on first use (reading a campaign's
#: records needs neither the key files nor the dice statistics)
_HOMES = {
    **dict.fromkeys(("CHAIN_DOMAIN", "MAX_CHAIN_LENGTH", "REFEREE", "SEED_SIZE", "ChainCommitment", "SeedChain",
                     "previous_seed", "verify_link", "verify_reveal_against_anchor"), "chain"),
    **dict.fromkeys(("canonical_json", "decode", "encode"), "encoding"),
    **dict.fromkeys(("fingerprint", "generate_keypair", "load_private_key", "public_key_bytes",
                     "public_key_from_text", "public_key_to_text", "read_fingerprint", "referee_fingerprint",
                     "save_private_key"), "keys"),
    **dict.fromkeys(("BATCH_DOMAIN", "DIE_DOMAIN", "UNIFORM_DOMAIN", "DiceStream", "batch_key",
                     "shuffle_draw_count"), "prf"),
    **dict.fromkeys(("GENESIS_PREV", "Record", "RecordLog", "records_from_jsonl", "records_to_jsonl", "sign_record",
                     "signature_is_valid", "signed_payload", "verify_log"), "records"),
    **dict.fromkeys(("DiceStats", "chi_square_sf", "dice_stats", "dice_stats_by_side"), "stats"),
}
__getattr__ = exports(__name__, _HOMES)

#: Version of the protocol described in docs/dice.md; every domain string
#: ends in this version.
PROTOCOL_VERSION = "v1"

__all__ = [
    "BATCH_DOMAIN",
    "CHAIN_DOMAIN",
    "DIE_DOMAIN",
    "GENESIS_PREV",
    "MAX_CHAIN_LENGTH",
    "PROTOCOL_VERSION",
    "REFEREE",
    "SEED_SIZE",
    "UNIFORM_DOMAIN",
    "ChainCommitment",
    "ChainError",
    "DiceStats",
    "DiceStream",
    "EmptyPassphrase",
    "EncodingError",
    "FairDiceError",
    "InvalidDieValue",
    "InvalidDrawRequest",
    "InvalidPublicKey",
    "KeyFileError",
    "KeyFileExists",
    "NonCanonicalJson",
    "PassphraseRequired",
    "Record",
    "RecordFormatError",
    "RecordInvalid",
    "RecordLog",
    "SeedChain",
    "WrongPassphrase",
    "batch_key",
    "canonical_json",
    "chi_square_sf",
    "decode",
    "dice_stats",
    "dice_stats_by_side",
    "encode",
    "fingerprint",
    "read_fingerprint",
    "referee_fingerprint",
    "InvalidFingerprint",
    "generate_keypair",
    "load_private_key",
    "previous_seed",
    "public_key_bytes",
    "public_key_from_text",
    "public_key_to_text",
    "records_from_jsonl",
    "records_to_jsonl",
    "save_private_key",
    "shuffle_draw_count",
    "sign_record",
    "signature_is_valid",
    "signed_payload",
    "verify_link",
    "verify_log",
    "verify_reveal_against_anchor",
]
