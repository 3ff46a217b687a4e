"""The campaign's public protocol: what each public record says, how a batch's dice
are drawn, and how states are hashed. The referee's commands and ``verify`` both use
exactly this code, so that what is published is what is checked.

Public record kinds (each a signed, hash-linked record; see docs/dice.md):

- ``charter``: campaign, game, options, data hashes, players, the referee's public
  key, the commitment (anchor) of the referee's seed chain, sealed-mode player
  commitments, the algorithm's version.
- ``orders``: a side's accepted order set for a step: the hash of its canonical
  text and a commitment to its entropy line (the text stays private).
- ``batch``: one adjudication run: the referee's revealed seed, every contribution,
  the order records it used, every decision answered and every die rolled (the
  engine's history entries), the resulting state's hash, and what is asked next.
- ``chain``: a new seed-chain commitment, when the old chain runs out.
- ``undo``: the referee voids the batches after a given one.
- ``forfeit``: in sealed mode, a side that has not revealed its chain value by the
  step's deadline loses the campaign.

Sealed mode: each player commits a seed chain of their own in the charter and
reveals its value for step k with their orders for step k; batch k's key mixes every
side's reveal, so that nobody -- the referee included -- can compute a batch's dice
before every side's orders for it are locked.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from adjudicator.engine import Roll, Shuffle
from adjudicator.fairdice import DiceStream, batch_key, encode, shuffle_draw_count

ALGORITHM = "adjudicator-campaign/v1"
CHARTER, ORDERS, BATCH, CHAIN, UNDO, FORFEIT = "charter", "orders", "batch", "chain", "undo", "forfeit"
CONTRIBUTION_DOMAIN = b"adjudicator/contribution/v1"


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def state_hash(state_json: Mapping[str, Any]) -> str:
    """The hash of a state, as published in batch records: SHA-256 of its JSON with
    sorted keys and no whitespace (the canonical JSON of docs/dice.md §3; a game's
    state holds no floats, so the validating walk of ``canonical_json`` is skipped)."""
    text = json.dumps(state_json, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return sha256_hex(text)


def reveal_bytes(text: str | None) -> bytes | None:
    """A sealed-mode reveal line's value (hex) as bytes."""
    return None if text is None else bytes.fromhex(text)


def contribution(entropy: str | None, reveal: bytes | None) -> bytes:
    """A side's contribution to a batch key: its entropy line and, in sealed mode,
    its revealed chain value."""
    return hashlib.sha256(encode(CONTRIBUTION_DOMAIN, entropy or "", reveal or b"")).digest()


@dataclass
class BatchDice:
    """The dice of batch ``batch``: die j of the batch is drawn at draw index j from
    the stream keyed by the referee's seed and every side's contribution; a shuffle
    of n cards takes the next n-1 draw indexes (an unbiased Fisher-Yates)."""

    campaign: str
    batch: int
    referee_seed: bytes
    contributions: Mapping[str, bytes]
    drawn: int = 0
    rolls: list[tuple[str | None, tuple[int, ...]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        key = batch_key(self.campaign, self.batch, self.referee_seed, dict(self.contributions))
        self._stream = DiceStream(key, self.campaign, self.batch)

    def __call__(self, roll: Roll | Shuffle) -> tuple[int, ...]:
        if isinstance(roll, Shuffle):
            order = tuple(self._stream.shuffle(range(roll.size), roll.turn, roll.phase, self.drawn))
            self.drawn += shuffle_draw_count(roll.size)
            return order
        if roll.sides == 6:
            dice = self._stream.roll(roll.count, roll.turn, roll.phase, self.drawn)
        else:
            dice = tuple(self._stream.uniform_below(roll.sides, roll.turn, roll.phase, self.drawn + i) + 1
                         for i in range(roll.count))
        self.drawn += roll.count
        self.rolls.append((roll.side, dice))
        return dice
