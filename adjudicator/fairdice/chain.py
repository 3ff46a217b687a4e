"""Hash chains of seeds: the referee's (and, in sealed mode, each player's).

A chain owner draws a secret 32-byte seed ``s_n`` and derives, for
``i = n, n-1, ..., 1``::

    s_{i-1} = SHA-256(encode(b"adjudicator/chain/v1",
                             campaign_id, owner, generation, i, s_i))

``s_0``, the *anchor*, is published (signed) at the start. Later the owner
reveals ``s_1``, ``s_2``, ... one at a time; anyone checks a revealed
``s_k`` by hashing it back to ``s_{k-1}`` (or all the way to the anchor).
Because SHA-256 cannot be inverted, nobody -- the owner included -- can
produce a different ``s_k`` that still links, and nobody but the owner can
foresee ``s_k`` before it is revealed.

``owner`` is ``"referee"`` for the referee's chain and the side's name for
a player's chain in sealed mode. ``generation`` numbers the chains of one
owner in one campaign: when a chain runs out the owner makes its
:meth:`SeedChain.successor` (generation + 1) and publishes the new anchor
in a new signed record; the generation in the encoding keeps values of one
generation from ever being valid in another.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .encoding import encode, encode_field
from .errors import ChainError

CHAIN_DOMAIN = b"adjudicator/chain/v1"
SEED_SIZE = 32
REFEREE = "referee"
#: Upper bound on chain length and on a verified index, so that a hostile
#: record cannot make a verifier hash for ever.
MAX_CHAIN_LENGTH = 1_000_000

RandomBytes = Callable[[int], bytes]


def previous_seed(campaign_id: str, owner: str, generation: int, index: int, seed: bytes) -> bytes:
    """Return ``s_{index-1}`` computed from ``s_index`` (one chain step)."""
    _check_identity(campaign_id, owner, generation)
    _check_index(index)
    _check_seed(seed, "seed")
    return hashlib.sha256(encode(CHAIN_DOMAIN, campaign_id, owner, generation, index, seed)).digest()


def _chain_step(campaign_id: str, owner: str, generation: int) -> Callable[[int, bytes], bytes]:
    """:func:`previous_seed` for one chain, its fixed fields encoded once (identity and
    seeds already checked by the caller): a whole chain is built or checked at once."""
    fixed = encode(CHAIN_DOMAIN, campaign_id, owner, generation)

    def step(index: int, seed: bytes) -> bytes:
        return hashlib.sha256(fixed + encode_field(index) + encode_field(seed)).digest()

    return step


def verify_link(
    campaign_id: str,
    k: int,
    s_k: bytes,
    s_prev: bytes,
    *,
    owner: str = REFEREE,
    generation: int = 0,
) -> bool:
    """True when the revealed ``s_k`` hashes to the known ``s_{k-1}``.

    Seeds of the wrong size simply do not verify; a ``k`` below 1 or above
    :data:`MAX_CHAIN_LENGTH` raises :class:`ChainError`.
    """
    _check_index(k)
    if not (_is_seed(s_k) and _is_seed(s_prev)):
        return False
    expected = previous_seed(campaign_id, owner, generation, k, s_k)
    return hmac.compare_digest(expected, s_prev)


def verify_reveal_against_anchor(
    campaign_id: str,
    anchor: bytes,
    k: int,
    s_k: bytes,
    *,
    owner: str = REFEREE,
    generation: int = 0,
) -> bool:
    """True when hashing ``s_k`` back ``k`` times gives the published anchor."""
    _check_index(k)
    if not (_is_seed(s_k) and _is_seed(anchor)):
        return False
    seed = s_k
    for index in range(k, 0, -1):
        seed = previous_seed(campaign_id, owner, generation, index, seed)
    return hmac.compare_digest(seed, anchor)


@dataclass(frozen=True)
class ChainCommitment:
    """The public part of a seed chain, as published in a signed record."""

    campaign_id: str
    owner: str
    generation: int
    length: int
    anchor: bytes

    def __post_init__(self) -> None:
        _check_identity(self.campaign_id, self.owner, self.generation)
        _check_length(self.length)
        _check_seed(self.anchor, "anchor")

    def verify_reveal(self, k: int, s_k: bytes) -> bool:
        """True when ``s_k`` is the chain's value at index ``k`` (1..length)."""
        if not 1 <= k <= self.length:
            return False
        return verify_reveal_against_anchor(
            self.campaign_id, self.anchor, k, s_k, owner=self.owner, generation=self.generation
        )

    def verify_link(self, k: int, s_k: bytes, s_prev: bytes) -> bool:
        """True when ``s_k`` links to the already trusted ``s_{k-1}``."""
        if not 1 <= k <= self.length:
            return False
        return verify_link(
            self.campaign_id, k, s_k, s_prev, owner=self.owner, generation=self.generation
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict for a public record (no secret in it)."""
        return {
            "algorithm": CHAIN_DOMAIN.decode("ascii"),
            "campaign_id": self.campaign_id,
            "owner": self.owner,
            "generation": self.generation,
            "length": self.length,
            "anchor": self.anchor.hex(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChainCommitment:
        """Inverse of :meth:`to_dict`; raises :class:`ChainError` if malformed."""
        _expect_algorithm(data)
        return cls(
            campaign_id=_get(data, "campaign_id", str),
            owner=_get(data, "owner", str),
            generation=_get(data, "generation", int),
            length=_get(data, "length", int),
            anchor=_hex_seed(_get(data, "anchor", str), "anchor"),
        )


@dataclass(frozen=True)
class SeedChain:
    """A whole seed chain, secret values included. Keep it secret.

    ``seeds[i]`` is ``s_i``; ``seeds[0]`` is the public anchor and
    ``seeds[-1]`` the secret final seed. The seeds are left out of
    ``repr`` so that a chain never ends up in a log by accident.
    """

    campaign_id: str
    owner: str
    generation: int
    seeds: tuple[bytes, ...] = field(repr=False)

    def __post_init__(self) -> None:
        _check_identity(self.campaign_id, self.owner, self.generation)
        _check_length(len(self.seeds) - 1)
        for index, seed in enumerate(self.seeds):
            _check_seed(seed, f"seed {index}")
        step = _chain_step(self.campaign_id, self.owner, self.generation)
        for index in range(len(self.seeds) - 1, 0, -1):
            if step(index, self.seeds[index]) != self.seeds[index - 1]:
                raise ChainError(f"seed {index} does not hash to seed {index - 1}")

    @classmethod
    def generate(
        cls,
        campaign_id: str,
        length: int,
        *,
        owner: str = REFEREE,
        generation: int = 0,
        rng: RandomBytes = os.urandom,
    ) -> SeedChain:
        """Draw a fresh final seed from ``rng`` and build the chain."""
        _check_length(length)
        final_seed = rng(SEED_SIZE)
        _check_seed(final_seed, "random seed from rng")
        return cls.from_final_seed(
            campaign_id, length, final_seed, owner=owner, generation=generation
        )

    @classmethod
    def from_final_seed(
        cls,
        campaign_id: str,
        length: int,
        final_seed: bytes,
        *,
        owner: str = REFEREE,
        generation: int = 0,
    ) -> SeedChain:
        """Build the chain whose secret final seed ``s_length`` is given."""
        _check_identity(campaign_id, owner, generation)
        _check_length(length)
        _check_seed(final_seed, "final seed")
        seeds = [final_seed]
        step = _chain_step(campaign_id, owner, generation)
        for index in range(length, 0, -1):
            seeds.append(step(index, seeds[-1]))
        seeds.reverse()
        return cls(campaign_id, owner, generation, tuple(seeds))

    @property
    def length(self) -> int:
        """How many seeds can be revealed (``s_1`` .. ``s_length``)."""
        return len(self.seeds) - 1

    @property
    def anchor(self) -> bytes:
        """The public anchor ``s_0``."""
        return self.seeds[0]

    def reveal(self, k: int) -> bytes:
        """Return ``s_k`` for ``1 <= k <= length`` (to be published now)."""
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= self.length:
            raise ChainError(f"index {k!r} is outside 1..{self.length} of this chain")
        return self.seeds[k]

    def commitment(self) -> ChainCommitment:
        """The public part of this chain, to publish in a signed record."""
        return ChainCommitment(
            self.campaign_id, self.owner, self.generation, self.length, self.anchor
        )

    def successor(self, length: int, *, rng: RandomBytes = os.urandom) -> SeedChain:
        """A fresh chain of the next generation, for when this one runs out."""
        return SeedChain.generate(
            self.campaign_id, length, owner=self.owner, generation=self.generation + 1, rng=rng
        )

    def public_dict(self) -> dict[str, Any]:
        """The public part as a JSON-able dict (same as the commitment's)."""
        return self.commitment().to_dict()

    def to_secret_dict(self) -> dict[str, Any]:
        """A JSON-able dict holding the SECRET final seed, for private storage."""
        return {**self.public_dict(), "final_seed": self.seeds[-1].hex()}

    @classmethod
    def from_secret_dict(cls, data: Mapping[str, Any]) -> SeedChain:
        """Inverse of :meth:`to_secret_dict`; checks the stored anchor."""
        commitment = ChainCommitment.from_dict(data)
        chain = cls.from_final_seed(
            commitment.campaign_id,
            commitment.length,
            _hex_seed(_get(data, "final_seed", str), "final_seed"),
            owner=commitment.owner,
            generation=commitment.generation,
        )
        if chain.commitment() != commitment:
            raise ChainError("stored final seed does not hash to the stored anchor")
        return chain


def _is_seed(value: object) -> bool:
    return isinstance(value, bytes) and len(value) == SEED_SIZE


def _check_seed(value: object, what: str) -> None:
    if not _is_seed(value):
        raise ChainError(f"{what} must be {SEED_SIZE} bytes")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_identity(campaign_id: object, owner: object, generation: object) -> None:
    if not isinstance(campaign_id, str) or not campaign_id:
        raise ChainError("campaign_id must be a non-empty string")
    if not isinstance(owner, str) or not owner:
        raise ChainError("owner must be a non-empty string")
    if not _is_int(generation) or generation < 0:
        raise ChainError(f"generation must be an integer >= 0, not {generation!r}")


def _check_length(length: object) -> None:
    if not _is_int(length) or not 1 <= length <= MAX_CHAIN_LENGTH:
        raise ChainError(f"chain length must be an integer in 1..{MAX_CHAIN_LENGTH}, not {length!r}")


def _check_index(index: object) -> None:
    if not _is_int(index) or not 1 <= index <= MAX_CHAIN_LENGTH:
        raise ChainError(f"chain index must be an integer in 1..{MAX_CHAIN_LENGTH}, not {index!r}")


def _expect_algorithm(data: Mapping[str, Any]) -> None:
    algorithm = data.get("algorithm") if isinstance(data, Mapping) else None
    if algorithm != CHAIN_DOMAIN.decode("ascii"):
        raise ChainError(f"unsupported chain algorithm {algorithm!r}")


def _get(data: Mapping[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ChainError(f"chain data: {key!r} must be a {kind.__name__}")
    return value


def _hex_seed(text: str, what: str) -> bytes:
    if len(text) != 2 * SEED_SIZE or text != text.lower():
        raise ChainError(f"{what} must be {2 * SEED_SIZE} lowercase hex digits")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise ChainError(f"{what} must be {2 * SEED_SIZE} lowercase hex digits") from None
