"""Dice from a keyed pseudo-random function (HMAC-SHA256).

Batch ``k`` of a campaign is keyed by::

    batch_key = HMAC-SHA256(key = s_k (the referee's revealed seed),
                            msg = encode(b"adjudicator/batch/v1", campaign_id, k,
                                         ((side, contribution), ...)))

where the ``(side, contribution)`` pairs -- player entropy lines and, in
sealed mode, the players' revealed chain values -- are sorted by side.

Every draw of the batch reads a *byte stream* named by what is drawn::

    block(c) = HMAC-SHA256(batch_key, encode(domain, campaign_id, k, fields..., c))
    stream   = block(0) || block(1) || block(2) || ...

* a die (``b"adjudicator/die/v1"``, fields ``turn, phase, draw_index``)
  takes the first byte ``b < 252`` of its stream and is ``b % 6 + 1``;
* a uniform integer below ``n`` (``b"adjudicator/uniform/v1"``, fields
  ``turn, phase, draw_index, n``) reads the stream in ``w``-byte big-endian
  chunks, ``w`` the fewest bytes with ``256**w >= n``, and takes the first
  chunk ``v < 256**w - (256**w mod n)`` as ``v % n``;
* a shuffle is Fisher-Yates from the end, step ``s`` using a uniform draw
  at ``draw_index_start + s``.

Rejection makes every outcome exactly equally likely; taking ``% 6`` of an
unrejected byte would favour faces 1..4.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count
from typing import TypeVar

from .encoding import INT_MAX, INT_MIN, TAG_INT, encode
from .errors import InvalidDrawRequest

BATCH_DOMAIN = b"adjudicator/batch/v1"
DIE_DOMAIN = b"adjudicator/die/v1"
UNIFORM_DOMAIN = b"adjudicator/uniform/v1"
KEY_SIZE = 32
DIE_FACES = 6
#: Bytes at or above this value are rejected: 252 = 42 * 6.
DIE_REJECT_THRESHOLD = 252

T = TypeVar("T")

#: An integer element of the field encoding: tag, length 8, the value (see :mod:`.encoding`).
_INT_ELEMENT = struct.Struct(">BIq")


def batch_key(
    campaign_id: str,
    batch: int,
    referee_seed: bytes,
    contributions: Mapping[str, bytes],
) -> bytes:
    """Derive the 32-byte key of dice batch ``batch``.

    ``referee_seed`` is the referee's revealed chain value for the batch;
    ``contributions`` maps each side to the bytes it contributed (an
    entropy line's UTF-8 text, a sealed-mode chain value, ...). Sides with
    nothing to contribute are simply absent. Pairs are encoded sorted by
    the UTF-8 bytes of the side name.
    """
    if not isinstance(referee_seed, bytes) or len(referee_seed) != KEY_SIZE:
        raise InvalidDrawRequest(f"the referee seed must be {KEY_SIZE} bytes")
    _check_campaign_and_batch(campaign_id, batch)
    pairs = tuple((side, contributions[side]) for side in _sorted_sides(contributions))
    for side, contribution in pairs:
        if not isinstance(contribution, bytes):
            raise InvalidDrawRequest(f"the contribution of {side!r} must be bytes")
    message = encode(BATCH_DOMAIN, campaign_id, batch, pairs)
    return hmac.new(referee_seed, message, hashlib.sha256).digest()


def shuffle_draw_count(item_count: int) -> int:
    """How many consecutive draw indexes a shuffle of ``item_count`` items uses."""
    return max(item_count - 1, 0)


@dataclass(frozen=True)
class DiceStream:
    """All the draws of one dice batch, addressed by (turn, phase, index).

    A draw is a pure function of its address: asking twice gives the same
    value, and the order in which draws are asked for does not matter. The
    engine gives every die of a batch its own ``(turn, phase, draw_index)``.
    """

    key: bytes = field(repr=False)
    campaign_id: str
    batch: int

    def __post_init__(self) -> None:
        if not isinstance(self.key, bytes) or len(self.key) != KEY_SIZE:
            raise InvalidDrawRequest(f"a batch key must be {KEY_SIZE} bytes")
        _check_campaign_and_batch(self.campaign_id, self.batch)

    def die(self, turn: int, phase: str, draw_index: int) -> int:
        """One six-sided die, 1..6."""
        _check_address(turn, phase, draw_index)
        return self._die_at(self._draw_head(DIE_DOMAIN, turn, phase), draw_index)

    def roll(self, count: int, turn: int, phase: str, start_index: int) -> tuple[int, ...]:
        """``count`` dice at draw indexes ``start_index`` .. ``start_index + count - 1``."""
        if not _is_int(count) or count < 0:
            raise InvalidDrawRequest(f"dice count must be an integer >= 0, not {count!r}")
        _check_address(turn, phase, start_index)
        if count and start_index + count - 1 > INT_MAX:
            raise InvalidDrawRequest(f"draw index must be an integer >= 0, not {start_index + count - 1!r}")
        head = self._draw_head(DIE_DOMAIN, turn, phase)
        return tuple(self._die_at(head, start_index + offset) for offset in range(count))

    def _draw_head(self, domain: bytes, turn: int, phase: str) -> bytes:
        """``encode(domain, campaign_id, batch, turn, phase)``: what every draw of a
        (turn, phase) starts with (the encoding is a concatenation of elements)."""
        return encode(domain, self.campaign_id, self.batch, turn, phase)

    def _die_at(self, head: bytes, draw_index: int) -> int:
        """The die at ``draw_index``: the first byte below 252 of its stream, read block
        by block (one HMAC each; the first block almost always has one)."""
        key, message = self.key, head + _INT_ELEMENT.pack(TAG_INT, 8, draw_index)
        counter = 0
        while True:
            for byte in hmac.digest(key, message + _INT_ELEMENT.pack(TAG_INT, 8, counter), "sha256"):
                if byte < DIE_REJECT_THRESHOLD:
                    return byte % DIE_FACES + 1
            counter += 1

    def uniform_below(self, n: int, turn: int, phase: str, draw_index: int) -> int:
        """A uniformly distributed integer in ``0 .. n - 1``."""
        _check_address(turn, phase, draw_index)
        if not _is_int(n) or not 1 <= n <= INT_MAX:
            raise InvalidDrawRequest(f"the bound must be an integer in 1..2**63-1, not {n!r}")
        width = max(1, ((n - 1).bit_length() + 7) // 8)
        span = 256**width
        limit = span - span % n
        for chunk in _chunks(self.byte_stream(UNIFORM_DOMAIN, turn, phase, draw_index, n), width):
            value = int.from_bytes(chunk, "big")
            if value < limit:
                return value % n
        raise AssertionError("unreachable: the byte stream is endless")

    def shuffle(
        self, items: Sequence[T], turn: int, phase: str, draw_index_start: int
    ) -> tuple[T, ...]:
        """A uniformly random permutation of ``items`` (Fisher-Yates).

        Step ``s`` (``s = 0 .. len - 2``) swaps position ``i = len - 1 - s``
        with position ``uniform_below(i + 1, turn, phase,
        draw_index_start + s)``. It uses :func:`shuffle_draw_count` indexes.
        """
        _check_address(turn, phase, draw_index_start)
        result = list(items)
        for step, position in enumerate(range(len(result) - 1, 0, -1)):
            other = self.uniform_below(position + 1, turn, phase, draw_index_start + step)
            result[position], result[other] = result[other], result[position]
        return tuple(result)

    def byte_stream(self, domain: bytes, *fields: object) -> Iterator[int]:
        """The endless byte stream ``block(0) || block(1) || ...`` of a draw."""
        for counter in count():
            message = encode(domain, self.campaign_id, self.batch, *fields, counter)
            yield from hmac.new(self.key, message, hashlib.sha256).digest()


def _chunks(stream: Iterator[int], width: int) -> Iterator[bytes]:
    while True:
        yield bytes(next(stream) for _ in range(width))


def _sorted_sides(contributions: Mapping[str, bytes]) -> list[str]:
    for side in contributions:
        if not isinstance(side, str) or not side:
            raise InvalidDrawRequest(f"side names must be non-empty strings, not {side!r}")
    return sorted(contributions, key=lambda side: side.encode("utf-8", "surrogatepass"))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_campaign_and_batch(campaign_id: object, batch: object) -> None:
    if not isinstance(campaign_id, str) or not campaign_id:
        raise InvalidDrawRequest("campaign_id must be a non-empty string")
    if not _is_int(batch) or not 0 <= batch <= INT_MAX:
        raise InvalidDrawRequest(f"the batch number must be an integer >= 0, not {batch!r}")


def _check_address(turn: object, phase: object, draw_index: object) -> None:
    if not _is_int(turn) or not INT_MIN <= turn <= INT_MAX:
        raise InvalidDrawRequest(f"turn must be a 64-bit integer, not {turn!r}")
    if not isinstance(phase, str):
        raise InvalidDrawRequest(f"phase must be a string, not {phase!r}")
    if not _is_int(draw_index) or not 0 <= draw_index <= INT_MAX:
        raise InvalidDrawRequest(f"draw index must be an integer >= 0, not {draw_index!r}")
